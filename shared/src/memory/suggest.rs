//! What to change when a config does not fit: the largest micro batch that fits, keeping the
//! global batch through gradient accumulation, and the cheapest ZeRO stage or offload that fits
//! at the same micro batch. Each suggestion is the config text with only those keys edited
//! (comments and layout kept), judged by the validator in the same context, and fits the
//! runner by the same judgement as the check it answers ([`Capacity::holds`]: on a CPU runner
//! offloaded states count in the host memory they move to; on a GPU runner they must fit the
//! node's host memory).

use super::{estimate, setup_from_config, Capacity, Estimate, ModelSpec, Setup};
use crate::document::Document;
use crate::fit::FitChange;
use crate::i18n::Text;
use crate::validate::Context;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Which way a suggestion makes the config fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum SuggestionKind {
    /// A smaller micro batch, more accumulation steps: the same global batch.
    MicroBatch,
    /// A higher ZeRO stage or offloading to CPU memory, at the same micro batch.
    Stage,
}

/// A config that fits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Suggestion {
    pub kind: SuggestionKind,
    /// The config with the change made.
    pub config_text: String,
    pub changes: Vec<FitChange>,
    /// Its predicted peak per GPU.
    pub gpu_peak_bytes: u64,
    /// What one rank needs of the runner (the GPU peak; on a CPU runner with its share of the
    /// host side): the figure the summary gives.
    #[serde(default)]
    pub need_bytes: u64,
    /// The change in words, in both languages.
    pub summary: Text,
    /// Under the HF Trainer and Accelerate, the training arguments the suggestion runs with
    /// when it changes them (a smaller `per_device_train_batch_size`; the config keeps
    /// `"auto"`): saved with the version's context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer: Option<crate::launcher::TrainerArgs>,
}

impl Suggestion {
    /// The context to save the suggestion with: `base` with the suggestion's training
    /// arguments where it changes them (under the HF launchers).
    pub fn context(&self, base: &Context) -> Context {
        Context {
            trainer: self.trainer.clone().or_else(|| base.trainer.clone()),
            ..base.clone()
        }
    }
}

/// The ZeRO lines in the order they cost speed: stage, offload optimizer, offload parameters.
const LINES: [(u8, bool, bool); 6] = [
    (1, false, false),
    (2, false, false),
    (3, false, false),
    (2, true, false),
    (3, true, false),
    (3, true, true),
];

/// Suggestions for `text` (judged in `ctx` on `nodes` nodes) to fit `capacity`. Empty when it
/// already fits or nothing tried does.
pub fn suggest(
    text: &str,
    ctx: &Context,
    nodes: u32,
    model: &ModelSpec,
    capacity: &Capacity,
) -> Vec<Suggestion> {
    let doc = Document::parse(text);
    let Ok(setup) = setup_from_config(&doc, ctx, nodes) else {
        return Vec::new();
    };
    if fits(model, &setup, capacity).is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(s) = smaller_micro_batch(&doc, ctx, model, &setup, capacity) {
        out.push(s);
    }
    if let Some(s) = cheapest_stage(&doc, ctx, model, &setup, capacity) {
        out.push(s);
    }
    out
}

/// The most samples per GPU a step the micro batch search takes (as `fit`'s global batch).
const MAX_SAMPLES_PER_RANK: u64 = 1 << 40;

/// The divisors of `n` below `below`, largest first: found among the divisors up to the square
/// root (at most 2^20 steps for `n` up to [`MAX_SAMPLES_PER_RANK`]).
fn divisors_below(n: u64, below: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut i = 1u64;
    while i.saturating_mul(i) <= n {
        if n.is_multiple_of(i) {
            for d in [i, n / i] {
                if d < below && !out.contains(&d) {
                    out.push(d);
                }
            }
        }
        i += 1;
    }
    out.sort_unstable_by(|a, b| b.cmp(a));
    out
}

/// The estimate of `setup` and what one rank needs, if it fits `capacity`.
fn fits(model: &ModelSpec, setup: &Setup, capacity: &Capacity) -> Option<(Estimate, u64)> {
    let e = estimate(model, setup);
    let ranks = setup.gpus_per_node.max(1) as u32;
    let need = capacity.need(&e, ranks);
    capacity.holds(&e, ranks).then_some((e, need))
}

/// `doc` with `edits` (pointer, value; `None` removes) applied, the changes listed, if the
/// validator finds no error in it.
fn edited(
    doc: &Document,
    ctx: &Context,
    edits: &[(&str, Option<Value>)],
) -> Option<(String, Vec<FitChange>)> {
    let edits: Vec<(String, Option<Value>)> = edits
        .iter()
        .map(|(p, v)| (p.to_string(), v.clone()))
        .collect();
    crate::fit::edit_and_check(doc, ctx, &edits).ok()
}

