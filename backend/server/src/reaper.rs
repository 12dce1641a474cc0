//! The reaper: every [`REAP_EVERY`], the running jobs of runners silent for
//! [`RUNNER_TIMEOUT`] become `lost` (their watchers told through the hub), and sign-in attempt
//! windows that ended long ago are forgotten. Among replicas, one at a time does it (the
//! cluster's `reaper` lock).

use crate::cluster::{Cluster, Task};
use crate::dispatch::{Hub, REAP_EVERY, RUNNER_TIMEOUT};
use crate::store::{now_ms, Store};

/// Runs until the process ends. A runner is not reaped for silence while this server was down:
/// silence counts from the server's start at the earliest.
pub async fn reap_forever(hub: Hub, store: Store, cluster: Option<Cluster>) {
    let started_ms = now_ms();
    let mut tick = tokio::time::interval(REAP_EVERY);
    loop {
        tick.tick().await;
        let cutoff = now_ms() - RUNNER_TIMEOUT.as_millis() as i64;
        if cutoff < started_ms {
            continue;
        }
        let reap = reap_once(&hub, &store, cutoff);
        match &cluster {
            Some(c) => {
                if let Err(e) = c.once_per_cluster(Task::Reaper, reap).await {
                    tracing::error!(error = %e, "reaper: the cluster lock failed");
                }
            }
            None => reap.await,
        }
    }
}

async fn reap_once(hub: &Hub, store: &Store, cutoff: i64) {
    match store.reap_lost(cutoff).await {
        Ok(ids) => {
            for id in ids {
                tracing::warn!(job = id, "job lost: its runner stopped sending heartbeats");
                if let Ok(job) = store.job(id).await {
                    hub.state(job);
                }
            }
        }
        Err(e) => tracing::error!(error = %e, "reaper failed"),
    }
    if let Err(e) = store.forget_old_attempts().await {
        tracing::error!(error = %e, "forgetting old sign-in attempts failed");
    }
}
