//! `ds-studio sweep`: grids over config keys.
//!
//! - `plan --config FILE (--size SIZE | --model NAME | --model-config FILE) --grid KEY=V1,V2
//!   ... [--gpu-memory-gib G]`: the points
//!   before anything runs (`shared::sweep`), offline: each point's values, its predicted peak,
//!   and why it would not run (DeepSpeed rejects it, it does not fit the GPU, its micro batch
//!   does not divide the global batch).
//! - `run --template ID --size SIZE --grid ... [--watch]`: the same grid over a template
//!   version on the server's runners (`POST /api/v1/sweeps`), followed live with `--watch`
//!   (the sweep's SSE stream, reconnecting); `show`, `cancel`, `save-best` for one sweep.

use crate::input::read_input;
use crate::server_args::ServerArgs;
use ds_studio_client::{localized, Client, ClientError, SseDecoder};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{PointState, Sweep, SweepCreate, SweepPoint, SweepState, Workload};
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::memory::{human_bytes, usable_gpu_bytes, Capacity, ModelSpec};
use ds_studio_shared::sweep::{expand, parse_axis};
use ds_studio_shared::validate::Context;

#[derive(clap::Subcommand, Debug)]
pub enum SweepCommand {
    /// The points of a grid over a config, estimated and pruned, without running anything.
    Plan(PlanArgs),
    /// Run a grid over a template version on the server's runners: each point a job.
    Run(RunArgs),
    /// Show a sweep: its points, their throughput and the best.
    Show(OneArgs),
    /// Cancel a sweep's points that have not ended.
    Cancel(OneArgs),
    /// Save the sweep's fastest point as a new version of its template.
    SaveBest(OneArgs),
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The template whose version is the base config.
    #[arg(long)]
    pub template: i64,
    /// The base version (default: the head).
    #[arg(long)]
    pub version: Option<i64>,
    /// A size of the built-in workload (tiny, small, medium, large, xl).
    #[arg(long, default_value = "tiny")]
    pub size: String,
    /// Or a rehearsal of your own model at every point.
    #[command(flatten)]
    pub model: crate::model_args::ModelArgs,
    /// A key and the values to try: `train_micro_batch_size_per_gpu=4,8,16` (repeat it).
    #[arg(long, required = true)]
    pub grid: Vec<String>,
    /// Change the gradient accumulation with the micro batch, so every point trains on the
    /// base's samples per step.
    #[arg(long)]
    pub keep_global_batch: bool,
    /// Optimizer steps per point.
    #[arg(long, default_value_t = 20)]
    pub max_steps: u32,
    /// GPUs per node of every point.
    #[arg(long, default_value_t = 1)]
    pub gpus: u32,
    /// A runner to spread the points over (repeat it; default: any runner).
    #[arg(long = "runner")]
    pub runners: Vec<String>,
    /// Let every point run to the end, however slow.
    #[arg(long)]
    pub no_early_stop: bool,
    /// A name for the sweep.
    #[arg(long)]
    pub name: Option<String>,
    /// Follow the sweep until every point has ended.
    #[arg(long)]
    pub watch: bool,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    #[command(flatten)]
    pub server: ServerArgs,
}

#[derive(clap::Args, Debug)]
pub struct OneArgs {
    /// The sweep's id.
    pub id: i64,
    /// With `show`: follow it until every point has ended.
    #[arg(long)]
    pub watch: bool,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    #[command(flatten)]
    pub server: ServerArgs,
}

#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// The base DeepSpeed config (`-`: stdin).
    #[arg(long)]
    pub config: String,
    /// A size of the built-in workload (tiny, small, medium, large, xl).
    #[arg(long)]
    pub size: Option<String>,
    /// Or your own model (the points estimated for it).
    #[command(flatten)]
    pub model: crate::model_args::ModelArgs,
    /// A key and the values to try: `train_micro_batch_size_per_gpu=4,8,16` (repeat it).
    #[arg(long, required = true)]
    pub grid: Vec<String>,
    /// Change the gradient accumulation with the micro batch, so every point trains on the
    /// base's samples per step.
    #[arg(long)]
    pub keep_global_batch: bool,
    /// GPU memory in GiB: points that would not fit are pruned.
    #[arg(long, allow_negative_numbers = true)]
    pub gpu_memory_gib: Option<f64>,
    #[arg(long, default_value_t = 1)]
    pub gpus_per_node: u32,
    #[arg(long, default_value_t = 1)]
    pub nodes: u32,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
}

