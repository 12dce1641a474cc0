//! `/api/v1`: JSON endpoints, one module per resource, merged here. Every error, malformed
//! bodies and unknown routes included, uses one envelope: `{"error": {"code", "message"}}`.
//! No handler module names another: what two share lives in `domain/` or in the helpers here
//! (`cargo xtask modules` checks it).

pub mod access;
pub mod accounts;
pub mod auth;
pub mod client_ip;
mod error;
mod estimates;
pub mod jobs;
mod json;
pub mod messages_zh;
pub mod openapi;
pub mod operator;
pub mod paging;
pub mod runners;
mod session;
pub mod shares;
pub mod sweeps;
pub mod templates;
pub mod typed;
mod validate;

pub use error::ApiError;
pub use json::{ApiJson, ApiPath, ApiQuery, JsonOrDefault, BODY_LIMIT, CONFIG_LIMIT};
pub use paging::{page_bounds, PageQuery, MAX_LIMIT};

use crate::state::AppState;
use axum::Router;

/// How soon a browser's EventSource reconnects after its stream broke (sent as SSE `retry`).
pub const RECONNECT_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(validate::router())
        .merge(estimates::router())
        .merge(session::router())
        .merge(accounts::router())
        .merge(templates::router())
        .merge(shares::router())
        .merge(jobs::router())
        .merge(sweeps::router())
        .merge(runners::router())
        .fallback(|uri: axum::http::Uri| async move {
            ApiError::NotFound(format!("no API route {}", uri.path()))
        })
}

/// Gives axum's bodiless answers (405 Method Not Allowed with its `Allow` header) the error
/// envelope, keeping their status and headers.
pub async fn envelope_bare_errors(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let method = req.method().clone();
    let resp = next.run(req).await;
    if resp.status() != axum::http::StatusCode::METHOD_NOT_ALLOWED
        || resp
            .headers()
            .contains_key(axum::http::header::CONTENT_TYPE)
    {
        return resp;
    }
    let (mut parts, _) = resp.into_parts();
    let allow = parts
        .headers
        .get(axum::http::header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = ds_studio_shared::api::ErrorBody {
        error: ds_studio_shared::api::ErrorDetail {
            code: "method_not_allowed".into(),
            message: if allow.is_empty() {
                format!("method {method} is not allowed here")
            } else {
                format!("method {method} is not allowed here; allowed: {allow}")
            },
            details: None,
        },
    };
    parts.headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    axum::response::Response::from_parts(
        parts,
        axum::body::Body::from(serde_json::to_vec(&body).unwrap_or_default()),
    )
}
