//! `ds-studio serve`: starts the studio.

use crate::server::{serve, shutdown_signal, AppState};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Data directory (created on first start).
    #[arg(long, default_value = "./data")]
    pub data: PathBuf,
    /// Directory with the built frontend.
    #[arg(long, env = "DS_STUDIO_STATIC", default_value = "./static")]
    pub static_dir: PathBuf,
}

pub fn run(args: Args) -> i32 {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    if let Err(e) = std::fs::create_dir_all(&args.data) {
        eprintln!(
            "ds-studio: cannot create data directory {}: {e}",
            args.data.display()
        );
        return 2;
    }
    if !args.static_dir.join("index.html").exists() {
        tracing::warn!(dir = %args.static_dir.display(), "no index.html: build the frontend with `cargo xtask build`");
    }
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ds-studio: cannot start the runtime: {e}");
            return 2;
        }
    };
    rt.block_on(async {
        let listener = match tokio::net::TcpListener::bind(&args.addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("ds-studio: cannot listen on {}: {e}", args.addr);
                return 2;
            }
        };
        tracing::info!(addr = %args.addr, data = %args.data.display(), "ds-studio listening on http://{}", args.addr);
        let state = AppState { static_dir: args.static_dir, data_dir: args.data };
        match serve(listener, state, shutdown_signal()).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("ds-studio: server error: {e}");
                1
            }
        }
    })
}
