//! `POST /api/v1/estimate` and `GET /api/v1/models`: the memory estimate of a config training a
//! user's model (a catalog name or a config.json, fully or with LoRA) on a cluster shape, for
//! scripts; and whether it fits a GPU of a given size and each runner the caller can use, with
//! the configs that would. [`answer`] is the whole computation; the server adds the runners.

use crate::architecture::{Architecture, Params};
use crate::devices::RunnerDevices;
use crate::memory::{
    check, estimate, runner_capacity, setup_from_config, Capacity, DoesNotFit, Estimate, ModelSpec,
    Setup, UserModel,
};
use crate::validate::Context;
use crate::Document;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most GPUs per node and nodes an estimate is asked for (the job limits).
pub const MAX_GPUS_PER_NODE: u32 = 64;
pub const MAX_NODES: u32 = 1024;

/// What to estimate: a DeepSpeed config, the model it trains, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(example = json!({
        "config": {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 8,
                   "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}},
        "model": {"name": "qwen2.5-7b", "seq_len": 4096, "lora": {"rank": 16}},
        "gpus_per_node": 8,
        "gpu_memory_bytes": 85899345920u64
    }))
)]
#[serde(deny_unknown_fields)]
pub struct EstimateRequest {
    /// The DeepSpeed config (a JSON object).
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub config: Value,
    pub model: UserModel,
    /// Who launches it, the DeepSpeed release and the HF Trainer's arguments (as for
    /// `/validate`); its world size is `gpus_per_node × nodes`.
    #[serde(default)]
    pub context: Option<Context>,
    /// GPUs per node (default 1).
    #[serde(default)]
    pub gpus_per_node: Option<u32>,
    /// Nodes (default 1).
    #[serde(default)]
    pub nodes: Option<u32>,
    /// A GPU's memory in bytes to hold the estimate against (besides the runners).
    #[serde(default)]
    pub gpu_memory_bytes: Option<u64>,
}

/// The model as the estimate read it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EstimatedModel {
    /// The catalog name, when the model is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The model's own parameters (as transformers counts them).
    pub params: u64,
    /// LoRA's adapters, added to the model (0 for full fine-tuning).
    pub adapter_params: u64,
    /// The parameters the optimizer trains (all, or LoRA's adapters).
    pub trainable_params: u64,
    /// Parameters a token goes through (fewer than `params` in a mixture of experts).
    pub active_params: u64,
    /// The base model's parameters, part by part.
    pub parts: Params,
    pub architecture: Architecture,
    /// What the memory model used.
    pub spec: ModelSpec,
}

/// Whether the estimate fits one target (a GPU of the asked size, or a runner), and if not,
/// what would.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FitVerdict {
    /// The runner (absent for `gpu_memory_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    pub fits: bool,
    pub capacity: Capacity,
    /// What one rank needs of `capacity.bytes_per_rank`.
    pub need_bytes: u64,
    /// When it does not fit: the refusal a job would get, with the configs that would fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub does_not_fit: Option<Box<DoesNotFit>>,
}

/// `POST /api/v1/estimate`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EstimateResponse {
    pub estimate: Estimate,
    pub model: EstimatedModel,
    /// How the config trains, as read from it.
    pub setup: Setup,
    /// Against `gpu_memory_bytes`, when it was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<FitVerdict>,
    /// Against each online runner the caller may use that says what memory it has (none for
    /// an anonymous caller).
    pub runners: Vec<FitVerdict>,
}

/// Why an estimate cannot be made: a message naming the field, in both languages.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateError(pub crate::i18n::Text);

/// The estimate of `req`, held against `gpu_memory_bytes` and each of `runners` (name and
/// devices).
pub fn answer(
    req: &EstimateRequest,
    runners: &[(String, RunnerDevices)],
) -> Result<EstimateResponse, EstimateError> {
    let bad = |en: String, zh: String| EstimateError(crate::i18n::Text::new(en, zh));
    let gpus = req.gpus_per_node.unwrap_or(1);
    let nodes = req.nodes.unwrap_or(1);
    if !(1..=MAX_GPUS_PER_NODE).contains(&gpus) || !(1..=MAX_NODES).contains(&nodes) {
        return Err(bad(
            format!("gpus_per_node {gpus} and nodes {nodes}: give 1-{MAX_GPUS_PER_NODE} GPUs per node and 1-{MAX_NODES} nodes"),
            format!("gpus_per_node {gpus}、nodes {nodes}：每节点 GPU 应为 1-{MAX_GPUS_PER_NODE}，节点 1-{MAX_NODES}"),
        ));
    }
    if req.gpu_memory_bytes == Some(0) {
        return Err(bad(
            "gpu_memory_bytes must be more than 0".into(),
            "gpu_memory_bytes 必须大于 0".into(),
        ));
    }
    if !req.config.is_object() {
        return Err(bad(
            "config must be a JSON object (a DeepSpeed config)".into(),
            "config 必须是 JSON 对象（DeepSpeed 配置）".into(),
        ));
    }
    let resolved = req.model.resolve().map_err(|e| {
        let t = e.text();
        bad(format!("model: {}", t.en), format!("model：{}", t.zh))
    })?;
    let mut context = req.context.clone().unwrap_or_default();
    context.world_size = gpus * nodes;
    let text = req.config.to_string();
    let doc = Document::parse(&text);
    let setup = setup_from_config(&doc, &context, nodes)
        .map_err(|e| bad(format!("config: {}", e.0.en), format!("config：{}", e.0.zh)))?;
    let spec = &resolved.spec;
    let e = estimate(spec, &setup);
    let verdict = |cap: Capacity, runner: Option<String>| {
        let need_bytes = cap.need(&e, gpus);
        match check(&text, &context, nodes, spec, &setup, &cap, runner.clone()) {
            Ok(_) => FitVerdict {
                runner,
                fits: true,
                capacity: cap,
                need_bytes,
                does_not_fit: None,
            },
            Err(refusal) => FitVerdict {
                runner,
                fits: false,
                capacity: cap,
                need_bytes,
                does_not_fit: Some(refusal),
            },
        }
    };
    let gpu = req
        .gpu_memory_bytes
        .map(|b| verdict(Capacity::device_only(b), None));
    let runners = runners
        .iter()
        .filter_map(|(name, devices)| {
            runner_capacity(devices, gpus).map(|cap| verdict(cap, Some(name.clone())))
        })
        .collect();
    let arch = &resolved.architecture;
    Ok(EstimateResponse {
        model: EstimatedModel {
            name: resolved.name.map(str::to_string),
            params: arch.params().total(),
            adapter_params: spec.params.saturating_sub(arch.params().total()),
            trainable_params: spec.trainable(),
            active_params: arch.active_params(),
            parts: arch.params(),
            architecture: arch.clone(),
            spec: spec.clone(),
        },
        estimate: e,
        setup,
        gpu,
        runners,
    })
}
