//! The states every page shares besides its content: not found (an unknown route, template,
//! version or job: said plainly, with where to go instead, and never an editor), signed out (a
//! prompt that signs in and comes back to the page), and an API error (its message).
//! [`RequireSignIn`] wraps the pages that need an account, so they fetch nothing while signed
//! out and the console stays clean.

use crate::api::ApiError;
use crate::i18n::t;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

/// Whether the session is known yet (the first `/auth/session` answer has come), provided at
/// the root beside [`crate::session::Session`].
#[derive(Clone, Copy)]
pub struct SessionKnown(pub RwSignal<bool>);

/// Where a sign-in link sends back to: a path of this site only (`/x`, not `//x` or `http:`).
pub fn safe_next(next: &str) -> Option<&str> {
    (next.starts_with('/') && !next.starts_with("//") && !next.contains('\\')).then_some(next)
}

/// "Not found": what was asked for, that it may also be hidden from this account, and links.
/// `route`: `what` is a whole sentence about a path no page has.
#[component]
pub fn NotFound(
    #[prop(into)] what: Signal<String>,
    #[prop(optional)] route: bool,
) -> impl IntoView {
    view! {
        <section class="card not-found" id="not-found">
            <h2 tabindex="-1">{t("state.not_found")}</h2>
            <p>{move || what.get()}{(!route).then(|| view! { " "{t("state.not_found_why")} })}</p>
            <p><A href="/templates">{t("nav.templates")}</A>" · "<A href="/jobs">{t("nav.jobs")}</A>" · "<A href="/">{t("nav.validate")}</A></p>
        </section>
    }
}

/// "Sign in to see this page", with a link that comes back here after signing in.
#[component]
pub fn SignInPrompt() -> impl IntoView {
    let location = use_location();
    let next = move || {
        // The router's search has no leading `?`.
        let search = location.search.get();
        let here = if search.is_empty() {
            location.pathname.get()
        } else {
            format!(
                "{}?{}",
                location.pathname.get(),
                search.trim_start_matches('?')
            )
        };
        format!(
            "/signin?next={}",
            ds_studio_shared::api::encode_query_value(&here)
        )
    };
    view! {
        <section class="card narrow" id="signin-prompt">
            <h2 tabindex="-1">{t("state.signin_title")}</h2>
            <p>{t("state.signin_why")}</p>
            <p><A href=next attr:id="signin-prompt-link" attr:class="button">{t("nav.signin")}</A></p>
            <p class="muted">{t("state.signin_public")}" "<A href="/">{t("nav.validate")}</A></p>
        </section>
    }
}

/// The view of an API error: signed out (401) → the sign-in prompt, not found (404) →
/// [`NotFound`] naming `what` (also for an id that is not one, `/templates/abc`: the server's
/// 400 on the path), else the server's message.
pub fn error_view(e: ApiError, what: String) -> AnyView {
    // Pages load their resource by the id in the path: a 400 is an id that is not one.
    let bad_id = e.status == 400;
    match e.status {
        401 => view! { <SignInPrompt /> }.into_any(),
        404 => view! { <NotFound what=what /> }.into_any(),
        _ if bad_id => view! { <NotFound what=what /> }.into_any(),
        _ => view! { <p class="error card" role="alert">{e.message}</p> }.into_any(),
    }
}

/// Its children when someone is signed in; the sign-in prompt when nobody is; nothing while the
/// session is not known yet.
#[component]
pub fn RequireSignIn(children: ChildrenFn) -> impl IntoView {
    let session = expect_context::<crate::session::Session>();
    let known = expect_context::<SessionKnown>();
    let signed_in = Memo::new(move |_| session.0.with(Option::is_some));
    move || {
        if !known.0.get() {
            crate::api::loading()
        } else if signed_in.get() {
            children().into_any()
        } else {
            view! { <SignInPrompt /> }.into_any()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_in_returns_only_to_this_site() {
        assert_eq!(safe_next("/jobs?tag=a"), Some("/jobs?tag=a"));
        assert_eq!(safe_next("//evil.example/x"), None);
        assert_eq!(safe_next("https://evil.example"), None);
        assert_eq!(safe_next("/\\evil.example"), None);
        assert_eq!(safe_next(""), None);
    }
}

/// A server time (RFC 3339) shown as a person reads it, relative (`5 min ago`, `5 分钟前`) and
/// kept current, with the full local time on hover and for screen readers (`<time datetime>`).
#[component]
pub fn When(#[prop(into)] at: String) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let now = crate::clock::ticking_now();
    let then = crate::clock::parse_ms(&at);
    let iso = at.clone();
    let datetime = at.clone();
    view! {
        <time datetime=datetime title=move || crate::clock::local_time(&iso, lang.get())>
            {move || match then {
                Some(ms) => crate::clock::relative(ms, now.get(), lang.get()),
                None => at.clone(),
            }}
        </time>
    }
}
