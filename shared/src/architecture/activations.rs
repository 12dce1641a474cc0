//! The bytes of activations transformers' model of a family keeps for the backward pass, per
//! token and layer, in 16-bit training: a sum of terms in the architecture's sizes, with the
//! coefficients measured for each family.
//!
//! `tools/models/activations.py --grid` ran each family's own transformers model on CPU (one
//! layer and two, the same tokens) with torch's saved-tensor hooks and recorded every tensor
//! autograd saved, by storage, parameters excluded (`tests/fixtures/model_activations.jsonl`).
//! `tools/models/fit_activations.py` fitted the terms below to the rows that change one size at
//! a time; the rows that change every size at once were left out of the fit, and the tests
//! check every row, those included, within 0.1%.
//!
//! What the terms mean, for Llama with sdpa (16·h + 8·I + 4·H·d + 4·kv·d + 4·H + 8): each
//! RMSNorm keeps its input upcast to fp32 and its 16-bit result (6·h, twice), the projections
//! keep their inputs (2·h, twice); attention keeps the queries, keys and values after the
//! rotary embedding and its output (2 bytes each) and a 4-byte log-sum-exp per head; the gated
//! MLP keeps the gate, its activation, the up projection and their product (2·I each). Eager
//! attention keeps the keys and values expanded to every head and 6 bytes per score (H·s).
//! Gemma's norms compute in fp32 throughout (more per h); Qwen3 and Gemma 3 normalise queries
//! and keys per head; a mixture of experts keeps, per routed expert, its MLP (8·Ie) and the
//! token's copy in and out (4·h), and the router's scores (per expert).

use super::{Architecture, Family};

/// The terms' names, in the order of [`COEFFICIENTS`]' arrays: hidden width, dense MLP width,
/// query width (heads × head_dim), key/value width, heads, heads × sequence, routed experts'
/// width (× experts per token), routed copies (experts per token × hidden), experts, the shared
/// expert's width, a constant, and experts × expert width × hidden / sequence (bytes kept once
/// per layer and forward pass, not per token: peft's merged delta of fused experts, LoRA only).
pub const TERMS: [&str; 12] = [
    "h",
    "i",
    "q",
    "kv",
    "heads",
    "heads_seq",
    "routed_i",
    "routed_h",
    "experts",
    "shared_i",
    "one",
    "experts_ih_per_seq",
];

