//! One job, from claim to final state, under its launcher (plain `deepspeed`; the HF Trainer
//! through torchrun; Accelerate through `accelerate launch`): on this host (`process`) or through
//! Slurm (`slurm`).

use super::confine::{self, EntrypointPolicy, JobUser};
use super::jail::WriteJail;
use super::process::{self, Launch, Outcome, Stop};
use super::reporter::{Reporter, Watched};
use super::{slurm, Ctx};
use ds_studio_client::ClientError;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{ClaimedJob, Job, JobState, JobStateUpdate, Preflight};
use ds_studio_shared::launcher::TrainerArgs;
use ds_studio_shared::validate::Launcher;
use ds_studio_shared::Document;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// The built-in workload (under each launcher) and the preflight script, shipped inside the
/// binary and written into each job directory.
const GPT_TRAIN: &str = include_str!("../python/gpt_train.py");
const HF_TRAIN: &str = include_str!("../python/hf_train.py");
const ACCELERATE_TRAIN: &str = include_str!("../python/accelerate_train.py");
const PREFLIGHT: &str = include_str!("../python/preflight.py");
const REHEARSAL: &str = include_str!("../python/rehearsal.py");
/// A rehearsal's model, as the job directory holds it.
const MODEL_CONFIG: &str = "model_config.json";

/// Where the HF workloads write the dict they handed to `deepspeed.initialize` (in `work/`).
const HANDED_FILE: &str = "handed_config.json";
/// The accelerate config `accelerate launch --config_file` reads (in the job directory).
const ACCELERATE_YAML: &str = "accelerate_config.yaml";
/// Largest handed dict the runner reports.
const MAX_HANDED_BYTES: u64 = 1 << 20;

/// How long the preflight may take (importing torch and deepspeed takes seconds).
const PREFLIGHT_TIMEOUT: Duration = Duration::from_secs(180);

/// The config as the job runs it, and where its CSV monitor writes.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedConfig {
    pub text: String,
    pub csv_dir: PathBuf,
}

/// Adds a CSV monitor (own output path, a job name unique per job) and `log_level: info`
/// unless the user set them, keeping the rest of the text as written (comments included:
/// DeepSpeed reads config files with hjson).
pub fn prepare_config(
    text: &str,
    job_dir: &Path,
    job_id: i64,
    writable: &[String],
) -> Result<PreparedConfig, String> {
    let mut doc = Document::parse(text);
    let value = doc
        .to_value()
        .filter(serde_json::Value::is_object)
        .ok_or("the config is not a JSON object")?;
    // Every key that names a file or a directory, at any depth (the API refused these already;
    // the kernel's confinement holds for what this misses).
    if let Some(e) = ds_studio_shared::job_files::escape_within(&value, writable) {
        return Err(e.to_string());
    }
    let job_name = format!("ds-studio-job-{job_id}");
    let csv_dir = match value.get("csv_monitor") {
        None => {
            let out = job_dir.join("monitor");
            doc = doc
                .set(
                    "/csv_monitor",
                    &serde_json::json!({
                        "enabled": true,
                        "output_path": out.display().to_string(),
                        "job_name": job_name,
                    }),
                )
                .map_err(|e| format!("cannot add csv_monitor: {e}"))?;
            out.join(&job_name)
        }
        Some(m) => {
            // The user's own monitor: follow it where it writes (DeepSpeed's defaults).
            let path = m.get("output_path").and_then(|v| v.as_str()).unwrap_or("");
            let name = m
                .get("job_name")
                .and_then(|v| v.as_str())
                .unwrap_or("DeepSpeedJobName");
            let base = if path.is_empty() {
                job_dir.to_path_buf()
            } else {
                job_dir.join(path)
            };
            base.join(name)
        }
    };
    if value.get("log_level").is_none() {
        doc = doc
            .set("/log_level", &serde_json::json!("info"))
            .map_err(|e| format!("cannot add log_level: {e}"))?;
    }
    Ok(PreparedConfig {
        text: doc.text().to_string(),
        csv_dir,
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(29500)
}

/// How the job's launcher takes its script: the config flag, and the built-in script's own
/// arguments from the trainer arguments.
pub struct LaunchSpec<'a> {
    pub launcher: Launcher,
    /// The trainer arguments under an HF launcher (the job's: its steps and model width in).
    pub trainer: Option<&'a TrainerArgs>,
}

/// The trainer arguments as `TrainingArguments` flags (`--per_device_train_batch_size 4`), the
/// ones given only: HF's defaults stand for the rest. Accelerate's script takes the ones it
/// has (batch size, accumulation, lr, weight decay, warm-up); its precision is the launch's
/// `--mixed_precision`.
pub fn trainer_flags(args: &TrainerArgs, launcher: Launcher) -> Vec<String> {
    let mut out = Vec::new();
    let mut put = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            out.push(format!("--{name}"));
            out.push(v);
        }
    };
    put(
        "per_device_train_batch_size",
        args.per_device_train_batch_size.map(|v| v.to_string()),
    );
    put(
        "gradient_accumulation_steps",
        args.gradient_accumulation_steps.map(|v| v.to_string()),
    );
    put("learning_rate", args.learning_rate.map(|v| v.to_string()));
    put("weight_decay", args.weight_decay.map(|v| v.to_string()));
    put("warmup_steps", args.warmup_steps.map(|v| v.to_string()));
    if launcher == Launcher::Accelerate {
        return out;
    }
    put("adam_beta1", args.adam_beta1.map(|v| v.to_string()));
    put("adam_beta2", args.adam_beta2.map(|v| v.to_string()));
    put("adam_epsilon", args.adam_epsilon.map(|v| v.to_string()));
    put("max_grad_norm", args.max_grad_norm.map(|v| v.to_string()));
    put(
        "num_train_epochs",
        args.num_train_epochs.map(|v| v.to_string()),
    );
    put("bf16", args.bf16.map(|v| v.to_string()));
    put("fp16", args.fp16.map(|v| v.to_string()));
    put("optim", args.optim.clone());
    put("lr_scheduler_type", args.lr_scheduler_type.clone());
    out
}