fn smaller_micro_batch(
    doc: &Document,
    ctx: &Context,
    model: &ModelSpec,
    setup: &Setup,
    capacity: &Capacity,
) -> Option<Suggestion> {
    let per_rank = setup
        .micro_batch
        .saturating_mul(setup.gradient_accumulation);
    // Past 2^40 samples per GPU a step no run means it: not searched.
    if per_rank > MAX_SAMPLES_PER_RANK {
        return None;
    }
    let (micro, accumulation, e, need) = divisors_below(per_rank, setup.micro_batch)
        .into_iter()
        .find_map(|m| {
            let trial = Setup {
                micro_batch: m,
                gradient_accumulation: per_rank / m,
                ..setup.clone()
            };
            fits(model, &trial, capacity).map(|(e, need)| (m, per_rank / m, e, need))
        })?;
    // Under the HF launchers the batch is the training arguments' (the config keeps "auto").
    let crate::trainer_edits::Edited {
        text: config_text,
        changes,
        trainer,
    } = crate::trainer_edits::edit(
        doc,
        ctx,
        &[
            ("train_micro_batch_size_per_gpu".into(), json!(micro)),
            ("gradient_accumulation_steps".into(), json!(accumulation)),
        ],
    )
    .ok()?;
    Some(Suggestion {
        kind: SuggestionKind::MicroBatch,
        config_text,
        changes,
        gpu_peak_bytes: e.gpu_peak_bytes,
        need_bytes: need,
        summary: if trainer.is_some() {
            Text::new(
                format!(
                    "per_device_train_batch_size {micro} × gradient_accumulation_steps {accumulation} (training arguments, the config keeps \"auto\"; the same {per_rank} samples per GPU a step): {}",
                    super::human_bytes(need)
                ),
                format!(
                    "per_device_train_batch_size {micro} × gradient_accumulation_steps {accumulation}（训练参数，配置保留 \"auto\"；每卡每步仍为 {per_rank} 个样本）：{}",
                    super::human_bytes(need)
                ),
            )
        } else {
            Text::new(
                format!(
                    "micro batch {micro} × {accumulation} accumulation steps (the same {per_rank} samples per GPU a step): {}",
                    super::human_bytes(need)
                ),
                format!(
                    "微批 {micro} × 梯度累积 {accumulation} 步（每卡每步仍为 {per_rank} 个样本）：{}",
                    super::human_bytes(need)
                ),
            )
        },
        trainer,
    })
}

fn cheapest_stage(
    doc: &Document,
    ctx: &Context,
    model: &ModelSpec,
    setup: &Setup,
    capacity: &Capacity,
) -> Option<Suggestion> {
    let rank = |line: (u8, bool, bool)| LINES.iter().position(|l| *l == line);
    let now = rank((setup.stage, setup.offload_optimizer, setup.offload_params));
    let (line, e, need) = LINES.iter().enumerate().find_map(|(i, &line)| {
        if now.is_some_and(|n| i <= n) || (now.is_none() && line.0 <= setup.stage) {
            return None;
        }
        let (stage, opt, par) = line;
        let trial = Setup {
            stage,
            offload_optimizer: opt,
            offload_params: par,
            optimizer: if opt {
                super::OptimizerKind::FusedAdam
            } else {
                setup.optimizer
            },
            ..setup.clone()
        };
        fits(model, &trial, capacity).map(|(e, need)| (line, e, need))
    })?;
    let (stage, opt, par) = line;
    let device = |on: bool| on.then(|| json!("cpu"));
    let root = doc.to_value()?;
    let mut edits: Vec<(&str, Option<Value>)> =
        vec![("/zero_optimization/stage", Some(json!(stage)))];
    let had = |p: &str| root.pointer(p).is_some();
    if opt || had("/zero_optimization/offload_optimizer/device") {
        edits.push((
            "/zero_optimization/offload_optimizer/device",
            device(opt).or(Some(json!("none"))),
        ));
    }
    if par || had("/zero_optimization/offload_param/device") {
        edits.push((
            "/zero_optimization/offload_param/device",
            device(par).or(Some(json!("none"))),
        ));
    }
    // Offloaded states are stepped by DeepSpeed's CPU Adam, not torch's.
    if opt && root.pointer("/optimizer/params/torch_adam") == Some(&json!(true)) {
        edits.push(("/optimizer/params/torch_adam", None));
    }
    let (config_text, changes) = edited(doc, ctx, &edits)?;
    let what_en = match (opt, par) {
        (false, _) => format!("ZeRO-{stage}"),
        (true, false) => format!("ZeRO-{stage} with the optimizer offloaded to CPU memory"),
        (true, true) => {
            format!("ZeRO-{stage} with the optimizer and parameters offloaded to CPU memory")
        }
    };
    let what_zh = match (opt, par) {
        (false, _) => format!("ZeRO-{stage}"),
        (true, false) => format!("ZeRO-{stage}，优化器卸载到 CPU 内存"),
        (true, true) => format!("ZeRO-{stage}，优化器与参数卸载到 CPU 内存"),
    };
    Some(Suggestion {
        kind: SuggestionKind::Stage,
        config_text,
        changes,
        trainer: None,
        gpu_peak_bytes: e.gpu_peak_bytes,
        need_bytes: need,
        summary: Text::new(
            format!("{what_en}: {}", super::human_bytes(need)),
            format!("{what_zh}：{}", super::human_bytes(need)),
        ),
    })
}
