//! The routes and the frame around them (header, navigation, language, session).

use crate::api;
use crate::components::states::{NotFound, RequireSignIn, SessionKnown};
use crate::i18n::{t, Language};
use crate::pages::{
    compare::CompareJobsPage, diff::DiffPage, editor::EditorPage, job::JobPage, jobs::JobsPage,
    settings::SettingsPage, shared::SharedPage, signin::SignInPage, templates::TemplatesPage,
    validate::ValidatePage, version::VersionPage,
};
use crate::Session;
use ds_studio_shared::api::SessionState;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::path;

#[component]
pub fn App() -> impl IntoView {
    let lang = Language::load();
    provide_context(lang);
    let session = Session(RwSignal::new(None));
    provide_context(session);
    let known = SessionKnown(RwSignal::new(false));
    provide_context(known);
    provide_context(crate::key_docs::KeyDocs(RwSignal::new(false)));
    // Who is signed in: `/auth/session` answers 200 either way, so a signed-out visit logs no
    // error in the console.
    spawn_local(async move {
        if let Ok(s) = api::get::<SessionState>("/api/v1/auth/session").await {
            if let Some(me) = s.me {
                api::set_csrf(&me);
                session.0.set(Some(me));
            }
        }
        known.0.set(true);
    });
    let signout = move |_| {
        spawn_local(async move {
            let _ =
                api::post::<_, serde_json::Value>("/api/v1/auth/logout", &serde_json::json!({}))
                    .await;
            session.0.set(None);
        });
    };
    view! {
        <Router>
            <a href="#main" class="skip-link" id="skip-link" on:click=|ev: leptos::ev::MouseEvent| {
                // Focus the content without a navigation (the router would take the hash).
                ev.prevent_default();
                #[cfg(target_arch = "wasm32")]
                {
                    use wasm_bindgen::JsCast;
                    if let Some(main) = leptos::prelude::document()
                        .get_element_by_id("main")
                        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = main.focus();
                    }
                }
            }>{t("nav.skip")}</a>
            <header>
                <h1>"ds-studio"</h1>
                <span class="subtitle">{t("subtitle")}</span>
                <nav>
                    <A href="/">{t("nav.validate")}</A>
                    <A href="/templates">{t("nav.templates")}</A>
                    <A href="/jobs" attr:id="nav-jobs">{t("nav.jobs")}</A>
                    <A href="/settings" attr:id="nav-settings">{t("nav.settings")}</A>
                </nav>
                {move || match session.0.get() {
                    Some(me) => view! {
                        <span id="whoami">{me.user.display_name}</span>
                        <button id="signout" on:click=signout>{t("nav.signout")}</button>
                    }.into_any(),
                    None => view! { <A href="/signin" attr:id="signin-link">{t("nav.signin")}</A> }.into_any(),
                }}
                <button id="lang" on:click=move |_| lang.toggle()>{t("lang.other")}</button>
            </header>
            <FocusOnNavigate />
            <main id="main" tabindex="-1">
                <Routes fallback=|| {
                    let location = leptos_router::hooks::use_location();
                    view! { <NotFound route=true what=Signal::derive(move || format!("{} {}", crate::i18n::t("state.no_page")(), location.pathname.get())) /> }
                }>
                    <Route path=path!("/") view=ValidatePage />
                    <Route path=path!("/signin") view=SignInPage />
                    <Route path=path!("/templates") view=|| view! { <RequireSignIn><TemplatesPage /></RequireSignIn> } />
                    <Route path=path!("/templates/:id") view=|| view! { <RequireSignIn><EditorPage /></RequireSignIn> } />
                    <Route path=path!("/templates/:id/diff/:from/:to") view=|| view! { <RequireSignIn><DiffPage /></RequireSignIn> } />
                    <Route path=path!("/templates/:id/v/:n") view=|| view! { <RequireSignIn><VersionPage /></RequireSignIn> } />
                    <Route path=path!("/shared/:token") view=SharedPage />
                    <Route path=path!("/jobs") view=|| view! { <RequireSignIn><JobsPage /></RequireSignIn> } />
                    <Route path=path!("/settings") view=SettingsPage />
                    <Route path=path!("/jobs/:id") view=|| view! { <RequireSignIn><JobPage /></RequireSignIn> } />
                    <Route path=path!("/jobs/compare/:ids") view=|| view! { <RequireSignIn><CompareJobsPage /></RequireSignIn> } />
                </Routes>
            </main>
        </Router>
    }
}

/// After a navigation inside the app, the focus moves to the new page's heading (as a page
/// load would start there), so keyboard and screen-reader users land on what changed. Not on
/// the first load, and not when the user is already typing in a field of the new page.
#[component]
fn FocusOnNavigate() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    Effect::new(move |previous: Option<String>| {
        let path = location.pathname.get();
        if previous.is_some_and(|p| p != path) {
            focus_heading(20);
        }
        path
    });
}

/// Focuses `main`'s first heading once the page has rendered it (tries every 50 ms).
fn focus_heading(tries: u32) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let attempt = move || {
            let doc = leptos::prelude::document();
            let busy = doc
                .active_element()
                .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
            if busy {
                return;
            }
            match doc
                .query_selector("main h2, main h1")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                Some(h) => {
                    if !h.has_attribute("tabindex") {
                        let _ = h.set_attribute("tabindex", "-1");
                    }
                    let _ = h.focus();
                }
                None if tries > 0 => focus_heading(tries - 1),
                None => {}
            }
        };
        if tries >= 20 {
            leptos::prelude::request_animation_frame(attempt);
        } else {
            leptos::prelude::set_timeout(attempt, std::time::Duration::from_millis(50));
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = tries;
}
