//! Job dispatch inside the server: the broadcast of stored job events to SSE watchers, the
//! wake-up of runners waiting in a long-poll claim, and the reaper that marks the jobs of
//! silent runners `lost`.
//!
//! Events reach the hub only after they are stored (persist, then stream), so a watcher that
//! misses some (it lagged, or reconnected) reads them back from the store by sequence number.
//!
//! On PostgreSQL the hub may join a [`Cluster`] of replicas: what it hears is then announced to
//! the other replicas too, and what they announce reaches this replica's watchers and waiting
//! claims (`*_local`). Without a cluster (SQLite: one process) it stays in-process.

use crate::cluster::{Cluster, Note};
use crate::store::jobs::JobEvent;
use crate::store::{now_ms, Store};
use ds_studio_shared::api::Job;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
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
    /// Announcements from other replicas may have been missed (this replica's connection to
    /// the database dropped): every stream reads back from the store.
    Resync,
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
    /// The replicas this one shares its hub with (PostgreSQL only; set once at start).
    cluster: Arc<OnceLock<Cluster>>,
    /// Jobs watched by a stream on this replica, and by how many: only their events, when
    /// another replica announces them, are read back from the store.
    watched: Arc<Mutex<HashMap<i64, usize>>>,
}

/// A stream's interest in a job's events (dropped when the stream ends).
#[derive(Debug)]
pub struct Watch {
    watched: Arc<Mutex<HashMap<i64, usize>>>,
    job: i64,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut w = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = w.get_mut(&self.job) {
            *n -= 1;
            if *n == 0 {
                w.remove(&self.job);
            }
        }
    }
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            tx: broadcast::channel(4096).0,
            queued: Arc::new(Notify::new()),
            started_ms: now_ms(),
            closing: watch::channel(false).0,
            cluster: Arc::default(),
            watched: Arc::default(),
        }
    }
}

impl Hub {
    pub fn subscribe(&self) -> broadcast::Receiver<HubMessage> {
        self.tx.subscribe()
    }

    /// Events just stored for a job (in sequence order): to this replica's watchers, and
    /// announced to the others.
    pub fn events(&self, job_id: i64, events: Vec<JobEvent>) {
        if let (Some(c), Some(first), Some(last)) = (self.cluster(), events.first(), events.last())
        {
            c.announce(Note::Events {
                job: job_id,
                from: first.seq(),
                to: last.seq(),
            });
        }
        self.events_local(job_id, events);
    }

    /// A job changed state (stored already): to this replica's watchers, and announced.
    pub fn state(&self, job: Job) {
        if let Some(c) = self.cluster() {
            c.announce(Note::State { job: job.id });
        }
        self.state_local(job);
    }

    /// A job was queued: claims waiting on any replica try again.
    pub fn job_queued(&self) {
        if let Some(c) = self.cluster() {
            c.announce(Note::Queued);
        }
        self.queued_local();
    }

    /// Events to this replica's watchers only (another replica stored them).
    pub fn events_local(&self, job_id: i64, events: Vec<JobEvent>) {
        if !events.is_empty() {
            let _ = self.tx.send(HubMessage::Events(job_id, Arc::new(events)));
        }
    }

    pub fn state_local(&self, job: Job) {
        let _ = self.tx.send(HubMessage::State(Arc::new(job)));
    }

    pub fn queued_local(&self) {
        self.queued.notify_waiters();
    }

    /// Every stream of this replica reads back from the store, and waiting claims look again.
    pub fn resync_local(&self) {
        let _ = self.tx.send(HubMessage::Resync);
        self.queued.notify_waiters();
    }

    /// Whether any stream on this replica listens (a state another replica announces is read
    /// back from the store only then).
    pub fn has_listeners(&self) -> bool {
        self.tx.receiver_count() > 0
    }

    /// Marks a job as watched by a stream until the returned guard is dropped.
    pub fn watch(&self, job_id: i64) -> Watch {
        *self
            .watched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(job_id)
            .or_insert(0) += 1;
        Watch {
            watched: self.watched.clone(),
            job: job_id,
        }
    }

    pub fn is_watched(&self, job_id: i64) -> bool {
        self.watched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&job_id)
    }

    /// Joins the replicas of `cluster` (once; later calls are ignored).
    pub fn join(&self, cluster: Cluster) {
        let _ = self.cluster.set(cluster);
    }

    pub fn cluster(&self) -> Option<&Cluster> {
        self.cluster.get()
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
    /// `RUNNER_TIMEOUT` (counted from the server's own start at the earliest) become `lost`,
    /// and sign-in attempt windows that ended are forgotten. Among replicas, one at a time
    /// does it (the cluster's `reaper` lock).
    pub async fn reap_forever(self, store: Store) {
        let mut tick = tokio::time::interval(REAP_EVERY);
        loop {
            tick.tick().await;
            let cutoff = now_ms() - RUNNER_TIMEOUT.as_millis() as i64;
            if cutoff < self.started_ms {
                continue;
            }
            let reap = self.reap_once(&store, cutoff);
            match self.cluster() {
                Some(c) => match c.once_per_cluster(crate::cluster::Task::Reaper, reap).await {
                    Ok(_) => {}
                    Err(e) => tracing::error!(error = %e, "reaper: the cluster lock failed"),
                },
                None => reap.await,
            }
        }
    }

    async fn reap_once(&self, store: &Store, cutoff: i64) {
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
        if let Err(e) = store.forget_old_attempts().await {
            tracing::error!(error = %e, "forgetting old sign-in attempts failed");
        }
    }
}
