//! `/shared/:token`: a version opened through a read-only share link, without an account. The
//! colleague who opens it sees what the team sees: the config as JSON or as the read-only form
//! (with every tooltip), DeepSpeed's verdict and the diagnostics; they can download or copy the
//! JSON and, signed in, fork it into their own team under a name they choose.

use crate::api;
use crate::components::diagnostics::{DiagnosticList, VerdictBadge};
use crate::components::form::ConfigForm;
use crate::i18n::{t, use_lang};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{ForkRequest, SharedView};
use ds_studio_shared::Document;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_navigate, use_params_map};

#[component]
pub fn SharedPage() -> impl IntoView {
    let params = use_params_map();
    let token = move || params.with(|p| p.get("token").unwrap_or_default());
    let view_res = api::fetched(move || ep::OpenShared::url([&token()]));
    move || {
        view_res
            .get()
            .map(|r| match r {
                Err(e) => {
                    crate::components::states::error_view(e, t("state.share_link")().to_string())
                }
                Ok(s) => view! { <SharedVersion token=token() shared=s /> }.into_any(),
            })
            .unwrap_or_else(api::loading)
    }
}

#[component]
fn SharedVersion(token: String, shared: SharedView) -> impl IntoView {
    let lang = use_lang();
    #[cfg(not(target_arch = "wasm32"))]
    let _ = lang;
    let session = expect_context::<crate::session::Session>();
    let navigate = use_navigate();
    // Never written: the form below is read-only.
    let text = RwSignal::new(shared.version.config_text.clone());
    let doc = Memo::new(move |_| Document::parse(&text.get()));
    let diags = shared.version.diagnostics.clone();
    let diagnostics = Signal::derive(move || diags.clone());
    let verdict = shared.version.verdict;
    let context = shared.version.context.clone();
    let release = context.release().unwrap_or_default();
    let fills_auto = context.launcher.fills_auto();
    let form_view = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let fork_open = RwSignal::new(false);
    let fork_team = RwSignal::new(None::<i64>);
    let title = format!("{}@v{}", shared.template_name, shared.version.version);
    let fork_name = RwSignal::new(format!("{} (shared)", shared.template_name));
    let file = crate::components::import_export::file_name(&shared.template_name);
    let next = format!("/signin?next=/shared/{token}");
    let fork = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let req = ForkRequest {
            team_id: fork_team.get_untracked(),
            name: Some(fork_name.get_untracked()),
            version: None,
        };
        let url = ep::ForkShared::url([&token]);
        let navigate = navigate.clone();
        spawn_local(async move {
            match api::call(url, &req).await {
                Ok(t) => navigate(&format!("/templates/{}", t.id), Default::default()),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    let config_text = shared.version.config_text.clone();
    let copy_text = config_text.clone();
    view! {
        <div class="two-columns" id="shared">
            <section class="card">
                <h2 id="shared-title">{format!("{} @ v{}", shared.template_name, shared.version.version)}</h2>
                <p class="muted">{t("shared.readonly")}" · "{shared.team_name.clone()}" · "{shared.version.author.clone()}" · "
                    <crate::components::states::When at=shared.version.created_at.clone() />
                    {shared.expires_at.clone().map(|e| view! { " · "{t("shared.expires")}" "<crate::components::states::When at=e /> })}</p>
                {(!shared.description.is_empty()).then(|| view! { <p id="shared-description">{shared.description.clone()}</p> })}
                <p>{shared.tags.iter().map(|g| view! { <span class="tag">{g.clone()}</span> }).collect_view()}</p>
                <div class="toolbar">
                    <button type="button" id="shared-download" on:click=move |_| {
                        #[cfg(target_arch = "wasm32")]
                        match crate::components::import_export::browser::download(&file, &config_text) {
                            Ok(()) => status.set(Some(crate::i18n::tr("shared.downloaded", lang.get_untracked()).to_string())),
                            Err(e) => error.set(Some(e)),
                        }
                        #[cfg(not(target_arch = "wasm32"))]
                        let _ = (&file, &config_text);
                    }>{t("shared.download")}</button>
                    <button type="button" id="shared-copy" on:click=move |_| {
                        let text = copy_text.clone();
                        spawn_local(async move {
                            #[cfg(target_arch = "wasm32")]
                            match crate::components::import_export::browser::copy(&text).await {
                                Ok(()) => status.set(Some(crate::i18n::tr("shared.copied", lang.get_untracked()).to_string())),
                                Err(e) => error.set(Some(e)),
                            }
                            #[cfg(not(target_arch = "wasm32"))]
                            let _ = text;
                        });
                    }>{t("shared.copy")}</button>
                    {move || if session.0.get().is_some() {
                        view! {
                            <button type="button" id="shared-fork" aria-expanded=move || fork_open.get().to_string()
                                on:click=move |_| fork_open.update(|o| *o = !*o)>{t("shared.fork")}</button>
                        }.into_any()
                    } else {
                        view! { <a id="shared-signin" href=next.clone()>{t("shared.signin_to_fork")}</a> }.into_any()
                    }}
                    {move || status.get().map(|s| view! { <span id="shared-status" class="ok" role="status">{s}</span> })}
                </div>
                {move || fork_open.get().then(|| view! {
                    <form id="shared-fork-form" class="toolbar" on:submit=fork.clone()
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { fork_open.set(false) }>
                        <label>{t("editor.fork_name")}" "
                            <input id="shared-fork-name" required maxlength="120" prop:value=move || fork_name.get()
                                on:input=move |ev| fork_name.set(event_target_value(&ev)) /></label>
                        <span class="muted">{t("editor.fork_from")}" "{title.clone()}</span>
                        <crate::components::team_pick::TeamPick chosen=fork_team id="shared-fork-team" />
                        <button type="submit" id="shared-fork-submit">{t("editor.fork_create")}</button>
                    </form>
                })}
                {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <div class="view-switch" role="tablist">
                    <button id="shared-view-json" role="tab" aria-selected=move || (!form_view.get()).to_string()
                        on:click=move |_| form_view.set(false)>{t("editor.view_json")}</button>
                    <button id="shared-view-form" role="tab" aria-selected=move || form_view.get().to_string()
                        on:click=move |_| form_view.set(true)>{t("editor.view_form")}</button>
                </div>
                <pre id="shared-config" class="code" style:display=move || if form_view.get() { "none" } else { "" }>{shared.version.config_text.clone()}</pre>
                <Show when=move || form_view.get()>
                    <ConfigForm text doc diagnostics fills_auto=Signal::derive(move || fills_auto)
                        release=Signal::derive(move || release) readonly=true />
                </Show>
            </section>
            <section class="results">
                <VerdictBadge verdict=Signal::derive(move || verdict) release=Signal::derive(move || release)
                    launcher=Signal::derive(move || context.launcher) />
                <DiagnosticList diagnostics />
            </section>
        </div>
    }
}
