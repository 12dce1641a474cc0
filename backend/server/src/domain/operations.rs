//! What an operator's scrape reads: the database's counts, the runners, this replica's open
//! streams and pool, gathered into the [`Now`] that `/metrics` renders.

use super::DomainError;
use crate::metrics::Now;
use crate::state::AppState;

/// The figures true at this moment, for one scrape.
pub async fn metrics_now(s: &AppState) -> Result<Now, DomainError> {
    let figures = s.store.figures().await?;
    let runners = s.store.runners().await?;
    Ok(Now {
        jobs_by_state: figures.jobs,
        sweep_points_by_state: figures.sweep_points,
        runners: runners
            .into_iter()
            .map(|r| (r.name, r.online, r.gpus.len()))
            .collect(),
        open_streams: s.limits.open_streams(),
        pool_size: figures.pool_size,
        pool_idle: figures.pool_idle,
        pool_max: figures.pool_max,
    })
}
