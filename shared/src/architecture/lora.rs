//! LoRA (peft): low-rank adapters on some of a model's linear layers, the rest frozen.
//!
//! [`Architecture::linear_modules`] lists each layer's linear modules by the names transformers
//! gives them (`q_proj`, `gate_up_proj`, `c_attn`, …) with their shapes; an adapter of rank `r`
//! on a module of `n` inputs and `m` outputs adds `r·(n + m)` parameters (peft's `lora_A` and
//! `lora_B`, no bias). Targets are matched as peft matches them: a module whose name is the
//! target, or `all-linear` for every linear layer but the output layer. peft 0.21 also adapts
//! the router and the fused experts (rank `r` per expert, twice for the fused gate and up
//! projections) of Mixtral and Qwen3-MoE under `all-linear`, and there leaves their dense MLP
//! layers out; it does neither for Qwen2-MoE. The router and experts cannot be named. Invariant: the adapter
//! parameters equal what peft adds to transformers' model (`tests.rs`, against the counts
//! `tools/models/count_params.py --lora` wrote).

use super::{Architecture, Family, Mlp};
use crate::i18n::Text;
use serde::{Deserialize, Serialize};

/// The most a rank may be (past any adapter in use; keeps every product in range).
pub const MAX_RANK: u64 = 65_536;

/// Adapters of one rank on the named modules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Lora {
    /// The adapters' rank `r` (peft's default is 8).
    pub rank: u64,
    /// Module names (`q_proj`, `v_proj`, …), or `all-linear`. Empty: `all-linear`.
    #[serde(default)]
    pub targets: Vec<String>,
}

/// A linear module of every layer (or of every sparse or dense layer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearModule {
    /// transformers' name for it, the last part of its path.
    pub name: &'static str,
    pub inputs: u64,
    pub outputs: u64,
    /// How many the whole model has.
    pub count: u64,
    /// Rank-`r` adapters it gets: 1 for a linear layer; for fused experts `E` (one per expert)
    /// or `2·E` (gate and up projections fused).
    pub adapters: u64,
    /// `all-linear` adapts it.
    pub in_all_linear: bool,
    /// A target of its name adapts it (not the fused experts and router).
    pub by_name: bool,
}

/// Why a LoRA request cannot be applied to a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoraError {
    Rank(u64),
    /// These targets name no linear module of the model; it has `available`.
    NoSuchModule {
        unknown: Vec<String>,
        available: Vec<&'static str>,
    },
}

impl LoraError {
    pub fn text(&self) -> Text {
        match self {
            LoraError::Rank(r) => Text::new(
                format!("LoRA rank {r}: give a rank between 1 and {MAX_RANK}"),
                format!("LoRA 秩 {r}：应在 1 到 {MAX_RANK} 之间"),
            ),
            LoraError::NoSuchModule { unknown, available } => Text::new(
                format!(
                    "LoRA target {}: this model has no such linear module; its modules are {} (or all-linear: every linear layer but lm_head, and for Mixtral and Qwen3-MoE also the router and the experts, which peft adapts only that way)",
                    unknown.join(", "),
                    available.join(", ")
                ),
                format!(
                    "LoRA 目标 {}：该模型没有这个线性层；可选 {}（或 all-linear：除 lm_head 外的所有线性层，Mixtral 与 Qwen3-MoE 还包括路由器和专家，peft 只以这种方式适配它们）",
                    unknown.join("，"),
                    available.join("，")
                ),
            ),
        }
    }
}

impl std::fmt::Display for LoraError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text().en)
    }
}

impl std::error::Error for LoraError {}

impl Lora {
    /// Targets from a comma-separated list (`q_proj,v_proj`); empty: `all-linear`.
    pub fn new(rank: u64, targets: &str) -> Lora {
        Lora {
            rank,
            targets: targets
                .split(',')
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
        }
    }

    fn all_linear(&self) -> bool {
        self.targets.is_empty() || self.targets.iter().any(|t| t == "all-linear")
    }
}

