//! The editor's controls: the view switch (JSON, form, side by side) with undo and redo, the
//! fixed action bar (message, Save, Share, Fork, Run, Sweep; a note instead for a viewer), the
//! fork form and the share link's box.

use super::state::EditorState;
use crate::api;
use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::Role;
use ds_studio_shared::validate::{Severity, Verdict};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

#[component]
pub fn ViewRow(st: EditorState) -> impl IntoView {
    let EditorState {
        form_view,
        split,
        result,
        lang,
        undo,
        ..
    } = st;
    view! {
        <div class="view-row">
        <div class="view-switch" role="tablist">
            <button id="view-json" role="tab" aria-selected=move || (!form_view.get() && !split.get()).to_string()
                on:click=move |_| { form_view.set(false); split.set(false); }>{t("editor.view_json")}</button>
            <button id="view-form" role="tab" aria-selected=move || (form_view.get() && !split.get()).to_string()
                on:click=move |_| { form_view.set(true); split.set(false); }>{t("editor.view_form")}</button>
            <button id="view-split" role="tab" aria-selected=move || split.get().to_string()
                on:click=move |_| split.set(true)>{t("editor.view_split")}</button>
        </div>
        // Side by side the verdict and diagnostics fall below the panes: the verdict
        // and its counts stay in view here, linking down to them.
        <Show when=move || split.get()>
            <a id="split-verdict" href="#verdict" class=move || if result.with(|r| r.0) == Verdict::Accepted { "verdict verdict-chip ok" } else { "verdict verdict-chip bad" }>
                {move || {
                    let l = lang.get();
                    let (errors, warnings) = result.with(|r| (
                        r.1.iter().filter(|d| d.severity == Severity::Error).count(),
                        r.1.iter().filter(|d| d.severity == Severity::Warning).count(),
                    ));
                    let mark = if errors == 0 { "✓" } else { "✗" };
                    format!("{mark} {}", crate::i18n::tr("editor.split_verdict", l)
                        .replace("{errors}", &errors.to_string())
                        .replace("{warnings}", &warnings.to_string()))
                }}
            </a>
        </Show>
        <div class="toolbar undo-bar">
            <button type="button" id="undo" disabled=move || !undo.can_undo.get() title="Ctrl+Z"
                aria-keyshortcuts="Control+Z" on:click=move |_| undo.undo()>{t("editor.undo")}</button>
            <button type="button" id="redo" disabled=move || !undo.can_redo.get() title="Ctrl+Shift+Z"
                aria-keyshortcuts="Control+Shift+Z" on:click=move |_| undo.redo()>{t("editor.redo")}</button>
        </div>
        </div>
    }
}

#[component]
pub fn ActionBar(st: EditorState) -> impl IntoView {
    let EditorState {
        template,
        role,
        lang,
        message,
        saving,
        base,
        status,
        nothing_to_save,
        fork_open,
        run_open,
        ..
    } = st;
    let can_edit = move || st.can_edit();
    view! {
        <div class="toolbar action-bar">
            {move || st.read_only().then(|| {
                let team = template.get().map(|t| t.team_name).unwrap_or_default();
                let l = lang.get();
                let you = match role.get() {
                    Some(Role::Viewer) => crate::i18n::tr("role.viewer", l),
                    _ => crate::i18n::tr("editor.no_role", l),
                };
                let note = crate::i18n::tr("editor.read_only", l)
                    .replace("{role}", you)
                    .replace("{team}", &team);
                view! { <span id="read-only-note" class="notice" role="status">{note}</span> }
            })}
            <Show when=can_edit>
            <input id="message" placeholder=t("editor.message") aria-label=t("editor.message") prop:value=move || message.get()
                on:input=move |ev| message.set(event_target_value(&ev)) />
            <button id="save" disabled=move || saving.get() on:click=move |_| st.save_on(base.get_untracked())>{t("editor.save")}</button>
            {move || status.get().map(|s| view! { <span id="save-status" class="ok">{t("editor.saved")}" "{s}</span> })}
            {move || (nothing_to_save.get() && !st.dirty()).then(|| view! { <span id="nothing-to-save" class="muted" role="status">{t("editor.nothing_to_save")}</span> })}
            <button id="share" on:click=move |_| st.share()>{t("editor.share")}</button>
            </Show>
            <button id="fork" aria-expanded=move || fork_open.get().to_string() on:click=move |_| st.toggle_fork()>{t("editor.fork")}</button>
            <Show when=can_edit>
            <button id="run" on:click=move |_| run_open.update(|o| *o = !*o)>{t("editor.run")}</button>
            <A href=move || format!("/templates/{}/sweep", st.id()) attr:id="sweep-link" attr:class="button">{t("editor.sweep")}</A>
            </Show>
        </div>
    }
}

/// The fork form: a name, the team it goes to, Create.
#[component]
pub fn ForkForm(st: EditorState) -> impl IntoView {
    let EditorState {
        fork_open,
        fork_name,
        fork_team,
        base,
        error,
        ..
    } = st;
    let navigate = use_navigate();
    move || {
        fork_open.get().then(|| {
        let navigate = navigate.clone();
        view! {
            <form id="fork-form" class="toolbar" on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                let tid = st.id();
                let req = st.fork_request();
                let navigate = navigate.clone();
                spawn_local(async move {
                    match api::call(ep::ForkTemplate::url([&tid]), &req).await {
                        Ok(t) => {
                            fork_open.set(false);
                            navigate(&format!("/templates/{}", t.id), Default::default());
                        }
                        Err(e) => error.set(Some(e.message)),
                    }
                });
            }>
                <label>{t("editor.fork_name")}" "
                    <input id="fork-name" required maxlength="200" prop:value=move || fork_name.get()
                        on:input=move |ev| fork_name.set(event_target_value(&ev)) /></label>
                <span class="muted">{move || format!("{} v{}", t("editor.fork_from")(), base.get())}</span>
                <crate::components::team_pick::TeamPick chosen=fork_team id="fork-team" />
                {move || if fork_team.get().is_some() {
                    view! { <button type="submit" id="fork-submit">{t("editor.fork_create")}</button> }.into_any()
                } else {
                    view! { <span class="notice" id="fork-no-team">{t("editor.fork_no_team")}</span> }.into_any()
                }}
                <button type="button" on:click=move |_| fork_open.set(false)>{t("run.close")}</button>
            </form>
        }
    })
    }
}

/// The share link just made, with a copy button.
#[component]
pub fn ShareBox(st: EditorState) -> impl IntoView {
    let EditorState {
        share_url, error, ..
    } = st;
    move || {
        share_url.get().map(|u| {
        let copied = RwSignal::new(false);
        let url = u.clone();
        view! {
            <p id="share-box" class="toolbar" role="status">{t("editor.share_link")}" "<a id="share-url" href=u.clone()>{u.clone()}</a>
                <button type="button" id="copy-share" on:click=move |_| {
                    let url = url.clone();
                    spawn_local(async move {
                        #[cfg(target_arch = "wasm32")]
                        match crate::components::import_export::browser::copy(&url).await {
                            Ok(()) => copied.set(true),
                            Err(e) => error.set(Some(e)),
                        }
                        #[cfg(not(target_arch = "wasm32"))]
                        let _ = (url, error);
                    });
                }>{t("editor.copy_link")}</button>
                {move || copied.get().then(|| view! { <span id="share-copied" class="ok">{t("editor.link_copied")}</span> })}
            </p>
        }
    })
    }
}
