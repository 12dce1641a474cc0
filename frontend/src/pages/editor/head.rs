//! The editor's head (the template's name, where it was forked from, the version the text is
//! based on, the template's details and the context bar) and the banner offering a draft kept
//! in this browser.

use super::state::EditorState;
use crate::components::context_bar::ContextBar;
use crate::draft;
use crate::i18n::t;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

#[component]
pub fn EditorHead(st: EditorState) -> impl IntoView {
    let EditorState {
        template,
        base,
        context,
        doc,
        nodes,
        release_change,
        ..
    } = st;
    let navigate = use_navigate();
    view! {
        <div class="editor-head">
                <div class="title-row">
                <h2 id="template-name">{move || template.get().map(|t| t.name).unwrap_or_default()}</h2>
                {move || template.get().and_then(|t| t.forked_from).map(|f| view! {
                    <p id="forked-from" class="muted">{t("editor.forked_from")}" "
                        {match f.name {
                            Some(name) => view! { <A href=format!("/templates/{}/v/{}", f.template_id, f.version)>{format!("{name}@v{}", f.version)}</A> }.into_any(),
                            None => view! { <span>{format!("{} (v{})", t("editor.fork_source_gone")(), f.version)}</span> }.into_any(),
                        }}
                    </p>
                })}
                <p class="muted based-on">{move || if st.read_only() { t("editor.viewing")() } else { t("editor.based_on")() }}" "<span id="base-version">{move || base.get()}</span>
                    {move || st.dirty().then(|| view! { <span id="dirty" class="badge">{t("editor.unsaved")}</span> })}
                </p>
                </div>
                <crate::components::template_details::TemplateDetails template
                    on_deleted=Callback::new(move |_| navigate("/templates", Default::default())) />
                // A viewer reads the context a version is saved for; changing it is an edit.
                <fieldset class="bare" id="context-fieldset" prop:disabled=move || st.read_only()>
                    <ContextBar context doc nodes release_change />
                </fieldset>
        </div>
    }
}

/// Changes kept in this browser from an earlier visit: when, on which version, what they
/// change; Restore or Discard.
#[component]
pub fn DraftBanner(st: EditorState) -> impl IntoView {
    let EditorState {
        pending_draft,
        draft_changes,
        lang,
        ..
    } = st;
    move || {
        pending_draft.get().map(|d| {
        // Kept in UTC (`2026-11-24 22:15:03`), shown in the browser's time zone.
        let iso = format!("{}Z", d.saved_at.replace(' ', "T"));
        let base = d.base_version;
        let when = move || format!("{} · v{base}", crate::clock::local_time(&iso, lang.get()));
        view! {
            <div id="draft-banner" class="notice" role="status">
                <span>{t("editor.draft_found")}" "<strong>{when}</strong>" "{t("editor.draft_choose")}</span>
                {move || draft_changes.get().map(|c| view! {
                    <span id="draft-changes" class="muted">{move || {
                        let lang = lang.get();
                        match &c {
                            None => crate::i18n::tr("editor.draft_unparsed", lang).to_string(),
                            Some((paths, more, context)) => {
                                let mut parts: Vec<String> = paths.clone();
                                if *more > 0 {
                                    parts.push(crate::i18n::tr("editor.draft_more", lang).replace("{n}", &more.to_string()));
                                }
                                if *context {
                                    parts.push(crate::i18n::tr("editor.draft_context", lang).to_string());
                                }
                                format!("{} {}", crate::i18n::tr("editor.draft_changed", lang), parts.join(", "))
                            }
                        }
                    }}</span>
                })}
                <button type="button" id="draft-restore" on:click=move |_| st.restore_draft(d.clone())>{t("editor.draft_restore")}</button>
                <button type="button" id="draft-discard" on:click=move |_| {
                    draft::clear(st.id());
                    pending_draft.set(None);
                }>{t("editor.draft_discard")}</button>
            </div>
        }
    })
    }
}
