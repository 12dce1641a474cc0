//! `/settings`: the interface language (remembered in this browser) and the signed-in user's
//! API tokens for the CLI and scripts: create (the token is shown once), list, revoke.

use crate::api;
use crate::i18n::{t, Language};
use crate::Session;
use ds_studio_shared::api::{ApiToken, TokenCreate, TokenCreated};
use ds_studio_shared::i18n::Lang;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// `2026-12-31` (a date input) as the end of that day in UTC; empty: no expiry.
pub fn expiry_of(date: &str) -> Option<String> {
    let d = date.trim();
    (!d.is_empty()).then(|| format!("{d}T23:59:59Z"))
}

#[component]
pub fn SettingsPage() -> impl IntoView {
    let lang = expect_context::<Language>();
    let session = expect_context::<Session>();
    let tokens = RwSignal::new(Vec::<ApiToken>::new());
    let name = RwSignal::new(String::new());
    let expires = RwSignal::new(String::new());
    let created = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let load = move || {
        spawn_local(async move {
            match api::get::<Vec<ApiToken>>("/api/v1/tokens").await {
                Ok(list) => tokens.set(list),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    // Load once the session is known (and again after signing in).
    Effect::new(move |_| {
        if session.0.with(|s| s.is_some()) {
            load();
        }
    });
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let req = TokenCreate {
            name: name.get_untracked(),
            expires_at: expiry_of(&expires.get_untracked()),
        };
        spawn_local(async move {
            match api::post::<_, TokenCreated>("/api/v1/tokens", &req).await {
                Ok(c) => {
                    created.set(Some(c.token));
                    error.set(None);
                    name.set(String::new());
                    load();
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    view! {
        <section class="card" id="settings">
            <h2>{t("settings.title")}</h2>
            <h3>{t("settings.language")}</h3>
            <div class="toolbar" role="radiogroup" aria-label=t("settings.language")>
                <label><input type="radio" name="lang" id="lang-en" prop:checked=move || lang.0.get() == Lang::En
                    on:change=move |_| lang.set(Lang::En) />"English"</label>
                <label><input type="radio" name="lang" id="lang-zh" prop:checked=move || lang.0.get() == Lang::Zh
                    on:change=move |_| lang.set(Lang::Zh) />"简体中文"</label>
            </div>
            <h3>{t("settings.tokens")}</h3>
            {move || if session.0.with(|s| s.is_none()) {
                view! { <p class="muted">{t("settings.sign_in_first")}</p> }.into_any()
            } else {
                view! {
                    <p class="muted">{t("settings.tokens_hint")}</p>
                    <form id="new-token" class="toolbar" on:submit=create>
                        <label>{t("settings.token_name")}
                            <input id="token-name" required maxlength="100" prop:value=move || name.get()
                                on:input=move |ev| name.set(event_target_value(&ev)) /></label>
                        <label>{t("settings.token_expires")}
                            <input id="token-expires" type="date" prop:value=move || expires.get()
                                on:input=move |ev| expires.set(event_target_value(&ev)) /></label>
                        <button type="submit">{t("settings.create_token")}</button>
                    </form>
                    {move || created.get().map(|tok| view! {
                        <p class="ok" role="status">{t("settings.new_token")}" "<code id="new-token-value">{tok}</code></p>
                    })}
                    {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                    {move || if tokens.with(|t| t.is_empty()) {
                        view! { <p class="muted">{t("settings.no_tokens")}</p> }.into_any()
                    } else {
                        view! { <ul id="tokens">
                            <For each=move || tokens.get() key=|tk| (tk.id, tk.revoked) let:tk>
                                <li data-token=tk.id class=if tk.revoked { "muted" } else { "" }>
                                    <strong>{tk.name.clone()}</strong>" "<code>{format!("{}…", tk.prefix)}</code>
                                    <span class="muted">" · "<crate::components::states::When at=tk.created_at.clone() />
                                        {match tk.last_used_at.clone() {
                                            Some(at) => view! { " · "{t("settings.last_used")}" "<crate::components::states::When at=at /> }.into_any(),
                                            None => view! { " · "{t("settings.never_used")} }.into_any(),
                                        }}
                                        {tk.expires_at.clone().map(|at| view! { " · "{t("settings.expires")}" "<crate::components::states::When at=at /> })}
                                    </span>
                                    {if tk.revoked {
                                        view! { " "<span class="badge">{t("editor.revoked")}</span> }.into_any()
                                    } else {
                                        let id = tk.id;
                                        view! { " "<button class="revoke-token" on:click=move |_| {
                                            spawn_local(async move {
                                                match api::delete(&format!("/api/v1/tokens/{id}")).await {
                                                    Ok(()) => load(),
                                                    Err(e) => error.set(Some(e.message)),
                                                }
                                            });
                                        }>{t("editor.revoke")}</button> }.into_any()
                                    }}
                                </li>
                            </For>
                        </ul> }.into_any()
                    }}
                }.into_any()
            }}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_expires_at_the_end_of_that_day_in_utc() {
        assert_eq!(
            expiry_of("2026-12-31").as_deref(),
            Some("2026-12-31T23:59:59Z")
        );
        assert_eq!(expiry_of("  "), None);
    }
}
