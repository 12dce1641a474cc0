//! The state every handler is given: the store, the limits, the dispatch hub, the server's
//! settings. Handlers receive it from the router (`State<AppState>`); nothing below the API
//! reaches up for it.

use crate::dispatch::Hub;
use crate::limits::Limits;
use crate::store::Store;
use std::path::PathBuf;
use std::sync::Arc;

/// Shared server state (cheap to clone).
#[derive(Clone, Debug)]
pub struct AppState {
    /// Directory holding the built frontend (`index.html`, `pkg/`).
    pub static_dir: PathBuf,
    pub store: Store,
    /// `--admin-token` and the admin user it acts as.
    pub admin: Option<(Arc<str>, i64)>,
    /// Base URL of the studio as users reach it (share links and sign-in links use it).
    pub public_url: Arc<str>,
    /// Rate limits, concurrency limits and open streams.
    pub limits: Arc<Limits>,
    /// Job events and state changes for SSE watchers; wakes runners waiting for a job.
    pub hub: Hub,
    /// The in-memory runner token of the in-process local runner (runner `local`, every team).
    pub local_runner: Option<Arc<str>>,
    /// Any signed-in user may create a team (`--open-teams`); otherwise only server admins.
    pub open_teams: bool,
    /// Reverse proxies whose `X-Forwarded-For` names the client for per-client limits
    /// (`--trusted-proxy`).
    pub trusted_proxies: Arc<[std::net::IpAddr]>,
}

impl AppState {
    pub fn new(store: Store, static_dir: PathBuf, public_url: &str) -> AppState {
        AppState {
            static_dir,
            store,
            admin: None,
            public_url: public_url.trim_end_matches('/').into(),
            limits: Arc::default(),
            hub: Hub::default(),
            local_runner: None,
            open_teams: false,
            trusted_proxies: Arc::from(Vec::new()),
        }
    }
}
