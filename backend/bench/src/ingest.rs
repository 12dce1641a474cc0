//! `ds-studio-bench ingest` (`cargo xtask bench-jobs` runs it against a release server):
//! metric ingest in points/s, and end-to-end latency from a CSV monitor row written to the SSE
//! event received, through the runner's own pipeline (CSV tail → spool → batch POST → store →
//! hub → SSE), with 1 and with many watchers. Prints one JSON line per measurement.

use ds_studio_client::{Client, ClientError, SseDecoder};
use ds_studio_runner::reporter::Reporter;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    ClaimedJob, EventBatch, Job, Runner, RunnerEvent, RunnerTokenCreated, Template,
};
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long)]
    pub server: String,
    #[arg(long)]
    pub token: String,
    /// Metric points to ingest.
    #[arg(long, default_value_t = 200_000)]
    pub points: usize,
    /// Points per request.
    #[arg(long, default_value_t = 1000)]
    pub batch: usize,
    /// Jobs ingesting at once (one sender each, as one runner per job).
    #[arg(long, default_value_t = 4)]
    pub jobs: usize,
    /// Watcher counts for the latency runs.
    #[arg(long, value_delimiter = ',', default_value = "1,50")]
    pub watchers: Vec<usize>,
    /// CSV rows written per latency run.
    #[arg(long, default_value_t = 300)]
    pub rows: usize,
    /// CSV rows written per second in the latency runs.
    #[arg(long, default_value_t = 50)]
    pub rate: u64,
}

/// Live streams each watcher user opens (under the server's per-user limit).
const WATCHERS_PER_USER: usize = 16;

struct Bench {
    client: Arc<Client>,
    /// The bench runner's own credential (the runner routes take only runner tokens).
    runner_client: Arc<Client>,
    runner: Runner,
    template: Template,
}

