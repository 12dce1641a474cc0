//! `/api/v1`: JSON endpoints, one module per resource, merged here. Every error, malformed
//! bodies and unknown routes included, uses one envelope: `{"error": {"code", "message"}}`.

pub mod accounts;
pub mod auth;
mod error;
mod json;
pub mod openapi;
mod session;
pub mod shares;
pub mod templates;
mod validate;

pub use error::ApiError;
pub use json::{ApiJson, JsonOrDefault};
pub use session::LoginLimiter;

use crate::server::AppState;
use axum::Router;
use serde::Deserialize;

/// Largest request body: a 1 MiB config, JSON-escaped, plus the rest of the request.
pub const BODY_LIMIT: usize = 4 * 1024 * 1024;
/// Largest config text.
pub const CONFIG_LIMIT: usize = 1024 * 1024;

/// `?offset=&limit=` of list endpoints (limit 1-200, default 50).
#[derive(Debug, Deserialize, Default)]
pub struct PageQuery {
    pub offset: Option<i64>,
    pub limit: Option<i64>,
}

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(validate::router())
        .merge(session::router())
        .merge(accounts::router())
        .merge(templates::router())
        .merge(shares::router())
        .fallback(|uri: axum::http::Uri| async move {
            ApiError::NotFound(format!("no API route {}", uri.path()))
        })
        .method_not_allowed_fallback(|m: axum::http::Method| async move {
            ApiError::BadRequest(format!("method {m} is not allowed on this route"))
        })
}
