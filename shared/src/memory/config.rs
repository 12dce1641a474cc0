//! Reading a [`Setup`] from a config in its context: the effective values (the config's, else
//! DeepSpeed's defaults and derivations, or what the HF Trainer / Accelerate fill in for
//! `"auto"`), so the estimate is of the config as it will run.

use super::{OptimizerKind, Precision, Setup};
use crate::document::Document;
use crate::effective::effective;
use crate::i18n::Text;
use crate::validate::Context;
use serde_json::Value;

/// Why a config gives no estimate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.en)]
pub struct SetupError(pub Text);

/// The setup of `doc` run in `ctx` on `nodes` nodes (`ctx.world_size` ranks in all).
pub fn setup_from_config(doc: &Document, ctx: &Context, nodes: u32) -> Result<Setup, SetupError> {
    let root = doc.root().filter(|r| r.is_object()).ok_or_else(|| {
        SetupError(Text::new(
            "the config is not a JSON object: no memory estimate",
            "配置不是 JSON 对象，无法估算显存",
        ))
    })?;
    let entries = effective(root, ctx);
    let value = |path: &str| -> Option<&Value> {
        entries
            .iter()
            .find(|e| e.path == path)
            .map(|e| &e.value)
            .filter(|v| !v.is_null())
    };
    let number = |path: &str| value(path).and_then(Value::as_f64);
    let flag = |path: &str| value(path).and_then(Value::as_bool);
    let whole = |path: &str| {
        number(path)
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map(|v| v as u64)
    };
    let offloaded = |path: &str| {
        value(path)
            .and_then(Value::as_str)
            .is_some_and(|d| d == "cpu" || d == "nvme")
    };
    let stage = whole("zero_optimization.stage").unwrap_or(0).min(3) as u8;
    let precision = if flag("bf16.enabled") == Some(true) {
        Precision::Bf16
    } else if flag("fp16.enabled") == Some(true) {
        Precision::Fp16
    } else {
        Precision::Fp32
    };
    let optimizer = match value("optimizer.type").and_then(Value::as_str) {
        // No optimizer in the config: the script's own, which is torch's (HF: AdamW).
        None => OptimizerKind::TorchAdam,
        Some(t) => match t.to_ascii_lowercase().as_str() {
            "adam" | "adamw" if flag("optimizer.params.torch_adam") == Some(true) => {
                OptimizerKind::TorchAdam
            }
            "adam" | "adamw" | "lamb" | "lion" | "onebitadam" | "zerooneadam" | "onebitlamb"
            | "muadam" | "muadamw" => OptimizerKind::FusedAdam,
            "sgd" => OptimizerKind::Other,
            _ => OptimizerKind::TorchAdam,
        },
    };
    let world = ctx.world_size.max(1) as u64;
    let nodes = (nodes.max(1) as u64).min(world);
    // A micro batch written as anything but a positive whole number gives no estimate (the
    // validator names the problem); `"auto"` is a number only once an HF launcher fills it.
    // The value as written (the effective one is already cut to an integer), unless the
    // launcher fills an "auto".
    let written = root
        .child("train_micro_batch_size_per_gpu")
        .map(|n| n.to_value())
        .filter(|v| !(ctx.launcher.fills_auto() && v == "auto"));
    if let Some(v) = written.filter(|v| !v.is_null()) {
        if !v
            .as_f64()
            .is_some_and(|m| m >= 1.0 && m.fract() == 0.0 && m.is_finite())
        {
            return Err(SetupError(Text::new(
                format!("train_micro_batch_size_per_gpu is {v}: not a positive whole number, so no memory estimate"),
                format!("train_micro_batch_size_per_gpu 为 {v}：不是正整数，无法估算显存"),
            )));
        }
    }
    let micro = match value("train_micro_batch_size_per_gpu") {
        None => None,
        Some(v) => match v.as_f64() {
            Some(m) if m >= 1.0 && m.fract() == 0.0 && m.is_finite() => Some(m as u64),
            _ => {
                return Err(SetupError(Text::new(
                    format!("train_micro_batch_size_per_gpu is {v}: not a positive whole number, so no memory estimate"),
                    format!("train_micro_batch_size_per_gpu 为 {v}：不是正整数，无法估算显存"),
                )))
            }
        },
    };
    let accumulation = whole("gradient_accumulation_steps")
        .filter(|g| *g >= 1)
        .unwrap_or(1);
    let setup = Setup {
        stage,
        offload_optimizer: stage >= 1 && offloaded("zero_optimization.offload_optimizer.device"),
        offload_params: stage == 3 && offloaded("zero_optimization.offload_param.device"),
        precision,
        micro_batch: 1,
        gradient_accumulation: accumulation,
        gpus_per_node: (world / nodes).max(1),
        nodes,
        tensor_parallel: ctx.tensor_parallel.max(1) as u64,
        pipeline_parallel: ctx.pipeline_parallel.max(1) as u64,
        reduce_bucket: whole("zero_optimization.reduce_bucket_size").unwrap_or(500_000_000),
        prefetch_bucket: whole("zero_optimization.stage3_prefetch_bucket_size")
            .or_else(|| whole("zero_optimization.prefetch_bucket_size"))
            .unwrap_or(50_000_000),
        overlap_comm: flag("zero_optimization.overlap_comm").unwrap_or(stage == 3),
        optimizer,
        // DeepSpeed's section configures `deepspeed.checkpointing`, which the built-in
        // workload then uses for every block (scripts of one's own decide for themselves).
        activation_checkpointing: !ctx.launcher.fills_auto()
            && root.child("activation_checkpointing").is_some(),
    };
    // The micro batch as DeepSpeed derives it when only the global batch is written.
    let micro = micro.unwrap_or_else(|| {
        whole("train_batch_size")
            .map(|t| (t / (setup.partitions() * accumulation)).max(1))
            .unwrap_or(1)
    });
    Ok(Setup {
        micro_batch: micro,
        ..setup
    })
}
