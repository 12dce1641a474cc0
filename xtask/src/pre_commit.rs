//! The pre-commit hooks (`.pre-commit-hooks.yaml`) checked with the real `pre-commit` tool from
//! PyPI: `pre-commit try-repo` on a scratch git repository, once with a config DeepSpeed rejects
//! (the hook fails and names the problem), once fixed (it passes), and a JSON file that is not
//! a DeepSpeed config left alone.

use crate::tools::{root, run, step, Result};
use std::path::PathBuf;
use std::process::Command;

const PRE_COMMIT: &str = "pre-commit==4.7.0";

fn venv() -> PathBuf {
    PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/ds-studio-pre-commit")
}

pub fn pre_commit() -> Result {
    let venv = venv();
    let tool = venv.join("bin/pre-commit");
    let pinned = Command::new(&tool)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("4.7.0"))
        .unwrap_or(false);
    if !pinned {
        step(&format!("installing {PRE_COMMIT} into {}", venv.display()));
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
        run(Command::new(venv.join("bin/pip")).args(["install", "-q", PRE_COMMIT]))?;
    }
    let bin = crate::tools::studio_bin()?;
    step("pre-commit try-repo on a scratch repository");
    let scratch = std::env::temp_dir().join(format!("ds-studio-pre-commit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("configs")).map_err(|e| e.to_string())?;
    let git = |args: &[&str]| run(Command::new("git").arg("-C").arg(&scratch).args(args));
    git(&["init", "-q"])?;
    let write = |name: &str, text: &str| {
        std::fs::write(scratch.join(name), text).map_err(|e| format!("{name}: {e}"))
    };
    write(
        "configs/ds_config_z2.json",
        "{\n  \"train_batch_size\": 33,\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"zero_optimization\": {\"stage\": 2}\n}\n",
    )?;
    write("package.json", "{\"name\": \"not a deepspeed config\"}\n")?;
    git(&["add", "."])?;
    let path = format!(
        "{}:{}",
        bin.parent().unwrap_or(&root()).display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let try_repo = || {
        Command::new(&tool)
            .current_dir(&scratch)
            .args([
                "try-repo",
                &root().to_string_lossy(),
                "ds-studio-validate",
                "--all-files",
            ])
            .env("PATH", &path)
            .env("PRE_COMMIT_HOME", venv.join("home"))
            .output()
            .map_err(|e| format!("pre-commit: {e}"))
    };
    let out = try_repo()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() || !text.contains("batch-mismatch") || text.contains("package.json") {
        return Err(format!(
            "pre-commit should fail on the rejected config (and only on it):\n{text}{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    write(
        "configs/ds_config_z2.json",
        "{\n  \"train_batch_size\": 32,\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"zero_optimization\": {\"stage\": 2}\n}\n",
    )?;
    git(&["add", "."])?;
    let out = try_repo()?;
    if !out.status.success() {
        return Err(format!(
            "pre-commit should pass on the fixed config:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    println!("pre-commit: the hook refused the rejected config, passed the fixed one, skipped package.json");
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(())
}
