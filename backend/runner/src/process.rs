//! Running one training command under supervision: its own process group, stdout and stderr
//! streamed as log lines and parsed for DeepSpeed's progress, the CSV monitor tailed, memory
//! sampled, and a stop (cancel, time limit, runner shutdown) that sends SIGTERM to the group and
//! SIGKILL after a grace period. Whatever way it ends, no process of the group is left.

use super::confine::JobUser;
use super::jail::WriteJail;
use super::monitor::{parse_line, CsvTail, LineSplitter};
use super::reporter::Reporter;
use super::sampler::Sampler;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// What to start.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: PathBuf,
    /// Directory of the CSV monitor's files for this job.
    pub csv_dir: PathBuf,
    /// Run as this OS user (`--job-user`); `None`: as the runner.
    pub user: Option<JobUser>,
    /// The kernel's confinement of the job's writes; `None`: none (tests of this layer).
    pub jail: Option<WriteJail>,
}

/// Why a job is being stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A user cancelled it.
    Cancel,
    /// The runner is shutting down.
    Shutdown,
}

/// How the command ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// It exited by itself with this code (a signal gives 128 + its number).
    Exited(i64),
    Stopped {
        why: Stop,
        code: i64,
    },
    TimedOut {
        code: i64,
    },
    /// The runner stopped it: no new metric for `limit_s` (the job's `stall_timeout_s`).
    Stalled {
        code: i64,
        limit_s: u64,
        last_step: Option<i64>,
    },
    /// It could not be started.
    NotStarted(String),
}

/// How long a stopped job gets between SIGTERM and SIGKILL.
pub const GRACE: Duration = Duration::from_secs(10);

fn signal_group(pgid: i32, sig: i32) {
    // SAFETY: kill(2) with a negative pid signals the process group; it has no memory effects.
    unsafe {
        libc::kill(-pgid, sig);
    }
}

fn exit_code(status: std::process::ExitStatus) -> i64 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => c as i64,
        (None, Some(s)) => 128 + s as i64,
        _ => -1,
    }
}

