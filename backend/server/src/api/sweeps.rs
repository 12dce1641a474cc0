//! Sweeps: `POST /sweeps` expands a grid over a template version (the validator and the memory
//! model prune what cannot run, each with its reason) and queues every other point as a job
//! labelled with the sweep, spread over the chosen runners; `GET /sweeps/{id}` ranks the
//! points by throughput as they finish, `GET /sweeps/{id}/events` follows it live,
//! `POST /sweeps/{id}/cancel` cancels its jobs, and `POST /sweeps/{id}/save-best` saves the
//! fastest point as a new version. A point far slower than the best finished one is stopped
//! early ([`stop_if_slow`], called as its samples/s readings are stored).

use super::auth::Caller;
use super::error::ApiError;
use super::jobs::{check_shape, runner_release, usable_runners};
use super::json::{ApiJson, ApiPath, ApiQuery, JsonOrDefault};
use crate::api::access;
use crate::dispatch::HubMessage;
use crate::state::AppState;
use crate::store::jobs::NewJob;
use crate::store::sweeps::{NewPoint, NewSweep, SweepSpec};
use crate::store::StoreError;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use ds_studio_shared::api::{
    early_stop, filled_values, job_context, Role, RunFacts, RunLabels, Runner, Sweep, SweepCreate,
    SweepSaveBest, SweepState, Version, BUILTIN_SIZES, MAX_SWEEP_CONFIG_BYTES,
};
use ds_studio_shared::i18n::Text;
use ds_studio_shared::memory::{self, Capacity, ModelSpec};
use ds_studio_shared::sweep;
use serde::Deserialize;
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/sweeps", get(list).post(create))
        .route("/sweeps/{id}", get(show))
        .route("/sweeps/{id}/cancel", post(cancel))
        .route("/sweeps/{id}/events", get(events))
        .route("/sweeps/{id}/save-best", post(save_best))
}

/// Longest sweep name, in characters.
pub const MAX_SWEEP_NAME: usize = 120;
/// Most runners one sweep may name.
pub const MAX_SWEEP_RUNNERS: usize = 64;
/// Most sweeps `GET /sweeps` answers.
pub const MAX_LISTED: i64 = 100;

/// The sweep, if the caller has at least `min` in its template's team (no access: 404).
async fn sweep_for(s: &AppState, c: &Caller, id: i64, min: Role) -> Result<Sweep, ApiError> {
    let sweep = s
        .store
        .sweep(id)
        .await
        .map_err(|e| ApiError::from_store(e, &format!("sweep {id}")))?;
    match access::team_role(&s.store, c, sweep.team_id).await? {
        None => Err(ApiError::not_found(&format!("sweep {id}"))),
        Some(r) if r < min => Err(ApiError::Forbidden(format!(
            "this needs the {} role in the sweep's team; you are {}",
            min.as_str(),
            r.as_str()
        ))),
        Some(_) => Ok(sweep),
    }
}

/// The runners a sweep's points go to (each with what one rank of it may use, where known):
/// the named ones, or every online one when none is named (then the points name no runner).
struct Targets {
    named: bool,
    runners: Vec<(String, Option<Capacity>)>,
    /// The directories outside a job's own these runners let jobs write (`--job-writable`).
    writable: Vec<String>,
}

