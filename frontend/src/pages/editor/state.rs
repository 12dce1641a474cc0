//! The editor's state and what its buttons do: every signal of the page in one `Copy` value
//! ([`EditorState`]), loading a template and its versions, drafts kept in the browser, saving
//! (with the conflict a moved head brings), sharing and forking. The views (`head`, `actions`,
//! `conflict`, `results`) read and call it; none holds state of its own beyond a widget's.

use crate::api;
use crate::clock::now_label;
use crate::components::json_view::{reveal_field, reveal_line};
use crate::components::reveal;
use crate::draft::{self, Draft};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    Diff, ForkRequest, Role, Share, ShareCreate, Template, Version, VersionCreate, VersionSummary,
};
use ds_studio_shared::validate::{validate, verdict, Verdict};
use ds_studio_shared::{Context, Diagnostic, Document};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;

/// A save refused because the head moved: the head and what changed since our base.
#[derive(Clone)]
pub struct Conflict {
    pub head: Version,
    pub diff: Option<Diff>,
    /// Theirs merged into the text (three-way against the version the edit started from), or
    /// why it could not be.
    pub merge: Result<ds_studio_shared::merge::Merge, String>,
}

/// What a draft changes against the saved version (`draft::changes`): the keys, how many
/// more, whether the context too; `None` when the draft does not parse.
pub type DraftChanges = Option<(Vec<String>, usize, bool)>;

/// Every signal of the editor page (cheap to copy into each closure and view).
#[derive(Clone, Copy)]
pub struct EditorState {
    /// The template's id, from the route.
    pub tid: Memo<i64>,
    pub template: RwSignal<Option<Template>>,
    /// The caller's role in the template's team (a server administrator counts as its admin).
    pub role: Memo<Option<Role>>,
    pub text: RwSignal<String>,
    pub saved_text: RwSignal<String>,
    /// The context saved with the version: a changed release or cluster shape is unsaved too.
    pub saved_context: RwSignal<Context>,
    pub context: RwSignal<Context>,
    pub release_change: RwSignal<Option<(ds_studio_shared::Release, ds_studio_shared::Release)>>,
    /// The version the text is based on (0 until the head has loaded).
    pub base: RwSignal<i64>,
    pub nodes: RwSignal<u32>,
    pub message: RwSignal<String>,
    pub status: RwSignal<Option<String>>,
    pub error: RwSignal<Option<String>>,
    pub conflict: RwSignal<Option<Conflict>>,
    /// The fork form: open, the name it proposes, and the team it goes to.
    pub fork_open: RwSignal<bool>,
    pub fork_team: RwSignal<Option<i64>>,
    pub fork_name: RwSignal<String>,
    /// The side chosen for each conflicting key of a merge.
    pub choices: RwSignal<Vec<(String, ds_studio_shared::merge::Side)>>,
    /// The version a merge was made on, until the merged text is saved.
    pub merged_from: RwSignal<Option<i64>>,
    pub history: RwSignal<Vec<VersionSummary>>,
    pub share_url: RwSignal<Option<String>>,
    pub shares: RwSignal<Vec<Share>>,
    /// The share link whose Revoke waits for a confirmation.
    pub revoking: RwSignal<Option<i64>>,
    pub form_view: RwSignal<bool>,
    /// JSON and form side by side (the results go below them).
    pub split: RwSignal<bool>,
    pub run_open: RwSignal<bool>,
    pub io_status: RwSignal<Option<String>>,
    /// "Compare": any two versions of the history.
    pub diff_from: RwSignal<String>,
    pub diff_to: RwSignal<String>,
    /// Changes kept in this browser from an earlier visit, offered back until restored or
    /// discarded; meanwhile the draft is not overwritten.
    pub pending_draft: RwSignal<Option<Draft>>,
    /// What the offered draft changes against the saved version (`draft::changes`).
    pub draft_changes: RwSignal<Option<DraftChanges>>,
    /// The template whose head has loaded (before, the empty editor would read as "nothing
    /// unsaved" and drop the draft).
    pub drafts_for: RwSignal<Option<i64>>,
    /// Undo/redo over every change of the text; a loaded version starts it over.
    pub undo: crate::history::Undo,
    /// One parse per keystroke, shared by the validator, the context bar, the form and the
    /// memory panel.
    pub doc: Memo<Document>,
    pub result: Memo<(Verdict, Vec<Diagnostic>)>,
    pub diagnostics: Memo<Vec<Diagnostic>>,
    /// "Nothing to save" after a Save of an unchanged version (no copy is stored).
    pub nothing_to_save: RwSignal<bool>,
    /// One save at a time: a double click saved v2, then sent the same base again and met its
    /// own v2 as "someone saved a newer version meanwhile".
    pub saving: RwSignal<bool>,
    pub lang: RwSignal<ds_studio_shared::i18n::Lang>,
}

