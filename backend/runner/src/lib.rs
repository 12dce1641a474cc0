//! `ds-studio-runner`: executes jobs with the real DeepSpeed engine and reports back over HTTP
//! only, so it runs on any GPU host. It cannot touch the database: neither sqlx nor axum is in
//! its dependency tree (`cargo xtask test` checks), only the HTTP client. `ds-studio serve` starts one
//! in-process (the `local` runner) speaking the same protocol to its own address.
//!
//! One loop: register → (heartbeat task) → claim with a long poll → run the job → claim again.
//! Running a job ([`job`]): write the config into the job directory with a CSV monitor and
//! `log_level: info` added, preflight it in the runner's Python (DeepSpeed's own parser under
//! the plain launcher; under an HF launcher the packages, since HF fills `"auto"` in the job),
//! launch it under its launcher ([`process`], or [`slurm`] with each rank's lines labelled),
//! stream logs and metrics ([`reporter`], spooled on disk), and report the final state (with
//! the dict an HF launcher handed to DeepSpeed) once every event is delivered.
//!
//! - [`engine`]: which Python, the job environment, `ds-studio engine setup`.
//! - [`devices`]: the GPUs (NVML) and host a runner reports at registration.
//! - [`monitor`]: CSV monitor tailing and DeepSpeed log-line parsing (pure, unit-tested).
//! - [`sampler`]: GPU (NVML) and process memory samples.
//! - [`slurm`]: the Slurm backend (sbatch script, scontrol/sacct, scancel).
//!
//! The work directory and every `--job-writable` one are made absolute at start: a job runs in
//! its own directory, where a relative path would name something else.

pub mod confine;
pub mod devices;
pub mod engine;
pub mod jail;
mod job;
pub mod monitor;
pub mod process;
pub mod reporter;
pub mod sampler;
pub mod slurm;

use ds_studio_client::{Client, ClientError};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Heartbeat, Runner, RunnerDevices, RunnerRegister};
use process::Stop;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How a runner is set up.
#[derive(Debug, Clone)]
pub struct RunnerConfig {
    pub server: String,
    pub token: String,
    pub name: String,
    /// `local` (processes on this host) or `slurm` (sbatch on the cluster this host submits to).
    pub backend: String,
    /// Extra `#SBATCH` options of the Slurm backend (e.g. `--partition=gpu`).
    pub slurm_args: Vec<String>,
    /// GPU indices it may use (empty: all, or CPU only). [`run`] replaces it with the GPUs it
    /// detects among them (`devices`).
    pub gpus: Vec<u32>,
    /// What it runs jobs on, as [`run`] detected it (reported at registration).
    pub devices: Option<RunnerDevices>,
    /// Job directories go here (`job-<id>/`).
    pub workdir: PathBuf,
    pub python: PathBuf,
    /// Seconds between heartbeats.
    pub heartbeat: Duration,
    /// Directories whose scripts jobs may run as their entrypoint (none: only the built-in
    /// workload).
    pub allow_entrypoints: Vec<PathBuf>,
    /// Run every job's processes as this OS user.
    pub job_user: Option<confine::JobUser>,
    /// Absolute directories outside their own that jobs may write (`--job-writable`: a local
    /// NVMe for ZeRO-Infinity's `nvme_path`, a shared checkpoint store).
    pub job_writable: Vec<PathBuf>,
    /// Confine jobs' writes with the kernel (Landlock) where it can; `false` only where the
    /// operator turned it off (`--unconfined-jobs`: a kernel or driver under which a confined
    /// job cannot use its GPU).
    pub confine_jobs: bool,
}

impl RunnerConfig {
    pub fn new(server: &str, token: &str, name: &str, workdir: PathBuf) -> RunnerConfig {
        RunnerConfig {
            server: server.into(),
            token: token.into(),
            name: name.into(),
            backend: "local".into(),
            slurm_args: Vec::new(),
            gpus: Vec::new(),
            devices: None,
            workdir,
            python: engine::resolve_python(None),
            heartbeat: Duration::from_secs(3),
            allow_entrypoints: Vec::new(),
            job_user: None,
            job_writable: Vec::new(),
            confine_jobs: true,
        }
    }
}

