//! `GET /api/v1/models` (the model catalog) and `POST /api/v1/estimate` (a config training a
//! user's model on a cluster shape: its memory, part by part, and whether it fits a GPU size
//! and each online runner the caller may use). Neither needs an account: an anonymous caller
//! gets no runners and is rate-limited per address like `/validate`. The estimate runs on the
//! blocking pool behind the validation slots (`Limits::cpu`): it parses a config and may try
//! the configs that would fit.

use super::auth::MaybeCaller;
use super::client_ip::ClientIp;
use super::error::ApiError;
use super::json::{ApiJson, ApiQuery};
use super::typed::At;
use crate::state::AppState;
use axum::extract::State;
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{CatalogModel, EstimateRequest, EstimateResponse};
use ds_studio_shared::architecture::catalog;

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::ListModels, list_models)
        .at(ep::EstimateMemory, estimate)
}

#[derive(serde::Deserialize)]
pub(crate) struct ModelsQuery {
    q: Option<String>,
}

async fn list_models(
    ApiQuery(q): ApiQuery<ModelsQuery>,
) -> Result<ApiJson<Vec<CatalogModel>>, ApiError> {
    let models = match q.q.as_deref() {
        Some(words) => catalog::search(words).into_iter().cloned().collect(),
        None => catalog::catalog().to_vec(),
    };
    Ok(ApiJson(models))
}

/// Anonymous callers are limited per address (as `/validate`); the rest is the domain's.
async fn estimate(
    State(s): State<AppState>,
    caller: MaybeCaller,
    ip: ClientIp,
    ApiJson(req): ApiJson<EstimateRequest>,
) -> Result<ApiJson<EstimateResponse>, ApiError> {
    if caller.0.is_none() {
        s.limits
            .validate_ips
            .hit(&ip.key())
            .map_err(ApiError::TooManyRequests)?;
    }
    let user = caller.0.as_ref().map(|c| &c.user);
    Ok(ApiJson(
        crate::domain::estimates::estimate(&s, user, req).await?,
    ))
}