/// Runs `launch` to its end. `stop` asks it to stop; `time_limit` stops it as timed out;
/// `stall_limit` stops it when no new metric came for that long (counted from the start
/// until the first one). Returns the outcome and the last lines of stderr (for the failure
/// message).
pub async fn run(
    launch: &Launch,
    reporter: &Reporter,
    mut stop: watch::Receiver<Option<Stop>>,
    time_limit: Option<Duration>,
    stall_limit: Option<Duration>,
) -> (Outcome, Vec<String>) {
    let mut cmd = tokio::process::Command::new(&launch.program);
    // Nothing of the runner's environment but what `launch.env` carries (see `confine`).
    cmd.args(&launch.args)
        .current_dir(&launch.cwd)
        .env_clear()
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .kill_on_drop(true)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    #[cfg(target_os = "linux")]
    // SAFETY: prctl only sets a flag of the new process; no allocation between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            // If the runner dies, the job's leader gets SIGTERM (and the launcher its ranks).
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    if let Some(u) = &launch.user {
        u.apply(&mut cmd);
    }
    if let Some(j) = &launch.jail {
        j.apply(&mut cmd);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return (
                Outcome::NotStarted(format!("cannot start {}: {e}", launch.program.display())),
                Vec::new(),
            )
        }
    };
    let pgid = child.id().unwrap_or(0) as i32;
    let started = Instant::now();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let out_task = tokio::spawn(pump(stdout, "stdout", reporter.clone()));
    let err_task = tokio::spawn(pump(stderr, "stderr", reporter.clone()));
    let (done_tx, done_rx) = watch::channel(false);
    let tail_task = tokio::spawn(tail_csv(
        launch.csv_dir.clone(),
        reporter.clone(),
        done_rx.clone(),
    ));
    let sample_task = tokio::spawn(sample(pgid, reporter.clone(), done_rx, started));

    // A limit too far away to be represented is no limit (the API bounds it to 30 days).
    let deadline = time_limit.and_then(|d| tokio::time::Instant::now().checked_add(d));
    let limit = async {
        match deadline {
            Some(d) => tokio::time::sleep_until(d).await,
            None => std::future::pending().await,
        }
    };
    let stop_wait = async {
        loop {
            if let Some(s) = *stop.borrow_and_update() {
                return s;
            }
            if stop.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    };
    let stalled = async {
        let Some(limit) = stall_limit else {
            return std::future::pending().await;
        };
        loop {
            let quiet = reporter.watched().last_progress.elapsed();
            if quiet >= limit {
                return;
            }
            tokio::time::sleep((limit - quiet).min(Duration::from_secs(1))).await;
        }
    };
    enum Ended {
        Exit(std::io::Result<std::process::ExitStatus>),
        Stop(Stop),
        Limit,
        Stalled,
    }
    let ended = tokio::select! {
        s = child.wait() => Ended::Exit(s),
        s = stop_wait => Ended::Stop(s),
        _ = limit => Ended::Limit,
        _ = stalled => Ended::Stalled,
    };
    let outcome = match ended {
        Ended::Exit(s) => Outcome::Exited(s.map(exit_code).unwrap_or(-1)),
        Ended::Stop(why) => {
            let code = terminate(&mut child, pgid, reporter).await;
            Outcome::Stopped { why, code }
        }
        Ended::Limit => {
            reporter.log(
                "runner",
                &format!(
                    "time limit of {} s reached: stopping the job",
                    time_limit.unwrap_or_default().as_secs()
                ),
            );
            let code = terminate(&mut child, pgid, reporter).await;
            Outcome::TimedOut { code }
        }
        Ended::Stalled => {
            let limit_s = stall_limit.unwrap_or_default().as_secs();
            let last_step = reporter.watched().last_step;
            reporter.log(
                "runner",
                &format!("no new metric for {limit_s} s (stall_timeout_s): stopping the job"),
            );
            let code = terminate(&mut child, pgid, reporter).await;
            Outcome::Stalled {
                code,
                limit_s,
                last_step,
            }
        }
    };
    // Whatever is left of the group (ranks of a launcher that exited early) goes too.
    if pgid > 0 {
        signal_group(pgid, libc::SIGKILL);
    }
    let _ = done_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(5), out_task).await;
    let tail = tokio::time::timeout(Duration::from_secs(5), err_task)
        .await
        .ok()
        .and_then(|r| r.ok())
        .unwrap_or_default();
    let _ = tail_task.await;
    let _ = sample_task.await;
    (outcome, tail)
}

/// SIGTERM to the group, SIGKILL after the grace period; the leader's exit code.
async fn terminate(child: &mut tokio::process::Child, pgid: i32, reporter: &Reporter) -> i64 {
    if pgid > 0 {
        reporter.log("runner", "sending SIGTERM to the job's processes");
        signal_group(pgid, libc::SIGTERM);
    }
    match tokio::time::timeout(GRACE, child.wait()).await {
        Ok(s) => s.map(exit_code).unwrap_or(-1),
        Err(_) => {
            reporter.log(
                "runner",
                &format!("still running after {} s: SIGKILL", GRACE.as_secs()),
            );
            if pgid > 0 {
                signal_group(pgid, libc::SIGKILL);
            }
            child.wait().await.map(exit_code).unwrap_or(-1)
        }
    }
}

/// Lines of a job's output on their way to the reporter: each is logged and parsed for
/// metrics, and the last 20 are kept to explain a failure.
pub struct OutputLines {
    stream: &'static str,
    breakdown_steps: i64,
    last: std::collections::VecDeque<String>,
}

impl OutputLines {
    pub fn new(stream: &'static str) -> OutputLines {
        OutputLines {
            stream,
            breakdown_steps: 0,
            last: Default::default(),
        }
    }

