//! Users, teams, memberships and credentials (API tokens, browser sessions, one-time sign-in
//! links). Secrets are stored only as their SHA-256.
//!
//! A team always keeps an administrator and the studio a server administrator who can sign in:
//! a change and the count of who is left run in one serialized transaction, refused when none
//! would be. A disabled user's credentials stop at `Store::credential`.

use super::{now_ms, opt_time, page, rfc3339, Result, Store, StoreError};
use crate::secrets::{hash_token, random_token, token_prefix};
use ds_studio_shared::api::{ApiToken, Member, Page, Role, Team, User};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

/// What a credential is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialKind {
    ApiToken,
    Session,
    Signin,
}

impl CredentialKind {
    fn as_str(self) -> &'static str {
        match self {
            CredentialKind::ApiToken => "api_token",
            CredentialKind::Session => "session",
            CredentialKind::Signin => "signin",
        }
    }
    fn prefix(self) -> &'static str {
        match self {
            CredentialKind::ApiToken => "dss_",
            CredentialKind::Session => "dsc_",
            CredentialKind::Signin => "dsi_",
        }
    }
}

/// A credential found by its token.
#[derive(Debug, Clone)]
pub struct Credential {
    pub id: i64,
    pub user: User,
    pub kind: CredentialKind,
    pub csrf_token: Option<String>,
    last_used_at: Option<i64>,
}

const USER_COLS: &str =
    "u.id, u.name, u.display_name, u.password_hash, u.is_admin, u.disabled_at, u.created_at";

fn user_of(row: &AnyRow) -> Result<User> {
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        display_name: row.try_get("display_name")?,
        is_admin: row.try_get::<i64, _>("is_admin")? != 0,
        has_password: row.try_get::<Option<String>, _>("password_hash")?.is_some(),
        disabled: row.try_get::<Option<i64>, _>("disabled_at")?.is_some(),
        created_at: rfc3339(row.try_get("created_at")?),
    })
}

fn token_of(row: &AnyRow) -> Result<ApiToken> {
    Ok(ApiToken {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        name: row.try_get("name")?,
        prefix: row.try_get("prefix")?,
        created_at: rfc3339(row.try_get("created_at")?),
        expires_at: opt_time(row, "expires_at"),
        last_used_at: opt_time(row, "last_used_at"),
        revoked: row.try_get::<Option<i64>, _>("revoked_at")?.is_some(),
    })
}

/// Why the last enabled server administrator stays one.
pub const LAST_SERVER_ADMIN: &str =
    "this is the last server administrator; make someone else one first";

/// Why the last administrator of a team keeps the role.
pub const LAST_TEAM_ADMIN: &str =
    "this is the team's last administrator: make another member an administrator first";

