//! The routes and the frame around them (header, navigation, language, session).

use crate::api;
use crate::components::states::{NotFound, RequireSignIn, SessionKnown};
use crate::i18n::{t, Language};
use crate::pages::{signin::SignInPage, validate::ValidatePage};
use crate::session::Session;
use ds_studio_shared::api::endpoints as ep;
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
        if let Ok(s) = api::fetch(ep::GetSession::url([])).await {
            if let Some(me) = s.me {
                api::set_csrf(&me);
                session.0.set(Some(me));
            }
        }
        known.0.set(true);
    });
    let signout = move |_| {
        spawn_local(async move {
            let _ = api::fetch(ep::Logout::url([])).await;
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
                    <A href="/team" attr:id="nav-team">{t("nav.team")}</A>
                    <A href="/settings" attr:id="nav-settings">{t("nav.settings")}</A>
                </nav>
                {move || match session.0.get() {
                    Some(me) => view! {
                        // The user name (what signing in takes) on hover, beside the display name.
                        <span id="whoami" title=format!("{} · {}", t("nav.user_name")(), me.user.name)>{me.user.display_name}</span>
                        <button id="signout" on:click=signout>{t("nav.signout")}</button>
                    }.into_any(),
                    None => view! { <A href="/signin" attr:id="signin-link">{t("nav.signin")}</A> }.into_any(),
                }}
                <HelpLink />
                <button id="lang" on:click=move |_| lang.toggle()>{t("lang.other")}</button>
            </header>
            <FocusOnNavigate />
            <NoPasswordBanner />
            <main id="main" tabindex="-1">
                <Routes fallback=|| {
                    let location = leptos_router::hooks::use_location();
                    view! { <NotFound route=true what=Signal::derive(move || format!("{} {}", crate::i18n::t("state.no_page")(), location.pathname.get())) /> }
                }>
                    <Route path=path!("/") view=ValidatePage />
                    <Route path=path!("/signin") view=SignInPage />
                    <Route path=path!("/templates") view=|| view! { <RequireSignIn>{deferred(templates_page)}</RequireSignIn> } />
                    <Route path=path!("/templates/:id") view=|| view! { <RequireSignIn>{deferred(editor_page)}</RequireSignIn> } />
                    <Route path=path!("/templates/:id/diff/:from/:to") view=|| view! { <RequireSignIn>{deferred(diff_page)}</RequireSignIn> } />
                    <Route path=path!("/templates/:id/v/:n") view=|| view! { <RequireSignIn>{deferred(version_page)}</RequireSignIn> } />
                    <Route path=path!("/shared/:token") view=|| deferred(shared_page) />
                    <Route path=path!("/jobs") view=|| view! { <RequireSignIn>{deferred(jobs_page)}</RequireSignIn> } />
                    <Route path=path!("/settings") view=|| deferred(settings_page) />
                    <Route path=path!("/team") view=|| view! { <RequireSignIn>{deferred(team_page)}</RequireSignIn> } />
                    <Route path=path!("/jobs/:id") view=|| view! { <RequireSignIn>{deferred(job_page)}</RequireSignIn> } />
                    <Route path=path!("/templates/:id/sweep") view=|| view! { <RequireSignIn>{deferred(new_sweep_page)}</RequireSignIn> } />
                    <Route path=path!("/sweeps/:id") view=|| view! { <RequireSignIn>{deferred(sweep_page)}</RequireSignIn> } />
                    <Route path=path!("/jobs/compare/:ids") view=|| view! { <RequireSignIn>{deferred(compare_page)}</RequireSignIn> } />
                </Routes>
            </main>
        </Router>
    }
}

/// The header's Help: the book's page for where the user is, in their language, in a new tab
/// (the server serves the book at `/docs`, or says how to build it).
#[component]
fn HelpLink() -> impl IntoView {
    let lang = expect_context::<Language>();
    let location = leptos_router::hooks::use_location();
    let href = move || crate::help::page_for(&location.pathname.get(), lang.0.get());
    view! {
        <a id="nav-help" href=href target="_blank" rel="noopener">{t("nav.help")}</a>
    }
}

/// After a sign-in by a one-time link the user has no password: until they set one, a banner
/// says that signing out would lock them out and links to the form in `/settings` ("Later"
/// hides it until the next page load; `/settings` keeps offering it).
#[component]
fn NoPasswordBanner() -> impl IntoView {
    let session = expect_context::<Session>();
    let later = RwSignal::new(false);
    let location = leptos_router::hooks::use_location();
    move || {
        let show = session
            .0
            .with(|m| m.as_ref().is_some_and(|m| !m.user.has_password))
            && !later.get()
            && location.pathname.get() != "/settings";
        show.then(|| {
            view! {
                <div class="notice banner" id="no-password-banner" role="status">
                    {t("banner.no_password")}" "
                    <A href="/settings#password-heading" attr:id="set-password-link">{t("banner.set_password")}</A>" "
                    <button id="password-later" on:click=move |_| later.set(true)>{t("banner.later")}</button>
                </div>
            }
        })
    }
}

/// A page fetched on its first visit. Built with the `split` feature (as `cargo xtask build`
/// builds the browser bundle), each loader below is a split point: wasm-split moves the code
/// only those pages reach into their group's WASM chunk, so the first load of `/` carries the
/// validate page and the frame, not the editor, the job pages and their charts. Without the
/// feature (the frontend's tests) the loaders are plain functions and the page renders at once.
/// While the chunk is on its way the page says it is loading; if it cannot be fetched (the
/// network dropped, or the studio was upgraded under an open tab) it says so and offers a
/// reload, instead of stopping the whole app.
fn deferred<F>(load: fn() -> F) -> impl IntoView
where
    F: std::future::Future<Output = Result<AnyView, PageLoadError>> + 'static,
{
    let arrived = RwSignal::new(false);
    let page = send_wrapper::SendWrapper::new(async move {
        let page = load().await.unwrap_or_else(|_| {
            view! {
                <section class="card narrow" role="alert" id="page-load-failed">
                    <h2 tabindex="-1">{t("state.page_load_failed")}</h2>
                    <p>{t("state.page_load_why")}</p>
                    <p><button class="button" on:click=|_| { let _ = leptos::prelude::window().location().reload(); }>{t("state.reload")}</button></p>
                </section>
            }
            .into_any()
        });
        arrived.set(true);
        page
    });
    view! {
        {move || (!arrived.get()).then(api::loading)}
        {Suspend::new(page)}
    }
}

/// A deferred page's chunk could not be fetched.
struct PageLoadError;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for PageLoadError {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        PageLoadError
    }
}

