//! The memory model: the peak bytes one GPU holds while a config trains a transformer, and what
//! they are made of. Every figure the studio shows (memory panel, job page, Run dialog, the
//! pre-launch fit, `ds-studio estimate`) comes from [`estimate`].
//!
//! It is built from what PyTorch's `max_memory_allocated` measured on an NVIDIA H200
//! (`tests/fixtures/gpu_peaks.jsonl`: the built-in workload at three sizes, ZeRO 0-3, offload,
//! micro batch 2-16, bf16 and fp16, and the HF Trainer and Accelerate), not from DeepSpeed's
//! estimators, which overstate those peaks by 1.2-2×. A step has four moments where memory
//! peaks, and the peak is the largest ([`Phase`]):
//! - **the end of the forward pass**: the 16-bit parameters, the optimizer states, every
//!   layer's saved activations and the logits with the loss (the 16-bit logits, their fp32 copy,
//!   the log-softmax and its gradient: 14 bytes per token and vocabulary entry);
//! - **the start of the backward pass**, when ZeRO-1/2 allocate their gradient buckets
//!   (`reduce_bucket_size` 16-bit elements, twice with `overlap_comm`) while the activations are
//!   all still held;
//! - **the end of the backward pass**: every gradient this rank keeps (all of them at ZeRO-0/1,
//!   its partition from ZeRO-2 on) with the buckets, the activations freed;
//! - **the optimizer step**: the fp32 gradients and, for torch's Adam, as much again of
//!   temporaries (its `foreach` implementation), beside the states.
//!
//! Activations are Korthikanti et al.'s 34 bytes per token, layer and unit of width, without
//! their `5·a·s/h` attention-score term, which PyTorch's `scaled_dot_product_attention` (flash or
//! memory-efficient, the default of every current stack) never stores; eager attention adds it
//! back. The HF Trainer and Accelerate run transformers' GPT-2, whose tanh GELU keeps more of
//! each layer: 56 bytes (measured once, on xl). What was not measured (2+ GPUs, ZeRO-3 parameter
//! offload, fp32, activation checkpointing, DeepSpeed's fused Adam) follows the same terms
//! partitioned the way DeepSpeed partitions them; [`Estimate::measured_basis`] says so.
//! `tests.rs` holds every measured peak within ±10%, never more than 10% under it.

mod capacity;
mod compare;
mod config;
mod suggest;
mod user_model;

pub use capacity::{check, runner_capacity, usable_gpu_bytes, Capacity, DoesNotFit};
pub use compare::{costlier, Costlier};
pub use config::{setup_from_config, SetupError};
pub use suggest::{suggest, Suggestion, SuggestionKind};
pub use user_model::{ResolvedModel, UserModel, UserModelError, DEFAULT_SEQ_LEN, MAX_SEQ_LEN};

use crate::architecture::Architecture;
use crate::i18n::Text;
use serde::{Deserialize, Serialize};

/// How attention stores what its backward pass needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Attention {
    /// `scaled_dot_product_attention` (flash / memory-efficient): no score matrix kept.
    #[default]
    Sdpa,
    /// The score and probability matrices are kept (`5·a·s/h` more per token and layer).
    Eager,
}

/// The model being trained: a decoder-only transformer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModelSpec {
    pub params: u64,
    pub hidden_size: u64,
    pub layers: u64,
    pub heads: u64,
    pub seq_len: u64,
    pub vocab: u64,
    pub attention: Attention,
    /// Bytes of saved activations per token, layer and unit of width in 16-bit (34: the
    /// built-in workload, Korthikanti et al.'s count; 56: transformers' GPT-2), with sdpa.
    pub activation_factor: f64,
    /// The same with eager attention, where it was measured for the architecture (a model read
    /// from its config.json); otherwise eager adds Korthikanti's `5·a·s/h`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eager_activation_factor: Option<f64>,
    /// The largest layer's parameters, where the architecture is known (ZeRO-3 gathers a whole
    /// layer: every expert of a sparse one); otherwise a GPT layer's `12·h² + 13·h`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_layer_params: Option<u64>,
    /// The parameters the optimizer trains, where fewer than all (LoRA: the adapters, the
    /// base frozen); absent: every parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainable_params: Option<u64>,
    /// Built under `deepspeed.zero.Init` at ZeRO-3, each parameter partitioned as it is made
    /// (transformers' models under the HF Trainer and Accelerate, and the studio's
    /// rehearsals): no rank's host holds the whole model. The built-in workload under the
    /// plain launcher is built whole, in fp32, by every rank.
    #[serde(default)]
    pub zero_init: bool,
}

