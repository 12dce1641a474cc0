//! The OpenAPI 3.1 document at `/api/openapi.json` and a vendored Swagger UI at `/api/docs`.

use crate::server::AppState;
use axum::Router;

pub fn router() -> Router<AppState> {
    Router::new()
}