    pub fn push(&mut self, reporter: &Reporter, line: String) {
        // A Slurm job's lines carry their node and rank (`[n2 rank 3] `): kept in the log,
        // left out of what is parsed.
        let body = ds_studio_shared::launch::rank_label(&line).map_or(line.as_str(), |l| l.2);
        for s in parse_line(body, &mut self.breakdown_steps) {
            reporter.metric(&s.name, s.step, s.value);
        }
        reporter.log(self.stream, &line);
        if self.last.len() == 20 {
            self.last.pop_front();
        }
        // The tail explains a failure in the job's message: secrets masked there too.
        self.last.push_back(reporter.masked(&line));
    }

    /// The last lines seen.
    pub fn tail(self) -> Vec<String> {
        self.last.into()
    }
}

/// Streams one pipe as log lines (split on `\n` and `\r`, at most `MAX_LINE` bytes each, so a
/// progress bar without newlines cannot grow a line without bound), parsing each for metrics;
/// returns the last lines.
async fn pump(
    pipe: Option<impl tokio::io::AsyncRead + Unpin>,
    stream: &'static str,
    reporter: Reporter,
) -> Vec<String> {
    use tokio::io::AsyncReadExt;
    let mut out = OutputLines::new(stream);
    let Some(mut pipe) = pipe else {
        return Vec::new();
    };
    let mut lines = LineSplitter::default();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                for line in lines.push(&buf[..n]) {
                    if !line.is_empty() {
                        out.push(&reporter, line);
                    }
                }
            }
        }
    }
    if let Some(line) = lines.finish() {
        out.push(&reporter, line);
    }
    out.tail()
}

/// How often the CSV monitor is read when no file notification comes (and the whole cadence
/// where notifications do not work).
const CSV_POLL: Duration = Duration::from_millis(200);

/// Tails the CSV monitor in `dir` into `reporter`: at once when a file under it changes (file
/// notifications: inotify on Linux), else every [`CSV_POLL`]; a last read when `done`.
pub async fn tail_csv(dir: PathBuf, reporter: Reporter, done: watch::Receiver<bool>) {
    tail_csv_with(dir, reporter, done, true).await
}

/// [`tail_csv`], with file notifications or by polling alone (`notifications: false`: the
/// benchmark's baseline, measured in the same run).
pub async fn tail_csv_with(
    dir: PathBuf,
    reporter: Reporter,
    mut done: watch::Receiver<bool>,
    notifications: bool,
) {
    let mut tail = CsvTail::new(dir.clone());
    let changed = std::sync::Arc::new(tokio::sync::Notify::new());
    // Kept alive while tailing; `None`: notifications are not available, polling alone.
    let _watcher = notifications
        .then(|| watch_for_writes(&dir, changed.clone()))
        .flatten();
    loop {
        let (back, samples) = poll_off_the_workers(tail).await;
        tail = back;
        for s in samples {
            reporter.metric(&s.name, s.step, s.value);
        }
        if *done.borrow() {
            // One last read after the processes are gone, then stop.
            let (_, samples) = poll_off_the_workers(tail).await;
            for s in samples {
                reporter.metric(&s.name, s.step, s.value);
            }
            return;
        }
        tokio::select! {
            _ = changed.notified() => {}
            _ = tokio::time::sleep(CSV_POLL) => {}
            _ = done.changed() => {}
        }
    }
}

/// Reads what the job appended to its CSV files on a blocking thread (the files are the job's:
/// a slow or odd file system stalls that thread, never an async worker).
async fn poll_off_the_workers(mut tail: CsvTail) -> (CsvTail, Vec<super::monitor::Sample>) {
    tokio::task::spawn_blocking(move || {
        let samples = tail.poll();
        (tail, samples)
    })
    .await
    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
}

