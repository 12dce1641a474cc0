//! `/api/v1`: JSON endpoints. Errors share one envelope: `{"error": {"code", "message"}}`.

mod error;
mod validate;

pub use error::ApiError;

use crate::server::AppState;
use axum::Router;

pub fn router() -> Router<AppState> {
    validate::router()
}