/// Jobs running now, with the handle that stops each.
type Running = Arc<Mutex<HashMap<i64, watch::Sender<Option<Stop>>>>>;

pub(crate) struct Ctx {
    pub config: RunnerConfig,
    pub client: Arc<Client>,
    pub runner: Runner,
    /// Where entrypoints may be.
    pub policy: confine::EntrypointPolicy,
    /// Compiled DeepSpeed ops, kept between jobs.
    pub op_cache: PathBuf,
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "localhost".into())
}

/// Registers, retrying until the server answers (it may still be starting, or be down), with
/// the DeepSpeed release of the runner's Python when it is known (empty: not known yet).
async fn register(
    client: &Client,
    config: &RunnerConfig,
    deepspeed: String,
) -> Result<Runner, ClientError> {
    let body = RunnerRegister {
        name: config.name.clone(),
        hostname: hostname(),
        backend: config.backend.clone(),
        gpus: config.gpus.clone(),
        python: config.python.display().to_string(),
        version: env!("CARGO_PKG_VERSION").into(),
        deepspeed,
        devices: config.devices.clone(),
    };
    let mut backoff = Duration::from_millis(200);
    loop {
        match client.call(ep::RegisterRunner::url([]), &body).await {
            Ok(r) => return Ok(r),
            Err(e @ ClientError::Api { .. }) => return Err(e),
            Err(e) => {
                tracing::warn!(error = %e, "cannot register the runner yet; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// Runs until `shutdown` resolves: then the running job is stopped and reported, and it returns.
pub async fn run(
    config: RunnerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ClientError> {
    let mut config = config;
    std::fs::create_dir_all(&config.workdir).map_err(|e| {
        ClientError::Local(format!("cannot create {}: {e}", config.workdir.display()))
    })?;
    // Jobs run in their own directory: every path handed to them must be absolute.
    config.workdir = config
        .workdir
        .canonicalize()
        .map_err(|e| ClientError::Local(format!("{}: {e}", config.workdir.display())))?;
    for d in &mut config.job_writable {
        *d = d
            .canonicalize()
            .map_err(|e| ClientError::Local(format!("--job-writable {}: {e}", d.display())))?;
    }
    if config.python.components().count() > 1 {
        config.python = std::path::absolute(&config.python).unwrap_or(config.python);
    }
    let policy = confine::EntrypointPolicy::new(&config.allow_entrypoints, &config.workdir)
        .map_err(ClientError::Local)?;
    let op_cache = match &config.job_user {
        None => {
            // Made now: a job may write beneath it (the kernel's rule names it), not create it.
            let dir = engine::cache_dir().join("torch_ext");
            std::fs::create_dir_all(&dir)
                .map_err(|e| ClientError::Local(format!("{}: {e}", dir.display())))?;
            dir
        }
        Some(u) => {
            // The job user cannot write the runner's cache; it gets one beside the jobs.
            let dir = config.workdir.join(".torch_ext");
            std::fs::create_dir_all(&dir)
                .map_err(|e| ClientError::Local(format!("{}: {e}", dir.display())))?;
            std::os::unix::fs::chown(&dir, Some(u.uid), Some(u.gid))
                .map_err(|e| ClientError::Local(format!("{}: {e}", dir.display())))?;
            dir
        }
    };
    // A local runner's jobs get its GPUs; a Slurm runner's get theirs from Slurm on the nodes.
    if config.backend == "local" {
        let visible = std::env::var("CUDA_VISIBLE_DEVICES").ok();
        let found = devices::detect(&devices::Nvml, visible.as_deref(), &config.gpus);
        for note in &found.notes {
            tracing::warn!("{note}");
        }
        tracing::info!(devices = %found.devices.summary().en, "runner's devices");
        config.gpus = found.devices.gpus.iter().map(|g| g.index).collect();
        let abi = if config.confine_jobs {
            jail::enforced_abi()
        } else {
            0
        };
        if config.confine_jobs
            && abi > 0
            && config.job_user.is_none()
            && jail::writable_system_paths().contains(&PathBuf::from("/proc"))
            // SAFETY: geteuid has no preconditions and cannot fail.
            && unsafe { libc::geteuid() } == 0
        {
            tracing::warn!("{}", jail::ROOT_JOBS_WITH_PROC);
        }
        if !config.confine_jobs {
            tracing::warn!("{}", jail::UNCONFINED_BY_OPERATOR);
        } else if abi == 0 {
            tracing::warn!("{}", jail::describe(abi));
        } else {
            tracing::info!("{}", jail::describe(abi));
        }
        config.devices = Some(RunnerDevices {
            landlock_abi: Some(abi),
            job_writable: config
                .job_writable
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            ..found.devices
        });
    }
    let client = Arc::new(Client::new(&config.server, Some(config.token.clone())));
    let runner = register(&client, &config, String::new()).await?;
    tracing::info!(runner = %runner.name, id = runner.id, python = %config.python.display(), "runner ready");
    // Importing DeepSpeed takes seconds: the runner takes jobs at once and reports its release
    // when it knows it (registering again updates the same runner).
    {
        let (client, config) = (client.clone(), config.clone());
        tokio::spawn(async move {
            let python = config.python.clone();
            let deepspeed = tokio::task::spawn_blocking(move || engine::deepspeed_version(&python))
                .await
                .ok()
                .flatten()
                .unwrap_or_default();
            if deepspeed.is_empty() {
                tracing::warn!(python = %config.python.display(), "cannot tell which DeepSpeed release this Python has; jobs are validated for the release their version names");
                return;
            }
            tracing::info!(%deepspeed, "runner's DeepSpeed release");
            if let Err(e) = register(&client, &config, deepspeed).await {
                tracing::warn!(error = %e, "cannot report the runner's DeepSpeed release");
            }
        });
    }
    let ctx = Arc::new(Ctx {
        config,
        client,
        runner,
        policy,
        op_cache,
    });
    let running: Running = Arc::default();
    let hb = tokio::spawn(heartbeat_loop(ctx.clone(), running.clone()));
    let (stop_tx, mut stop_rx) = watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let mut backoff = Duration::from_millis(500);
    loop {
        if *stop_rx.borrow() {
            break;
        }
        let url = ep::ClaimJob::url([&ctx.runner.id]).query("wait_s", 25);
        let claim = tokio::select! {
            c = ctx.client.fetch(url) => c,
            _ = stop_rx.changed() => break,
        };
        match claim {
            Ok(Some(claimed)) => {
                backoff = Duration::from_millis(500);
                let id = claimed.job.id;
                let (tx, rx) = watch::channel(None);
                running
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id, tx.clone());
                // Each job runs in its own task: a panic in it fails the job, not the runner.
                let mut job = tokio::spawn(job::execute(ctx.clone(), claimed, rx));
                let ended = tokio::select! {
                    r = &mut job => r,
                    _ = stop_rx.changed() => {
                        let _ = tx.send(Some(Stop::Shutdown));
                        (&mut job).await
                    }
                };
                if let Err(e) = ended {
                    tracing::error!(job = id, error = %e, "the job's task failed");
                    job::report_failure(
                        &ctx,
                        id,
                        format!("the runner's task for the job failed: {e}"),
                    )
                    .await;
                }
                running
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, "cannot claim a job; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(backoff) => {}
                    _ = stop_rx.changed() => break,
                }
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
    hb.abort();
    Ok(())
}

async fn heartbeat_loop(ctx: Arc<Ctx>, running: Running) {
    loop {
        let ids: Vec<i64> = running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .copied()
            .collect();
        let url = ep::SendHeartbeat::url([&ctx.runner.id]);
        match ctx.client.call(url, &Heartbeat { running: ids }).await {
            Ok(reply) => {
                let map = running.lock().unwrap_or_else(|e| e.into_inner());
                for id in reply.cancel {
                    if let Some(tx) = map.get(&id) {
                        tracing::info!(job = id, "the server asks to stop the job");
                        let _ = tx.send(Some(Stop::Cancel));
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "heartbeat failed"),
        }
        tokio::time::sleep(ctx.config.heartbeat).await;
    }
}
