//! Jobs and runners: what a user submits (`JobCreate`), what the server answers (`Job`), the
//! events a job produces (`MetricPoint`, `LogLine`) and the protocol a runner speaks to the
//! server (register, heartbeat, claim, events, state).
//!
//! A job's metric and log events carry a per-job sequence number given by the runner, the one
//! producer of a job's events: the server stores each `(job, seq)` once (a resent batch is
//! dropped as duplicates), and an SSE client resumes after the last `seq` it saw.
//!
//! A job is judged and run in one context, `Job::context` (the launcher it was submitted under,
//! its world and steps); what HF is predicted to fill (`filled`) is kept beside what DeepSpeed
//! received (`handed_config`), never in place of it.

use super::object_or_null;
use super::FailureReason;
use crate::builtin_gpt::{GptSize, BUILTIN_SIZES};
use crate::devices::RunnerDevices;
use crate::validate::{Context, Diagnostic};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// Where a job is in its life: `queued` → `running` → `succeeded` | `failed` | `cancelled` |
/// `lost` (its runner went silent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Queued,
    Running,
    Succeeded,
    Failed,
    Cancelled,
    Lost,
}

impl JobState {
    pub const ALL: [JobState; 6] = [
        JobState::Queued,
        JobState::Running,
        JobState::Succeeded,
        JobState::Failed,
        JobState::Cancelled,
        JobState::Lost,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Succeeded => "succeeded",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
            JobState::Lost => "lost",
        }
    }
    pub fn parse(s: &str) -> Option<JobState> {
        JobState::ALL.into_iter().find(|j| j.as_str() == s)
    }
    /// The job will not change any more.
    pub fn is_terminal(self) -> bool {
        !matches!(self, JobState::Queued | JobState::Running)
    }
}

/// What a job runs: the built-in GPT workload (`{"builtin": "gpt", "size": "tiny"}`), a
/// rehearsal of the user's own model (`{"model": {"name": "qwen2.5-0.5b", "seq_len": 512}}`: its
/// architecture built from config.json with random weights, trained by the built-in workload's
/// scripts) or a script of the user's on the runner host (`{"entrypoint": "train.py", "args":
/// [...]}`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// The built-in workload: `gpt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    /// Size of the built-in workload: tiny, small, medium, large or xl (default tiny).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// A training script on the runner host, started under the version's launcher: with
    /// `--deepspeed_config CFG` appended to `args` (plain `deepspeed`), `--deepspeed CFG` (HF
    /// Trainer, through `torchrun`), or through `accelerate launch` with an accelerate config
    /// naming the file (Accelerate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrypoint: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// A rehearsal: the user's model (a catalog name or its config.json, at `seq_len`, with
    /// LoRA if asked), trained a few steps on synthetic tokens under the version's launcher.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<crate::memory::UserModel>,
}

impl Workload {
    /// A rehearsal of `model`.
    pub fn rehearsal(model: crate::memory::UserModel) -> Workload {
        Workload {
            model: Some(model),
            ..Workload::default()
        }
    }

    /// The studio's own training scripts run it (the built-in workload or a rehearsal), so
    /// its model is known and its config needs what those scripts need.
    pub fn runs_our_scripts(&self) -> bool {
        self.builtin.is_some() || self.model.is_some()
    }

    /// The model the memory model estimates for this workload (transformers' GPT-2 for the
    /// built-in sizes under the HF launchers, `hf`); `None` for a script of the user's.
    pub fn model_spec(&self, hf: bool) -> Option<crate::memory::ModelSpec> {
        if let Some(m) = &self.model {
            return m.resolve().ok().map(|r| r.spec);
        }
        self.builtin.as_ref()?;
        crate::memory::ModelSpec::builtin(self.size.as_deref().unwrap_or(BUILTIN_SIZES[0]), hf)
    }

    pub fn builtin_gpt(size: &str) -> Workload {
        Workload {
            builtin: Some("gpt".into()),
            size: Some(size.into()),
            ..Workload::default()
        }
    }

