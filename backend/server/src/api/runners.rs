//! The runner protocol. A runner authenticates with a runner token (`RunnerCaller`: made by a
//! server admin for one runner name and optionally one team; the in-process local runner has
//! one in memory), registers under that name, heartbeats, claims jobs with a long poll (a
//! team's runner only that team's jobs) and reports events and state for the jobs it owns. It
//! never touches the database, so it can run on any GPU host. Runner tokens are managed here
//! too (`/runner-tokens`, server admins).

use super::auth::{Caller, RunnerCaller};
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, ApiQuery};
use super::typed::{At, Reply};
use crate::api::access;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    ClaimedJob, EventAck, EventBatch, Heartbeat, HeartbeatReply, Job, JobStateUpdate, Runner,
    RunnerEvent, RunnerRegister, RunnerToken, RunnerTokenCreate, RunnerTokenCreated,
};
use serde::Deserialize;
use std::time::{Duration, Instant};

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::ListRunners, list)
        .at(ep::RegisterRunner, register)
        .at(ep::SendHeartbeat, heartbeat)
        .at(ep::ClaimJob, claim)
        .at(ep::PostJobEvents, events)
        .at(ep::ReportJobState, state)
        .at(ep::ListRunnerTokens, list_tokens)
        .at(ep::CreateRunnerToken, create_token)
        .at(ep::RevokeRunnerToken, revoke_token)
}

/// Longest long poll of a claim.
pub const MAX_WAIT_S: u64 = 60;
/// Most running jobs one heartbeat may report.
pub const MAX_RUNNING: usize = 1024;
/// Most events in one batch.
pub const MAX_BATCH: usize = 10_000;

fn check_name(name: &str) -> Result<(), ApiError> {
    ds_studio_shared::api::check_runner_name(name).map_err(ApiError::Unprocessable)
}

/// The runner `id`, when it is the one the caller's runner token is for (its team taken from
/// the token, so a re-issued token changes what it may claim at once).
async fn runner_for(s: &AppState, rc: &RunnerCaller, id: i64) -> Result<Runner, ApiError> {
    let mut runner = s
        .store
        .runner(id)
        .await
        .map_err(|e| ApiError::from_store(e, &format!("runner {id}")))?;
    if runner.name != rc.0.runner {
        return Err(ApiError::Forbidden(format!(
            "this runner token is for runner `{}`, not runner {id}",
            rc.0.runner
        )));
    }
    runner.team_id = rc.0.team_id;
    Ok(runner)
}

/// The job, when `runner` claimed it (and, for a team's runner, it is that team's).
async fn owned_job(s: &AppState, runner: &Runner, job_id: i64) -> Result<Job, ApiError> {
    let job = s
        .store
        .job(job_id)
        .await
        .map_err(|e| ApiError::from_store(e, &format!("job {job_id}")))?;
    if runner.team_id.is_some_and(|t| t != job.team_id) {
        return Err(ApiError::Forbidden(format!(
            "job {job_id} is not a job of runner `{}`'s team",
            runner.name
        )));
    }
    if job.runner.as_deref() != Some(runner.name.as_str()) {
        return Err(ApiError::Conflict(format!(
            "job {job_id} does not belong to runner `{}`",
            runner.name
        )));
    }
    Ok(job)
}

/// Server admins see every runner; others the runners of every team and of their own teams.
async fn list(State(s): State<AppState>, c: Caller) -> Result<ApiJson<Vec<Runner>>, ApiError> {
    let all = s.store.runners().await?;
    if c.user.is_admin {
        return Ok(ApiJson(all));
    }
    let teams: Vec<i64> = s
        .store
        .teams_of(c.user.id, false)
        .await?
        .iter()
        .map(|t| t.id)
        .collect();
    Ok(ApiJson(
        all.into_iter()
            .filter(|r| r.team_id.is_none_or(|t| teams.contains(&t)))
            .collect(),
    ))
}

