//! Users, teams, memberships and personal API tokens.
//!
//! - Users: anyone signed in lists them (to add members); server admins create them, change
//!   anyone, disable them and hand out one-time sign-in links (an invitation, or a password
//!   reset); a user changes their own display name and password.
//! - Teams: server admins create them (anyone signed in with `--open-teams`), becoming their
//!   admin; team admins rename and delete them and manage members (by user name); the last
//!   admin of a team is neither demoted nor removed.
//! - Tokens: each user manages their own; server admins create and revoke anyone's.

use super::auth::{Caller, Via};
use super::client_ip::ClientIp;
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, ApiQuery};
use super::paging::{page_bounds, PageQuery};
use super::typed::At;
use crate::api::access::{require_admin, require_team};
use crate::secrets::hash_password;
use crate::state::AppState;
use crate::store::accounts::CredentialKind;
use crate::store::parse_rfc3339;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    ApiToken, Member, MemberAdd, MemberPut, Page, Role, SigninLink, SigninLinkCreate, Team,
    TeamCreate, TeamUpdate, TokenCreate, TokenCreated, User, UserCreate, UserUpdate,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::ListUsers, list_users)
        .at(ep::CreateUser, create_user)
        .at(ep::GetUser, get_user)
        .at(ep::UpdateUser, update_user)
        .at(ep::CreateSigninLink, create_signin_link)
        .at(ep::ListUserTokens, user_tokens)
        .at(ep::CreateUserToken, create_user_token)
        .at(ep::ListTeams, list_teams)
        .at(ep::CreateTeam, create_team)
        .at(ep::GetTeam, get_team)
        .at(ep::RenameTeam, rename_team)
        .at(ep::DeleteTeam, delete_team)
        .at(ep::ListMembers, list_members)
        .at(ep::AddMember, add_member)
        .at(ep::PutMember, put_member)
        .at(ep::RemoveMember, remove_member)
        .at(ep::ListTokens, my_tokens)
        .at(ep::CreateToken, create_my_token)
        .at(ep::RevokeToken, revoke_token)
}

/// User and team names: 1-64 ASCII letters, digits, `-`, `_`, `.`, `@` (display names are free).
pub fn check_name(what: &str, name: &str) -> Result<(), ApiError> {
    let ok = !name.is_empty()
        && name.chars().count() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.@".contains(c));
    if ok {
        Ok(())
    } else {
        Err(ApiError::Unprocessable(format!(
            "{what} `{name}` must be 1-64 ASCII letters, digits, `-`, `_`, `.` or `@`"
        )))
    }
}

pub fn check_password(p: &str) -> Result<(), ApiError> {
    if p.chars().count() < 8 {
        return Err(ApiError::Unprocessable(
            "a password needs at least 8 characters".into(),
        ));
    }
    // Sign-in takes at most 1024 bytes: a longer password could be set but never used.
    if p.len() > 1024 {
        return Err(ApiError::Unprocessable(
            "a password has at most 1024 bytes".into(),
        ));
    }
    Ok(())
}

/// Display names: 1-100 characters without control characters.
pub fn check_display_name(d: &str) -> Result<(), ApiError> {
    if d.trim().is_empty()
        || d.chars().count() > 100
        || d.chars()
            .any(|c| c.is_control() || ds_studio_shared::api::is_hidden_char(c))
    {
        return Err(ApiError::Unprocessable(
            "display_name must be 1-100 characters without control characters".into(),
        ));
    }
    Ok(())
}

/// Changing your own password needs the current one (when you have one).
async fn check_old_password(
    s: &AppState,
    c: &Caller,
    ip: &ClientIp,
    old: Option<&str>,
) -> Result<(), ApiError> {
    let (_, current) = s.store.user_by_name(&c.user.name).await?;
    let Some(current) = current else {
        return Ok(()); // no password yet: this sets the first one
    };
    let Some(old) = old.map(str::to_string) else {
        return Err(ApiError::Unprocessable(
            "send old_password (your current password) to change your password".into(),
        ));
    };
    if old.len() > 1024 {
        return Err(ApiError::Forbidden(
            "the current password (old_password) is wrong".into(),
        ));
    }
    // The same attempt counter as sign-in: a stolen session cannot guess the password.
    let name = c.user.name.to_lowercase();
    crate::domain::accounts::count_name_attempt(s, &name, &ip.key()).await?;
    let _permit = s.limits.argon2_slot().await?;
    let ok = tokio::task::spawn_blocking(move || crate::secrets::verify_password(&old, &current))
        .await
        .unwrap_or(false);
    if !ok {
        return Err(ApiError::Forbidden(
            "the current password (old_password) is wrong".into(),
        ));
    }
    crate::domain::accounts::forget_name_attempts(s, &name, &ip.key()).await;
    Ok(())
}

async fn hash(p: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || hash_password(&p))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))
}

