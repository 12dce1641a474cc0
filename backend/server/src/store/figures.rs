//! What `/metrics` reads from the database at each scrape: jobs by state, sweep points by
//! state, and the connection pool's use. Counts only: no names, no team.

use super::{Result, Store};
use sqlx::Row;

/// The database's figures at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// (state, jobs), every state that has a job.
    pub jobs: Vec<(String, i64)>,
    /// (state, points): a point's job's state, `pruned` for a point the estimate pruned,
    /// `pending` for one whose job is not made yet.
    pub sweep_points: Vec<(String, i64)>,
    /// Connections the pool holds, and of them those idle.
    pub pool_size: u32,
    pub pool_idle: usize,
    pub pool_max: u32,
}

impl Store {
    /// Counts by state, two grouped queries whatever the number of jobs.
    pub async fn figures(&self) -> Result<Figures> {
        let counts = |rows: Vec<sqlx::any::AnyRow>| -> Result<Vec<(String, i64)>> {
            rows.iter()
                .map(|r| Ok((r.try_get::<String, _>("s")?, r.try_get::<i64, _>("n")?)))
                .collect()
        };
        let jobs = sqlx::query("SELECT state AS s, COUNT(*) AS n FROM jobs GROUP BY state")
            .fetch_all(&self.pool)
            .await?;
        let points = sqlx::query(
            "SELECT CASE WHEN j.state IS NOT NULL THEN j.state \
                         WHEN p.reason IS NOT NULL THEN 'pruned' ELSE 'pending' END AS s, \
                    COUNT(*) AS n \
             FROM sweep_points p LEFT JOIN jobs j ON j.id = p.job_id GROUP BY 1",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(Figures {
            jobs: counts(jobs)?,
            sweep_points: counts(points)?,
            pool_size: self.pool.size(),
            pool_idle: self.pool.num_idle(),
            pool_max: self.pool.options().get_max_connections(),
        })
    }

    /// Whether the database answers a query now (`/readyz`).
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await?;
        Ok(())
    }
}
