//! Replicas of the server on one PostgreSQL database. Each replica's [`Hub`] hears what its own
//! requests store; this module tells the other replicas, so that a watcher on any replica gets
//! every event and the end of its job, and a runner long-polling any replica is woken by a job
//! queued on another.
//!
//! - **Announce:** after an event batch, a state change or a queued job is stored, the hub
//!   hands a small [`Note`] (job id and sequence numbers, never the rows) to this module, which
//!   sends it with `NOTIFY ds_studio` (notes queued meanwhile travel together, in order).
//! - **Listen:** one `LISTEN ds_studio` connection per replica. Notes from the other replicas
//!   are turned back into hub messages by reading the rows from the store: events only for
//!   jobs a stream on this replica watches, states only when some stream listens.
//! - **Missed notes:** when the listening connection drops (PostgreSQL restarted), it
//!   reconnects and the hub sends [`HubMessage::Resync`]: every stream reads back from the
//!   store, and waiting claims look again.
//! - **Once per cluster:** background work (the reaper, the runs-table backfill) runs under a
//!   PostgreSQL advisory lock, so one replica does it at a time ([`Cluster::once_per_cluster`]).
//! - **Nothing else shared:** a replica's memory holds caches of immutable rows, per-replica
//!   limits, or what is announced here; a stream reads rows from the store, so a missed note
//!   delays an event, never loses it. The sign-in limits are rows (`store/attempts.rs`).
//!
//! [`HubMessage::Resync`]: crate::dispatch::HubMessage::Resync

use crate::dispatch::{Hub, Note};
use crate::store::replica_bridge::{Bridge, Listening};
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The PostgreSQL channel the replicas talk on.
pub const CHANNEL: &str = "ds_studio";

/// The application name of a replica's bridge sessions: this, then the replica's id.
const APPLICATION: &str = "ds-studio replica ";

/// Notes sent in one `NOTIFY` at most (each is under 60 bytes; PostgreSQL takes 8000).
const NOTES_PER_NOTIFY: usize = 64;

/// One `NOTIFY` payload: who sent it and its notes, in order.
#[derive(Debug, Serialize, Deserialize)]
struct Envelope {
    #[serde(rename = "r")]
    replica: String,
    #[serde(rename = "n")]
    notes: Vec<Note>,
}

/// Background work that one replica at a time does (the key of its advisory lock).
#[derive(Debug, Clone, Copy)]
pub enum Task {
    Reaper = 0x6473_0001,
    Backfill = 0x6473_0002,
    /// The first start (the administrator and the default team): replicas starting together
    /// on an empty database take turns, so exactly one administrator is made.
    Bootstrap = 0x6473_0003,
}

/// The cluster errors: the database connection of the bridge.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("cannot connect the replica bridge to {url}: {source}")]
    Connect { url: String, source: sqlx::Error },
    #[error("replica bridge: {0}")]
    Db(#[from] sqlx::Error),
}

/// This replica's place in the cluster (cheap to clone).
#[derive(Debug, Clone)]
pub struct Cluster {
    replica: Arc<str>,
    /// Native PostgreSQL connections for `NOTIFY` and the advisory locks.
    bridge: Bridge,
}

impl Cluster {
    /// Connects to the database at `url` (PostgreSQL), starts listening and announcing, and
    /// makes `hub` part of the cluster.
    pub async fn join(url: &str, store: Store, hub: &Hub) -> Result<Cluster, ClusterError> {
        let connect_err = |source| ClusterError::Connect {
            url: crate::store::redact(url),
            source,
        };
        let replica: Arc<str> = crate::secrets::random_token("")[..12].into();
        // Each replica's sessions carry its name, so replicas can count each other.
        let (bridge, listening) = Bridge::connect(url, &format!("{APPLICATION}{replica}"), CHANNEL)
            .await
            .map_err(connect_err)?;
        let (tx, rx) = mpsc::unbounded_channel();
        let cluster = Cluster {
            replica: replica.clone(),
            bridge: bridge.clone(),
        };
        hub.join(tx);
        tokio::spawn(announce(bridge, replica.clone(), rx));
        tokio::spawn(listen(listening, store, hub.clone(), replica));
        Ok(cluster)
    }

    /// This replica's id in notes (random per process).
    pub fn replica(&self) -> &str {
        &self.replica
    }

    /// How many other replicas are connected to this database now (by their sessions'
    /// application names; visible to the same database user; a replica starting at the same
    /// moment may be missed).
    pub async fn other_replicas(&self) -> Result<i64, ClusterError> {
        Ok(self
            .bridge
            .sessions_named(APPLICATION, &format!("{APPLICATION}{}", self.replica))
            .await?)
    }

