//! `ds-studio-bench hostile` (`cargo xtask bench-hostile` runs it against a release
//! server with its local runner): while a real DeepSpeed job trains, 8 clients post 1 MiB
//! pathological configs (`{"a":0,"a":0,...}` on one line) to `/validate`, signed in (no rate
//! limit applies) and then anonymously, and one more client times `GET /healthz`. Prints one
//! JSON line per phase (idle baseline, signed-in attack, anonymous attack) and the job's state.

use ds_studio_client::{Client, ClientError};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Job, Template};
use serde_json::json;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(long)]
    pub server: String,
    #[arg(long)]
    pub token: String,
    /// Seconds per phase.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Attacking clients.
    #[arg(long, default_value_t = 8)]
    pub clients: usize,
}

/// One line of `{"a":0,"a":0,...}` of about `bytes` bytes.
fn pathological(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 8);
    s.push('{');
    while s.len() + 7 < bytes {
        if s.len() > 1 {
            s.push(',');
        }
        s.push_str("\"a\":0");
    }
    s.push('}');
    s
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Times `GET /healthz` every 20 ms for `d`; sorted milliseconds.
async fn probe(http: &reqwest::Client, base: &str, d: Duration) -> Vec<f64> {
    let mut out = Vec::new();
    let end = Instant::now() + d;
    while Instant::now() < end {
        let t = Instant::now();
        let ok = http
            .get(format!("{base}/healthz"))
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success());
        out.push(if ok {
            t.elapsed().as_secs_f64() * 1e3
        } else {
            10_000.0
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    out.sort_by(f64::total_cmp);
    out
}

async fn phase(
    args: &Args,
    http: &reqwest::Client,
    name: &str,
    attack: Option<Option<String>>,
) -> serde_json::Value {
    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicUsize::new(0));
    let limited = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    if let Some(token) = attack {
        let body = Arc::new(
            serde_json::to_vec(&json!({"config_text": pathological(1 << 20)})).unwrap_or_default(),
        );
        for _ in 0..args.clients {
            let (http, body, stop, sent, limited, token) = (
                http.clone(),
                body.clone(),
                stop.clone(),
                sent.clone(),
                limited.clone(),
                token.clone(),
            );
            // Raw bytes, not the typed client: the bodies are meant to be hostile.
            let url = format!("{}{}", args.server, ep::ValidateConfig::url([]));
            tasks.push(tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let mut r = http
                        .post(&url)
                        .header("content-type", "application/json")
                        .body(body.as_ref().clone());
                    if let Some(t) = &token {
                        r = r.bearer_auth(t);
                    }
                    match r.send().await {
                        Ok(resp) => {
                            if resp.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
                                limited.fetch_add(1, Ordering::Relaxed);
                            }
                            let _ = resp.bytes().await;
                            sent.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                    }
                }
            }));
        }
    }
    let lat = probe(http, &args.server, Duration::from_secs(args.seconds)).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = t.await;
    }
    json!({
        "measure": "healthz", "phase": name, "probes": lat.len(),
        "p50_ms": percentile(&lat, 0.5), "p99_ms": percentile(&lat, 0.99),
        "max_ms": lat.last().copied().unwrap_or(f64::NAN),
        "attack_requests": sent.load(Ordering::Relaxed),
        "attack_rate_limited": limited.load(Ordering::Relaxed),
        "attack_requests_per_s": sent.load(Ordering::Relaxed) as f64 / args.seconds as f64,
    })
}

pub fn run(args: Args) -> i32 {
    ds_studio_client::run(async move {
        let client = Client::new(&args.server, Some(args.token.clone()));
        let http = reqwest::Client::new();
        // A real job that outlives the attack (the built-in workload, stopped by its limit).
        let template: Template = client
            .call(
                ep::CreateTemplate::url([]),
                &crate::request::body(
                    json!({"name": format!("hostile-{}", std::process::id()), "config": {
                    "train_batch_size": 8, "train_micro_batch_size_per_gpu": 4,
                    "gradient_accumulation_steps": 2, "steps_per_print": 50,
                    "optimizer": {"type": "AdamW", "params": {"lr": 0.001, "torch_adam": true}}}}),
                ),
            )
            .await?;
        let job: Job = client
            .call(
                ep::SubmitJob::url([]),
                &crate::request::body(
                    json!({"template_id": template.id, "workload": {"builtin": "gpt"},
                             "max_steps": 10_000_000, "time_limit_s": 3600}),
                ),
            )
            .await?;
        // Wait until it trains.
        let started = Instant::now();
        loop {
            let j: Job = client.fetch(ep::GetJob::url([&job.id])).await?;
            if j.state == ds_studio_shared::api::JobState::Running && j.last_seq > 5 {
                break;
            }
            if j.state.is_terminal() || started.elapsed() > Duration::from_secs(300) {
                return Err(ClientError::Local(format!(
                    "the job did not start training: {:?} {:?}",
                    j.state, j.message
                )));
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        for (name, attack) in [
            ("idle", None),
            ("signed-in attack", Some(Some(args.token.clone()))),
            ("anonymous attack", Some(None)),
        ] {
            println!("{}", phase(&args, &http, name, attack).await);
        }
        let j: Job = client.fetch(ep::GetJob::url([&job.id])).await?;
        println!(
            "{}",
            json!({"measure": "job", "state": j.state.as_str(), "events": j.last_seq})
        );
        let _ = client.fetch(ep::CancelJob::url([&job.id])).await;
        Ok(())
    })
}
