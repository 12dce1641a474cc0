//! Paging of list endpoints: `?offset=&limit=`, checked the same way everywhere.

use super::error::ApiError;
use serde::Deserialize;

/// `?offset=&limit=` of list endpoints (limit 1-200, default 50).
#[derive(Debug, Deserialize, Default)]
pub struct PageQuery {
    pub offset: Option<i64>,
    pub limit: Option<i64>,
}

/// Largest page.
pub const MAX_LIMIT: i64 = 200;

/// Checks list parameters: offset ≥ 0, 1 ≤ limit ≤ 200 (default 50).
pub fn page_bounds(offset: Option<i64>, limit: Option<i64>) -> Result<(i64, i64), ApiError> {
    let offset = offset.unwrap_or(0);
    let limit = limit.unwrap_or(50);
    if offset < 0 {
        return Err(ApiError::BadRequest(format!(
            "offset {offset} must be 0 or more"
        )));
    }
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit {limit} must be between 1 and {MAX_LIMIT}"
        )));
    }
    Ok((offset, limit))
}
