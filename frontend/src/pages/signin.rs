//! `/signin`: password sign-in; on success the session is stored and the template list opens.

use crate::api;
use crate::i18n::t;
use crate::session::Session;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::LoginRequest;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;

#[component]
pub fn SignInPage() -> impl IntoView {
    let session = expect_context::<Session>();
    let (user, set_user) = signal(String::new());
    let (password, set_password) = signal(String::new());
    let (error, set_error) = signal(None::<String>);
    let navigate = use_navigate();
    let query = leptos_router::hooks::use_query_map();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let req = LoginRequest {
            username: user.get_untracked(),
            password: password.get_untracked(),
        };
        let navigate = navigate.clone();
        spawn_local(async move {
            match api::call(ep::Login::url([]), &req).await {
                Ok(me) => {
                    api::set_csrf(&me);
                    session.0.set(Some(me));
                    // Back to the page that asked for a sign-in (this site's paths only).
                    let next = query
                        .with_untracked(|q| q.get("next"))
                        .and_then(|n| crate::components::states::safe_next(&n).map(str::to_string))
                        .unwrap_or_else(|| "/templates".into());
                    navigate(&next, Default::default());
                }
                Err(e) => set_error.set(Some(e.message)),
            }
        });
    };
    view! {
        <form id="signin" class="card narrow" on:submit=submit>
            <h2>{t("signin.title")}</h2>
            <label>{t("signin.user")}
                <input id="username" autocomplete="username" required
                    on:input=move |ev| set_user.set(event_target_value(&ev)) />
            </label>
            <label>{t("signin.password")}
                <input id="password" type="password" autocomplete="current-password" required
                    on:input=move |ev| set_password.set(event_target_value(&ev)) />
            </label>
            {move || (query.with(|q| q.get("link")).as_deref() == Some("dead")).then(|| view! {
                <p class="notice" id="signin-link-dead" role="status">{t("signin.link_dead")}</p>
            })}
            <button type="submit" id="signin-submit">{t("signin.submit")}</button>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <p class="muted" id="signin-help">{t("signin.help_a")}<code>"ds-studio user passwd NAME"</code>{t("signin.help_b")}<code>"ds-studio user add NAME"</code>{t("signin.help_c")}</p>
        </form>
    }
}
