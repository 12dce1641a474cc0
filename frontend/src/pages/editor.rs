//! `/templates/:id`: edit a template's config with live validation, save it as a new version
//! on the version it was based on. If someone saved meanwhile (409), their changes are shown
//! and nothing typed is lost: merge (three-way, a choice per key changed on both sides), load
//! theirs, or save mine as a fork. Also: undo/redo (`crate::history`), the template's details
//! (`components::template_details`), share links with a copy button, and the fixed action bar.

use crate::api;
use crate::clock::now_label;
use crate::components::context_bar::ContextBar;
use crate::components::diagnostics::{DiagnosticList, VerdictBadge};
use crate::components::form::ConfigForm;
use crate::components::import_export::ImportExport;
use crate::components::json_view::{reveal_field, reveal_line, JsonText};
use crate::components::memory_panel::MemoryPanel;
use crate::components::reveal;
use crate::components::run_dialog::RunDialog;
use crate::components::upgrade_panel::UpgradePanel;
use crate::draft::{self, Draft};
use crate::i18n::t;
use ds_studio_shared::api::{
    Diff, ForkRequest, Page, Role, Share, ShareCreate, ShareCreated, Template, Version,
    VersionCreate, VersionSummary,
};
use ds_studio_shared::validate::{validate, verdict};
use ds_studio_shared::{Context, Diagnostic, Document};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_params_map};

/// A save refused because the head moved: the head and what changed since our base.
#[derive(Clone)]
struct Conflict {
    head: Version,
    diff: Option<Diff>,
    /// Theirs merged into the text (three-way against the version the edit started from), or
    /// why it could not be.
    merge: Result<ds_studio_shared::merge::Merge, String>,
}

