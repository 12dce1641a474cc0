//! A user's own model: its architecture read from a Hugging Face `config.json`, and its
//! parameters counted part by part exactly as transformers builds it (issue 51).
//!
//! The families users fine-tune with DeepSpeed are read ([`Family`]): llama, mistral, qwen2,
//! qwen3, gemma, gemma2, gemma3 (its text model), phi3, mixtral, qwen2_moe, qwen3_moe, gpt2 and
//! gpt_neox. Each differs from the others in a few facts, which [`Architecture`] holds: grouped
//! KV heads and `head_dim`, a gated or plain MLP and its width, experts (total, routed per
//! token, shared), tied or separate embeddings, RMS or layer norms and how many per layer, the
//! biases, and per-head norms of queries and keys. Where config.json leaves out a fact, the
//! family's transformers default applies (`head_dim` 256 for Gemma, 128 for Qwen3); the shape
//! itself (`hidden_size`, the layers, the heads, the vocabulary, the MLP's width) must be
//! there, and its absence is an [`ArchitectureError`] naming the field.
//!
//! Invariant: [`Architecture::params`] equals the count of transformers' own model built from
//! the same config (`tests.rs` against `tests/fixtures/model_params.json`, which
//! `tools/models/count_params.py` writes from transformers on the meta device and `cargo xtask
//! test` checks again).

mod activations;
pub mod catalog;
pub mod lora;
mod read;
#[cfg(test)]
mod tests;

pub use activations::TERMS as ACTIVATION_TERMS;
pub use read::ArchitectureError;

use serde::{Deserialize, Serialize};

/// The model families read from config.json's `model_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Family {
    Llama,
    Mistral,
    Qwen2,
    Qwen3,
    Gemma,
    Gemma2,
    /// Gemma 3's text model (`gemma3_text`, or the `text_config` of a `gemma3` config).
    Gemma3,
    Phi3,
    Mixtral,
    Qwen2Moe,
    Qwen3Moe,
    Gpt2,
    GptNeox,
}

impl Family {
    /// Every family, in the order documentation lists them.
    pub const ALL: [Family; 13] = [
        Family::Llama,
        Family::Mistral,
        Family::Qwen2,
        Family::Qwen3,
        Family::Gemma,
        Family::Gemma2,
        Family::Gemma3,
        Family::Phi3,
        Family::Mixtral,
        Family::Qwen2Moe,
        Family::Qwen3Moe,
        Family::Gpt2,
        Family::GptNeox,
    ];

    /// The `model_type` config.json gives (`gemma3_text` for Gemma 3).
    pub fn model_type(self) -> &'static str {
        match self {
            Family::Llama => "llama",
            Family::Mistral => "mistral",
            Family::Qwen2 => "qwen2",
            Family::Qwen3 => "qwen3",
            Family::Gemma => "gemma",
            Family::Gemma2 => "gemma2",
            Family::Gemma3 => "gemma3_text",
            Family::Phi3 => "phi3",
            Family::Mixtral => "mixtral",
            Family::Qwen2Moe => "qwen2_moe",
            Family::Qwen3Moe => "qwen3_moe",
            Family::Gpt2 => "gpt2",
            Family::GptNeox => "gpt_neox",
        }
    }

    /// The family of a config.json `model_type` (`gemma3`, the multimodal config, reads as its
    /// text model).
    pub fn of(model_type: &str) -> Option<Family> {
        match model_type {
            "gemma3" => Some(Family::Gemma3),
            t => Family::ALL.into_iter().find(|f| f.model_type() == t),
        }
    }
}

/// How each layer's MLP is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Mlp {
    /// `down(act(gate(x)) * up(x))`: three matrices (Llama, Qwen, Gemma, Mistral, Phi-3).
    Gated,
    /// `proj(act(fc(x)))`: two matrices (GPT-2, GPT-NeoX).
    Plain,
}

/// The normalisation layers' kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Norm {
    /// A weight per unit of width.
    Rms,
    /// A weight and a bias per unit of width.
    Layer,
}

/// Mixture-of-experts layers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Experts {
    /// Routed experts in each sparse layer.
    pub total: u64,
    /// Routed experts each token goes through.
    pub per_token: u64,
    /// Each routed expert's MLP width.
    pub intermediate: u64,
    /// The width of the shared expert every token also goes through (0: none).
    pub shared_intermediate: u64,
    /// The shared expert's output is gated by a one-unit linear layer (Qwen2-MoE).
    pub shared_gate: bool,
    /// How many of the layers are sparse (the others have a dense MLP).
    pub sparse_layers: u64,
}

