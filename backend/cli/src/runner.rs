//! `ds-studio runner`: a job runner on a GPU host (talks HTTP to the server only), and
//! `ds-studio engine setup|info`: the Python environment it runs DeepSpeed with.

use ds_studio_runner::{engine, RunnerConfig};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct RunnerArgs {
    /// Server URL, e.g. http://studio.example:8080.
    #[arg(long, env = "DS_STUDIO_SERVER")]
    pub server: String,
    /// File holding the runner token (`ds-studio runner-token create --name NAME`); or set
    /// DS_STUDIO_RUNNER_TOKEN. Never on the command line, where `ps` shows it.
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// Runner name (default: the host name); the runner token must be for this name.
    /// Re-registering a name reuses its record.
    #[arg(long)]
    pub name: Option<String>,
    /// A directory whose scripts jobs may run as their `entrypoint` (repeat it; none by
    /// default: only the built-in workload runs). Never the job directories.
    #[arg(long = "allow-entrypoints", num_args = 1.., value_name = "DIR")]
    pub allow_entrypoints: Vec<PathBuf>,
    /// Run every job's processes as this unprivileged OS user (the runner must be root); the
    /// job then cannot read the runner's files, environment or credentials.
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
    /// GPU indices this runner may use, e.g. `0,1,2,3` (default: all the processes see).
    #[arg(long, value_delimiter = ',')]
    pub gpus: Vec<u32>,
    /// Directory for job directories (`job-<id>/`: config, logs spool, CSV monitor).
    #[arg(long, default_value = "./ds-studio-jobs")]
    pub workdir: PathBuf,
    /// Where jobs run: processes on this host, or Slurm jobs submitted with sbatch (the
    /// workdir must then be on a filesystem the nodes share).
    #[arg(long, default_value = "local", value_parser = ["local", "slurm"])]
    pub backend: String,
    /// An extra `#SBATCH` option for the Slurm backend, e.g. `--slurm-arg=--partition=gpu`
    /// (repeat it).
    #[arg(long = "slurm-arg", allow_hyphen_values = true)]
    pub slurm_args: Vec<String>,
    /// Python with torch and deepspeed (default: $DS_STUDIO_PYTHON, then the environment of
    /// `ds-studio engine setup`, then python3).
    #[arg(long)]
    pub python: Option<PathBuf>,
    /// Seconds between heartbeats.
    #[arg(long, default_value_t = 3)]
    pub heartbeat_s: u64,
}

pub fn run(args: RunnerArgs) -> i32 {
    super::serve::init_logs("text");
    let name = args.name.clone().unwrap_or_else(|| {
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "runner".into())
    });
    let token = match runner_token(args.token_file.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ds-studio runner: {e}");
            return 2;
        }
    };
    let mut config = RunnerConfig::new(&args.server, &token, &name, args.workdir.clone());
    config.allow_entrypoints = args.allow_entrypoints.clone();
    config.job_writable = args.job_writable.clone();
    config.confine_jobs = !args.unconfined_jobs;
    if let Some(u) = &args.job_user {
        match ds_studio_runner::confine::JobUser::lookup(u) {
            Ok(u) => config.job_user = Some(u),
            Err(e) => {
                eprintln!("ds-studio runner: {e}");
                return 2;
            }
        }
    }
    config.backend = args.backend.clone();
    config.slurm_args = args.slurm_args.clone();
    if config.backend == "slurm" {
        let found = std::process::Command::new("sbatch")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            eprintln!("ds-studio runner: --backend slurm needs `sbatch` on the PATH (and SLURM_CONF where the cluster needs it)");
            return 2;
        }
    }
    config.gpus = args.gpus.clone();
    config.python = engine::resolve_python(args.python.as_deref());
    config.heartbeat = Duration::from_secs(args.heartbeat_s.max(1));
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ds-studio: cannot start the runtime: {e}");
            return 2;
        }
    };
    match rt.block_on(ds_studio_runner::run(
        config,
        ds_studio_server::shutdown_signal(),
    )) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("ds-studio runner: {e}");
            e.exit_code()
        }
    }
}

/// The runner token: the first line of `--token-file`, else `DS_STUDIO_RUNNER_TOKEN`.
fn runner_token(file: Option<&std::path::Path>) -> Result<String, String> {
    let token = match file {
        Some(f) => crate::input::secret_from_file("--token-file", f)?,
        None => std::env::var("DS_STUDIO_RUNNER_TOKEN").unwrap_or_default(),
    };
    if token.is_empty() {
        return Err(
            "no runner token: pass --token-file FILE or set DS_STUDIO_RUNNER_TOKEN (make one with `ds-studio runner-token create --name NAME`)"
                .into(),
        );
    }
    Ok(token)
}

#[derive(clap::Subcommand, Debug)]
pub enum EngineCommand {
    /// Create the virtual environment with torch and deepspeed (about 2 minutes and 5 GB;
    /// nothing to do when it is there).
    Setup {
        /// Where (default ~/.cache/ds-studio/engine).
        #[arg(long)]
        venv: Option<PathBuf>,
        /// Make it again even if it works.
        #[arg(long)]
        force: bool,
    },
    /// Print the Python a runner would use.
    Info,
}

pub fn engine_cmd(c: EngineCommand) -> i32 {
    match c {
        EngineCommand::Setup { venv, force } => {
            let venv = venv.unwrap_or_else(engine::default_venv);
            match engine::setup(&venv, force) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("ds-studio engine setup: {e}");
                    1
                }
            }
        }
        EngineCommand::Info => {
            println!("{}", engine::resolve_python(None).display());
            0
        }
    }
}
