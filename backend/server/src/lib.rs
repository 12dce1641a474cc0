//! `ds-studio-server`: the HTTP server of the studio. Layers, each using only those below it
//! (no module reaches up):
//!
//! - [`app`]: the router as served: the API, the OpenAPI document, the frontend's files,
//!   security headers; `serve` and the shutdown signal.
//! - [`api`]: `/api/v1`, one module per resource, with authorization ([`api::access`]), the
//!   caller ([`api::auth`]) and the one error type of the layer ([`api::ApiError`]).
//! - [`domain`]: the studio's business (planning a job, a sweep's lifecycle, checking a config,
//!   templates' rules, accounts' attempt counts): each handler calls one function here; its
//!   one error type is [`domain::DomainError`].
//! - [`state`]: [`AppState`], what every handler is given.
//! - [`limits`], [`dispatch`]: per-client limits and slots; job events for live watchers and
//!   runner wake-ups. [`cluster`]: the same events and wake-ups across replicas on one
//!   PostgreSQL database (`LISTEN/NOTIFY`), and background work done once per cluster;
//!   [`reaper`]: jobs of silent runners marked lost. [`metrics`]: this process's figures for
//!   Prometheus (`/metrics`).
//! - [`store`]: the database (SQLite or PostgreSQL, the only module that knows SQL), with
//!   [`bootstrap`] (the first administrator and team) and [`secrets`] (hashes, tokens).

pub mod api;
pub mod app;
pub mod bootstrap;
pub mod cluster;
pub mod dispatch;
pub mod docs;
pub mod domain;
pub mod limits;
pub mod metrics;
pub mod reaper;
pub mod secrets;
pub mod state;
pub mod store;

pub use app::{app, serve, shutdown_signal};
pub use state::AppState;