    /// Checks the shape, naming what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if let Some(m) = &self.model {
            if self.builtin.is_some() || self.entrypoint.is_some() {
                return Err(
                    "workload: a rehearsal (`model`) runs the studio's scripts; leave `builtin` and `entrypoint` out"
                        .into(),
                );
            }
            if self.size.is_some() || !self.args.is_empty() {
                return Err(
                    "workload: `size` and `args` are not for a rehearsal; its model gives the shape"
                        .into(),
                );
            }
            return m
                .resolve()
                .map(|_| ())
                .map_err(|e| format!("workload.model: {e}"));
        }
        match (&self.builtin, &self.entrypoint) {
            (Some(_), Some(_)) => {
                Err("workload: give either `builtin` or `entrypoint`, not both".into())
            }
            (None, None) => Err(
                "workload: give `builtin` (\"gpt\"), `model` (a rehearsal of your model) or `entrypoint` (a script on the runner host)"
                    .into(),
            ),
            (Some(b), None) => {
                if b != "gpt" {
                    return Err(format!(
                        "workload.builtin `{b}` is unknown; the built-in workload is `gpt`"
                    ));
                }
                if !self.args.is_empty() {
                    return Err("workload.args is only for an `entrypoint`".into());
                }
                match self.size.as_deref() {
                    None => Ok(()),
                    Some(s) if BUILTIN_SIZES.contains(&s) => Ok(()),
                    Some(s) => Err(format!(
                        "workload.size `{s}` is unknown; use one of {}",
                        BUILTIN_SIZES.join(", ")
                    )),
                }
            }
            (None, Some(e)) => {
                if self.size.is_some() {
                    return Err("workload.size is only for the built-in workload".into());
                }
                if e.trim().is_empty() || e.len() > 1024 || e.chars().any(char::is_control) {
                    return Err("workload.entrypoint must be a path of 1-1024 characters".into());
                }
                if self.args.len() > 256 || self.args.iter().any(|a| a.len() > 4096) {
                    return Err("workload.args: at most 256 arguments of 4096 bytes".into());
                }
                Ok(())
            }
        }
    }

    /// A short label: `gpt/tiny`, `qwen2.5-0.5b` (a rehearsal; `llama config.json` for a
    /// pasted one, `+ LoRA r16` with adapters) or the entrypoint.
    pub fn label(&self) -> String {
        if let Some(m) = &self.model {
            let name = match (&m.name, &m.config) {
                (Some(n), _) => n.clone(),
                (None, Some(c)) => format!(
                    "{} config.json",
                    c.get("model_type").and_then(|t| t.as_str()).unwrap_or("?")
                ),
                (None, None) => "?".into(),
            };
            return match &m.lora {
                Some(l) => format!("{name} + LoRA r{}", l.rank),
                None => name,
            };
        }
        match (&self.builtin, &self.entrypoint) {
            (Some(b), _) => format!("{b}/{}", self.size.as_deref().unwrap_or("tiny")),
            (None, Some(e)) => e.clone(),
            _ => "?".into(),
        }
    }
}

/// The context a job's config is checked in and run under: the version's own (launcher,
/// trainer arguments, accelerator, parallel sizes) with the job's world size (nodes × GPUs).
/// Under the plain launcher the runner passes the config as a file (`--deepspeed_config PATH`);
/// the HF Trainer and Accelerate read it and hand DeepSpeed a dict, filling its `"auto"` values
/// from the trainer arguments. For the built-in workload and a rehearsal those arguments get
/// the job's steps (`max_steps`) and the model's width (`hidden_size`, which HF reads from the
/// model).
pub fn job_context(
    base: &Context,
    workload: &Workload,
    gpus: u32,
    nodes: u32,
    max_steps: u32,
) -> Context {
    let mut ctx = base.clone();
    ctx.world_size = gpus.max(1) * nodes.max(1);
    ctx.passes_dict = Some(ctx.launcher.fills_auto());
    if !ctx.launcher.fills_auto() {
        return ctx;
    }
    let mut args = ctx.trainer.clone().unwrap_or_default();
    if workload.builtin.is_some() {
        args.max_steps = Some(i64::from(max_steps));
        let size = workload.size.as_deref().unwrap_or(BUILTIN_SIZES[0]);
        args.hidden_size = GptSize::of(size).map(|g| g.d_model);
    } else if let Some(m) = &workload.model {
        // A rehearsal: HF reads the width from the model it builds.
        args.max_steps = Some(i64::from(max_steps));
        args.hidden_size = m.resolve().ok().map(|r| r.architecture.hidden);
    }
    ctx.trainer = Some(args);
    ctx
}

