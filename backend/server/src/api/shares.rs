//! Share links: a read-only link with an unguessable token (256 random bits, stored hashed)
//! that opens one version without an account; revocable, with an optional expiry.

use super::auth::Caller;
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, JsonOrDefault};
use super::typed::At;
use crate::api::access;
use crate::domain::templates;
use crate::state::AppState;
use crate::store::parse_rfc3339;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::delete;
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    ForkRequest, Role, Share, ShareCreate, ShareCreated, SharedView, Template,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::CreateShare, create)
        .at(ep::ListShares, list)
        .at(ep::RevokeShare, revoke)
        // The singular spelling of the revoke path, kept for scripts written against it
        // (not in the table: the OpenAPI document names the plural one).
        .route("/templates/{id}/share/{share_id}", delete(revoke))
        .at(ep::OpenShared, open)
        .at(ep::ForkShared, fork)
}

async fn create(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    JsonOrDefault(req): JsonOrDefault<ShareCreate>,
) -> Result<(StatusCode, ApiJson<ShareCreated>), ApiError> {
    let t = access::template(&s.store, &c, id, Role::Editor).await?;
    let n = req.version.unwrap_or(t.head_version);
    s.store.version(id, n).await?;
    let expires = match req.expires_at.as_deref() {
        Some(e) => {
            let ms = parse_rfc3339(e).ok_or_else(|| {
                ApiError::Unprocessable(format!("expires_at `{e}` is not an RFC 3339 time"))
            })?;
            if ms <= crate::store::now_ms() {
                return Err(ApiError::Unprocessable(format!(
                    "expires_at `{e}` is in the past"
                )));
            }
            Some(ms)
        }
        None => None,
    };
    let (token, share) = s.store.create_share(id, n, c.user.id, expires).await?;
    Ok((
        StatusCode::CREATED,
        ApiJson(ShareCreated {
            url: format!("{}/shared/{token}", s.public_url),
            api_url: format!("{}{}", s.public_url, ep::OpenShared::url([&token])),
            token,
            share,
        }),
    ))
}

async fn list(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Vec<Share>>, ApiError> {
    access::template(&s.store, &c, id, Role::Viewer).await?;
    Ok(ApiJson(s.store.shares(id).await?))
}

async fn revoke(
    State(s): State<AppState>,
    c: Caller,
    ApiPath((id, share_id)): ApiPath<(i64, i64)>,
) -> Result<StatusCode, ApiError> {
    access::template(&s.store, &c, id, Role::Editor).await?;
    s.store.revoke_share(id, share_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn open(
    State(s): State<AppState>,
    ApiPath(token): ApiPath<String>,
) -> Result<ApiJson<SharedView>, ApiError> {
    let share = live_share(&s, &token).await?;
    let t = s.store.template(share.template_id).await?;
    let version = s.store.version(share.template_id, share.version).await?;
    Ok(ApiJson(SharedView {
        template_name: t.name,
        description: t.description,
        tags: t.tags,
        team_name: t.team_name,
        expires_at: share.expires_at,
        version,
    }))
}

/// The share a token opens, or the one not-found answer for an unknown, revoked or expired
/// link.
async fn live_share(s: &AppState, token: &str) -> Result<Share, ApiError> {
    s.store
        .share_by_token(token)
        .await?
        .ok_or_else(|| ApiError::NotFound("this share link is unknown, revoked or expired".into()))
}

/// `POST /shared/{token}/fork`: the shared version as a new template in the caller's team.
/// The link is the permission to read it (anyone signed in who has the link may fork it); the
/// version is the link's, whatever `version` says.
async fn fork(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(token): ApiPath<String>,
    JsonOrDefault(req): JsonOrDefault<ForkRequest>,
) -> Result<(StatusCode, ApiJson<Template>), ApiError> {
    let share = live_share(&s, &token).await?;
    let t = s.store.template(share.template_id).await?;
    let team_id = access::target_team(&s.store, &c, req.team_id).await?;
    let new = templates::fork_version(&s, c.user.id, &t, share.version, team_id, req.name).await?;
    Ok((StatusCode::CREATED, ApiJson(new)))
}
