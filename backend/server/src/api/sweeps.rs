//! Sweeps: `POST /sweeps` expands a grid over a template version (the validator and the memory
//! model prune what cannot run, each with its reason) and queues every other point as a job
//! labelled with the sweep, spread over the chosen runners; `GET /sweeps/{id}` ranks the
//! points by throughput as they finish, `GET /sweeps/{id}/events` follows it live,
//! `POST /sweeps/{id}/cancel` cancels its jobs, and `POST /sweeps/{id}/save-best` saves the
//! fastest point as a new version. A point far slower than the best finished one is stopped
//! early ([`crate::domain::sweeps::stop_if_slow`], called as its samples/s readings are stored).

use super::auth::Caller;
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, ApiQuery, JsonOrDefault};
use super::typed::{At, Events};
use crate::api::access;
use crate::dispatch::HubMessage;
use crate::domain::sweeps;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Role, Sweep, SweepCreate, SweepSaveBest, SweepState, Version};
use serde::Deserialize;
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::ListSweeps, list)
        .at(ep::CreateSweep, create)
        .at(ep::GetSweep, show)
        .at(ep::CancelSweep, cancel)
        .at(ep::SweepEvents, events)
        .at(ep::SaveBest, save_best)
}

/// Longest sweep name, in characters.
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

async fn create(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<SweepCreate>,
) -> Result<(StatusCode, ApiJson<Sweep>), ApiError> {
    let t = access::template(&s.store, &c, req.template_id, Role::Editor).await?;
    let sweep = sweeps::create(&s, c.user.id, &t, req).await?;
    Ok((StatusCode::CREATED, ApiJson(sweep)))
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
    Ok(ApiJson(sweeps::cancel(&s, &sweep).await?))
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
) -> Result<Events<impl IntoResponse>, ApiError> {
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
        let first = sweep_event(&sweep).retry(super::RECONNECT_AFTER);
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
    Ok(Events(Sse::new(stream).keep_alive(KeepAlive::default())))
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
    let t = access::template(&s.store, &c, sweep.template_id, Role::Editor).await?;
    let v = sweeps::save_best(&s, c.user.id, &sweep, &t, req.message).await?;
    Ok((StatusCode::CREATED, ApiJson(v)))
}