/// The directories outside a job's own that its runner lets it write (`--job-writable`): the
/// requested runner's, else those of every online runner it may go to (a runner that lacks
/// one refuses the job again before it starts, naming the key).
pub fn job_writable(runners: &[Runner], requested: Option<&str>) -> Vec<String> {
    let mut dirs: Vec<String> = runners
        .iter()
        .filter(|r| match requested {
            Some(name) => r.name == name,
            None => r.online,
        })
        .filter_map(|r| r.devices.as_ref())
        .flat_map(|d| d.job_writable.iter().cloned())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

impl Runner {
    /// Ranks a job may start here per node: its GPUs (the ones it reported, else its `gpus`
    /// list), or 1 on a CPU runner.
    pub fn device_count(&self) -> u32 {
        match &self.devices {
            Some(d) => d.device_count(),
            None => (self.gpus.len() as u32).max(1),
        }
    }

    /// What it runs jobs on in one line ([`RunnerDevices::summary`]); a runner that reported no
    /// devices says its GPU count, or `CPU`.
    /// How the kernel confines its jobs' writes: `landlock v7`, `NOT confined`, or `-` when
    /// the runner did not say.
    pub fn job_writes(&self) -> String {
        match self.devices.as_ref().and_then(|d| d.landlock_abi) {
            Some(0) => "NOT confined".into(),
            Some(v) => format!("landlock v{v}"),
            None => "-".into(),
        }
    }

    pub fn devices_summary(&self) -> crate::i18n::Text {
        match &self.devices {
            Some(d) => d.summary(),
            None if self.gpus.is_empty() => crate::i18n::Text::new("CPU", "CPU"),
            None => {
                let n = format!("{} GPU", self.gpus.len());
                crate::i18n::Text::new(n.clone(), n)
            }
        }
    }
}

impl Job {
    /// The context this job runs in, from its version's: the launcher it was submitted under
    /// (jobs stored before launchers ran the plain one), with [`job_context`]'s changes.
    pub fn context(&self, version_context: &Context) -> Context {
        let mut base = version_context.clone();
        base.launcher = self.facts.launcher.parse().unwrap_or_default();
        job_context(&base, &self.workload, self.gpus, self.nodes, self.max_steps)
    }
}

/// A value the launcher wrote into the config before DeepSpeed read it, and the argument (or
/// rule) it came from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct FilledValue {
    /// Dotted key, `train_micro_batch_size_per_gpu`.
    pub path: String,
    pub value: serde_json::Value,
    /// `per_device_train_batch_size`, `hidden_size²`, ...
    pub from: String,
}

impl FilledValue {
    /// What `handed` (the dict DeepSpeed received) holds at this value's key.
    pub fn received<'a>(&self, handed: &'a serde_json::Value) -> Option<&'a serde_json::Value> {
        handed.pointer(&crate::launcher::hf::pointer(&self.path))
    }
}

/// The built-in workload hands `deepspeed.initialize` its model and no optimizer of its own:
/// under DeepSpeed's launcher a config with ZeRO stage 1 or 2 and no `optimizer` section stops
/// at start with "zero stage N requires an optimizer" (DeepSpeed 0.19.8's engine on CPU; stages
/// 0 and 3 start). The HF launchers always hand one over. Said before the job is queued, with
/// the fix that adds an AdamW.
pub fn builtin_needs_optimizer(config_text: &str, ctx: &Context) -> Option<Diagnostic> {
    if ctx.launcher.fills_auto() {
        return None;
    }
    let v = crate::Document::parse(config_text).to_value()?;
    if v.get("optimizer").is_some() {
        return None;
    }
    let stage = v.pointer("/zero_optimization/stage")?.as_u64()?;
    (1..=2).contains(&stage).then(|| {
        Diagnostic::error(
            "workload-needs-optimizer",
            "/zero_optimization/stage",
            crate::i18n::Text::new(
                format!("the built-in workload passes no optimizer of its own and the config names none: with ZeRO stage {stage} DeepSpeed stops at start with \"zero stage {stage} requires an optimizer\". Add an `optimizer` section (e.g. AdamW)"),
                format!("内置工作负载不自带优化器，配置中也没有指定：ZeRO stage {stage} 下 DeepSpeed 启动即报错 \"zero stage {stage} requires an optimizer\"。请添加 `optimizer` 配置（例如 AdamW）"),
            ),
        )
        .with_fix(serde_json::json!([{"op": "add", "path": "/optimizer",
            "value": {"type": "AdamW", "params": {"lr": 0.001}}}]))
    })
}

