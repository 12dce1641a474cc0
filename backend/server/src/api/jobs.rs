//! Jobs as users see them: submit a pinned template version with a launch spec (validated in
//! the job's context first), list, show, cancel, read metrics (downsampled on request) and
//! logs, and follow everything live over SSE (`GET /jobs/{id}/events`, resumable with
//! `Last-Event-ID`).

use super::auth::{Caller, Via};
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, ApiQuery};
use super::paging::page_bounds;
use super::typed::{At, Events};
use crate::api::access;
use crate::dispatch::HubMessage;
use crate::domain::job_plan;
use crate::state::AppState;
use crate::store::jobs::{JobEvent, JobFilter};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    Job, JobCreate, LogLine, MetricSeries, Page, Role, RunLabels, RunsQuery,
};
use serde::Deserialize;
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::ListJobs, list)
        .at(ep::SubmitJob, submit)
        .at(ep::GetJob, show)
        .at(ep::LabelJob, label)
        .at(ep::CancelJob, cancel)
        .at(ep::JobMetrics, metrics)
        .at(ep::JobLogs, logs)
        .at(ep::JobEvents, events)
}

/// Most log lines one `GET /jobs/{id}/logs` answers (`limit`, `tail`).
pub const MAX_LOG_LINES: i64 = 10_000;

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
    let job = job_plan::submit(&s, c.user.id, &t, req).await?;
    Ok((StatusCode::CREATED, ApiJson(job)))
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
) -> Result<Events<impl IntoResponse>, ApiError> {
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
        let first = state_event(&job).retry(super::RECONNECT_AFTER);
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
    Ok(Events(Sse::new(stream).keep_alive(KeepAlive::default())))
}
