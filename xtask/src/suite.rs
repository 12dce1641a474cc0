//! `cargo xtask test`: every check and test of the workspace, in the order CI runs them
//! (README's second command). It sits above the other tasks, which it calls; none calls it.

use crate::tools::{
    build_frontend, cargo, codegen, dependency_names, e2e, engine_setup, ensure_chromium,
    ensure_haproxy, ensure_test_runner, ensure_wasm_target, model_counts_check, root, run, step,
    wasm_test, Result, CRATE_BANS,
};

pub fn test() -> Result {
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
    // The job tests run the real DeepSpeed engine: make its environment first.
    run(cargo().args(["build", "-p", "ds-studio"]))?;
    engine_setup(&root().join("target/debug/ds-studio"))?;
    model_counts_check()?;
    ensure_haproxy()?;
    run(cargo().args(["test", "--workspace", "--exclude", "ds-studio-frontend"]))?;
    // The UI's own logic runs natively, and compiled to wasm32 in Node (wasm-bindgen-test).
    run(cargo().args(["test", "-p", "ds-studio-frontend", "--lib"]))?;
    ensure_test_runner()?;
    step("frontend logic on wasm32 (wasm-bindgen-test-runner, Node)");
    wasm_test("wasm", &[])?;
    step("frontend components mounted in Chromium (wasm-bindgen-test-runner, chromedriver)");
    ensure_chromium()?;
    wasm_test("browser", &[("CHROMEDRIVER", "/usr/bin/chromedriver")])?;
    build_frontend()?;
    e2e()?;
    crate::pre_commit::pre_commit()?;
    crate::api_client::api_client(false)?;
    crate::api_contract::contract()
}
