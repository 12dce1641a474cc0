//! The API's one error type and its JSON envelope `{"error": {"code", "message", "details"?}}`,
//! used for every error, malformed bodies and unknown routes included. 5xx answers never carry
//! internal text: the cause is logged, the client gets a generic message.

use crate::store::StoreError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use ds_studio_shared::api::{
    ConfigRejectedDetails, ErrorBody, ErrorDetail, VersionConflictDetails,
};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// A save on a base version that is no longer the head; carries the head.
    #[error("version {base} is not the head any more: version {head} was saved meanwhile; merge your change into version {head} and save again with base_version {head}")]
    VersionConflict {
        base: i64,
        head: i64,
        current: Box<ds_studio_shared::api::Version>,
    },
    /// A job's config has errors in the job's context (world size = nodes x GPUs, the
    /// DeepSpeed release of the runner it can go to).
    #[error("the config has {} error(s) for a world size of {world_size}{}; fix them before running it", diagnostics.len(), release_note(runner.as_deref(), *launcher, release))]
    ConfigRejected {
        world_size: u32,
        /// Who launches it: under an HF launcher the refusal is HF's and DeepSpeed's together.
        launcher: ds_studio_shared::validate::Launcher,
        /// The DeepSpeed release it was judged for.
        release: String,
        /// The runner whose release that is (none: the version's own context).
        runner: Option<String>,
        diagnostics: Vec<ds_studio_shared::Diagnostic>,
    },
    /// A job whose estimated peak memory is more than the runner has (`force` skips the check).
    #[error("{}", does_not_fit_message(.0))]
    DoesNotFit(Box<ds_studio_shared::memory::DoesNotFit>),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("too many attempts from this client or for this name; try again in {0} seconds")]
    TooManyRequests(u64),
    /// The caller holds as much of something as one caller may (open streams, ...).
    #[error("{0}")]
    LimitReached(String),
    /// The server is at its limit for this kind of work; retry after the given seconds.
    #[error("{1}; try again in {0} seconds")]
    Busy(u64, String),
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::VersionConflict { .. } => (StatusCode::CONFLICT, "version_conflict"),
            ApiError::ConfigRejected { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, "config_rejected")
            }
            ApiError::DoesNotFit(_) => (StatusCode::UNPROCESSABLE_ENTITY, "does_not_fit"),
            ApiError::PayloadTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            ApiError::UnsupportedMediaType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::Unprocessable(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
            ApiError::TooManyRequests(_) => (StatusCode::TOO_MANY_REQUESTS, "too_many_requests"),
            ApiError::Busy(..) => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            ApiError::LimitReached(_) => (StatusCode::TOO_MANY_REQUESTS, "limit_reached"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::NotFound(format!("{what} not found"))
    }

    /// A store error, with "not found" naming `what` (e.g. `job 7`).
    pub fn from_store(e: StoreError, what: &str) -> ApiError {
        match e {
            StoreError::NotFound(_) => ApiError::not_found(what),
            other => other.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if let ApiError::Internal(cause) = &self {
            tracing::error!(%cause, "internal error");
        }
        let details = match &self {
            ApiError::VersionConflict { head, current, .. } => {
                serde_json::to_value(VersionConflictDetails {
                    head_version: *head,
                    head: (**current).clone(),
                })
                .ok()
            }
            ApiError::ConfigRejected {
                diagnostics,
                release,
                runner,
                ..
            } => serde_json::to_value(ConfigRejectedDetails {
                diagnostics: diagnostics.clone(),
                deepspeed: release.clone(),
                runner: runner.clone(),
            })
            .ok(),
            ApiError::DoesNotFit(d) => serde_json::to_value(d).ok(),
            _ => None,
        };
        let body = ErrorBody {
            error: ErrorDetail {
                code: code.into(),
                // A message quoting hostile input is cut (4 KiB): an error never amplifies.
                message: ds_studio_shared::i18n::bounded(self.to_string()),
                details,
            },
        };
        let mut resp = (status, Json(body)).into_response();
        if let ApiError::TooManyRequests(secs) | ApiError::Busy(secs, _) = self {
            if let Ok(v) = secs.to_string().parse() {
                resp.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        if status == StatusCode::UNAUTHORIZED {
            resp.headers_mut()
                .insert(header::WWW_AUTHENTICATE, "Bearer".parse().expect("static"));
        }
        resp
    }
}

impl From<crate::domain::DomainError> for ApiError {
    fn from(e: crate::domain::DomainError) -> Self {
        use crate::domain::DomainError as D;
        match e {
            D::Invalid(m) => ApiError::Unprocessable(m),
            D::TooLarge(m) => ApiError::PayloadTooLarge(m),
            D::NotFound(what) => ApiError::not_found(&what),
            D::Conflict(m) => ApiError::Conflict(m),
            D::ConfigRejected {
                world_size,
                launcher,
                release,
                runner,
                diagnostics,
            } => ApiError::ConfigRejected {
                world_size,
                launcher,
                release,
                runner,
                diagnostics,
            },
            D::DoesNotFit(d) => ApiError::DoesNotFit(d),
            D::TooManyAttempts(secs) => ApiError::TooManyRequests(secs),
            D::Store(e) => e.into(),
            D::Limit(e) => e.into(),
        }
    }
}

impl From<crate::limits::LimitError> for ApiError {
    fn from(e: crate::limits::LimitError) -> Self {
        match e {
            crate::limits::LimitError::Busy(secs, why) => ApiError::Busy(secs, why.into()),
            crate::limits::LimitError::Closed(why) => ApiError::Internal(why),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound(what) => ApiError::not_found(what),
            StoreError::Conflict(m) => ApiError::Conflict(m),
            StoreError::VersionConflict { base, head } => ApiError::Conflict(format!(
                "version {base} is not the head any more (head is {head})"
            )),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

/// "in DeepSpeed 0.19.8" or "(runner gpu-a runs DeepSpeed 0.18.4, which rejects it)"; under
/// an HF launcher "under HF Trainer and DeepSpeed 0.19.8" or "(runner gpu-a runs HF Trainer and
/// DeepSpeed 0.19.8, which reject it)".
fn release_note(
    runner: Option<&str>,
    launcher: ds_studio_shared::validate::Launcher,
    release: &str,
) -> String {
    use ds_studio_shared::validate::Launcher;
    let hf = match launcher {
        Launcher::HfTrainer => Some("HF Trainer"),
        Launcher::Accelerate => Some("Accelerate"),
        Launcher::Deepspeed => None,
    };
    match (runner, hf) {
        (Some(r), None) => format!(" (runner {r} runs DeepSpeed {release}, which rejects it)"),
        (None, None) => format!(" in DeepSpeed {release}"),
        (Some(r), Some(l)) => {
            format!(" (runner {r} runs {l} and DeepSpeed {release}, which reject it)")
        }
        (None, Some(l)) => format!(" under {l} and DeepSpeed {release}"),
    }
}

/// "the job needs an estimated 210.7 GiB per GPU at its peak, more than the 132.8 GiB usable on
/// runner `gpu1` (NVIDIA H200 · 139.8 GiB) ..."
fn does_not_fit_message(d: &ds_studio_shared::memory::DoesNotFit) -> String {
    use ds_studio_shared::memory::human_bytes;
    let (need, has, device) = (
        human_bytes(d.need_bytes),
        human_bytes(d.capacity.bytes_per_rank),
        &d.capacity.device,
    );
    // A GPU runner whose GPUs hold it but whose host memory cannot hold the CPU side.
    if let (Some(host_need), false) = (d.host_short, d.capacity.host) {
        let (host_need, host) = (
            human_bytes(host_need),
            human_bytes(d.capacity.host_bytes_per_node),
        );
        return match &d.runner {
            Some(r) => format!("the job needs an estimated {host_need} of CPU memory per node (each rank's model and what is offloaded), more than the {host} the host of runner `{r}` ({device}) can give: it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway"),
            None => format!("the job needs an estimated {host_need} of CPU memory per node (each rank's model and what is offloaded), more than the {host} the hosts of the runners it can go to can give ({device}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway"),
        };
    }
    match (&d.runner, d.capacity.host) {
        (Some(r), false) => format!("the job needs an estimated {need} per GPU at its peak, more than the {has} usable on runner `{r}` ({device}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway"),
        (None, false) => format!("the job needs an estimated {need} per GPU at its peak, more than the {has} usable on the largest GPU of the runners it can go to ({device}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway"),
        (Some(r), true) => format!("the job needs an estimated {need} of host memory per rank, more than the {has} per rank that runner `{r}` ({device}) can give: it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway"),
        (None, true) => format!("the job needs an estimated {need} of host memory per rank, more than the {has} per rank that the runners it can go to can give ({device}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway"),
    }
}
