//! The studio's business, between the API (which parses requests, checks who may do what and
//! shapes answers) and the store (which keeps things): each request a handler serves is one
//! call here. Nothing here knows HTTP; every error is a [`DomainError`].
//!
//! - [`accounts`]: how many password checks a user name may take.
//! - [`config_check`]: a config bounded, its context checked and judged, on the blocking pool.
//! - [`estimates`]: the memory estimate of a user's model against the caller's runners.
//! - [`job_plan`]: a job's shape, environment, runners, fitted config, verdict and memory
//!   check before it is queued.
//! - [`operations`]: the figures a `/metrics` scrape reads.
//! - [`sweeps`]: a sweep planned into points, queued, cancelled, stopped early, its best saved.
//! - [`templates`]: templates' names and texts, and forking a version into a new template.

pub mod accounts;
pub mod config_check;
mod error;
pub mod estimates;
pub mod job_plan;
pub mod operations;
pub mod sweeps;
pub mod templates;

pub use error::DomainError;
