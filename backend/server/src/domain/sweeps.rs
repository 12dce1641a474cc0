//! A sweep's lifecycle: planning its grid into points (each a job to queue, or the reason it
//! is not run), queueing it, cancelling it, stopping a point that is clearly slower than the
//! best (the early stop), and saving the best point as a new version of the template.

use super::job_plan::{check_shape, pinned_version, run_context, usable_runners, with_size};
use super::templates::{check_length, MAX_MESSAGE};
use super::{config_check, DomainError};
use crate::state::AppState;
use crate::store::jobs::NewJob;
use crate::store::sweeps::{NewPoint, NewSweep, SweepSpec};
use crate::store::StoreError;
use ds_studio_shared::api::{
    early_stop, filled_values, job_context, RunFacts, RunLabels, Runner, Sweep, SweepCreate,
    SweepState, Template, Version, MAX_SWEEP_CONFIG_BYTES,
};
use ds_studio_shared::i18n::Text;
use ds_studio_shared::memory::{self, Capacity};
use ds_studio_shared::sweep;

pub const MAX_SWEEP_NAME: usize = 120;
/// Most runners one sweep may name.
pub const MAX_SWEEP_RUNNERS: usize = 64;
/// Most sweeps `GET /sweeps` answers.
/// The runners a sweep's points go to (each with what one rank of it may use, where known):
/// the named ones, or every online one when none is named (then the points name no runner).
struct Targets {
    named: bool,
    runners: Vec<(String, Option<Capacity>)>,
    /// The directories outside a job's own these runners let jobs write (`--job-writable`).
    writable: Vec<String>,
}

impl Targets {
    fn of(usable: &[Runner], requested: &[String], ranks: u32) -> Result<Targets, DomainError> {
        let capacity = |r: &Runner| {
            r.devices
                .as_ref()
                .and_then(|d| memory::runner_capacity(d, ranks))
        };
        if requested.is_empty() {
            return Ok(Targets {
                named: false,
                runners: usable
                    .iter()
                    .filter(|r| r.online)
                    .map(|r| (r.name.clone(), capacity(r)))
                    .collect(),
                writable: ds_studio_shared::api::job_writable(usable, None),
            });
        }
        let mut runners = Vec::new();
        for name in requested {
            let r = usable.iter().find(|r| &r.name == name).ok_or_else(|| {
                DomainError::Invalid(format!(
                    "no runner named `{name}` takes this team's jobs; GET /api/v1/runners lists the ones it can use"
                ))
            })?;
            if !runners.iter().any(|(n, _)| n == name) {
                runners.push((r.name.clone(), capacity(r)));
            }
        }
        let mut writable: Vec<String> = requested
            .iter()
            .flat_map(|name| ds_studio_shared::api::job_writable(usable, Some(name)))
            .collect();
        writable.sort();
        writable.dedup();
        Ok(Targets {
            named: true,
            runners,
            writable,
        })
    }

    /// The capacity to prune against: the largest, unless some runner's is unknown (then
    /// nothing is pruned for memory: that runner could take any point).
    fn largest(&self) -> Option<Capacity> {
        if self.runners.iter().any(|(_, c)| c.is_none()) {
            return None;
        }
        self.runners
            .iter()
            .filter_map(|(_, c)| c.clone())
            .max_by_key(|c| c.bytes_per_rank)
    }
}

/// What planning a sweep produces: its points, each with a job to queue or a reason.
struct Planned {
    points: Vec<NewPoint>,
    runnable: usize,
}

