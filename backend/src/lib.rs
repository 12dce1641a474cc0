//! ds-studio backend: the CLI (`cli`) and the HTTP server (`server`, `api`).

pub mod api;
pub mod cli;
pub mod server;
