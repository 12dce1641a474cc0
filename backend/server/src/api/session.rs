//! Signing in and out: password login (rate-limited), the one-time sign-in link printed at
//! first start, `me`, logout. A session is an HttpOnly, SameSite=Lax cookie.

use super::auth::{Caller, MaybeCaller, Via, SESSION_COOKIE};
use super::client_ip::ClientIp;
use super::error::ApiError;
use super::json::{ApiJson, ApiQuery};
use super::typed::{At, Reply};
use crate::domain::accounts;
use crate::limits::MAX_USERNAME;
use crate::secrets::verify_password;
use crate::state::AppState;
use crate::store::accounts::CredentialKind;
use crate::store::StoreError;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{LoginRequest, Me, NoBody, SessionState};
use serde::Deserialize;

/// Sessions last 30 days.
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::Login, login)
        .at(ep::Logout, logout)
        .at(ep::GetMe, me)
        .at(ep::GetSession, session)
        // The page a one-time sign-in link opens (a redirect for the browser, not in the table).
        .route("/auth/signin", get(signin))
}

fn session_cookie(state: &AppState, token: &str, max_age_s: i64) -> String {
    let secure = if state.public_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    format!("{SESSION_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age_s}{secure}")
}

async fn start_session(state: &AppState, user_id: i64) -> Result<(HeaderMap, Me), ApiError> {
    let expires = crate::store::now_ms() + SESSION_MS;
    let (token, _) = state
        .store
        .create_credential(user_id, CredentialKind::Session, "browser", Some(expires))
        .await?;
    let cred = state
        .store
        .credential(&token)
        .await?
        .ok_or_else(|| ApiError::Internal("session vanished".into()))?;
    let mut headers = HeaderMap::new();
    let cookie = session_cookie(state, &token, SESSION_MS / 1000);
    headers.insert(
        header::SET_COOKIE,
        cookie
            .parse()
            .map_err(|_| ApiError::Internal("bad cookie".into()))?,
    );
    let me = me_of(state, &cred.user, cred.csrf_token).await?;
    Ok((headers, me))
}

async fn me_of(
    state: &AppState,
    user: &ds_studio_shared::api::User,
    csrf: Option<String>,
) -> Result<Me, ApiError> {
    Ok(Me {
        user: user.clone(),
        teams: state.store.teams_of(user.id, user.is_admin).await?,
        csrf_token: csrf,
    })
}

/// Password sign-in; a refusal is counted by its reason for `/metrics`.
async fn login(
    State(state): State<AppState>,
    ip: ClientIp,
    body: ApiJson<LoginRequest>,
) -> Result<Reply<Me>, ApiError> {
    use crate::metrics::Refusal;
    let metrics = state.metrics.clone();
    let answer = password_login(state, ip, body).await;
    let why = match &answer {
        Err(ApiError::TooManyRequests(_)) => Some(Refusal::RateLimited),
        Err(ApiError::Unauthorized(_)) => Some(Refusal::WrongCredentials),
        Err(ApiError::Forbidden(_)) => Some(Refusal::Disabled),
        _ => None,
    };
    if let Some(why) = why {
        metrics.refused_signin(why);
    }
    answer
}

/// Attempts are counted before the password is checked (per user name and per client
/// address), user names are bounded, and at most two argon2 checks run at once.
async fn password_login(
    state: AppState,
    ip: ClientIp,
    ApiJson(req): ApiJson<LoginRequest>,
) -> Result<Reply<Me>, ApiError> {
    if req.username.len() > MAX_USERNAME || req.password.len() > 1024 {
        return Err(ApiError::Unprocessable(format!(
            "user names are at most {MAX_USERNAME} bytes and passwords at most 1024"
        )));
    }
    let name = req.username.to_lowercase();
    let limits = &state.limits;
    limits
        .login_ips
        .hit(&ip.key())
        .map_err(ApiError::TooManyRequests)?;
    accounts::count_name_attempt(&state, &name, &ip.key()).await?;
    let wrong = || ApiError::Unauthorized("wrong user name or password".into());
    let (user, hash) = match state.store.user_by_name(&req.username).await {
        Ok(u) => u,
        Err(StoreError::NotFound(_)) => return Err(wrong()),
        Err(e) => return Err(e.into()),
    };
    let ok = match hash {
        Some(h) => {
            let _permit = limits.argon2_slot().await?;
            tokio::task::spawn_blocking(move || verify_password(&req.password, &h))
                .await
                .unwrap_or(false)
        }
        None => false,
    };
    if !ok {
        return Err(wrong());
    }
    if user.disabled {
        return Err(ApiError::Forbidden(
            "this account is disabled: ask a server administrator to enable it".into(),
        ));
    }
    accounts::forget_name_attempts(&state, &name, &ip.key()).await;
    limits.login_ips.forgive(&ip.key());
    let (headers, me) = start_session(&state, user.id).await?;
    Ok(Reply::json(StatusCode::OK, headers, me))
}

async fn logout(State(state): State<AppState>, caller: Caller) -> Result<Reply<NoBody>, ApiError> {
    if let Via::Session { credential_id, .. } = caller.via {
        state
            .store
            .revoke_credential(credential_id, caller.user.id)
            .await?;
    }
    let mut headers = HeaderMap::new();
    if let Ok(v) = session_cookie(&state, "", 0).parse() {
        headers.insert(header::SET_COOKIE, v);
    }
    Ok(Reply::empty(StatusCode::NO_CONTENT, headers))
}

async fn me(State(state): State<AppState>, caller: Caller) -> Result<ApiJson<Me>, ApiError> {
    let csrf = match &caller.via {
        Via::Session { csrf, .. } => Some(csrf.clone()),
        _ => None,
    };
    Ok(ApiJson(me_of(&state, &caller.user, csrf).await?))
}

/// Who is signed in, or nobody: 200 either way (the web UI asks on every load, and a signed-out
/// visit should not log a failed request).
async fn session(
    State(state): State<AppState>,
    caller: MaybeCaller,
) -> Result<ApiJson<SessionState>, ApiError> {
    let me = match caller.0 {
        None => None,
        Some(c) => {
            let csrf = match &c.via {
                Via::Session { csrf, .. } => Some(csrf.clone()),
                _ => None,
            };
            Some(me_of(&state, &c.user, csrf).await?)
        }
    };
    Ok(ApiJson(SessionState { me }))
}

#[derive(Deserialize)]
struct SigninQuery {
    token: String,
}

/// The one-time link: exchanges its token for a session and goes to the studio.
async fn signin(
    State(state): State<AppState>,
    _caller: MaybeCaller,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<SigninQuery>,
) -> Result<Response, ApiError> {
    // Opened in a browser (it asks for HTML), a dead link lands on the sign-in page, which
    // says what happened; a script gets the 401 with its message.
    let browser = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    let dead = |message: &str| -> Result<Response, ApiError> {
        if browser {
            Ok(Redirect::to("/signin?link=dead").into_response())
        } else {
            Err(ApiError::Unauthorized(message.into()))
        }
    };
    let Some(cred) = state
        .store
        .credential(&q.token)
        .await?
        .filter(|c| c.kind == CredentialKind::Signin)
    else {
        return dead("this sign-in link is unknown, used or expired");
    };
    if !state.store.consume_credential(cred.id).await? {
        return dead("this sign-in link was already used");
    }
    let (headers, _) = start_session(&state, cred.user.id).await?;
    Ok((headers, Redirect::to("/")).into_response())
}
