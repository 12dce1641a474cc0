//! What a job may see and run on the runner host.
//!
//! - **Environment**: a job's processes start from an empty environment plus an allowlist of the
//!   runner's variables that DeepSpeed, torch and NCCL need ([`INHERITED`]), the engine's own
//!   variables, the user's `env` (checked again here with the API's rule), and the runner's GPU
//!   set last. No secret of the server or the runner (`DS_STUDIO_*`, `DATABASE_URL`, tokens)
//!   is ever passed on.
//! - **Entrypoints**: a job's script must resolve (symlinks followed) to a file under a
//!   directory the runner's operator allows (`--allow-entrypoints DIR`, none by default), and
//!   never into the runner's job directories. The built-in workload is always allowed.
//! - **Job user**: with `--job-user NAME` every process of a job (preflight included) runs as
//!   that OS user, so it cannot read the server's files or `/proc/<pid>/environ`.

use ds_studio_shared::api::env_name_refusal;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Runner variables a job keeps (when set): locale, time zone, temporary files, where CUDA and
/// its libraries are, Slurm's config for `sbatch`, thread counts.
pub const INHERITED: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TMPDIR",
    "TERM",
    "CUDA_HOME",
    "CUDA_PATH",
    "LD_LIBRARY_PATH",
    "SLURM_CONF",
    "DS_ACCELERATOR",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
];

/// Prefixes of runner variables a job keeps: locale categories and the operator's NCCL tuning.
pub const INHERITED_PREFIXES: &[&str] = &["LC_", "NCCL_"];