/// The training script and its arguments, with the config as its launcher passes it:
/// `--deepspeed_config CFG` under the plain launcher, `--deepspeed CFG` under the HF Trainer,
/// none under Accelerate (the accelerate config names the file).
pub fn workload_command(
    job: &Job,
    spec: &LaunchSpec,
    policy: &EntrypointPolicy,
    job_dir: &Path,
    config_path: &Path,
) -> Result<(PathBuf, Vec<String>), String> {
    let steps = job.max_steps.to_string();
    let default_args = TrainerArgs::default();
    let trainer = spec.trainer.unwrap_or(&default_args);
    let config = config_path.display().to_string();
    let builtin = job.workload.runs_our_scripts();
    if !builtin && job.workload.entrypoint.is_none() {
        return Err("the job has no workload".into());
    }
    // The built-in size, or a rehearsal's model (its config.json in the job directory).
    let model = model_args(job, job_dir);
    let mut args: Vec<String>;
    let script = match (spec.launcher, builtin) {
        (Launcher::Deepspeed, true) => {
            args = model.clone();
            args.extend(["--max-steps".into(), steps]);
            job_dir.join("gpt_train.py")
        }
        (Launcher::HfTrainer, true) => {
            let out = job_dir.join("work").join("hf_output");
            args = model.clone();
            args.extend([
                "--output_dir".into(),
                out.display().to_string(),
                "--max_steps".into(),
                steps,
                "--logging_steps".into(),
                "1".into(),
                "--save_strategy".into(),
                "no".into(),
                "--report_to".into(),
                "none".into(),
                "--disable_tqdm".into(),
                "true".into(),
            ]);
            args.extend(trainer_flags(trainer, Launcher::HfTrainer));
            job_dir.join("hf_train.py")
        }
        (Launcher::Accelerate, true) => {
            args = model.clone();
            args.extend(["--max_steps".into(), steps]);
            args.extend(trainer_flags(trainer, Launcher::Accelerate));
            job_dir.join("accelerate_train.py")
        }
        (_, false) => {
            let e = job.workload.entrypoint.as_deref().unwrap_or_default();
            args = job.workload.args.clone();
            policy.resolve(e)?
        }
    };
    match spec.launcher {
        Launcher::Deepspeed => args.extend(["--deepspeed_config".into(), config]),
        Launcher::HfTrainer => args.extend(["--deepspeed".into(), config]),
        Launcher::Accelerate => {}
    }
    Ok((script, args))
}

/// The built-in scripts' model flags: `--size SIZE`, or a rehearsal's `--model-config
/// model_config.json --seq-len N` with `--lora-rank R --lora-targets T` when it has adapters.
fn model_args(job: &Job, job_dir: &Path) -> Vec<String> {
    let Some(m) = &job.workload.model else {
        let size = job.workload.size.clone().unwrap_or_else(|| "tiny".into());
        return vec!["--size".into(), size];
    };
    let mut args = vec![
        "--model-config".into(),
        job_dir.join(MODEL_CONFIG).display().to_string(),
        "--seq-len".into(),
        m.seq_len.to_string(),
    ];
    if let Some(l) = &m.lora {
        let targets = if l.targets.is_empty() {
            "all-linear".to_string()
        } else {
            l.targets.join(",")
        };
        args.extend([
            "--lora-rank".into(),
            l.rank.to_string(),
            "--lora-targets".into(),
            targets,
        ]);
    }
    args
}

/// The config.json a rehearsal builds its model from: the catalog's, or the one given.
fn model_config_text(m: &ds_studio_shared::memory::UserModel) -> Result<String, String> {
    let config = match (&m.name, &m.config) {
        (_, Some(c)) => c.clone(),
        (Some(n), None) => ds_studio_shared::architecture::catalog::find(n)
            .map(|c| c.config.clone())
            .ok_or_else(|| format!("model `{n}` is not in this runner's catalog"))?,
        (None, None) => return Err("the rehearsal names no model".into()),
    };
    Ok(config.to_string())
}

/// `--mixed_precision` of `accelerate launch`: what the trainer arguments ask for (accelerate
/// refuses `mixed_precision` in its config file beside a `deepspeed_config_file`).
fn mixed_precision(trainer: Option<&TrainerArgs>) -> &'static str {
    trainer
        .cloned()
        .unwrap_or_default()
        .resolved()
        .mixed_precision()
}

/// The accelerate config of a job: `launch-command`'s, for the job's processes on this host.
pub fn accelerate_yaml(config_path: &Path, gpus: u32, config: &serde_json::Value) -> String {
    let plan = ds_studio_shared::launch::LaunchPlan {
        nodes: 1,
        gpus_per_node: gpus.max(1),
        config_file: config_path.display().to_string(),
        ..Default::default()
    };
    ds_studio_shared::launch::commands(&plan, config).accelerate_yaml
}

