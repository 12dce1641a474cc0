//! `ds-studio estimate --params 7e9 [--gpus-per-node 8] [--nodes 1] ...`: the memory table.

use ds_studio_shared::estimate::{activations, table, ModelShape};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Model parameters (e.g. 7e9 or 7000000000).
    #[arg(long)]
    pub params: f64,
    #[arg(long)]
    pub largest_layer_params: Option<f64>,
    #[arg(long, default_value_t = 1)]
    pub gpus_per_node: u64,
    #[arg(long, default_value_t = 1)]
    pub nodes: u64,
    #[arg(long)]
    pub hidden_size: Option<u64>,
    #[arg(long)]
    pub layers: Option<u64>,
    #[arg(long)]
    pub heads: Option<u64>,
    #[arg(long)]
    pub seq_len: Option<u64>,
    #[arg(long)]
    pub micro_batch: Option<u64>,
    #[arg(long)]
    pub activation_checkpointing: bool,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

fn gib(b: u64) -> String {
    format!("{:.2} GiB", b as f64 / 1024f64.powi(3))
}

pub fn run(a: Args) -> i32 {
    if a.params.is_nan() || a.params < 1.0 || a.gpus_per_node == 0 || a.nodes == 0 {
        eprintln!("ds-studio: --params must be positive and --gpus-per-node/--nodes at least 1");
        return 2;
    }
    let shape = ModelShape {
        params: a.params as u64,
        largest_layer_params: a.largest_layer_params.map(|v| v as u64),
        gpus_per_node: a.gpus_per_node,
        nodes: a.nodes,
        hidden_size: a.hidden_size,
        layers: a.layers,
        heads: a.heads,
        seq_len: a.seq_len,
        micro_batch: a.micro_batch,
        activation_checkpointing: a.activation_checkpointing,
    };
    let rows = table(&shape);
    let act = activations(&shape);
    if a.format == "json" {
        println!(
            "{}",
            serde_json::json!({"model_states": rows, "activations": act})
        );
        return 0;
    }
    println!("Model states per GPU, {} params on {} node(s) x {} GPU(s) (DeepSpeed's estimators, buffer factor 1.5)", a.params, a.nodes, a.gpus_per_node);
    println!(
        "{:<6} {:<18} {:>14} {:>16}",
        "stage", "offload", "GPU / device", "CPU / node"
    );
    for r in &rows {
        println!(
            "{:<6} {:<18} {:>14} {:>16}",
            r.stage,
            r.offload,
            gib(r.gpu_bytes),
            gib(r.cpu_bytes)
        );
    }
    match act {
        Some(x) => println!(
            "\nActivations per GPU: {}\n  assumptions: {}",
            gib(x.bytes),
            x.assumptions
        ),
        None => println!(
            "\nActivations: give --hidden-size --layers --seq-len --micro-batch for an estimate"
        ),
    }
    0
}