impl EditorState {
    /// The page's signals, and its effects: a template loaded (with an offered draft) whenever
    /// the route's id changes, drafts kept as typed, panels scrolled into view as they open.
    pub fn new() -> EditorState {
        let params = use_params_map();
        let tid = Memo::new(move |_| {
            params.with(|p| p.get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0))
        });
        let template = RwSignal::new(None::<Template>);
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
        let text = RwSignal::new(String::new());
        let context = RwSignal::new(Context::default());
        let doc = Memo::new(move |_| Document::parse(&text.get()));
        let result = Memo::new(move |_| {
            let ctx = context.get();
            let diags = doc.with(|d| validate(d, &ctx));
            (verdict(&diags), diags)
        });
        let st = EditorState {
            tid,
            template,
            role,
            text,
            saved_text: RwSignal::new(String::new()),
            saved_context: RwSignal::new(Context::default()),
            context,
            release_change: RwSignal::new(None),
            base: RwSignal::new(0),
            nodes: RwSignal::new(1),
            message: RwSignal::new(String::new()),
            status: RwSignal::new(None),
            error: RwSignal::new(None),
            conflict: RwSignal::new(None),
            fork_open: RwSignal::new(false),
            fork_team: RwSignal::new(None),
            fork_name: RwSignal::new(String::new()),
            choices: RwSignal::new(Vec::new()),
            merged_from: RwSignal::new(None),
            history: RwSignal::new(Vec::new()),
            share_url: RwSignal::new(None),
            shares: RwSignal::new(Vec::new()),
            revoking: RwSignal::new(None),
            form_view: RwSignal::new(false),
            split: RwSignal::new(false),
            run_open: RwSignal::new(false),
            io_status: RwSignal::new(None),
            diff_from: RwSignal::new(String::new()),
            diff_to: RwSignal::new(String::new()),
            pending_draft: RwSignal::new(None),
            draft_changes: RwSignal::new(None),
            drafts_for: RwSignal::new(None),
            undo: crate::history::Undo::attach(text),
            doc,
            result,
            diagnostics: Memo::new(move |_| result.with(|r| r.1.clone())),
            nothing_to_save: RwSignal::new(false),
            saving: RwSignal::new(false),
            lang: crate::i18n::use_lang(),
        };
        st.load_on_route();
        st.reveal_panels();
        st.keep_draft();
        st
    }

    pub fn id(self) -> i64 {
        self.tid.get()
    }

    /// The text or its context differs from the version it is based on.
    pub fn dirty(self) -> bool {
        self.text.get() != self.saved_text.get() || self.context.get() != self.saved_context.get()
    }

    /// Below editor the editor is read-only and the bar says why instead of offering Save,
    /// Share and Run (Fork stays: into a team where they are an editor).
    pub fn can_edit(self) -> bool {
        self.role.get().is_some_and(|r| r >= Role::Editor)
    }

    pub fn read_only(self) -> bool {
        self.template.with(Option::is_some) && !self.can_edit()
    }

    pub fn load_version(self, v: Version) {
        self.undo.reset(&v.config_text);
        self.text.set(v.config_text.clone());
        self.saved_text.set(v.config_text);
        self.base.set(v.version);
        self.saved_context.set(v.context.clone());
        self.context.set(v.context);
    }

    pub fn load_history(self, tid: i64) {
        let history = self.history;
        spawn_local(async move {
            if let Ok(p) = api::fetch(ep::ListVersions::url([&tid]).query("limit", 200)).await {
                history.set(p.items);
            }
        });
    }

    pub fn load_shares(self, tid: i64) {
        let shares = self.shares;
        spawn_local(async move {
            if let Ok(s) = api::fetch(ep::ListShares::url([&tid])).await {
                shares.set(s);
            }
        });
    }

    /// Another template (after a fork): nothing of the previous one stays on screen; its head
    /// loads, with a draft of it kept in this browser offered back.
    fn load_on_route(self) {
        let st = self;
        Effect::new(move |_| {
            let tid = st.id();
            st.share_url.set(None);
            st.status.set(None);
            st.diff_from.set(String::new());
            st.diff_to.set(String::new());
            st.conflict.set(None);
            st.error.set(None);
            st.drafts_for.set(None);
            st.pending_draft.set(None);
            spawn_local(async move {
                match api::fetch(ep::GetTemplate::url([&tid])).await {
                    Ok(tp) => {
                        st.template.set(Some(tp));
                        match api::fetch(ep::GetVersion::url([&tid, &"head"])).await {
                            Ok(v) => {
                                match draft::load(tid) {
                                    Some(d)
                                        if d.text != v.config_text || d.context != v.context =>
                                    {
                                        st.draft_changes.set(Some(draft::changes(
                                            &d, &v.config, &v.context, 3,
                                        )));
                                        st.pending_draft.set(Some(d))
                                    }
                                    Some(_) => draft::clear(tid),
                                    None => {}
                                }
                                st.load_version(v);
                                st.drafts_for.set(Some(tid));
                            }
                            Err(e) => st.error.set(Some(e.message)),
                        }
                        st.load_history(tid);
                        st.load_shares(tid);
                    }
                    Err(e) => st.error.set(Some(e.message)),
                }
            });
        });
    }

    /// The fork form, the share box, a conflict and an error scroll into view as they appear.
    fn reveal_panels(self) {
        let st = self;
        Effect::new(move |_| {
            if st.fork_open.get() {
                // The name is what the form asks for: the cursor waits there (focused first,
                // so that `reveal` has the last word on the scroll, clear of the action bar).
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
            if st.share_url.with(Option::is_some) {
                reveal("share-box", false);
            }
        });
        Effect::new(move |_| {
            if st.conflict.with(Option::is_some) {
                reveal("conflict", true);
            }
        });
        Effect::new(move |_| {
            if st.error.with(Option::is_some) {
                reveal("editor-error", false);
            }
        });
    }

    /// What is unsaved is kept in this browser as it is typed; saved (or edited back), it goes.
    fn keep_draft(self) {
        let st = self;
        Effect::new(move |_| {
            let Some(tid) = st.drafts_for.get() else {
                return;
            };
            if st.pending_draft.with(Option::is_some) {
                return;
            }
            if st.dirty() {
                draft::store(
                    tid,
                    &Draft {
                        base_version: st.base.get(),
                        text: st.text.get(),
                        context: st.context.get(),
                        saved_at: now_label(),
                    },
                );
            } else {
                draft::clear(tid);
            }
        });
    }

    /// Restore: the draft's text on the version it was made on, so that a save after someone
    /// else's goes through the conflict check (merge) instead of overwriting theirs.
    pub fn restore_draft(self, d: Draft) {
        let st = self;
        let tid = st.id();
        st.pending_draft.set(None);
        spawn_local(async move {
            if d.base_version != st.base.get_untracked() {
                match api::fetch(ep::GetVersion::url([&tid, &d.base_version])).await {
                    Ok(v) => st.load_version(v),
                    Err(e) => st.error.set(Some(e.message)),
                }
            }
            st.text.set(d.text);
            st.context.set(d.context);
        });
    }

    /// A diagnostic chosen in the list: its field in the form when the form shows it, else its
    /// line in the JSON view.
    pub fn select(self, d: Diagnostic) {
        let (form_view, split, text) = (self.form_view, self.split, self.text);
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
    }

    /// Saves the text as the version after `on`; a moved head brings the conflict panel.
    pub fn save_on(self, on: i64) {
        let st = self;
        let tid = st.id();
        if st.saving.get_untracked() {
            return;
        }
        if on == st.base.get_untracked()
            && !st.dirty()
            && st.conflict.with_untracked(Option::is_none)
        {
            st.nothing_to_save.set(true);
            return;
        }
        st.nothing_to_save.set(false);
        st.saving.set(true);
        let req = VersionCreate {
            config: None,
            config_text: Some(st.text.get_untracked()),
            message: st.message.get_untracked(),
            base_version: on,
            context: Some(st.context.get_untracked()),
        };
        spawn_local(async move {
            let answer = api::call(ep::SaveVersion::url([&tid]), &req).await;
            st.saving.try_set(false);
            match answer {
                Ok(v) => {
                    st.status.set(Some(format!("v{}", v.version)));
                    st.merged_from.set(None);
                    st.conflict.set(None);
                    st.error.set(None);
                    st.message.set(String::new());
                    st.saved_text.set(v.config_text.clone());
                    st.saved_context.set(v.context.clone());
                    st.base.set(v.version);
                    st.load_history(tid);
                }
                Err(e) if e.code == "version_conflict" => st.met_conflict(tid, &req, e).await,
                Err(e) => st.error.set(Some(e.message)),
            }
        });
    }

    /// A save met a newer head: what changed since our base and theirs merged into the text.
    async fn met_conflict(self, tid: i64, req: &VersionCreate, e: api::ApiError) {
        let head: Option<Version> = e
            .details
            .as_ref()
            .and_then(|d| serde_json::from_value(d["head"].clone()).ok());
        let Some(head) = head else {
            self.error.set(Some(e.message));
            return;
        };
        let diff = api::fetch(
            ep::DiffVersions::url([&tid])
                .query("from", req.base_version)
                .query("to", head.version),
        )
        .await
        .ok();
        let merge = ds_studio_shared::merge::three_way(
            &self.saved_text.get_untracked(),
            &head.config_text,
            &req.config_text.clone().unwrap_or_default(),
        )
        .map_err(|e| e.to_string());
        self.choices.set(Vec::new());
        self.conflict.set(Some(Conflict { head, diff, merge }));
        self.load_history(tid);
    }

    /// A share link to the version the text is based on.
    pub fn share(self) {
        let st = self;
        let tid = st.id();
        let version = st.base.get_untracked();
        spawn_local(async move {
            let req = ShareCreate {
                version: Some(version),
                expires_at: None,
            };
            match api::call(ep::CreateShare::url([&tid]), &req).await {
                Ok(s) => {
                    st.share_url.set(Some(s.url));
                    st.load_shares(tid);
                }
                Err(e) => st.error.set(Some(e.message)),
            }
        });
    }

    /// Opens (or closes) the fork form, prefilled with a name no visible template has:
    /// `NAME (fork N)`.
    pub fn toggle_fork(self) {
        let st = self;
        if st.fork_open.get_untracked() {
            st.fork_open.set(false);
            return;
        }
        let source = st
            .template
            .get_untracked()
            .map(|t| t.name)
            .unwrap_or_default();
        let base = ds_studio_shared::api::fork_base_name(&source).to_string();
        st.fork_name.set(format!("{base} (fork)"));
        st.fork_open.set(true);
        spawn_local(async move {
            let url = ep::ListTemplates::url([])
                .query("limit", 200)
                .query("q", &base);
            if let Ok(page) = api::fetch(url).await {
                let taken: std::collections::HashSet<String> =
                    page.items.into_iter().map(|t| t.name).collect();
                if let Some(free) =
                    ds_studio_shared::api::free_fork_name(&source, |n| taken.contains(n))
                {
                    st.fork_name.set(free);
                }
            }
        });
    }

    /// The fork form's request: the base version into the chosen team under the chosen name.
    pub fn fork_request(self) -> ForkRequest {
        ForkRequest {
            team_id: self.fork_team.get_untracked(),
            name: Some(self.fork_name.get_untracked()),
            version: Some(self.base.get_untracked()),
        }
    }

    /// Revokes share link `sid`.
    pub fn revoke_share(self, sid: i64) {
        let st = self;
        let tid = st.id();
        spawn_local(async move {
            match api::fetch(ep::RevokeShare::url([&tid, &sid])).await {
                Ok(_) => {
                    st.revoking.set(None);
                    st.load_shares(tid)
                }
                Err(e) => st.error.set(Some(e.message)),
            }
        });
    }
}