fn fail(message: &str) -> i32 {
    eprintln!("ds-studio: {message}");
    2
}

pub fn run(command: SweepCommand) -> i32 {
    match command {
        SweepCommand::Plan(a) => plan(a),
        SweepCommand::Run(a) => {
            let json = (a.format == "json").then(|| a.server.lang());
            ds_studio_client::run_as(json, run_sweep(a))
        }
        SweepCommand::Show(a) => {
            let json = (a.format == "json").then(|| a.server.lang());
            ds_studio_client::run_as(json, show(a))
        }
        SweepCommand::Cancel(a) => {
            let json = (a.format == "json").then(|| a.server.lang());
            ds_studio_client::run_as(json, cancel(a))
        }
        SweepCommand::SaveBest(a) => {
            let json = (a.format == "json").then(|| a.server.lang());
            ds_studio_client::run_as(json, save_best(a))
        }
    }
}

fn plan(a: PlanArgs) -> i32 {
    let lang: Lang = a.lang.parse().unwrap_or_default();
    if !(1..=1024).contains(&a.gpus_per_node) || !(1..=100_000).contains(&a.nodes) {
        return fail("--gpus-per-node and --nodes must be at least 1");
    }
    let model = match (a.model.resolved(lang), &a.size) {
        (Err(e), _) => return fail(&e),
        (Ok(Some(_)), Some(_)) => {
            return fail("--size and --model/--model-config each describe the model; give one")
        }
        (Ok(Some((_, r))), None) => r.spec,
        (Ok(None), Some(size)) => match ModelSpec::builtin(size, false) {
            Some(m) => m,
            None => {
                return fail(&format!(
                    "--size {size}: not a size of the built-in workload (tiny, small, medium, large, xl)"
                ))
            }
        },
        (Ok(None), None) => {
            return fail("give the model: --size SIZE (the built-in workload), --model NAME or --model-config FILE")
        }
    };
    let capacity = match a.gpu_memory_gib {
        Some(g) if !g.is_finite() || g <= 0.0 => {
            return fail("--gpu-memory-gib must be a positive number of GiB")
        }
        Some(g) => {
            let bytes = (g * (1u64 << 30) as f64) as u64;
            Some(Capacity {
                bytes_per_rank: usable_gpu_bytes(bytes),
                device: format!("{} GPU", human_bytes(bytes)),
                host: false,
                host_bytes_per_node: 0,
            })
        }
        None => None,
    };
    let mut grid = Vec::new();
    for g in &a.grid {
        match parse_axis(g) {
            Ok(axis) => grid.push(axis),
            Err(e) => return fail(e.0.get(lang)),
        }
    }
    let text = match read_input(&a.config) {
        Ok(t) => t,
        Err(e) => return fail(&format!("{}: {e}", a.config)),
    };
    let ctx = Context {
        world_size: a.gpus_per_node.saturating_mul(a.nodes),
        ..Context::default()
    };
    let points = match expand(
        &text,
        &ctx,
        a.nodes,
        &grid,
        a.keep_global_batch,
        Some((&model, capacity.as_ref())),
    ) {
        Ok(p) => p,
        Err(e) => return fail(e.0.get(lang)),
    };
    if a.format == "json" {
        let list: Vec<serde_json::Value> = points
            .iter()
            .map(|p| {
                serde_json::json!({
                    "values": p.values.iter().cloned().collect::<serde_json::Map<_, _>>(),
                    "state": if p.pruned.is_some() { "pruned" } else { "planned" },
                    "gpu_peak_bytes": p.estimate.as_ref().map(|e| e.gpu_peak_bytes),
                    "reason": p.pruned.as_ref().map(|r| r.get(lang).to_string()),
                    "config_text": p.config_text,
                })
            })
            .collect();
        println!("{}", serde_json::json!({ "points": list }));
        return 0;
    }
    let zh = lang == Lang::Zh;
    for p in &points {
        let values: Vec<String> = p.values.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let peak = p
            .estimate
            .as_ref()
            .map(|e| human_bytes(e.gpu_peak_bytes))
            .unwrap_or_else(|| "—".into());
        let state = match &p.pruned {
            Some(r) => format!("{}{}", if zh { "剔除：" } else { "pruned: " }, r.get(lang)),
            None => (if zh { "将运行" } else { "runs" }).to_string(),
        };
        println!("{:<60} {:>10}  {state}", values.join(" "), peak);
    }
    let runs = points.iter().filter(|p| p.pruned.is_none()).count();
    if zh {
        println!("{} 个点中 {runs} 个将运行", points.len());
    } else {
        println!("{runs} of {} points would run", points.len());
    }
    0
}

