//! `cargo xtask api-client [--write]` (also a step of `cargo xtask test`): the OpenAPI document
//! checked with the tools script writers run, and the Python client generated from it.
//!
//! 1. `ds-studio openapi` writes the document (what `/api/openapi.json` serves).
//! 2. `openapi-spec-validator` must accept it; Redocly's recommended rules must find 0 errors.
//! 3. `openapi-python-client` generates the `ds-studio-client` package (`setup.py`,
//!    `ds_studio_client/`) from it, with no warning; the committed copy in
//!    `clients/python/ds-studio-client` must be the same (`--write` updates it).
//! 4. The package is pip-installed into the tools' environment (as README tells users to), then
//!    `clients/python/journey.py`, a script journey through it, runs against a real release
//!    server (every answer parsed by the client's models, and every body also validated against
//!    the document), and `mypy --strict` must be clean on it.
//!
//! The Python tools are pinned and live in their own virtual environment
//! (`~/.cache/ds-studio-openapi`), Redocly in `target/redocly` (npm).

use crate::server_proc::Server;
use crate::tools::{root, run, step, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

const PYTHON_TOOLS: &[&str] = &[
    "openapi-spec-validator==0.9.0",
    "openapi-python-client==0.29.1",
    "mypy==2.4.1",
    "jsonschema==4.26.0",
    "types-jsonschema==4.26.0.20261006",
    "setuptools==84.2.1",
];
const REDOCLY: &str = "@redocly/cli@2.77.0";
const TOKEN: &str = "api-client-admin-token-0123456789abc";
/// Where the generated package is committed.
const PACKAGE: &str = "clients/python/ds-studio-client";

fn venv() -> PathBuf {
    PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/ds-studio-openapi")
}

/// The pinned Python tools, installed once (a marker file names what is installed).
fn python_tools() -> Result<PathBuf> {
    let venv = venv();
    let marker = venv.join("ds-studio-pins.txt");
    let want = PYTHON_TOOLS.join("\n");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(want.as_str()) {
        step(&format!(
            "installing {} into {}",
            PYTHON_TOOLS.join(", "),
            venv.display()
        ));
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
        run(Command::new(venv.join("bin/pip"))
            .args(["install", "-q"])
            .args(PYTHON_TOOLS))?;
        std::fs::write(&marker, want).map_err(|e| e.to_string())?;
    }
    Ok(venv.join("bin"))
}

fn redocly() -> Result<PathBuf> {
    let prefix = root().join("target/redocly");
    let bin = prefix.join("node_modules/.bin/redocly");
    let pinned = prefix.join("node_modules/@redocly/cli/package.json");
    let version = REDOCLY.rsplit('@').next().unwrap_or_default();
    let have = std::fs::read_to_string(&pinned)
        .map(|s| s.contains(&format!("\"version\": \"{version}\"")))
        .unwrap_or(false);
    if !have {
        step(&format!("installing {REDOCLY} into {}", prefix.display()));
        std::fs::create_dir_all(&prefix).map_err(|e| e.to_string())?;
        run(Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&prefix)
            .arg(REDOCLY))?;
    }
    Ok(bin)
}

/// Every file under `dir`, relative, with its bytes; what installing the package leaves there
/// (`build/`, `*.egg-info`, caches: ignored by the package's own `.gitignore`) is left out.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                let installed = ["__pycache__", "build", "dist", ".mypy_cache"].contains(&name)
                    || name.ends_with(".egg-info");
                if !installed {
                    stack.push(p);
                }
            } else if let Ok(bytes) = std::fs::read(&p) {
                out.push((p.strip_prefix(dir).unwrap_or(&p).to_path_buf(), bytes));
            }
        }
    }
    out.sort();
    out
}

pub fn api_client(write: bool) -> Result {
    let bin = python_tools()?;
    let ds = crate::tools::studio_bin()?;
    let work = root().join("target/api-client");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let doc = work.join("openapi.json");
    let out = Command::new(&ds)
        .arg("openapi")
        .output()
        .map_err(|e| format!("ds-studio openapi: {e}"))?;
    if !out.status.success() {
        return Err("ds-studio openapi failed".into());
    }
    std::fs::write(&doc, out.stdout).map_err(|e| e.to_string())?;

    step("openapi-spec-validator");
    run(Command::new(bin.join("openapi-spec-validator")).arg(&doc))?;

    step("Redocly's recommended rules (errors fail, warnings are listed)");
    run(Command::new(redocly()?)
        .args(["lint", "--extends", "recommended", "--format", "stylish"])
        .arg(&doc)
        .env("REDOCLY_TELEMETRY", "off")
        .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true"))?;

    step("openapi-python-client generate (no warning allowed)");
    let generated = work.join("generated");
    let out = Command::new(bin.join("openapi-python-client"))
        .args(["generate", "--meta", "setup", "--config"])
        .arg(root().join("clients/python/generator.yaml"))
        .arg("--path")
        .arg(&doc)
        .arg("--output-path")
        .arg(&generated)
        .output()
        .map_err(|e| format!("openapi-python-client: {e}"))?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprint!("{said}");
    if !out.status.success() || said.contains("Warning") {
        return Err("openapi-python-client: the document must generate with no warning".into());
    }
    let committed = root().join(PACKAGE);
    if tree(&generated) != tree(&committed) {
        if !write {
            return Err(format!(
                "{PACKAGE} is out of date with the OpenAPI document: run `cargo xtask api-client --write` and commit it"
            ));
        }
        let _ = std::fs::remove_dir_all(&committed);
        run(Command::new("cp").arg("-r").arg(&generated).arg(&committed))?;
        eprintln!("wrote {PACKAGE}");
    } else {
        eprintln!("{PACKAGE} is up to date");
    }

    step("pip install the package (from the generated copy: the committed one stays clean)");
    run(Command::new(bin.join("pip"))
        .args([
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--force-reinstall",
        ])
        .arg(&generated))?;

    step("mypy --strict on the journey");
    let python = root().join("clients/python");
    run(Command::new(bin.join("mypy"))
        .args(["--strict", "--no-incremental"])
        .arg(python.join("journey.py")))?;

    step("the Python client's journey against a real server");
    let server = Server::start("api-client", TOKEN)?;
    run(Command::new(bin.join("python"))
        .arg(python.join("journey.py"))
        .arg(&server.base)
        .arg(&doc)
        .env("DS_STUDIO_TOKEN", TOKEN))
}