/// Activation bytes per token, layer and unit of width of a standard block (Korthikanti et al.).
pub const STANDARD_ACTIVATION_FACTOR: f64 = 34.0;
/// Measured for transformers' GPT-2 (tanh GELU) under the HF Trainer and Accelerate.
pub const HF_GPT2_ACTIVATION_FACTOR: f64 = 56.0;

impl ModelSpec {
    /// The built-in workload of `size` (`tiny` .. `xl`), as the plain launcher runs it, or as
    /// transformers' GPT-2 of the same shape under the HF Trainer or Accelerate.
    pub fn builtin(size: &str, hf: bool) -> Option<ModelSpec> {
        let g = crate::builtin_gpt::GptSize::of(size)?;
        Some(ModelSpec {
            params: g.params(),
            hidden_size: g.d_model,
            layers: g.layers,
            heads: g.heads,
            seq_len: g.seq,
            vocab: g.vocab,
            attention: Attention::Sdpa,
            activation_factor: if hf {
                HF_GPT2_ACTIVATION_FACTOR
            } else {
                STANDARD_ACTIVATION_FACTOR
            },
            eager_activation_factor: None,
            largest_layer_params: None,
            trainable_params: None,
            zero_init: hf,
        })
    }

    /// A GPT-like model of `params` parameters where its shape is not known: `layers` (32), the
    /// width from 12·L·h² ≈ params, 128-wide heads, sequence 2048, vocabulary 32,000 unless
    /// given. The memory panel's custom counts and `ds-studio estimate --params` use it.
    pub fn gpt_like(
        params: u64,
        layers: Option<u64>,
        hidden: Option<u64>,
        heads: Option<u64>,
        seq_len: Option<u64>,
        vocab: Option<u64>,
    ) -> ModelSpec {
        let layers = layers.unwrap_or(32).max(1);
        let hidden = hidden
            .unwrap_or_else(|| ((params as f64 / (12.0 * layers as f64)).sqrt() as u64).max(64));
        ModelSpec {
            params: params.max(1),
            hidden_size: hidden,
            layers,
            heads: heads.unwrap_or((hidden / 128).max(1)),
            seq_len: seq_len.unwrap_or(2048),
            vocab: vocab.unwrap_or(32000),
            attention: Attention::Sdpa,
            activation_factor: STANDARD_ACTIVATION_FACTOR,
            eager_activation_factor: None,
            largest_layer_params: None,
            trainable_params: None,
            zero_init: true,
        }
    }

    /// A model read from its config.json, trained at sequence length `seq_len`: its
    /// parameters as transformers counts them, its largest layer, and the activations its
    /// family keeps per token and layer, with sdpa and eager (measured per family:
    /// `architecture::activations`). Gemma 2 is eager whatever is asked (transformers has no
    /// sdpa for it).
    pub fn from_architecture(arch: &Architecture, seq_len: u64, attention: Attention) -> ModelSpec {
        let h = arch.hidden.max(1) as f64;
        let attention = if arch.family == crate::architecture::Family::Gemma2 {
            Attention::Eager
        } else {
            attention
        };
        ModelSpec {
            params: arch.params().total(),
            hidden_size: arch.hidden,
            layers: arch.layers,
            heads: arch.heads,
            seq_len,
            vocab: arch.vocab,
            attention,
            activation_factor: arch.activation_bytes(false, seq_len) / h,
            eager_activation_factor: Some(arch.activation_bytes(true, seq_len) / h),
            largest_layer_params: Some(arch.largest_layer_params()),
            trainable_params: None,
            zero_init: true,
        }
    }

    /// The same model with LoRA adapters of `rank` (`adapters` parameters, from
    /// [`Architecture::lora_params`]): the base frozen in 16-bit, only the adapters trained.
    /// Activations are what peft's model keeps (measured per family with adapters on every
    /// linear layer, `architecture::activations`), plus each adapter's rank-wide intermediate.
    pub fn with_lora(mut self, arch: &Architecture, rank: u64, adapters: u64) -> ModelSpec {
        let h = arch.hidden.max(1) as f64;
        self.params = self.params.saturating_add(adapters);
        self.trainable_params = Some(adapters);
        if let Some(sdpa) = arch.lora_activation_bytes(false, self.seq_len, rank) {
            self.activation_factor = sdpa / h;
        }
        if let Some(eager) = arch.lora_activation_bytes(true, self.seq_len, rank) {
            self.eager_activation_factor = Some(eager / h);
        }
        self
    }