/// A decoder-only transformer as config.json describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Architecture {
    pub family: Family,
    pub hidden: u64,
    pub layers: u64,
    /// Query heads.
    pub heads: u64,
    /// Key and value heads (fewer than `heads` with grouped-query attention).
    pub kv_heads: u64,
    pub head_dim: u64,
    /// The dense MLP's width.
    pub intermediate: u64,
    pub vocab: u64,
    /// Learned position embeddings (GPT-2's `n_positions`); rotary ones have no parameters.
    pub learned_positions: u64,
    /// The output layer shares the input embedding's matrix.
    pub tied_embeddings: bool,
    pub mlp: Mlp,
    pub norm: Norm,
    /// Norm layers in each block: 2, or 4 for Gemma 2 and 3 (before and after attention and
    /// MLP).
    pub norms_per_layer: u64,
    /// Queries and keys are normalised per head (Qwen3, Gemma 3).
    pub qk_norm: bool,
    /// The query, key and value projections have biases (Qwen2, GPT-2, GPT-NeoX).
    pub qkv_bias: bool,
    /// The attention output projection has a bias.
    pub o_bias: bool,
    /// The MLP's matrices have biases.
    pub mlp_bias: bool,
    pub experts: Option<Experts>,
}

/// An architecture's parameters, part by part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Params {
    /// Token (and learned position) embeddings.
    pub embeddings: u64,
    /// Every layer's attention: projections, their biases, query/key norms.
    pub attention: u64,
    /// Every dense MLP.
    pub mlp: u64,
    /// Every sparse layer's router, routed experts and shared expert.
    pub experts: u64,
    /// Every norm layer, the final one included.
    pub norms: u64,
    /// The output layer when it is not tied to the embeddings.
    pub lm_head: u64,
}

impl Params {
    pub fn total(&self) -> u64 {
        self.embeddings + self.attention + self.mlp + self.experts + self.norms + self.lm_head
    }
}

impl Architecture {
    /// The parameters of transformers' model for this config, part by part (tied embeddings
    /// counted once, as `model.parameters()` yields them).
    pub fn params(&self) -> Params {
        let (h, d) = (self.hidden, self.head_dim);
        let q = self.heads * d;
        let kv = self.kv_heads * d;
        let attention = h * q
            + 2 * h * kv
            + q * h
            + u64::from(self.qkv_bias) * (q + 2 * kv)
            + u64::from(self.o_bias) * h
            + u64::from(self.qk_norm) * 2 * d;
        let norm = self.norm_params();
        let dense = self.mlp_params(self.intermediate);
        let (sparse, experts) = match &self.experts {
            Some(e) => {
                let per_layer = h * e.total
                    + e.total * self.mlp_params(e.intermediate)
                    + if e.shared_intermediate > 0 {
                        self.mlp_params(e.shared_intermediate)
                    } else {
                        0
                    }
                    + u64::from(e.shared_gate) * h;
                (e.sparse_layers, e.sparse_layers * per_layer)
            }
            None => (0, 0),
        };
        Params {
            embeddings: (self.vocab + self.learned_positions) * h,
            attention: self.layers * attention,
            mlp: (self.layers - sparse) * dense,
            experts,
            norms: (self.layers * self.norms_per_layer + 1) * norm,
            lm_head: if self.tied_embeddings {
                0
            } else {
                self.vocab * h
            },
        }
    }

    /// The parameters of the largest layer (attention, norms and the MLP or every expert of a
    /// sparse layer): what ZeRO-3 gathers at once.
    pub fn largest_layer_params(&self) -> u64 {
        let p = self.params();
        let layers = self.layers.max(1);
        let shared = p.attention / layers + self.norms_per_layer * self.norm_params();
        let dense = self.mlp_params(self.intermediate);
        let sparse = match &self.experts {
            Some(e) if e.sparse_layers > 0 => p.experts / e.sparse_layers,
            _ => 0,
        };
        shared + dense.max(sparse)
    }

    /// One norm layer.
    fn norm_params(&self) -> u64 {
        match self.norm {
            Norm::Rms => self.hidden,
            Norm::Layer => 2 * self.hidden,
        }
    }

    /// One MLP of width `width`, with its biases where the family has them.
    fn mlp_params(&self, width: u64) -> u64 {
        let h = self.hidden;
        let bias = u64::from(self.mlp_bias);
        match self.mlp {
            Mlp::Gated => 3 * h * width + bias * (2 * width + h),
            Mlp::Plain => 2 * h * width + bias * (width + h),
        }
    }

    /// Parameters a token goes through: every dense part, and of the experts only the router,
    /// the shared expert and the routed experts it is sent to.
    pub fn active_params(&self) -> u64 {
        let p = self.params();
        match &self.experts {
            Some(e) => {
                let routed =
                    e.sparse_layers * (e.total - e.per_token) * self.mlp_params(e.intermediate);
                p.total() - routed
            }
            None => p.total(),
        }
    }
}