/// Written by `tools/models/fit_activations.py` from `tests/fixtures/model_activations.jsonl`:
/// (model_type, attention, coefficients in [`TERMS`]' order). The mixtures of experts' dense
/// MLP term (`i`, for layers listed in `mlp_only_layers`) is their gated MLP's, as Llama's: the
/// grid's layers are all sparse.
const COEFFICIENTS: &[(&str, &str, [f64; 12])] = &[
    (
        "llama",
        "sdpa",
        [
            16.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "llama",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "mistral",
        "sdpa",
        [
            16.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "mistral",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "qwen2",
        "sdpa",
        [
            16.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "qwen2",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "qwen3",
        "sdpa",
        [
            16.000, 8.000, 9.969, 10.062, 10.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "qwen3",
        "eager",
        [
            16.000, 8.000, 13.969, 6.062, 6.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "gemma",
        "sdpa",
        [
            20.031, 8.000, 4.000, 4.000, 6.667, -0.010, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "gemma",
        "eager",
        [
            20.031, 8.000, 8.000, 0.000, 2.667, 5.990, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "gemma2",
        "eager",
        [
            36.063, 8.000, 8.000, 0.000, 5.333, 7.979, 0.000, 0.000, 0.000, 0.000, 16.000, 0.000,
        ],
    ),
    (
        "gemma3_text",
        "sdpa",
        [
            36.063, 8.000, 11.977, 12.063, 15.500, -0.023, 0.000, 0.000, 0.000, 0.000, 18.000,
            0.000,
        ],
    ),
    (
        "gemma3_text",
        "eager",
        [
            36.063, 8.000, 15.977, 8.063, 11.500, 5.977, 0.000, 0.000, 0.000, 0.000, 18.000, 0.000,
        ],
    ),
    (
        "phi3",
        "sdpa",
        [
            16.000, 8.000, 6.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "phi3",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "mixtral",
        "sdpa",
        [
            15.687, 8.000, 4.000, 4.000, 4.021, 0.000, 8.000, 4.156, 4.016, 0.000, 92.000, 0.000,
        ],
    ),
    (
        "mixtral",
        "eager",
        [
            15.688, 8.000, 8.000, 0.000, 0.021, 6.000, 8.000, 4.156, 4.016, 0.000, 92.000, 0.000,
        ],
    ),
    (
        "qwen2_moe",
        "sdpa",
        [
            17.734, 8.000, 4.000, 4.000, 4.021, 0.000, 8.000, 4.133, 4.016, 8.000, 78.000, 0.000,
        ],
    ),
    (
        "qwen2_moe",
        "eager",
        [
            17.734, 8.000, 8.000, 0.000, 0.021, 6.000, 8.000, 4.133, 4.016, 8.000, 78.000, 0.000,
        ],
    ),
    (
        "qwen3_moe",
        "sdpa",
        [
            15.734, 8.000, 9.969, 10.062, 10.021, 0.000, 8.000, 4.133, 4.016, 0.000, 76.000, 0.000,
        ],
    ),
    (
        "qwen3_moe",
        "eager",
        [
            15.734, 8.000, 13.969, 6.063, 6.021, 6.000, 8.000, 4.133, 4.016, 0.000, 76.000, 0.000,
        ],
    ),
    (
        "gpt2",
        "sdpa",
        [
            8.000, 10.000, 8.000, 8.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "gpt2",
        "eager",
        [
            8.000, 10.000, 8.000, 8.000, 0.000, 2.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "gpt_neox",
        "sdpa",
        [
            5.333, 4.000, 5.333, 5.333, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
    (
        "gpt_neox",
        "eager",
        [
            4.667, 4.000, 4.667, 4.667, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000, 0.000,
        ],
    ),
];

/// The same for peft's model with LoRA adapters of rank [`LORA_RANK_MEASURED`] on every
/// linear layer (`activations.py --grid --lora 8 --lora-targets all-linear`, the model cast to
/// 16-bit as DeepSpeed casts it; `tests/fixtures/model_activations_lora.jsonl`). The frozen
/// layers keep less where no adapter needs their input; a frozen mixture of experts keeps
/// more (each routed expert's input and output copies).
const LORA_COEFFICIENTS: &[(&str, &str, [f64; 12])] = &[
    (
        "llama",
        "sdpa",
        [
            12.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "llama",
        "eager",
        [
            12.000, 8.000, 8.000, -0.000, -0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "mistral",
        "sdpa",
        [
            12.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "mistral",
        "eager",
        [
            12.000, 8.000, 8.000, -0.000, -0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "qwen2",
        "sdpa",
        [
            12.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "qwen2",
        "eager",
        [
            12.000, 8.000, 8.000, -0.000, -0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "qwen3",
        "sdpa",
        [
            12.000, 8.000, 7.969, 8.063, 10.000, -0.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "qwen3",
        "eager",
        [
            12.000, 8.000, 11.969, 4.062, 6.000, 6.000, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "gemma",
        "sdpa",
        [
            12.031, 8.000, 4.000, 4.000, 6.667, -0.010, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "gemma",
        "eager",
        [
            12.031, 8.000, 8.000, -0.000, 2.667, 5.990, 0.000, 0.000, 0.000, 0.000, 120.000, 0.000,
        ],
    ),
    (
        "gemma2",
        "eager",
        [
            20.063, 8.000, 8.000, 0.000, 5.333, 7.979, 0.000, 0.000, 0.000, 0.000, 128.000, 0.000,
        ],
    ),
    (
        "gemma3_text",
        "sdpa",
        [
            20.062, 8.000, 7.977, 8.062, 15.500, -0.023, 0.000, 0.000, 0.000, 0.000, 130.000, 0.000,
        ],
    ),
    (
        "gemma3_text",
        "eager",
        [
            20.063, 8.000, 11.977, 4.063, 11.500, 5.977, 0.000, 0.000, 0.000, 0.000, 130.000, 0.000,
        ],
    ),
    (
        "phi3",
        "sdpa",
        [
            12.000, 8.000, 6.000, 4.000, 4.000, -0.000, 0.000, 0.000, 0.000, 0.000, 72.000, 0.000,
        ],
    ),
    (
        "phi3",
        "eager",
        [
            12.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 72.000, 0.000,
        ],
    ),
    (
        "mixtral",
        "sdpa",
        [
            11.784, 0.000, 4.043, 3.968, 14.093, -0.054, 7.993, 4.158, 2.817, 0.000, 193.747, 6.002,
        ],
    ),
    (
        "mixtral",
        "eager",
        [
            11.810, 0.000, 8.060, -0.020, 7.080, 5.955, 7.995, 4.157, 4.116, 0.000, 176.411, 6.001,
        ],
    ),
    (
        "qwen2_moe",
        "sdpa",
        [
            13.734, 0.000, 4.000, 4.000, 4.021, -0.000, 6.000, 2.133, 4.016, 8.000, 206.000, 0.000,
        ],
    ),
    (
        "qwen2_moe",
        "eager",
        [
            13.734, 0.000, 8.000, -0.000, 0.021, 6.000, 6.000, 2.133, 4.016, 8.000, 206.000, 0.000,
        ],
    ),
    (
        "qwen3_moe",
        "sdpa",
        [
            11.769, 0.000, 7.996, 8.043, 11.625, -0.016, 7.994, 4.124, -2.605, 0.000, 182.249,
            6.038,
        ],
    ),
    (
        "qwen3_moe",
        "eager",
        [
            12.018, 0.000, 11.987, 4.057, 22.928, 5.929, 8.054, 4.089, 8.647, 0.000, 105.013, 5.985,
        ],
    ),
    (
        "gpt2",
        "sdpa",
        [
            8.000, 10.000, 8.000, 8.000, 4.000, -0.000, 0.000, 0.000, 0.000, 0.000, 72.000, 0.000,
        ],
    ),
    (
        "gpt2",
        "eager",
        [
            8.000, 10.000, 8.000, 8.000, 0.000, 2.000, 0.000, 0.000, 0.000, 0.000, 72.000, 0.000,
        ],
    ),
    (
        "gpt_neox",
        "sdpa",
        [
            5.333, 4.000, 5.333, 5.333, 4.000, -0.000, 0.000, 0.000, 0.000, 0.000, 72.000, 0.000,
        ],
    ),
    (
        "gpt_neox",
        "eager",
        [
            4.667, 4.000, 4.667, 4.667, -0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 72.000, 0.000,
        ],
    ),
];

/// The rank the LoRA rows were measured at: each adapter also keeps its rank-wide
/// intermediate (2 bytes per rank unit and token), so another rank adds `2·(r − 8)` per
/// adapted module.
pub const LORA_RANK_MEASURED: u64 = 8;

impl Architecture {
    /// Bytes of saved activations per token and layer with LoRA adapters of `rank` on every
    /// linear layer (fewer targets keep a little less: this is their upper bound), or `None`
    /// where the family was not measured with adapters.
    pub fn lora_activation_bytes(&self, eager: bool, seq: u64, rank: u64) -> Option<f64> {
        let base = self.terms_of(LORA_COEFFICIENTS, eager, seq)?;
        let modules: u64 = self
            .linear_modules()
            .iter()
            // Fused experts merge their adapters into the weights: no rank-wide intermediate.
            .filter(|m| m.in_all_linear && m.adapters == 1)
            .map(|m| m.count)
            .sum();
        let per_layer = modules as f64 / self.layers.max(1) as f64;
        Some(base + 2.0 * (rank as f64 - LORA_RANK_MEASURED as f64) * per_layer)
    }

    /// Bytes of saved activations per token and layer in 16-bit training (the average layer,
    /// where some are dense and some sparse), with `eager` attention or sdpa at sequence
    /// length `seq`. Gemma 2 has no sdpa in transformers: it is always eager.
    pub fn activation_bytes(&self, eager: bool, seq: u64) -> f64 {
        self.terms_of(COEFFICIENTS, eager, seq)
            .expect("every family has coefficients for both attentions (tests)")
    }

    /// The terms of `table` for this family and attention (Gemma 2 always eager), summed over
    /// this architecture's sizes; `None` when the table has no row for them.
    fn terms_of(&self, table: &[(&str, &str, [f64; 12])], eager: bool, seq: u64) -> Option<f64> {
        let eager = eager || self.family == Family::Gemma2;
        let attention = if eager { "eager" } else { "sdpa" };
        let terms = table
            .iter()
            .find(|(f, a, _)| *f == self.family.model_type() && *a == attention)
            .map(|(_, _, t)| t)?;
        Some(
            self.features(seq)
                .iter()
                .zip(terms)
                .map(|(x, c)| x * c)
                .sum(),
        )
    }

    /// The sizes the terms multiply, in [`TERMS`]' order, averaged over the layers.
    fn features(&self, seq: u64) -> [f64; 12] {
        let f = |x: u64| x as f64;
        let layers = f(self.layers.max(1));
        let (sparse, routed_i, routed_h, experts, shared_i, merged) = match &self.experts {
            Some(e) => {
                let share = f(e.sparse_layers) / layers;
                (
                    share,
                    share * f(e.per_token * e.intermediate),
                    share * f(e.per_token * self.hidden),
                    share * f(e.total),
                    share * f(e.shared_intermediate),
                    share * f(e.total) * f(e.intermediate) * f(self.hidden) / f(seq.max(1)),
                )
            }
            None => (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        };
        [
            f(self.hidden),
            (1.0 - sparse) * f(self.intermediate),
            f(self.heads * self.head_dim),
            f(self.kv_heads * self.head_dim),
            f(self.heads),
            f(self.heads) * f(seq),
            routed_i,
            routed_h,
            experts,
            shared_i,
            1.0,
            merged,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every measured row, the held-out ones included, within 0.1% of the terms.
    #[test]
    fn the_terms_reproduce_every_measured_row() {
        let held_out = every_row_within("model_activations.jsonl", 1e-3);
        assert!(
            held_out >= 2 * Family::ALL.len(),
            "{held_out} held-out rows"
        );
    }

    /// The same with LoRA adapters on every linear layer (rank 8), within 0.2% (Qwen2-MoE's
    /// held-out row is 0.13% off): the per-forward term of the fused experts was fitted on
    /// every grid row, and eight rows at other sequences and shapes (tag `one`) check it.
    #[test]
    fn the_lora_terms_reproduce_every_measured_row() {
        let held_out = every_row_within("model_activations_lora.jsonl", 2e-3);
        assert!(held_out >= 2 * Family::ALL.len(), "{held_out}");
    }

    /// Checks each row of a fixture against the terms, within `tolerance` (relative); the
    /// held-out rows it had.
    fn every_row_within(name: &str, tolerance: f64) -> usize {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let mut checked = std::collections::BTreeSet::new();
        let mut held_out = 0;
        for line in text.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let n = |k: &str| r[k].as_u64();
            let family = Family::of(r["family"].as_str().unwrap()).unwrap();
            let heads = n("heads").unwrap();
            let hidden = n("hidden").unwrap();
            let head_dim = n("head_dim").unwrap_or(hidden / heads);
            let layers = 1;
            let experts = n("experts").map(|total| super::super::Experts {
                total,
                per_token: n("experts_per_token").unwrap(),
                intermediate: n("expert_intermediate").or(n("intermediate")).unwrap(),
                shared_intermediate: n("shared_intermediate").unwrap_or(0),
                shared_gate: family == Family::Qwen2Moe,
                sparse_layers: layers,
            });
            let arch = Architecture {
                family,
                hidden,
                layers,
                heads,
                kv_heads: n("kv_heads").unwrap_or(heads),
                head_dim,
                intermediate: n("intermediate").unwrap_or(4 * hidden),
                vocab: 512,
                learned_positions: 0,
                tied_embeddings: false,
                mlp: super::super::Mlp::Gated,
                norm: super::super::Norm::Rms,
                norms_per_layer: 2,
                qk_norm: false,
                qkv_bias: false,
                o_bias: false,
                mlp_bias: false,
                experts,
            };
            let eager = r["attention"] == "eager";
            let seq = n("seq").unwrap();
            let got = match r["lora"].as_str() {
                Some(lora) => {
                    let rank = lora.split(':').next().unwrap().parse().unwrap();
                    arch.lora_activation_bytes(eager, seq, rank).unwrap()
                }
                None => arch.activation_bytes(eager, seq),
            };
            let want = r["layer_bytes_per_token"].as_f64().unwrap();
            assert!(
                (got - want).abs() / want < tolerance,
                "{line}: the terms give {got:.1}"
            );
            checked.insert((
                family.model_type(),
                r["attention"].as_str().unwrap().to_string(),
            ));
            held_out += usize::from(r["shape"] != "fit");
        }
        // Every family, both attentions (Gemma 2 only eager).
        assert_eq!(checked.len(), 2 * Family::ALL.len() - 1, "{checked:?}");
        held_out
    }

    #[test]
    fn grouped_kv_heads_and_experts_change_what_a_layer_keeps() {
        let base = |text: &str| Architecture::from_config_json(text).unwrap();
        let mha = base(
            r#"{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 128256}"#,
        );
        let gqa = base(
            r#"{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}"#,
        );
        // Four times fewer key/value heads: 4 bytes per key/value unit less (k and v, 16-bit).
        let saved = mha.activation_bytes(false, 4096) - gqa.activation_bytes(false, 4096);
        assert!(
            (saved - 4.0 * (4096.0 - 1024.0)).abs() < 0.05 * saved,
            "{saved}"
        );
        // Eager attention keeps the scores: per token, heads × sequence × 6 bytes.
        let eager = gqa.activation_bytes(true, 4096) - gqa.activation_bytes(false, 4096);
        assert!(eager > 32.0 * 4096.0 * 5.0, "{eager}");
    }
}
