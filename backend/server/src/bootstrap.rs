//! First start: with no administrator yet (a fresh database, or one where only `ds-studio user
//! add` has run), create the administrator `admin` (no password), the team `default` with the
//! admin in it, and a one-time sign-in link valid for 24 hours.

use crate::store::accounts::CredentialKind;
use crate::store::{now_ms, Result, Store, StoreError};
use ds_studio_shared::api::{Role, User};

pub const DEFAULT_TEAM: &str = "default";

/// What the first start created (or found).
pub struct Bootstrap {
    pub admin: User,
    /// Printed once at first start.
    pub signin_url: Option<String>,
}

pub async fn ensure_admin(store: &Store, public_url: &str) -> Result<Bootstrap> {
    match store.first_admin().await {
        Ok(admin) => {
            return Ok(Bootstrap {
                admin,
                signin_url: None,
            })
        }
        Err(StoreError::NotFound(_)) => {}
        Err(e) => return Err(e),
    }
    let admin = match store
        .create_user("admin", "Administrator", None, true)
        .await
    {
        Err(StoreError::Conflict(_)) => {
            store
                .create_user("studio-admin", "Administrator", None, true)
                .await?
        }
        other => other?,
    };
    let team = match store.team_by_name(DEFAULT_TEAM).await {
        Ok(t) => t,
        Err(_) => store.create_team(DEFAULT_TEAM).await?,
    };
    store.put_member(team.id, admin.id, Role::Admin).await?;
    let (token, _) = store
        .create_credential(
            admin.id,
            CredentialKind::Signin,
            "first start",
            Some(now_ms() + 24 * 3600 * 1000),
        )
        .await?;
    Ok(Bootstrap {
        admin,
        signin_url: Some(format!(
            "{}/api/v1/auth/signin?token={token}",
            public_url.trim_end_matches('/')
        )),
    })
}