async fn register(
    State(s): State<AppState>,
    rc: RunnerCaller,
    ApiJson(req): ApiJson<RunnerRegister>,
) -> Result<(StatusCode, ApiJson<Runner>), ApiError> {
    check_name(&req.name)?;
    if req.name != rc.0.runner {
        return Err(ApiError::Forbidden(format!(
            "this runner token is for runner `{}`, not `{}`",
            rc.0.runner, req.name
        )));
    }
    if !matches!(req.backend.as_str(), "local" | "slurm") {
        return Err(ApiError::Unprocessable(format!(
            "backend `{}` is unknown; use local or slurm",
            req.backend
        )));
    }
    let runner = s.store.register_runner(&req, rc.0.team_id).await?;
    tracing::info!(runner = %runner.name, backend = %runner.backend, "runner registered");
    Ok((StatusCode::CREATED, ApiJson(runner)))
}

async fn heartbeat(
    State(s): State<AppState>,
    rc: RunnerCaller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(hb): ApiJson<Heartbeat>,
) -> Result<ApiJson<HeartbeatReply>, ApiError> {
    runner_for(&s, &rc, id).await?;
    if hb.running.len() > MAX_RUNNING {
        return Err(ApiError::PayloadTooLarge(format!(
            "{} running jobs reported; a runner reports at most {MAX_RUNNING}",
            hb.running.len()
        )));
    }
    let outcome = s
        .store
        .heartbeat(id, &hb)
        .await
        .map_err(|e| ApiError::from_store(e, &format!("runner {id}")))?;
    for job in outcome.lost {
        tracing::warn!(job, runner = id, "job lost: its runner no longer runs it");
        if let Ok(j) = s.store.job(job).await {
            s.hub.state(j);
        }
    }
    Ok(ApiJson(HeartbeatReply {
        cancel: outcome.cancel,
    }))
}

#[derive(Debug, Deserialize)]
struct ClaimQuery {
    /// Seconds to wait for a job (0-60, default 0).
    wait_s: Option<u64>,
}

/// 200 with the job and its pinned config, or 204 when none came within `wait_s`.
async fn claim(
    State(s): State<AppState>,
    rc: RunnerCaller,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<ClaimQuery>,
) -> Result<Reply<Option<ClaimedJob>>, ApiError> {
    let runner = runner_for(&s, &rc, id).await?;
    let wait = q.wait_s.unwrap_or(0);
    if wait > MAX_WAIT_S {
        return Err(ApiError::BadRequest(format!(
            "wait_s {wait} must be at most {MAX_WAIT_S}"
        )));
    }
    let deadline = Instant::now() + Duration::from_secs(wait);
    loop {
        if let Some(job) = s.store.claim_job(&runner).await? {
            let v = s.store.version_shared(job.template_id, job.version).await?;
            let context = job.context(&v.version.context);
            tracing::info!(job = job.id, runner = %runner.name, "job claimed");
            s.hub.state(job.clone());
            let secret_env = s.store.job_secrets(job.id).await?;
            let claimed = ClaimedJob {
                // The config fitted to the job's GPUs, where it was.
                config_text: job
                    .fit
                    .as_ref()
                    .map_or_else(|| v.version.config_text.clone(), |f| f.config_text.clone()),
                context,
                job,
                secret_env,
            };
            return Ok(Reply::json(StatusCode::OK, (), Some(claimed)));
        }
        let now = Instant::now();
        if now >= deadline || s.hub.is_closing() {
            return Ok(Reply::empty(StatusCode::NO_CONTENT, ()));
        }
        s.hub.wait_for_job(deadline - now).await;
    }
}