impl Architecture {
    /// Every linear module of the layers and the output layer (`lm_head`), by transformers'
    /// names, and the fused experts and router peft adapts under `all-linear`.
    pub fn linear_modules(&self) -> Vec<LinearModule> {
        let (h, d, l) = (self.hidden, self.head_dim, self.layers);
        let (q, kv) = (self.heads * d, self.kv_heads * d);
        let sparse = self.experts.as_ref().map_or(0, |e| e.sparse_layers);
        let dense = l - sparse;
        let m = |name, inputs, outputs, count| LinearModule {
            name,
            inputs,
            outputs,
            count,
            adapters: 1,
            in_all_linear: true,
            by_name: true,
        };
        let mut out = match self.family {
            Family::Gpt2 => vec![m("c_attn", h, 3 * h, l), m("c_proj", h, h, l)],
            Family::GptNeox => vec![m("query_key_value", h, 3 * h, l), m("dense", h, h, l)],
            Family::Phi3 => vec![m("qkv_proj", h, q + 2 * kv, l), m("o_proj", q, h, l)],
            _ => vec![
                m("q_proj", h, q, l),
                m("k_proj", h, kv, l),
                m("v_proj", h, kv, l),
                m("o_proj", q, h, l),
            ],
        };
        let i = self.intermediate;
        match (self.family, self.mlp) {
            (Family::Gpt2, _) => out.extend([m("c_fc", h, i, l), m("c_proj", i, h, l)]),
            (Family::GptNeox, _) => {
                out.extend([m("dense_h_to_4h", h, i, l), m("dense_4h_to_h", i, h, l)])
            }
            (Family::Phi3, _) => {
                out.extend([m("gate_up_proj", h, 2 * i, l), m("down_proj", i, h, l)])
            }
            (_, Mlp::Gated) => {
                let shared = self
                    .experts
                    .as_ref()
                    .filter(|e| e.shared_intermediate > 0)
                    .map_or(0, |_| sparse);
                let with_shared = |w: u64, n: u64| [(dense, i), (n, w)];
                let widths = match &self.experts {
                    Some(e) => with_shared(e.shared_intermediate, shared),
                    None => [(dense, i), (0, 0)],
                };
                let fused = matches!(self.family, Family::Mixtral | Family::Qwen3Moe);
                for (count, width) in widths.into_iter().filter(|(c, _)| *c > 0) {
                    for module in [
                        m("gate_proj", h, width, count),
                        m("up_proj", h, width, count),
                        m("down_proj", width, h, count),
                    ] {
                        out.push(LinearModule {
                            in_all_linear: !fused,
                            ..module
                        });
                    }
                }
                if let Some(e) = self.experts.as_ref().filter(|e| e.shared_gate) {
                    out.push(m("shared_expert_gate", h, 1, e.sparse_layers));
                }
                if let Some(e) = self
                    .experts
                    .as_ref()
                    .filter(|_| matches!(self.family, Family::Mixtral | Family::Qwen3Moe))
                {
                    let n = e.sparse_layers;
                    let unnamed = |module: LinearModule, adapters| LinearModule {
                        adapters,
                        by_name: false,
                        ..module
                    };
                    out.push(unnamed(m("gate", h, e.total, n), 1));
                    out.push(unnamed(m("experts", h, 2 * e.intermediate, n), 2 * e.total));
                    out.push(unnamed(m("experts", e.intermediate, h, n), e.total));
                }
            }
            (_, Mlp::Plain) => {}
        }
        // The output layer: adapted only when named (peft's all-linear leaves it out).
        out.push(LinearModule {
            in_all_linear: false,
            ..m("lm_head", h, self.vocab, 1)
        });
        out
    }

    /// The adapters' parameters `lora` adds to this model.
    pub fn lora_params(&self, lora: &Lora) -> Result<u64, LoraError> {
        if lora.rank == 0 || lora.rank > MAX_RANK {
            return Err(LoraError::Rank(lora.rank));
        }
        let modules = self.linear_modules();
        let mut names: Vec<&'static str> = modules
            .iter()
            .filter(|m| m.by_name)
            .map(|m| m.name)
            .collect();
        names.dedup();
        names.sort_unstable();
        names.dedup();
        if !lora.all_linear() {
            let unknown: Vec<String> = lora
                .targets
                .iter()
                .filter(|t| !names.contains(&t.as_str()))
                .cloned()
                .collect();
            if !unknown.is_empty() {
                return Err(LoraError::NoSuchModule {
                    unknown,
                    available: names,
                });
            }
        }
        Ok(modules
            .iter()
            .filter(|m| {
                if lora.all_linear() {
                    m.in_all_linear
                } else {
                    m.by_name && lora.targets.iter().any(|t| t == m.name)
                }
            })
            // Saturating: the largest allowed sizes stay in range however they are combined.
            .map(|m| {
                lora.rank
                    .saturating_mul(m.adapters)
                    .saturating_mul(m.inputs.saturating_add(m.outputs))
                    .saturating_mul(m.count)
            })
            .fold(0u64, u64::saturating_add))
    }
}