async fn run_sweep(a: RunArgs) -> Result<(), ClientError> {
    let lang = a.server.lang();
    let mut grid = Vec::new();
    for g in &a.grid {
        grid.push(parse_axis(g).map_err(|e| ClientError::Local(e.0.get(lang).to_string()))?);
    }
    let client = a.server.client()?;
    let workload = match a.model.resolved(lang).map_err(ClientError::Local)? {
        Some((m, _)) => Workload::rehearsal(m),
        None => Workload::builtin_gpt(&a.size),
    };
    let req = SweepCreate {
        template_id: a.template,
        version: a.version,
        workload,
        grid,
        keep_global_batch: a.keep_global_batch.then_some(true),
        max_steps: Some(a.max_steps),
        gpus: Some(a.gpus),
        nodes: None,
        runners: (!a.runners.is_empty()).then(|| a.runners.clone()),
        early_stop: a.no_early_stop.then_some(false),
        name: a.name.clone(),
    };
    let sweep: Sweep = client.call(ep::CreateSweep::url([]), &req).await?;
    let json = a.format == "json";
    if !json {
        print_plan(&sweep, lang);
    }
    let sweep = if a.watch {
        watch(&client, sweep, json, lang).await?
    } else {
        sweep
    };
    if finish(&sweep, json, a.watch, lang) {
        return Err(none_succeeded(&sweep, lang));
    }
    Ok(())
}

async fn show(a: OneArgs) -> Result<(), ClientError> {
    let lang = a.server.lang();
    let client = a.server.client()?;
    let sweep: Sweep = client.fetch(ep::GetSweep::url([&a.id])).await?;
    let json = a.format == "json";
    if !json {
        print_plan(&sweep, lang);
    }
    let sweep = if a.watch {
        watch(&client, sweep, json, lang).await?
    } else {
        sweep
    };
    if finish(&sweep, json, a.watch, lang) {
        return Err(none_succeeded(&sweep, lang));
    }
    Ok(())
}

async fn cancel(a: OneArgs) -> Result<(), ClientError> {
    let lang = a.server.lang();
    let client = a.server.client()?;
    let sweep: Sweep = client.fetch(ep::CancelSweep::url([&a.id])).await?;
    if a.format == "json" {
        println!("{}", result_json(&sweep, lang));
    } else if lang == Lang::Zh {
        println!("扫描 {} 已取消", sweep.id);
    } else {
        println!("sweep {} cancelled", sweep.id);
    }
    Ok(())
}

async fn save_best(a: OneArgs) -> Result<(), ClientError> {
    let lang = a.server.lang();
    let client = a.server.client()?;
    let v: ds_studio_shared::api::Version = client
        .call(ep::SaveBest::url([&a.id]), &Default::default())
        .await?;
    if a.format == "json" {
        ds_studio_client::print_json(&v, lang);
    } else if lang == Lang::Zh {
        println!(
            "已保存为模板 {} 的版本 {}：{}",
            v.template_id, v.version, v.message
        );
    } else {
        println!(
            "saved as version {} of template {}: {}",
            v.version, v.template_id, v.message
        );
    }
    Ok(())
}

