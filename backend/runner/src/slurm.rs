//! The Slurm backend: a job becomes an `sbatch` script (nodes, GPUs, one `srun` task per node
//! starting `torch.distributed.run` with the rendezvous on the first node), followed with
//! `scontrol show job` (and `sacct -c` once Slurm forgets it), cancelled with `scancel`. Its
//! output and CSV monitor files are tailed from the job directory, which must be on a
//! filesystem the nodes share.

use super::confine::{self, JobUser};
use super::monitor::{CsvTail, LineTail};
use super::process::{Outcome, OutputLines, Stop};
use super::reporter::Reporter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// What the batch script runs.
#[derive(Debug, Clone)]
pub struct BatchSpec {
    pub job_id: i64,
    /// The runner's files (`slurm.sh`).
    pub job_dir: PathBuf,
    /// Where the job runs and writes (its output file too).
    pub work_dir: PathBuf,
    pub python: PathBuf,
    pub script: PathBuf,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub nodes: u32,
    pub gpus_per_node: u32,
    /// Ask Slurm for GPUs (`--gres=gpu:N`); off on CPU-only clusters.
    pub gres: bool,
    pub time_limit_s: Option<u64>,
    /// Cancel the job when no new metric came for this long while Slurm ran it.
    pub stall_timeout_s: Option<u64>,
    /// Extra `#SBATCH` options, e.g. `--partition=gpu`.
    pub extra: Vec<String>,
    /// Submit as this OS user (`--job-user`), so the job runs as that user.
    pub user: Option<JobUser>,
    /// Secret variables: in `sbatch`'s environment (Slurm hands it to the job), never in the
    /// script file.
    pub secret_env: Vec<(String, String)>,
    /// The words that confine the job's writes on each node (`jail::confine_prefix`).
    pub confine: Vec<String>,
}

/// Quotes a word for bash (the launch commands' rule).
pub use ds_studio_shared::launch::sh_quote;

/// The batch script (the shared builder, so the editor's launch panel shows what this runner
/// submits).
pub fn batch_script(spec: &BatchSpec) -> String {
    ds_studio_shared::launch::sbatch_script(&ds_studio_shared::launch::SbatchPlan {
        job_name: format!("ds-studio-{}", spec.job_id),
        nodes: spec.nodes,
        gpus_per_node: spec.gpus_per_node,
        gres: spec.gres,
        time_limit_s: spec.time_limit_s,
        extra: spec.extra.clone(),
        work_dir: Some(spec.work_dir.display().to_string()),
        env: spec.env.clone(),
        python: spec.python.display().to_string(),
        script: spec.script.display().to_string(),
        args: spec.args.clone(),
        confine: spec.confine.clone(),
    })
}

/// A Slurm job's state and exit code, from `scontrol show job -o` or `sacct -c -P` output.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmState {
    pub state: String,
    /// `ExitCode=N:S`: the exit code, or 128 + the signal.
    pub exit_code: i64,
    /// `NodeList=` (`n[1-2]`), once Slurm has placed the job.
    pub nodes: Option<String>,
}

fn exit_of(s: &str) -> i64 {
    let (code, sig) = s.split_once(':').unwrap_or((s, "0"));
    let code: i64 = code.trim().parse().unwrap_or(-1);
    let sig: i64 = sig.trim().parse().unwrap_or(0);
    if sig > 0 && code == 0 {
        128 + sig
    } else {
        code
    }
}

/// Parses `scontrol show job -o ID`.
pub fn parse_scontrol(out: &str) -> Option<SlurmState> {
    let field = |k: &str| {
        out.split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .map(str::to_string)
    };
    Some(SlurmState {
        state: field("JobState=")?,
        exit_code: exit_of(&field("ExitCode=").unwrap_or_default()),
        nodes: field("NodeList=").filter(|n| !n.is_empty() && n != "(null)"),
    })
}

/// Parses `sacct -c -j ID -o State,ExitCode -n -P` (the first line is the job itself).
pub fn parse_sacct(out: &str) -> Option<SlurmState> {
    let line = out.lines().find(|l| !l.trim().is_empty())?;
    let (state, code) = line.split_once('|')?;
    Some(SlurmState {
        state: state.split_whitespace().next()?.to_string(),
        exit_code: exit_of(code),
        nodes: None,
    })
}