/// Whether the runner's variable `name` is passed on to jobs.
pub fn inherited(name: &str) -> bool {
    INHERITED.contains(&name) || INHERITED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The OS user a job runs as (`--job-user`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobUser {
    pub name: String,
    pub uid: u32,
    pub gid: u32,
    pub home: PathBuf,
}

impl JobUser {
    /// Looks `name` up in the user database.
    pub fn lookup(name: &str) -> Result<JobUser, String> {
        let c = std::ffi::CString::new(name).map_err(|_| format!("bad user name `{name}`"))?;
        let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
        let mut buf = vec![0u8; 16 * 1024];
        let mut out: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: getpwnam_r writes into `pwd` and `buf`, which outlive the call; `out` is
        // either null or points at `pwd`.
        let rc = unsafe {
            libc::getpwnam_r(
                c.as_ptr(),
                &mut pwd,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut out,
            )
        };
        if rc != 0 || out.is_null() {
            return Err(format!(
                "--job-user: there is no user `{name}` on this host"
            ));
        }
        // SAFETY: pw_dir points into `buf`, a NUL-terminated string set by getpwnam_r.
        let home = unsafe { std::ffi::CStr::from_ptr(pwd.pw_dir) }
            .to_string_lossy()
            .into_owned();
        if pwd.pw_uid == 0 {
            return Err(format!(
                "--job-user: `{name}` is root; jobs must run as an unprivileged user"
            ));
        }
        Ok(JobUser {
            name: name.into(),
            uid: pwd.pw_uid,
            gid: pwd.pw_gid,
            home: PathBuf::from(home),
        })
    }

    /// Makes `cmd` start as this user. The runner must be root (or have CAP_SETUID and
    /// CAP_SETGID) for the switch; the child fails to start otherwise. Dropping from root, the
    /// standard library also clears the supplementary groups (`setgroups(0)`) before `setuid`.
    pub fn apply(&self, cmd: &mut tokio::process::Command) {
        cmd.uid(self.uid).gid(self.gid);
    }

    /// Gives the job's working directory (created empty by the runner) to this user; only that
    /// directory, so nothing the runner reads or writes is the job user's.
    pub fn own(&self, work: &Path) -> Result<(), String> {
        std::os::unix::fs::lchown(work, Some(self.uid), Some(self.gid))
            .map_err(|e| format!("cannot give {} to `{}`: {e}", work.display(), self.name))
    }

    /// Ends every process of this user (`kill -KILL -1` run as the user), so nothing a job
    /// started outlives it. One job user per runner: this ends all of its jobs' processes.
    pub async fn kill_all(&self) {
        let mut cmd = tokio::process::Command::new("/bin/kill");
        cmd.args(["-KILL", "-1"])
            .env_clear()
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        self.apply(&mut cmd);
        let _ = cmd.status().await;
    }
}

/// The environment of a job's processes: the inherited allowlist of `runner_env`, the engine's
/// variables (`python`'s directory first on PATH, oneDNN, the op cache), the user's `env`
/// (refused names dropped with a reason), and `CUDA_VISIBLE_DEVICES` for the runner's GPUs last.
/// Returns the variables and the names it refused.
pub fn job_env(
    runner_env: impl IntoIterator<Item = (String, String)>,
    python: &Path,
    user: Option<&JobUser>,
    user_env: &BTreeMap<String, String>,
    gpus: &[u32],
    op_cache: &Path,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut env: BTreeMap<String, String> = runner_env
        .into_iter()
        .filter(|(k, _)| inherited(k))
        .collect();
    if let Some(u) = user {
        env.insert("HOME".into(), u.home.display().to_string());
        env.insert("USER".into(), u.name.clone());
        env.insert("LOGNAME".into(), u.name.clone());
    }
    // The venv's bin holds `ninja` (DeepSpeed's op builder fails without it) and `deepspeed`.
    let path = env
        .get("PATH")
        .cloned()
        .unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    match python.parent().filter(|b| !b.as_os_str().is_empty()) {
        Some(bin) => env.insert("PATH".into(), format!("{}:{path}", bin.display())),
        None => env.insert("PATH".into(), path),
    };
    // Without it every bf16 run on a CPU with AVX512-FP16 dies with "Illegal instruction".
    env.entry("ONEDNN_MAX_CPU_ISA".into())
        .or_insert_with(|| "AVX512_CORE_FP16".into());
    // Compiled DeepSpeed ops are kept between jobs (the first compile takes minutes).
    env.insert(
        "TORCH_EXTENSIONS_DIR".into(),
        op_cache.display().to_string(),
    );
    env.insert("PYTHONUNBUFFERED".into(), "1".into());
    let (vars, refused) = user_vars(user_env);
    env.extend(vars);
    if !gpus.is_empty() {
        let ids: Vec<String> = gpus.iter().map(u32::to_string).collect();
        env.insert("CUDA_VISIBLE_DEVICES".into(), ids.join(","));
    }
    (env.into_iter().collect(), refused)
}

/// The user's variables a job may set, and why the others are refused (the API's rule, checked
/// again on the runner).
pub fn user_vars(user_env: &BTreeMap<String, String>) -> (Vec<(String, String)>, Vec<String>) {
    let mut ok = Vec::new();
    let mut refused = Vec::new();
    for (k, v) in user_env {
        match env_name_refusal(k) {
            Some(why) => refused.push(why),
            None if v.contains('\0') => refused.push(format!("env: `{k}` holds a NUL byte")),
            None => ok.push((k.clone(), v.clone())),
        }
    }
    (ok, refused)
}

/// Where a job's entrypoint may be: directories the operator allows, never the job directories.
#[derive(Debug, Clone, Default)]
pub struct EntrypointPolicy {
    /// Allowed directories, resolved to real paths.
    pub allowed: Vec<PathBuf>,
    /// The runner's job directories (resolved), never allowed.
    pub workdir: PathBuf,
}

impl EntrypointPolicy {
    /// Resolves the allowed directories; one that does not exist is an error.
    pub fn new(allowed: &[PathBuf], workdir: &Path) -> Result<EntrypointPolicy, String> {
        let workdir = workdir
            .canonicalize()
            .map_err(|e| format!("{}: {e}", workdir.display()))?;
        let mut dirs = Vec::new();
        for d in allowed {
            let real = d
                .canonicalize()
                .map_err(|e| format!("--allow-entrypoints {}: {e}", d.display()))?;
            if !real.is_dir() {
                return Err(format!(
                    "--allow-entrypoints {}: not a directory",
                    d.display()
                ));
            }
            if workdir.starts_with(&real) {
                return Err(format!(
                    "--allow-entrypoints {}: it holds the job directories {}, which jobs write into",
                    d.display(),
                    workdir.display()
                ));
            }
            dirs.push(real);
        }
        Ok(EntrypointPolicy {
            allowed: dirs,
            workdir,
        })
    }

    /// The real path of `entrypoint` when the policy allows it; a relative path is looked up in
    /// each allowed directory in turn.
    pub fn resolve(&self, entrypoint: &str) -> Result<PathBuf, String> {
        if self.allowed.is_empty() {
            return Err(format!(
                "this runner runs only the built-in workload; its operator allows no entrypoint \
                 (`ds-studio runner --allow-entrypoints DIR`), so `{entrypoint}` cannot run here"
            ));
        }
        let given = Path::new(entrypoint);
        let candidates: Vec<PathBuf> = if given.is_absolute() {
            vec![given.to_path_buf()]
        } else {
            self.allowed.iter().map(|d| d.join(given)).collect()
        };
        let list = || {
            self.allowed
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let resolved: Vec<PathBuf> = candidates
            .iter()
            .filter_map(|c| c.canonicalize().ok())
            .collect();
        // The first that resolves inside an allowed directory (a link escaping one allowed
        // directory does not hide a real script in the next).
        let real = resolved
            .iter()
            .find(|r| {
                !r.starts_with(&self.workdir) && self.allowed.iter().any(|d| r.starts_with(d))
            })
            .or_else(|| resolved.first())
            .cloned()
            .ok_or_else(|| {
                format!(
                    "the entrypoint `{entrypoint}` does not exist on this runner (allowed: {})",
                    list()
                )
            })?;
        if real.starts_with(&self.workdir) {
            return Err(format!(
                "the entrypoint `{entrypoint}` is inside the runner's job directories; jobs never run files there"
            ));
        }
        if !self.allowed.iter().any(|d| real.starts_with(d)) {
            return Err(format!(
                "the entrypoint `{entrypoint}` ({}) is not under a directory this runner allows: {}",
                real.display(),
                list()
            ));
        }
        if !real.is_file() {
            return Err(format!("the entrypoint `{entrypoint}` is not a file"));
        }
        Ok(real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "ds-studio-confine-{tag}-{}-{:?}",
            std::process::id(),
            std::time::SystemTime::now()
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_job_keeps_only_the_allowlist_and_never_a_server_secret() {
        let runner = [
            ("PATH", "/usr/bin:/bin"),
            ("HOME", "/root"),
            ("DS_STUDIO_ADMIN_TOKEN", "secret-admin-token"),
            ("DATABASE_URL", "postgres://u:pw@db/x"),
            ("AWS_SECRET_ACCESS_KEY", "k"),
            ("NCCL_SOCKET_IFNAME", "eth0"),
            ("LC_ALL", "C.UTF-8"),
            ("CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5,6,7"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let user = BTreeMap::from([
            ("LD_PRELOAD".to_string(), "/tmp/evil.so".to_string()),
            ("PYTHONPATH".to_string(), "/tmp".to_string()),
            ("CUDA_VISIBLE_DEVICES".to_string(), "0,1,2,3".to_string()),
            ("NCCL_DEBUG".to_string(), "INFO".to_string()),
        ]);
        let (env, refused) = job_env(
            runner,
            Path::new("/venv/bin/python"),
            None,
            &user,
            &[2, 3],
            Path::new("/cache/torch_ext"),
        );
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("DS_STUDIO_ADMIN_TOKEN"), None);
        assert_eq!(get("DATABASE_URL"), None);
        assert_eq!(get("AWS_SECRET_ACCESS_KEY"), None);
        assert_eq!(get("LD_PRELOAD"), None);
        assert_eq!(get("PYTHONPATH"), None);
        assert_eq!(get("PATH"), Some("/venv/bin:/usr/bin:/bin"));
        assert_eq!(get("NCCL_SOCKET_IFNAME"), Some("eth0"));
        assert_eq!(get("NCCL_DEBUG"), Some("INFO"));
        assert_eq!(get("LC_ALL"), Some("C.UTF-8"));
        // The runner's GPU set, not the user's nor the runner's own environment.
        assert_eq!(get("CUDA_VISIBLE_DEVICES"), Some("2,3"));
        assert_eq!(get("TORCH_EXTENSIONS_DIR"), Some("/cache/torch_ext"));
        assert_eq!(refused.len(), 3, "{refused:?}");
        assert!(refused.iter().any(|r| r.contains("LD_PRELOAD")));
    }

    #[test]
    fn entrypoints_resolve_only_under_allowed_directories_and_never_into_job_directories() {
        let root = scratch("entry");
        let allowed = root.join("scripts");
        let jobs = root.join("jobs");
        std::fs::create_dir_all(&allowed).unwrap();
        std::fs::create_dir_all(jobs.join("job-1")).unwrap();
        std::fs::write(allowed.join("train.py"), "print(1)").unwrap();
        std::fs::write(jobs.join("job-1/ds_config.json"), "{}").unwrap();
        std::fs::write(root.join("outside.py"), "print(2)").unwrap();
        // A symlink inside the allowed directory that points out of it.
        std::os::unix::fs::symlink(root.join("outside.py"), allowed.join("link.py")).unwrap();
        std::os::unix::fs::symlink(jobs.join("job-1/ds_config.json"), allowed.join("cfg.py"))
            .unwrap();

        let none = EntrypointPolicy::new(&[], &jobs).unwrap();
        assert!(none
            .resolve("/usr/lib/python3.11/pdb.py")
            .unwrap_err()
            .contains("only the built-in workload"));

        let p = EntrypointPolicy::new(std::slice::from_ref(&allowed), &jobs).unwrap();
        let real = allowed.canonicalize().unwrap().join("train.py");
        assert_eq!(p.resolve("train.py").unwrap(), real);
        assert_eq!(p.resolve(real.to_str().unwrap()).unwrap(), real);
        for bad in [
            "/usr/lib/python3.11/pdb.py".to_string(),
            root.join("outside.py").display().to_string(),
            "link.py".into(),
            "../outside.py".into(),
            format!("{}/../outside.py", allowed.display()),
        ] {
            let e = p.resolve(&bad).unwrap_err();
            assert!(e.contains("not under a directory"), "{bad}: {e}");
        }
        let e = p
            .resolve(&jobs.join("job-1/ds_config.json").display().to_string())
            .unwrap_err();
        assert!(e.contains("job directories"), "{e}");
        assert!(p.resolve("cfg.py").unwrap_err().contains("job directories"));
        assert!(p
            .resolve("missing.py")
            .unwrap_err()
            .contains("does not exist"));
        // Allowing a directory that holds the job directories is refused at start.
        assert!(EntrypointPolicy::new(std::slice::from_ref(&root), &jobs)
            .unwrap_err()
            .contains("holds the job directories"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// `--job-user`: the job's process runs as that user, so the server's private files and
    /// its process environment (where DS_STUDIO_ADMIN_TOKEN lives) are out of its reach.
    #[tokio::test]
    async fn a_job_user_cannot_read_the_servers_files_or_environment() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: switching users needs root (CI runs as root)");
            return;
        }
        let dir = scratch("user");
        let secret = dir.join("ds-studio.db");
        std::fs::write(&secret, "admin-token-in-the-database").unwrap();
        std::fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .unwrap();
        let nobody = JobUser::lookup("nobody").unwrap();
        let script = format!(
            "id -u; cat {} && echo READ-FILE; cat /proc/{}/environ && echo READ-ENVIRON; echo done",
            secret.display(),
            std::process::id()
        );
        let mut cmd = tokio::process::Command::new("/bin/sh");
        cmd.args(["-c", &script]).env_clear().current_dir("/");
        nobody.apply(&mut cmd);
        let out = cmd.output().await.unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stdout.lines().next(), Some(nobody.uid.to_string().as_str()));
        assert!(stdout.contains("done"), "{stdout}{stderr}");
        assert!(!stdout.contains("READ-FILE"), "{stdout}");
        assert!(!stdout.contains("admin-token"), "{stdout}");
        assert!(!stdout.contains("READ-ENVIRON"), "{stdout}");
        assert!(stderr.contains("Permission denied"), "{stderr}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn root_cannot_be_the_job_user_and_unknown_users_are_named() {
        assert!(JobUser::lookup("root")
            .unwrap_err()
            .contains("unprivileged"));
        assert!(JobUser::lookup("no-such-user-ds")
            .unwrap_err()
            .contains("no user `no-such-user-ds`"));
        let nobody = JobUser::lookup("nobody").unwrap();
        assert!(nobody.uid > 0);
    }
}
