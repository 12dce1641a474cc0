//! ds-studio backend: the CLI (`cli`, including the HTTP client commands), the HTTP server
//! (`server`, `api`, with authorization in `access`), the database (`store`), secrets
//! (`secrets`) and the first-start bootstrap (`bootstrap`).

pub mod access;
pub mod api;
pub mod bootstrap;
pub mod bounded_read;
pub mod cli;
pub mod client;
pub mod dispatch;
pub mod lsp;
pub mod runner;
pub mod secrets;
pub mod server;
pub mod store;