    /// Parameters the optimizer trains: all of them unless [`ModelSpec::trainable_params`]
    /// says fewer.
    pub fn trainable(&self) -> u64 {
        self.trainable_params
            .unwrap_or(self.params)
            .min(self.params)
    }

    /// Parameters of the largest transformer layer: the architecture's where it is known,
    /// else a GPT layer's (12·h² + 13·h).
    pub fn layer_params(&self) -> u64 {
        if let Some(p) = self.largest_layer_params {
            return p;
        }
        let h = self.hidden_size;
        h.saturating_mul(h)
            .saturating_mul(12)
            .saturating_add(h.saturating_mul(13))
    }
}

/// Numeric precision of the weights the model computes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Precision {
    Bf16,
    Fp16,
    Fp32,
}

impl Precision {
    /// Bytes per element.
    pub fn bytes(self) -> u64 {
        match self {
            Precision::Fp32 => 4,
            _ => 2,
        }
    }
}

/// Which optimizer implementation steps the fp32 states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum OptimizerKind {
    /// torch's Adam/AdamW (`torch_adam: true`, or a client optimizer): its `foreach` step
    /// allocates temporaries as large as the states it updates.
    TorchAdam,
    /// DeepSpeed's FusedAdam (its default on GPU): a fused kernel, no full-size temporaries.
    FusedAdam,
    /// A stateless or other optimizer: no moments (SGD).
    Other,
}

/// How the config trains: everything about it that moves memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Setup {
    pub stage: u8,
    pub offload_optimizer: bool,
    pub offload_params: bool,
    pub precision: Precision,
    pub micro_batch: u64,
    pub gradient_accumulation: u64,
    pub gpus_per_node: u64,
    pub nodes: u64,
    pub tensor_parallel: u64,
    pub pipeline_parallel: u64,
    /// Elements (`zero_optimization.reduce_bucket_size`, default 5e8).
    pub reduce_bucket: u64,
    /// Elements (`stage3_prefetch_bucket_size`, default 5e7).
    pub prefetch_bucket: u64,
    pub overlap_comm: bool,
    pub optimizer: OptimizerKind,
    pub activation_checkpointing: bool,
}

impl Setup {
    /// Ranks the ZeRO states are partitioned over (data parallel).
    pub fn partitions(&self) -> u64 {
        let world = self.gpus_per_node.max(1) * self.nodes.max(1);
        (world / (self.tensor_parallel.max(1) * self.pipeline_parallel.max(1))).max(1)
    }
}

/// A named part of the memory of one GPU (or one node's CPU memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Part {
    /// The weights the model computes with (16-bit, or fp32 without mixed precision); this
    /// GPU's partition at ZeRO-3.
    Parameters,
    /// fp32 master weights and Adam's two moments (12 bytes per parameter), partitioned from
    /// ZeRO-1 on.
    OptimizerStates,
    /// Gradients kept between the micro batches of an accumulation.
    AccumulatedGradients,
    /// This step's gradients at the end of the backward pass (all of them at ZeRO-0/1, this
    /// rank's partition from ZeRO-2 on).
    Gradients,
    /// ZeRO-3's gathered parameters: the layers being computed and prefetched.
    GatheredParameters,
    /// The gradient buckets of ZeRO-1/2 (`reduce_bucket_size`, twice with `overlap_comm`) and
    /// ZeRO-3's reduce and prefetch buckets.
    Buckets,
    /// Saved activations of every layer (with checkpointing: each layer's input, plus one layer
    /// recomputed).
    Activations,
    /// The logits and the loss (16-bit logits, fp32 copy, log-softmax and its gradient).
    Logits,
    /// The optimizer step: fp32 gradients and the optimizer's temporaries.
    OptimizerStep,
    /// Host memory: the model built in fp32 before it moves to the GPU (per rank; under
    /// ZeRO-3's `zero.Init`, the one layer being made).
    HostModel,
    /// Host memory: the offloaded optimizer states, fp32 gradients and pinned buffers (the
    /// node's ranks' partitions, buffer factor 1.5 as DeepSpeed's estimators).
    Offloaded,
}