/// What the HF launchers fill in `config_text` in the job's context (empty under the plain
/// launcher), as the validator models transformers and accelerate.
pub fn filled_values(config_text: &str, ctx: &Context) -> Vec<FilledValue> {
    if !ctx.launcher.fills_auto() {
        return Vec::new();
    }
    let doc = crate::document::Document::parse(config_text);
    let Some(root) = doc
        .root()
        .filter(|r| matches!(r.kind, crate::document::Kind::Object(_)))
    else {
        return Vec::new();
    };
    crate::launcher::hf::run(root, ctx)
        .filled
        .into_iter()
        .map(|f| FilledValue {
            path: f.path,
            value: f.value,
            from: f.from,
        })
        .collect()
}

/// `POST /api/v1/jobs`: run a pinned template version.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct JobCreate {
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub template_id: i64,
    /// The version to pin; default the head at submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub version: Option<i64>,
    pub workload: Workload,
    /// GPUs (ranks) per node; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 64))]
    pub gpus: Option<u32>,
    /// Nodes; default 1 (more than one needs the Slurm backend).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1024))]
    pub nodes: Option<u32>,
    /// Only this runner (by name) may run it; default any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    /// Optimizer steps for the built-in workload (default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000000))]
    pub max_steps: Option<u32>,
    /// Extra environment variables for the training processes (shown to everyone who can see
    /// the job).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, String>>,
    /// Secret environment variables (tokens, keys): write-only. No answer shows their values,
    /// job logs show `***` in their place, and the runner never writes them to disk; the
    /// server forgets them when the job ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_env: Option<BTreeMap<String, String>>,
    /// Wall-clock limit in seconds (at most 30 days); the job is stopped and fails after it
    /// (default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 2592000))]
    pub time_limit_s: Option<u64>,
    /// Stop the job when it reports no new metric for this many seconds (counted from its
    /// start until the first one; 30 s to 1 day; default none): a rank that hangs in a
    /// collective or in data loading then ends as `stalled` instead of holding its GPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 30, maximum = 86400))]
    pub stall_timeout_s: Option<u64>,
    /// Fit the batch sizes to the job's GPUs (from the world size the version was saved for):
    /// keep the global batch by changing the gradient accumulation (or the micro batch); the
    /// job runs the fitted config, the version stays as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit_to_runner: Option<bool>,
    /// Run it even when the memory estimate says it does not fit the runner's memory
    /// (otherwise such a job is refused with 422 `does_not_fit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<bool>,
    /// A name for the run (at most 120 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A note on the run (at most 4,000 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Tags (at most 16; letters, digits, `-`, `_`, `.`, `:`, `/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// What the runner's own DeepSpeed said about the config before launching.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Preflight {
    /// DeepSpeed's parser accepted the config.
    pub ok: bool,
    /// DeepSpeed's own message when it rejected the config (or could not be imported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub python: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torch_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deepspeed_version: Option<String>,
    /// The Hugging Face releases the runner's Python imports (the HF launchers need them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transformers_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accelerate_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accelerator: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_count: Option<i64>,
    /// A one-line `ds_report` summary: versions, accelerator, devices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
}