fn state_word(state: PointState, lang: Lang) -> &'static str {
    match (state, lang) {
        (s, Lang::En) => s.as_str(),
        (PointState::Queued, Lang::Zh) => "排队中",
        (PointState::Running, Lang::Zh) => "运行中",
        (PointState::Succeeded, Lang::Zh) => "成功",
        (PointState::Failed, Lang::Zh) => "失败",
        (PointState::Pruned, Lang::Zh) => "已剔除",
        (PointState::Cancelled, Lang::Zh) => "已取消",
    }
}

fn state_word_sweep(state: SweepState, lang: Lang) -> &'static str {
    match (state, lang) {
        (s, Lang::En) => s.as_str(),
        (SweepState::Running, Lang::Zh) => "运行中",
        (SweepState::Finished, Lang::Zh) => "已完成",
        (SweepState::Cancelled, Lang::Zh) => "已取消",
    }
}

fn point_line(p: &SweepPoint, lang: Lang) -> String {
    let peak = p
        .estimate_bytes
        .map(human_bytes)
        .unwrap_or_else(|| "—".into());
    let sps = p
        .samples_per_sec
        .map(|v| format!("{v:.1}"))
        .unwrap_or_else(|| "—".into());
    let measured = p
        .peak_memory_mb
        .map(|m| human_bytes((m * 1024.0 * 1024.0) as u64))
        .unwrap_or_else(|| "—".into());
    let job = p.job.map(|j| format!("#{j}")).unwrap_or_default();
    let reason = p
        .reason
        .as_ref()
        .map(|r| format!("  {}", r.get(lang)))
        .unwrap_or_default();
    format!(
        "{:>3} {:<48} {:<10} {:>6} {:>10} {:>10} {:>10}{reason}",
        p.index + 1,
        p.label(),
        state_word(p.state, lang),
        job,
        peak,
        measured,
        sps
    )
}

fn print_plan(sweep: &Sweep, lang: Lang) {
    let zh = lang == Lang::Zh;
    let runs = sweep.points.iter().filter(|p| p.job.is_some()).count();
    let total = sweep.points.len();
    if zh {
        println!(
            "扫描 {}（{}）：模板 {} 版本 {}，{total} 个点中 {runs} 个作为任务运行",
            sweep.id,
            state_word_sweep(sweep.state, lang),
            sweep.template_name,
            sweep.version,
        );
    } else {
        println!(
            "sweep {} ({}): template {} version {}, {runs} of {total} points run as jobs",
            sweep.id,
            state_word_sweep(sweep.state, lang),
            sweep.template_name,
            sweep.version,
        );
    }
    println!(
        "{:>3} {:<48} {:<10} {:>6} {:>10} {:>10} {:>10}",
        "#",
        if zh { "取值" } else { "VALUES" },
        if zh { "状态" } else { "STATE" },
        if zh { "任务" } else { "JOB" },
        if zh { "预计峰值" } else { "ESTIMATE" },
        if zh { "实测峰值" } else { "MEASURED" },
        if zh { "样本/秒" } else { "SAMPLES/S" }
    );
    for p in &sweep.points {
        println!("{}", point_line(p, lang));
    }
}