/// `/templates/:id`: the editor, once the template is known to exist and be readable; else a
/// not-found (or sign-in) page, and no editor at all.
#[component]
pub fn EditorPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let probe = api::fetched::<Template>(move || {
        format!(
            "/api/v1/templates/{}",
            ds_studio_shared::api::encode_query_value(&id())
        )
    });
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
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0));
    let template = RwSignal::new(None::<Template>);
    // The caller's role in the template's team (a server administrator counts as its admin):
    // below editor, the editor is read-only and the bar says why instead of offering Save,
    // Share and Run (Fork stays: into a team where they are an editor).
    let session = expect_context::<crate::session::Session>();
    let role = Memo::new(move |_| {
        let team = template.with(|t| t.as_ref().map(|t| t.team_id))?;
        session
            .0
            .with(|m| crate::components::team_pick::role_in(m.as_ref()?, team))
    });
    provide_context(crate::components::launch_panel::ImportedFrom(
        RwSignal::new(None),
    ));
    let can_edit = move || role.get().is_some_and(|r| r >= Role::Editor);
    let read_only = move || template.with(Option::is_some) && !can_edit();
    let text = RwSignal::new(String::new());
    let lang = crate::i18n::use_lang();
    let saved_text = RwSignal::new(String::new());
    // The context saved with the version: a changed release or cluster shape is unsaved too.
    let saved_context = RwSignal::new(Context::default());
    let release_change =
        RwSignal::new(None::<(ds_studio_shared::Release, ds_studio_shared::Release)>);
    let base = RwSignal::new(0i64);
    let context = RwSignal::new(Context::default());
    let nodes = RwSignal::new(1u32);
    let message = RwSignal::new(String::new());
    let status = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let conflict = RwSignal::new(None::<Conflict>);
    // The fork form: open, the name it proposes, and the team it goes to.
    let fork_open = RwSignal::new(false);
    let fork_team = RwSignal::new(None::<i64>);
    let fork_name = RwSignal::new(String::new());
    // The side chosen for each conflicting key of a merge.
    let choices = RwSignal::new(Vec::<(String, ds_studio_shared::merge::Side)>::new());
    // The version a merge was made on, until the merged text is saved.
    let merged_from = RwSignal::new(None::<i64>);
    let history = RwSignal::new(Vec::<VersionSummary>::new());
    let share_url = RwSignal::new(None::<String>);
    let shares = RwSignal::new(Vec::<Share>::new());
    // The share link whose Revoke waits for a confirmation.
    let revoking = RwSignal::new(None::<i64>);
    let load_shares = move |tid: i64| {
        spawn_local(async move {
            if let Ok(s) = api::get::<Vec<Share>>(&format!("/api/v1/templates/{tid}/shares")).await
            {
                shares.set(s);
            }
        });
    };
    let form_view = RwSignal::new(false);
    // JSON and form side by side (the results go below them).
    let split = RwSignal::new(false);
    let run_open = RwSignal::new(false);
    let io_status = RwSignal::new(None::<String>);
    let navigate = use_navigate();
    let navigate_fork = navigate.clone();
    let navigate_diff = navigate.clone();
    // "Compare": any two versions of the history.
    let diff_from = RwSignal::new(String::new());
    let diff_to = RwSignal::new(String::new());
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

    let load_history = move |tid: i64| {
        spawn_local(async move {
            if let Ok(p) = api::get::<Page<VersionSummary>>(&format!(
                "/api/v1/templates/{tid}/versions?limit=200"
            ))
            .await
            {
                history.set(p.items);
            }
        });
    };
    // Changes kept in this browser from an earlier visit, offered back until restored or
    // discarded; meanwhile the draft is not overwritten. `drafts_for` is the template whose
    // head has loaded (before, the empty editor would read as "nothing unsaved" and drop it).
    let pending_draft = RwSignal::new(None::<Draft>);
    // What the offered draft changes against the saved version (`draft::changes`).
    let draft_changes = RwSignal::new(None::<Option<(Vec<String>, usize, bool)>>);
    let drafts_for = RwSignal::new(None::<i64>);
    // Undo/redo over every change of the text; a loaded version starts it over.
    let undo = crate::history::Undo::attach(text);
    let load_version = move |v: Version| {
        undo.reset(&v.config_text);
        text.set(v.config_text.clone());
        saved_text.set(v.config_text);
        base.set(v.version);
        saved_context.set(v.context.clone());
        context.set(v.context);
    };
    Effect::new(move |_| {
        let tid = id();
        // Another template (after a fork): nothing of the previous one stays on screen.
        share_url.set(None);
        status.set(None);
        diff_from.set(String::new());
        diff_to.set(String::new());
        conflict.set(None);
        error.set(None);
        drafts_for.set(None);
        pending_draft.set(None);
        spawn_local(async move {
            match api::get::<Template>(&format!("/api/v1/templates/{tid}")).await {
                Ok(tp) => {
                    template.set(Some(tp));
                    match api::get::<Version>(&format!("/api/v1/templates/{tid}/versions/head"))
                        .await
                    {
                        Ok(v) => {
                            match draft::load(tid) {
                                Some(d) if d.text != v.config_text || d.context != v.context => {
                                    draft_changes
                                        .set(Some(draft::changes(&d, &v.config, &v.context, 3)));
                                    pending_draft.set(Some(d))
                                }
                                Some(_) => draft::clear(tid),
                                None => {}
                            }
                            load_version(v);
                            drafts_for.set(Some(tid));
                        }
                        Err(e) => error.set(Some(e.message)),
                    }
                    load_history(tid);
                    load_shares(tid);
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    });

    // One parse per keystroke, shared by the validator, the context bar, the form and the
    // memory panel.
    let doc = Memo::new(move |_| Document::parse(&text.get()));
    let result = Memo::new(move |_| {
        let ctx = context.get();
        let diags = doc.with(|d| validate(d, &ctx));
        (verdict(&diags), diags)
    });
    let json_label = t("editor.view_json");
    let fork_made = t("editor.fork_made");
    let diagnostics = Memo::new(move |_| result.with(|r| r.1.clone()));
    let select = move |d: Diagnostic| {
        let form_shown = form_view.get_untracked() || split.get_untracked();
        if form_shown && reveal_field(&d.path) {
            return;
        }
        let line = d.line.unwrap_or(1);
        if form_view.get_untracked() && !split.get_untracked() {
            // After the switch to the JSON view has been rendered (a hidden textarea takes no
            // focus).
            form_view.set(false);
            request_animation_frame(move || text.with_untracked(|t| reveal_line(t, line)));
        } else {
            text.with_untracked(|t| reveal_line(t, line));
        }
    };
    let dirty = move || text.get() != saved_text.get() || context.get() != saved_context.get();
    Effect::new(move |_| {
        if fork_open.get() {
            // The name is what the form asks for: the cursor waits there (focused first, so
            // that `reveal` has the last word on the scroll, clear of the action bar).
            request_animation_frame(|| {
                use wasm_bindgen::JsCast;
                if let Some(input) = document()
                    .get_element_by_id("fork-name")
                    .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
                {
                    let _ = input.focus();
                    input.select();
                }
            });
            reveal("fork-form", false);
        }
    });
    Effect::new(move |_| {
        if share_url.with(Option::is_some) {
            reveal("share-box", false);
        }
    });
    Effect::new(move |_| {
        if conflict.with(Option::is_some) {
            reveal("conflict", true);
        }
    });
    Effect::new(move |_| {
        if error.with(Option::is_some) {
            reveal("editor-error", false);
        }
    });
    // What is unsaved is kept in this browser as it is typed; saved (or edited back), it goes.
    Effect::new(move |_| {
        let Some(tid) = drafts_for.get() else {
            return;
        };
        if pending_draft.with(Option::is_some) {
            return;
        }
        if dirty() {
            draft::store(
                tid,
                &Draft {
                    base_version: base.get(),
                    text: text.get(),
                    context: context.get(),
                    saved_at: now_label(),
                },
            );
        } else {
            draft::clear(tid);
        }
    });
    // Restore: the draft's text on the version it was made on, so that a save after someone
    // else's goes through the conflict check (merge) instead of overwriting theirs.
    let restore_draft = move |d: Draft| {
        let tid = id();
        pending_draft.set(None);
        spawn_local(async move {
            if d.base_version != base.get_untracked() {
                match api::get::<Version>(&format!(
                    "/api/v1/templates/{tid}/versions/{}",
                    d.base_version
                ))
                .await
                {
                    Ok(v) => load_version(v),
                    Err(e) => error.set(Some(e.message)),
                }
            }
            text.set(d.text);
            context.set(d.context);
        });
    };

    // "Nothing to save" after a Save of an unchanged version (no copy is stored).
    let nothing_to_save = RwSignal::new(false);
    // One save at a time: a double click saved v2, then sent the same base again and met
    // its own v2 as "someone saved a newer version meanwhile".
    let saving = RwSignal::new(false);
    let save_on = move |on: i64| {
        let tid = id();
        if saving.get_untracked() {
            return;
        }
        if on == base.get_untracked() && !dirty() && conflict.with_untracked(Option::is_none) {
            nothing_to_save.set(true);
            return;
        }
        nothing_to_save.set(false);
        saving.set(true);
        let req = VersionCreate {
            config: None,
            config_text: Some(text.get_untracked()),
            message: message.get_untracked(),
            base_version: on,
            context: Some(context.get_untracked()),
        };
        spawn_local(async move {
            let answer =
                api::post::<_, Version>(&format!("/api/v1/templates/{tid}/versions"), &req).await;
            saving.try_set(false);
            match answer {
                Ok(v) => {
                    status.set(Some(format!("v{}", v.version)));
                    merged_from.set(None);
                    conflict.set(None);
                    error.set(None);
                    message.set(String::new());
                    saved_text.set(v.config_text.clone());
                    saved_context.set(v.context.clone());
                    base.set(v.version);
                    load_history(tid);
                }
                Err(e) if e.code == "version_conflict" => {
                    let head: Option<Version> = e
                        .details
                        .as_ref()
                        .and_then(|d| serde_json::from_value(d["head"].clone()).ok());
                    if let Some(head) = head {
                        let diff = api::get::<Diff>(&format!(
                            "/api/v1/templates/{tid}/diff?from={}&to={}",
                            req.base_version, head.version
                        ))
                        .await
                        .ok();
                        let merge = ds_studio_shared::merge::three_way(
                            &saved_text.get_untracked(),
                            &head.config_text,
                            &req.config_text.clone().unwrap_or_default(),
                        )
                        .map_err(|e| e.to_string());
                        choices.set(Vec::new());
                        conflict.set(Some(Conflict { head, diff, merge }));
                        load_history(tid);
                    } else {
                        error.set(Some(e.message));
                    }
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };

    // Keyboard: Ctrl+S (or ⌘S) saves a version; Escape closes the Run dialog and the fork form.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let key = ev.key();
        if (ev.ctrl_key() || ev.meta_key()) && key.eq_ignore_ascii_case("s") {
            ev.prevent_default();
            commit_focused_input();
            save_on(base.get_untracked());
        } else if key == "Escape" {
            run_open.set(false);
            fork_open.set(false);
        }
    });
    on_cleanup(move || keys.remove());

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
                <p class="muted based-on">{move || if read_only() { t("editor.viewing")() } else { t("editor.based_on")() }}" "<span id="base-version">{move || base.get()}</span>
                    {move || dirty().then(|| view! { <span id="dirty" class="badge">{t("editor.unsaved")}</span> })}
                </p>
                </div>
                <crate::components::template_details::TemplateDetails template
                    on_deleted=Callback::new({
                        let navigate = navigate.clone();
                        move |_| navigate("/templates", Default::default())
                    }) />
                // A viewer reads the context a version is saved for; changing it is an edit.
                <fieldset class="bare" id="context-fieldset" prop:disabled=read_only>
                    <ContextBar context doc nodes release_change />
                </fieldset>
        </div>
        {move || pending_draft.get().map(|d| {
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
                    <button type="button" id="draft-restore" on:click=move |_| restore_draft(d.clone())>{t("editor.draft_restore")}</button>
                    <button type="button" id="draft-discard" on:click=move |_| {
                        draft::clear(id());
                        pending_draft.set(None);
                    }>{t("editor.draft_discard")}</button>
                </div>
            }
        })}
        <div class="two-columns" class:wide=move || split.get()>
            <section class="editor">
                <UpgradePanel text context release_change />
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
                    <a id="split-verdict" href="#verdict" class=move || if result.with(|r| r.0) == ds_studio_shared::validate::Verdict::Accepted { "verdict verdict-chip ok" } else { "verdict verdict-chip bad" }>
                        {move || {
                            let l = lang.get();
                            let (errors, warnings) = result.with(|r| (
                                r.1.iter().filter(|d| d.severity == ds_studio_shared::validate::Severity::Error).count(),
                                r.1.iter().filter(|d| d.severity == ds_studio_shared::validate::Severity::Warning).count(),
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
                <div class="toolbar action-bar">
                    {move || read_only().then(|| {
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
                    <button id="save" disabled=move || saving.get() on:click=move |_| save_on(base.get_untracked())>{t("editor.save")}</button>
                    {move || status.get().map(|s| view! { <span id="save-status" class="ok">{t("editor.saved")}" "{s}</span> })}
                    {move || (nothing_to_save.get() && !dirty()).then(|| view! { <span id="nothing-to-save" class="muted" role="status">{t("editor.nothing_to_save")}</span> })}
                    <button id="share" on:click=move |_| {
                        let tid = id();
                        let version = base.get_untracked();
                        spawn_local(async move {
                            let req = ShareCreate { version: Some(version), expires_at: None };
                            match api::post::<_, ShareCreated>(&format!("/api/v1/templates/{tid}/share"), &req).await {
                                Ok(s) => {
                                    share_url.set(Some(s.url));
                                    load_shares(tid);
                                }
                                Err(e) => error.set(Some(e.message)),
                            }
                        });
                    }>{t("editor.share")}</button>
                    </Show>
                    <button id="fork" aria-expanded=move || fork_open.get().to_string() on:click=move |_| {
                        if fork_open.get_untracked() {
                            fork_open.set(false);
                            return;
                        }
                        // Prefilled with a name no visible template has: NAME (fork N).
                        let source = template.get_untracked().map(|t| t.name).unwrap_or_default();
                        let base = ds_studio_shared::api::fork_base_name(&source).to_string();
                        fork_name.set(format!("{base} (fork)"));
                        fork_open.set(true);
                        spawn_local(async move {
                            let path = format!("/api/v1/templates?limit=200&q={}", ds_studio_shared::api::encode_query_value(&base));
                            if let Ok(page) = api::get::<Page<Template>>(&path).await {
                                let taken: std::collections::HashSet<String> = page.items.into_iter().map(|t| t.name).collect();
                                if let Some(free) = ds_studio_shared::api::free_fork_name(&source, |n| taken.contains(n)) {
                                    fork_name.set(free);
                                }
                            }
                        });
                    }>{t("editor.fork")}</button>
                    <Show when=can_edit>
                    <button id="run" on:click=move |_| run_open.update(|o| *o = !*o)>{t("editor.run")}</button>
                    <A href=move || format!("/templates/{}/sweep", id()) attr:id="sweep-link" attr:class="button">{t("editor.sweep")}</A>
                    </Show>
                </div>
                {move || fork_open.get().then(|| {
                    let navigate = navigate.clone();
                    view! {
                        <form id="fork-form" class="toolbar" on:submit=move |ev: leptos::ev::SubmitEvent| {
                            ev.prevent_default();
                            let tid = id();
                            let req = ForkRequest { team_id: fork_team.get_untracked(), name: Some(fork_name.get_untracked()), version: Some(base.get_untracked()) };
                            let navigate = navigate.clone();
                            spawn_local(async move {
                                match api::post::<_, Template>(&format!("/api/v1/templates/{tid}/fork"), &req).await {
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
                })}
                <RunDialog template_id=Signal::derive(id) version=Signal::derive(move || base.get())
                    dirty=Signal::derive(dirty) text=saved_text context=saved_context open=run_open />
                {move || share_url.get().map(|u| {
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
                                    let _ = url;
                                });
                            }>{t("editor.copy_link")}</button>
                            {move || copied.get().then(|| view! { <span id="share-copied" class="ok">{t("editor.link_copied")}</span> })}
                        </p>
                    }
                })}
                {move || error.get().map(|e| view! { <p id="editor-error" class="error" role="alert">{e}</p> })}
                {move || merged_from.get().map(|v| view! { <p id="merged-note" class="ok" role="status">{t("merge.done")}" v"{v}" · "{t("merge.review")}</p> })}
                {move || conflict.get().map(|c| {
                    let head_version = c.head.version;
                    let head = c.head.clone();
                    view! {
                        <div id="conflict" class="card conflict" role="alert">
                            <strong>{t("editor.conflict")}" (v"{head_version}")"</strong>
                            <p>{t("editor.conflict_changes")}</p>
                            <ul id="conflict-changes">
                                {c.diff.map(|d| d.changes.into_iter().map(|ch| view! {
                                    <li><code>{ch.op}" "{ch.path}</code>" "
                                        {ch.old.map(|v| v.to_string()).unwrap_or_default()}" → "
                                        {ch.new.map(|v| v.to_string()).unwrap_or_default()}</li>
                                }).collect_view())}
                            </ul>
                            {match c.merge.clone() {
                                Err(why) => view! { <p class="muted" id="merge-unavailable">{t("merge.unavailable")}" "{why}</p> }.into_any(),
                                Ok(m) => {
                                    let theirs_text = c.head.config_text.clone();
                                    let head_for_merge = c.head.clone();
                                    let conflicts = m.conflicts.clone();
                                    let n_conflicts = conflicts.len();
                                    let show = |v: &Option<serde_json::Value>| v.as_ref().map_or_else(|| t("merge.absent")().to_string(), |v| v.to_string());
                                    view! {
                                        <div id="merge">
                                            <p id="merge-summary">{format!("{} {}", m.applied.len(), t("merge.applied")())}
                                                {(n_conflicts > 0).then(|| format!(" · {}", t("merge.to_choose")().replace("{n}", &n_conflicts.to_string())))}</p>
                                            {(n_conflicts > 0).then(|| view! {
                                                <table id="merge-conflicts">
                                                    <thead><tr><th>{t("merge.key")}</th><th>{t("merge.base")}</th><th>{t("merge.theirs")}</th><th>{t("merge.mine")}</th></tr></thead>
                                                    <tbody>
                                                    {conflicts.iter().map(|c| {
                                                        let p = c.path.clone();
                                                        let (p1, p2, p3, p4) = (p.clone(), p.clone(), p.clone(), p.clone());
                                                        let pick = move |side| choices.update(|ch| { ch.retain(|(x, _)| *x != p1); ch.push((p1.clone(), side)); });
                                                        let pick2 = pick.clone();
                                                        let is = move |side| choices.with(|ch| ch.iter().any(|(x, s)| *x == p2 && *s == side));
                                                        view! {
                                                            <tr data-path=p3>
                                                                <td><code>{p4}</code></td>
                                                                <td><code>{show(&c.base)}</code></td>
                                                                <td><label><input type="radio" name=format!("merge-{}", c.path) class="take-theirs"
                                                                    prop:checked={ let is = is.clone(); move || is(ds_studio_shared::merge::Side::Theirs) }
                                                                    on:change=move |_| pick(ds_studio_shared::merge::Side::Theirs) />" "<code>{show(&c.theirs)}</code></label></td>
                                                                <td><label><input type="radio" name=format!("merge-{}", c.path) class="keep-mine"
                                                                    prop:checked=move || is(ds_studio_shared::merge::Side::Mine)
                                                                    on:change=move |_| pick2(ds_studio_shared::merge::Side::Mine) />" "<code>{show(&c.mine)}</code></label></td>
                                                            </tr>
                                                        }
                                                    }).collect_view()}
                                                    </tbody>
                                                </table>
                                            })}
                                            <button id="merge-apply" disabled=move || choices.with(Vec::len) < n_conflicts
                                                on:click=move |_| {
                                                    match ds_studio_shared::merge::resolve(&m, &theirs_text, &choices.get_untracked()) {
                                                        Ok(merged) => {
                                                            // The merged text on their version: saving it makes the next version.
                                                            text.set(merged);
                                                            base.set(head_for_merge.version);
                                                            saved_text.set(head_for_merge.config_text.clone());
                                                            saved_context.set(head_for_merge.context.clone());
                                                            conflict.set(None);
                                                            status.set(None);
                                                            merged_from.set(Some(head_for_merge.version));
                                                        }
                                                        Err(e) => error.set(Some(e.to_string())),
                                                    }
                                                }>{t("merge.apply")}</button>
                                        </div>
                                    }.into_any()
                                }
                            }}
                            <button id="take-theirs" on:click=move |_| { load_version(head.clone()); conflict.set(None); }>{t("editor.take_theirs")}</button>
                            <button id="save-as-fork" on:click={
                                let navigate = navigate_fork.clone();
                                move |_| {
                                    // A new template from the version this text was based on, and
                                    // the text saved on it: nothing typed is lost, theirs stays.
                                    let tid = id();
                                    // A name of its own: a second fork of the same template must not collide.
                                    let name = template.get_untracked().map(|t| format!("{} ({})", t.name, now_label()));
                                    // Into this template's team, where the one saving is an editor.
                                    let req = ForkRequest { team_id: template.get_untracked().map(|t| t.team_id), name, version: Some(base.get_untracked()) };
                                    let body = text.get_untracked();
                                    let msg = message.get_untracked();
                                    let ctx = context.get_untracked();
                                    let navigate = navigate.clone();
                                    spawn_local(async move {
                                        let fork = match api::post::<_, Template>(&format!("/api/v1/templates/{tid}/fork"), &req).await {
                                            Ok(f) => f,
                                            Err(e) => return error.set(Some(e.message)),
                                        };
                                        let save = VersionCreate { config: None, config_text: Some(body), message: msg, base_version: fork.head_version, context: Some(ctx) };
                                        match api::post::<_, Version>(&format!("/api/v1/templates/{}/versions", fork.id), &save).await {
                                            Ok(_) => navigate(&format!("/templates/{}", fork.id), Default::default()),
                                            // The fork exists but holds their version: say so, the text stays here.
                                            Err(e) => error.set(Some(format!("{} ({}: {})", e.message, fork_made(), fork.name))),
                                        }
                                    });
                                }
                            }>{t("editor.save_as_fork")}</button>
                        </div>
                    }
                })}
            </section>
            <section class="results">
                <VerdictBadge verdict=Signal::derive(move || result.get().0)
                    release=Signal::derive(move || context.get().release().unwrap_or_default())
                    launcher=Signal::derive(move || context.get().launcher) />
                <DiagnosticList diagnostics text=text on_select=select read_only=Signal::derive(read_only)
                    on_switch_launcher=Callback::new(move |_| context.update(|c| c.launcher = ds_studio_shared::Launcher::HfTrainer)) />
                <MemoryPanel doc context nodes />
                <crate::components::effective_panel::EffectivePanel doc context />
                <crate::components::launch_panel::LaunchPanel doc context nodes />
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
                                let revoke = move |_| {
                                    let tid = id();
                                    spawn_local(async move {
                                        match api::delete(&format!("/api/v1/templates/{tid}/shares/{sid}")).await {
                                            Ok(()) => { revoking.set(None); load_shares(tid) }
                                            Err(e) => error.set(Some(e.message)),
                                        }
                                    });
                                };
                                view! {
                                    " "
                                    {move || if revoking.get() == Some(sid) {
                                        view! {
                                            <span class="notice revoke-confirm" role="alert">{t("editor.revoke_confirm")}</span>
                                            " "<button class="revoke-yes danger" on:click=revoke>{t("editor.revoke")}</button>
                                            " "<button class="revoke-no" on:click=move |_| revoking.set(None)>{t("team.cancel")}</button>
                                        }.into_any()
                                    } else {
                                        view! { <button class="revoke" prop:hidden=move || !can_edit() on:click=move |_| revoking.set(Some(sid))>{t("editor.revoke")}</button> }.into_any()
                                    }}
                                }.into_any()
                            }}
                        </li>
                    </For>
                </ul>
                <h3>{t("editor.history")}</h3>
                <div class="toolbar" id="compare-versions">
                    <label>{t("editor.diff_from")}{version_select("diff-from", diff_from)}</label>
                    <label>{t("editor.diff_to")}{version_select("diff-to", diff_to)}</label>
                    <button id="diff-go" disabled=move || diff_from.get().is_empty() || diff_to.get().is_empty() || diff_from.get() == diff_to.get()
                        on:click=move |_| navigate_diff(&format!("/templates/{}/diff/{}/{}", id(), diff_from.get_untracked(), diff_to.get_untracked()), Default::default())>
                        {t("editor.compare")}</button>
                </div>
                <ol id="history" reversed>
                    <For each=move || history.get() key=|v| v.version let:v>
                        <li data-version=v.version>
                            <A href=format!("/templates/{}/v/{}", id(), v.version) attr:class="permalink"><strong>{format!("v{}", v.version)}</strong></A>" "{let m = v.message.clone(); move || crate::server_text::version_message(&m, lang.get())}
                            {(v.version > 1).then(|| view! {
                                " "<A href=format!("/templates/{}/diff/{}/{}", id(), v.version - 1, v.version) attr:class="diff-link">{t("editor.diff_prev")}</A>
                            })}
                            <span class="muted">" — "{v.author.clone()}" · "<crate::components::states::When at=v.created_at.clone() />" · "{crate::i18n::verdict_label(v.verdict)}</span>
                        </li>
                    </For>
                </ol>
            </section>
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