/// A job as the API shows it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Job {
    pub id: i64,
    pub template_id: i64,
    pub template_name: String,
    pub team_id: i64,
    /// The pinned version.
    pub version: i64,
    pub state: JobState,
    pub workload: Workload,
    pub gpus: u32,
    pub nodes: u32,
    pub max_steps: u32,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Names of its secret variables (their values are never shown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secret_env_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_s: Option<u64>,
    /// Stopped when no new metric comes for this long (`JobCreate::stall_timeout_s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_timeout_s: Option<u64>,
    /// The runner asked for at submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner_requested: Option<String>,
    /// The runner that claimed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    pub created_by: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    /// Why it failed, was cancelled or lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What went wrong, when the studio can tell from the job's message and exit code
    /// (`out_of_memory`, `nccl_timeout`, `non_finite_loss`, …; see [`FailureReason`], whose
    /// `explain` says it in English and Chinese with a change to try).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<FailureReason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preflight: Option<Preflight>,
    /// A cancel was asked for and the runner has not confirmed it yet.
    #[serde(default)]
    pub cancel_requested: bool,
    /// Highest event sequence number stored.
    pub last_seq: i64,
    /// The batch sizes were fitted to the job's GPUs: the config as run and what changed (the
    /// version keeps its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit: Option<crate::fit::Fitted>,
    /// Its name, note and tags (`PATCH /jobs/{id}`).
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub note: String,
    #[serde(default)]
    pub tags: Vec<String>,
    /// What it ran: release, ZeRO stage, precision, offload, micro batch.
    #[serde(default)]
    pub facts: super::RunFacts,
    /// How it went (final and best loss, median samples/s, peak memory), written when it
    /// ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<RunSummary>,
    /// The trainer arguments it runs with under the HF Trainer or Accelerate (the version's,
    /// with the job's steps and, for the built-in workload, the model's width).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer: Option<crate::launcher::TrainerArgs>,
    /// What the launcher fills in the config, predicted at submission (empty under the plain
    /// launcher).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filled: Vec<FilledValue>,
    /// The dict the launcher handed to `deepspeed.initialize`, as the training process printed
    /// it (reported by the runner when the job ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handed_config: Option<serde_json::Value>,
}

/// One metric point. `step` is DeepSpeed's x axis: global samples for the CSV monitor series,
/// the optimizer step for values parsed from its log lines.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct MetricPoint {
    pub seq: i64,
    pub name: String,
    pub step: i64,
    pub value: f64,
    pub ts: String,
}

/// One line of a job's output.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct LogLine {
    pub seq: i64,
    /// `stdout`, `stderr` or `runner` (what the runner itself reports).
    pub stream: String,
    pub text: String,
    pub ts: String,
}

/// `GET /api/v1/jobs/{id}/metrics`: points per series, downsampled when asked.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct MetricSeries {
    pub name: String,
    /// Points stored for this series.
    pub total: i64,
    /// `[step, value]` pairs, by step; at most `max_points` when downsampled (bucket means).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Vec<f64>>))]
    pub points: Vec<(i64, f64)>,
}

/// The answer to a failed `POST /api/v1/jobs` for a config with errors.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct JobRefused {
    pub diagnostics: Vec<Diagnostic>,
}

// ---- the runner protocol -------------------------------------------------------------------

/// `POST /api/v1/runners`: a runner announces itself (again after a restart: same name, same id).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RunnerRegister {
    pub name: String,
    #[serde(default)]
    pub hostname: String,
    /// `local` or `slurm`.
    pub backend: String,
    /// GPU indices it may use (empty: CPU only).
    #[serde(default)]
    pub gpus: Vec<u32>,
    /// The Python that runs DeepSpeed.
    #[serde(default)]
    pub python: String,
    /// ds-studio version of the runner.
    #[serde(default)]
    pub version: String,
    /// The DeepSpeed release its Python imports (`0.18.4`; empty when it could not tell).
    #[serde(default)]
    pub deepspeed: String,
    /// Its GPUs (from NVML, honouring `CUDA_VISIBLE_DEVICES` and `--gpus`) and its host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices: Option<RunnerDevices>,
}

/// A runner as the API shows it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Runner {
    pub id: i64,
    pub name: String,
    pub hostname: String,
    pub backend: String,
    pub gpus: Vec<u32>,
    pub python: String,
    pub version: String,
    /// Heartbeat seen in the last 30 s.
    pub online: bool,
    pub last_seen: String,
    /// Jobs it is running now.
    pub running: Vec<i64>,
    /// The team whose jobs it takes (from its runner token); none: every team's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_id: Option<i64>,
    /// The DeepSpeed release its Python imports (empty when unknown); jobs that may go to it
    /// are validated for that release.
    #[serde(default)]
    pub deepspeed: String,
    /// What it runs jobs on, as it reported at registration (none from runners before 0.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices: Option<RunnerDevices>,
}

