//! The editor's results column: the verdict and diagnostics, the memory, effective-config and
//! launch panels, the template's share links and its history of versions.

use super::state::EditorState;
use crate::components::diagnostics::{DiagnosticList, VerdictBadge};
use crate::components::memory_panel::MemoryPanel;
use crate::i18n::t;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

#[component]
pub fn Results(st: EditorState) -> impl IntoView {
    let EditorState {
        result,
        context,
        diagnostics,
        text,
        doc,
        nodes,
        ..
    } = st;
    view! {
        <section class="results">
            <VerdictBadge verdict=Signal::derive(move || result.get().0)
                release=Signal::derive(move || context.get().release().unwrap_or_default())
                launcher=Signal::derive(move || context.get().launcher) />
            <DiagnosticList diagnostics text=text on_select=Callback::new(move |d: ds_studio_shared::Diagnostic| st.select(d)) read_only=Signal::derive(move || st.read_only())
                on_switch_launcher=Callback::new(move |_| context.update(|c| c.launcher = ds_studio_shared::Launcher::HfTrainer)) />
            <MemoryPanel doc context nodes />
            <crate::components::effective_panel::EffectivePanel doc context />
            <crate::components::launch_panel::LaunchPanel doc context nodes />
            <SharesList st />
            <History st />
        </section>
    }
}

/// The template's share links, each revocable after a confirmation (editors).
#[component]
fn SharesList(st: EditorState) -> impl IntoView {
    let EditorState {
        shares, revoking, ..
    } = st;
    view! {
        <h3>{t("editor.shares")}</h3>
        <p class="muted" id="shares-hint">{t("editor.shares_hint")}</p>
        <ul id="shares">
            <For each=move || shares.get() key=|s| (s.id, s.revoked) let:s>
                <li data-share=s.id class=if s.revoked { "muted" } else { "" }>
                    <code>{format!("{}…", s.prefix)}</code>{format!(" v{} · {} · ", s.version, s.created_by)}<crate::components::states::When at=s.created_at.clone() />
                    {if s.revoked {
                        view! { <span class="badge">{t("editor.revoked")}</span> }.into_any()
                    } else {
                        let sid = s.id;
                        view! {
                            " "
                            {move || if revoking.get() == Some(sid) {
                                view! {
                                    <span class="notice revoke-confirm" role="alert">{t("editor.revoke_confirm")}</span>
                                    " "<button class="revoke-yes danger" on:click=move |_| st.revoke_share(sid)>{t("editor.revoke")}</button>
                                    " "<button class="revoke-no" on:click=move |_| revoking.set(None)>{t("team.cancel")}</button>
                                }.into_any()
                            } else {
                                view! { <button class="revoke" prop:hidden=move || !st.can_edit() on:click=move |_| revoking.set(Some(sid))>{t("editor.revoke")}</button> }.into_any()
                            }}
                        }.into_any()
                    }}
                </li>
            </For>
        </ul>
    }
}

/// The versions, newest first, each with its permalink and a diff to the one before; any two
/// compared.
#[component]
fn History(st: EditorState) -> impl IntoView {
    let EditorState {
        history,
        diff_from,
        diff_to,
        lang,
        ..
    } = st;
    let navigate = use_navigate();
    // A select of the history's versions writing `chosen`.
    let version_select = move |id: &'static str, chosen: RwSignal<String>| {
        view! {
            <select id=id on:change=move |ev| chosen.set(event_target_value(&ev))>
                <option value="">"—"</option>
                <For each=move || history.get() key=|v| v.version let:v>
                    <option value=v.version.to_string()>{format!("v{}", v.version)}</option>
                </For>
            </select>
        }
    };
    view! {
        <h3>{t("editor.history")}</h3>
        <div class="toolbar" id="compare-versions">
            <label>{t("editor.diff_from")}{version_select("diff-from", diff_from)}</label>
            <label>{t("editor.diff_to")}{version_select("diff-to", diff_to)}</label>
            <button id="diff-go" disabled=move || diff_from.get().is_empty() || diff_to.get().is_empty() || diff_from.get() == diff_to.get()
                on:click=move |_| navigate(&format!("/templates/{}/diff/{}/{}", st.id(), diff_from.get_untracked(), diff_to.get_untracked()), Default::default())>
                {t("editor.compare")}</button>
        </div>
        <ol id="history" reversed>
            <For each=move || history.get() key=|v| v.version let:v>
                <li data-version=v.version>
                    <A href=format!("/templates/{}/v/{}", st.id(), v.version) attr:class="permalink"><strong>{format!("v{}", v.version)}</strong></A>" "{let m = v.message.clone(); move || crate::server_text::version_message(&m, lang.get())}
                    {(v.version > 1).then(|| view! {
                        " "<A href=format!("/templates/{}/diff/{}/{}", st.id(), v.version - 1, v.version) attr:class="diff-link">{t("editor.diff_prev")}</A>
                    })}
                    <span class="muted">" — "{v.author.clone()}" · "<crate::components::states::When at=v.created_at.clone() />" · "{crate::i18n::verdict_label(v.verdict)}</span>
                </li>
            </For>
        </ol>
    }
}
