//! `POST /api/v1/validate` (the same validator the browser runs) and `GET /api/v1/schema`.
//! Neither needs an account.

use super::{ApiError, ApiJson};
use crate::server::AppState;
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

pub(crate) async fn validate_handler(
    ApiJson(req): ApiJson<ValidateRequest>,
) -> Result<ApiJson<ValidateResponse>, ApiError> {
    let checked = super::templates::check_config(
        req.config.as_ref(),
        req.config_text.as_deref(),
        req.context.unwrap_or_default(),
    )?;
    Ok(ApiJson(ValidateResponse {
        verdict: checked.verdict,
        diagnostics: checked.diagnostics,
    }))
}
