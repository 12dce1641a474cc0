//! `ds-studio sweep plan --config FILE --size SIZE --grid KEY=V1,V2 ... [--gpu-memory-gib G]`:
//! a sweep's points before anything runs (`shared::sweep`): each point's values, its predicted
//! peak, and why it would not run (DeepSpeed rejects it, it does not fit the GPU, its micro
//! batch does not divide the global batch). Running a sweep on the runners is issue 34's next
//! step; this is the plan it will start from.

use crate::input::read_input;
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::memory::{human_bytes, usable_gpu_bytes, Capacity, ModelSpec};
use ds_studio_shared::sweep::{expand, parse_axis};
use ds_studio_shared::validate::Context;

#[derive(clap::Subcommand, Debug)]
pub enum SweepCommand {
    /// The points of a grid over a config, estimated and pruned, without running anything.
    Plan(PlanArgs),
}

#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// The base DeepSpeed config (`-`: stdin).
    #[arg(long)]
    pub config: String,
    /// A size of the built-in workload (tiny, small, medium, large, xl).
    #[arg(long)]
    pub size: String,
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
    let SweepCommand::Plan(a) = command;
    let lang: Lang = a.lang.parse().unwrap_or_default();
    if !(1..=1024).contains(&a.gpus_per_node) || !(1..=100_000).contains(&a.nodes) {
        return fail("--gpus-per-node and --nodes must be at least 1");
    }
    let Some(model) = ModelSpec::builtin(&a.size, false) else {
        return fail(&format!(
            "--size {}: not a size of the built-in workload (tiny, small, medium, large, xl)",
            a.size
        ));
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
        capacity.as_ref().map(|c| (&model, c)),
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
            Some(r) => format!("{}{}", if zh { "剪除：" } else { "pruned: " }, r.get(lang)),
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