impl Part {
    /// What the part is, in both languages.
    pub fn label(self) -> Text {
        let (en, zh) = match self {
            Part::Parameters => ("parameters", "参数"),
            Part::Gradients => ("gradients", "梯度"),
            Part::OptimizerStates => (
                "optimizer states (fp32 master + Adam moments)",
                "优化器状态（fp32 主权重与 Adam 动量）",
            ),
            Part::AccumulatedGradients => (
                "gradients accumulated between micro batches",
                "微批之间累积的梯度",
            ),
            Part::GatheredParameters => ("ZeRO-3 gathered parameters", "ZeRO-3 聚合的参数"),
            Part::Buckets => ("communication buckets", "通信桶"),
            Part::Activations => ("activations", "激活值"),
            Part::Logits => ("logits and loss", "logits 与损失"),
            Part::OptimizerStep => (
                "optimizer step (fp32 gradients + temporaries)",
                "优化器步骤（fp32 梯度与临时张量）",
            ),
            Part::HostModel => (
                "the model each rank builds on the host (fp32; the node's ranks together)",
                "各进程在主机上构建的模型（fp32，本节点所有进程合计）",
            ),
            Part::Offloaded => (
                "offloaded states and pinned buffers",
                "卸载的状态与锁页缓冲区",
            ),
        };
        Text::new(en, zh)
    }
}

/// When in a training step the peak happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Phase {
    Forward,
    Backward,
    /// The end of the backward pass: every gradient this rank keeps (all of them at ZeRO-0/1).
    Gradients,
    OptimizerStep,
}

impl Phase {
    /// A table heading's worth: "forward end", "optimizer step".
    pub fn short(self) -> Text {
        let (en, zh) = match self {
            Phase::Forward => ("forward end", "前向结束"),
            Phase::Backward => ("backward start", "反向开始"),
            Phase::Gradients => ("backward end", "反向结束"),
            Phase::OptimizerStep => ("optimizer step", "优化器步骤"),
        };
        Text::new(en, zh)
    }

    pub fn label(self) -> Text {
        match self {
            Phase::Forward => Text::new(
                "the end of the forward pass, with the loss",
                "前向传播结束、计算损失时",
            ),
            Phase::Backward => Text::new(
                "the start of the backward pass, with the gradient buckets",
                "反向传播开始、分配梯度通信桶时",
            ),
            Phase::Gradients => Text::new(
                "the end of the backward pass, with every gradient",
                "反向传播结束、梯度齐备时",
            ),
            Phase::OptimizerStep => Text::new("the optimizer step", "优化器步骤"),
        }
    }
}

/// One part and its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Piece {
    pub part: Part,
    pub bytes: u64,
}

/// The predicted peak of one GPU and of one node's CPU memory, with their parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Estimate {
    /// Peak bytes per GPU (`torch.cuda.max_memory_allocated`).
    pub gpu_peak_bytes: u64,
    /// When the peak happens.
    pub phase: Phase,
    /// What the GPU holds at its peak; the bytes add up to `gpu_peak_bytes`.
    pub gpu_parts: Vec<Piece>,
    /// Peak bytes of CPU memory per node (the node's ranks together).
    pub cpu_peak_bytes: u64,
    pub cpu_parts: Vec<Piece>,
    /// Whether configs like this one were measured on a GPU (stage, offload and precision of a
    /// measured row on one GPU); `false`: the terms are DeepSpeed's partitioning of measured ones.
    pub measured_basis: bool,
}

impl Estimate {
    /// The bytes of `part` on the GPU at the peak (0 if it holds none).
    pub fn gpu_part(&self, part: Part) -> u64 {
        self.gpu_parts
            .iter()
            .filter(|p| p.part == part)
            .map(|p| p.bytes)
            .sum()
    }
}

