//! A job's events on their way to the server, buffered on disk.
//!
//! Every metric point and log line gets the job's next sequence number and is appended to
//! `events.jsonl` in the job directory at once. A sender task reads that file from the last
//! acknowledged position and posts batches; when the server is down it keeps them there and
//! retries with backoff, so nothing is lost while the job goes on. The server drops events it
//! already has by sequence number, so a batch resent after a lost answer is harmless.
//! Batches are bounded in events and bytes (a 413 halves them; events are never dropped for
//! size), and a job records at most [`MAX_EVENTS`] events, the last one a notice saying so.

use ds_studio_client::{Client, ClientError};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{EventBatch, RunnerEvent};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// Most events in one request.
const BATCH: usize = 1000;
/// Most bytes of events in one request (the server takes bodies of up to 4 MiB).
const BATCH_BYTES: usize = 1 << 20;
/// Most events one job records; past it one notice says so and the job goes on unrecorded.
pub const MAX_EVENTS: i64 = 1_000_000;

struct Writer {
    file: std::fs::File,
    next_seq: i64,
}

/// Numbers, spools and sends one job's events (cheap to clone).
#[derive(Clone)]
pub struct Reporter {
    writer: Arc<Mutex<Writer>>,
    shared: Arc<Shared>,
    /// Values written as `***` in every log line (the job's secret variables).
    masked: Arc<Vec<String>>,
}

struct Shared {
    wake: Notify,
    written: AtomicI64,
    acked: AtomicI64,
    stop: AtomicBool,
    drained: Notify,
    watched: Mutex<Watched>,
}

/// What the reporter saw of the training's progress: the last finite metric (when, which
/// step) and the first loss that was NaN or infinite. The runner stops a job that makes no
/// progress for its `stall_timeout_s`, and names a non-finite loss in the job's message.
#[derive(Debug, Clone)]
pub struct Watched {
    pub last_progress: std::time::Instant,
    pub last_step: Option<i64>,
    /// (series, step, value) of the first non-finite loss.
    pub non_finite_loss: Option<(String, i64, f64)>,
}

/// The series the runner's sampler writes (`process/rss_mb`, …), as opposed to the job's.
const SAMPLER_PREFIX: &str = "process/";

/// Whether a series is a training loss (`Train/Samples/train_loss`, `loss`), not the fp16
/// loss scale.
fn is_loss(name: &str) -> bool {
    let last = name.rsplit('/').next().unwrap_or(name);
    last.ends_with("loss") && !last.contains("scale")
}

