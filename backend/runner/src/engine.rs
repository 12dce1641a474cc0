//! The Python that runs DeepSpeed: `--python PATH` or `DS_STUDIO_PYTHON`, else the virtual
//! environment `ds-studio engine setup` makes (`~/.cache/ds-studio/engine`: torch, deepspeed,
//! transformers, accelerate and peft pinned), else `python3` on the PATH. The environment of a job's processes is
//! `confine::job_env` (see ../shared/design/deepspeed-on-cpu.md for why each variable is there).

use std::path::{Path, PathBuf};

/// Pinned versions of the engine environment.
pub const DEEPSPEED_VERSION: &str = "0.19.8";
pub const TORCH_VERSION: &str = "2.15.0";
/// The Hugging Face releases the HF Trainer and Accelerate jobs run with: those whose handling
/// of the config the validator models (`ds_studio_shared::launcher::hf`, checked against
/// ../shared/tools/hf-oracle).
pub const TRANSFORMERS_VERSION: &str = "5.23.0";
pub const ACCELERATE_VERSION: &str = "1.15.0";
/// LoRA for rehearsals (`rehearsal.py`), the release whose adapters the estimate counts
/// (`shared::architecture::lora`, checked against it by `tools/models/count_params.py`).
pub const PEFT_VERSION: &str = "0.21.2";

/// `~/.cache/ds-studio` (or `$XDG_CACHE_HOME/ds-studio`).
pub fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"))
        .join("ds-studio")
}

/// Where `engine setup` puts the virtual environment.
pub fn default_venv() -> PathBuf {
    cache_dir().join("engine")
}

/// The Python to use: the one given, else the engine environment if it exists, else `python3`.
pub fn resolve_python(given: Option<&Path>) -> PathBuf {
    if let Some(p) = given {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("DS_STUDIO_PYTHON").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let venv = default_venv().join("bin").join("python");
    if venv.exists() {
        return venv;
    }
    PathBuf::from("python3")
}

/// `ds-studio engine setup`: makes the virtual environment (about 2 minutes and 5 GB on a
/// fresh machine), or says it is there. Progress goes to stderr.
pub fn setup(venv: &Path, force: bool) -> Result<(), String> {
    let python = venv.join("bin").join("python");
    if !force && python.exists() && import_ok(&python) {
        eprintln!("engine: ready at {}", venv.display());
        return Ok(());
    }
    let run = |what: &str, cmd: &mut std::process::Command| -> Result<(), String> {
        eprintln!("engine: {what}");
        let status = cmd
            .status()
            .map_err(|e| format!("{what}: cannot start {:?}: {e}", cmd.get_program()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{what} failed ({status})"))
        }
    };
    std::fs::create_dir_all(venv.parent().unwrap_or(venv))
        .map_err(|e| format!("cannot create {}: {e}", venv.display()))?;
    run(
        &format!("creating the virtual environment {}", venv.display()),
        std::process::Command::new("python3")
            .args(["-m", "venv"])
            .arg(venv),
    )?;
    let pip = venv.join("bin").join("pip");
    run(
        &format!(
            "installing torch {TORCH_VERSION}, deepspeed {DEEPSPEED_VERSION}, transformers \
             {TRANSFORMERS_VERSION}, accelerate {ACCELERATE_VERSION} and peft {PEFT_VERSION} \
             (about 2 minutes, 5 GB)"
        ),
        std::process::Command::new(&pip).args([
            "install",
            "--progress-bar",
            "off",
            // No .pyc for the ~40,000 files installed: Python writes them for what it imports,
            // once (a fifth less CPU in a fresh set-up, BENCHMARKS.md "Set-up").
            "--no-compile",
            &format!("torch=={TORCH_VERSION}"),
            &format!("deepspeed=={DEEPSPEED_VERSION}"),
            &format!("transformers=={TRANSFORMERS_VERSION}"),
            &format!("accelerate=={ACCELERATE_VERSION}"),
            &format!("peft=={PEFT_VERSION}"),
            "hjson",
            "numpy",
        ]),
    )?;
    // Nothing on CPU needs triton; it is 1 GB.
    let _ = std::process::Command::new(&pip)
        .args(["uninstall", "-y", "-q", "triton"])
        .status();
    if !import_ok(&python) {
        return Err(format!(
            "{} cannot import deepspeed, transformers, accelerate or peft after the install",
            python.display()
        ));
    }
    eprintln!("engine: ready at {}", venv.display());
    Ok(())
}

/// The DeepSpeed release `python` imports (`0.18.4`, a local `+...` suffix dropped), if any.
pub fn deepspeed_version(python: &Path) -> Option<String> {
    let out = std::process::Command::new(python)
        .args(["-c", "import deepspeed; print(deepspeed.__version__)"])
        .env("DS_ACCELERATOR", "cpu")
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let text = String::from_utf8_lossy(&out.stdout);
    // Import banners may print first: the version is the last line.
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let plain = last.trim().split('+').next()?.to_string();
    (!plain.is_empty() && plain.len() < 40).then_some(plain)
}

fn import_ok(python: &Path) -> bool {
    std::process::Command::new(python)
        .args([
            "-c",
            "import deepspeed, torch, transformers, accelerate, peft",
        ])
        .env("DS_ACCELERATOR", "cpu")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