/// The predicted per-GPU and per-node peaks of `setup` training `model`.
pub fn estimate(model: &ModelSpec, setup: &Setup) -> Estimate {
    let n = setup.partitions();
    let tp = setup.tensor_parallel.max(1);
    let mp = tp * setup.pipeline_parallel.max(1);
    let p = (model.params / mp).max(1);
    // What the optimizer trains: every parameter, or LoRA's adapters alone.
    let t = (model.trainable() / mp).max(1);
    let w = setup.precision.bytes();
    let mixed = setup.precision != Precision::Fp32;
    let (b, s, h, l, v) = (
        setup.micro_batch.max(1),
        model.seq_len,
        model.hidden_size,
        (model.layers / setup.pipeline_parallel.max(1)).max(1),
        model.vocab,
    );
    let stage = setup.stage.min(3);
    let opt_partition = if stage == 0 { 1 } else { n };
    let moments_bytes = match setup.optimizer {
        OptimizerKind::Other => 0,
        _ => 8,
    };
    let state_bytes: u64 = moments_bytes + if mixed { 4 } else { 0 };

    // Saturating: a model at the largest sizes a config.json may give, with LoRA's largest
    // adapters, stays at u64::MAX instead of wrapping.
    let (wp, wt) = (w.saturating_mul(p), w.saturating_mul(t));
    let parameters = match stage {
        3 if setup.offload_params => 0,
        3 => wp / n,
        _ => wp,
    };
    let optimizer_states = if setup.offload_optimizer {
        0
    } else {
        state_bytes.saturating_mul(t) / opt_partition
    };
    let gradients = match stage {
        0 | 1 => wt,
        _ => wt / n,
    };
    let accumulated = if setup.gradient_accumulation > 1 {
        gradients
    } else {
        0
    };
    // ZeRO-3 gathers what it computes: as much as this rank's partition (all of the model on
    // one GPU, as measured), at least the layer being computed and the one prefetched; with
    // the parameters offloaded, the partition stays on the host and only layers come over.
    let layers_gathered = model.layer_params().saturating_mul(2 * w) / tp;
    let gathered = match stage {
        3 if setup.offload_params => layers_gathered,
        3 => (wp / n).max(layers_gathered),
        _ => 0,
    };
    let buckets = match stage {
        0 => 0,
        1 | 2 => (w * if setup.overlap_comm { 2 } else { 1 }).saturating_mul(setup.reduce_bucket),
        _ => w.saturating_mul(setup.reduce_bucket.saturating_add(setup.prefetch_bucket)),
    };
    // Saved activations, scaled from 16-bit; Korthikanti's TP split: 10 + 24/t of the 34.
    let per_token_layer = {
        let base = model.activation_factor - 24.0 + 24.0 / tp as f64;
        let scores = match (model.attention, model.eager_activation_factor) {
            (Attention::Sdpa, _) => 0.0,
            (Attention::Eager, Some(eager)) => (eager - model.activation_factor) / tp as f64,
            (Attention::Eager, None) => {
                5.0 * model.heads as f64 * s as f64 / (h as f64 * tp as f64)
            }
        };
        (base + scores) * w as f64 / 2.0
    };
    // Batch-sized terms in f64: a micro batch of 1e12 saturates instead of wrapping.
    let tokens = b as f64 * s as f64;
    let activations = if setup.activation_checkpointing {
        tokens * h as f64 * (w as f64 * l as f64 + per_token_layer)
    } else {
        tokens * h as f64 * l as f64 * per_token_layer
    } as u64;
    let vocab_tokens = tokens * v as f64 / tp as f64;
    let logits_forward = (vocab_tokens * if mixed { (w + 12) as f64 } else { 12.0 }) as u64;
    let logits_backward = (vocab_tokens * 4.0) as u64;
    let logits_held = (vocab_tokens * w as f64) as u64;
    let step = if setup.offload_optimizer || setup.optimizer == OptimizerKind::Other {
        0
    } else {
        let grads = t.saturating_mul(4) / opt_partition;
        let temporaries = match setup.optimizer {
            OptimizerKind::TorchAdam => t.saturating_mul(4) / opt_partition,
            _ => 0,
        };
        grads.saturating_add(temporaries)
    };

    let states = [
        (Part::Parameters, parameters),
        (Part::OptimizerStates, optimizer_states),
        (Part::AccumulatedGradients, accumulated),
        (Part::GatheredParameters, gathered),
    ];
    let with = |extra: &[(Part, u64)]| -> Vec<Piece> {
        states
            .iter()
            .chain(extra)
            .filter(|(_, bytes)| *bytes > 0)
            .map(|&(part, bytes)| Piece { part, bytes })
            .collect()
    };
    let zero3_buckets = if stage == 3 { buckets } else { 0 };
    let phases = [
        (
            Phase::Forward,
            with(&[
                (Part::Buckets, zero3_buckets),
                (Part::Activations, activations),
                (Part::Logits, logits_forward),
            ]),
        ),
        (
            Phase::Backward,
            with(&[
                (Part::Buckets, buckets),
                (Part::Activations, activations),
                (Part::Logits, logits_backward),
            ]),
        ),
        (
            Phase::Gradients,
            with(&[
                (Part::Gradients, gradients.saturating_sub(accumulated)),
                (Part::Buckets, buckets),
            ]),
        ),
        (
            Phase::OptimizerStep,
            with(&[(Part::OptimizerStep, step), (Part::Logits, logits_held)]),
        ),
    ];
    let total = |parts: &[Piece]| {
        parts
            .iter()
            .fold(0u64, |sum, p| sum.saturating_add(p.bytes))
    };
    // The earliest of equal peaks (absurd sizes saturate them all).
    let (phase, gpu_parts) = phases
        .into_iter()
        .rev()
        .max_by_key(|(_, parts)| total(parts))
        .unwrap_or((Phase::Forward, Vec::new()));

    // Host memory per node: the model built in fp32 by each rank (under ZeRO-3's zero.Init,
    // one layer at a time: each is partitioned onto the GPUs as it is made), then what offload
    // keeps there.
    let ranks = (setup.gpus_per_node.max(1) * setup.nodes.max(1) / setup.nodes.max(1)).max(1);
    let built = if stage == 3 && model.zero_init {
        model.layer_params().min(p)
    } else {
        p
    };
    let host_model = ranks.saturating_mul(4).saturating_mul(built);
    let offloaded = offloaded_bytes(model, setup);
    let cpu_parts: Vec<Piece> = [(Part::HostModel, host_model), (Part::Offloaded, offloaded)]
        .into_iter()
        .filter(|(_, b)| *b > 0)
        .map(|(part, bytes)| Piece { part, bytes })
        .collect();
    Estimate {
        gpu_peak_bytes: total(&gpu_parts),
        phase,
        gpu_parts,
        cpu_peak_bytes: host_model.max(offloaded),
        cpu_parts,
        measured_basis: n == 1
            && mp == 1
            && mixed
            && !setup.offload_params
            && !setup.activation_checkpointing
            && model.attention == Attention::Sdpa
            && (setup.optimizer == OptimizerKind::TorchAdam || setup.offload_optimizer),
    }
}

