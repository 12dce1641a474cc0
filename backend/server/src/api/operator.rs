//! What an operator's tools ask, outside `/api/v1`: `GET /metrics` for Prometheus (see
//! [`crate::metrics`]) and `GET /readyz` for a load balancer. `/healthz` (the process answers)
//! is in `app`.
//!
//! `/metrics` answers server administrators (a session or the admin token), the scraper's
//! `--metrics-token`, or anyone with `--metrics-public`; anyone else is refused, so a studio
//! on the internet does not tell strangers how busy it is or what its runners are called.

use super::auth::{authenticate, bearer};
use super::error::ApiError;
use crate::metrics::CONTENT_TYPE;
use crate::secrets::ct_eq;
use crate::state::AppState;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// How long `/readyz` waits for the database before it says it is not ready.
const READY_TIMEOUT: Duration = Duration::from_secs(3);

/// `GET /metrics`: Prometheus' text format.
pub async fn metrics(State(state): State<AppState>, parts: Parts) -> Result<Response, ApiError> {
    let access = &state.metrics_access;
    let by_token = match (&access.token, bearer(&parts)) {
        (Some(t), Some(sent)) => ct_eq(sent, t),
        _ => false,
    };
    if !access.public && !by_token {
        match authenticate(&parts, &state).await {
            Ok(Some(c)) if c.user.is_admin => {}
            Ok(Some(_)) => {
                return Err(ApiError::Forbidden(
                    "only server administrators, or a scraper with the --metrics-token, may read /metrics".into(),
                ))
            }
            Ok(None) | Err(ApiError::Unauthorized(_)) => {
                return Err(ApiError::Unauthorized(
                    "send `Authorization: Bearer <token>` with the server's --metrics-token (or an administrator's token), or start the server with --metrics-public".into(),
                ))
            }
            Err(e) => return Err(e),
        }
    }
    let now = crate::domain::operations::metrics_now(&state).await?;
    let text = state.metrics.render(&now);
    Ok(([(header::CONTENT_TYPE, CONTENT_TYPE)], text).into_response())
}

/// `GET /readyz`: 200 `ready` when the database answers within 3 s, 503 naming the problem
/// otherwise. A balancer sends traffic only to ready replicas; the process answers only once
/// its migrations have run (it listens after them).
pub async fn readyz(State(state): State<AppState>) -> Response {
    match tokio::time::timeout(READY_TIMEOUT, state.store.ping()).await {
        Ok(Ok(())) => (StatusCode::OK, "ready\n").into_response(),
        Ok(Err(e)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: the database does not answer: {e}\n"),
        )
            .into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "not ready: the database did not answer within {} s\n",
                READY_TIMEOUT.as_secs()
            ),
        )
            .into_response(),
    }
}
