//! `/settings`: the interface language (remembered in this browser), the signed-in user's
//! password (set after a one-time sign-in link, or changed with the current one) and their API
//! tokens for the CLI and scripts: create (the token is shown once, with a Copy button), list,
//! revoke.

use crate::api;
use crate::i18n::{t, Language};
use crate::session::Session;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{ApiToken, TokenCreate, UserUpdate};
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
    let signed_in = Memo::new(move |_| session.0.with(Option::is_some));
    let tokens = RwSignal::new(Vec::<ApiToken>::new());
    let name = RwSignal::new(String::new());
    let expires = RwSignal::new(String::new());
    let created = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let load = move || {
        spawn_local(async move {
            match api::fetch(ep::ListTokens::url([])).await {
                Ok(list) => tokens.set(list),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    // Load once the session is known (and again after signing in).
    Effect::new(move |_| {
        if signed_in.get() {
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
            match api::call(ep::CreateToken::url([]), &req).await {
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
            {move || session.0.get().map(|me| view! {
                <p class="muted" id="signed-in-as">{t("settings.signed_in_as")}" "<strong>{me.user.name.clone()}</strong>
                    {(me.user.display_name != me.user.name).then(|| format!(" ({})", me.user.display_name))}</p>
            })}
            <h3>{t("settings.language")}</h3>
            <div class="toolbar" role="radiogroup" aria-label=t("settings.language")>
                <label><input type="radio" name="lang" id="lang-en" prop:checked=move || lang.0.get() == Lang::En
                    on:change=move |_| lang.set(Lang::En) />"English"</label>
                <label><input type="radio" name="lang" id="lang-zh" prop:checked=move || lang.0.get() == Lang::Zh
                    on:change=move |_| lang.set(Lang::Zh) />"简体中文"</label>
            </div>
            // Keyed on being signed in, not on the session's content: setting a password
            // updates the session, and must not rebuild the form that says it was saved.
            {move || signed_in.get().then(|| view! { <PasswordForm /> })}
            <h3>{t("settings.tokens")}</h3>
            {move || if !signed_in.get() {
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
                        <p class="ok" role="status">{t("settings.new_token")}" "<code id="new-token-value" class="wrap">{tok.clone()}</code>
                            " "<crate::components::import_export::CopyButton text=tok /></p>
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
                                                match api::fetch(ep::RevokeToken::url([&id])).await {
                                                    Ok(_) => load(),
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

/// Set a first password (after a one-time link: no current one to give) or change it (the
/// current one is asked; the other sessions end).
#[component]
fn PasswordForm() -> impl IntoView {
    let session = expect_context::<Session>();
    let has = move || {
        session
            .0
            .with(|m| m.as_ref().is_some_and(|m| m.user.has_password))
    };
    let old = RwSignal::new(String::new());
    let new = RwSignal::new(String::new());
    let again = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let done = RwSignal::new(false);
    let lang = expect_context::<Language>();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        done.set(false);
        let (n, a) = (new.get_untracked(), again.get_untracked());
        if n != a {
            error.set(Some(
                crate::i18n::tr("settings.password_mismatch", lang.0.get_untracked()).into(),
            ));
            return;
        }
        let Some(me) = session.0.get_untracked() else {
            return;
        };
        let req = UserUpdate {
            password: Some(n),
            old_password: me.user.has_password.then(|| old.get_untracked()),
            ..Default::default()
        };
        let id = me.user.id;
        spawn_local(async move {
            match api::call(ep::UpdateUser::url([&id]), &req).await {
                Ok(user) => {
                    error.set(None);
                    done.set(true);
                    old.set(String::new());
                    new.set(String::new());
                    again.set(String::new());
                    session.0.update(|m| {
                        if let Some(m) = m {
                            m.user = user;
                        }
                    });
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    view! {
        <h3 id="password-heading">{t("settings.password")}</h3>
        {move || (!has()).then(|| view! { <p class="notice" id="no-password-hint">{t("settings.no_password")}</p> })}
        <form id="password-form" class="form-grid" on:submit=submit>
            {move || has().then(|| view! {
                <label>{t("settings.old_password")}
                    <input id="old-password" type="password" required autocomplete="current-password"
                        prop:value=move || old.get() on:input=move |ev| old.set(event_target_value(&ev)) /></label>
            })}
            <label>{t("settings.new_password")}
                <input id="new-password" type="password" required minlength="8" autocomplete="new-password"
                    prop:value=move || new.get() on:input=move |ev| new.set(event_target_value(&ev)) /></label>
            <label>{t("settings.new_password_again")}
                <input id="new-password-again" type="password" required minlength="8" autocomplete="new-password"
                    prop:value=move || again.get() on:input=move |ev| again.set(event_target_value(&ev)) /></label>
            <div><button type="submit" id="password-submit">{move || if has() { t("settings.change_password")() } else { t("settings.set_password")() }}</button></div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || done.get().then(|| view! { <p class="ok" role="status" id="password-done">{t("settings.password_done")}</p> })}
        </form>
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