#[allow(clippy::too_many_arguments)]
fn plan(
    req: &SweepCreate,
    base: &str,
    context: &ds_studio_shared::Context,
    template_id: i64,
    version: i64,
    created_by: i64,
    shape: (u32, u32, u32),
    targets: &Targets,
) -> Result<Planned, DomainError> {
    let (gpus, nodes, max_steps) = shape;
    if let Some(escape) = ds_studio_shared::job_files::escape_in_text(base, &targets.writable) {
        return Err(DomainError::Invalid(escape.to_string()));
    }
    let keep = req.keep_global_batch == Some(true);
    let model = req.workload.model_spec(context.launcher.fills_auto());
    let largest = targets.largest();
    let memory = model.as_ref().map(|m| (m, largest.as_ref()));
    let planned = sweep::expand(base, context, nodes, &req.grid, keep, memory)
        .map_err(|e| DomainError::Invalid(e.0.en))?;
    let total = planned.len();
    let mut load: Vec<usize> = vec![0; targets.runners.len()];
    let mut points = Vec::with_capacity(total);
    let mut runnable = 0;
    for (i, p) in planned.into_iter().enumerate() {
        let values: serde_json::Map<String, serde_json::Value> = p.values.iter().cloned().collect();
        let estimate_bytes = p.estimate.as_ref().map(|e| e.gpu_peak_bytes);
        // The point stores its values (the changes); the text lives once, in its job.
        let mut point = NewPoint {
            values,
            estimate_bytes,
            runner: None,
            reason: p.pruned.clone(),
            job: None,
        };
        let (Some(text), None) = (&p.config_text, &p.pruned) else {
            points.push(point);
            continue;
        };
        if let Some(escape) = ds_studio_shared::job_files::escape_in_text(text, &targets.writable) {
            point.reason = Some(Text::new(escape.to_string(), escape.to_string()));
            points.push(point);
            continue;
        }
        // The built-in workload (and a rehearsal) brings no optimizer: a point that names none
        // under ZeRO 1/2 would stop at start.
        if req.workload.runs_our_scripts() {
            if let Some(d) = ds_studio_shared::api::builtin_needs_optimizer(text, context) {
                point.reason = Some(d.message.clone());
                points.push(point);
                continue;
            }
        }
        // Named runners: the least loaded one whose memory fits the point.
        if targets.named {
            let fits = |cap: &Option<Capacity>| match (cap, &p.estimate) {
                (Some(cap), Some(e)) => cap.holds(e, gpus),
                _ => true,
            };
            let chosen = (0..targets.runners.len())
                .filter(|&r| fits(&targets.runners[r].1))
                .min_by_key(|&r| (load[r], r));
            match chosen {
                Some(r) => {
                    load[r] += 1;
                    point.runner = Some(targets.runners[r].0.clone());
                }
                None => {
                    point.reason = Some(Text::new(
                        "does not fit the memory of any runner it was given",
                        "放不下所给任何运行器的内存",
                    ));
                    points.push(point);
                    continue;
                }
            }
        }
        let label = p
            .values
            .iter()
            .map(|(k, v)| format!("{}={}", short_key(k), ds_studio_shared::api::value_word(v)))
            .collect::<Vec<_>>()
            .join(" ");
        let fit = ds_studio_shared::fit::Fitted {
            config_text: text.clone(),
            keeps_global_batch: keep,
            summary: Text::new(
                format!("point {} of {total} of a sweep: {label}", i + 1),
                format!("参数扫描的第 {} / {total} 个点：{label}", i + 1),
            ),
            changes: p.changes.clone(),
        };
        // Under the HF launchers a point may change the training arguments.
        let point_ctx = ds_studio_shared::Context {
            trainer: p.trainer.clone().or_else(|| context.trainer.clone()),
            ..context.clone()
        };
        point.job = Some(NewJob {
            template_id,
            version,
            created_by,
            workload: req.workload.clone(),
            gpus,
            nodes,
            max_steps,
            env: Default::default(),
            secret_env: Default::default(),
            time_limit_s: None,
            stall_timeout_s: None,
            runner_requested: point.runner.clone(),
            trainer: point_ctx.trainer.clone(),
            filled: filled_values(text, &point_ctx),
            facts: RunFacts::of(text, &point_ctx),
            labels: RunLabels {
                name: Some(truncate(&label, 100)),
                note: None,
                tags: Some(vec!["sweep".into()]),
            },
            fit: Some(fit),
        });
        runnable += 1;
        points.push(point);
    }
    let stored: usize = points
        .iter()
        .filter_map(|p| p.job.as_ref())
        .filter_map(|j| j.fit.as_ref())
        .map(|f| f.config_text.len())
        .sum();
    if let Some(why) = over_the_bound(stored / runnable.max(1), runnable) {
        return Err(why);
    }
    Ok(Planned { points, runnable })
}

/// The refusal of a sweep of `points` configs of about `each` bytes, when together they pass
/// [`MAX_SWEEP_CONFIG_BYTES`].
fn over_the_bound(each: usize, points: usize) -> Option<DomainError> {
    let stored = each.saturating_mul(points);
    (stored > MAX_SWEEP_CONFIG_BYTES).then(|| {
        DomainError::Invalid(format!(
            "this sweep would store {:.1} MiB of configs ({points} points × {:.1} KiB each); a sweep stores at most {} MiB: run fewer points, or sweep a smaller base version",
            stored as f64 / 1048576.0,
            each as f64 / 1024.0,
            MAX_SWEEP_CONFIG_BYTES >> 20
        ))
    })
}

