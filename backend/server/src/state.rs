//! The state every handler is given: the store, the limits, the dispatch hub, the server's
//! settings. Handlers receive it from the router (`State<AppState>`); nothing below the API
//! reaches up for it.

use crate::dispatch::Hub;
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::store::Store;
use std::path::PathBuf;
use std::sync::Arc;

/// Shared server state (cheap to clone).
#[derive(Clone, Debug)]
pub struct AppState {
    /// Directory holding the built frontend (`index.html`, `pkg/`).
    pub static_dir: PathBuf,
    /// The built book served at `/docs` (`--docs-dir`), when one is given; looked at per
    /// request (`docs.rs`).
    pub docs_dir: Option<PathBuf>,
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
    /// This process's Prometheus figures (`/metrics`).
    pub metrics: Arc<Metrics>,
    /// Who may read `/metrics` besides server administrators (`--metrics-public`,
    /// `--metrics-token`).
    pub metrics_access: MetricsAccess,
}

/// Who may scrape `/metrics`. Server administrators (a session or the admin token) always
/// may; anyone else only with the token, or anyone at all when the operator makes it public
/// (a studio on a private network behind its Prometheus).
#[derive(Clone, Debug, Default)]
pub struct MetricsAccess {
    pub public: bool,
    /// A bearer token for the scraper (at least 16 characters).
    pub token: Option<Arc<str>>,
}

impl AppState {
    pub fn new(store: Store, static_dir: PathBuf, public_url: &str) -> AppState {
        AppState {
            static_dir,
            docs_dir: None,
            store,
            admin: None,
            public_url: public_url.trim_end_matches('/').into(),
            limits: Arc::default(),
            hub: Hub::default(),
            local_runner: None,
            open_teams: false,
            trusted_proxies: Arc::from(Vec::new()),
            metrics: Arc::default(),
            metrics_access: MetricsAccess::default(),
        }
    }
}
