//! Planning a job: what `POST /jobs` decides before the job is queued. Its shape (GPUs, nodes,
//! steps) and environment are checked, the runners it may go to chosen, its config fitted and
//! judged in the job's own context (world size, the runner's DeepSpeed release, the launcher),
//! the paths it would write checked, and its estimated memory held against the runners'. A job
//! passes all of it or is refused with the first reason, before anything is stored.

use super::DomainError;
use crate::state::AppState;
use crate::store::jobs::NewJob;
use crate::store::templates::CachedVersion;
use ds_studio_shared::api::{
    check_env, filled_values, job_context, FilledValue, Job, JobCreate, RunFacts, RunLabels,
    Runner, Template, Workload, BUILTIN_SIZES,
};
use ds_studio_shared::memory;
use ds_studio_shared::validate::{validate_text, Severity};
use ds_studio_shared::Context;
use ds_studio_shared::Release;

/// Default optimizer steps of a job.
pub const DEFAULT_MAX_STEPS: u32 = 20;
/// Longest time limit a job may ask for (30 days): bounded so no runner does arithmetic with
/// an absurd deadline.
pub const MAX_TIME_LIMIT_S: u64 = 30 * 24 * 3600;
/// The shortest stall limit (a job's first metric takes seconds to tens of seconds: imports,
/// the engine's start) and the longest.
pub const MIN_STALL_TIMEOUT_S: u64 = 30;
pub const MAX_STALL_TIMEOUT_S: u64 = 24 * 3600;

/// Plans the job `req` of template `t` (the caller, `user_id`, may edit it) and queues it.
pub async fn submit(
    s: &AppState,
    user_id: i64,
    t: &Template,
    req: JobCreate,
) -> Result<Job, DomainError> {
    req.workload.check().map_err(DomainError::Invalid)?;
    let (gpus, nodes, max_steps) = check_shape(req.gpus, req.nodes, req.max_steps)?;
    if let Some(t) = req.time_limit_s {
        if !(1..=MAX_TIME_LIMIT_S).contains(&t) {
            return Err(DomainError::Invalid(format!(
                "time_limit_s {t} must be between 1 and {MAX_TIME_LIMIT_S} (30 days); leave it out for no limit"
            )));
        }
    }
    if let Some(t) = req.stall_timeout_s {
        if !(MIN_STALL_TIMEOUT_S..=MAX_STALL_TIMEOUT_S).contains(&t) {
            return Err(DomainError::Invalid(format!(
                "stall_timeout_s {t} must be between {MIN_STALL_TIMEOUT_S} and {MAX_STALL_TIMEOUT_S} (1 day); leave it out to never stop a quiet job"
            )));
        }
    }
    let env = req.env.clone().unwrap_or_default();
    check_env(&env).map_err(DomainError::Invalid)?;
    let secret_env = req.secret_env.clone().unwrap_or_default();
    check_env(&secret_env).map_err(|e| DomainError::Invalid(format!("secret_{e}")))?;
    if let Some(k) = secret_env.keys().find(|k| env.contains_key(*k)) {
        return Err(DomainError::Invalid(format!(
            "`{k}` is in both env and secret_env; give it once"
        )));
    }
    if env.len() + secret_env.len() > ds_studio_shared::api::MAX_ENV_VARS {
        return Err(DomainError::Invalid(format!(
            "env and secret_env hold {} variables; a job may set at most {}",
            env.len() + secret_env.len(),
            ds_studio_shared::api::MAX_ENV_VARS
        )));
    }
    // A team can only use its own runners and those of every team.
    let runners = usable_runners(s, t.team_id).await?;
    if let Some(r) = &req.runner {
        let usable = runners.iter().any(|x| &x.name == r);
        if !usable {
            return Err(DomainError::Invalid(format!(
                "no runner named `{r}` takes jobs of team `{}`; GET /api/v1/runners lists the ones it can use",
                t.team_name
            )));
        }
    }
    let (number, version) = pinned_version(s, t, req.version).await?;
    // Validate in the job's own context: its world size decides the batch arithmetic, and the
    // DeepSpeed release of the runner it can go to decides what is accepted.
    let (context, runner) = run_context(
        &version.version.context,
        &req.workload,
        (gpus, nodes, max_steps),
        &runners,
        req.runner.as_deref(),
    );
    let release = context.release().unwrap_or_default();
    let labels = RunLabels {
        name: req.name.clone(),
        note: req.note.clone(),
        tags: req.tags.clone(),
    }
    .checked()
    .map_err(DomainError::Invalid)?;
    // Fitting, validating and reading the run's facts parse the whole config: on the blocking
    // pool behind a validation slot, never on an async worker.
    let fit_to_runner = req.fit_to_runner == Some(true);
    let saved_version = version.version.clone();
    let job_context = context.clone();
    // The memory check compares the job with the runner it names, else with every online
    // runner it can go to; `force` skips it.
    let memory = (req.force != Some(true))
        .then(|| MemoryTargets::of(&runners, req.runner.as_deref(), &req.workload, nodes))
        .flatten();
    let writable = ds_studio_shared::api::job_writable(&runners, req.runner.as_deref());
    let builtin = req.workload.runs_our_scripts();
    let Judged {
        fitted,
        errors,
        facts,
        filled,
        does_not_fit,
    } = s
        .limits
        .cpu(move || {
            judge_job(
                &saved_version,
                &job_context,
                fit_to_runner,
                memory,
                &writable,
                builtin,
            )
        })
        .await??;
    if !errors.is_empty() {
        return Err(DomainError::ConfigRejected {
            world_size: gpus * nodes,
            launcher: context.launcher,
            release: release.to_string(),
            runner: runner.and_then(|(name, _)| name),
            diagnostics: errors,
        });
    }
    if let Some(d) = does_not_fit {
        return Err(DomainError::DoesNotFit(d));
    }
    let job = s
        .store
        .create_job(&NewJob {
            template_id: t.id,
            version: number,
            created_by: user_id,
            workload: with_size(&req.workload),
            gpus,
            nodes,
            max_steps,
            env,
            secret_env,
            time_limit_s: req.time_limit_s,
            stall_timeout_s: req.stall_timeout_s,
            runner_requested: req.runner.clone(),
            fit: fitted,
            trainer: context.trainer.clone(),
            filled,
            facts,
            labels,
        })
        .await?;
    s.hub.state(job.clone());
    s.hub.job_queued();
    Ok(job)
}