/// How a run went, from its metric series (name → `(step, value)` points in order): the last
/// and the lowest training loss, the median samples/s, and the measured peak memory in MB (the
/// workload's own report, else DeepSpeed's max allocated). The job page, compare and
/// `jobs watch` all say it from here.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct RunSummary {
    pub final_loss: Option<f64>,
    pub best_loss: Option<f64>,
    pub median_samples_per_sec: Option<f64>,
    pub peak_memory_mb: Option<f64>,
}

/// The series [`run_summary`] reads.
pub const SUMMARY_SERIES: [&str; 5] = [
    "Train/Samples/train_loss",
    "samples_per_sec",
    "result/peak_memory_mb",
    "max_mem_allocated_gb",
    "result/samples_per_sec",
];

/// See [`RunSummary`].
pub fn run_summary(series: &BTreeMap<String, Vec<(i64, f64)>>) -> RunSummary {
    let points = |n: &str| series.get(n).filter(|p| !p.is_empty());
    let last = |n: &str| points(n).and_then(|p| p.last()).map(|p| p.1);
    let loss = points(SUMMARY_SERIES[0]);
    let mut sps: Vec<f64> = points(SUMMARY_SERIES[1])
        .map(|p| p.iter().map(|x| x.1).filter(|v| v.is_finite()).collect())
        .unwrap_or_default();
    sps.sort_by(f64::total_cmp);
    RunSummary {
        final_loss: last(SUMMARY_SERIES[0]),
        best_loss: loss.and_then(|p| {
            p.iter()
                .map(|x| x.1)
                .filter(|v| v.is_finite())
                .min_by(f64::total_cmp)
        }),
        // DeepSpeed prints samples/s every `steps_per_print` steps; a run shorter than that has
        // only the workload's own figure for the whole run.
        median_samples_per_sec: (!sps.is_empty())
            .then(|| sps[sps.len() / 2])
            .or_else(|| last(SUMMARY_SERIES[4]).filter(|v| v.is_finite())),
        peak_memory_mb: last(SUMMARY_SERIES[2])
            .or_else(|| last(SUMMARY_SERIES[3]).map(|g| g * 1024.0)),
    }
}

/// A duration as people read it: `42 s`, `3 min 5 s`, `2 h 14 min` (the job pages and
/// `jobs watch` say it alike).
pub fn human_duration(secs: i64) -> String {
    duration_with(secs, ["s", "min", "h"])
}

/// [`human_duration`] in Chinese: `42 秒`, `3 分 5 秒`, `2 小时 14 分`.
pub fn human_duration_zh(secs: i64) -> String {
    duration_with(secs, ["秒", "分", "小时"])
}

/// `secs` in the units `[second, minute, hour]`, the two largest that apply.
fn duration_with(secs: i64, [sec, min, hour]: [&str; 3]) -> String {
    let s = secs.max(0);
    if s < 60 {
        format!("{s} {sec}")
    } else if s < 3600 {
        format!("{} {min} {} {sec}", s / 60, s % 60)
    } else {
        format!("{} {hour} {} {min}", s / 3600, (s % 3600) / 60)
    }
}

/// A runner name: 1-64 letters, digits, `-`, `_` or `.` (the API, the runner-token CLI and
/// registration share this rule).
pub fn check_runner_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "runner name `{}` must be 1-64 characters of letters, digits, `-`, `_` or `.`",
            name.escape_debug()
        ));
    }
    Ok(())
}

/// `POST /api/v1/runner-tokens` (server admins): a credential for one runner.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RunnerTokenCreate {
    /// The runner name it registers as (1-64 letters, digits, `-`, `_`, `.`; not `local`).
    #[cfg_attr(
        feature = "openapi",
        schema(example = "gpu-a", pattern = "^[A-Za-z0-9._-]{1,64}$")
    )]
    pub runner: String,
    /// Only this team's jobs; leave out for every team's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_id: Option<i64>,
}

/// A runner token as listed (the token itself is never stored).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct RunnerToken {
    pub id: i64,
    pub runner: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_id: Option<i64>,
    /// The first characters of the token, to recognise it.
    pub prefix: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used_at: Option<String>,
    pub revoked: bool,
}

