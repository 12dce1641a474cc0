//! `ds-studio-bench validate DIR`: median microseconds to parse and validate one config, over
//! every `*.json`/`*.conf` file in DIR (hidden; `cargo xtask bench` compares it with WASM and
//! with DeepSpeed's own parser).

use ds_studio_shared::validate::validate_text;
use ds_studio_shared::Context;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub dir: std::path::PathBuf,
    #[arg(long, default_value_t = 50)]
    pub iterations: usize,
    /// The DeepSpeed release to validate for.
    #[arg(long = "deepspeed", default_value = "0.19.8", value_parser = |t: &str| ds_studio_shared::Release::parse(t).map_err(|e| e.to_string()))]
    pub release: ds_studio_shared::Release,
    /// The launcher to validate for (the HF launchers add the json.load reader and HF's
    /// processing, with the Trainer's default arguments).
    #[arg(long, default_value = "deepspeed", value_parser = ["deepspeed", "hf-trainer", "accelerate"])]
    pub launcher: String,
}

pub fn run(a: Args) -> i32 {
    let mut texts = Vec::new();
    let Ok(entries) = std::fs::read_dir(&a.dir) else {
        eprintln!("ds-studio: cannot read {}", a.dir.display());
        return 2;
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "conf"))
        .collect();
    paths.sort();
    for p in paths {
        if let Ok(t) = std::fs::read_to_string(&p) {
            texts.push(t);
        }
    }
    let ctx = Context {
        deepspeed_version: a.release.to_string(),
        launcher: a.launcher.parse().unwrap_or_default(),
        ..Context::default()
    };
    let mut per_config = Vec::new();
    for t in &texts {
        let mut samples = Vec::with_capacity(a.iterations);
        for _ in 0..a.iterations {
            let start = Instant::now();
            let (_, d) = validate_text(t, &ctx);
            std::hint::black_box(d);
            samples.push(start.elapsed().as_secs_f64() * 1e6);
        }
        samples.sort_by(f64::total_cmp);
        per_config.push(samples[samples.len() / 2]);
    }
    per_config.sort_by(f64::total_cmp);
    let median = per_config.get(per_config.len() / 2).copied().unwrap_or(0.0);
    println!(
        "{}",
        serde_json::json!({"configs": texts.len(), "median_us": median})
    );
    0
}