/// The version a job (or a sweep) pins: `requested`, else the template's head.
pub async fn pinned_version(
    s: &AppState,
    t: &Template,
    requested: Option<i64>,
) -> Result<(i64, std::sync::Arc<CachedVersion>), DomainError> {
    let number = requested.unwrap_or(t.head_version);
    let version = s.store.version_shared(t.id, number).await.map_err(|e| {
        DomainError::from_store(e, &format!("version {number} of template {}", t.id))
    })?;
    Ok((number, version))
}

/// The context a run of `workload` with `shape` (GPUs per node, nodes, steps) is judged in:
/// the version's, with [`job_context`]'s changes, for the DeepSpeed release of the runner it
/// goes to when that is known ([`runner_release`], which is also returned).
pub fn run_context(
    saved: &Context,
    workload: &Workload,
    shape: (u32, u32, u32),
    runners: &[Runner],
    requested: Option<&str>,
) -> (Context, Option<(Option<String>, Release)>) {
    let (gpus, nodes, max_steps) = shape;
    let mut context = job_context(saved, workload, gpus, nodes, max_steps);
    let runner = runner_release(runners, requested);
    if let Some((_, release)) = &runner {
        context.deepspeed_version = release.to_string();
    }
    (context, runner)
}

/// The workload as it is stored: the built-in one names its size (the smallest by default).
pub fn with_size(workload: &Workload) -> Workload {
    Workload {
        size: workload
            .builtin
            .as_ref()
            .map(|_| workload.size.clone().unwrap_or(BUILTIN_SIZES[0].into())),
        ..workload.clone()
    }
}

/// GPUs per node, nodes and steps of a job (defaults 1, 1, [`DEFAULT_MAX_STEPS`]), each
/// checked against its bounds; sweeps check their points' the same way.
pub fn check_shape(
    gpus: Option<u32>,
    nodes: Option<u32>,
    max_steps: Option<u32>,
) -> Result<(u32, u32, u32), DomainError> {
    let gpus = gpus.unwrap_or(1);
    let nodes = nodes.unwrap_or(1);
    if !(1..=64).contains(&gpus) {
        return Err(DomainError::Invalid(format!(
            "gpus {gpus} must be between 1 and 64 (GPUs per node)"
        )));
    }
    if !(1..=1024).contains(&nodes) {
        return Err(DomainError::Invalid(format!(
            "nodes {nodes} must be between 1 and 1024"
        )));
    }
    let max_steps = max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    if !(1..=10_000_000).contains(&max_steps) {
        return Err(DomainError::Invalid(format!(
            "max_steps {max_steps} must be between 1 and 10000000"
        )));
    }
    Ok((gpus, nodes, max_steps))
}

/// The runners a team's jobs may go to: its own and those of every team.
pub async fn usable_runners(s: &AppState, team_id: i64) -> Result<Vec<Runner>, DomainError> {
    Ok(s.store
        .runners()
        .await?
        .into_iter()
        .filter(|x| x.team_id.is_none_or(|team| team == team_id))
        .collect())
}

/// What submission learns about a job's config (see [`judge_job`]).
struct Judged {
    fitted: Option<ds_studio_shared::fit::Fitted>,
    errors: Vec<ds_studio_shared::Diagnostic>,
    facts: RunFacts,
    filled: Vec<FilledValue>,
    does_not_fit: Option<Box<memory::DoesNotFit>>,
}

/// What the memory check compares a job with: the model of the built-in workload or of a
/// rehearsal, and the runners (named when the job names one, or when only one could take it)
/// with what they have.
struct MemoryTargets {
    workload: Workload,
    nodes: u32,
    runners: Vec<(Option<String>, ds_studio_shared::api::RunnerDevices)>,
}