impl Reporter {
    /// Starts the sender for `job_id`, spooling to `spool` (created or truncated).
    pub fn start(
        client: Arc<Client>,
        runner_id: i64,
        job_id: i64,
        spool: &Path,
    ) -> std::io::Result<Reporter> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(spool)?;
        let shared = Arc::new(Shared {
            wake: Notify::new(),
            written: AtomicI64::new(0),
            acked: AtomicI64::new(0),
            stop: AtomicBool::new(false),
            drained: Notify::new(),
            watched: Mutex::new(Watched {
                last_progress: std::time::Instant::now(),
                last_step: None,
                non_finite_loss: None,
            }),
        });
        let path = spool.to_path_buf();
        let s = shared.clone();
        tokio::spawn(async move {
            send_loop(client, runner_id, job_id, path, s).await;
        });
        Ok(Reporter {
            writer: Arc::new(Mutex::new(Writer { file, next_seq: 1 })),
            shared,
            masked: Arc::default(),
        })
    }

    /// What was seen of the training's progress so far.
    pub fn watched(&self) -> Watched {
        self.shared
            .watched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Masks these values (of at least 3 bytes) as `***` in every log line from now on.
    pub fn mask(&mut self, values: impl IntoIterator<Item = String>) {
        let mut v: Vec<String> = values.into_iter().filter(|v| v.len() >= 3).collect();
        // Longer first, so a value containing another is masked whole.
        v.sort_by_key(|x| std::cmp::Reverse(x.len()));
        self.masked = Arc::new(v);
    }

    fn push(&self, make: impl FnOnce(i64, i64) -> RunnerEvent) {
        let ts = now_ms();
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let seq = w.next_seq;
        if seq > MAX_EVENTS {
            return;
        }
        let event = if seq == MAX_EVENTS {
            RunnerEvent::Log {
                seq,
                ts,
                stream: "runner".into(),
                text: format!(
                    "ds-studio: this job reached {MAX_EVENTS} recorded events (log lines and metric points); the rest of its output is not recorded, the job goes on"
                ),
            }
        } else {
            make(seq, ts)
        };
        let mut line = serde_json::to_vec(&event).unwrap_or_default();
        line.push(b'\n');
        if let Err(e) = w.file.write_all(&line) {
            tracing::error!(error = %e, "cannot spool a job event");
            return;
        }
        w.next_seq += 1;
        self.shared.written.store(seq, Ordering::SeqCst);
        drop(w);
        self.shared.wake.notify_one();
    }

    /// A metric point; a non-finite value is not sent (JSON cannot hold it), but a NaN or
    /// infinite loss is remembered ([`Reporter::watched`]).
    pub fn metric(&self, name: &str, step: i64, value: f64) {
        {
            let mut w = self
                .shared
                .watched
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if name.starts_with(SAMPLER_PREFIX) {
                // The runner's own samples of the job's processes are not the training's
                // progress: a hung rank still has a resident set.
            } else if value.is_finite() {
                w.last_progress = std::time::Instant::now();
                w.last_step = Some(w.last_step.map_or(step, |s| s.max(step)));
            } else if is_loss(name) && w.non_finite_loss.is_none() {
                w.non_finite_loss = Some((name.to_string(), step, value));
            }
        }
        if !value.is_finite() {
            return;
        }
        self.push(|seq, ts| RunnerEvent::Metric {
            seq,
            ts,
            name: name.to_string(),
            step,
            value,
        });
    }

    pub fn log(&self, stream: &str, text: &str) {
        // One line of a program's output can be huge (a progress bar without newlines).
        let text: String = self.masked(text).chars().take(8192).collect();
        self.push(|seq, ts| RunnerEvent::Log {
            seq,
            ts,
            stream: stream.to_string(),
            text,
        });
    }

    /// `text` with every secret value written as `***`, and a secret cut at either end of the
    /// text (a line split at its length limit) masked too.
    pub fn masked(&self, text: &str) -> String {
        let mut text = text.to_string();
        for secret in self.masked.iter() {
            if text.contains(secret.as_str()) {
                text = text.replace(secret.as_str(), "***");
            }
            // The end of the text holds the start of a secret, or the start its end.
            for cut in (4..secret.len()).rev() {
                if let (Some(head), Some(tail)) =
                    (secret.get(..cut), secret.get(secret.len() - cut..))
                {
                    if text.ends_with(head) {
                        text.truncate(text.len() - head.len());
                        text.push_str("***");
                        break;
                    }
                    if text.starts_with(tail) {
                        text.replace_range(..tail.len(), "***");
                        break;
                    }
                }
            }
        }
        text
    }

    /// Events written and events the server acknowledged.
    pub fn counts(&self) -> (i64, i64) {
        (
            self.shared.written.load(Ordering::SeqCst),
            self.shared.acked.load(Ordering::SeqCst),
        )
    }

    /// Waits until the server has every event written so far (retrying while it is down),
    /// then stops the sender.
    pub async fn finish(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        loop {
            let drained = self.shared.drained.notified();
            let (w, a) = self.counts();
            if a >= w {
                self.shared.wake.notify_one();
                return;
            }
            self.shared.wake.notify_one();
            let _ = tokio::time::timeout(Duration::from_millis(500), drained).await;
        }
    }
}