/// Follows the sweep's stream until it ends, printing each point as it ends (text); the last
/// state. Reconnects when the stream breaks.
async fn watch(
    client: &Client,
    mut sweep: Sweep,
    json: bool,
    lang: Lang,
) -> Result<Sweep, ClientError> {
    use std::time::Duration;
    let mut ended: std::collections::HashSet<u32> = sweep
        .points
        .iter()
        .filter(|p| p.state.is_terminal())
        .map(|p| p.index)
        .collect();
    let mut backoff = Duration::from_millis(250);
    while sweep.state == SweepState::Running {
        let resp = match client
            .open_stream(ep::SweepEvents::url([&sweep.id]), None)
            .await
        {
            Ok(r) => r,
            Err(e @ ClientError::Api { .. }) => return Err(e),
            Err(e) => {
                if !json {
                    eprintln!("{e}; retrying");
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        backoff = Duration::from_millis(250);
        let mut resp = resp;
        let mut dec = SseDecoder::default();
        'stream: loop {
            let chunk = match resp.chunk().await {
                Ok(Some(c)) => c,
                Ok(None) | Err(_) => break,
            };
            for ev in dec.feed(&chunk) {
                if ev.event != "sweep" {
                    continue;
                }
                let Ok(now) = serde_json::from_str::<Sweep>(&ev.data) else {
                    continue;
                };
                for p in now.points.iter().filter(|p| p.state.is_terminal()) {
                    if ended.insert(p.index) && !json {
                        println!("{}", point_line(p, lang));
                    }
                }
                sweep = now;
                if sweep.state != SweepState::Running {
                    break 'stream;
                }
            }
        }
    }
    Ok(sweep)
}

/// The JSON a script reads: every point (values, state, job, samples/s, measured peak,
/// estimate, reason in `lang`) and the best point.
fn result_json(sweep: &Sweep, lang: Lang) -> serde_json::Value {
    let point = |p: &SweepPoint| {
        serde_json::json!({
            "index": p.index,
            "values": p.values,
            "state": p.state,
            "job": p.job,
            "runner": p.runner,
            "samples_per_sec": p.samples_per_sec,
            "tokens_per_sec": p.tokens_per_sec,
            "model_tflops": p.model_tflops,
            "peak_memory_mb": p.peak_memory_mb,
            "estimate_bytes": p.estimate_bytes,
            "estimate_error_pct": p.estimate_error_pct,
            "reason": p.reason.as_ref().map(|r| r.get(lang).to_string()),
        })
    };
    localized(
        serde_json::json!({
            "id": sweep.id,
            "state": sweep.state,
            "template_id": sweep.template_id,
            "version": sweep.version,
            "points": sweep.points.iter().map(point).collect::<Vec<_>>(),
            "ranking": sweep.ranking,
            "best": sweep.best_point().map(point),
        }),
        lang,
    )
}

/// Prints the outcome; true when it is a failure: with `--watch`, a sweep where no point
/// succeeded (exit 1; with `--format json` the one object says it: `best` is null).
fn finish(sweep: &Sweep, json: bool, watched: bool, lang: Lang) -> bool {
    let zh = lang == Lang::Zh;
    if json {
        println!("{}", result_json(sweep, lang));
    } else if let Some(best) = sweep.best_point() {
        let sps = best.samples_per_sec.unwrap_or(0.0);
        if zh {
            println!(
                "最佳：#{} {}（{sps:.1} 样本/秒，任务 {}）",
                best.index + 1,
                best.label(),
                best.job.unwrap_or_default()
            );
        } else {
            println!(
                "best: #{} {} ({sps:.1} samples/s, job {})",
                best.index + 1,
                best.label(),
                best.job.unwrap_or_default()
            );
        }
        if sweep.state != SweepState::Running {
            if zh {
                println!("保存为新版本：ds-studio sweep save-best {}", sweep.id);
            } else {
                println!(
                    "save it as a new version: ds-studio sweep save-best {}",
                    sweep.id
                );
            }
        }
    } else if sweep.state == SweepState::Running {
        if zh {
            println!("跟踪进度：ds-studio sweep show {} --watch", sweep.id);
        } else {
            println!("follow it: ds-studio sweep show {} --watch", sweep.id);
        }
    }
    watched && !json && sweep.best.is_none()
}

/// The error of a followed sweep where no point succeeded.
fn none_succeeded(sweep: &Sweep, lang: Lang) -> ClientError {
    ClientError::Api {
        status: 200,
        code: "no_point_succeeded".into(),
        message: if lang == Lang::Zh {
            format!("扫描 {} 没有成功的点", sweep.id)
        } else {
            format!("no point of sweep {} succeeded", sweep.id)
        },
        details: None,
    }
}
