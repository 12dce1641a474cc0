//! Job dispatch inside the server: the broadcast of stored job events to SSE watchers, the
//! wake-up of runners waiting in a long-poll claim, and the reaper that marks the jobs of
//! silent runners `lost`.
//!
//! Events reach the hub only after they are stored (persist, then stream), so a watcher that
//! misses some (it lagged, or reconnected) reads them back from the store by sequence number.

use crate::store::jobs::JobEvent;
use crate::store::{now_ms, Store};
use ds_studio_shared::api::Job;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, watch, Notify};

/// A runner that has not sent a heartbeat for this long has its running jobs marked `lost`.
pub const RUNNER_TIMEOUT: Duration = Duration::from_secs(20);
/// How often the reaper looks (so a job is lost within `RUNNER_TIMEOUT` + this, under 30 s).
pub const REAP_EVERY: Duration = Duration::from_secs(5);

/// What watchers hear about.
#[derive(Debug, Clone)]
pub enum HubMessage {
    /// Events stored for a job, in sequence order.
    Events(i64, Arc<Vec<JobEvent>>),
    /// A job changed state (or was asked to cancel).
    State(Arc<Job>),
}

/// The server's job hub (cheap to clone).
#[derive(Debug, Clone)]
pub struct Hub {
    tx: broadcast::Sender<HubMessage>,
    /// Woken when a job is queued, so runners in a long-poll claim try again.
    queued: Arc<Notify>,
    /// When this server started: a runner is not reaped for silence while the server was down.
    started_ms: i64,
    /// Set when the server shuts down: long polls answer at once and SSE streams end, so the
    /// graceful shutdown does not wait for them.
    closing: watch::Sender<bool>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            tx: broadcast::channel(4096).0,
            queued: Arc::new(Notify::new()),
            started_ms: now_ms(),
            closing: watch::channel(false).0,
        }
    }
}

impl Hub {
    pub fn subscribe(&self) -> broadcast::Receiver<HubMessage> {
        self.tx.subscribe()
    }

    pub fn events(&self, job_id: i64, events: Vec<JobEvent>) {
        if !events.is_empty() {
            let _ = self.tx.send(HubMessage::Events(job_id, Arc::new(events)));
        }
    }

    pub fn state(&self, job: Job) {
        let _ = self.tx.send(HubMessage::State(Arc::new(job)));
    }

    pub fn job_queued(&self) {
        self.queued.notify_waiters();
    }

    /// Resolves when a job is queued, after `max`, or when the server shuts down.
    pub async fn wait_for_job(&self, max: Duration) {
        tokio::select! {
            _ = tokio::time::timeout(max, self.queued.notified()) => {}
            _ = self.closed() => {}
        }
    }

    /// Starts the shutdown: waiting claims and SSE streams end.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    pub fn is_closing(&self) -> bool {
        *self.closing.borrow()
    }

    /// Resolves once the server shuts down.
    pub async fn closed(&self) {
        let mut rx = self.closing.subscribe();
        let _ = rx.wait_for(|c| *c).await;
    }

    /// Runs the reaper until the process ends: every `REAP_EVERY`, jobs of runners silent for
    /// `RUNNER_TIMEOUT` (counted from the server's own start at the earliest) become `lost`.
    pub async fn reap_forever(self, store: Store) {
        let mut tick = tokio::time::interval(REAP_EVERY);
        loop {
            tick.tick().await;
            let cutoff = now_ms() - RUNNER_TIMEOUT.as_millis() as i64;
            if cutoff < self.started_ms {
                continue;
            }
            match store.reap_lost(cutoff).await {
                Ok(ids) => {
                    for id in ids {
                        tracing::warn!(job = id, "job lost: its runner stopped sending heartbeats");
                        if let Ok(job) = store.job(id).await {
                            self.state(job);
                        }
                    }
                }
                Err(e) => tracing::error!(error = %e, "reaper failed"),
            }
        }
    }
}