/// Reads up to `max` complete lines (and about [`BATCH_BYTES`]) after `pos`; returns them and
/// the position after them. At least one line when one is complete.
fn read_batch(path: &PathBuf, pos: u64, max: usize) -> std::io::Result<(Vec<RunnerEvent>, u64)> {
    let mut f = std::fs::File::open(path)?;
    f.seek(SeekFrom::Start(pos))?;
    let mut r = BufReader::new(f);
    let mut out = Vec::new();
    let mut next = pos;
    let mut line = String::new();
    while out.len() < max {
        line.clear();
        let n = r.read_line(&mut line)?;
        if n == 0 || !line.ends_with('\n') {
            break; // the end, or a line still being written
        }
        if !out.is_empty() && (next - pos) as usize + n > BATCH_BYTES {
            break; // the next request takes it
        }
        next += n as u64;
        if let Ok(e) = serde_json::from_str::<RunnerEvent>(line.trim_end()) {
            out.push(e);
        }
    }
    Ok((out, next))
}

async fn send_loop(
    client: Arc<Client>,
    runner_id: i64,
    job_id: i64,
    path: PathBuf,
    s: Arc<Shared>,
) {
    let mut pos = 0u64;
    let mut backoff = Duration::from_millis(250);
    let mut max = BATCH;
    loop {
        let (batch, next) = match read_batch(&path, pos, max) {
            Ok(b) => b,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the event spool");
                (Vec::new(), pos)
            }
        };
        if batch.is_empty() {
            if s.stop.load(Ordering::SeqCst)
                && s.acked.load(Ordering::SeqCst) >= s.written.load(Ordering::SeqCst)
            {
                s.drained.notify_waiters();
                return;
            }
            s.drained.notify_waiters();
            let _ = tokio::time::timeout(Duration::from_millis(200), s.wake.notified()).await;
            continue;
        }
        let last = batch.last().map(RunnerEvent::seq).unwrap_or(0);
        let url = ep::PostJobEvents::url([&runner_id, &job_id]);
        let sent = batch.len();
        match client.call(url, &EventBatch { events: batch }).await {
            Ok(_) => {
                pos = next;
                s.acked.store(last, Ordering::SeqCst);
                backoff = Duration::from_millis(250);
                max = (max * 2).min(BATCH);
            }
            Err(ClientError::Api { status: 413, .. }) if sent > 1 => {
                // Too big for the server: send it in halves (never drop it).
                max = (sent / 2).max(1);
                tracing::warn!(job = job_id, max, "event batch too large; splitting it");
            }
            Err(ClientError::Api {
                status, message, ..
            }) if (400..500).contains(&status) => {
                // The server will never take these (the job is not ours any more): skip them.
                tracing::warn!(job = job_id, %message, "server refused job events; dropping them");
                pos = next;
                s.acked.store(last, Ordering::SeqCst);
            }
            Err(e) => {
                tracing::warn!(job = job_id, error = %e, "cannot deliver job events; kept on disk, retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// A reporter spooling into a fresh scratch directory, sending to an address nobody listens
/// on (events stay in `DIR/events.jsonl`), for unit tests of what is spooled.
/// Milliseconds since the Unix epoch: an event's timestamp.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
pub(crate) fn spool_only(tag: &str) -> (PathBuf, Reporter) {
    let dir = std::env::temp_dir().join(format!("ds-studio-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let client = Arc::new(Client::new("http://127.0.0.1:9", None));
    let r = Reporter::start(client, 1, 1, &dir.join("events.jsonl")).unwrap();
    (dir, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn secrets_are_masked_whole_and_where_a_line_cuts_them() {
        let (dir, mut r) = spool_only("mask");
        r.mask(["hf_abcdefghij".to_string(), "ab".to_string()]);
        assert_eq!(r.masked("token=hf_abcdefghij ok"), "token=*** ok");
        // A line cut in the middle of the secret (the next line holds its end).
        assert_eq!(r.masked("...token=hf_abcde"), "...token=***");
        assert_eq!(r.masked("fghij and more"), "*** and more");
        // Too short to mask (it would mask ordinary text).
        assert_eq!(r.masked("ab ab"), "ab ab");
        r.log("stdout", "leak hf_abcdefghij");
        let spool = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
        assert!(
            !spool.contains("hf_abcdefghij") && spool.contains("leak ***"),
            "{spool}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
