//! Backups of the database while the studio runs: a consistent copy of a SQLite database
//! (`VACUUM INTO`, one read transaction: every row committed before it began, none after,
//! whatever the server writes meanwhile, and the WAL's pages included, which a plain copy of
//! the file would miss), and the counts that say what a backup or a restored database holds.
//! On PostgreSQL the copy is `pg_dump`'s (the CLI runs it); the counts are the same query.

use super::{Dialect, Result, Store, StoreError};
use sqlx::Row;
use std::path::Path;

/// How many rows of each kind a database holds: what a backup promises and a restore shows.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Inventory {
    pub users: i64,
    pub teams: i64,
    pub templates: i64,
    pub versions: i64,
    pub jobs: i64,
    pub job_events: i64,
    pub sweeps: i64,
    /// The newest schema step applied.
    pub schema_step: i64,
}

impl Store {
    /// Counts every kind of row, in one read transaction.
    pub async fn inventory(&self) -> Result<Inventory> {
        let mut conn = self.pool.acquire().await?;
        inventory_of(&mut conn).await
    }

    /// Writes a consistent copy of this SQLite database to `to` (a new file) while others go
    /// on writing, and answers what it holds. Not for PostgreSQL (use `pg_dump`).
    pub async fn snapshot_sqlite(&self, to: &Path) -> Result<Inventory> {
        if self.dialect != Dialect::Sqlite {
            return Err(StoreError::Background(
                "a snapshot copies a SQLite database; back up PostgreSQL with pg_dump".into(),
            ));
        }
        let target = to.to_str().ok_or_else(|| {
            StoreError::Background(format!("{} is not a UTF-8 path", to.display()))
        })?;
        sqlx::query("VACUUM INTO $1")
            .bind(target)
            .execute(&self.pool)
            .await?;
        // The copy, read as it is (not migrated, its journal mode left alone).
        use sqlx::Connection;
        let url = format!("sqlite://{target}?mode=ro");
        let mut copy = sqlx::AnyConnection::connect(&url)
            .await
            .map_err(|source| StoreError::Open { url, source })?;
        let inventory = inventory_of(&mut copy).await;
        copy.close().await?;
        inventory
    }

    /// `PRAGMA integrity_check` of a SQLite database: `Ok` when it says `ok`.
    pub async fn check_integrity(&self) -> Result<()> {
        if self.dialect != Dialect::Sqlite {
            return Ok(());
        }
        let row = sqlx::query("PRAGMA integrity_check")
            .fetch_one(&self.pool)
            .await?;
        let verdict: String = row.try_get(0)?;
        if verdict == "ok" {
            Ok(())
        } else {
            Err(StoreError::Background(format!(
                "the database is damaged: {verdict}"
            )))
        }
    }
}

/// Counts every kind of row of the database behind `conn`, in one read transaction.
pub async fn inventory_of(conn: &mut sqlx::AnyConnection) -> Result<Inventory> {
    use sqlx::Connection;
    let mut tx = conn.begin().await?;
    let mut counts = [0i64; 7];
    let tables = [
        "users",
        "teams",
        "templates",
        "versions",
        "jobs",
        "job_events",
        "sweeps",
    ];
    for (n, table) in counts.iter_mut().zip(tables) {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) AS n FROM {table}"
        )))
        .fetch_one(&mut *tx)
        .await?;
        *n = row.try_get("n")?;
    }
    let step = sqlx::query(
        "SELECT COALESCE(MAX(version), 0) AS v FROM _sqlx_migrations WHERE success = $1",
    )
    .bind(true)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    let [users, teams, templates, versions, jobs, job_events, sweeps] = counts;
    Ok(Inventory {
        users,
        teams,
        templates,
        versions,
        jobs,
        job_events,
        sweeps,
        schema_step: step.try_get("v")?,
    })
}