/// Declares the loader of each deferred page, by chunk: the pages of one group share a WASM
/// chunk (fetched on the first visit of any of them), so what they have in common is fetched
/// once and compressed together rather than cut into many small shared chunks.
macro_rules! page_loaders {
    ($($group:ident { $($name:ident => $page:path;)* })*) => {$($(
        #[cfg(feature = "split")]
        #[leptos::wasm_split::wasm_split($group, wasm_split_path = ::leptos::wasm_split, fallible)]
        fn $name() -> Result<AnyView, PageLoadError> {
            use $page as Page;
            Ok(view! { <Page /> }.into_any())
        }
        #[cfg(not(feature = "split"))]
        async fn $name() -> Result<AnyView, PageLoadError> {
            use $page as Page;
            Ok(view! { <Page /> }.into_any())
        }
    )*)*};
}

page_loaders! {
    team_pages {
        templates_page => crate::pages::templates::TemplatesPage;
        editor_page => crate::pages::editor::EditorPage;
        diff_page => crate::pages::diff::DiffPage;
        version_page => crate::pages::version::VersionPage;
        shared_page => crate::pages::shared::SharedPage;
        settings_page => crate::pages::settings::SettingsPage;
        team_page => crate::pages::team::TeamPage;
    }
    job_pages {
        jobs_page => crate::pages::jobs::JobsPage;
        job_page => crate::pages::job::JobPage;
        compare_page => crate::pages::compare::CompareJobsPage;
        sweep_page => crate::pages::sweep::SweepPage;
        new_sweep_page => crate::pages::sweep_new::NewSweepPage;
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
