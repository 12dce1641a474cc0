//! `ds-studio serve`: opens the database (SQLite in `--data` or PostgreSQL), applies the
//! migrations, creates the administrator on first start and serves the studio.

use super::db_args::DbArgs;
use ds_studio_server::{serve, shutdown_signal, AppState};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    #[command(flatten)]
    pub db: DbArgs,
    /// Directory with the built frontend.
    #[arg(long, env = "DS_STUDIO_STATIC", default_value = "./static")]
    pub static_dir: PathBuf,
    /// The built book to serve at /docs (`cargo xtask docs` builds it into target/book);
    /// read on each request, so a book built later is served without a restart.
    #[arg(long, env = "DS_STUDIO_DOCS", default_value = "./target/book")]
    pub docs_dir: PathBuf,
    /// Make this string a valid API token of the administrator (for automation). Prefer
    /// DS_STUDIO_ADMIN_TOKEN or --admin-token-file: `ps` shows a command line to every user.
    #[arg(long, env = "DS_STUDIO_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Read the administrator's automation token from the first line of this file.
    #[arg(long, conflicts_with = "admin_token")]
    pub admin_token_file: Option<PathBuf>,
    /// Let any signed-in user create teams (default: only server administrators).
    #[arg(long)]
    pub open_teams: bool,
    /// Let anyone read /metrics without a token (a studio reachable only from its
    /// Prometheus' network). Default: server administrators and the --metrics-token.
    #[arg(long)]
    pub metrics_public: bool,
    /// A bearer token Prometheus sends to read /metrics (at least 16 characters); prefer
    /// DS_STUDIO_METRICS_TOKEN or --metrics-token-file.
    #[arg(long, env = "DS_STUDIO_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Read the metrics token from the first line of this file (Prometheus'
    /// `authorization.credentials_file` can read the same file).
    #[arg(long, conflicts_with = "metrics_token")]
    pub metrics_token_file: Option<PathBuf>,
    /// The address of a reverse proxy in front of the studio (repeat it): its
    /// `X-Forwarded-For` then names the client for the per-client limits (sign-in, anonymous
    /// validation). Without it every client behind the proxy shares the proxy's limits.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The URL users reach the studio at (for share and sign-in links); default http://ADDR.
    #[arg(long, env = "DS_STUDIO_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Log format.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
    /// Do not start the in-process `local` runner (jobs then wait for `ds-studio runner`s).
    #[arg(long)]
    pub no_local_runner: bool,
    /// Python of the local runner (default: $DS_STUDIO_PYTHON, then the environment of
    /// `ds-studio engine setup`, then python3).
    #[arg(long)]
    pub python: Option<PathBuf>,
    /// Job directories of the local runner (default: DATA/jobs).
    #[arg(long)]
    pub jobs_dir: Option<PathBuf>,
    /// A directory whose scripts the local runner's jobs may run as their `entrypoint`
    /// (repeat it; none by default: only the built-in workload runs).
    #[arg(long = "allow-entrypoints", num_args = 1.., value_name = "DIR")]
    pub allow_entrypoints: Vec<PathBuf>,
    /// GPU indices the local runner may use, e.g. `0,1` (default: every GPU NVML lists that
    /// CUDA_VISIBLE_DEVICES lets it see; none on a machine without a GPU driver).
    #[arg(long, value_delimiter = ',')]
    pub gpus: Vec<u32>,
    /// Run the local runner's jobs as this unprivileged OS user (the server must be root);
    /// recommended in production, so a job cannot read the server's files or environment.
    #[arg(long)]
    pub job_user: Option<String>,
    /// An absolute directory outside their own that jobs may write (repeat it): a local NVMe
    /// for ZeRO-Infinity's `nvme_path`, say. Jobs may write only beneath their own directory,
    /// their temporary directory, the op cache, /dev and these (the kernel enforces it where
    /// it has Landlock); a config path outside them is refused.
    #[arg(long = "job-writable", value_name = "DIR")]
    pub job_writable: Vec<PathBuf>,
    /// Do not confine jobs' writes with the kernel (Landlock). Only for a kernel or GPU
    /// driver under which a confined job cannot use its GPU (the job's preflight then fails
    /// with a CUDA error): jobs may then write any file the runner's user can.
    #[arg(long)]
    pub unconfined_jobs: bool,
}

/// Every configured directory as an absolute path: jobs run in their own working directory,
/// so a relative path handed to them would point somewhere else.
fn absolute_dirs(args: &mut Args) -> Result<(), String> {
    let abs = |p: &PathBuf| {
        std::path::absolute(p).map_err(|e| format!("cannot resolve {}: {e}", p.display()))
    };
    args.db.data = abs(&args.db.data)?;
    args.static_dir = abs(&args.static_dir)?;
    args.docs_dir = abs(&args.docs_dir)?;
    if let Some(j) = &args.jobs_dir {
        args.jobs_dir = Some(abs(j)?);
    }
    for d in &mut args.allow_entrypoints {
        *d = abs(d)?;
    }
    Ok(())
}

