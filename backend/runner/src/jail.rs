//! The kernel's confinement of a job's writes (Landlock, through the `landlock` crate).
//!
//! Every process of a local-runner job (the preflight and the training, and whatever they
//! start) may create, write, rename, truncate or delete files only beneath the directories
//! given here: the job's `work/` directory, its own temporary directory, its team's op cache,
//! and the system paths of [`writable_system_paths`] (`/dev/null`, `/dev/shm`, the GPUs', and
//! `/proc` where an NVIDIA GPU is, for its driver); on
//! Linux 6.12+ it may also signal, and connect to abstract UNIX sockets of, only its own
//! processes. Reading is not restricted, nor is the network.
//! The kernel enforces it, so a config key or a variable the checks before it do not know
//! cannot make DeepSpeed write over the server's database or the runner's event spool.
//!
//! The ruleset is built in the runner (paths opened, rules added), and only two system calls
//! run in the child between `fork` and `exec`: `prctl(PR_SET_NO_NEW_PRIVS)` and
//! `landlock_restrict_self`. Landlock needs no privilege. Where the kernel has no Landlock
//! ([`landlock_abi`] is 0) the jail is open: the runner says so when it starts and in
//! `ds-studio runners`, and jobs run with the config and variable checks alone.

use landlock::{
    path_beneath_rules, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, ABI,
};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The Landlock ABI whose rights a jail handles (Linux 6.12: writes, renames across
/// directories, truncation, device ioctls; signals and abstract UNIX sockets scoped to the
/// job's own processes). Older kernels enforce what they know.
const HANDLED: ABI = ABI::V6;
/// [`HANDLED`] as a number: what `ds-studio runners` reports is the lower of it and the
/// kernel's.
pub const HANDLED_ABI: u32 = 6;

/// The system paths a job may write: the device files of [`devices_for`] and, on a machine
/// with an NVIDIA GPU, `/proc`.
///
/// NVIDIA's driver library writes beneath its own process's `/proc/<pid>/task/` when CUDA
/// starts: confined without it, `cuInit` answers 304 ("OS call failed") and no job can use its
/// GPU (measured on an H200, driver 580.159, Linux 6.18: with `/proc/self` alone admitted, the
/// confined child starts CUDA; `tools/gpu-models/jail_diag.py`). Landlock cannot name the
/// `/proc` directories of processes not started yet, so the rule admits `/proc`. Landlock still
/// keeps a job from tracing, and so from writing the memory of, any process outside it; what a
/// job running as root could also write there is `/proc/sys`, which is why production runs
/// jobs as an unprivileged `--job-user` (the runner warns otherwise).
pub fn writable_system_paths() -> Vec<PathBuf> {
    let names: Vec<String> = std::fs::read_dir("/dev")
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    system_paths_for(&names)
}

/// [`writable_system_paths`] for a `/dev` holding `names`.
fn system_paths_for(names: &[String]) -> Vec<PathBuf> {
    let mut out = devices_for(names);
    if has_nvidia_gpu(names) {
        out.push(PathBuf::from("/proc"));
    }
    out
}

/// Whether `/dev` (its entries' `names`) holds an NVIDIA GPU's device file.
fn has_nvidia_gpu(names: &[String]) -> bool {
    names.iter().any(|n| n == "nvidiactl")
}

/// The device files a job may write (`/dev/null`, `/dev/shm`, the GPUs' and RDMA devices),
/// never the others (`/dev/loop*` and the disks: a job that could write one would write the
/// file or file system behind it), for a `/dev` holding `names`.
fn devices_for(names: &[String]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = [
        "/dev/null",
        "/dev/zero",
        "/dev/full",
        "/dev/random",
        "/dev/urandom",
        "/dev/shm",
        "/dev/infiniband",
        "/dev/dri",
        "/dev/kfd",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    for n in names.iter().filter(|n| n.starts_with("nvidia")) {
        out.push(Path::new("/dev").join(n));
    }
    out.sort();
    out
}

/// The Landlock ABI a jail enforces here: the lower of the kernel's and [`HANDLED_ABI`].
pub fn enforced_abi() -> u32 {
    landlock_abi().min(HANDLED_ABI)
}

/// The Landlock ABI version the running kernel offers; 0 when it has none (not built in, or
/// not enabled at boot).
pub fn landlock_abi() -> u32 {
    // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only returns
    // the version; it reads no memory.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    u32::try_from(v).unwrap_or(0)
}

/// One line on what confines this runner's jobs, for its start-up log and its report.
pub fn describe(abi: u32) -> String {
    if abi == 0 {
        "job writes are NOT confined by the kernel (no Landlock here): jobs run with the config and variable checks alone".into()
    } else {
        let scoped = if abi >= 6 {
            "; its signals and abstract sockets reach only its own processes"
        } else {
            ""
        };
        format!("job writes are confined by the kernel (Landlock ABI {abi}) to the job's directory, its temporary directory, the op cache and the GPU and null devices (and /proc where an NVIDIA GPU is: its driver writes there){scoped}")
    }
}

/// What the runner says at start where its jobs run as root on a machine with an NVIDIA GPU.
pub const ROOT_JOBS_WITH_PROC: &str = "jobs run as root and, for the GPU driver, may write beneath /proc (its /proc/sys too): start the runner with --job-user <unprivileged user> in production";

/// What the runner and each job's log say when the operator turned confinement off.
pub const UNCONFINED_BY_OPERATOR: &str = "job writes are NOT confined: the operator started this runner with --unconfined-jobs, so a job may write any file the runner's user can";

/// A Landlock ruleset that admits writes beneath a few directories only, ready to restrict a
/// child process. Cloning shares the ruleset.
#[derive(Debug, Clone)]
pub struct WriteJail {
    ruleset: Option<Arc<OwnedFd>>,
    writable: Vec<PathBuf>,
}

impl WriteJail {
    /// A jail that admits writes beneath `writable` (paths that do not exist are left out).
    /// On a kernel without Landlock the jail is open ([`WriteJail::enforced`] is false).
    pub fn new(writable: &[&Path]) -> Result<WriteJail, String> {
        let writable: Vec<PathBuf> = writable
            .iter()
            .filter(|p| p.exists())
            .map(|p| p.to_path_buf())
            .collect();
        let created = Ruleset::default()
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(AccessFs::from_write(HANDLED))
            .and_then(|r| r.scope(Scope::from_all(HANDLED)))
            .and_then(|r| r.create())
            .and_then(|r| r.add_rules(path_beneath_rules(&writable, AccessFs::from_write(HANDLED))))
            .map_err(|e| format!("cannot build the job's Landlock ruleset: {e}"))?;
        let fd: Option<OwnedFd> = created.into();
        Ok(WriteJail {
            ruleset: fd.map(Arc::new),
            writable,
        })
    }

    /// A jail that confines nothing (the operator's `--unconfined-jobs`).
    pub fn open() -> WriteJail {
        WriteJail {
            ruleset: None,
            writable: Vec::new(),
        }
    }

    /// Whether the kernel will enforce it.
    pub fn enforced(&self) -> bool {
        self.ruleset.is_some()
    }

    /// The directories writes are admitted beneath.
    pub fn writable(&self) -> &[PathBuf] {
        &self.writable
    }

    /// Makes `cmd`'s process (and everything it starts) confined by this jail from `exec` on.
    /// A child that cannot be confined does not start.
    pub fn apply(&self, cmd: &mut tokio::process::Command) {
        let Some(ruleset) = self.ruleset.clone() else {
            return;
        };
        // SAFETY: between fork and exec the closure makes two system calls and builds an
        // io::Error from errno; it allocates nothing and takes no lock. The ruleset's fd stays
        // open in the child (the Arc keeps it alive until the spawn returns).
        unsafe {
            cmd.pre_exec(move || restrict_self(&ruleset));
        }
    }
}

/// Confines the calling process with `ruleset` from now on: `no_new_privs`, then
/// `landlock_restrict_self`. Async-signal-safe (two system calls, an `io::Error` from errno),
/// so it may run between fork and exec.
fn restrict_self(ruleset: &OwnedFd) -> std::io::Result<()> {
    // SAFETY: prctl and landlock_restrict_self take plain integers; they touch no memory of
    // this process.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, ruleset.as_raw_fd(), 0u32) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Confines this process to writing beneath `writable`, then runs `program` in its place
/// (`ds-studio confine`, what a Slurm job's batch script starts on each node). On a kernel
/// without Landlock it says so on stderr (the job's log) and runs the program unconfined.
/// Returns only when the program could not be started.
pub fn exec_confined(writable: &[PathBuf], program: &str, args: &[String]) -> String {
    use std::os::unix::process::CommandExt;
    // The node's own device files (its GPUs), which the runner's host may not have.
    let devices = writable_system_paths();
    let mut paths: Vec<&Path> = writable.iter().map(PathBuf::as_path).collect();
    paths.extend(devices.iter().map(PathBuf::as_path));
    let jail = match WriteJail::new(&paths) {
        Ok(j) => j,
        Err(e) => return e,
    };
    if let Some(ruleset) = &jail.ruleset {
        // The CLI has started no other thread here: the whole process is confined.
        if let Err(e) = restrict_self(ruleset) {
            return format!("cannot confine the job: {e}");
        }
        eprintln!("{}", describe(enforced_abi()));
    } else {
        eprintln!("ds-studio confine on {}: {}", hostname(), describe(0));
    }
    let e = std::process::Command::new(program).args(args).exec();
    format!("cannot start {program}: {e}")
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// The words a batch script puts before a command to run it confined to `writable` by this
/// binary (`ds-studio confine --write DIR … --`), or none when this process is not the
/// `ds-studio` binary (a test harness) and cannot name one.
pub fn confine_prefix(writable: &[&Path]) -> Vec<String> {
    let Ok(exe) = std::env::current_exe() else {
        return Vec::new();
    };
    if !exe
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("ds-studio"))
    {
        return Vec::new();
    }
    let mut words = vec![exe.display().to_string(), "confine".into()];
    // Device files are the node's own: `confine` adds them there.
    for w in writable.iter().filter(|w| !w.starts_with("/dev")) {
        words.push("--write".into());
        words.push(w.display().to_string());
    }
    words.push("--".into());
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real child under a real jail: it writes inside, and its writes outside fail and leave
    /// the target intact (skipped, said, where the kernel has no Landlock).
    #[tokio::test]
    async fn a_confined_child_writes_inside_and_cannot_touch_a_file_outside() {
        if landlock_abi() == 0 {
            eprintln!("no Landlock on this kernel: {}", describe(0));
            return;
        }
        let root = std::env::temp_dir().join(format!("ds-jail-{}", std::process::id()));
        let inside = root.join("work");
        std::fs::create_dir_all(&inside).unwrap();
        let victim = root.join("ds-studio.db");
        std::fs::write(&victim, "the database").unwrap();
        let devices = writable_system_paths();
        let mut writable: Vec<&Path> = vec![&inside];
        writable.extend(devices.iter().map(PathBuf::as_path));
        let jail = WriteJail::new(&writable).unwrap();
        assert!(jail.enforced());
        // A process outside the job, which the job must not be able to signal (Linux 6.12+).
        let mut outside = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let script = format!(
            "echo ok > {in_}/out.txt; echo x > /dev/null; \
             {signal} \
             echo x > /dev/loop-ds-test 2>/dev/null && echo made-device-file; \
             echo pwned > {v} 2>/dev/null && echo wrote; \
             ln -sf {v} {in_}/link 2>/dev/null; echo pwned > {in_}/link 2>/dev/null && echo via-link; \
             mv {v} {in_}/moved 2>/dev/null && echo moved; rm -f {v} 2>/dev/null; true",
            in_ = inside.display(),
            v = victim.display(),
            // Signals are scoped from Landlock ABI 6 (Linux 6.12) on.
            signal = if landlock_abi() >= 6 {
                format!("kill -0 {} 2>/dev/null && echo signalled;", outside.id())
            } else {
                String::new()
            },
        );
        let mut cmd = tokio::process::Command::new("/bin/sh");
        cmd.args(["-c", &script]);
        jail.apply(&mut cmd);
        let out = cmd.output().await.unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{out:?}");
        assert_eq!(said.trim(), "", "writes outside went through: {said}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the database");
        assert_eq!(
            std::fs::read_to_string(inside.join("out.txt")).unwrap(),
            "ok\n"
        );
        // The runner itself is not confined, and the outside process lives.
        std::fs::write(&victim, "still writable by the runner").unwrap();
        assert!(
            outside.try_wait().unwrap().is_none(),
            "the job killed a process outside"
        );
        let _ = outside.kill();
        let _ = outside.wait();
        assert!(!Path::new("/dev/loop-ds-test").exists());
        let _ = std::fs::remove_dir_all(&root);
    }

    /// With `/proc` admitted (a GPU machine's jail), a job still cannot reach a file outside
    /// through `/proc`'s links (`/proc/self/root`, `/proc/self/cwd`, another process's
    /// `root`): Landlock judges the file reached, not the path written. Its own thread names,
    /// which the GPU driver writes, it may.
    #[tokio::test]
    async fn admitting_proc_reaches_no_file_through_its_links() {
        if landlock_abi() == 0 {
            eprintln!("no Landlock on this kernel: {}", describe(0));
            return;
        }
        let root = std::env::temp_dir().join(format!("ds-jail-proc-{}", std::process::id()));
        let inside = root.join("work");
        std::fs::create_dir_all(&inside).unwrap();
        let victim = root.join("ds-studio.db");
        std::fs::write(&victim, "the database").unwrap();
        let jail = WriteJail::new(&[&inside, Path::new("/proc")]).unwrap();
        let script = format!(
            "echo ok > /proc/self/comm && echo comm-ok; \
             echo pwned > /proc/self/root{v} 2>/dev/null && echo via-root; \
             cd {dir} && echo pwned > /proc/self/cwd/ds-studio.db 2>/dev/null && echo via-cwd; \
             echo pwned > /proc/{runner}/root{v} 2>/dev/null && echo via-runner; true",
            v = victim.display(),
            dir = root.display(),
            runner = std::process::id(),
        );
        let mut cmd = tokio::process::Command::new("/bin/sh");
        cmd.args(["-c", &script]);
        jail.apply(&mut cmd);
        let out = cmd.output().await.unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(said.trim(), "comm-ok", "{out:?}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the database");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn missing_paths_are_left_out_and_the_description_says_what_holds() {
        let jail = WriteJail::new(&[Path::new("/no/such/dir"), Path::new("/dev/null")]).unwrap();
        assert_eq!(jail.writable(), [PathBuf::from("/dev/null")]);
        let devices = writable_system_paths();
        assert!(devices.contains(&PathBuf::from("/dev/null")));
        assert!(!devices
            .iter()
            .any(|d| d.to_string_lossy().starts_with("/dev/loop")));
        assert!(!devices.contains(&PathBuf::from("/dev")));
        assert!(describe(0).contains("NOT confined"));
        // A GPU machine's jobs may write beneath /proc (the driver's cuInit needs it), others
        // not; neither gets /dev itself.
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let gpu = system_paths_for(&names(&[
            "null",
            "nvidia0",
            "nvidiactl",
            "nvidia-uvm",
            "loop0",
        ]));
        assert!(gpu.contains(&PathBuf::from("/proc")), "{gpu:?}");
        assert!(gpu.contains(&PathBuf::from("/dev/nvidia-uvm")), "{gpu:?}");
        assert!(!gpu.iter().any(|p| p.starts_with("/dev/loop")), "{gpu:?}");
        let cpu = system_paths_for(&names(&["null", "zero", "loop0", "sda"]));
        assert!(!cpu.contains(&PathBuf::from("/proc")), "{cpu:?}");
        assert!(!cpu.iter().any(|p| p.starts_with("/dev/sda")), "{cpu:?}");
        assert!(describe(7).contains("Landlock ABI 7"));
    }
}
