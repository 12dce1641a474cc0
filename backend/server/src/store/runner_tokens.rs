//! Runner credentials: a token for one runner name (and optionally one team), stored as SHA-256,
//! good only on the runner routes.

use super::{now_ms, opt_time, rfc3339, Result, Store, StoreError};
use crate::secrets::{hash_token, random_token, token_prefix};
use ds_studio_shared::api::RunnerToken;
use sqlx::any::AnyRow;
use sqlx::Row;

/// Prefix of runner tokens (the in-memory token of the local runner has it too).
pub const RUNNER_TOKEN_PREFIX: &str = "dsr_";

/// What a live runner token allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerCredential {
    /// The token's id; `None` for the local runner's in-memory token.
    pub id: Option<i64>,
    pub runner: String,
    pub team_id: Option<i64>,
}

fn token_of(row: &AnyRow) -> Result<RunnerToken> {
    Ok(RunnerToken {
        id: row.try_get("id")?,
        runner: row.try_get("runner_name")?,
        team_id: row.try_get("team_id")?,
        prefix: row.try_get("prefix")?,
        created_at: rfc3339(row.try_get("created_at")?),
        last_used_at: opt_time(row, "last_used_at"),
        revoked: row.try_get::<Option<i64>, _>("revoked_at")?.is_some(),
    })
}

impl Store {
    /// Creates a runner token; returns the secret (shown once) with its record.
    pub async fn create_runner_token(
        &self,
        runner: &str,
        team_id: Option<i64>,
    ) -> Result<(String, RunnerToken)> {
        if let Some(t) = team_id {
            self.team(t).await?;
        }
        // One runner name serves one team (or all): a second live token may not widen or move
        // what that runner may claim and report.
        let other = sqlx::query(
            "SELECT team_id FROM runner_tokens WHERE runner_name = $1 AND revoked_at IS NULL",
        )
        .bind(runner)
        .fetch_all(&self.pool)
        .await?;
        for row in &other {
            let t: Option<i64> = row.try_get("team_id")?;
            if t != team_id {
                return Err(StoreError::Conflict(format!(
                    "runner `{runner}` already has a live token for {}; revoke it first",
                    t.map(|t| format!("team {t}"))
                        .unwrap_or_else(|| "every team".into())
                )));
            }
        }
        let token = random_token(RUNNER_TOKEN_PREFIX);
        let row = sqlx::query(
            "INSERT INTO runner_tokens (runner_name, team_id, token_hash, prefix, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(runner)
        .bind(team_id)
        .bind(hash_token(&token))
        .bind(token_prefix(&token))
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await?;
        let info = self.runner_token(row.try_get("id")?).await?;
        Ok((token, info))
    }

    pub async fn runner_token(&self, id: i64) -> Result<RunnerToken> {
        let row = sqlx::query("SELECT * FROM runner_tokens WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("runner token"))?;
        token_of(&row)
    }

    pub async fn runner_tokens(&self) -> Result<Vec<RunnerToken>> {
        let rows = sqlx::query("SELECT * FROM runner_tokens ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(token_of).collect()
    }

    /// Revokes a runner token (a runner using it is refused from its next call on).
    pub async fn revoke_runner_token(&self, id: i64) -> Result<RunnerToken> {
        sqlx::query(
            "UPDATE runner_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
        )
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?;
        self.runner_token(id).await
    }

    /// The live (not revoked) runner token holding `token`.
    pub async fn runner_credential(&self, token: &str) -> Result<Option<RunnerCredential>> {
        let row = sqlx::query(
            "SELECT id, runner_name, team_id, last_used_at FROM runner_tokens \
             WHERE token_hash = $1 AND revoked_at IS NULL",
        )
        .bind(hash_token(token))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let id: i64 = row.try_get("id")?;
        let now = now_ms();
        // Recorded at most once a minute, so the hot path of metric ingest stays a read.
        if row
            .try_get::<Option<i64>, _>("last_used_at")?
            .is_none_or(|t| now - t >= 60_000)
        {
            sqlx::query("UPDATE runner_tokens SET last_used_at = $1 WHERE id = $2")
                .bind(now)
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        Ok(Some(RunnerCredential {
            id: Some(id),
            runner: row.try_get("runner_name")?,
            team_id: row.try_get("team_id")?,
        }))
    }
}