/// A new runner token: `token` is shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct RunnerTokenCreated {
    pub token: String,
    #[serde(flatten)]
    pub info: RunnerToken,
}

/// `POST /api/v1/runners/{id}/heartbeat`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Heartbeat {
    /// Jobs the runner is running.
    #[serde(default)]
    pub running: Vec<i64>,
}

/// The server's answer to a heartbeat: jobs the runner must stop (cancelled by a user, or no
/// longer its own because they were marked lost).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct HeartbeatReply {
    pub cancel: Vec<i64>,
}

/// `POST /api/v1/runners/{id}/claim`: the job the runner now owns, with its pinned config.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ClaimedJob {
    pub job: Job,
    /// The pinned version's text, byte for byte.
    pub config_text: String,
    pub context: Context,
    /// The job's secret variables, for its processes only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub secret_env: BTreeMap<String, String>,
}

/// One event a runner reports, numbered by the runner (1, 2, 3, ... per job).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RunnerEvent {
    Metric {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        ts: i64,
        name: String,
        step: i64,
        value: f64,
    },
    Log {
        seq: i64,
        ts: i64,
        stream: String,
        text: String,
    },
}

impl RunnerEvent {
    pub fn seq(&self) -> i64 {
        match self {
            RunnerEvent::Metric { seq, .. } | RunnerEvent::Log { seq, .. } => *seq,
        }
    }
}

/// `POST /api/v1/jobs/{id}/events` (runners): a batch of events.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct EventBatch {
    pub events: Vec<RunnerEvent>,
}

/// The answer to an event batch.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct EventAck {
    /// Events stored now.
    pub stored: i64,
    /// Events already stored before (a resent batch).
    pub duplicates: i64,
    /// Highest sequence number stored for the job.
    pub last_seq: i64,
}

/// `POST /api/v1/jobs/{id}/state` (runners): the job started, or ended.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct JobStateUpdate {
    pub state: JobState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(
        default,
        deserialize_with = "object_or_null",
        skip_serializing_if = "Option::is_none"
    )]
    pub preflight: Option<Preflight>,
    /// The dict the launcher handed to `deepspeed.initialize` (the training process prints it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handed_config: Option<serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_are_checked_with_messages_that_name_the_field() {
        assert!(Workload::builtin_gpt("tiny").check().is_ok());
        let both = Workload {
            entrypoint: Some("t.py".into()),
            ..Workload::builtin_gpt("tiny")
        };
        assert!(both.check().unwrap_err().contains("not both"));
        assert!(Workload::builtin_gpt("huge")
            .check()
            .unwrap_err()
            .contains("workload.size `huge`"));
        assert!(Workload::default().check().unwrap_err().contains("builtin"));
        let script = Workload {
            entrypoint: Some("train.py".into()),
            args: vec!["--epochs".into(), "1".into()],
            ..Workload::default()
        };
        assert!(script.check().is_ok());
        assert_eq!(script.label(), "train.py");
        assert_eq!(Workload::builtin_gpt("small").label(), "gpt/small");
    }

    #[test]
    fn builtin_sizes_know_their_parameter_count() {
        // The count the workload itself reports for `tiny` (its `ds-studio-result` line).
        assert_eq!(GptSize::of("tiny").unwrap().params(), 136_960);
        let xl = GptSize::of("xl").unwrap().params();
        assert!((1_200_000_000..1_400_000_000).contains(&xl), "{xl}");
        assert!(BUILTIN_SIZES.iter().all(|s| GptSize::of(s).is_some()));
        assert!(GptSize::of("huge").is_none());
    }

    #[test]
    fn runner_events_are_tagged_by_kind() {
        let e: RunnerEvent = serde_json::from_str(
            r#"{"kind":"metric","seq":3,"ts":1,"name":"Train/Samples/lr","step":8,"value":0.001}"#,
        )
        .unwrap();
        assert_eq!(e.seq(), 3);
        assert!(serde_json::from_str::<RunnerEvent>(r#"{"kind":"x","seq":1}"#).is_err());
        for s in JobState::ALL {
            assert_eq!(JobState::parse(s.as_str()), Some(s));
        }
        assert!(JobState::Lost.is_terminal() && !JobState::Running.is_terminal());
    }
}
