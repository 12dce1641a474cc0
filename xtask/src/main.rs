//! `cargo xtask <command>`: the project's build and test entry points.
//!
//! - `run`: install what is missing, build the frontend and the server, start the studio on
//!   http://127.0.0.1:8080 with data in ./data.
//! - `test`: every check CI runs (fmt, clippy, wasm check of shared, codegen drift, all tests,
//!   browser e2e).
//! - `build`: frontend (WASM) + release server; `build-frontend`: the frontend alone.
//! - `codegen [--check]`: regenerate committed generated files (the JSON Schema, and
//!   `shared/data/releases.json` from the DeepSpeed releases' source: `tools/releases/gen.py`).
//! - `docs [--check]`: the book in `docs/` (generated reference pages, both languages in step,
//!   mdBook into `target/book`, every link and anchor checked; part of `test` with `--check`).
//! - `bench [--cli]`: the validator benchmark (native, WASM in Node, DeepSpeed's parser) and the
//!   CLI as a whole process; `--cli` only the latter.
//! - `bench-api`: load benchmark of the REST API with wrk.
//! - `bench-ui`: keystroke -> diagnostics rendered in headless Chromium.
//! - `bench-job-page`: the job page on a 100,000-point run: `/metrics` by width, time to first
//!   chart, frame time while points arrive.
//! - `bench-editors`: the JSON Schema's size per variant, VS Code's JSON engine per file, and
//!   `ds-studio lsp` from keystroke to published diagnostics.
//! - `bench-jobs`: metric ingest and SSE latency, against MLflow's tracking server.
//! - `bench-hostile`: 1 MiB pathological bodies to `/validate` from 8 clients while a job trains
//!   and another client times `/healthz`.
//! - `fuzz [--seconds N]`: mutation fuzzing of the parser, validator, API bodies, trainer-file
//!   importer, `ds-studio.toml` and language-server frames (10 min).
//! - `api-contract`: schemathesis against the server's own OpenAPI document (part of `test`).
//! - `api-client [--write]`: the OpenAPI document through openapi-spec-validator and Redocly,
//!   the committed Python client regenerated and compared, its journey against a real server
//!   (part of `test`).
//! - `modules`: no import circle between the modules of any crate, the server's layers, no
//!   function over 250 lines (also a unit test of xtask, so part of `test`).
//! - `pre-commit`: the repository's pre-commit hooks run by the real `pre-commit` tool on a
//!   scratch repository (part of `test`).
//!
//! xtask links none of the studio's crates (serde_json, libc and the runner's `engine.rs` by
//! path), so a fresh `cargo xtask run` compiles it in seconds; what needs the studio runs the
//! `ds-studio` binary.

mod api_client;
mod api_contract;
mod bench_api;
mod bench_hostile;
mod bench_jobs;
mod docs;
/// The runner's engine set-up (std only), compiled in so `cargo xtask run` makes the DeepSpeed
/// environment while the server still compiles.
#[path = "../../backend/runner/src/engine.rs"]
#[allow(dead_code)]
mod engine;
mod long_functions;
mod module_graph;
mod pre_commit;
mod server_proc;
mod suite;
mod tools;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => tools::set_up().and_then(|_| tools::run_server()),
        Some("build") => tools::build(),
        Some("build-frontend") => tools::build_frontend(),
        Some("test") => suite::test(),
        Some("docs") => docs::docs(args.iter().any(|a| a == "--check")),
        Some("codegen") => tools::codegen(args.iter().any(|a| a == "--check")),
        Some("bench") => tools::bench(args.iter().any(|a| a == "--cli")),
        Some("bench-api") => bench_api::bench_api(),
        Some("bench-ui") => bench_api::bench_ui(),
        Some("bench-editors") => bench_api::bench_editors(),
        Some("bench-job-page") => bench_api::bench_job_page(),
        Some("bench-jobs") => bench_jobs::bench_jobs(),
        Some("bench-hostile") => bench_hostile::bench_hostile(),
        Some("fuzz") => bench_hostile::fuzz(
            args.iter()
                .position(|a| a == "--seconds")
                .and_then(|i| args.get(i + 1))
                .and_then(|s| s.parse().ok())
                .unwrap_or(600),
        ),
        Some("api-contract") => api_contract::contract(),
        Some("api-client") => api_client::api_client(args.iter().any(|a| a == "--write")),
        Some("pre-commit") => pre_commit::pre_commit(),
        Some("modules") => module_graph::check(),
        _ => {
            eprintln!("usage: cargo xtask <run|build|build-frontend|test|docs [--check]|codegen [--check]|bench|bench-api|bench-ui|bench-editors|bench-job-page|bench-jobs|bench-hostile|fuzz [--seconds N]|api-contract|api-client [--write]|pre-commit|modules>");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