impl Bench {
    async fn job(&self) -> Result<Job, ClientError> {
        let body = json!({"template_id": self.template.id, "workload": {"builtin": "gpt"}, "runner": self.runner.name});
        let job: Job = self
            .client
            .call(ep::SubmitJob::url([]), &crate::request::body(body))
            .await?;
        let claimed: Option<ClaimedJob> = self
            .runner_client
            .fetch(ep::ClaimJob::url([&self.runner.id]))
            .await?;
        match claimed {
            Some(c) if c.job.id == job.id => Ok(c.job),
            _ => Err(ClientError::Local(
                "the bench runner did not get its job".into(),
            )),
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

pub fn run(args: Args) -> i32 {
    ds_studio_client::run(async move {
        let client = Arc::new(Client::new(&args.server, Some(args.token.clone())));
        let tag = std::process::id();
        let made: RunnerTokenCreated = client
            .call(
                ep::CreateRunnerToken::url([]),
                &crate::request::body(json!({"runner": format!("bench-{tag}")})),
            )
            .await?;
        let runner_client = Arc::new(Client::new(&args.server, Some(made.token)));
        let runner: Runner = runner_client
            .call(
                ep::RegisterRunner::url([]),
                &crate::request::body(json!({"name": format!("bench-{tag}"), "backend": "local"})),
            )
            .await?;
        let template: Template = client
            .call(
                ep::CreateTemplate::url([]),
                &crate::request::body(
                    json!({"name": format!("bench-{tag}"), "config": {"train_batch_size": 8}}),
                ),
            )
            .await?;
        let b = Bench {
            client: client.clone(),
            runner_client: runner_client.clone(),
            runner,
            template,
        };
        // The bench runner beats like a real one (every 3 s, naming the job it runs), so the
        // reaper never marks a run's job lost however long the bench takes.
        let running: Arc<Mutex<Vec<i64>>> = Arc::default();
        let heartbeats = {
            let (client, running, id) = (runner_client.clone(), running.clone(), b.runner.id);
            tokio::spawn(async move {
                loop {
                    let now = running.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    let _ = client
                        .call(
                            ep::SendHeartbeat::url([&id]),
                            &crate::request::body(json!({"running": now})),
                        )
                        .await;
                    tokio::time::sleep(Duration::from_secs(3)).await;
                }
            })
        };
        // Watchers as several users (a user may hold only so many streams): WATCHERS_PER_USER
        // each, viewers of the admin's first team, signed in with a password.
        let most = args.watchers.iter().copied().max().unwrap_or(1);
        let me = client.fetch(ep::GetMe::url([])).await?;
        let team = me.teams.first().map(|t| t.id);
        let mut watcher_clients = Vec::new();
        for u in 0..most.div_ceil(WATCHERS_PER_USER) {
            let name = format!("bench-{tag}-watcher-{u}");
            let password = format!("bench-{tag}-password-{u}");
            client
                .call(
                    ep::CreateUser::url([]),
                    &crate::request::body(json!({"name": name, "password": password, "team_id": team, "role": "viewer"})),
                )
                .await?;
            let token =
                ds_studio_client::token_from_password(&args.server, &name, &password).await?;
            watcher_clients.push(Arc::new(Client::new(&args.server, Some(token))));
        }

        // 1. Ingest: `jobs` senders, each posting its share in order, as fast as answers come.
        let per_job = args.points / args.jobs.max(1);
        let mut jobs = Vec::new();
        for _ in 0..args.jobs.max(1) {
            jobs.push(b.job().await?);
        }
        let started = Instant::now();
        let mut tasks = Vec::new();
        for job in &jobs {
            let client = runner_client.clone();
            let url = ep::PostJobEvents::url([&b.runner.id, &job.id]);
            let batch = args.batch.max(1);
            tasks.push(tokio::spawn(async move {
                let mut seq = 0i64;
                let ts = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as i64);
                while (seq as usize) < per_job {
                    let n = batch.min(per_job - seq as usize);
                    let events: Vec<RunnerEvent> = (0..n)
                        .map(|i| {
                            let s = seq + 1 + i as i64;
                            RunnerEvent::Metric {
                                seq: s,
                                ts,
                                name: "Train/Samples/lr".into(),
                                step: s * 8,
                                value: 0.001 * (s as f64).sin().abs(),
                            }
                        })
                        .collect();
                    client.call(url.clone(), &EventBatch { events }).await?;
                    seq += n as i64;
                }
                Ok::<i64, ClientError>(seq)
            }));
        }
        let mut total = 0;
        for t in tasks {
            total += t.await.map_err(|e| ClientError::Local(e.to_string()))??;
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{}",
            json!({"measure": "ingest", "points": total, "seconds": secs, "points_per_s": total as f64 / secs, "batch": args.batch, "jobs": args.jobs})
        );

        // 2. Latency: CSV row written → SSE event received, through the runner's pipeline.
        // Each watcher count twice in this run: the runner following the CSV files with file
        // notifications, then polling them every 200 ms (the baseline it replaced).
        let modes = [true, false];
        for (notifications, &watchers) in modes
            .iter()
            .flat_map(|n| args.watchers.iter().map(move |w| (*n, w)))
        {
            let job = b.job().await?;
            *running.lock().unwrap_or_else(|e| e.into_inner()) = vec![job.id];
            let dir = std::env::temp_dir().join(format!("ds-studio-bench-{tag}-{}", job.id));
            std::fs::create_dir_all(&dir).map_err(|e| ClientError::Local(e.to_string()))?;
            let received: Arc<Mutex<Vec<HashMap<i64, Instant>>>> =
                Arc::new(Mutex::new(vec![HashMap::new(); watchers]));
            let mut watch_tasks = Vec::new();
            for w in 0..watchers {
                let client = watcher_clients[w / WATCHERS_PER_USER].clone();
                let received = received.clone();
                let rows = args.rows as i64;
                let id = job.id;
                watch_tasks.push(tokio::spawn(async move {
                    let mut resp = client.open_stream(ep::JobEvents::url([&id]), None).await?;
                    let mut dec = SseDecoder::default();
                    let mut seen = 0;
                    while let Ok(Some(chunk)) = resp.chunk().await {
                        let now = Instant::now();
                        for ev in dec.feed(&chunk) {
                            if ev.event == "metric" {
                                if let Some(seq) = ev.id.and_then(|i| i.parse::<i64>().ok()) {
                                    received.lock().unwrap_or_else(|e| e.into_inner())[w]
                                        .insert(seq, now);
                                    seen += 1;
                                }
                            }
                        }
                        if seen >= rows {
                            break;
                        }
                    }
                    Ok::<(), ClientError>(())
                }));
            }
            // Let the watchers connect before the first row.
            tokio::time::sleep(Duration::from_millis(500)).await;
            let reporter = Reporter::start(
                runner_client.clone(),
                b.runner.id,
                job.id,
                &dir.join("events.jsonl"),
            )
            .map_err(|e| ClientError::Local(e.to_string()))?;
            let (done_tx, done_rx) = tokio::sync::watch::channel(false);
            let tail = tokio::spawn(ds_studio_runner::process::tail_csv_with(
                dir.join("csv"),
                reporter.clone(),
                done_rx,
                notifications,
            ));
            std::fs::create_dir_all(dir.join("csv"))
                .map_err(|e| ClientError::Local(e.to_string()))?;
            let csv = dir.join("csv").join("Train_Samples_lr.csv");
            let mut written = Vec::with_capacity(args.rows);
            {
                use std::io::Write;
                let mut f =
                    std::fs::File::create(&csv).map_err(|e| ClientError::Local(e.to_string()))?;
                f.write_all(b"step,lr\r\n")
                    .map_err(|e| ClientError::Local(e.to_string()))?;
                let gap = Duration::from_micros(1_000_000 / args.rate.max(1));
                for i in 1..=args.rows {
                    // As DeepSpeed does: one row, written and flushed at once.
                    f.write_all(format!("{},{}\r\n", i * 8, 0.001).as_bytes())
                        .map_err(|e| ClientError::Local(e.to_string()))?;
                    f.flush().map_err(|e| ClientError::Local(e.to_string()))?;
                    written.push(Instant::now());
                    tokio::time::sleep(gap).await;
                }
            }
            for t in watch_tasks {
                let _ = tokio::time::timeout(Duration::from_secs(60), t).await;
            }
            let _ = done_tx.send(true);
            let _ = tail.await;
            reporter.finish().await;
            // The job ends, so its streams end and give their slots back (a user may hold only
            // so many) before the next run's watchers connect.
            running.lock().unwrap_or_else(|e| e.into_inner()).clear();
            runner_client
                .call(
                    ep::ReportJobState::url([&b.runner.id, &job.id]),
                    &crate::request::body(json!({"state": "succeeded", "exit_code": 0})),
                )
                .await?;
            let got = received.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let mut lat: Vec<f64> = Vec::new();
            let mut missing = 0;
            for w in &got {
                for (i, at) in written.iter().enumerate() {
                    match w.get(&(i as i64 + 1)) {
                        Some(r) => lat.push(r.duration_since(*at).as_secs_f64() * 1000.0),
                        None => missing += 1,
                    }
                }
            }
            lat.sort_by(f64::total_cmp);
            println!(
                "{}",
                json!({"measure": "latency", "csv": if notifications { "notifications" } else { "poll 200 ms" }, "watchers": watchers, "rows": args.rows, "rate_per_s": args.rate,
                       "samples": lat.len(), "missing": missing,
                       "p50_ms": percentile(&lat, 0.5), "p95_ms": percentile(&lat, 0.95), "max_ms": lat.last()})
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
        heartbeats.abort();
        Ok(())
    })
}
