//! Authorization: what a caller may do in a team. A server admin acts as admin of every team.
//! No access at all answers 404 (the thing's existence is not revealed); reading without the
//! role needed for a change answers 403.

use crate::api::auth::Caller;
use crate::api::ApiError;
use crate::store::{Store, StoreError};
use ds_studio_shared::api::{Role, Template};

/// The caller's role in `team_id` (`Admin` for server admins), if any.
pub async fn team_role(
    store: &Store,
    caller: &Caller,
    team_id: i64,
) -> Result<Option<Role>, ApiError> {
    if caller.user.is_admin {
        // A server admin acts as admin of every team that exists.
        return match store.team(team_id).await {
            Ok(_) => Ok(Some(Role::Admin)),
            Err(StoreError::NotFound(_)) => Ok(None),
            Err(e) => Err(e.into()),
        };
    }
    Ok(store.role_in(team_id, caller.user.id).await?)
}

/// Requires at least `min` in the team.
pub async fn require_team(
    store: &Store,
    caller: &Caller,
    team_id: i64,
    min: Role,
) -> Result<Role, ApiError> {
    match team_role(store, caller, team_id).await? {
        None => Err(ApiError::not_found(&format!("team {team_id}"))),
        Some(r) if r < min => Err(ApiError::Forbidden(format!(
            "this needs the {} role in the team; you are {}",
            min.as_str(),
            r.as_str()
        ))),
        Some(r) => Ok(r),
    }
}

/// The template, if the caller has at least `min` in its team.
pub async fn template(
    store: &Store,
    caller: &Caller,
    id: i64,
    min: Role,
) -> Result<Template, ApiError> {
    let t = store
        .template(id)
        .await
        .map_err(|e| ApiError::from_store(e, &format!("template {id}")))?;
    // The template row was read joined with its team, so the team exists: a server admin
    // needs no further query.
    let role = if caller.user.is_admin {
        Some(Role::Admin)
    } else {
        store.role_in(t.team_id, caller.user.id).await?
    };
    match role {
        None => Err(ApiError::not_found(&format!("template {id}"))),
        Some(r) if r < min => Err(ApiError::Forbidden(format!(
            "this needs the {} role in team `{}`; you are {}",
            min.as_str(),
            t.team_name,
            r.as_str()
        ))),
        Some(_) => Ok(t),
    }
}

/// Only server admins.
pub fn require_admin(caller: &Caller) -> Result<(), ApiError> {
    if caller.user.is_admin {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "this needs a server administrator".into(),
        ))
    }
}

/// The team a new template goes to: the one named, or the caller's only team.
pub async fn target_team(store: &Store, c: &Caller, team_id: Option<i64>) -> Result<i64, ApiError> {
    let id =
        match team_id {
            Some(id) => id,
            None => {
                let teams = store.teams_of(c.user.id, false).await?;
                match teams.as_slice() {
                    [t] => t.id,
                    [] => return Err(ApiError::Unprocessable(
                        "you belong to no team: create one (POST /api/v1/teams) or give team_id"
                            .into(),
                    )),
                    many => {
                        return Err(ApiError::Unprocessable(format!(
                            "you belong to {} teams: give team_id",
                            many.len()
                        )))
                    }
                }
            }
        };
    require_team(store, c, id, Role::Editor).await?;
    Ok(id)
}
