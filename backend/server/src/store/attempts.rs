//! Attempt windows kept in the database: how many times a key (a user name) was tried in its
//! current window, shared by every replica of the server on the same database. The in-memory
//! [`crate::limits::Window`] stays in front of it, per replica; this is the count that holds
//! across replicas.

use super::{now_ms, Result, Store};
use sqlx::Row;

/// Windows that started this long ago are deleted (longer than any window counted here).
const KEEP_MS: i64 = 3_600_000;

impl Store {
    /// Counts one attempt for `key` in `scope`; `Err(seconds to wait)` once the key has made
    /// more than `max` attempts in the current window of `window_ms`. One statement, so
    /// replicas counting at the same moment cannot both slip under the limit.
    pub async fn count_attempt(
        &self,
        scope: &str,
        key: &str,
        max: u32,
        window_ms: i64,
    ) -> Result<std::result::Result<(), u64>> {
        let now = now_ms();
        let row = sqlx::query(
            "INSERT INTO attempt_windows (scope, key, started_at, attempts) VALUES ($1, $2, $3, 1) \
             ON CONFLICT (scope, key) DO UPDATE SET \
             started_at = CASE WHEN attempt_windows.started_at <= $4 THEN $3 \
                          ELSE attempt_windows.started_at END, \
             attempts = CASE WHEN attempt_windows.started_at <= $4 THEN 1 \
                        ELSE attempt_windows.attempts + 1 END \
             RETURNING started_at, attempts",
        )
        .bind(scope)
        .bind(key)
        .bind(now)
        .bind(now - window_ms)
        .fetch_one(&self.pool)
        .await?;
        let started: i64 = row.try_get("started_at")?;
        let attempts: i64 = row.try_get("attempts")?;
        if attempts > i64::from(max) {
            let left_ms = (started + window_ms - now).max(0);
            return Ok(Err(((left_ms + 999) / 1000).max(1) as u64));
        }
        Ok(Ok(()))
    }

    /// Forgets `key`'s attempts in `scope` (it succeeded).
    pub async fn reset_attempts(&self, scope: &str, key: &str) -> Result<()> {
        sqlx::query("DELETE FROM attempt_windows WHERE scope = $1 AND key = $2")
            .bind(scope)
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes windows that ended long ago (the reaper calls it).
    pub async fn forget_old_attempts(&self) -> Result<u64> {
        let done = sqlx::query("DELETE FROM attempt_windows WHERE started_at < $1")
            .bind(now_ms() - KEEP_MS)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