impl Targets {
    fn of(usable: &[Runner], requested: &[String], ranks: u32) -> Result<Targets, ApiError> {
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
                ApiError::Unprocessable(format!(
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
) -> Result<Planned, ApiError> {
    let (gpus, nodes, max_steps) = shape;
    if let Some(escape) = ds_studio_shared::job_files::escape_in_text(base, &targets.writable) {
        return Err(ApiError::Unprocessable(escape.to_string()));
    }
    let keep = req.keep_global_batch == Some(true);
    let model = req.workload.builtin.as_ref().and_then(|_| {
        ModelSpec::builtin(
            req.workload.size.as_deref().unwrap_or(BUILTIN_SIZES[0]),
            context.launcher.fills_auto(),
        )
    });
    let largest = targets.largest();
    let memory = model.as_ref().map(|m| (m, largest.as_ref()));
    let planned = sweep::expand(base, context, nodes, &req.grid, keep, memory)
        .map_err(|e| ApiError::Unprocessable(e.0.en))?;
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
        // The built-in workload brings no optimizer: a point that names none under ZeRO 1/2
        // would stop at start.
        if req.workload.builtin.is_some() {
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
fn over_the_bound(each: usize, points: usize) -> Option<ApiError> {
    let stored = each.saturating_mul(points);
    (stored > MAX_SWEEP_CONFIG_BYTES).then(|| {
        ApiError::Unprocessable(format!(
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

async fn create(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<SweepCreate>,
) -> Result<(StatusCode, ApiJson<Sweep>), ApiError> {
    let t = access::template(&s.store, &c, req.template_id, Role::Editor).await?;
    req.workload.check().map_err(ApiError::Unprocessable)?;
    let shape = check_shape(req.gpus, req.nodes, req.max_steps)?;
    let (gpus, nodes, max_steps) = shape;
    let name = req.name.clone().unwrap_or_default().trim().to_string();
    if name.chars().count() > MAX_SWEEP_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::Unprocessable(format!(
            "name must be at most {MAX_SWEEP_NAME} characters, without control characters"
        )));
    }
    let requested = req.runners.clone().unwrap_or_default();
    if requested.len() > MAX_SWEEP_RUNNERS {
        return Err(ApiError::Unprocessable(format!(
            "{} runners given; a sweep may name at most {MAX_SWEEP_RUNNERS}",
            requested.len()
        )));
    }
    let usable = usable_runners(&s, t.team_id).await?;
    let targets = Targets::of(&usable, &requested, gpus)?;
    let number = req.version.unwrap_or(t.head_version);
    let version =
        s.store.version_shared(t.id, number).await.map_err(|e| {
            ApiError::from_store(e, &format!("version {number} of template {}", t.id))
        })?;
    let mut context = job_context(
        &version.version.context,
        &req.workload,
        gpus,
        nodes,
        max_steps,
    );
    if let Some((_, release)) = runner_release(&usable, requested.first().map(String::as_str)) {
        context.deepspeed_version = release.to_string();
    }
    let workload = ds_studio_shared::api::Workload {
        size: req
            .workload
            .builtin
            .as_ref()
            .map(|_| req.workload.size.clone().unwrap_or(BUILTIN_SIZES[0].into())),
        ..req.workload.clone()
    };
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
    let (template_id, user) = (t.id, c.user.id);
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
        return Err(ApiError::Unprocessable(format!(
            "no point of the grid can run (the first: {first}); change the grid or the base version"
        )));
    }
    let id = s
        .store
        .create_sweep(&NewSweep {
            template_id: t.id,
            version: number,
            created_by: c.user.id,
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
    Ok((StatusCode::CREATED, ApiJson(s.store.sweep(id).await?)))
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    template_id: Option<i64>,
}

/// `GET /sweeps[?template_id=N]`: the newest sweeps the caller can see (their points without
/// the configs).
async fn list(
    State(s): State<AppState>,
    c: Caller,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<ApiJson<Vec<Sweep>>, ApiError> {
    if let Some(t) = q.template_id {
        access::template(&s.store, &c, t, Role::Viewer).await?;
    }
    let visible_to = (!c.user.is_admin).then_some(c.user.id);
    let mut out = Vec::new();
    for id in s
        .store
        .sweep_ids(q.template_id, visible_to, MAX_LISTED)
        .await?
    {
        let mut sweep = s.store.sweep(id).await?;
        for p in &mut sweep.points {
            p.config_text = None;
        }
        out.push(sweep);
    }
    Ok(ApiJson(out))
}

async fn show(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Sweep>, ApiError> {
    Ok(ApiJson(sweep_for(&s, &c, id, Role::Viewer).await?))
}

/// `POST /sweeps/{id}/cancel`: cancels every point that has not ended (editors). A sweep that
/// has ended answers a conflict.
async fn cancel(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Sweep>, ApiError> {
    let sweep = sweep_for(&s, &c, id, Role::Editor).await?;
    if sweep.state != SweepState::Running {
        return Err(ApiError::Conflict(format!(
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
    Ok(ApiJson(s.store.sweep(id).await?))
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

fn sweep_event(sweep: &Sweep) -> Event {
    Event::default()
        .event("sweep")
        .data(serde_json::to_string(sweep).unwrap_or_default())
}

/// `GET /sweeps/{id}/events`: the sweep now, then again each time one of its points changes
/// state or reports throughput (at most every half second); the stream ends after the sweep
/// has ended.
async fn events(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let mut rx = s.hub.subscribe();
    let sweep = sweep_for(&s, &c, id, Role::Viewer).await?;
    let slot = s.limits.open_stream(c.user.id).ok_or_else(|| {
        ApiError::LimitReached(format!(
            "you have {} live job streams open already; close one first",
            crate::limits::STREAMS_PER_USER
        ))
    })?;
    let (tx, out) = tokio::sync::mpsc::channel::<Event>(16);
    let store = s.store.clone();
    let hub = s.hub.clone();
    tokio::spawn(async move {
        let _slot = slot;
        let mut jobs: std::collections::HashSet<i64> =
            sweep.points.iter().filter_map(|p| p.job).collect();
        // Other replicas' throughput readings of these jobs reach this replica's hub.
        let _watches: Vec<_> = jobs.iter().map(|j| hub.watch(*j)).collect();
        let first = sweep_event(&sweep).retry(super::jobs::RECONNECT_AFTER);
        if tx.send(first).await.is_err() || sweep.state != SweepState::Running {
            return;
        }
        let mut dirty = false;
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(500));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                m = rx.recv() => match m {
                    Ok(HubMessage::State(j)) if jobs.contains(&j.id) => dirty = true,
                    Ok(HubMessage::Events(j, evs)) if jobs.contains(&j) => {
                        dirty |= evs.iter().any(|e| matches!(e,
                            crate::store::jobs::JobEvent::Metric(m) if m.name == "samples_per_sec"));
                    }
                    Ok(HubMessage::Resync) | Err(RecvError::Lagged(_)) => dirty = true,
                    Ok(_) => {}
                    Err(RecvError::Closed) => return,
                },
                _ = tick.tick() => {
                    if !dirty {
                        continue;
                    }
                    dirty = false;
                    let Ok(now) = store.sweep(id).await else { return };
                    jobs = now.points.iter().filter_map(|p| p.job).collect();
                    if tx.send(sweep_event(&now)).await.is_err() || now.state != SweepState::Running {
                        return;
                    }
                }
                _ = hub.closed() => return,
                _ = tx.closed() => return,
            }
        }
    });
    let stream = futures_util::StreamExt::map(
        tokio_stream::wrappers::ReceiverStream::new(out),
        Ok::<Event, Infallible>,
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// `POST /sweeps/{id}/save-best`: the fastest point's config as a new version of the template
/// (editors). When the template moved on since the sweep's base version, the point's changes
/// are merged into the head (a key changed on both sides is a conflict, named).
async fn save_best(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    JsonOrDefault(req): JsonOrDefault<SweepSaveBest>,
) -> Result<(StatusCode, ApiJson<Version>), ApiError> {
    let sweep = sweep_for(&s, &c, id, Role::Editor).await?;
    let best = sweep.best_point().cloned().ok_or_else(|| {
        ApiError::Conflict(format!(
            "sweep {id} has no succeeded point yet: nothing to save"
        ))
    })?;
    let point_text = best.config_text.clone().unwrap_or_default();
    let t = access::template(&s.store, &c, sweep.template_id, Role::Editor).await?;
    let base = s.store.version(t.id, sweep.version).await?;
    let head = s.store.version(t.id, t.head_version).await?;
    let text = if head.version == base.version {
        point_text
    } else {
        let merged =
            ds_studio_shared::merge::three_way(&base.config_text, &head.config_text, &point_text)
                .map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        if let Some(conflict) = merged.conflicts.first() {
            return Err(ApiError::Conflict(format!(
                "the template changed `{}` since version {} and the best point changes it too: save it from the editor",
                conflict.path, base.version
            )));
        }
        merged.text
    };
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
    let same = |a: &str, b: &str| {
        ds_studio_shared::Document::parse(a).to_value()
            == ds_studio_shared::Document::parse(b).to_value()
    };
    if same(&text, &head.config_text) && context == head.context {
        return Err(ApiError::Conflict(format!(
            "the best point's config is already version {} of the template: nothing to save",
            head.version
        )));
    }
    let message = req
        .message
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| {
            format!(
                "sweep {id}'s best: point {} {} ({:.1} samples/s)",
                best.index + 1,
                best.label(),
                best.samples_per_sec.unwrap_or(0.0)
            )
        });
    super::templates::check_length("message", &message, super::templates::MAX_MESSAGE)?;
    let checked = super::templates::check_config_blocking(&s, None, Some(text), context).await?;
    match s
        .store
        .save_version(t.id, head.version, c.user.id, &message, &checked)
        .await
    {
        Ok(v) => Ok((StatusCode::CREATED, ApiJson(v))),
        Err(StoreError::VersionConflict { .. }) => Err(ApiError::Conflict(
            "the template was saved meanwhile: try again".into(),
        )),
        Err(e) => Err(e.into()),
    }
}
