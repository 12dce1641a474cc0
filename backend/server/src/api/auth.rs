//! Who is calling: the `Caller` extractor.
//!
//! Scripts send `Authorization: Bearer <token>` (a personal API token, or the `--admin-token`
//! given at start, compared in constant time). Browsers send the `ds_session` cookie; for a
//! cookie-authenticated write (any method but GET/HEAD/OPTIONS) the `X-CSRF-Token` header must
//! match the session's CSRF token, so another site cannot make the browser write for its user.
//!
//! Runners send a runner token (`dsr_...`, `ds-studio runner-token create`): the
//! [`RunnerCaller`] extractor of the runner routes takes only those, and [`Caller`] refuses them,
//! so a runner's credential can do nothing but run jobs as that one runner.

use super::error::ApiError;
use crate::secrets::ct_eq;
use crate::state::AppState;
use crate::store::accounts::CredentialKind;
use crate::store::runner_tokens::{RunnerCredential, RUNNER_TOKEN_PREFIX};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, Method};
use ds_studio_shared::api::User;

pub const SESSION_COOKIE: &str = "ds_session";
pub const CSRF_HEADER: &str = "x-csrf-token";

/// How the caller proved who they are.
#[derive(Debug, Clone)]
pub enum Via {
    Session { credential_id: i64, csrf: String },
    ApiToken,
    AdminToken,
}

/// An authenticated caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: User,
    pub via: Via,
}

/// A caller who may also be anonymous (share links, sign-in).
pub struct MaybeCaller(pub Option<Caller>);

pub(crate) fn bearer(parts: &Parts) -> Option<&str> {
    let v = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The value of a cookie.
pub fn cookie<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    parts
        .headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

pub(crate) async fn authenticate(
    parts: &Parts,
    state: &AppState,
) -> Result<Option<Caller>, ApiError> {
    if let Some(token) = bearer(parts) {
        if token.starts_with(RUNNER_TOKEN_PREFIX) {
            return Err(ApiError::Unauthorized(
                "a runner token works only for a runner's own calls (register, heartbeat, claim, events, state); use a user's API token here".into(),
            ));
        }
        if let Some((admin_token, admin_id)) = &state.admin {
            if ct_eq(token, admin_token) {
                let user = state.store.user(*admin_id).await?;
                if user.disabled {
                    return Err(ApiError::Unauthorized(format!(
                        "the administrator token acts as `{}`, who is disabled (enable them with `ds-studio user enable {}` on the server)",
                        user.name, user.name
                    )));
                }
                return Ok(Some(Caller {
                    user,
                    via: Via::AdminToken,
                }));
            }
        }
        return match state.store.credential(token).await? {
            Some(c) if c.kind == CredentialKind::ApiToken => {
                state.store.touch_credential(&c).await?;
                Ok(Some(Caller {
                    user: c.user,
                    via: Via::ApiToken,
                }))
            }
            _ => Err(ApiError::Unauthorized(
                "the bearer token is unknown, revoked or expired".into(),
            )),
        };
    }
    let Some(token) = cookie(parts, SESSION_COOKIE) else {
        return Ok(None);
    };
    let Some(c) = state
        .store
        .credential(token)
        .await?
        .filter(|c| c.kind == CredentialKind::Session)
    else {
        return Ok(None);
    };
    let csrf = c.csrf_token.clone().unwrap_or_default();
    let safe = matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        let sent = parts
            .headers
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if !ct_eq(sent, &csrf) {
            return Err(ApiError::Forbidden(
                "missing or wrong X-CSRF-Token header (send the csrf_token from /api/v1/auth/me)"
                    .into(),
            ));
        }
    }
    Ok(Some(Caller {
        user: c.user,
        via: Via::Session {
            credential_id: c.id,
            csrf,
        },
    }))
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        authenticate(parts, state).await?.ok_or_else(|| {
            ApiError::Unauthorized(
                "sign in, or send `Authorization: Bearer <token>` (create one with `ds-studio token create`)"
                    .into(),
            )
        })
    }
}

impl FromRequestParts<AppState> for MaybeCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(MaybeCaller(authenticate(parts, state).await?))
    }
}

/// A runner, authenticated by its runner token (or the local runner's in-memory token).
#[derive(Debug, Clone)]
pub struct RunnerCaller(pub RunnerCredential);

impl FromRequestParts<AppState> for RunnerCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(token) = bearer(parts) else {
            return Err(ApiError::Unauthorized(
                "the runner routes take `Authorization: Bearer <runner token>` (create one with `ds-studio runner-token create --name NAME`)".into(),
            ));
        };
        if let Some(local) = &state.local_runner {
            if ct_eq(token, local) {
                return Ok(RunnerCaller(RunnerCredential {
                    id: None,
                    runner: "local".into(),
                    team_id: None,
                }));
            }
        }
        if !token.starts_with(RUNNER_TOKEN_PREFIX) {
            return Err(ApiError::Forbidden(
                "the runner routes take a runner token, not a user's or an administrator's (create one with `ds-studio runner-token create --name NAME`)".into(),
            ));
        }
        match state.store.runner_credential(token).await? {
            Some(c) => Ok(RunnerCaller(c)),
            None => Err(ApiError::Unauthorized(
                "the runner token is unknown or revoked".into(),
            )),
        }
    }
}
