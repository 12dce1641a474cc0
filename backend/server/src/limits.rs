//! Limits that keep one client from taking the server: counters per key (a user name, a client
//! address) in a fixed window, bounded in memory; the slots for password hashes and for
//! CPU-bound request work; open live streams per user. The API turns a [`LimitError`] into its
//! 503 answer; the client address a limit is keyed by comes from the API's `client_ip`.
//!
//! A [`Window`] counts attempts before the work they guard (so parallel attempts cannot slip
//! past the limit), forgets keys whose window ended, and holds at most `capacity` keys: when
//! full it drops expired keys, then the oldest one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Why limited work did not run.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    /// No slot came free within the wait: retry after the seconds given.
    #[error("{1}")]
    Busy(u64, &'static str),
    /// The pool is gone (the server is stopping) or the work panicked.
    #[error("{0}")]
    Closed(String),
}

/// At most `max` attempts per key in `window`.
#[derive(Debug)]
pub struct Window {
    counts: Mutex<HashMap<String, (u32, Instant)>>,
    max: u32,
    window: Duration,
    capacity: usize,
}

impl Window {
    pub fn new(max: u32, window: Duration, capacity: usize) -> Window {
        Window {
            counts: Mutex::default(),
            max,
            window,
            capacity: capacity.max(1),
        }
    }

    /// Counts one attempt for `key`; `Err(seconds to wait)` when the key is over its limit
    /// (the refused attempt is not counted).
    pub fn hit(&self, key: &str) -> Result<(), u64> {
        let mut map = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if !map.contains_key(key) && map.len() >= self.capacity {
            map.retain(|_, (_, since)| now.duration_since(*since) < self.window);
            if map.len() >= self.capacity {
                // Drop the oldest key that is not locked out, so flooding the table with new
                // keys cannot free a key that reached its limit (e.g. `admin` under attack).
                let victim = map
                    .iter()
                    .filter(|(_, (n, _))| *n < self.max)
                    .min_by_key(|(_, (_, since))| *since)
                    .or_else(|| map.iter().min_by_key(|(_, (_, since))| *since))
                    .map(|(k, _)| k.clone());
                if let Some(v) = victim {
                    map.remove(&v);
                }
            }
        }
        let e = map.entry(key.to_string()).or_insert((0, now));
        if now.duration_since(e.1) >= self.window {
            *e = (0, now);
        }
        if e.0 >= self.max {
            let left = self.window.saturating_sub(now.duration_since(e.1));
            return Err(left.as_secs().max(1));
        }
        e.0 += 1;
        Ok(())
    }

    /// Takes back one attempt (it succeeded and should not count against the key).
    pub fn forgive(&self, key: &str) {
        let mut map = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = map.get_mut(key) {
            e.0 = e.0.saturating_sub(1);
        }
    }

    /// Forgets the key.
    pub fn reset(&self, key: &str) {
        let mut map = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(key);
    }