    /// Runs `work` once no other replica is doing `task` (waiting for it to finish first).
    pub async fn one_at_a_time<T>(
        &self,
        task: Task,
        work: impl std::future::Future<Output = T>,
    ) -> Result<T, ClusterError> {
        let held = self.bridge.lock(task as i64).await?;
        let out = work.await;
        held.release().await;
        Ok(out)
    }

    /// Runs `work` unless another replica is doing `task` now (then `Ok(None)`). The lock is
    /// PostgreSQL's session advisory lock: a replica that dies mid-work frees it.
    pub async fn once_per_cluster<T>(
        &self,
        task: Task,
        work: impl std::future::Future<Output = T>,
    ) -> Result<Option<T>, ClusterError> {
        let Some(held) = self.bridge.try_lock(task as i64).await? else {
            return Ok(None);
        };
        let out = work.await;
        held.release().await;
        Ok(Some(out))
    }
}

/// Sends queued notes, those queued meanwhile in the same `NOTIFY`, in order.
async fn announce(bridge: Bridge, replica: Arc<str>, mut rx: mpsc::UnboundedReceiver<Note>) {
    while let Some(first) = rx.recv().await {
        let mut notes = vec![first];
        while notes.len() < NOTES_PER_NOTIFY {
            match rx.try_recv() {
                Ok(n) => notes.push(n),
                Err(_) => break,
            }
        }
        let payload = serde_json::to_string(&Envelope {
            replica: replica.to_string(),
            notes,
        })
        .unwrap_or_default();
        // One retry: a pooled connection may have been closed by the database since.
        for attempt in 0..2 {
            match bridge.notify(CHANNEL, &payload).await {
                Ok(_) => break,
                Err(e) if attempt == 0 => {
                    tracing::warn!(error = %e, "replica bridge: NOTIFY failed, retrying")
                }
                Err(e) => tracing::error!(
                    error = %e,
                    "replica bridge: NOTIFY failed; other replicas catch up on their streams' next check"
                ),
            }
        }
    }
}

/// Turns the other replicas' notes into hub messages on this replica.
async fn listen(mut listening: Listening, store: Store, hub: Hub, replica: Arc<str>) {
    loop {
        match listening.next().await {
            Ok(Some(payload)) => {
                let Ok(env) = serde_json::from_str::<Envelope>(&payload) else {
                    tracing::warn!(payload, "replica bridge: unreadable note");
                    continue;
                };
                if *env.replica == *replica {
                    continue;
                }
                for note in env.notes {
                    deliver(&store, &hub, note).await;
                }
            }
            Ok(None) => {
                tracing::warn!("replica bridge: the listening connection dropped and was made again; streams read back from the store");
                hub.resync_local();
            }
            Err(e) => {
                tracing::error!(error = %e, "replica bridge: listening failed; retrying in 1 s");
                tokio::time::sleep(Duration::from_secs(1)).await;
                hub.resync_local();
            }
        }
    }
}

async fn deliver(store: &Store, hub: &Hub, note: Note) {
    match note {
        Note::Events { job, from, to } if hub.is_watched(job) => {
            let n = (to - from + 1).clamp(1, 10_000);
            match store.events_after(job, from - 1, None, n).await {
                Ok(events) => hub.events_local(job, events),
                Err(e) => {
                    tracing::warn!(job, error = %e, "replica bridge: reading events failed");
                    hub.resync_local();
                }
            }
        }
        Note::Events { .. } => {}
        Note::State { job } if hub.has_listeners() => match store.job(job).await {
            Ok(j) => hub.state_local(j),
            Err(e) => tracing::warn!(job, error = %e, "replica bridge: reading a job failed"),
        },
        Note::State { .. } => {}
        Note::Queued => hub.queued_local(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_small_and_read_back() {
        let env = Envelope {
            replica: "0123456789ab".into(),
            notes: vec![
                Note::Events {
                    job: i64::MAX,
                    from: i64::MAX - 1,
                    to: i64::MAX,
                },
                Note::State { job: 7 },
                Note::Queued,
            ],
        };
        let text = serde_json::to_string(&env).unwrap();
        assert!(text.len() < 160, "{text}");
        let back: Envelope = serde_json::from_str(&text).unwrap();
        assert_eq!(back.notes, env.notes);
        // The largest NOTIFY stays under PostgreSQL's 8000-byte payload limit.
        let full = Envelope {
            replica: env.replica.clone(),
            notes: vec![env.notes[0]; NOTES_PER_NOTIFY],
        };
        assert!(serde_json::to_string(&full).unwrap().len() < 8000);
    }
}
