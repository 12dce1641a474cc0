//! `POST /api/v1/validate` (the same validator the browser runs) and `GET /api/v1/schema`.
//! Neither needs an account; anonymous validation is rate-limited per client address.

use super::auth::MaybeCaller;
use super::limits::ClientIp;
use super::{ApiError, ApiJson};
use crate::server::AppState;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use ds_studio_shared::api::{ValidateRequest, ValidateResponse};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/validate", post(validate_handler))
        .route(
            "/schema",
            get(|| async { Json(ds_studio_shared::schema::schema()) }),
        )
}

/// Anyone may validate; anonymous callers are limited per client address, and validation runs
/// on the blocking pool behind the server's validation slots.
pub(crate) async fn validate_handler(
    State(s): State<AppState>,
    caller: MaybeCaller,
    ip: ClientIp,
    ApiJson(req): ApiJson<ValidateRequest>,
) -> Result<ApiJson<ValidateResponse>, ApiError> {
    if caller.0.is_none() {
        s.limits
            .validate_ips
            .hit(&ip.key())
            .map_err(ApiError::TooManyRequests)?;
    }
    let checked = super::templates::check_config_blocking(
        &s,
        req.config,
        req.config_text,
        req.context.unwrap_or_default(),
    )
    .await?;
    Ok(ApiJson(ValidateResponse {
        verdict: checked.verdict,
        diagnostics: checked.diagnostics,
    }))
}