/// The command that trains on this host, under the job's launcher: for the plain launcher
/// Python with the distributed environment for one process and DeepSpeed's launcher for
/// several; `torchrun` for the HF Trainer; `accelerate launch` with the job's accelerate
/// config for Accelerate. `env` is the job's whole environment ([`confine::job_env`]).
#[allow(clippy::too_many_arguments)]
pub fn build_launch(
    ctx_python: &Path,
    policy: &EntrypointPolicy,
    mut env: Vec<(String, String)>,
    job: &Job,
    spec: &LaunchSpec,
    job_dir: &Path,
    config_path: &Path,
    csv_dir: &Path,
) -> Result<Launch, String> {
    let (script, args) = workload_command(job, spec, policy, job_dir, config_path)?;
    let port = free_port();
    env.push(("DS_STUDIO_JOB_ID".into(), job.id.to_string()));
    let script = script.display().to_string();
    let mut a: Vec<String> = match spec.launcher {
        Launcher::Deepspeed if job.gpus == 1 && job.nodes == 1 => {
            for (k, v) in [
                ("MASTER_ADDR", "127.0.0.1".to_string()),
                ("MASTER_PORT", port.to_string()),
                ("RANK", "0".into()),
                ("LOCAL_RANK", "0".into()),
                ("WORLD_SIZE", "1".into()),
                // Set by the deepspeed launcher; DeepSpeed's checkpoint writer reads them.
                ("CROSS_RANK", "0".into()),
                ("CROSS_SIZE", "1".into()),
            ] {
                env.push((k.into(), v));
            }
            vec![script]
        }
        Launcher::Deepspeed => vec![
            "-m".to_string(),
            "deepspeed.launcher.runner".into(),
            "--num_gpus".into(),
            job.gpus.to_string(),
            "--master_port".into(),
            port.to_string(),
            script,
        ],
        Launcher::HfTrainer => vec![
            "-m".to_string(),
            "torch.distributed.run".into(),
            "--nnodes".into(),
            "1".into(),
            "--nproc_per_node".into(),
            job.gpus.to_string(),
            "--master_addr".into(),
            "127.0.0.1".into(),
            "--master_port".into(),
            port.to_string(),
            script,
        ],
        Launcher::Accelerate => vec![
            "-m".to_string(),
            "accelerate.commands.launch".into(),
            "--config_file".into(),
            job_dir.join(ACCELERATE_YAML).display().to_string(),
            "--main_process_port".into(),
            port.to_string(),
            "--mixed_precision".into(),
            mixed_precision(spec.trainer).into(),
            script,
        ],
    };
    if spec.launcher.fills_auto() {
        // The HF workloads write the dict they hand DeepSpeed here; nothing is downloaded.
        let handed = job_dir.join("work").join(HANDED_FILE);
        env.push(("DS_STUDIO_HANDED".into(), handed.display().to_string()));
        env.push(("HF_HUB_OFFLINE".into(), "1".into()));
    }
    a.extend(args);
    Ok(Launch {
        program: ctx_python.to_path_buf(),
        args: a,
        env,
        cwd: job_dir.to_path_buf(),
        csv_dir: csv_dir.to_path_buf(),
        user: None,
        jail: None,
    })
}

/// The dict an HF workload wrote it handed to DeepSpeed, if it did.
fn read_handed(work: &Path) -> Option<serde_json::Value> {
    let path = work.join(HANDED_FILE);
    // The job wrote it: no link followed (at any component), no FIFO waited on, nothing but a
    // regular file, and at most 1 MiB (one byte more tells a larger file).
    let bytes = match super::monitor::read_job_file(&path, 0, MAX_HANDED_BYTES + 1) {
        Ok(b) => b,
        Err(e) => {
            if e.kind() != std::io::ErrorKind::NotFound {
                tracing::warn!(path = %path.display(), error = %e, "the handed config is not read");
            }
            return None;
        }
    };
    if bytes.len() as u64 > MAX_HANDED_BYTES {
        tracing::warn!(path = %path.display(), "the handed config is over 1 MiB; not reported");
        return None;
    }
    serde_json::from_slice(&bytes).ok()
}

/// Runs DeepSpeed's own parser on the config, for the job's world size.
#[allow(clippy::too_many_arguments)]
pub async fn preflight(
    python: &Path,
    env: &[(String, String)],
    user: Option<&JobUser>,
    job_dir: &Path,
    work: &Path,
    config: &Path,
    world: u32,
    launcher: Launcher,
    jail: &WriteJail,
) -> Preflight {
    let script = job_dir.join("preflight.py");
    if let Err(e) = std::fs::write(&script, PREFLIGHT) {
        return Preflight {
            message: Some(format!("cannot write {}: {e}", script.display())),
            ..Preflight::default()
        };
    }
    let mut cmd = tokio::process::Command::new(python);
    cmd.arg(&script)
        .arg(config)
        .arg(world.to_string())
        .arg(launcher.as_str())
        .current_dir(work)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .kill_on_drop(true)
        .stdin(std::process::Stdio::null());
    if let Some(u) = user {
        u.apply(&mut cmd);
    }
    jail.apply(&mut cmd);
    let out = match tokio::time::timeout(PREFLIGHT_TIMEOUT, cmd.output()).await {
        Err(_) => {
            return Preflight {
                message: Some(format!(
                    "the preflight took longer than {} s",
                    PREFLIGHT_TIMEOUT.as_secs()
                )),
                ..Preflight::default()
            }
        }
        Ok(Err(e)) => {
            return Preflight {
                message: Some(format!(
                    "cannot start {} for the preflight: {e} (set --python, or run `ds-studio engine setup`)",
                    python.display()
                )),
                ..Preflight::default()
            }
        }
        Ok(Ok(o)) => o,
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    match stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<Preflight>(l.trim()).ok())
    {
        Some(p) => p,
        None => {
            let err = String::from_utf8_lossy(&out.stderr);
            let last = err
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            Preflight {
                message: Some(format!(
                    "the preflight in {} failed ({}): {last}",
                    python.display(),
                    out.status
                )),
                ..Preflight::default()
            }
        }
    }
}