/// Watches `dir` for writes, or the nearest of its two parents that exists (the monitor
/// creates its directory at the first step), waking `changed` on each. `None` when the system
/// gives no notifications (the caller polls).
fn watch_for_writes(
    dir: &std::path::Path,
    changed: std::sync::Arc<tokio::sync::Notify>,
) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher;
    let target = dir.ancestors().take(3).find(|p| p.is_dir())?.to_path_buf();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|e| e.kind.is_modify() || e.kind.is_create()) {
            // A permit is kept when nobody waits: no write is missed between two reads.
            changed.notify_one();
        }
    })
    .ok()?;
    watcher
        .watch(&target, notify::RecursiveMode::Recursive)
        .ok()?;
    Some(watcher)
}

async fn sample(pgid: i32, reporter: Reporter, mut done: watch::Receiver<bool>, started: Instant) {
    let sampler = Sampler::new();
    loop {
        let t = started.elapsed().as_secs() as i64;
        for s in sampler.sample(pgid) {
            reporter.metric(&s.name, t, s.value);
        }
        if tokio::time::timeout(Duration::from_secs(2), done.changed())
            .await
            .is_ok()
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A time limit too far away to be an instant (e.g. `u64::MAX` seconds) once panicked after
    /// the child had started, leaving it unsupervised; now it is simply no limit.
    #[tokio::test]
    async fn an_absurd_time_limit_is_no_limit_and_the_job_ends_normally() {
        // Events stay in the spool, which is all this test needs.
        let (dir, reporter) = crate::reporter::spool_only("limit");
        let launch = Launch {
            program: "/bin/sh".into(),
            args: vec![
                "-c".into(),
                "echo \"$SECRET_FROM_RUNNER\"; echo done".into(),
            ],
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            cwd: dir.clone(),
            csv_dir: dir.join("monitor"),
            user: None,
            jail: None,
        };
        // Set in the runner's own environment: the job must not see it.
        std::env::set_var("SECRET_FROM_RUNNER", "runner-secret");
        let (_, stop) = watch::channel(None);
        let (outcome, _) = run(
            &launch,
            &reporter,
            stop,
            Some(Duration::from_secs(u64::MAX)),
            None,
        )
        .await;
        assert_eq!(outcome, Outcome::Exited(0));
        let spool = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
        assert!(spool.contains("\"done\""), "{spool}");
        assert!(!spool.contains("runner-secret"), "{spool}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn a_job_without_progress_is_stopped_and_a_nan_loss_is_noted() {
        let (dir, reporter) = crate::reporter::spool_only("stall");
        // One progress line and a loss series whose second value is NaN (as DeepSpeed's CSV
        // monitor writes it), then silence.
        let launch = Launch {
            program: "/bin/sh".into(),
            args: vec![
                "-c".into(),
                "mkdir -p monitor; printf 'step,train_loss\\n8,2.5\\n16,nan\\n' > monitor/Train_Samples_train_loss.csv; \
                 echo 'global_step=2, RunningAvgSamplesPerSec=5.0, CurrSamplesPerSec=5.0'; exec sleep 60"
                    .into(),
            ],
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            cwd: dir.clone(),
            csv_dir: dir.join("monitor"),
            user: None,
            jail: None,
        };
        let (_, stop) = watch::channel(None);
        let started = Instant::now();
        let (outcome, _) = run(&launch, &reporter, stop, None, Some(Duration::from_secs(2))).await;
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "stopped long before the job's own end"
        );
        match outcome {
            Outcome::Stalled {
                limit_s, last_step, ..
            } => {
                assert_eq!(limit_s, 2);
                assert_eq!(last_step, Some(8), "the largest step of a finite metric");
            }
            other => panic!("{other:?}"),
        }
        let w = reporter.watched();
        let (name, step, value) = w.non_finite_loss.expect("the NaN loss is noted");
        assert_eq!((name.as_str(), step), ("Train/Samples/train_loss", 16));
        assert!(value.is_nan());
        let spool = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
        assert!(spool.contains("stall_timeout_s"), "{spool}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