async fn events(
    State(s): State<AppState>,
    rc: RunnerCaller,
    ApiPath((id, job_id)): ApiPath<(i64, i64)>,
    ApiJson(batch): ApiJson<EventBatch>,
) -> Result<ApiJson<EventAck>, ApiError> {
    // The hot path of metric ingest: one cheap ownership query instead of reading the runner
    // and the job.
    let owner = s
        .store
        .job_runner(job_id)
        .await
        .map_err(|e| ApiError::from_store(e, &format!("job {job_id}")))?;
    if let Some((_, name, team)) = owner.as_ref().filter(|(r, _, _)| *r == id) {
        if *name != rc.0.runner || rc.0.team_id.is_some_and(|t| t != *team) {
            return Err(ApiError::Forbidden(format!(
                "this runner token is for runner `{}`{}, not for job {job_id} on runner {id}",
                rc.0.runner,
                rc.0.team_id
                    .map(|t| format!(" of team {t}"))
                    .unwrap_or_default()
            )));
        }
    }
    if owner.map(|(r, _, _)| r) != Some(id) {
        return Err(ApiError::Conflict(format!(
            "job {job_id} does not belong to runner {id}"
        )));
    }
    if batch.events.len() > MAX_BATCH {
        return Err(ApiError::PayloadTooLarge(format!(
            "{} events in one batch; the limit is {MAX_BATCH}",
            batch.events.len()
        )));
    }
    if let Some(e) = batch.events.iter().find(|e| e.seq() < 1) {
        return Err(ApiError::Unprocessable(format!(
            "event seq {} must be 1 or more",
            e.seq()
        )));
    }
    if let Some(RunnerEvent::Metric { name, value, .. }) = batch
        .events
        .iter()
        .find(|e| matches!(e, RunnerEvent::Metric { value, .. } if !value.is_finite()))
    {
        return Err(ApiError::Unprocessable(format!(
            "metric `{name}` has the value {value}: only finite numbers are stored"
        )));
    }
    let total = batch.events.len() as i64;
    let (stored, last_seq) = s.store.insert_events(job_id, &batch.events).await?;
    let n = stored.len() as i64;
    let throughput = stored.iter().any(
        |e| matches!(e, crate::store::jobs::JobEvent::Metric(m) if m.name == "samples_per_sec"),
    );
    s.hub.events(job_id, stored);
    // A sweep's point far slower than its best finished one is stopped early.
    if throughput {
        if let Err(e) = crate::domain::sweeps::stop_if_slow(&s, job_id).await {
            tracing::warn!(job = job_id, error = %e, "early stop check failed");
        }
    }
    Ok(ApiJson(EventAck {
        stored: n,
        duplicates: total - n,
        last_seq,
    }))
}

async fn state(
    State(s): State<AppState>,
    rc: RunnerCaller,
    ApiPath((id, job_id)): ApiPath<(i64, i64)>,
    ApiJson(upd): ApiJson<JobStateUpdate>,
) -> Result<ApiJson<Job>, ApiError> {
    let runner = runner_for(&s, &rc, id).await?;
    owned_job(&s, &runner, job_id).await?;
    if upd.state == ds_studio_shared::api::JobState::Queued {
        return Err(ApiError::Unprocessable(
            "a runner cannot put a job back in the queue".into(),
        ));
    }
    let job = s.store.update_job_state(job_id, runner.id, &upd).await?;
    tracing::info!(job = job_id, state = job.state.as_str(), "job state");
    s.hub.state(job.clone());
    Ok(ApiJson(job))
}

async fn list_tokens(
    State(s): State<AppState>,
    c: Caller,
) -> Result<ApiJson<Vec<RunnerToken>>, ApiError> {
    access::require_admin(&c)?;
    Ok(ApiJson(s.store.runner_tokens().await?))
}

async fn create_token(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<RunnerTokenCreate>,
) -> Result<(StatusCode, ApiJson<RunnerTokenCreated>), ApiError> {
    access::require_admin(&c)?;
    check_name(&req.runner)?;
    if req.runner == "local" {
        return Err(ApiError::Unprocessable(
            "`local` is the server's own runner; choose another name".into(),
        ));
    }
    let (token, info) = s
        .store
        .create_runner_token(&req.runner, req.team_id)
        .await
        .map_err(|e| match e {
            crate::store::StoreError::NotFound(_) => ApiError::Unprocessable(format!(
                "team {} does not exist",
                req.team_id.unwrap_or_default()
            )),
            other => other.into(),
        })?;
    tracing::info!(runner = %info.runner, team = ?info.team_id, "runner token created");
    Ok((
        StatusCode::CREATED,
        ApiJson(RunnerTokenCreated { token, info }),
    ))
}

async fn revoke_token(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<RunnerToken>, ApiError> {
    access::require_admin(&c)?;
    Ok(ApiJson(s.store.revoke_runner_token(id).await.map_err(
        |e| ApiError::from_store(e, &format!("runner token {id}")),
    )?))
}