/// Sends a state update, retrying while the server cannot be reached. A refusal (the job was
/// cancelled before it started, or marked lost) ends the retries.
async fn report(ctx: &Ctx, job_id: i64, upd: &JobStateUpdate) {
    let mut backoff = Duration::from_millis(250);
    loop {
        let url = ep::ReportJobState::url([&ctx.runner.id, &job_id]);
        match ctx.client.call(url, upd).await {
            Ok(_) => return,
            Err(ClientError::Api { message, .. }) => {
                tracing::warn!(job = job_id, %message, "the server refused the job's state");
                return;
            }
            Err(e) => {
                tracing::warn!(job = job_id, error = %e, "cannot report the job's state; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// The final update for an outcome; `stderr_tail` explains a failure, `watched` adds a loss
/// that became NaN or infinite.
pub fn final_update(
    outcome: &Outcome,
    stderr_tail: &[String],
    time_limit: Option<u64>,
    watched: Option<&Watched>,
) -> JobStateUpdate {
    use ds_studio_shared::api::FailureReason;
    // The line of a failure the studio can explain comes first, the most telling of them
    // (running out of memory before all: under torchrun the last error line is its own
    // `ChildFailedError`, not the rank's), then the last error line, then the last line.
    let reason = || {
        stderr_tail
            .iter()
            .rev()
            .filter_map(|l| FailureReason::of_line(l).map(|r| (r.priority(), l)))
            .min_by_key(|(p, _)| *p)
            .map(|(_, l)| l)
            .or_else(|| {
                stderr_tail
                    .iter()
                    .rev()
                    .find(|l| l.contains("Error") || l.contains("error:"))
            })
            .or_else(|| stderr_tail.iter().rev().find(|l| !l.trim().is_empty()))
            .map(|l| format!(": {}", l.trim()))
            .unwrap_or_default()
    };
    let (state, code, message) = match outcome {
        Outcome::Exited(0) => (JobState::Succeeded, Some(0), None),
        Outcome::Exited(c) => (
            JobState::Failed,
            Some(*c),
            Some(format!(
                "the training process exited with code {c}{}",
                reason()
            )),
        ),
        Outcome::Stopped {
            why: Stop::Cancel,
            code,
        } => (
            JobState::Cancelled,
            Some(*code),
            Some("cancelled by a user".to_string()),
        ),
        Outcome::Stopped {
            why: Stop::Shutdown,
            code,
        } => (
            JobState::Cancelled,
            Some(*code),
            Some("stopped because its runner shut down".to_string()),
        ),
        Outcome::TimedOut { code } => (
            JobState::Failed,
            Some(*code),
            Some(format!(
                "stopped at its time limit of {} s",
                time_limit.unwrap_or(0)
            )),
        ),
        Outcome::Stalled {
            code,
            limit_s,
            last_step,
        } => (
            JobState::Failed,
            Some(*code),
            Some(format!(
                "{} {limit_s} s ({})",
                ds_studio_shared::api::STALLED_MESSAGE,
                match last_step {
                    Some(s) => format!("the last metric was at step {s}"),
                    None => "no metric at all".into(),
                }
            )),
        ),
        Outcome::NotStarted(m) => (JobState::Failed, None, Some(m.clone())),
    };
    let non_finite = watched
        .and_then(|w| w.non_finite_loss.as_ref())
        .map(|(name, step, value)| {
            // DeepSpeed's `Train/Samples/*` series count samples, not steps.
            let at = if name.starts_with("Train/Samples/") {
                format!("after {step} samples")
            } else {
                format!("at step {step}")
            };
            format!(
                "{} ({value}) {at} ({name})",
                ds_studio_shared::api::NON_FINITE_LOSS_MESSAGE
            )
        });
    let message = match (state, message, non_finite) {
        (JobState::Succeeded, None, Some(n)) => Some(format!("finished, but {n}")),
        (JobState::Failed, Some(m), Some(n)) => Some(format!("{m}; {n}")),
        (_, m, _) => m,
    };
    JobStateUpdate {
        state,
        exit_code: code,
        message,
        preflight: None,
        handed_config: None,
    }
}

/// Reports a job failed (when its task died).
pub(crate) async fn report_failure(ctx: &Ctx, job_id: i64, message: String) {
    report(ctx, job_id, &fail(message)).await;
}

/// The update of a job that failed before (or instead of) training.
fn fail(message: String) -> JobStateUpdate {
    JobStateUpdate {
        state: JobState::Failed,
        exit_code: None,
        message: Some(message),
        preflight: None,
        handed_config: None,
    }
}

/// Runs a claimed job to its end and reports it.
pub(crate) async fn execute(
    ctx: Arc<Ctx>,
    claimed: ClaimedJob,
    stop: watch::Receiver<Option<Stop>>,
) {
    let job = claimed.job;
    let job_dir = ctx.config.workdir.join(format!("job-{}", job.id));
    if let Err(e) = std::fs::create_dir_all(&job_dir) {
        report(
            &ctx,
            job.id,
            &fail(format!("cannot create {}: {e}", job_dir.display())),
        )
        .await;
        return;
    }
    let mut reporter = match Reporter::start(
        ctx.client.clone(),
        ctx.runner.id,
        job.id,
        &job_dir.join("events.jsonl"),
    ) {
        Ok(r) => r,
        Err(e) => {
            report(
                &ctx,
                job.id,
                &fail(format!("cannot create the event spool: {e}")),
            )
            .await;
            return;
        }
    };
    reporter.mask(claimed.secret_env.values().cloned());
    let spec = LaunchSpec {
        launcher: claimed.context.launcher,
        trainer: claimed.context.trainer.as_ref(),
    };
    let mut update = run_job(
        &ctx,
        &job,
        &spec,
        &claimed.config_text,
        &claimed.secret_env,
        &job_dir,
        &reporter,
        stop,
    )
    .await;
    if spec.launcher.fills_auto() {
        // Off the async workers: a file system that stalls stalls one blocking thread only.
        let work = job_dir.join("work");
        update.handed_config = tokio::task::spawn_blocking(move || read_handed(&work))
            .await
            .ok()
            .flatten();
    }
    reporter.log(
        "runner",
        &format!(
            "job {} {}{}",
            job.id,
            update.state.as_str(),
            update
                .message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        ),
    );
    // Every event reaches the server before the final state does.
    reporter.finish().await;
    report(&ctx, job.id, &update).await;
}

/// The kernel's confinement of a job's processes: writes beneath `dirs` (the job's own), the
/// device files a job needs and the operator's `--job-writable` directories; said in the job's
/// log either way.
fn job_jail(ctx: &Ctx, dirs: &[&Path], reporter: &Reporter) -> Result<WriteJail, String> {
    if !ctx.config.confine_jobs {
        reporter.log("runner", super::jail::UNCONFINED_BY_OPERATOR);
        return Ok(WriteJail::open());
    }
    let devices = super::jail::writable_system_paths();
    let mut writable: Vec<&Path> = dirs.to_vec();
    writable.extend(devices.iter().map(PathBuf::as_path));
    writable.extend(ctx.config.job_writable.iter().map(PathBuf::as_path));
    let jail = WriteJail::new(&writable)?;
    let said = if jail.enforced() {
        format!(
            "the kernel (Landlock) lets this job write only beneath {}",
            jail.writable()
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        super::jail::describe(0)
    };
    reporter.log("runner", &said);
    Ok(jail)
}

/// Writes the runner's files of a job into its directory: the prepared config
/// (`ds_config.json`, whose path it returns), the built-in workload's scripts, and under
/// Accelerate its YAML.
fn write_job_files(
    job: &Job,
    spec: &LaunchSpec<'_>,
    job_dir: &Path,
    config_text: &str,
) -> Result<PathBuf, String> {
    let config_path = job_dir.join("ds_config.json");
    if let Err(e) = std::fs::write(&config_path, config_text) {
        return Err(format!("cannot write {}: {e}", config_path.display()));
    }
    if job.workload.runs_our_scripts() {
        // The HF workloads import the sizes (and Accelerate's the model) from the others, and
        // all three the rehearsal's model from rehearsal.py.
        for (name, text) in [
            ("gpt_train.py", GPT_TRAIN),
            ("hf_train.py", HF_TRAIN),
            ("accelerate_train.py", ACCELERATE_TRAIN),
            ("rehearsal.py", REHEARSAL),
        ] {
            if let Err(e) = std::fs::write(job_dir.join(name), text) {
                return Err(format!("cannot write the built-in workload: {e}"));
            }
        }
    }
    if let Some(m) = &job.workload.model {
        let text = model_config_text(m)?;
        if let Err(e) = std::fs::write(job_dir.join(MODEL_CONFIG), text) {
            return Err(format!("cannot write the rehearsal's {MODEL_CONFIG}: {e}"));
        }
    }
    if spec.launcher == Launcher::Accelerate {
        let value = Document::parse(config_text).to_value().unwrap_or_default();
        let yaml = accelerate_yaml(&config_path, job.gpus, &value);
        if let Err(e) = std::fs::write(job_dir.join(ACCELERATE_YAML), yaml) {
            return Err(format!("cannot write the accelerate config: {e}"));
        }
    }
    Ok(config_path)
}

#[allow(clippy::too_many_arguments)]
async fn run_job(
    ctx: &Ctx,
    job: &Job,
    spec: &LaunchSpec<'_>,
    config_text: &str,
    secret_env: &std::collections::BTreeMap<String, String>,
    job_dir: &Path,
    reporter: &Reporter,
    stop: watch::Receiver<Option<Stop>>,
) -> JobStateUpdate {
    reporter.log(
        "runner",
        &format!(
            "runner {} starts job {} ({} under {}, {} GPU(s) x {} node(s)) in {}",
            ctx.runner.name,
            job.id,
            job.workload.label(),
            spec.launcher.as_str(),
            job.gpus,
            job.nodes,
            job_dir.display()
        ),
    );
    // The job's processes run in `work/` (the only place they may write; with --job-user the
    // job user owns it), and the runner's own files stay beside it, out of the job's reach.
    let work = job_dir.join("work");
    if let Err(e) = std::fs::create_dir_all(&work) {
        return fail(format!("cannot create {}: {e}", work.display()));
    }
    let writable: Vec<String> = ctx
        .config
        .job_writable
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let prepared = match prepare_config(config_text, &work, job.id, &writable) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let config_path = match write_job_files(job, spec, job_dir, &prepared.text) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    // An entrypoint this runner does not allow fails before anything runs.
    if let Some(e) = &job.workload.entrypoint {
        if let Err(why) = ctx.policy.resolve(e) {
            return fail(why);
        }
    }
    let python = &ctx.config.python;
    let user = ctx.config.job_user.as_ref();
    let slurm = ctx.config.backend == "slurm";
    if slurm && spec.launcher == Launcher::Accelerate {
        return fail(
            "Accelerate jobs run on local runners for now: the Slurm runner starts torchrun on each node (run this version under the HF Trainer or the plain launcher there)"
                .into(),
        );
    }
    // Slurm gives each job its GPUs; on this host the runner's own set is the job's.
    let gpus: &[u32] = if slurm { &[] } else { &ctx.config.gpus };
    // Compiled ops are kept between jobs, one cache per team: a job can write its team's
    // cache, never another team's (what it compiled there is loaded by its team's next jobs).
    let op_cache = ctx.op_cache.join(format!("team-{}", job.team_id));
    if let Err(e) = std::fs::create_dir_all(&op_cache) {
        return fail(format!("cannot create {}: {e}", op_cache.display()));
    }
    if let Some(u) = user {
        if let Err(e) = u.own(&op_cache) {
            return fail(e);
        }
    }
    let (env, refused) =
        confine::job_env(std::env::vars(), python, user, &job.env, gpus, &op_cache);
    if let Some(why) = refused.first() {
        return fail(format!("{why} (refused by the runner)"));
    }
    // The job's own temporary directory (torch's and Triton's caches go there too), beside
    // `work/`; both are the only places under the runner's directory it may write.
    let tmp = job_dir.join("tmp");
    if let Err(e) = std::fs::create_dir_all(&tmp) {
        return fail(format!("cannot create {}: {e}", tmp.display()));
    }
    let mut env = env;
    for (k, v) in [
        ("TMPDIR", tmp.display().to_string()),
        ("TRITON_CACHE_DIR", tmp.join("triton").display().to_string()),
        (
            "TORCHINDUCTOR_CACHE_DIR",
            tmp.join("inductor").display().to_string(),
        ),
    ] {
        env.retain(|(name, _)| name != k);
        env.push((k.into(), v));
    }
    let jail = match job_jail(ctx, &[&work, &tmp, &op_cache], reporter) {
        Ok(j) => j,
        Err(e) => return fail(e),
    };
    // Secrets reach the training processes' environment only: never a file, never preflight.
    let (secrets, refused) = confine::user_vars(secret_env);
    if let Some(why) = refused.first() {
        return fail(format!("secret_{why} (refused by the runner)"));
    }
    if let Some(u) = user {
        if let Err(e) = u.own(&work) {
            return fail(e);
        }
    }
    reporter.log(
        "runner",
        &format!("preflight: DeepSpeed's parser in {}", python.display()),
    );
    let pf = preflight(
        python,
        &env,
        user,
        job_dir,
        &work,
        &config_path,
        job.gpus * job.nodes,
        spec.launcher,
        &jail,
    )
    .await;
    if let Some(r) = &pf.report {
        reporter.log("runner", &format!("ds_report: {r}"));
    }
    if !pf.ok {
        let msg = pf.message.clone().unwrap_or_else(|| "unknown error".into());
        reporter.log("runner", &format!("preflight failed: {msg}"));
        let message = if pf.deepspeed_version.is_some() {
            format!("DeepSpeed rejected the config in preflight: {msg}")
        } else {
            format!("preflight failed: {msg}")
        };
        return JobStateUpdate {
            state: JobState::Failed,
            exit_code: None,
            message: Some(message),
            preflight: Some(pf),
            handed_config: None,
        };
    }
    report(
        ctx,
        job.id,
        &JobStateUpdate {
            state: JobState::Running,
            exit_code: None,
            message: None,
            preflight: Some(pf),
            handed_config: None,
        },
    )
    .await;
    if slurm {
        let (script, args) = match workload_command(job, spec, &ctx.policy, job_dir, &config_path) {
            Ok(c) => c,
            Err(e) => return fail(e),
        };
        let mut env = env;
        env.push(("DS_STUDIO_JOB_ID".into(), job.id.to_string()));
        if spec.launcher.fills_auto() {
            let handed = work.join(HANDED_FILE);
            env.push(("DS_STUDIO_HANDED".into(), handed.display().to_string()));
            env.push(("HF_HUB_OFFLINE".into(), "1".into()));
        }
        let batch = slurm::BatchSpec {
            job_id: job.id,
            job_dir: job_dir.to_path_buf(),
            work_dir: work.clone(),
            python: python.clone(),
            script,
            args,
            env,
            nodes: job.nodes,
            gpus_per_node: job.gpus,
            gres: !ctx.config.gpus.is_empty(),
            time_limit_s: job.time_limit_s,
            stall_timeout_s: job.stall_timeout_s,
            extra: ctx.config.slurm_args.clone(),
            user: user.cloned(),
            secret_env: secrets,
            confine: if ctx.config.confine_jobs {
                super::jail::confine_prefix(
                    &jail
                        .writable()
                        .iter()
                        .map(PathBuf::as_path)
                        .collect::<Vec<_>>(),
                )
            } else {
                Vec::new()
            },
        };
        if batch.confine.is_empty() && ctx.config.confine_jobs {
            reporter.log("runner", "this runner cannot name the ds-studio binary for the nodes: the job's writes are not confined there");
        }
        let (outcome, tail) = slurm::run(&batch, &prepared.csv_dir, reporter, stop).await;
        return final_update(&outcome, &tail, job.time_limit_s, Some(&reporter.watched()));
    }
    let mut launch = match build_launch(
        python,
        &ctx.policy,
        env,
        job,
        spec,
        job_dir,
        &config_path,
        &prepared.csv_dir,
    ) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    launch.user = user.cloned();
    launch.jail = Some(jail);
    launch.cwd = work.clone();
    launch.env.extend(secrets);
    reporter.log(
        "runner",
        &format!(
            "launch: {} {}",
            launch.program.display(),
            launch.args.join(" ")
        ),
    );
    let (outcome, tail) = process::run(
        &launch,
        reporter,
        stop,
        job.time_limit_s.map(Duration::from_secs),
        job.stall_timeout_s.map(Duration::from_secs),
    )
    .await;
    if let Some(u) = user {
        // A process that left the job's process group must not outlive it (and see the next
        // job's secrets): every process of the job user goes.
        u.kill_all().await;
    }
    final_update(&outcome, &tail, job.time_limit_s, Some(&reporter.watched()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_gets_a_csv_monitor_and_info_logs_unless_set() {
        let dir = Path::new("/jobs/job-7");
        let p =
            prepare_config("{\n  // mine\n  \"train_batch_size\": 5e2\n}", dir, 7, &[]).unwrap();
        assert!(
            p.text.contains("// mine") && p.text.contains("5e2"),
            "{}",
            p.text
        );
        let v = Document::parse(&p.text).to_value().unwrap();
        assert_eq!(v["csv_monitor"]["enabled"], true);
        assert_eq!(v["csv_monitor"]["job_name"], "ds-studio-job-7");
        assert_eq!(v["log_level"], "info");
        assert_eq!(p.csv_dir, dir.join("monitor").join("ds-studio-job-7"));

        let own = r#"{"csv_monitor": {"enabled": true, "output_path": "out", "job_name": "x"}, "log_level": "warning"}"#;
        let p = prepare_config(own, dir, 7, &[]).unwrap();
        assert_eq!(p.text, own);
        assert_eq!(p.csv_dir, dir.join("out").join("x"));
        assert!(prepare_config("[1]", dir, 7, &[]).is_err());
        for escape in [
            r#"{"csv_monitor": {"enabled": true, "output_path": "/etc"}}"#,
            r#"{"csv_monitor": {"enabled": true, "output_path": "../../x"}}"#,
            r#"{"csv_monitor": {"enabled": true, "job_name": "../../../root"}}"#,
            r#"{"tensorboard": {"enabled": true, "output_path": "/tmp/tb"}}"#,
            r#"{"flops_profiler": {"enabled": true, "output_file": "a/../../b"}}"#,
            r#"{"autotuning": {"enabled": true, "model_info_path": "../../../ds-studio.db"}}"#,
            r#"{"autotuning": {"metric_path": "/srv/ds-studio/ds-studio.db"}}"#,
        ] {
            let e = prepare_config(escape, dir, 7, &[]).unwrap_err();
            assert!(e.contains("inside the job directory"), "{escape}: {e}");
        }
        // An operator's --job-writable directory admits absolute paths beneath it only.
        let nvme = |p: &str| {
            format!(
                r#"{{"zero_optimization": {{"offload_param": {{"device": "nvme", "nvme_path": "{p}"}}}}}}"#
            )
        };
        let allowed = ["/local_nvme".to_string()];
        assert!(prepare_config(&nvme("/local_nvme/j7"), dir, 7, &allowed).is_ok());
        let e = prepare_config(&nvme("/etc"), dir, 7, &allowed).unwrap_err();
        assert!(
            e.ends_with("the runner lets jobs write: /local_nvme"),
            "{e}"
        );
    }

    fn job(workload: serde_json::Value) -> Job {
        serde_json::from_value(serde_json::json!({
            "id": 7, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
            "state": "running", "workload": workload, "gpus": 2, "nodes": 1, "max_steps": 5,
            "created_by": "a", "created_at": "x", "last_seq": 0
        }))
        .unwrap()
    }

    #[test]
    fn each_launcher_starts_the_workload_its_own_way() {
        let dir = Path::new("/jobs/job-7");
        let cfg = dir.join("ds_config.json");
        let policy = EntrypointPolicy::default();
        let args = TrainerArgs {
            per_device_train_batch_size: Some(4),
            learning_rate: Some(0.001),
            bf16: Some(true),
            ..TrainerArgs::default()
        };
        let builtin = job(serde_json::json!({"builtin": "gpt", "size": "tiny"}));
        let launch = |launcher, trainer| {
            let spec = LaunchSpec { launcher, trainer };
            build_launch(
                Path::new("/venv/bin/python"),
                &policy,
                Vec::new(),
                &builtin,
                &spec,
                dir,
                &cfg,
                dir,
            )
            .unwrap()
        };
        let plain = launch(Launcher::Deepspeed, None).args.join(" ");
        assert!(
            plain.starts_with("-m deepspeed.launcher.runner --num_gpus 2")
                && plain.ends_with("gpt_train.py --size tiny --max-steps 5 --deepspeed_config /jobs/job-7/ds_config.json"),
            "{plain}"
        );
        let hf = launch(Launcher::HfTrainer, Some(&args));
        let line = hf.args.join(" ");
        assert!(
            line.starts_with("-m torch.distributed.run --nnodes 1 --nproc_per_node 2"),
            "{line}"
        );
        assert!(
            line.contains(
                "hf_train.py --size tiny --output_dir /jobs/job-7/work/hf_output --max_steps 5"
            ),
            "{line}"
        );
        assert!(
            line.contains("--per_device_train_batch_size 4 --learning_rate 0.001 --bf16 true")
                && line.ends_with("--deepspeed /jobs/job-7/ds_config.json"),
            "{line}"
        );
        assert!(hf.env.contains(&(
            "DS_STUDIO_HANDED".into(),
            "/jobs/job-7/work/handed_config.json".into()
        )));
        assert!(hf.env.contains(&("HF_HUB_OFFLINE".into(), "1".into())));
        let acc = launch(Launcher::Accelerate, Some(&args)).args.join(" ");
        assert!(
            acc.starts_with("-m accelerate.commands.launch --config_file /jobs/job-7/accelerate_config.yaml --main_process_port "),
            "{acc}"
        );
        assert!(
            acc.contains("--mixed_precision bf16 /jobs/job-7/accelerate_train.py --size tiny --max_steps 5 --per_device_train_batch_size 4 --learning_rate 0.001")
                && !acc.contains("--deepspeed") && !acc.contains("--bf16"),
            "Accelerate takes the config from its YAML and the precision from the launch: {acc}"
        );
        // The accelerate config names the job's file, for the job's processes.
        let yaml = accelerate_yaml(
            &cfg,
            2,
            &serde_json::json!({"zero_optimization": {"stage": 3}}),
        );
        assert!(
            yaml.contains("deepspeed_config_file: /jobs/job-7/ds_config.json")
                && yaml.contains("num_processes: 2")
                && yaml.contains("zero3_init_flag: true")
                && !yaml.contains("mixed_precision"),
            "{yaml}"
        );
    }

    #[test]
    fn an_entrypoint_keeps_its_arguments_with_its_launchers_config_flag() {
        let base = std::env::temp_dir().join(format!("ds-studio-ep-{}", std::process::id()));
        let (scripts, work) = (base.join("scripts"), base.join("jobs"));
        std::fs::create_dir_all(&work).unwrap();
        std::fs::create_dir_all(&scripts).unwrap();
        std::fs::write(scripts.join("train.py"), "").unwrap();
        let policy = EntrypointPolicy::new(std::slice::from_ref(&scripts), &work).unwrap();
        let j = job(serde_json::json!({"entrypoint": "train.py", "args": ["--epochs", "1"]}));
        let cfg = Path::new("/jobs/job-7/ds_config.json");
        let cmd = |launcher| {
            let spec = LaunchSpec {
                launcher,
                trainer: None,
            };
            workload_command(&j, &spec, &policy, &work, cfg)
                .unwrap()
                .1
                .join(" ")
        };
        assert_eq!(
            cmd(Launcher::Deepspeed),
            "--epochs 1 --deepspeed_config /jobs/job-7/ds_config.json"
        );
        assert_eq!(
            cmd(Launcher::HfTrainer),
            "--epochs 1 --deepspeed /jobs/job-7/ds_config.json"
        );
        assert_eq!(cmd(Launcher::Accelerate), "--epochs 1");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn outcomes_map_to_final_states_with_reasons() {
        use ds_studio_shared::api::FailureReason;
        let ok = final_update(&Outcome::Exited(0), &[], None, None);
        assert_eq!(ok.state, JobState::Succeeded);
        let tail = vec!["Traceback".to_string(), "ValueError: bad".to_string()];
        let bad = final_update(&Outcome::Exited(1), &tail, None, None);
        assert_eq!(bad.state, JobState::Failed);
        assert!(bad.message.unwrap().ends_with("code 1: ValueError: bad"));
        // Under torchrun the rank's out-of-memory line is named, not torchrun's own last error.
        let tail: Vec<String> = [
            "[n1 rank 0] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 11.72 GiB. GPU 0 has a total capacity of 139.81 GiB of which 3.97 GiB is free.",
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
            "gpt_train.py FAILED",
        ]
        .map(String::from)
        .to_vec();
        let oom = final_update(&Outcome::Exited(1), &tail, None, None);
        let message = oom.message.unwrap();
        assert!(message.contains("CUDA out of memory"), "{message}");
        assert_eq!(
            ds_studio_shared::api::FailureReason::of(oom.state, Some(1), Some(&message)),
            Some(ds_studio_shared::api::FailureReason::OutOfMemory)
        );
        let c = final_update(
            &Outcome::Stopped {
                why: Stop::Cancel,
                code: 143,
            },
            &[],
            None,
            None,
        );
        assert_eq!((c.state, c.exit_code), (JobState::Cancelled, Some(143)));
        let t = final_update(&Outcome::TimedOut { code: 143 }, &[], Some(5), None);
        assert!(t.message.unwrap().contains("time limit of 5 s"));
        // Stopped for making no progress: said with the limit and the last step, and told as
        // `stalled`.
        let stalled = final_update(
            &Outcome::Stalled {
                code: 143,
                limit_s: 60,
                last_step: Some(12),
            },
            &[],
            None,
            None,
        );
        let m = stalled.message.clone().unwrap();
        assert!(m.contains("60 s") && m.contains("step 12"), "{m}");
        assert_eq!(
            FailureReason::of(stalled.state, stalled.exit_code, Some(&m)),
            Some(FailureReason::Stalled)
        );
        // A loss that became NaN: a job that ran to its end says so, and is told apart.
        let nan = Watched {
            last_progress: std::time::Instant::now(),
            last_step: Some(40),
            non_finite_loss: Some(("Train/Samples/train_loss".into(), 24, f64::NAN)),
        };
        let done = final_update(&Outcome::Exited(0), &[], None, Some(&nan));
        assert_eq!(done.state, JobState::Succeeded);
        let m = done.message.clone().unwrap();
        assert!(
            m.contains("after 24 samples (Train/Samples/train_loss)"),
            "{m}"
        );
        assert_eq!(
            FailureReason::of(done.state, done.exit_code, Some(&m)),
            Some(FailureReason::NonFiniteLoss)
        );
        // An explained failure keeps its own reason, the NaN added after it.
        let tail = vec![
            "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.".to_string(),
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:".to_string(),
        ];
        let overflow = final_update(&Outcome::Exited(1), &tail, None, Some(&nan));
        let m = overflow.message.clone().unwrap();
        assert!(m.contains("Current loss scale already at minimum"), "{m}");
        assert_eq!(
            FailureReason::of(overflow.state, overflow.exit_code, Some(&m)),
            Some(FailureReason::LossScaleAtMinimum)
        );
    }
}