/// `zero_optimization.stage` → `stage`: the last part, as a run's name shows it.
fn short_key(key: &str) -> &str {
    key.rsplit('.').next().unwrap_or(key)
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Plans the sweep `req` over template `t` (the caller, `user_id`, may edit it) and queues
/// the points that can run.
pub async fn create(
    s: &AppState,
    user_id: i64,
    t: &Template,
    req: SweepCreate,
) -> Result<Sweep, DomainError> {
    req.workload.check().map_err(DomainError::Invalid)?;
    let shape = check_shape(req.gpus, req.nodes, req.max_steps)?;
    let (gpus, nodes, max_steps) = shape;
    let name = req.name.clone().unwrap_or_default().trim().to_string();
    if name.chars().count() > MAX_SWEEP_NAME || name.chars().any(char::is_control) {
        return Err(DomainError::Invalid(format!(
            "name must be at most {MAX_SWEEP_NAME} characters, without control characters"
        )));
    }
    let requested = req.runners.clone().unwrap_or_default();
    if requested.len() > MAX_SWEEP_RUNNERS {
        return Err(DomainError::Invalid(format!(
            "{} runners given; a sweep may name at most {MAX_SWEEP_RUNNERS}",
            requested.len()
        )));
    }
    let usable = usable_runners(s, t.team_id).await?;
    let targets = Targets::of(&usable, &requested, gpus)?;
    let (number, version) = pinned_version(s, t, req.version).await?;
    let (context, _) = run_context(
        &version.version.context,
        &req.workload,
        shape,
        &usable,
        requested.first().map(String::as_str),
    );
    let workload = with_size(&req.workload);
    let planning = SweepCreate {
        workload: workload.clone(),
        ..req.clone()
    };
    let base = version.version.config_text.clone();
    // Refused before any planning when the points alone, each a copy of the base, would pass
    // the bound: the figure costs nothing to compute, planning a large base costs seconds.
    let points = req
        .grid
        .iter()
        .fold(1usize, |n, a| n.saturating_mul(a.values.len().max(1)));
    if let Some(why) = over_the_bound(base.len(), points.min(sweep::MAX_POINTS)) {
        return Err(why);
    }
    let (template_id, user) = (t.id, user_id);
    let planned = s
        .limits
        .cpu(move || {
            plan(
                &planning,
                &base,
                &context,
                template_id,
                number,
                user,
                shape,
                &targets,
            )
        })
        .await??;
    if planned.runnable == 0 {
        let first = planned
            .points
            .iter()
            .find_map(|p| p.reason.as_ref())
            .map(|r| r.en.clone())
            .unwrap_or_default();
        return Err(DomainError::Invalid(format!(
            "no point of the grid can run (the first: {first}); change the grid or the base version"
        )));
    }
    let id = s
        .store
        .create_sweep(&NewSweep {
            template_id: t.id,
            version: number,
            created_by: user_id,
            name,
            spec: SweepSpec {
                workload,
                gpus,
                nodes,
                max_steps,
                grid: req.grid.clone(),
                keep_global_batch: req.keep_global_batch == Some(true),
                early_stop: req.early_stop != Some(false),
                runners: requested,
            },
            points: planned.points,
        })
        .await?;
    s.hub.job_queued();
    tracing::info!(sweep = id, points = planned.runnable, "sweep queued");
    Ok(s.store.sweep(id).await?)
}

/// Cancels every point of `sweep` that has not ended; a sweep that has ended is a conflict.
pub async fn cancel(s: &AppState, sweep: &Sweep) -> Result<Sweep, DomainError> {
    let id = sweep.id;
    if sweep.state != SweepState::Running {
        return Err(DomainError::Conflict(format!(
            "sweep {id} has already ended: it is {}",
            sweep.state.as_str()
        )));
    }
    s.store.mark_sweep_cancelled(id).await?;
    for p in sweep.points.iter().filter(|p| !p.state.is_terminal()) {
        let Some(job) = p.job else { continue };
        match s
            .store
            .cancel_job(job, crate::dispatch::RUNNER_TIMEOUT.as_millis() as i64)
            .await
        {
            Ok(j) => s.hub.state(j),
            // It ended meanwhile: nothing to cancel.
            Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(s.store.sweep(id).await?)
}

/// Called when samples/s readings of `job_id` are stored: a point of a sweep with the early
/// stop on, clearly slower than the best finished point, is cancelled with its reason.
pub async fn stop_if_slow(s: &AppState, job_id: i64) -> Result<(), StoreError> {
    let Some(point) = s.store.point_of_job(job_id).await? else {
        return Ok(());
    };
    if !point.early_stop || point.cancelled {
        return Ok(());
    }
    let Some(best) = s.store.best_finished_throughput(point.sweep_id).await? else {
        return Ok(());
    };
    let readings = s.store.samples_readings(job_id).await?;
    let Some(why) = early_stop(&readings, best) else {
        return Ok(());
    };
    s.store
        .set_point_reason(point.sweep_id, point.index, &why)
        .await?;
    match s
        .store
        .cancel_job(job_id, crate::dispatch::RUNNER_TIMEOUT.as_millis() as i64)
        .await
    {
        Ok(job) => {
            tracing::info!(
                sweep = point.sweep_id,
                job = job_id,
                "sweep point stopped early"
            );
            s.hub.state(job);
            Ok(())
        }
        Err(StoreError::Conflict(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Saves the best point of `sweep` as a new version of its template `t` (merged onto the head
/// when the template moved on since the sweep's base; a change both made is a conflict). Under
/// the HF launchers the training arguments the point changed are saved with the version.
/// Parsing and merging run on the blocking pool behind a validation slot.
pub async fn save_best(
    s: &AppState,
    user_id: i64,
    sweep: &Sweep,
    t: &Template,
    message: Option<String>,
) -> Result<Version, DomainError> {
    let id = sweep.id;
    let best = sweep.best_point().cloned().ok_or_else(|| {
        DomainError::Conflict(format!(
            "sweep {id} has no succeeded point yet: nothing to save"
        ))
    })?;
    let point_text = best.config_text.clone().unwrap_or_default();
    let base = s.store.version(t.id, sweep.version).await?;
    let head = s.store.version(t.id, t.head_version).await?;
    // Under the HF launchers the point may have changed training arguments (its micro batch,
    // accumulation, learning rate): they are saved with the version, the config keeps "auto".
    let ran = match best.job {
        Some(job) => s.store.job(job).await?.trainer,
        None => None,
    };
    let swept_from = job_context(
        &base.context,
        &sweep.workload,
        sweep.gpus,
        sweep.nodes,
        sweep.max_steps,
    )
    .trainer;
    let context = ds_studio_shared::Context {
        trainer: sweep::carry_trainer_changes(
            swept_from.as_ref(),
            ran.as_ref(),
            head.context.trainer.as_ref(),
        ),
        ..head.context.clone()
    };
    // Merging and comparing parse three configs of up to 1 MiB each: on the blocking pool
    // behind a validation slot, never on an async worker.
    let head_is_base = head.version == base.version;
    let (base_text, head_text) = (base.config_text.clone(), head.config_text.clone());
    let base_version = base.version;
    let (text, unchanged) = s
        .limits
        .cpu(move || {
            merged_onto_head(
                &base_text,
                &head_text,
                point_text,
                head_is_base,
                base_version,
            )
        })
        .await??;
    if unchanged && context == head.context {
        return Err(DomainError::Conflict(format!(
            "the best point's config is already version {} of the template: nothing to save",
            head.version
        )));
    }
    let message = message.filter(|m| !m.trim().is_empty()).unwrap_or_else(|| {
        format!(
            "sweep {id}'s best: point {} {} ({:.1} samples/s)",
            best.index + 1,
            best.label(),
            best.samples_per_sec.unwrap_or(0.0)
        )
    });
    check_length("message", &message, MAX_MESSAGE)?;
    let checked = config_check::check_config_blocking(s, None, Some(text), context).await?;
    match s
        .store
        .save_version(t.id, head.version, user_id, &message, &checked)
        .await
    {
        Ok(v) => Ok(v),
        Err(StoreError::VersionConflict { .. }) => Err(DomainError::Conflict(
            "the template was saved meanwhile: try again".into(),
        )),
        Err(e) => Err(e.into()),
    }
}

/// The best point's config put onto the head (`point_text` itself when the head is the sweep's
/// base version; else a three-way merge, a change both made being a conflict), and whether it
/// says what the head already says.
fn merged_onto_head(
    base_text: &str,
    head_text: &str,
    point_text: String,
    head_is_base: bool,
    base_version: i64,
) -> Result<(String, bool), DomainError> {
    let text = if head_is_base {
        point_text
    } else {
        let merged = ds_studio_shared::merge::three_way(base_text, head_text, &point_text)
            .map_err(|e| DomainError::Invalid(e.to_string()))?;
        if let Some(conflict) = merged.conflicts.first() {
            return Err(DomainError::Conflict(format!(
                "the template changed `{}` since version {base_version} and the best point changes it too: save it from the editor",
                conflict.path
            )));
        }
        merged.text
    };
    let unchanged = ds_studio_shared::Document::parse(&text).to_value()
        == ds_studio_shared::Document::parse(head_text).to_value();
    Ok((text, unchanged))
}
