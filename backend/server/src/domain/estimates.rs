//! The memory estimate for scripts (`POST /api/v1/estimate`): `shared::api::answer` held
//! against the online runners the caller may use (their own teams' and every team's; all of
//! them for a server admin; none for an anonymous caller), on the blocking pool.

use super::DomainError;
use crate::state::AppState;
use ds_studio_shared::api::{EstimateRequest, EstimateResponse, RunnerDevices, User};

pub async fn estimate(
    s: &AppState,
    caller: Option<&User>,
    req: EstimateRequest,
) -> Result<EstimateResponse, DomainError> {
    let runners: Vec<(String, RunnerDevices)> = match caller {
        None => Vec::new(),
        Some(user) => {
            let teams: Vec<i64> = s
                .store
                .teams_of(user.id, false)
                .await?
                .iter()
                .map(|t| t.id)
                .collect();
            s.store
                .runners()
                .await?
                .into_iter()
                .filter(|r| r.online)
                .filter(|r| user.is_admin || r.team_id.is_none_or(|t| teams.contains(&t)))
                .filter_map(|r| Some((r.name, r.devices?)))
                .collect()
        }
    };
    s.limits
        .cpu(move || ds_studio_shared::api::answer(&req, &runners))
        .await?
        .map_err(|e| DomainError::Invalid(e.0.en))
}
