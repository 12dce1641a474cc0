//! Jobs as users see them: submit a pinned template version with a launch spec (validated in
//! the job's context first), list, show, cancel, read metrics (downsampled on request) and
//! logs, and follow everything live over SSE (`GET /jobs/{id}/events`, resumable with
//! `Last-Event-ID`).

use super::auth::{Caller, Via};
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, ApiQuery};
use super::paging::page_bounds;
use crate::api::access;
use crate::dispatch::HubMessage;
use crate::state::AppState;
use crate::store::jobs::{JobEvent, JobFilter, NewJob};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use ds_studio_shared::api::{
    check_env, filled_values, job_context, FilledValue, Job, JobCreate, LogLine, MetricSeries,
    Page, Role, RunFacts, RunLabels, Runner, RunsQuery, BUILTIN_SIZES,
};
use ds_studio_shared::memory;
use ds_studio_shared::validate::{validate_text, Severity};
use ds_studio_shared::Release;
use serde::Deserialize;
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jobs", get(list).post(submit))
        .route("/jobs/{id}", get(show).patch(label))
        .route("/jobs/{id}/cancel", post(cancel))
        .route("/jobs/{id}/metrics", get(metrics))
        .route("/jobs/{id}/logs", get(logs))
        .route("/jobs/{id}/events", get(events))
}

/// Default optimizer steps of a job.
pub const DEFAULT_MAX_STEPS: u32 = 20;
/// Most log lines one `GET /jobs/{id}/logs` answers (`limit`, `tail`).
pub const MAX_LOG_LINES: i64 = 10_000;

/// Longest time limit a job may ask for (30 days): bounded so no runner does arithmetic with
/// an absurd deadline.
pub const MAX_TIME_LIMIT_S: u64 = 30 * 24 * 3600;

/// The job, if the caller has at least `min` in its template's team (no access: 404).
/// How often an open event stream checks that its watcher may still see the job.
const ACCESS_RECHECK: std::time::Duration = std::time::Duration::from_secs(5);

/// Whether the caller of a stream may still watch a job of `team_id`: not disabled, still a
/// member (or a server administrator), their session not ended.
async fn still_allowed(store: &crate::store::Store, c: &Caller, team_id: i64) -> bool {
    let Ok(user) = store.user(c.user.id).await else {
        return false;
    };
    if user.disabled {
        return false;
    }
    if let Via::Session { credential_id, .. } = &c.via {
        if !store.credential_live(*credential_id).await.unwrap_or(false) {
            return false;
        }
    }
    let now = Caller {
        user,
        via: c.via.clone(),
    };
    matches!(access::team_role(store, &now, team_id).await, Ok(Some(_)))
}

pub async fn job_for(s: &AppState, c: &Caller, id: i64, min: Role) -> Result<Job, ApiError> {
    let job = s
        .store
        .job(id)
        .await
        .map_err(|e| ApiError::from_store(e, &format!("job {id}")))?;
    match access::team_role(&s.store, c, job.team_id).await? {
        None => Err(ApiError::not_found(&format!("job {id}"))),
        Some(r) if r < min => Err(ApiError::Forbidden(format!(
            "this needs the {} role in the job's team; you are {}",
            min.as_str(),
            r.as_str()
        ))),
        Some(_) => Ok(job),
    }
}

