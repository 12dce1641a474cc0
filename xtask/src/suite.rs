//! `cargo xtask test`: every check and test of the workspace, in the order CI runs them
//! (README's second command). It sits above the other tasks, which it calls; none calls it.

use crate::tools::{
    build_frontend, cargo, codegen, dependency_names, e2e, engine_setup, ensure_chromium,
    ensure_haproxy, ensure_test_runner, ensure_wasm_target, model_counts_check, root, run, step,
    step_times, wasm_test, Result, CRATE_BANS,
};

/// Every step, then how long each took (printed whether the suite passed or not).
pub fn test() -> Result {
    // Mostly downloads (the DeepSpeed environment, Debian's packages, npm's): they run beside
    // the first steps, which keep both cores compiling, and are awaited before the tests.
    let downloads = std::thread::Builder::new()
        .name("downloads".into())
        .spawn(download_tools)
        .map_err(|e| format!("cannot start the downloads: {e}"))?;
    watchdog();
    let result = every_step(downloads);
    eprint!("{}", step_times());
    result
}

/// CI stops a run at 90 minutes and shows only part of its output. Before that, the suite
/// stops itself (after `DS_STUDIO_SUITE_LIMIT_S`, 85 minutes unless set), printing how long
/// each step took and which one was running, so the log says where the time went; a stop
/// ends every process of the suite's process group.
fn watchdog() {
    let limit = std::env::var("DS_STUDIO_SUITE_LIMIT_S")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(85 * 60);
    let _ = std::thread::Builder::new()
        .name("watchdog".into())
        .spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(limit));
            eprintln!(
                "\n==> the suite has run {limit} s (DS_STUDIO_SUITE_LIMIT_S): stopping it, in the \
                 last step below{}",
                step_times()
            );
            // `kill 0` signals this process group: the step's cargo, node or python too.
            let _ = std::process::Command::new("kill")
                .args(["-TERM", "0"])
                .status();
            std::process::exit(124);
        });
}

/// What the tests install, fetched (and two tools compiled by `cargo install` in its own
/// target directory, filling the cores' idle moments) while the first steps compile: each is
/// skipped later when it is there. The engine is the runner's own set-up code (compiled into
/// xtask), so it needs no binary yet.
fn download_tools() -> Result {
    if std::env::var_os("DS_STUDIO_SKIP_ENGINE").is_none() {
        crate::engine::setup(&crate::engine::default_venv(), false)
            .map_err(|e| format!("the DeepSpeed environment: {e}"))?;
    }
    ensure_haproxy()?;
    crate::tools::ensure_prometheus()?;
    crate::tools::ensure_browser()?;
    ensure_test_runner()?;
    crate::docs::ensure_mdbook().map(|_| ())
}

fn every_step(downloads: std::thread::JoinHandle<Result>) -> Result {
    step("cargo fmt --check");
    run(cargo().args(["fmt", "--all", "--", "--check"]))?;
    codegen(true)?;
    step("shared builds for wasm32 with no I/O dependency");
    ensure_wasm_target()?;
    run(cargo().args([
        "check",
        "-p",
        "ds-studio-shared",
        "--target",
        "wasm32-unknown-unknown",
    ]))?;
    // What each crate may not depend on, anywhere in its tree (ARCHITECTURE.md, "Crates").
    step("crate boundaries (cargo tree)");
    for (krate, banned) in CRATE_BANS {
        let crates = dependency_names(krate)?;
        if let Some(b) = banned.iter().find(|b| crates.iter().any(|c| c == *b)) {
            return Err(format!(
                "{krate} depends on {b}: see ARCHITECTURE.md, \"Crates\", for what it may use"
            ));
        }
    }
    step("clippy");
    run(cargo().args([
        "clippy",
        "--workspace",
        "--exclude",
        "ds-studio-frontend",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The browser bundle (`split`: pages as split points) and the frontend's tests (without).
    for features in [&["--features", "split"][..], &[]] {
        run(cargo()
            .args([
                "clippy",
                "-p",
                "ds-studio-frontend",
                "--target",
                "wasm32-unknown-unknown",
            ])
            .args(features)
            .args(["--", "-D", "warnings"]))?;
    }
    step("tests");
    step("waiting for the downloads begun at the start");
    downloads
        .join()
        .unwrap_or_else(|_| Err("the downloads panicked".into()))?;
    // The job tests run the real DeepSpeed engine: make its environment first (made by the
    // downloads above; this checks it).
    run(cargo().args(["build", "-p", "ds-studio"]))?;
    engine_setup(&root().join("target/debug/ds-studio"))?;
    model_counts_check()?;
    ensure_haproxy()?;
    crate::tools::ensure_prometheus()?;
    step("cargo test: the workspace (the engine's jobs included)");
    run(cargo().args(["test", "--workspace", "--exclude", "ds-studio-frontend"]))?;
    // The UI's own logic runs natively, and compiled to wasm32 in Node (wasm-bindgen-test).
    run(cargo().args(["test", "-p", "ds-studio-frontend", "--lib"]))?;
    ensure_test_runner()?;
    step("frontend logic on wasm32 (wasm-bindgen-test-runner, Node)");
    wasm_test("wasm", &[])?;
    step("frontend components mounted in Chromium (wasm-bindgen-test-runner, chromedriver)");
    ensure_chromium()?;
    wasm_test("browser", &[("CHROMEDRIVER", "/usr/bin/chromedriver")])?;
    crate::docs::docs(true)?;
    build_frontend()?;
    e2e()?;
    crate::pre_commit::pre_commit()?;
    crate::api_client::api_client(false)?;
    crate::api_contract::contract()
}