    /// Keys held now.
    pub fn len(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Failed-or-pending sign-ins per user name and client address in [`LOGIN_WINDOW`] (counted
/// per replica here and, across replicas, in the database: `store::attempts`). Guesses from
/// one address do not touch the owner's budget at another.
pub const LOGIN_PER_NAME_AND_IP: u32 = 10;
/// The window of the per-address sign-in limits.
pub const LOGIN_WINDOW: Duration = Duration::from_secs(300);
/// Failed-or-pending sign-ins per user name across all addresses in [`LOGIN_NAME_WINDOW`]: the
/// slower, larger budget that bounds a guesser with many addresses.
pub const LOGIN_PER_NAME: u32 = 100;
/// The window of the per-name sign-in limit.
pub const LOGIN_NAME_WINDOW: Duration = Duration::from_secs(3600);
/// Sign-in attempts per client address in 5 minutes.
pub const LOGIN_PER_IP: u32 = 60;
/// Anonymous `POST /validate` and `POST /trainer-args/import` calls per client address per
/// minute (one window for both).
pub const VALIDATE_PER_IP: u32 = 120;
/// Longest user name a sign-in may name.
pub const MAX_USERNAME: usize = 64;
/// Live event streams (SSE) one user may hold open.
pub const STREAMS_PER_USER: usize = 32;

impl Limits {
    /// A slot for one password hash, waiting at most 10 s (then 503: the server is busy).
    pub async fn argon2_slot(&self) -> Result<tokio::sync::SemaphorePermit<'_>, LimitError> {
        tokio::time::timeout(Duration::from_secs(10), self.argon2.acquire())
            .await
            .map_err(|_| LimitError::Busy(5, "the server is busy checking passwords"))?
            .map_err(|_| LimitError::Closed("the password checker closed".into()))
    }
}

impl Limits {
    /// Runs CPU-bound request work (parsing, validating, fitting, diffing a config; importing a
    /// training file) on the blocking pool behind one of the validation slots, so a
    /// pathological 1 MiB body never holds an async worker (where it would starve heartbeats
    /// and every other request). Waits up to 10 s for a slot, then answers 503.
    pub async fn cpu<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, LimitError> {
        let _permit = tokio::time::timeout(Duration::from_secs(10), self.validation.acquire())
            .await
            .map_err(|_| LimitError::Busy(5, "the server is busy validating other configs"))?
            .map_err(|_| LimitError::Closed("the validation pool closed".into()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| LimitError::Closed(format!("validation task: {e}")))
    }
}

/// Every limit of one server.
#[derive(Debug)]
pub struct Limits {
    pub login_name_ips: Window,
    pub login_names: Window,
    pub login_ips: Window,
    pub validate_ips: Window,
    /// Password hashes computed at once (argon2id takes 19 MiB and tens of ms each).
    pub argon2: tokio::sync::Semaphore,
    /// Validations running at once on the blocking pool (one per core).
    pub validation: tokio::sync::Semaphore,
    /// Open SSE streams per user.
    streams: Mutex<HashMap<i64, usize>>,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Limits {
            login_name_ips: Window::new(LOGIN_PER_NAME_AND_IP, LOGIN_WINDOW, 10_000),
            login_names: Window::new(LOGIN_PER_NAME, LOGIN_NAME_WINDOW, 10_000),
            login_ips: Window::new(LOGIN_PER_IP, LOGIN_WINDOW, 10_000),
            validate_ips: Window::new(VALIDATE_PER_IP, Duration::from_secs(60), 10_000),
            argon2: tokio::sync::Semaphore::new(2),
            validation: tokio::sync::Semaphore::new(cores),
            streams: Mutex::default(),
        }
    }
}

/// One open stream of a user; closing it (drop) gives the slot back.
#[derive(Debug)]
pub struct StreamSlot {
    limits: std::sync::Arc<Limits>,
    user: i64,
}

impl Limits {
    /// A stream slot for `user`, or `None` when they hold [`STREAMS_PER_USER`] already.
    pub fn open_stream(self: &std::sync::Arc<Self>, user: i64) -> Option<StreamSlot> {
        let mut map = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        let n = map.entry(user).or_insert(0);
        if *n >= STREAMS_PER_USER {
            return None;
        }
        *n += 1;
        Some(StreamSlot {
            limits: self.clone(),
            user,
        })
    }
}

impl Limits {
    /// The live streams open on this server, every user's together (`/metrics`).
    pub fn open_streams(&self) -> usize {
        let map = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        map.values().sum()
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut map = self
            .limits
            .streams
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = map.get_mut(&self.user) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_counts_before_the_work_and_stays_bounded() {
        let w = Window::new(3, Duration::from_secs(60), 100);
        assert!(w.hit("admin").is_ok());
        assert!(w.hit("admin").is_ok());
        assert!(w.hit("admin").is_ok());
        assert!(w.hit("admin").unwrap_err() >= 1);
        w.forgive("admin");
        assert!(w.hit("admin").is_ok());
        w.reset("admin");
        assert!(w.hit("admin").is_ok());
        // 10,000 distinct keys never hold more than the capacity, and a key at its limit is
        // not flushed out by them.
        for _ in 0..3 {
            let _ = w.hit("admin");
        }
        assert!(w.hit("admin").is_err());
        for i in 0..10_000 {
            let _ = w.hit(&format!("name-{i}"));
        }
        assert!(w.len() <= 100, "{}", w.len());
        assert!(w.hit("admin").is_err(), "the locked key survived the flood");
    }

    #[test]
    fn parallel_attempts_cannot_pass_the_limit() {
        let w = std::sync::Arc::new(Window::new(10, Duration::from_secs(60), 100));
        let passed = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..100 {
                        if w.hit("admin").is_ok() {
                            passed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                    }
                });
            }
        });
        assert_eq!(passed.into_inner(), 10);
    }
}