/// The administrator's automation token from `--admin-token-file`, `--admin-token` or
/// DS_STUDIO_ADMIN_TOKEN.
fn admin_token(args: &Args) -> Result<Option<String>, String> {
    let token = match &args.admin_token_file {
        Some(f) => Some(crate::input::secret_from_file("--admin-token-file", f)?),
        None => args.admin_token.clone(),
    };
    if std::env::args().any(|a| a == "--admin-token" || a.starts_with("--admin-token=")) {
        tracing::warn!("--admin-token on the command line is visible to every process on this host; use DS_STUDIO_ADMIN_TOKEN or --admin-token-file");
    }
    match token {
        Some(t) if t.len() < 16 => Err("the admin token must be at least 16 characters".into()),
        t => Ok(t),
    }
}

/// The scraper's token from `--metrics-token-file`, `--metrics-token` or
/// DS_STUDIO_METRICS_TOKEN.
fn metrics_token(args: &Args) -> Result<Option<String>, String> {
    let token = match &args.metrics_token_file {
        Some(f) => Some(crate::input::secret_from_file("--metrics-token-file", f)?),
        None => args.metrics_token.clone(),
    };
    match token {
        Some(t) if t.len() < 16 => Err("the metrics token must be at least 16 characters".into()),
        t => Ok(t),
    }
}

/// Whether `addr` listens only on the loopback interface.
fn loopback_only(addr: &str) -> bool {
    addr.parse::<std::net::SocketAddr>()
        .map(|a| a.ip().is_loopback())
        .unwrap_or_else(|_| addr.starts_with("localhost:"))
}

pub(crate) fn init_logs(format: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn,tower_http=info".into());
    let b = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = if format == "json" {
        b.json().try_init()
    } else {
        b.try_init()
    };
}

/// Serves [`ds_studio_server::app::serve_starting`] on a duplicate of `listener` until the
/// sender fires; the task ends once that server has stopped accepting.
fn starting_server(
    listener: &tokio::net::TcpListener,
) -> std::io::Result<(
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
)> {
    use std::os::fd::AsFd;
    let std_listener = std::net::TcpListener::from(listener.as_fd().try_clone_to_owned()?);
    std_listener.set_nonblocking(true)?;
    let dup = tokio::net::TcpListener::from_std(std_listener)?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(ds_studio_server::app::serve_starting(dup, async move {
        let _ = rx.await;
    }));
    Ok((tx, task))
}