/// A member's role, read inside a transaction.
async fn role_in_tx(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    team_id: i64,
    user_id: i64,
) -> Result<Option<Role>> {
    let role: Option<String> =
        sqlx::query_scalar("SELECT role FROM memberships WHERE team_id = $1 AND user_id = $2")
            .bind(team_id)
            .bind(user_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(role.and_then(|r| Role::parse(&r)))
}

/// Administrators a team has, read inside a transaction.
async fn team_admins(tx: &mut sqlx::Transaction<'static, sqlx::Any>, team_id: i64) -> Result<i64> {
    Ok(
        sqlx::query_scalar(
            "SELECT COUNT(*) FROM memberships WHERE team_id = $1 AND role = 'admin'",
        )
        .bind(team_id)
        .fetch_one(&mut **tx)
        .await?,
    )
}

fn conflict(e: sqlx::Error, what: impl FnOnce() -> String) -> StoreError {
    match StoreError::from(e) {
        StoreError::Conflict(_) => StoreError::Conflict(what()),
        other => other,
    }
}

impl Store {
    pub async fn user_count(&self) -> Result<i64> {
        Ok(sqlx::query("SELECT COUNT(*) AS n FROM users")
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?)
    }

    pub async fn create_user(
        &self,
        name: &str,
        display_name: &str,
        password_hash: Option<&str>,
        is_admin: bool,
    ) -> Result<User> {
        let row = sqlx::query(
            "INSERT INTO users (name, display_name, password_hash, is_admin, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(name)
        .bind(display_name)
        .bind(password_hash)
        .bind(is_admin as i64)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await
        .map_err(|e| conflict(e, || format!("a user named `{name}` already exists")))?;
        self.user(row.try_get("id")?).await
    }

    /// The oldest server administrator.
    pub async fn first_admin(&self) -> Result<User> {
        let row = sqlx::query("SELECT id FROM users WHERE is_admin = 1 ORDER BY id LIMIT 1")
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("administrator"))?;
        self.user(row.try_get("id")?).await
    }

    pub async fn user(&self, id: i64) -> Result<User> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {USER_COLS} FROM users u WHERE u.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("user"))?;
        user_of(&row)
    }

    /// A user and their password hash, by name.
    pub async fn user_by_name(&self, name: &str) -> Result<(User, Option<String>)> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {USER_COLS} FROM users u WHERE u.name = $1"
        )))
        .bind(name)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("user"))?;
        Ok((user_of(&row)?, row.try_get("password_hash")?))
    }

    pub async fn users(&self, offset: i64, limit: i64) -> Result<Page<User>> {
        let total: i64 = sqlx::query("SELECT COUNT(*) AS n FROM users")
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {USER_COLS} FROM users u ORDER BY u.id LIMIT $1 OFFSET $2"
        )))
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        let items = rows.iter().map(user_of).collect::<Result<_>>()?;
        Ok(page(items, total, offset, limit))
    }

    pub async fn update_user(
        &self,
        id: i64,
        display_name: Option<&str>,
        password_hash: Option<&str>,
        is_admin: Option<bool>,
    ) -> Result<User> {
        let done = sqlx::query(
            "UPDATE users SET display_name = COALESCE($1, display_name), \
             password_hash = COALESCE($2, password_hash), \
             is_admin = COALESCE($3, is_admin) WHERE id = $4",
        )
        .bind(display_name)
        .bind(password_hash)
        .bind(is_admin.map(|b| b as i64))
        .bind(id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("user"));
        }
        self.user(id).await
    }

    /// A transaction in which account changes that must keep someone in charge run one at a
    /// time: SQLite has one writer anyway; PostgreSQL takes a transaction-scoped advisory lock
    /// (under READ COMMITTED two parallel demotions would each see the other's admin still
    /// there, and both go through).
    async fn in_charge_tx(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>> {
        let mut tx = self.pool.begin().await?;
        if self.dialect == super::Dialect::Postgres {
            sqlx::query("SELECT pg_advisory_xact_lock(727301)")
                .execute(&mut *tx)
                .await?;
        }
        Ok(tx)
    }

    /// Makes or unmakes a server administrator, disables or enables a user (a disabled user's
    /// sessions end; tokens and links stop working while disabled). Refused, changing nothing,
    /// when it would leave no enabled server administrator.
    pub async fn set_admin_flags(
        &self,
        id: i64,
        is_admin: Option<bool>,
        disabled: Option<bool>,
    ) -> Result<User> {
        let mut tx = self.in_charge_tx().await?;
        if let Some(a) = is_admin {
            sqlx::query("UPDATE users SET is_admin = $1 WHERE id = $2")
                .bind(a as i64)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        if let Some(d) = disabled {
            sqlx::query(
                "UPDATE users SET disabled_at = CASE WHEN $1 = 1 THEN COALESCE(disabled_at, $2) \
                 ELSE NULL END WHERE id = $3",
            )
            .bind(d as i64)
            .bind(now_ms())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        let left: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM users WHERE is_admin = 1 AND disabled_at IS NULL",
        )
        .fetch_one(&mut *tx)
        .await?;
        if left == 0 {
            tx.rollback().await?;
            return Err(StoreError::Conflict(LAST_SERVER_ADMIN.into()));
        }
        tx.commit().await?;
        if disabled == Some(true) {
            self.end_sessions(id, None).await?;
            self.revoke_signin_links(id).await?;
        }
        self.user(id).await
    }

    pub async fn set_disabled(&self, id: i64, disabled: bool) -> Result<User> {
        self.set_admin_flags(id, None, Some(disabled)).await
    }

    /// Removes a user's password, ends their sessions and revokes their earlier sign-in links
    /// (a reset: only the link made next opens the account).
    pub async fn clear_password(&self, id: i64) -> Result<()> {
        let done = sqlx::query("UPDATE users SET password_hash = NULL WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("user"));
        }
        self.end_sessions(id, None).await?;
        self.revoke_signin_links(id).await?;
        Ok(())
    }

    // --- teams ---------------------------------------------------------------------------

    pub async fn create_team(&self, name: &str) -> Result<Team> {
        let now = now_ms();
        let row = sqlx::query("INSERT INTO teams (name, created_at) VALUES ($1, $2) RETURNING id")
            .bind(name)
            .bind(now)
            .fetch_one(&self.pool)
            .await
            .map_err(|e| conflict(e, || format!("a team named `{name}` already exists")))?;
        Ok(Team {
            id: row.try_get("id")?,
            name: name.into(),
            created_at: rfc3339(now),
            role: None,
        })
    }

    pub async fn team(&self, id: i64) -> Result<Team> {
        let row = sqlx::query("SELECT id, name, created_at FROM teams WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("team"))?;
        Ok(Team {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            created_at: rfc3339(row.try_get("created_at")?),
            role: None,
        })
    }

    pub async fn rename_team(&self, id: i64, name: &str) -> Result<Team> {
        let done = sqlx::query("UPDATE teams SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(|e| conflict(e, || format!("a team named `{name}` already exists")))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("team"));
        }
        self.team(id).await
    }

    pub async fn team_by_name(&self, name: &str) -> Result<Team> {
        let row = sqlx::query("SELECT id FROM teams WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("team"))?;
        self.team(row.try_get("id")?).await
    }

    /// Teams `user_id` belongs to, with their role; every team when `all` (server admins).
    pub async fn teams_of(&self, user_id: i64, all: bool) -> Result<Vec<Team>> {
        let sql = if all {
            "SELECT t.id, t.name, t.created_at, m.role FROM teams t \
             LEFT JOIN memberships m ON m.team_id = t.id AND m.user_id = $1 ORDER BY t.name"
        } else {
            "SELECT t.id, t.name, t.created_at, m.role FROM teams t \
             JOIN memberships m ON m.team_id = t.id AND m.user_id = $1 ORDER BY t.name"
        };
        let rows = sqlx::query(sql).bind(user_id).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok(Team {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    created_at: rfc3339(r.try_get("created_at")?),
                    role: r
                        .try_get::<Option<String>, _>("role")?
                        .and_then(|s| Role::parse(&s)),
                })
            })
            .collect()
    }

    /// Deletes a team and its templates; refused while a job of one of them is queued or
    /// running (it would report to a template that is gone), naming the job.
    pub async fn delete_team(&self, id: i64) -> Result<()> {
        let active: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(j.id) FROM jobs j JOIN templates t ON t.id = j.template_id \
             WHERE t.team_id = $1 AND j.state NOT IN ('succeeded', 'failed', 'cancelled', 'lost')",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        if let Some(job) = active {
            return Err(StoreError::Conflict(format!(
                "job {job} of this team is still queued or running: cancel it (or wait for it to end) before deleting the team"
            )));
        }
        let done = sqlx::query("DELETE FROM teams WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("team"));
        }
        Ok(())
    }

    /// The role of a user in a team, if a member.
    pub async fn role_in(&self, team_id: i64, user_id: i64) -> Result<Option<Role>> {
        let row = sqlx::query("SELECT role FROM memberships WHERE team_id = $1 AND user_id = $2")
            .bind(team_id)
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|r| r.try_get::<String, _>("role"))
            .transpose()?
            .and_then(|s| Role::parse(&s)))
    }

    /// Adds a member or changes their role. The last administrator of a team is not demoted
    /// (checked after the change, in the same serialized transaction).
    pub async fn put_member(&self, team_id: i64, user_id: i64, role: Role) -> Result<()> {
        let mut tx = self.in_charge_tx().await?;
        let was = role_in_tx(&mut tx, team_id, user_id).await?;
        let changed =
            sqlx::query("UPDATE memberships SET role = $1 WHERE team_id = $2 AND user_id = $3")
                .bind(role.as_str())
                .bind(team_id)
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        if changed.rows_affected() == 0 {
            sqlx::query("INSERT INTO memberships (team_id, user_id, role) VALUES ($1, $2, $3)")
                .bind(team_id)
                .bind(user_id)
                .bind(role.as_str())
                .execute(&mut *tx)
                .await
                .map_err(|e| match StoreError::from(e) {
                    StoreError::Conflict(_) => StoreError::NotFound("team or user"),
                    other => other,
                })?;
        } else if was == Some(Role::Admin)
            && role != Role::Admin
            && team_admins(&mut tx, team_id).await? == 0
        {
            tx.rollback().await?;
            return Err(StoreError::Conflict(LAST_TEAM_ADMIN.into()));
        }
        tx.commit().await?;
        Ok(())
    }

    /// Removes a member; the last administrator of a team stays (checked after the removal, in
    /// the same serialized transaction).
    pub async fn remove_member(&self, team_id: i64, user_id: i64) -> Result<()> {
        let mut tx = self.in_charge_tx().await?;
        let was = role_in_tx(&mut tx, team_id, user_id).await?;
        let done = sqlx::query("DELETE FROM memberships WHERE team_id = $1 AND user_id = $2")
            .bind(team_id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("membership"));
        }
        if was == Some(Role::Admin) && team_admins(&mut tx, team_id).await? == 0 {
            tx.rollback().await?;
            return Err(StoreError::Conflict(LAST_TEAM_ADMIN.into()));
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn members(&self, team_id: i64) -> Result<Vec<Member>> {
        let rows = sqlx::query(
            "SELECT m.user_id, u.name, m.role FROM memberships m JOIN users u ON u.id = m.user_id \
             WHERE m.team_id = $1 ORDER BY u.name",
        )
        .bind(team_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Member {
                    user_id: r.try_get("user_id")?,
                    user_name: r.try_get("name")?,
                    role: Role::parse(&r.try_get::<String, _>("role")?).unwrap_or(Role::Viewer),
                })
            })
            .collect()
    }

    // --- credentials ---------------------------------------------------------------------

    /// Creates a credential and returns the secret (shown once) with its record.
    pub async fn create_credential(
        &self,
        user_id: i64,
        kind: CredentialKind,
        name: &str,
        expires_at: Option<i64>,
    ) -> Result<(String, ApiToken)> {
        let token = random_token(kind.prefix());
        let csrf = (kind == CredentialKind::Session).then(|| random_token(""));
        let row = sqlx::query(
            "INSERT INTO credentials (user_id, kind, name, token_hash, prefix, csrf_token, \
             created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(user_id)
        .bind(kind.as_str())
        .bind(name)
        .bind(hash_token(&token))
        .bind(token_prefix(&token))
        .bind(csrf)
        .bind(now_ms())
        .bind(expires_at)
        .fetch_one(&self.pool)
        .await
        .map_err(|e| match StoreError::from(e) {
            StoreError::Conflict(_) => StoreError::NotFound("user"),
            other => other,
        })?;
        let info = self.credential_record(row.try_get("id")?).await?;
        Ok((token, info))
    }

    async fn credential_record(&self, id: i64) -> Result<ApiToken> {
        let row = sqlx::query(
            "SELECT id, user_id, name, prefix, created_at, expires_at, last_used_at, revoked_at \
             FROM credentials WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("token"))?;
        token_of(&row)
    }

    /// The live credential (not revoked, not expired) holding `token`, with its user.
    pub async fn credential(&self, token: &str) -> Result<Option<Credential>> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT c.id AS cid, c.kind, c.csrf_token, c.expires_at, c.revoked_at, \
             c.last_used_at, {USER_COLS} FROM credentials c JOIN users u ON u.id = c.user_id \
             WHERE c.token_hash = $1"
        )))
        .bind(hash_token(token))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        if row.try_get::<Option<i64>, _>("revoked_at")?.is_some() {
            return Ok(None);
        }
        if row
            .try_get::<Option<i64>, _>("expires_at")?
            .is_some_and(|e| e <= now_ms())
        {
            return Ok(None);
        }
        if row.try_get::<Option<i64>, _>("disabled_at")?.is_some() {
            return Ok(None);
        }
        let kind = match row.try_get::<String, _>("kind")?.as_str() {
            "api_token" => CredentialKind::ApiToken,
            "session" => CredentialKind::Session,
            _ => CredentialKind::Signin,
        };
        Ok(Some(Credential {
            id: row.try_get("cid")?,
            user: user_of(&row)?,
            kind,
            csrf_token: row.try_get("csrf_token")?,
            last_used_at: row.try_get("last_used_at")?,
        }))
    }

    /// Whether credential `id` still works (not revoked, not expired).
    pub async fn credential_live(&self, id: i64) -> Result<bool> {
        let row = sqlx::query("SELECT expires_at, revoked_at FROM credentials WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(false) };
        Ok(row.try_get::<Option<i64>, _>("revoked_at")?.is_none()
            && row
                .try_get::<Option<i64>, _>("expires_at")?
                .is_none_or(|e| e > now_ms()))
    }

    /// Records that a credential was used (at most once a minute, so reads stay reads).
    pub async fn touch_credential(&self, cred: &Credential) -> Result<()> {
        let now = now_ms();
        if cred.last_used_at.is_some_and(|t| now - t < 60_000) {
            return Ok(());
        }
        sqlx::query("UPDATE credentials SET last_used_at = $1 WHERE id = $2")
            .bind(now)
            .bind(cred.id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A user's API tokens (newest first).
    pub async fn api_tokens(&self, user_id: i64) -> Result<Vec<ApiToken>> {
        let rows = sqlx::query(
            "SELECT id, user_id, name, prefix, created_at, expires_at, last_used_at, revoked_at \
             FROM credentials WHERE user_id = $1 AND kind = 'api_token' ORDER BY id DESC",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(token_of).collect()
    }

    /// Revokes credential `id` of `user_id`.
    pub async fn revoke_credential(&self, id: i64, user_id: i64) -> Result<()> {
        let done = sqlx::query(
            "UPDATE credentials SET revoked_at = COALESCE(revoked_at, $1) \
             WHERE id = $2 AND user_id = $3",
        )
        .bind(now_ms())
        .bind(id)
        .bind(user_id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("token"));
        }
        Ok(())
    }

    /// Revokes a user's unused one-time sign-in links (a reset or a disabled account: a link
    /// handed out before must not open the account afterwards).
    pub async fn revoke_signin_links(&self, user_id: i64) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE credentials SET revoked_at = $1 WHERE user_id = $2 AND kind = 'signin' \
             AND revoked_at IS NULL",
        )
        .bind(now_ms())
        .bind(user_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Ends every browser session of a user but `except` (the one changing the password).
    pub async fn end_sessions(&self, user_id: i64, except: Option<i64>) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE credentials SET revoked_at = $1 WHERE user_id = $2 AND kind = 'session' \
             AND revoked_at IS NULL AND id <> $3",
        )
        .bind(now_ms())
        .bind(user_id)
        .bind(except.unwrap_or(-1))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// The owner of a credential.
    pub async fn credential_owner(&self, id: i64) -> Result<i64> {
        let row = sqlx::query("SELECT user_id FROM credentials WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("token"))?;
        Ok(row.try_get("user_id")?)
    }

    /// Uses up a one-time credential: true the first time only.
    pub async fn consume_credential(&self, id: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE credentials SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
        )
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