impl MemoryTargets {
    /// `None` when nothing can be checked: a script of the user's own (its model is unknown),
    /// or no runner it can go to says what memory it has.
    fn of(
        runners: &[Runner],
        requested: Option<&str>,
        workload: &ds_studio_shared::api::Workload,
        nodes: u32,
    ) -> Option<MemoryTargets> {
        if !workload.runs_our_scripts() {
            return None;
        }
        let chosen: Vec<&Runner> = match requested {
            Some(name) => runners.iter().filter(|r| r.name == name).collect(),
            None => runners.iter().filter(|r| r.online).collect(),
        };
        let one = chosen.len() == 1;
        let with_devices: Vec<_> = chosen
            .into_iter()
            .filter_map(|r| Some(((one).then(|| r.name.clone()), r.devices.clone()?)))
            .collect();
        (!with_devices.is_empty()).then_some(MemoryTargets {
            workload: workload.clone(),
            nodes,
            runners: with_devices,
        })
    }

    /// `Some` when the job fits none of the runners: the refusal, against the one with the
    /// most memory per rank.
    fn check(
        &self,
        config_text: &str,
        context: &ds_studio_shared::Context,
    ) -> Option<Box<memory::DoesNotFit>> {
        let model = self.workload.model_spec(context.launcher.fills_auto())?;
        let doc = ds_studio_shared::Document::parse(config_text);
        let setup = memory::setup_from_config(&doc, context, self.nodes).ok()?;
        let ranks = setup.gpus_per_node as u32;
        let mut refusals = Vec::new();
        for (name, devices) in &self.runners {
            // A runner without a memory figure could take it: nothing to refuse.
            let cap = memory::runner_capacity(devices, ranks)?;
            match memory::check(
                config_text,
                context,
                self.nodes,
                &model,
                &setup,
                &cap,
                name.clone(),
            ) {
                Ok(_) => return None,
                Err(refusal) => refusals.push(refusal),
            }
        }
        refusals
            .into_iter()
            .max_by_key(|r| r.capacity.bytes_per_rank)
    }
}

/// A job's config as it will run: fitted to the job's GPUs from the world the version was saved
/// for when asked (the job runs, and is judged by, the fitted config), its errors in the job's
/// context, its facts for the runs table, and what its launcher fills.
fn judge_job(
    version: &ds_studio_shared::api::Version,
    context: &ds_studio_shared::Context,
    fit_to_runner: bool,
    memory: Option<MemoryTargets>,
    writable: &[String],
    builtin: bool,
) -> Result<Judged, DomainError> {
    let fitted = if fit_to_runner {
        let mut saved = version.context.clone();
        saved.deepspeed_version = context.deepspeed_version.clone();
        let f = ds_studio_shared::fit::fit(&version.config_text, &saved, context)
            .map_err(|e| DomainError::Invalid(format!("fit_to_runner: {e}")))?;
        (!f.changes.is_empty()).then_some(f)
    } else {
        None
    };
    let config_text = fitted
        .as_ref()
        .map_or(version.config_text.as_str(), |f| f.config_text.as_str());
    // A path that would leave the job's directory is refused by name before anything runs
    // (the runner refuses it again, and the kernel confines what the check misses).
    if let Some(escape) = ds_studio_shared::job_files::escape_in_text(config_text, writable) {
        return Err(DomainError::Invalid(escape.to_string()));
    }
    let (_, diagnostics) = validate_text(config_text, context);
    let mut errors: Vec<_> = diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if builtin {
        errors.extend(ds_studio_shared::api::builtin_needs_optimizer(
            config_text,
            context,
        ));
    }
    let facts = RunFacts::of(config_text, context);
    let filled = filled_values(config_text, context);
    // A config with errors is refused for them first; its memory is not judged.
    let does_not_fit = if errors.is_empty() {
        memory.and_then(|m| m.check(config_text, context))
    } else {
        None
    };
    Ok(Judged {
        fitted,
        errors,
        facts,
        filled,
        does_not_fit,
    })
}

/// The DeepSpeed release a job will run with, when that is known, and the runner to name in a
/// refusal: the requested runner's release, or the one every online runner reports when they
/// all agree (named when it is the only one).
pub fn runner_release(
    runners: &[Runner],
    requested: Option<&str>,
) -> Option<(Option<String>, Release)> {
    let known = |r: &Runner| Release::parse(&r.deepspeed).ok();
    if let Some(name) = requested {
        let r = runners.iter().find(|r| r.name == name)?;
        return known(r).map(|rel| (Some(r.name.clone()), rel));
    }
    let online: Vec<&Runner> = runners.iter().filter(|r| r.online).collect();
    let release = known(online.first()?)?;
    let name = (online.len() == 1).then(|| online[0].name.clone());
    online
        .iter()
        .all(|r| known(r) == Some(release))
        .then_some((name, release))
}
