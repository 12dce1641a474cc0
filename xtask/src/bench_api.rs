//! `cargo xtask bench-api`: load benchmark of the server on SQLite with wrk (Debian):
//! 64 connections, 10 s each for GET a version, POST validate and POST a version (real saves:
//! see `tools/bench/save_version.lua`). Prints req/s and p50/p99 latency.

use crate::server_proc::Server;
use crate::tools::{root, run, shared_dir, step, Result};
use std::path::Path;
use std::process::Command;

const TOKEN: &str = "bench-admin-token-0123456789abcdef";
const CONNECTIONS: &str = "64";
const THREADS: usize = 2;
const PER_THREAD: usize = 64;

/// The largest config of the corpus (the heaviest realistic payload).
fn largest_config() -> Result<String> {
    let p = largest_config_path(false)?;
    std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
}

struct Figures {
    rps: f64,
    p50: String,
    p99: String,
    non2xx: String,
}

fn wrk(url: &str, script: Option<&Path>, env: &[(&str, String)]) -> Result<Figures> {
    let mut cmd = Command::new("wrk");
    cmd.args([
        "-t",
        &THREADS.to_string(),
        "-c",
        CONNECTIONS,
        "-d",
        "10s",
        "--latency",
    ]);
    if let Some(s) = script {
        cmd.arg("-s").arg(s);
    } else {
        cmd.args(["-H", &format!("Authorization: Bearer {TOKEN}")]);
    }
    cmd.arg(url).env("TOKEN", TOKEN);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().map_err(|e| format!("wrk: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    eprintln!("{text}");
    let field = |prefix: &str| {
        text.lines()
            .map(str::trim)
            .find(|l| l.starts_with(prefix))
            .and_then(|l| l.split_whitespace().last())
            .unwrap_or("?")
            .to_string()
    };
    Ok(Figures {
        rps: field("Requests/sec:").parse().unwrap_or(0.0),
        p50: field("50%"),
        p99: field("99%"),
        non2xx: text
            .lines()
            .find(|l| l.contains("Non-2xx"))
            .and_then(|l| l.split_whitespace().last())
            .unwrap_or("0")
            .to_string(),
    })
}

pub fn bench_api() -> Result {
    if Command::new("wrk").arg("--version").output().is_err() {
        step("installing wrk (Debian)");
        run(Command::new("apt-get").args(["install", "-y", "-q", "wrk"]))?;
    }
    crate::tools::studio_bin()?;
    let server = Server::start("bench", TOKEN)?;
    let base = server.base.clone();
    step(&format!(
        "release server on {base} (SQLite in {})",
        server.data.display()
    ));
    let config = largest_config()?;
    let escaped = serde_json::to_string(&config).map_err(|e| e.to_string())?;
    let mut first_id = 0i64;
    for i in 0..THREADS * PER_THREAD {
        let body = format!("{{\"name\": \"bench-{i}\", \"config_text\": {escaped}}}");
        let out = server.post("/api/v1/templates", &body)?;
        let v: serde_json::Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
        if i == 0 {
            first_id = v["id"].as_i64().ok_or("no template id")?;
        }
    }
    let tmp = server.data.join("bench");
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let validate_body = tmp.join("validate.json");
    std::fs::write(&validate_body, format!("{{\"config_text\": {escaped}}}"))
        .map_err(|e| e.to_string())?;
    let config_file = tmp.join("config.json");
    std::fs::write(&config_file, &escaped).map_err(|e| e.to_string())?;
    let scripts = root().join("tools/bench");

    step("GET a version");
    let get = wrk(
        &format!("{base}/api/v1/templates/{first_id}/versions/1"),
        None,
        &[],
    )?;
    step("POST validate");
    let validate = wrk(
        &format!("{base}/api/v1/validate"),
        Some(&scripts.join("post_json.lua")),
        &[("BODY_FILE", validate_body.display().to_string())],
    )?;
    step("POST a version");
    let save = wrk(
        &base,
        Some(&scripts.join("save_version.lua")),
        &[
            ("CONFIG_FILE", config_file.display().to_string()),
            ("FIRST_ID", first_id.to_string()),
            ("PER_THREAD", PER_THREAD.to_string()),
        ],
    )?;
    println!(
        "\nAPI load benchmark: release server, SQLite, wrk {THREADS} threads, {CONNECTIONS} connections, 10 s each,\nconfig = the largest corpus file ({} bytes), same machine as the load generator",
        config.len()
    );
    println!("| request | req/s | p50 | p99 | non-2xx |");
    println!("|---|---|---|---|---|");
    for (name, f) in [
        ("GET a version", get),
        ("POST validate", validate),
        ("POST a version", save),
    ] {
        println!(
            "| {name} | {:.0} | {} | {} | {} |",
            f.rps, f.p50, f.p99, f.non2xx
        );
    }
    Ok(())
}

/// `cargo xtask bench-ui`: keystroke -> diagnostics rendered in headless Chromium on the largest
/// corpus config (e2e/bench/keystroke.mjs).
pub fn bench_ui() -> Result {
    crate::tools::build()?;
    crate::tools::ensure_browser()?;
    let server = Server::start("bench-ui", TOKEN)?;
    let config = largest_config_path(false)?;
    let parsing = largest_config_path(true)?;
    step("keystroke -> diagnostics (headless Chromium)");
    run(Command::new("node")
        .arg(root().join("e2e/bench/keystroke.mjs"))
        .arg(&server.base)
        .arg(&config)
        .arg("200")
        .arg(&parsing)
        .env("TOKEN", TOKEN))?;
    step("first load of / to interactive (cold cache) and the bundle against its budget");
    run(Command::new("node")
        .arg(root().join("e2e/bench/first_load.mjs"))
        .arg(&server.base)
        .arg("7"))
}

/// `bench-job-page`: the job page on a 100,000-point run fed through the real ingest path:
/// `/metrics` by width against the whole series, time to first chart against a 1,000-point
/// job, frame time while points arrive against the page idle (e2e/bench/job_page.mjs).
pub fn bench_job_page() -> Result {
    crate::tools::build()?;
    crate::tools::ensure_browser()?;
    let server = Server::start("bench-job-page", TOKEN)?;
    step("job page: /metrics by width, time to first chart, frame time while points arrive");
    run(Command::new("node")
        .arg(root().join("e2e/bench/job_page.mjs"))
        .arg(&server.base)
        .arg("100000")
        .env("TOKEN", TOKEN))
}

/// `bench-editors`: the JSON Schema's size per variant, VS Code's JSON engine per file with and
/// without it, and `ds-studio lsp` from keystroke to diagnostics (e2e/bench/editors.mjs).
pub fn bench_editors() -> Result {
    crate::tools::ensure_browser()?;
    let bin = crate::tools::studio_bin()?;
    step("editors: schema sizes, vscode-json-languageservice per file, ds-studio lsp keystroke -> diagnostics");
    run(Command::new("node")
        .arg(root().join("e2e/bench/editors.mjs"))
        .env("DS_STUDIO_BIN", bin)
        .env("DS_SHARED_DIR", shared_dir()))
}

/// The largest corpus config; with `parsing`, the largest one that is plain JSON (the largest of
/// all is a template with `BATCH_SIZE_PER_GPU`-style placeholders, which hjson reads as strings,
/// so no batch arithmetic changes when the form edits it).
fn largest_config_path(parsing: bool) -> Result<std::path::PathBuf> {
    let dir = shared_dir().join("deepspeed/corpus/configs");
    let mut best = (0u64, None);
    for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        let len = p.metadata().map(|m| m.len()).unwrap_or(0);
        let parses = || {
            std::fs::read_to_string(&p)
                .map(|t| serde_json::from_str::<serde_json::Value>(&t).is_ok())
                .unwrap_or(false)
        };
        if p.extension().is_some_and(|x| x == "json") && len > best.0 && (!parsing || parses()) {
            best = (len, Some(p));
        }
    }
    best.1.ok_or_else(|| "no corpus configs".to_string())
}