async fn submit(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<JobCreate>,
) -> Result<(StatusCode, ApiJson<Job>), ApiError> {
    let t = access::template(&s.store, &c, req.template_id, Role::Editor).await?;
    req.workload.check().map_err(ApiError::Unprocessable)?;
    let (gpus, nodes, max_steps) = check_shape(req.gpus, req.nodes, req.max_steps)?;
    if let Some(t) = req.time_limit_s {
        if !(1..=MAX_TIME_LIMIT_S).contains(&t) {
            return Err(ApiError::Unprocessable(format!(
                "time_limit_s {t} must be between 1 and {MAX_TIME_LIMIT_S} (30 days); leave it out for no limit"
            )));
        }
    }
    let env = req.env.clone().unwrap_or_default();
    check_env(&env).map_err(ApiError::Unprocessable)?;
    let secret_env = req.secret_env.clone().unwrap_or_default();
    check_env(&secret_env).map_err(|e| ApiError::Unprocessable(format!("secret_{e}")))?;
    if let Some(k) = secret_env.keys().find(|k| env.contains_key(*k)) {
        return Err(ApiError::Unprocessable(format!(
            "`{k}` is in both env and secret_env; give it once"
        )));
    }
    if env.len() + secret_env.len() > ds_studio_shared::api::MAX_ENV_VARS {
        return Err(ApiError::Unprocessable(format!(
            "env and secret_env hold {} variables; a job may set at most {}",
            env.len() + secret_env.len(),
            ds_studio_shared::api::MAX_ENV_VARS
        )));
    }
    // A team can only use its own runners and those of every team.
    let runners = usable_runners(&s, t.team_id).await?;
    if let Some(r) = &req.runner {
        let usable = runners.iter().any(|x| &x.name == r);
        if !usable {
            return Err(ApiError::Unprocessable(format!(
                "no runner named `{r}` takes jobs of team `{}`; GET /api/v1/runners lists the ones it can use",
                t.team_name
            )));
        }
    }
    let number = req.version.unwrap_or(t.head_version);
    let version =
        s.store.version_shared(t.id, number).await.map_err(|e| {
            ApiError::from_store(e, &format!("version {number} of template {}", t.id))
        })?;
    // Validate in the job's own context: its world size decides the batch arithmetic, and the
    // DeepSpeed release of the runner it can go to decides what is accepted.
    let mut context = job_context(
        &version.version.context,
        &req.workload,
        gpus,
        nodes,
        max_steps,
    );
    let runner = runner_release(&runners, req.runner.as_deref());
    if let Some((_, release)) = &runner {
        context.deepspeed_version = release.to_string();
    }
    let release = context.release().unwrap_or_default();
    let labels = RunLabels {
        name: req.name.clone(),
        note: req.note.clone(),
        tags: req.tags.clone(),
    }
    .checked()
    .map_err(ApiError::Unprocessable)?;
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
    let builtin = req.workload.builtin.is_some();
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
        return Err(ApiError::ConfigRejected {
            world_size: gpus * nodes,
            launcher: context.launcher,
            release: release.to_string(),
            runner: runner.and_then(|(name, _)| name),
            diagnostics: errors,
        });
    }
    if let Some(d) = does_not_fit {
        return Err(ApiError::DoesNotFit(d));
    }
    let job = s
        .store
        .create_job(&NewJob {
            template_id: t.id,
            version: number,
            created_by: c.user.id,
            workload: ds_studio_shared::api::Workload {
                size: req
                    .workload
                    .builtin
                    .as_ref()
                    .map(|_| req.workload.size.clone().unwrap_or(BUILTIN_SIZES[0].into())),
                ..req.workload.clone()
            },
            gpus,
            nodes,
            max_steps,
            env,
            secret_env,
            time_limit_s: req.time_limit_s,
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
    Ok((StatusCode::CREATED, ApiJson(job)))
}

/// GPUs per node, nodes and steps of a job (defaults 1, 1, [`DEFAULT_MAX_STEPS`]), each
/// checked against its bounds; sweeps check their points' the same way.
pub(super) fn check_shape(
    gpus: Option<u32>,
    nodes: Option<u32>,
    max_steps: Option<u32>,
) -> Result<(u32, u32, u32), ApiError> {
    let gpus = gpus.unwrap_or(1);
    let nodes = nodes.unwrap_or(1);
    if !(1..=64).contains(&gpus) {
        return Err(ApiError::Unprocessable(format!(
            "gpus {gpus} must be between 1 and 64 (GPUs per node)"
        )));
    }
    if !(1..=1024).contains(&nodes) {
        return Err(ApiError::Unprocessable(format!(
            "nodes {nodes} must be between 1 and 1024"
        )));
    }
    let max_steps = max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    if !(1..=10_000_000).contains(&max_steps) {
        return Err(ApiError::Unprocessable(format!(
            "max_steps {max_steps} must be between 1 and 10000000"
        )));
    }
    Ok((gpus, nodes, max_steps))
}

/// The runners a team's jobs may go to: its own and those of every team.
pub(super) async fn usable_runners(s: &AppState, team_id: i64) -> Result<Vec<Runner>, ApiError> {
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

/// What the memory check compares a job with: the built-in workload's model, and the runners
/// (named when the job names one, or when only one could take it) with what they have.
struct MemoryTargets {
    size: String,
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
        workload.builtin.as_ref()?;
        let size = workload
            .size
            .clone()
            .unwrap_or_else(|| BUILTIN_SIZES[0].into());
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
            size,
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
        let model = memory::ModelSpec::builtin(&self.size, context.launcher.fills_auto())?;
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
) -> Result<Judged, ApiError> {
    let fitted = if fit_to_runner {
        let mut saved = version.context.clone();
        saved.deepspeed_version = context.deepspeed_version.clone();
        let f = ds_studio_shared::fit::fit(&version.config_text, &saved, context)
            .map_err(|e| ApiError::Unprocessable(format!("fit_to_runner: {e}")))?;
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
        return Err(ApiError::Unprocessable(escape.to_string()));
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
pub(super) fn runner_release(
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

/// `GET /jobs`: the runs table. The query's pairs are read by [`RunsQuery::parse`], which the
/// `/jobs` page shares, so a page URL's query is the API's.
async fn list(
    State(s): State<AppState>,
    c: Caller,
    ApiQuery(pairs): ApiQuery<Vec<(String, String)>>,
) -> Result<ApiJson<Page<Job>>, ApiError> {
    let query = RunsQuery::parse(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(ApiError::BadRequest)?;
    let (offset, limit) = page_bounds(query.offset, query.limit)?;
    let filter = JobFilter {
        visible_to: (!c.user.is_admin).then_some(c.user.id),
        query,
    };
    Ok(ApiJson(s.store.jobs(&filter, offset, limit).await?))
}

/// `PATCH /jobs/{id}`: a run's name, note and tags (editors of its team).
async fn label(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<RunLabels>,
) -> Result<ApiJson<Job>, ApiError> {
    job_for(&s, &c, id, Role::Editor).await?;
    let labels = req.checked().map_err(ApiError::Unprocessable)?;
    let job = s.store.label_job(id, &labels).await?;
    s.hub.state(job.clone());
    Ok(ApiJson(job))
}

async fn show(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Job>, ApiError> {
    Ok(ApiJson(job_for(&s, &c, id, Role::Viewer).await?))
}

async fn cancel(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Job>, ApiError> {
    job_for(&s, &c, id, Role::Editor).await?;
    let job = s
        .store
        .cancel_job(id, crate::dispatch::RUNNER_TIMEOUT.as_millis() as i64)
        .await?;
    s.hub.state(job.clone());
    Ok(ApiJson(job))
}

#[derive(Debug, Deserialize)]
struct MetricsQuery {
    name: Option<String>,
    max_points: Option<i64>,
    /// Only points stored up to this sequence number (a page reads the series up to the job's
    /// `last_seq`, then follows the SSE stream after it: nothing twice, nothing missed).
    until: Option<i64>,
}

async fn metrics(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<MetricsQuery>,
) -> Result<ApiJson<Vec<MetricSeries>>, ApiError> {
    job_for(&s, &c, id, Role::Viewer).await?;
    let max = match q.max_points {
        None => None,
        Some(m) if (3..=100_000).contains(&m) => Some(m as usize),
        Some(m) => {
            return Err(ApiError::BadRequest(format!(
                "max_points {m} must be between 3 and 100000"
            )))
        }
    };
    let rows = s
        .store
        .metric_points_until(id, q.name.as_deref(), max.map(|m| m as i64), q.until)
        .await?;
    let mut out: Vec<MetricSeries> = Vec::new();
    for (name, step, value, total) in rows {
        match out.last_mut() {
            Some(sr) if sr.name == name => sr.points.push((step, value)),
            _ => out.push(MetricSeries {
                name,
                total,
                points: vec![(step, value)],
            }),
        }
    }
    Ok(ApiJson(out))
}

#[derive(Debug, Deserialize)]
struct LogsQuery {
    after: Option<i64>,
    limit: Option<i64>,
    /// The last `tail` lines (up to `until`, when given) instead of the first after `after`.
    tail: Option<i64>,
    until: Option<i64>,
}

async fn logs(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<LogsQuery>,
) -> Result<ApiJson<Vec<LogLine>>, ApiError> {
    job_for(&s, &c, id, Role::Viewer).await?;
    let limit = q.limit.unwrap_or(1000);
    if !(1..=MAX_LOG_LINES).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit {limit} must be between 1 and {MAX_LOG_LINES}"
        )));
    }
    let events = match q.tail {
        Some(n) if !(1..=MAX_LOG_LINES).contains(&n) => {
            return Err(ApiError::BadRequest(format!(
                "tail {n} must be between 1 and {MAX_LOG_LINES}"
            )))
        }
        Some(n) => s.store.log_tail(id, q.until.unwrap_or(i64::MAX), n).await?,
        None => {
            s.store
                .events_after(id, q.after.unwrap_or(0).max(0), Some("log"), limit)
                .await?
        }
    };
    Ok(ApiJson(
        events
            .into_iter()
            .filter_map(|e| match e {
                JobEvent::Log(l) => Some(l),
                JobEvent::Metric(_) => None,
            })
            .collect(),
    ))
}

#[derive(Debug, Deserialize)]
struct EventsQuery {
    /// Resume after this sequence number (as `Last-Event-ID` does).
    after: Option<i64>,
}

fn sse_event(e: &JobEvent) -> Event {
    let (name, data) = match e {
        JobEvent::Metric(m) => ("metric", serde_json::to_string(m)),
        JobEvent::Log(l) => ("log", serde_json::to_string(l)),
    };
    Event::default()
        .event(name)
        .id(e.seq().to_string())
        .data(data.unwrap_or_default())
}

fn state_event(job: &Job) -> Event {
    Event::default()
        .event("state")
        .data(serde_json::to_string(job).unwrap_or_default())
}

/// How soon a browser's EventSource reconnects after its stream broke (sent as SSE `retry`).
pub(crate) const RECONNECT_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// Page size when reading stored events back.
const CATCH_UP: i64 = 2000;

/// The SSE stream: the job's state first, then every stored event after `Last-Event-ID` (or
/// `?after=`), then live events as they are stored; a `state` event on every change; the
/// stream ends after the final state (for a job that has already ended: its events, then its
/// state).
async fn events(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<EventsQuery>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    // Subscribe before reading the job and the store: a state change or an event stored in
    // between still reaches this stream (read first, a job that ended in between left the
    // stream waiting for an end it had missed).
    let mut rx = s.hub.subscribe();
    let job = job_for(&s, &c, id, Role::Viewer).await?;
    let slot = s.limits.open_stream(c.user.id).ok_or_else(|| {
        ApiError::LimitReached(format!(
            "you have {} live job streams open already; close one first",
            crate::limits::STREAMS_PER_USER
        ))
    })?;
    let after = match headers.get("last-event-id") {
        Some(v) => v
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<i64>().ok())
            .ok_or_else(|| {
                ApiError::BadRequest("Last-Event-ID must be an event sequence number".into())
            })?,
        None => q.after.unwrap_or(0),
    }
    .max(0);
    // Past the last stored event every later event would be skipped in silence: refused.
    if after > job.last_seq {
        return Err(ApiError::BadRequest(format!(
            "Last-Event-ID (or after) {after} is beyond the job's last event {}: resume from at most {} (0: from the start)",
            job.last_seq, job.last_seq
        )));
    }
    let (tx, out) = tokio::sync::mpsc::channel::<Event>(256);
    let store = s.store.clone();
    let hub = s.hub.clone();
    let team_id = job.team_id;
    // Other replicas' events of this job are read back for this replica's streams.
    let watch = s.hub.watch(id);
    tokio::spawn(async move {
        // The user's stream slot is given back when this task ends.
        let _slot = slot;
        let _watch = watch;
        let mut last = after;
        // Sends what is stored after `last`; false when the client has gone.
        async fn catch_up(
            store: &crate::store::Store,
            id: i64,
            last: &mut i64,
            tx: &tokio::sync::mpsc::Sender<Event>,
        ) -> bool {
            loop {
                let Ok(batch) = store.events_after(id, *last, None, CATCH_UP).await else {
                    return false;
                };
                for e in &batch {
                    if tx.send(sse_event(e)).await.is_err() {
                        return false;
                    }
                    *last = e.seq();
                }
                if (batch.len() as i64) < CATCH_UP {
                    return true;
                }
            }
        }
        // A job that has ended: its events, then its final state, which is always the last
        // event of a stream.
        if job.state.is_terminal() {
            if catch_up(&store, id, &mut last, &tx).await {
                let _ = tx.send(state_event(&job)).await;
            }
            return;
        }
        // `retry`: a browser whose server went (a replica stopped) comes back after 1 s, not
        // EventSource's default 3 s.
        let first = state_event(&job).retry(RECONNECT_AFTER);
        if tx.send(first).await.is_err() || !catch_up(&store, id, &mut last, &tx).await {
            return;
        }
        // Access is checked again while the stream is open: a watcher removed from the team
        // or disabled stops receiving (a job can run for days). The job is read again too, so
        // a stream ends with its job even where a change announced by another replica was
        // missed.
        let mut state = job.state;
        let mut recheck = tokio::time::interval(ACCESS_RECHECK);
        recheck.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        recheck.tick().await;
        loop {
            let msg = tokio::select! {
                m = rx.recv() => m,
                _ = recheck.tick() => {
                    if !still_allowed(&store, &c, team_id).await {
                        return;
                    }
                    match store.job(id).await {
                        Ok(j) if j.state != state => Ok(HubMessage::State(std::sync::Arc::new(j))),
                        _ => continue,
                    }
                }
                // The server shuts down: end the stream (the client resumes elsewhere/later).
                _ = hub.closed() => return,
                // The client went away while nothing happened.
                _ = tx.closed() => return,
            };
            match msg {
                Ok(HubMessage::Events(jid, evs)) if jid == id => {
                    for e in evs.iter() {
                        if e.seq() <= last {
                            continue;
                        }
                        if e.seq() > last + 1 {
                            // A gap: read it back from the store (it holds this event too).
                            if !catch_up(&store, id, &mut last, &tx).await {
                                return;
                            }
                            continue;
                        }
                        if tx.send(sse_event(e)).await.is_err() {
                            return;
                        }
                        last = e.seq();
                    }
                }
                Ok(HubMessage::State(j)) if j.id == id => {
                    state = j.state;
                    if !catch_up(&store, id, &mut last, &tx).await
                        || tx.send(state_event(&j)).await.is_err()
                        || j.state.is_terminal()
                    {
                        return;
                    }
                }
                Ok(HubMessage::Resync) => {
                    // Read back everything: the events, then the state if it changed.
                    if !catch_up(&store, id, &mut last, &tx).await {
                        return;
                    }
                    if let Ok(j) = store.job(id).await {
                        if j.state != state {
                            state = j.state;
                            if tx.send(state_event(&j)).await.is_err() || j.state.is_terminal() {
                                return;
                            }
                        }
                    }
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    if !catch_up(&store, id, &mut last, &tx).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            }
        }
    });
    let stream = futures_util::StreamExt::map(
        tokio_stream::wrappers::ReceiverStream::new(out),
        Ok::<Event, Infallible>,
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
