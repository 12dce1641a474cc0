//! Where the database is: `--database-url` (or `DATABASE_URL`) for PostgreSQL, otherwise the
//! SQLite file in `--data` (default `./data`).

use ds_studio_server::store::{Store, StoreError};
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct DbArgs {
    /// Data directory (SQLite database and job files; created on first start).
    #[arg(long, default_value = "./data")]
    pub data: PathBuf,
    /// `postgres://user@host/db` to use PostgreSQL instead of SQLite in the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
}

impl DbArgs {
    /// Opens (and migrates) the store.
    pub async fn open(&self) -> Result<Store, StoreError> {
        match &self.database_url {
            Some(url) if !url.is_empty() => Store::connect(url).await,
            _ => {
                std::fs::create_dir_all(&self.data).map_err(|source| StoreError::DataDir {
                    path: self.data.display().to_string(),
                    source,
                })?;
                Store::open_sqlite(&self.data).await
            }
        }
    }
}
