//! ds-studio backend: the CLI (`cli`) and the HTTP server (`server`, `api`).

pub mod access;
pub mod api;
pub mod bootstrap;
pub mod cli;
pub mod secrets;
pub mod server;
pub mod store;
