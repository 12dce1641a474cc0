//! `/templates/:id`: edit a template's config with live validation, save it as a new version
//! on the version it was based on. If someone saved meanwhile (409), their changes are shown
//! and nothing typed is lost: merge (three-way, a choice per key changed on both sides), load
//! theirs, or save mine as a fork. Also: undo/redo (`crate::history`), the template's details
//! (`components::template_details`), share links with a copy button, and the fixed action bar.

mod actions;
mod conflict;
mod head;
mod results;
mod state;

use crate::api;
use crate::components::form::ConfigForm;
use crate::components::import_export::ImportExport;
use crate::components::json_view::JsonText;
use crate::components::run_dialog::RunDialog;
use crate::components::upgrade_panel::UpgradePanel;
use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use state::EditorState;

/// `/templates/:id`: the editor, once the template is known to exist and be readable; else a
/// not-found (or sign-in) page, and no editor at all.
#[component]
pub fn EditorPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let probe = api::fetched(move || ep::GetTemplate::url([&id()]));
    // Only whether it can be shown: another readable template (a fork opened) keeps the same
    // editor, which loads it itself.
    // `None` while loading, then the error if there is one.
    let state = Memo::new(move |_| probe.with(|p| p.as_ref().map(|r| r.as_ref().err().cloned())));
    move || match state.get() {
        None => api::loading(),
        Some(Some(e)) => {
            crate::components::states::error_view(e, format!("{} {}", t("state.template")(), id()))
        }
        Some(None) => view! { <Editor /> }.into_any(),
    }
}

#[component]
fn Editor() -> impl IntoView {
    let st = EditorState::new();
    let EditorState {
        template,
        text,
        context,
        doc,
        diagnostics,
        base,
        form_view,
        split,
        pending_draft,
        io_status,
        error,
        merged_from,
        saved_text,
        saved_context,
        run_open,
        fork_open,
        release_change,
        ..
    } = st;
    let json_label = t("editor.view_json");
    // Keyboard: Ctrl+S (or ⌘S) saves a version; Escape closes the Run dialog and the fork form.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let key = ev.key();
        if (ev.ctrl_key() || ev.meta_key()) && key.eq_ignore_ascii_case("s") {
            ev.prevent_default();
            commit_focused_input();
            st.save_on(base.get_untracked());
        } else if key == "Escape" {
            run_open.set(false);
            fork_open.set(false);
        }
    });
    on_cleanup(move || keys.remove());
    let read_only = move || st.read_only();
    view! {
        <head::EditorHead st />
        <head::DraftBanner st />
        <div class="two-columns" class:wide=move || split.get()>
            <section class="editor">
                <UpgradePanel text context release_change />
                <actions::ViewRow st />
                <div class="panes" data-undo-scope class:split=move || split.get()>
                    <JsonText text diagnostics hidden=Signal::derive(move || form_view.get() && !split.get()) io_status loading=Signal::derive(move || base.get() == 0 || pending_draft.with(Option::is_some))
                        read_only=Signal::derive(read_only)
                        label=Signal::derive(move || json_label().to_string()) />
                    <Show when=move || form_view.get() || split.get()>
                        <fieldset class="plain" prop:disabled=read_only>
                        <ConfigForm text doc diagnostics fills_auto=Signal::derive(move || context.get().launcher.fills_auto())
                            release=Signal::derive(move || context.get().release().unwrap_or_default()) />
                        </fieldset>
                    </Show>
                </div>
                <ImportExport text name=Signal::derive(move || template.get().map(|t| t.name).unwrap_or_default()) status=io_status
                    read_only=Signal::derive(read_only) />
                <actions::ActionBar st />
                <actions::ForkForm st />
                <RunDialog template_id=Signal::derive(move || st.id()) version=Signal::derive(move || base.get())
                    dirty=Signal::derive(move || st.dirty()) text=saved_text context=saved_context open=run_open />
                <actions::ShareBox st />
                {move || error.get().map(|e| view! { <p id="editor-error" class="error" role="alert">{e}</p> })}
                {move || merged_from.get().map(|v| view! { <p id="merged-note" class="ok" role="status">{t("merge.done")}" v"{v}" · "{t("merge.review")}</p> })}
                <conflict::ConflictPanel st />
            </section>
            <results::Results st />
        </div>
    }
}

/// A field of the context bar or the trainer arguments takes its value on `change`, which the
/// browser fires when the field loses focus: Ctrl+S while typing in one would save without it.
/// Blurring the focused input fires that `change` at once; focus then returns to it.
fn commit_focused_input() {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let Some(el) = leptos::prelude::document().active_element() else {
            return;
        };
        if el.tag_name() != "INPUT" {
            return;
        }
        if let Ok(h) = el.dyn_into::<web_sys::HtmlElement>() {
            h.blur().ok();
            h.focus().ok();
        }
    }
}