pub fn run(mut args: Args) -> i32 {
    init_logs(&args.log_format);
    if let Err(e) = absolute_dirs(&mut args) {
        eprintln!("ds-studio: {e}");
        return 2;
    }
    let admin_token = match admin_token(&args) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
    };
    let metrics_token = match metrics_token(&args) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
    };
    let job_user = match args
        .job_user
        .as_deref()
        .map(ds_studio_runner::confine::JobUser::lookup)
    {
        Some(Err(e)) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
        Some(Ok(u)) => Some(u),
        None => None,
    };
    let https = args
        .public_url
        .as_deref()
        .is_some_and(|u| u.starts_with("https://"));
    if !loopback_only(&args.addr) && !https {
        tracing::warn!(addr = %args.addr, "serving beyond this host without an https --public-url: session cookies are not marked Secure and travel in clear text; put the studio behind TLS and set --public-url https://...");
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
        // While the database is opened and migrated, the port answers 503 `starting` (and
        // `/readyz` 503) from a second handle on the same socket.
        let (started, starting) = match starting_server(&listener) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("ds-studio: cannot listen on {}: {e}", args.addr);
                return 2;
            }
        };
        let store = match args.db.open().await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("ds-studio: {e}");
                return 2;
            }
        };
        let public_url = args.public_url.clone().unwrap_or_else(|| {
            format!(
                "http://{}",
                listener
                    .local_addr()
                    .map(|a| a.to_string())
                    .unwrap_or(args.addr.clone())
            )
        });
        let mut state = AppState::new(store.clone(), args.static_dir.clone(), &public_url);
        state.docs_dir = Some(args.docs_dir.clone());
        // On PostgreSQL this process may be one of several replicas: their hubs are bridged.
        let mut cluster = None;
        if let Some(url) = args.db.database_url.as_deref().filter(|u| !u.is_empty()) {
            match ds_studio_server::cluster::Cluster::join(url, store.clone(), &state.hub).await {
                Ok(c) => {
                    tracing::info!(replica = c.replica(), "replica bridge ready (LISTEN/NOTIFY)");
                    cluster = Some(c);
                }
                Err(e) => {
                    eprintln!("ds-studio: {e}");
                    return 2;
                }
            }
        }
        let bootstrap = ds_studio_server::bootstrap::ensure_admin(&store, &public_url);
        let boot = match &cluster {
            Some(c) => c
                .one_at_a_time(ds_studio_server::cluster::Task::Bootstrap, bootstrap)
                .await
                .unwrap_or_else(|e| {
                    Err(ds_studio_server::store::StoreError::Background(
                        e.to_string(),
                    ))
                }),
            None => bootstrap.await,
        };
        let boot = match boot {
            Ok(b) => b,
            Err(e) => {
                eprintln!("ds-studio: cannot create the administrator: {e}");
                return 2;
            }
        };
        let _ = started.send(());
        let _ = starting.await;
        if let Some(url) = &boot.signin_url {
            println!(
                "First start: sign in as `admin` with this one-time link (valid 24 h):\n  {url}"
            );
        }
        state.admin = admin_token.as_deref().map(|t| (t.into(), boot.admin.id));
        state.open_teams = args.open_teams;
        state.metrics_access = ds_studio_server::state::MetricsAccess {
            public: args.metrics_public,
            token: metrics_token.as_deref().map(Into::into),
        };
        state.trusted_proxies = args.trusted_proxies.clone().into();
        tokio::spawn(ds_studio_server::reaper::reap_forever(
            state.hub.clone(),
            store.clone(),
            cluster.clone(),
        ));
        // Jobs from before the runs table get their facts and figures, in the background (by
        // one replica at a time).
        {
            let store = store.clone();
            let cluster = cluster.clone();
            tokio::spawn(async move {
                let backfill = async { store.backfill_runs().await.map_err(|e| e.to_string()) };
                let done = match &cluster {
                    Some(c) => c
                        .once_per_cluster(ds_studio_server::cluster::Task::Backfill, backfill)
                        .await
                        .unwrap_or_else(|e| Some(Err(e.to_string()))),
                    None => Some(backfill.await),
                };
                match done {
                    None | Some(Ok(0)) => {}
                    Some(Ok(n)) => tracing::info!(jobs = n, "runs table: filled in older jobs"),
                    Some(Err(e)) => {
                        tracing::error!(error = %e, "runs table: filling in older jobs failed")
                    }
                }
            });
        }
        if let (false, Some(c)) = (args.no_local_runner, &cluster) {
            // Two local runners would share the runner `local` and mark each other's jobs lost.
            match c.other_replicas().await {
                Ok(0) => tracing::warn!("on PostgreSQL with more than one replica, start the other replicas with --no-local-runner: one runner named `local` per database"),
                Ok(n) => {
                    eprintln!("ds-studio: {n} other replica(s) already serve this database: start this one with --no-local-runner (the runner `local` can run on one replica only; connect `ds-studio runner`s instead)");
                    return 2;
                }
                Err(e) => tracing::warn!(error = %e, "cannot count the other replicas"),
            }
        }
        if !args.no_local_runner {
            // The local runner speaks the runner protocol to this server, with a token that
            // lives only in memory.
            let token = ds_studio_server::secrets::random_token(
                ds_studio_server::store::runner_tokens::RUNNER_TOKEN_PREFIX,
            );
            state.local_runner = Some(token.as_str().into());
            let addr = listener
                .local_addr()
                .map(|a| format!("http://{a}"))
                .unwrap_or_else(|_| public_url.clone());
            let mut config = ds_studio_runner::RunnerConfig::new(
                &addr,
                &token,
                "local",
                args.jobs_dir
                    .clone()
                    .unwrap_or_else(|| args.db.data.join("jobs")),
            );
            config.python = ds_studio_runner::engine::resolve_python(args.python.as_deref());
            config.allow_entrypoints = args.allow_entrypoints.clone();
            config.job_writable = args.job_writable.clone();
            config.confine_jobs = !args.unconfined_jobs;
            config.job_user = job_user.clone();
            config.gpus = args.gpus.clone();
            tracing::info!(python = %config.python.display(), "starting the local runner");
            tokio::spawn(async move {
                if let Err(e) = ds_studio_runner::run(config, std::future::pending()).await {
                    tracing::error!(error = %e, "the local runner stopped");
                }
            });
        }
        let db = match &args.db.database_url {
            Some(u) if !u.is_empty() => ds_studio_server::store::redact(u),
            _ => args.db.data.join("ds-studio.db").display().to_string(),
        };
        tracing::info!(%db, "ds-studio listening on {} (users reach it at {public_url})", args.addr);
        let hub = state.hub.clone();
        let shutdown = async move {
            shutdown_signal().await;
            hub.close();
        };
        let code = match serve(listener, state, shutdown).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("ds-studio: server error: {e}");
                1
            }
        };
        store.close().await;
        code
    })
}
