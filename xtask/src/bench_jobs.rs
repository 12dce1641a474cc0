//! `cargo xtask bench-jobs`: metric ingest (points/s) and end-to-end latency (CSV row written →
//! SSE event received, p50/p95, with 1 and 50 watchers) of a release server on SQLite, measured
//! by `ds-studio-bench ingest`; and, in the same run on the same machine, MLflow's tracking
//! server (pip `mlflow`, SQLite backend store) ingesting the same kind of points with
//! `log_batch` (tools/bench/mlflow_ingest.py). Prints the figures and the ratio.

use crate::server_proc::{bench_client, Server};
use crate::tools::{root, run, step, Result};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TOKEN: &str = "bench-admin-token-0123456789abcdef";
const MLFLOW_VERSION: &str = "3.6.0";
/// Points each side ingests, in batches of 1000 (MLflow's own batch limit), 4 senders.
const POINTS: usize = 200_000;
const MLFLOW_POINTS: usize = 40_000;
const BATCH: usize = 1000;
const SENDERS: usize = 4;

fn mlflow_venv() -> Result<std::path::PathBuf> {
    let home = std::env::var_os("HOME").ok_or("HOME is not set")?;
    let venv = std::path::PathBuf::from(home).join(".cache/ds-studio-mlflow");
    let py = venv.join("bin/python");
    let ok = Command::new(&py)
        .args([
            "-c",
            "import mlflow, mlflow.store.db.utils; print(mlflow.__version__)",
        ])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == MLFLOW_VERSION);
    if !ok {
        step(&format!(
            "installing mlflow {MLFLOW_VERSION} (PyPI) in {}",
            venv.display()
        ));
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
        run(Command::new(venv.join("bin/pip")).args([
            "install",
            "-q",
            &format!("mlflow=={MLFLOW_VERSION}"),
            // mlflow 3.6 imports a pool class that SQLAlchemy 2.1 no longer has.
            "sqlalchemy==2.0.44",
        ]))?;
    }
    Ok(venv)
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port())
}

/// MLflow's tracking server on SQLite; points/s of `log_batch`.
fn mlflow_ingest() -> Result<serde_json::Value> {
    let venv = mlflow_venv()?;
    let dir = std::env::temp_dir().join(format!("ds-studio-mlflow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let port = free_port()?;
    let mut server = Command::new(venv.join("bin/mlflow"))
        .args(["server", "--host", "127.0.0.1", "--port", &port.to_string()])
        .arg("--backend-store-uri")
        .arg(format!("sqlite:///{}", dir.join("mlflow.db").display()))
        .arg("--default-artifact-root")
        .arg(dir.join("artifacts"))
        .args(["--workers", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("mlflow server: {e}"))?;
    let uri = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(120);
    while Command::new("curl")
        .args(["-sf", &format!("{uri}/health")])
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        if Instant::now() > deadline {
            let _ = server.kill();
            return Err("the MLflow server did not come up in 120 s".into());
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let out = Command::new(venv.join("bin/python"))
        .arg(root().join("tools/bench/mlflow_ingest.py"))
        .args([
            &uri,
            &MLFLOW_POINTS.to_string(),
            &BATCH.to_string(),
            &SENDERS.to_string(),
        ])
        .output()
        .map_err(|e| e.to_string());
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let out = out?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or("");
    if !out.status.success() {
        return Err(format!(
            "mlflow_ingest.py failed: {line} {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_str(line).map_err(|e| format!("mlflow_ingest.py: {e}: {line}"))
}

pub fn bench_jobs() -> Result {
    run(crate::tools::cargo().args([
        "build",
        "--release",
        "--bin",
        "ds-studio",
        "--bin",
        "ds-studio-bench",
    ]))?;
    let server = Server::start("bench-jobs", TOKEN)?;
    step(&format!("ds-studio on {} (SQLite)", server.base));
    let lines = bench_client(
        &server,
        "ingest",
        &[
            "--points",
            &POINTS.to_string(),
            "--batch",
            &BATCH.to_string(),
            "--jobs",
            &SENDERS.to_string(),
            "--watchers",
            "1,50",
        ],
    )?;
    drop(server);
    step(&format!(
        "MLflow {MLFLOW_VERSION} tracking server (SQLite store)"
    ));
    let mlflow = mlflow_ingest()?;
    let ours = lines
        .iter()
        .find(|l| l["measure"] == "ingest")
        .ok_or("no ingest figure")?;
    let a = ours["points_per_s"].as_f64().unwrap_or(0.0);
    let b = mlflow["points_per_s"].as_f64().unwrap_or(f64::NAN);
    println!();
    println!("metric ingest ({BATCH} points per request, {SENDERS} senders)");
    println!(
        "  ds-studio  {:>10.0} points/s  ({} points)",
        a, ours["points"]
    );
    println!(
        "  MLflow     {:>10.0} points/s  ({} points, log_batch)",
        b, mlflow["points"]
    );
    println!("  ratio      {:>10.1}x  (goal >= 10x)", a / b);
    println!("end-to-end latency: CSV row written -> SSE event received (runner pipeline)");
    for l in lines.iter().filter(|l| l["measure"] == "latency") {
        println!(
            "  {:>2} watcher(s): p50 {:>6.1} ms  p95 {:>6.1} ms  max {:>6.1} ms  ({} samples, {} missing)  (goal p95 <= 500 ms)",
            l["watchers"],
            l["p50_ms"].as_f64().unwrap_or(f64::NAN),
            l["p95_ms"].as_f64().unwrap_or(f64::NAN),
            l["max_ms"].as_f64().unwrap_or(f64::NAN),
            l["samples"],
            l["missing"]
        );
    }
    Ok(())
}
