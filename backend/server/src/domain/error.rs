//! The domain layer's one error type: why the studio refuses what was asked, in its own terms.
//! The API turns each into its HTTP answer (`From<DomainError> for ApiError`); nothing here
//! knows HTTP.

use crate::limits::LimitError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    /// The request breaks a rule of the studio; the message names the field and the rule.
    #[error("{0}")]
    Invalid(String),
    /// Something is larger than the studio keeps.
    #[error("{0}")]
    TooLarge(String),
    /// What the request names does not exist (the message names it).
    #[error("{0} not found")]
    NotFound(String),
    /// The request conflicts with what is stored now.
    #[error("{0}")]
    Conflict(String),
    /// A job's config has errors in the job's context.
    #[error("the config has {} error(s) for a world size of {world_size}", diagnostics.len())]
    ConfigRejected {
        world_size: u32,
        launcher: ds_studio_shared::validate::Launcher,
        release: String,
        runner: Option<String>,
        diagnostics: Vec<ds_studio_shared::Diagnostic>,
    },
    /// A job's estimated peak memory is more than its runners have.
    #[error("the job does not fit the memory of the runners it can go to")]
    DoesNotFit(Box<ds_studio_shared::memory::DoesNotFit>),
    /// Too many attempts for a name or from a client: try again in this many seconds.
    #[error("too many attempts; try again in {0} seconds")]
    TooManyAttempts(u64),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// CPU-bound work found no slot, or the pool is gone.
    #[error(transparent)]
    Limit(#[from] LimitError),
}

impl DomainError {
    /// A store error, with "not found" naming `what` (e.g. `version 3 of template 7`).
    pub fn from_store(e: StoreError, what: &str) -> DomainError {
        match e {
            StoreError::NotFound(_) => DomainError::NotFound(what.to_string()),
            other => DomainError::Store(other),
        }
    }
}