async fn list_users(
    State(s): State<AppState>,
    _c: Caller,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<ApiJson<Page<User>>, ApiError> {
    let (offset, limit) = page_bounds(q.offset, q.limit)?;
    Ok(ApiJson(s.store.users(offset, limit).await?))
}

async fn create_user(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<UserCreate>,
) -> Result<(StatusCode, ApiJson<User>), ApiError> {
    require_admin(&c)?;
    check_name("user name", &req.name)?;
    let hash = match req.password {
        Some(p) => {
            check_password(&p)?;
            Some(hash(p).await?)
        }
        None => None,
    };
    if let Some(d) = &req.display_name {
        check_display_name(d)?;
    }
    if let Some(team) = req.team_id {
        // Checked before the user exists: a wrong team creates nobody.
        s.store
            .team(team)
            .await
            .map_err(|e| ApiError::from_store(e, &format!("team {team}")))?;
    }
    let display = req.display_name.unwrap_or_else(|| req.name.clone());
    let user = s
        .store
        .create_user(&req.name, &display, hash.as_deref(), req.is_admin)
        .await?;
    if let Some(team) = req.team_id {
        s.store
            .put_member(team, user.id, req.role.unwrap_or(Role::Editor))
            .await?;
    }
    Ok((StatusCode::CREATED, ApiJson(user)))
}

async fn get_user(
    State(s): State<AppState>,
    _c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<User>, ApiError> {
    Ok(ApiJson(s.store.user(id).await?))
}

async fn update_user(
    State(s): State<AppState>,
    c: Caller,
    ip: ClientIp,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<UserUpdate>,
) -> Result<ApiJson<User>, ApiError> {
    if c.user.id != id {
        require_admin(&c)?;
    }
    if req.is_admin.is_some() || req.disabled.is_some() {
        require_admin(&c)?;
    }
    if req.disabled == Some(true) && c.user.id == id {
        return Err(ApiError::Conflict(
            "you cannot disable yourself: another server administrator can".into(),
        ));
    }
    s.store.user(id).await?;
    if let Some(d) = &req.display_name {
        check_display_name(d)?;
    }
    let changing_password = req.password.is_some();
    let hash = match req.password {
        Some(p) => {
            check_password(&p)?;
            if c.user.id == id {
                check_old_password(&s, &c, &ip, req.old_password.as_deref()).await?;
            }
            Some(hash(p).await?)
        }
        None => None,
    };
    // Who is in charge first: refused (409) when it would leave no enabled server
    // administrator, checked and changed in one serialized transaction.
    if req.is_admin.is_some() || req.disabled.is_some() {
        s.store
            .set_admin_flags(id, req.is_admin, req.disabled)
            .await?;
    }
    let user = s
        .store
        .update_user(id, req.display_name.as_deref(), hash.as_deref(), None)
        .await?;
    if changing_password {
        // Whoever knew the old password is signed out everywhere but here.
        let keep = match c.via {
            Via::Session { credential_id, .. } if c.user.id == id => Some(credential_id),
            _ => None,
        };
        s.store.end_sessions(id, keep).await?;
    }
    Ok(ApiJson(user))
}

/// How long a sign-in link handed out by an administrator works.
const SIGNIN_LINK_MS: i64 = 24 * 3600 * 1000;

/// `POST /users/{id}/signin-link`: a one-time link for the user (server administrators only);
/// with `reset_password` their password is removed and their sessions end first.
async fn create_signin_link(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<SigninLinkCreate>,
) -> Result<(StatusCode, ApiJson<SigninLink>), ApiError> {
    require_admin(&c)?;
    let user = s.store.user(id).await?;
    if user.disabled {
        return Err(ApiError::Conflict(format!(
            "{} is disabled: enable the account first",
            user.name
        )));
    }
    if req.reset_password {
        s.store.clear_password(id).await?;
    } else {
        // Only the newest link works: one handed out before (to the wrong person, say) stops.
        s.store.revoke_signin_links(id).await?;
    }
    let expires = crate::store::now_ms() + SIGNIN_LINK_MS;
    let what = if req.reset_password {
        "password reset"
    } else {
        "invitation"
    };
    let (token, _) = s
        .store
        .create_credential(id, CredentialKind::Signin, what, Some(expires))
        .await?;
    Ok((
        StatusCode::CREATED,
        ApiJson(SigninLink {
            url: format!(
                "{}/api/v1/auth/signin?token={token}",
                s.public_url.trim_end_matches('/')
            ),
            expires_at: crate::store::rfc3339(expires),
        }),
    ))
}

async fn list_teams(State(s): State<AppState>, c: Caller) -> Result<ApiJson<Vec<Team>>, ApiError> {
    Ok(ApiJson(s.store.teams_of(c.user.id, c.user.is_admin).await?))
}

async fn create_team(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<TeamCreate>,
) -> Result<(StatusCode, ApiJson<Team>), ApiError> {
    if !s.open_teams && !c.user.is_admin {
        return Err(ApiError::Forbidden(
            "only a server administrator creates teams on this studio (the server runs without --open-teams)"
                .into(),
        ));
    }
    check_name("team name", &req.name)?;
    let mut team = s.store.create_team(&req.name).await?;
    s.store.put_member(team.id, c.user.id, Role::Admin).await?;
    team.role = Some(Role::Admin);
    Ok((StatusCode::CREATED, ApiJson(team)))
}

async fn get_team(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Team>, ApiError> {
    let role = require_team(&s.store, &c, id, Role::Viewer).await?;
    let mut team = s.store.team(id).await?;
    team.role = Some(role);
    Ok(ApiJson(team))
}

async fn rename_team(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<TeamUpdate>,
) -> Result<ApiJson<Team>, ApiError> {
    let role = require_team(&s.store, &c, id, Role::Admin).await?;
    check_name("team name", &req.name)?;
    let mut team = s.store.rename_team(id, &req.name).await?;
    team.role = Some(role);
    Ok(ApiJson(team))
}

async fn delete_team(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    require_team(&s.store, &c, id, Role::Admin).await?;
    s.store.delete_team(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn list_members(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Vec<Member>>, ApiError> {
    require_team(&s.store, &c, id, Role::Viewer).await?;
    Ok(ApiJson(s.store.members(id).await?))
}

async fn put_member(
    State(s): State<AppState>,
    c: Caller,
    ApiPath((id, user_id)): ApiPath<(i64, i64)>,
    ApiJson(req): ApiJson<MemberPut>,
) -> Result<ApiJson<Vec<Member>>, ApiError> {
    require_team(&s.store, &c, id, Role::Admin).await?;
    s.store.user(user_id).await?;
    s.store.put_member(id, user_id, req.role).await?;
    Ok(ApiJson(s.store.members(id).await?))
}

/// `POST /teams/{id}/members`: adds a user by name (or changes their role).
async fn add_member(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<MemberAdd>,
) -> Result<ApiJson<Vec<Member>>, ApiError> {
    require_team(&s.store, &c, id, Role::Admin).await?;
    if req.user.len() > crate::limits::MAX_USERNAME {
        return Err(ApiError::Unprocessable(format!(
            "user names are at most {} bytes",
            crate::limits::MAX_USERNAME
        )));
    }
    let user = match s.store.user_by_name(req.user.trim()).await {
        Ok((u, _)) => u,
        Err(crate::store::StoreError::NotFound(_)) => {
            return Err(ApiError::NotFound(format!(
                "no user is named `{}`: a server administrator creates users",
                req.user.trim()
            )))
        }
        Err(e) => return Err(e.into()),
    };
    s.store.put_member(id, user.id, req.role).await?;
    Ok(ApiJson(s.store.members(id).await?))
}

async fn remove_member(
    State(s): State<AppState>,
    c: Caller,
    ApiPath((id, user_id)): ApiPath<(i64, i64)>,
) -> Result<StatusCode, ApiError> {
    require_team(&s.store, &c, id, Role::Admin).await?;
    s.store.remove_member(id, user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn new_token(
    s: &AppState,
    user_id: i64,
    req: TokenCreate,
) -> Result<(StatusCode, ApiJson<TokenCreated>), ApiError> {
    if req.name.trim().is_empty()
        || req.name.chars().count() > 100
        || req
            .name
            .chars()
            .any(|c| c.is_control() || ds_studio_shared::api::is_hidden_char(c))
    {
        return Err(ApiError::Unprocessable(
            "a token needs a name of 1-100 characters, not only spaces, without control or invisible characters".into(),
        ));
    }
    let expires = match req.expires_at.as_deref() {
        Some(t) => Some(parse_rfc3339(t).ok_or_else(|| {
            ApiError::Unprocessable(format!("expires_at `{t}` is not an RFC 3339 time"))
        })?),
        None => None,
    };
    let (token, info) = s
        .store
        .create_credential(user_id, CredentialKind::ApiToken, &req.name, expires)
        .await?;
    Ok((StatusCode::CREATED, ApiJson(TokenCreated { token, info })))
}

async fn my_tokens(
    State(s): State<AppState>,
    c: Caller,
) -> Result<ApiJson<Vec<ApiToken>>, ApiError> {
    Ok(ApiJson(s.store.api_tokens(c.user.id).await?))
}

async fn create_my_token(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<TokenCreate>,
) -> Result<(StatusCode, ApiJson<TokenCreated>), ApiError> {
    new_token(&s, c.user.id, req).await
}

async fn user_tokens(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Vec<ApiToken>>, ApiError> {
    if c.user.id != id {
        require_admin(&c)?;
    }
    s.store.user(id).await?;
    Ok(ApiJson(s.store.api_tokens(id).await?))
}

async fn create_user_token(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<TokenCreate>,
) -> Result<(StatusCode, ApiJson<TokenCreated>), ApiError> {
    if c.user.id != id {
        require_admin(&c)?;
    }
    s.store.user(id).await?;
    new_token(&s, id, req).await
}

async fn revoke_token(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    // A server admin may revoke anyone's token: find its owner among the admin's view.
    let owner = if c.user.is_admin {
        s.store.credential_owner(id).await?
    } else {
        c.user.id
    };
    s.store.revoke_credential(id, owner).await?;
    Ok(StatusCode::NO_CONTENT)
}
