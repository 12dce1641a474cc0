//! `cargo xtask bench-hostile`: a release server with its local runner; a real DeepSpeed job
//! trains while 8 clients post 1 MiB pathological configs to `/validate` (signed in, then
//! anonymously) and another client times `GET /healthz`. Prints p50/p99 per phase, the ratio to
//! the idle baseline measured in the same run, and the job's state (it must not be lost).
//!
//! `cargo xtask fuzz [--seconds N]`: `ds-studio-bench fuzz` over the corpus for N seconds
//! (default 600): inputs/s, crashes, inputs slower than 50 ms.

use crate::server_proc::{bench_client, Server};
use crate::tools::{engine_setup, root, run, shared_dir, step, Result};
use std::process::Command;

const TOKEN: &str = "bench-hostile-admin-token-0123456789";

pub fn bench_hostile() -> Result {
    run(crate::tools::cargo().args([
        "build",
        "--release",
        "--bin",
        "ds-studio",
        "--bin",
        "ds-studio-bench",
    ]))?;
    engine_setup(&root().join("target/release/ds-studio"))?;
    let server = Server::start_with("bench-hostile", TOKEN, true)?;
    step(&format!(
        "hostile load on {} (SQLite, local runner)",
        server.base
    ));
    let lines = bench_client(&server, "hostile", &[])?;
    drop(server);
    let idle = lines
        .iter()
        .find(|l| l["phase"] == "idle")
        .and_then(|l| l["p99_ms"].as_f64())
        .unwrap_or(f64::NAN);
    println!();
    println!("GET /healthz while 8 clients post 1 MiB pathological configs to /validate");
    for l in lines.iter().filter(|l| l["measure"] == "healthz") {
        let p99 = l["p99_ms"].as_f64().unwrap_or(f64::NAN);
        println!(
            "  {:<17} p50 {:>7.2} ms  p99 {:>7.2} ms  ({:>5.1}x idle)  max {:>7.1} ms  attack {:>6.1} req/s ({} answered 429)  (goal p99 <= 100 ms)",
            l["phase"].as_str().unwrap_or("?"),
            l["p50_ms"].as_f64().unwrap_or(f64::NAN),
            p99,
            p99 / idle,
            l["max_ms"].as_f64().unwrap_or(f64::NAN),
            l["attack_requests_per_s"].as_f64().unwrap_or(0.0),
            l["attack_rate_limited"]
        );
    }
    if let Some(j) = lines.iter().find(|l| l["measure"] == "job") {
        println!(
            "  the job during the attacks: {} ({} events stored; goal: not lost)",
            j["state"], j["events"]
        );
        if j["state"] == "lost" {
            return Err("the job was marked lost under load".into());
        }
    }
    Ok(())
}

pub fn fuzz(seconds: u64) -> Result {
    run(crate::tools::cargo().args([
        "build",
        "--release",
        "--bin",
        "ds-studio",
        "--bin",
        "ds-studio-bench",
    ]))?;
    step(&format!(
        "fuzzing the parser, validator, API bodies, importer, ds-studio.toml and LSP frames for {seconds} s"
    ));
    let corpus = shared_dir().join("deepspeed/corpus/configs");
    let out = Command::new(root().join("target/release/ds-studio-bench"))
        .arg("fuzz")
        .arg(&corpus)
        .args(["--seconds", &seconds.to_string()])
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(text.lines().last().unwrap_or(""))
        .map_err(|e| format!("bench-fuzz printed no figures ({e}): {text}"))?;
    println!();
    println!(
        "fuzzing: {} inputs in {:.0} s = {:.0} inputs/s; crashes {}; slower than {} ms: {} (slowest {:.1} ms, {} bytes)",
        v["inputs"],
        v["seconds"].as_f64().unwrap_or(0.0),
        v["inputs_per_s"].as_f64().unwrap_or(0.0),
        v["crashes"],
        v["slower_than_ms"],
        v["slow"],
        v["slowest_ms"].as_f64().unwrap_or(0.0),
        v["slowest_input_bytes"]
    );
    println!(
        "| target | inputs | crashes | over {} ms (of them generated) | slowest |",
        v["slower_than_ms"]
    );
    println!("|---|---|---|---|---|");
    for (name, t) in v["targets"].as_object().into_iter().flatten() {
        println!(
            "| {name} | {} | {} | {} ({}) | {:.1} ms ({} bytes) |",
            t["inputs"],
            t["crashes"],
            t["slow"],
            t["slow_generated"],
            t["slowest_ms"].as_f64().unwrap_or(0.0),
            t["slowest_input_bytes"]
        );
    }
    if !out.status.success() {
        return Err("the fuzzer found a crash or a slow input".into());
    }
    Ok(())
}
