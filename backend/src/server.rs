//! The HTTP server: `app(state) -> Router` for tests, `serve(listener, state, shutdown)` for
//! real use. It serves the built frontend (with an SPA fallback to `index.html`), `/healthz`
//! and the JSON API under `/api/v1`.

use axum::routing::get;
use axum::Router;
use std::path::PathBuf;
use tower_http::services::{ServeDir, ServeFile};

/// Shared server state.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Directory holding the built frontend (`index.html`, `pkg/`).
    pub static_dir: PathBuf,
    /// Data directory (created on start).
    pub data_dir: PathBuf,
}

pub fn app(state: AppState) -> Router {
    let index = state.static_dir.join("index.html");
    let files = ServeDir::new(&state.static_dir).fallback(ServeFile::new(index));
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .nest("/api/v1", crate::api::router())
        .fallback_service(files)
        .with_state(state)
}

/// Serves until `shutdown` resolves; in-flight requests finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutting down");
}
