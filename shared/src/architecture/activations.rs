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
/// expert's width, a constant.
pub const TERMS: [&str; 11] = [
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
];

/// Written by `tools/models/fit_activations.py` from `tests/fixtures/model_activations.jsonl`:
/// (model_type, attention, coefficients in [`TERMS`]' order). The mixtures of experts' dense
/// MLP term (`i`, for layers listed in `mlp_only_layers`) is their gated MLP's, as Llama's: the
/// grid's layers are all sparse.
const COEFFICIENTS: &[(&str, &str, [f64; 11])] = &[
    (
        "llama",
        "sdpa",
        [
            16.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "llama",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "mistral",
        "sdpa",
        [
            16.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "mistral",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "qwen2",
        "sdpa",
        [
            16.000, 8.000, 4.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "qwen2",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "qwen3",
        "sdpa",
        [
            16.000, 8.000, 9.969, 10.062, 10.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "qwen3",
        "eager",
        [
            16.000, 8.000, 13.969, 6.062, 6.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "gemma",
        "sdpa",
        [
            20.031, 8.000, 4.000, 4.000, 6.667, -0.010, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "gemma",
        "eager",
        [
            20.031, 8.000, 8.000, 0.000, 2.667, 5.990, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "gemma2",
        "eager",
        [
            36.063, 8.000, 8.000, 0.000, 5.333, 7.979, 0.000, 0.000, 0.000, 0.000, 16.000,
        ],
    ),
    (
        "gemma3_text",
        "sdpa",
        [
            36.063, 8.000, 11.977, 12.063, 15.500, -0.023, 0.000, 0.000, 0.000, 0.000, 18.000,
        ],
    ),
    (
        "gemma3_text",
        "eager",
        [
            36.063, 8.000, 15.977, 8.063, 11.500, 5.977, 0.000, 0.000, 0.000, 0.000, 18.000,
        ],
    ),
    (
        "phi3",
        "sdpa",
        [
            16.000, 8.000, 6.000, 4.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "phi3",
        "eager",
        [
            16.000, 8.000, 8.000, 0.000, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "mixtral",
        "sdpa",
        [
            15.687, 8.000, 4.000, 4.000, 4.021, 0.000, 8.000, 4.156, 4.016, 0.000, 92.000,
        ],
    ),
    (
        "mixtral",
        "eager",
        [
            15.688, 8.000, 8.000, 0.000, 0.021, 6.000, 8.000, 4.156, 4.016, 0.000, 92.000,
        ],
    ),
    (
        "qwen2_moe",
        "sdpa",
        [
            17.734, 8.000, 4.000, 4.000, 4.021, 0.000, 8.000, 4.133, 4.016, 8.000, 78.000,
        ],
    ),
    (
        "qwen2_moe",
        "eager",
        [
            17.734, 8.000, 8.000, 0.000, 0.021, 6.000, 8.000, 4.133, 4.016, 8.000, 78.000,
        ],
    ),
    (
        "qwen3_moe",
        "sdpa",
        [
            15.734, 8.000, 9.969, 10.062, 10.021, 0.000, 8.000, 4.133, 4.016, 0.000, 76.000,
        ],
    ),
    (
        "qwen3_moe",
        "eager",
        [
            15.734, 8.000, 13.969, 6.063, 6.021, 6.000, 8.000, 4.133, 4.016, 0.000, 76.000,
        ],
    ),
    (
        "gpt2",
        "sdpa",
        [
            8.000, 10.000, 8.000, 8.000, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "gpt2",
        "eager",
        [
            8.000, 10.000, 8.000, 8.000, 0.000, 2.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "gpt_neox",
        "sdpa",
        [
            5.333, 4.000, 5.333, 5.333, 4.000, 0.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
    (
        "gpt_neox",
        "eager",
        [
            4.667, 4.000, 4.667, 4.667, 0.000, 6.000, 0.000, 0.000, 0.000, 0.000, 8.000,
        ],
    ),
];

impl Architecture {
    /// Bytes of saved activations per token and layer in 16-bit training (the average layer,
    /// where some are dense and some sparse), with `eager` attention or sdpa at sequence
    /// length `seq`. Gemma 2 has no sdpa in transformers: it is always eager.
    pub fn activation_bytes(&self, eager: bool, seq: u64) -> f64 {
        let eager = eager || self.family == Family::Gemma2;
        let attention = if eager { "eager" } else { "sdpa" };
        let terms = COEFFICIENTS
            .iter()
            .find(|(f, a, _)| *f == self.family.model_type() && *a == attention)
            .map(|(_, _, t)| t)
            .expect("every family has coefficients for both attentions (tests)");
        self.features(seq)
            .iter()
            .zip(terms)
            .map(|(x, c)| x * c)
            .sum()
    }

    /// The sizes the terms multiply, in [`TERMS`]' order, averaged over the layers.
    fn features(&self, seq: u64) -> [f64; 11] {
        let f = |x: u64| x as f64;
        let layers = f(self.layers.max(1));
        let (sparse, routed_i, routed_h, experts, shared_i) = match &self.experts {
            Some(e) => {
                let share = f(e.sparse_layers) / layers;
                (
                    share,
                    share * f(e.per_token * e.intermediate),
                    share * f(e.per_token * self.hidden),
                    share * f(e.total),
                    share * f(e.shared_intermediate),
                )
            }
            None => (0.0, 0.0, 0.0, 0.0, 0.0),
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
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every measured row, the held-out ones included, within 0.1% of the terms.
    #[test]
    fn the_terms_reproduce_every_measured_row() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/model_activations.jsonl"
        );
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
            let got = arch.activation_bytes(eager, n("seq").unwrap());
            let want = r["layer_bytes_per_token"].as_f64().unwrap();
            assert!(
                (got - want).abs() / want < 1e-3,
                "{line}: the terms give {got:.1}"
            );
            checked.insert((
                family.model_type(),
                r["attention"].as_str().unwrap().to_string(),
            ));
            held_out += usize::from(r["shape"] == "together");
        }
        // Every family, both attentions (Gemma 2 only eager), and the held-out shapes.
        assert_eq!(checked.len(), 2 * Family::ALL.len() - 1, "{checked:?}");
        assert!(
            held_out >= 2 * Family::ALL.len(),
            "{held_out} held-out rows"
        );
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