/// States a Slurm job does not leave.
pub fn is_final(state: &str) -> bool {
    matches!(
        state,
        "COMPLETED"
            | "FAILED"
            | "CANCELLED"
            | "TIMEOUT"
            | "NODE_FAIL"
            | "OUT_OF_MEMORY"
            | "PREEMPTED"
            | "BOOT_FAIL"
            | "DEADLINE"
    )
}

async fn command(
    program: &str,
    args: &[&str],
    user: Option<&JobUser>,
    secrets: &[(String, String)],
) -> Result<String, String> {
    let mut cmd = tokio::process::Command::new(program);
    // Slurm copies the submitting environment into the job: only the allowlist goes, and the
    // job's secrets.
    cmd.args(args)
        .env_clear()
        .envs(std::env::vars().filter(|(k, _)| confine::inherited(k)))
        .envs(secrets.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    if let Some(u) = user {
        u.apply(&mut cmd);
    }
    let out = cmd
        .output()
        .await
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

async fn poll_state(id: &str) -> Option<SlurmState> {
    if let Ok(out) = command("scontrol", &["show", "job", "-o", id], None, &[]).await {
        if let Some(s) = parse_scontrol(&out) {
            return Some(s);
        }
    }
    // Slurm forgets finished jobs after a while; the job completion log keeps them.
    let out = command(
        "sacct",
        &["-c", "-j", id, "-o", "State,ExitCode", "-n", "-P"],
        None,
        &[],
    )
    .await
    .ok()?;
    parse_sacct(&out)
}

/// A node's state and reason from `scontrol show node -o NAME`, when Slurm considers it lost
/// (`DOWN`, `NOT_RESPONDING`, or a state ending in `*`: not responding).
pub fn lost_node(out: &str) -> Option<(String, String)> {
    let field = |k: &str| {
        out.split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .map(str::to_string)
    };
    let name = field("NodeName=")?;
    let state = field("State=")?;
    let lost = state.contains("DOWN") || state.contains("NOT_RESPONDING") || state.ends_with('*');
    // The reason is the rest of the line after `Reason=` (it holds spaces).
    let reason = out
        .split_once("Reason=")
        .map(|(_, r)| r.trim().to_string())
        .unwrap_or_default();
    lost.then(|| {
        (
            name,
            if reason.is_empty() {
                state
            } else {
                format!("{state}: {reason}")
            },
        )
    })
}

/// The nodes of `nodelist` Slurm considers lost, each with what Slurm says of it.
async fn lost_nodes(nodelist: &str) -> Vec<(String, String)> {
    let Ok(hosts) = command("scontrol", &["show", "hostnames", nodelist], None, &[]).await else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for host in hosts.lines().map(str::trim).filter(|h| !h.is_empty()) {
        if let Ok(node) = command("scontrol", &["show", "node", "-o", host], None, &[]).await {
            out.extend(lost_node(&node));
        }
    }
    out
}

/// Reads what the job appended to its output and CSV files on a blocking thread (the files are
/// the job's, on a shared file system that may stall: never on an async worker), and reports
/// it. Returns the tails to poll again.
async fn pump(
    out_tail: LineTail,
    csv: CsvTail,
    out: &mut OutputLines,
    reporter: &Reporter,
) -> (LineTail, CsvTail) {
    let (out_tail, csv, lines, samples) = tokio::task::spawn_blocking(move || {
        let (mut out_tail, mut csv) = (out_tail, csv);
        let lines = out_tail.poll();
        let samples = csv.poll();
        (out_tail, csv, lines, samples)
    })
    .await
    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
    for line in lines {
        out.push(reporter, line);
    }
    for s in samples {
        reporter.metric(&s.name, s.step, s.value);
    }
    (out_tail, csv)
}

/// Whether a job Slurm has run since `running_since` has been quiet for `limit`: the time
/// since its last metric, or since it started running if that came later (the time it waited
/// in the queue is not the job's silence).
fn is_stalled(
    limit: Option<Duration>,
    running_since: Option<Instant>,
    last_progress: Instant,
    now: Instant,
) -> bool {
    match (limit, running_since) {
        (Some(limit), Some(since)) => now.duration_since(since.max(last_progress)) >= limit,
        _ => false,
    }
}

/// Submits and follows the job to its end.
pub async fn run(
    spec: &BatchSpec,
    csv_dir: &Path,
    reporter: &Reporter,
    mut stop: watch::Receiver<Option<Stop>>,
) -> (Outcome, Vec<String>) {
    let script = spec.job_dir.join("slurm.sh");
    if let Err(e) = std::fs::write(&script, batch_script(spec)) {
        return (
            Outcome::NotStarted(format!("cannot write {}: {e}", script.display())),
            Vec::new(),
        );
    }
    let script_s = script.display().to_string();
    let id = match command(
        "sbatch",
        &["--parsable", &script_s],
        spec.user.as_ref(),
        &spec.secret_env,
    )
    .await
    {
        Ok(out) => out.trim().split(';').next().unwrap_or("").to_string(),
        Err(e) => return (Outcome::NotStarted(e), Vec::new()),
    };
    reporter.log("runner", &format!("submitted Slurm job {id}"));
    let mut out_tail = LineTail::new(spec.work_dir.join(format!("slurm-{id}.out")));
    let mut csv = CsvTail::new(csv_dir);
    let mut out = OutputLines::new("stdout");
    let started = Instant::now();
    let mut stopping: Option<Stop> = None;
    let mut timed_out = false;
    let mut stalled = false;
    let mut running_since: Option<Instant> = None;
    let stall_limit = spec.stall_timeout_s.map(Duration::from_secs);
    let mut state = String::from("PENDING");
    let mut nodes: Option<String> = None;
    let code = loop {
        (out_tail, csv) = pump(out_tail, csv, &mut out, reporter).await;
        if let Some(s) = poll_state(&id).await {
            if s.state != state {
                let on = s
                    .nodes
                    .as_deref()
                    .map(|n| format!(" on {n}"))
                    .unwrap_or_default();
                reporter.log("runner", &format!("Slurm job {id}: {}{on}", s.state));
                state = s.state.clone();
            }
            if s.nodes.is_some() {
                nodes = s.nodes.clone();
            }
            if s.state == "RUNNING" && running_since.is_none() {
                running_since = Some(Instant::now());
            }
            if is_final(&s.state) {
                break s.exit_code;
            }
        }
        let limit_hit = spec
            .time_limit_s
            .is_some_and(|t| started.elapsed() >= Duration::from_secs(t));
        let asked = *stop.borrow_and_update();
        let quiet = is_stalled(
            stall_limit,
            running_since,
            reporter.watched().last_progress,
            Instant::now(),
        );
        if stopping.is_none() && (asked.is_some() || limit_hit || quiet) {
            stopping = asked.or(Some(Stop::Cancel));
            timed_out = asked.is_none() && limit_hit;
            stalled = asked.is_none() && !limit_hit;
            if stalled {
                reporter.log(
                    "runner",
                    &format!(
                        "no new metric for {} s (stall_timeout_s): stopping the job",
                        spec.stall_timeout_s.unwrap_or(0)
                    ),
                );
            }
            reporter.log("runner", &format!("scancel {id}"));
            if let Err(e) = command("scancel", &[&id], None, &[]).await {
                reporter.log("runner", &e);
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), stop.changed()).await;
    };
    // What the job wrote last.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _ = pump(out_tail, csv, &mut out, reporter).await;
    let tail = out.tail();
    // A job that ended badly on a node Slurm lost says so first: the training's own error (a
    // peer that closed its connection) is the consequence.
    if stopping.is_none() && state != "COMPLETED" {
        if let Some(list) = &nodes {
            let lost = lost_nodes(list).await;
            if !lost.is_empty() {
                let named: Vec<String> = lost
                    .iter()
                    .map(|(n, why)| format!("node {n} was lost mid-job (Slurm: {why})"))
                    .collect();
                return (
                    Outcome::NotStarted(format!(
                        "{}; Slurm job {id} ended {state} (exit code {code})",
                        named.join("; ")
                    )),
                    tail,
                );
            }
        }
    }
    if stalled {
        let outcome = Outcome::Stalled {
            code,
            limit_s: spec.stall_timeout_s.unwrap_or(0),
            last_step: reporter.watched().last_step,
        };
        return (outcome, tail);
    }
    let outcome = match (stopping, timed_out, state.as_str()) {
        (Some(_), true, _) => Outcome::TimedOut { code },
        (Some(why), false, _) => Outcome::Stopped { why, code },
        (None, _, "COMPLETED") => Outcome::Exited(code),
        (None, _, "FAILED") => Outcome::Exited(if code == 0 { 1 } else { code }),
        (None, _, other) => {
            Outcome::NotStarted(format!("Slurm job {id} ended {other} (exit code {code})"))
        }
    };
    (outcome, tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_is_stalled_only_after_running_quietly_for_its_limit() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        // No limit, or not running yet (queued for an hour): never.
        assert!(!is_stalled(None, Some(t0), t0, t0 + s(3600)));
        assert!(!is_stalled(Some(s(60)), None, t0, t0 + s(3600)));
        // Running since t0 + 100 s, the last metric before it (from the queue's time): counted
        // from the start of the run.
        assert!(!is_stalled(Some(s(60)), Some(t0 + s(100)), t0, t0 + s(150)));
        assert!(is_stalled(Some(s(60)), Some(t0 + s(100)), t0, t0 + s(160)));
        // A metric at t0 + 200 s restarts the count.
        assert!(!is_stalled(
            Some(s(60)),
            Some(t0 + s(100)),
            t0 + s(200),
            t0 + s(250)
        ));
        assert!(is_stalled(
            Some(s(60)),
            Some(t0 + s(100)),
            t0 + s(200),
            t0 + s(260)
        ));
    }

    fn spec() -> BatchSpec {
        BatchSpec {
            job_id: 9,
            job_dir: "/shared/jobs/job-9".into(),
            work_dir: "/shared/jobs/job-9/work".into(),
            python: "/opt/venv/bin/python".into(),
            script: "/shared/jobs/job-9/gpt_train.py".into(),
            args: vec![
                "--size".into(),
                "tiny".into(),
                "--deepspeed_config".into(),
                "/shared/jobs/job-9/ds_config.json".into(),
            ],
            env: vec![("NCCL_DEBUG".into(), "INFO it's".into())],
            nodes: 2,
            gpus_per_node: 4,
            gres: true,
            time_limit_s: Some(90),
            stall_timeout_s: None,
            extra: vec!["--partition=gpu".into()],
            user: None,
            secret_env: vec![("HF_TOKEN".into(), "hf_secret_value".into())],
            confine: vec![
                "/opt/ds-studio".into(),
                "confine".into(),
                "--write".into(),
                "/shared/jobs/job-9/work".into(),
                "--".into(),
            ],
        }
    }

    #[test]
    fn the_batch_script_asks_for_the_shape_and_starts_one_launcher_per_node() {
        let s = batch_script(&spec());
        assert!(
            !s.contains("hf_secret_value") && !s.contains("HF_TOKEN"),
            "{s}"
        );
        for want in [
            "#SBATCH --nodes=2\n",
            "#SBATCH --ntasks-per-node=1\n",
            "#SBATCH --gres=gpu:4\n",
            "#SBATCH --time=3\n",
            "#SBATCH --partition=gpu\n",
            "#SBATCH --output=/shared/jobs/job-9/work/slurm-%j.out\n",
            "export NCCL_DEBUG='INFO it'\\''s'\n",
            "--nproc_per_node=4",
            "--node_rank=$SLURM_NODEID",
            "export CROSS_SIZE=$SLURM_NNODES\n",
            "srun --kill-on-bad-exit=1 bash -c 'export CROSS_RANK=$SLURM_NODEID; exec /opt/ds-studio confine --write /shared/jobs/job-9/work -- /opt/venv/bin/python -m torch.distributed.run",
        ] {
            assert!(s.contains(want), "missing {want:?} in\n{s}");
        }
        let cpu = BatchSpec {
            gres: false,
            time_limit_s: None,
            ..spec()
        };
        let s = batch_script(&cpu);
        assert!(!s.contains("--gres") && !s.contains("--time"));
    }

    #[test]
    fn hostile_names_and_values_never_run_in_the_batch_script() {
        let dir = std::env::temp_dir().join(format!("ds-studio-slurm-q-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pwned = dir.join("pwned");
        let p = pwned.display();
        let values = [
            format!("$(touch {p})"),
            format!("`touch {p}`"),
            format!("'; touch {p}; '"),
            format!("a\ntouch {p}"),
            "it's \"quoted\" \\ $HOME".to_string(),
        ];
        let mut env: Vec<(String, String)> = values
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("V{i}"), v.clone()))
            .collect();
        env.push((format!("X;touch {p};Y"), "1".into()));
        env.push((format!("$(touch {p})"), "1".into()));
        let s = batch_script(&BatchSpec { env, ..spec() });
        assert!(!s.contains("X;touch"), "{s}");
        // Run the script's export lines in a real bash and read the values back.
        let from = s.find("export ").unwrap();
        let to = s.find("export MASTER_ADDR").unwrap();
        let exports = &s[from..to];
        let mut script = exports.to_string();
        for i in 0..values.len() {
            script.push_str(&format!("printf '%s\\0' \"$V{i}\"\n"));
        }
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        assert!(out.status.success(), "{script}");
        let got: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .split('\0')
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect();
        assert_eq!(got, values.to_vec(), "{script}");
        assert!(!pwned.exists(), "a value ran as a command:\n{script}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn slurm_states_are_read_from_scontrol_and_sacct() {
        let sc = "JobId=4 JobName=ds-studio-9 UserId=root(0) JobState=FAILED Reason=NonZeroExitCode ExitCode=3:0 RunTime=00:00:02";
        assert_eq!(
            parse_scontrol(sc),
            Some(SlurmState {
                state: "FAILED".into(),
                exit_code: 3,
                nodes: None,
            })
        );
        let placed =
            "JobId=6 JobState=RUNNING Reason=None ExitCode=0:0 NodeList=n[1-2] BatchHost=n1";
        assert_eq!(
            parse_scontrol(placed).unwrap().nodes.as_deref(),
            Some("n[1-2]")
        );
        let pending = "JobId=7 JobState=PENDING ExitCode=0:0 NodeList=(null)";
        assert_eq!(parse_scontrol(pending).unwrap().nodes, None);
        let down = "NodeName=n2 Arch=x86_64 CoresPerSocket=1 State=DOWN* ThreadsPerCore=1 Reason=Not responding [slurm@2026-11-27T10:00:00]";
        assert_eq!(
            lost_node(down),
            Some((
                "n2".into(),
                "DOWN*: Not responding [slurm@2026-11-27T10:00:00]".into()
            ))
        );
        assert_eq!(lost_node("NodeName=n1 State=IDLE ThreadsPerCore=1"), None);
        assert_eq!(
            lost_node("NodeName=n1 State=ALLOCATED* ThreadsPerCore=1").map(|l| l.1),
            Some("ALLOCATED*".into())
        );
        let cancelled = "JobId=5 JobState=CANCELLED Reason=None ExitCode=0:15";
        assert_eq!(parse_scontrol(cancelled).unwrap().exit_code, 143);
        assert_eq!(
            parse_sacct("COMPLETED|0:0\n"),
            Some(SlurmState {
                state: "COMPLETED".into(),
                exit_code: 0,
                nodes: None,
            })
        );
        assert_eq!(
            parse_sacct("CANCELLED by 0|0:15").unwrap().state,
            "CANCELLED"
        );
        assert!(is_final("TIMEOUT") && !is_final("RUNNING") && !is_final("PENDING"));
        assert_eq!(sh_quote("a b"), "'a b'");
        assert_eq!(sh_quote("--size"), "--size");
    }
}
