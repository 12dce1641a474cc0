//! Job dispatch inside the server: the broadcast of stored job events to SSE watchers and the
//! wake-up of runners waiting in a long-poll claim (and the timeouts the reaper and
//! cancellations use).
//!
//! Events reach the hub only after they are stored (persist, then stream), so a watcher that
//! misses some (it lagged, or reconnected) reads them back from the store by sequence number.
//!
//! On PostgreSQL the hub may be given a channel to the other replicas (the `cluster` module sets
//! it): what it hears is then announced as a [`Note`] too, and what they announce reaches this
//! replica's watchers and waiting claims (`*_local`). Without one (SQLite: one process) it
//! stays in-process. The reaper of silent runners has its own module.

use crate::store::jobs::JobEvent;
use ds_studio_shared::api::Job;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, watch, Notify};

/// A runner that has not sent a heartbeat for this long has its running jobs marked `lost`.
pub const RUNNER_TIMEOUT: Duration = Duration::from_secs(20);
/// How often the reaper looks (so a job is lost within `RUNNER_TIMEOUT` + this, under 30 s).
pub const REAP_EVERY: Duration = Duration::from_secs(5);

/// What one replica tells the others (see the `cluster` module). Small on purpose: the rows are
/// read from the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k")]
pub enum Note {
    /// Events `from..=to` of `job` are stored.
    #[serde(rename = "e")]
    Events {
        #[serde(rename = "j")]
        job: i64,
        #[serde(rename = "f")]
        from: i64,
        #[serde(rename = "t")]
        to: i64,
    },
    /// `job` changed state (or was asked to cancel).
    #[serde(rename = "s")]
    State {
        #[serde(rename = "j")]
        job: i64,
    },
    /// A job was queued.
    #[serde(rename = "q")]
    Queued,
}

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
    /// Set when the server shuts down: long polls answer at once and SSE streams end, so the
    /// graceful shutdown does not wait for them.
    closing: watch::Sender<bool>,
    /// Where notes for the other replicas go (PostgreSQL only; set once at start).
    peers: Arc<OnceLock<mpsc::UnboundedSender<Note>>>,
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
            closing: watch::channel(false).0,
            peers: Arc::default(),
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
        if let (Some(first), Some(last)) = (events.first(), events.last()) {
            self.announce(Note::Events {
                job: job_id,
                from: first.seq(),
                to: last.seq(),
            });
        }
        self.events_local(job_id, events);
    }

    /// A job changed state (stored already): to this replica's watchers, and announced.
    pub fn state(&self, job: Job) {
        self.announce(Note::State { job: job.id });
        self.state_local(job);
    }

    /// A job was queued: claims waiting on any replica try again.
    pub fn job_queued(&self) {
        self.announce(Note::Queued);
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

    /// From now on, what this hub hears is also sent to `peers` (once; later calls are
    /// ignored).
    pub fn join(&self, peers: mpsc::UnboundedSender<Note>) {
        let _ = self.peers.set(peers);
    }

    fn announce(&self, note: Note) {
        if let Some(p) = self.peers.get() {
            let _ = p.send(note);
        }
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
}
