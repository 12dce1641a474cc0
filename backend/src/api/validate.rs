//! `POST /api/v1/validate` (the same validator the browser runs) and `GET /api/v1/schema`.

use super::ApiError;
use crate::server::AppState;
use axum::extract::rejection::JsonRejection;
use axum::routing::{get, post};
use axum::{Json, Router};
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::{Context, Diagnostic, Verdict};
use serde::{Deserialize, Serialize};

/// Request body: the config text and, optionally, the context.
#[derive(Debug, Deserialize)]
pub struct ValidateRequest {
    pub text: String,
    #[serde(default)]
    pub context: Option<Context>,
}

#[derive(Debug, Serialize)]
pub struct ValidateResponse {
    pub verdict: Verdict,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/validate", post(validate_handler))
        .route(
            "/schema",
            get(|| async { Json(ds_studio_shared::schema::schema()) }),
        )
}

async fn validate_handler(
    body: Result<Json<ValidateRequest>, JsonRejection>,
) -> Result<Json<ValidateResponse>, ApiError> {
    let Json(req) = body?;
    let ctx = req.context.unwrap_or_default();
    let (_, diagnostics) = validate_text(&req.text, &ctx);
    Ok(Json(ValidateResponse {
        verdict: verdict(&diagnostics),
        diagnostics,
    }))
}
