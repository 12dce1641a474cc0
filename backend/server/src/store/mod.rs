//! The store: the only module that knows SQL, and the only one that knows which database it
//! talks to. One set of portable queries (`$1` placeholders) runs on SQLite and PostgreSQL
//! through sqlx's `any` driver; migrations are mirrored per dialect in `migrations/`.
//!
//! - [`accounts`]: users, teams, memberships, credentials (API tokens, sessions, sign-in links).
//! - [`templates`]: templates, immutable versions, share links.
//! - [`jobs`]: runners, the job queue (atomic claim, reaper) and job events.
//! - [`sweeps`]: sweeps and their points (each point's job stored with the sweep).
//! - [`attempts`]: sign-in attempt windows, shared by every replica on the database.
//! - [`figures`]: counts by state and the pool's use, for `/metrics`; the `/readyz` ping.
//! - [`snapshot`]: a consistent copy of a live SQLite database, and what a database holds
//!   ([`snapshot::Inventory`]), for `ds-studio backup` and `restore`.
//! - [`replica_bridge`]: PostgreSQL's `NOTIFY`/`LISTEN` and advisory locks between replicas.
//! - `migrations`: the schema steps of both dialects, compiled in (a new one is listed there).
//!
//! Unique-constraint violations come back as [`StoreError::Conflict`] (HTTP 409); a save whose
//! base version is no longer the head as [`StoreError::VersionConflict`].

pub mod accounts;
pub mod attempts;
pub mod figures;
pub mod jobs;
mod migrations;
pub mod replica_bridge;
pub mod runner_tokens;
pub mod snapshot;
pub mod sweeps;
pub mod templates;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};
use std::path::Path;
use std::time::Duration;

/// Which database the store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// The store's one error type.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0} not found")]
    NotFound(&'static str),
    /// A unique constraint: the message names what already exists.
    #[error("{0}")]
    Conflict(String),
    /// A version was saved on a base that is no longer the head.
    #[error("version {base} is not the head any more (head is {head})")]
    VersionConflict { base: i64, head: i64 },
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: String,
        source: std::io::Error,
    },
    /// A directory named as the server's data directory holds no studio database.
    #[error("no studio database at {0} (is --data the server's data directory?)")]
    NoDatabase(String),
    #[error("cannot open the database {url}: {source}")]
    Open { url: String, source: sqlx::Error },
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The database was migrated by a newer ds-studio than this binary.
    #[error("the database is newer than this ds-studio: it has schema step {applied}, this binary knows steps up to {known}; run the newer ds-studio (or restore a backup taken before the upgrade)")]
    NewerDatabase { applied: i64, known: i64 },
    #[error("database error: {0}")]
    Db(sqlx::Error),
    /// Work moved off the async workers (parsing a large stored config) failed.
    #[error("{0}")]
    Background(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if let sqlx::Error::Database(d) = &e {
            if d.is_unique_violation() {
                return StoreError::Conflict("already exists".into());
            }
            if d.is_foreign_key_violation() {
                return StoreError::Conflict(
                    "a team, user or template it refers to no longer exists".into(),
                );
            }
        }
        if matches!(e, sqlx::Error::RowNotFound) {
            return StoreError::NotFound("row");
        }
        StoreError::Db(e)
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// A handle on the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    dialect: Dialect,
    /// Versions never change, so they are kept in memory once read (see `templates.rs`).
    versions: std::sync::Arc<templates::VersionCache>,
    /// SQLite has one writer at a time: event batches queue here instead of spinning in
    /// SQLite's busy handler (which sleeps in growing steps and made batches take seconds).
    event_writer: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl Store {
    /// The SQLite database in `data_dir` (created when missing), in WAL mode.
    /// The data directory is made traversable but not listable by others (0711: a job user
    /// reaches its job directory under it) and the database files readable by the server's
    /// user only (0600).
    pub async fn open_sqlite(data_dir: &Path) -> Result<Store> {
        use std::os::unix::fs::PermissionsExt;
        let path = data_dir.join("ds-studio.db");
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let private = |p: &Path, mode: u32| {
            if p.exists() {
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).map_err(
                    |source| StoreError::DataDir {
                        path: p.display().to_string(),
                        source,
                    },
                )
            } else {
                Ok(())
            }
        };
        private(data_dir, 0o711)?;
        let store = Store::connect(&url).await?;
        for suffix in ["", "-wal", "-shm"] {
            private(&data_dir.join(format!("ds-studio.db{suffix}")), 0o600)?;
        }
        Ok(store)
    }

    /// Connects to `sqlite://...` or `postgres://...` and applies the migrations.
    pub async fn connect(url: &str) -> Result<Store> {
        let store = Store::attach(url).await?;
        store.migrate().await?;
        Ok(store)
    }

    /// The existing SQLite database of `data_dir`, as it is: not created, not migrated (a
    /// backup beside a running server, which may be older or newer than this binary).
    pub async fn attach_sqlite(data_dir: &Path) -> Result<Store> {
        let path = data_dir.join("ds-studio.db");
        if !path.is_file() {
            return Err(StoreError::NoDatabase(path.display().to_string()));
        }
        Store::attach(&format!("sqlite://{}?mode=rw", path.display())).await
    }

    /// Connects to `sqlite://...` or `postgres://...` without migrating.
    pub async fn attach(url: &str) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let dialect = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Dialect::Postgres
        } else {
            Dialect::Sqlite
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if dialect == Dialect::Sqlite { 8 } else { 16 })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if dialect == Dialect::Sqlite {
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; \
                             PRAGMA busy_timeout = 10000; PRAGMA synchronous = NORMAL; \
                             PRAGMA secure_delete = ON;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(|source| StoreError::Open {
                url: redact(url),
                source,
            })?;
        Ok(Store {
            pool,
            dialect,
            versions: Default::default(),
            event_writer: Default::default(),
        })
    }

    /// Applies the migrations that are not applied yet.
    /// A database that has a step this binary does not know was migrated by a newer one: it
    /// is refused, named, and left as it is.
    pub async fn migrate(&self) -> Result<()> {
        let migrator = match self.dialect {
            Dialect::Sqlite => &*migrations::SQLITE,
            Dialect::Postgres => &*migrations::POSTGRES,
        };
        match migrator.run(&self.pool).await {
            Err(sqlx::migrate::MigrateError::VersionMissing(applied)) => {
                Err(StoreError::NewerDatabase {
                    applied,
                    known: migrator.iter().map(|m| m.version).max().unwrap_or(0),
                })
            }
            other => Ok(other?),
        }
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The connection pool, for SQL no method covers (tests that set up old rows).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Hides the password of a database URL in messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &creds[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// RFC 3339 text of a millisecond timestamp.
pub fn rfc3339(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

/// Parses an RFC 3339 time into milliseconds.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
        .ok()
        .map(|t| (t.unix_timestamp_nanos() / 1_000_000) as i64)
}

fn opt_time(row: &AnyRow, col: &str) -> Option<String> {
    row.try_get::<Option<i64>, _>(col)
        .ok()
        .flatten()
        .map(rfc3339)
}

pub fn page<T>(
    items: Vec<T>,
    total: i64,
    offset: i64,
    limit: i64,
) -> ds_studio_shared::api::Page<T> {
    let next = offset + items.len() as i64;
    ds_studio_shared::api::Page {
        items,
        total,
        offset,
        limit,
        next_offset: (next < total).then_some(next),
    }
}