/// CPU bytes per node that offloading keeps (buffer factor 1.5, as DeepSpeed's estimators).
/// ZeRO-1/2 offload each rank's partition of the fp32 master weights, Adam's moments and the
/// fp32 gradients (16 bytes per trained parameter, over every rank): a node holds 16·t/nodes.
/// (DeepSpeed's `estimate_zero2_model_states_mem_needs` charges each node 4 bytes per parameter
/// per GPU of the whole job, which grows with the nodes; the model each rank builds is
/// [`Part::HostModel`] here.) ZeRO-3 is DeepSpeed's estimator under zero.Init.
fn offloaded_bytes(model: &ModelSpec, setup: &Setup) -> u64 {
    if !setup.offload_optimizer && !setup.offload_params {
        return 0;
    }
    let mp = (setup.tensor_parallel.max(1) * setup.pipeline_parallel.max(1)).max(1);
    let p = (model.params / mp).max(1);
    let (g, nodes) = (setup.gpus_per_node.max(1), setup.nodes.max(1));
    let t = (model.trainable() / mp).max(1);
    if t < p {
        // LoRA: the host keeps the adapters' optimizer states, and with parameter offload the
        // node's share of the frozen 16-bit base (not measured: DeepSpeed's terms for them).
        let states = if setup.offload_optimizer {
            zero2_offloaded(t, nodes)
        } else {
            0
        };
        let base = if setup.offload_params && setup.stage >= 3 {
            2 * p / nodes
        } else {
            0
        };
        return states.saturating_add(base);
    }
    let (cpu, _) = if setup.stage >= 3 {
        crate::estimate::zero3_model_states(
            p,
            model.layer_params(),
            g,
            nodes,
            true,
            setup.offload_params,
            true,
            1.5,
        )
    } else {
        (zero2_offloaded(p, nodes), 0)
    };
    cpu
}

/// A node's share of ZeRO-1/2's offloaded states for `trained` parameters: 16 bytes each over
/// the nodes, with DeepSpeed's buffer factor of 1.5.
fn zero2_offloaded(trained: u64, nodes: u64) -> u64 {
    (trained.saturating_mul(16) / nodes.max(1)).saturating_mul(3) / 2
}

/// Bytes as people read them: `32.2 GiB`, `840 MiB`.
pub fn human_bytes(bytes: u64) -> String {
    let gib = bytes as f64 / (1u64 << 30) as f64;
    if gib >= 1.0 {
        format!("{gib:.1} GiB")
    } else {
        format!("{:.0} MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}

#[cfg(test)]
mod tests;
