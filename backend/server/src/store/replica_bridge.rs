//! The PostgreSQL side of replicas (the `cluster` module holds what they say to each other): a
//! small pool of native connections for `NOTIFY`, `LISTEN`, the session advisory locks and the
//! count of the other replicas' sessions. Like the rest of the store, the only place these
//! statements are written.

use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgListener, PgPool, PgPoolOptions, Postgres};
use std::time::Duration;

/// Native PostgreSQL connections of one replica, named `application` in `pg_stat_activity`.
#[derive(Debug, Clone)]
pub struct Bridge {
    pg: PgPool,
}

/// The connection that listens on a channel.
pub struct Listening(PgListener);

/// A session advisory lock held on one connection; [`Held::release`] frees it.
pub struct Held {
    conn: PoolConnection<Postgres>,
    key: i64,
}

impl Bridge {
    /// Connects to the database at `url` as `application` and listens on `channel`.
    pub async fn connect(
        url: &str,
        application: &str,
        channel: &str,
    ) -> Result<(Bridge, Listening), sqlx::Error> {
        let options = url
            .parse::<sqlx::postgres::PgConnectOptions>()?
            .application_name(application);
        let pg = PgPoolOptions::new()
            .max_connections(3)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        let mut listener = PgListener::connect_with(&pg).await?;
        listener.listen(channel).await?;
        Ok((Bridge { pg }, Listening(listener)))
    }

    /// Distinct sessions of this database whose application name starts with `prefix`, other
    /// than `own` (visible to the same database user).
    pub async fn sessions_named(&self, prefix: &str, own: &str) -> Result<i64, sqlx::Error> {
        sqlx::query_scalar(
            "SELECT count(DISTINCT application_name) FROM pg_stat_activity \
             WHERE datname = current_database() AND application_name LIKE $1 \
             AND application_name <> $2",
        )
        .bind(format!("{prefix}%"))
        .bind(own)
        .fetch_one(&self.pg)
        .await
    }

    /// Takes the advisory lock `key`, waiting for whoever holds it.
    pub async fn lock(&self, key: i64) -> Result<Held, sqlx::Error> {
        let mut conn = self.pg.acquire().await?;
        sqlx::query("SELECT pg_advisory_lock($1)")
            .bind(key)
            .execute(&mut *conn)
            .await?;
        Ok(Held { conn, key })
    }

    /// Takes the advisory lock `key` if nobody holds it (`None` when someone does).
    pub async fn try_lock(&self, key: i64) -> Result<Option<Held>, sqlx::Error> {
        let mut conn = self.pg.acquire().await?;
        let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
            .bind(key)
            .fetch_one(&mut *conn)
            .await?;
        Ok(got.then_some(Held { conn, key }))
    }

    /// `NOTIFY channel, payload`.
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(&self.pg)
            .await
            .map(|_| ())
    }
}

impl Held {
    /// Frees the lock. A connection that may still hold it never goes back to the pool:
    /// closing it ends the session, which frees the lock.
    pub async fn release(mut self) {
        if sqlx::query("SELECT pg_advisory_unlock($1)")
            .bind(self.key)
            .execute(&mut *self.conn)
            .await
            .is_err()
        {
            drop(self.conn.detach());
        }
    }
}

impl Listening {
    /// The next notification's payload; `Ok(None)` when the connection dropped and was made
    /// again (notifications meanwhile are lost).
    pub async fn next(&mut self) -> Result<Option<String>, sqlx::Error> {
        Ok(self.0.try_recv().await?.map(|n| n.payload().to_string()))
    }
}
