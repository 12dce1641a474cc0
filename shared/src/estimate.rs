//! DeepSpeed's own model-state estimators, ported line by line
//! (`estimate_zero2_model_states_mem_needs`, `estimate_zero3_model_states_mem_needs`, including
//! Python's `int()` truncation; checked against DeepSpeed on 258 cases in
//! `tests/fixtures/zero_mem_estimates.json`), the model presets the memory panel offers, and
//! parameter counts as people write them. The studio's own peak estimate is
//! the `memory` module; it uses these estimators for the CPU memory offloading needs.

/// `(cpu_bytes, gpu_bytes)` of `estimate_zero2_model_states_mem_needs`.
pub fn zero2_model_states(
    total_params: u64,
    gpus_per_node: u64,
    nodes: u64,
    cpu_offload: bool,
    buffer_factor: f64,
) -> (u64, u64) {
    let p = total_params as f64;
    let total_gpus = (nodes * gpus_per_node) as f64;
    let (gpu, cpu) = if cpu_offload {
        (2.0 * p, p * (4.0 * total_gpus).max(16.0) * buffer_factor)
    } else {
        (
            2.0 * p + (18.0 * p / total_gpus).trunc(),
            p * 4.0 * gpus_per_node as f64 * buffer_factor,
        )
    };
    (cpu.trunc() as u64, gpu.trunc() as u64)
}

/// `(cpu_bytes, gpu_bytes)` of `estimate_zero3_model_states_mem_needs`.
#[allow(clippy::too_many_arguments)]
pub fn zero3_model_states(
    total_params: u64,
    largest_layer_params: u64,
    gpus_per_node: u64,
    nodes: u64,
    cpu_offload: bool,
    cpu_offload_params: bool,
    zero_init: bool,
    buffer_factor: f64,
) -> (u64, u64) {
    let p = total_params as f64;
    let g = gpus_per_node as f64;
    let total_gpus = (nodes * gpus_per_node) as f64;
    let gpus_factor = 1.0 / nodes as f64;
    let largest = 4.0 * largest_layer_params as f64;
    let (gpu, cpu) = if cpu_offload {
        if cpu_offload_params {
            let cpu = if zero_init {
                p * 18.0 * gpus_factor * buffer_factor
            } else {
                p * (4.0 * g).max(18.0 * gpus_factor) * buffer_factor
            };
            (largest, cpu)
        } else {
            let cpu = if zero_init {
                p * 16.0 * gpus_factor * buffer_factor
            } else {
                p * (4.0 * g).max(16.0 * gpus_factor) * buffer_factor
            };
            (largest + (2.0 * p / total_gpus).trunc(), cpu)
        }
    } else {
        let cpu = if zero_init {
            largest_layer_params as f64 * 4.0 * g * buffer_factor
        } else {
            p * 4.0 * g * buffer_factor
        };
        (largest + (18.0 * p / total_gpus).trunc(), cpu)
    };
    (cpu.trunc() as u64, gpu.trunc() as u64)
}

/// A model size preset: parameters and the transformer shape behind them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPreset {
    pub name: &'static str,
    pub params: u64,
    pub hidden_size: u64,
    pub layers: u64,
    pub heads: u64,
    /// Vocabulary (GPT-2 and GPT-3: 50,257; LLaMA-2: 32,000).
    pub vocab: u64,
    /// The sequence length the model trains at, where it is fixed (the built-in workload's).
    pub seq_len: Option<u64>,
}

/// GPT-2 small, GPT-3 XL and the LLaMA-2 sizes (shapes from their papers).
pub const MODEL_PRESETS: &[ModelPreset] = &[
    ModelPreset {
        name: "125M",
        params: 125_000_000,
        hidden_size: 768,
        layers: 12,
        heads: 12,
        vocab: 50257,
        seq_len: None,
    },
    ModelPreset {
        name: "1.3B",
        params: 1_300_000_000,
        hidden_size: 2048,
        layers: 24,
        heads: 16,
        vocab: 50257,
        seq_len: None,
    },
    ModelPreset {
        name: "7B",
        params: 6_740_000_000,
        hidden_size: 4096,
        layers: 32,
        heads: 32,
        vocab: 32000,
        seq_len: None,
    },
    ModelPreset {
        name: "13B",
        params: 13_000_000_000,
        hidden_size: 5120,
        layers: 40,
        heads: 40,
        vocab: 32000,
        seq_len: None,
    },
    ModelPreset {
        name: "70B",
        params: 68_980_000_000,
        hidden_size: 8192,
        layers: 80,
        heads: 64,
        vocab: 32000,
        seq_len: None,
    },
];

/// The memory panel's models: [`MODEL_PRESETS`], then the built-in workload's sizes
/// (`built-in xl`: the model a job of that size trains, at its sequence length).
pub fn model_presets() -> Vec<ModelPreset> {
    let builtin = crate::builtin_gpt::BUILTIN_SIZES.iter().filter_map(|size| {
        let g = crate::builtin_gpt::GptSize::of(size)?;
        let name: &'static str = match *size {
            "tiny" => "built-in tiny",
            "small" => "built-in small",
            "medium" => "built-in medium",
            "large" => "built-in large",
            _ => "built-in xl",
        };
        Some(ModelPreset {
            name,
            params: g.params(),
            hidden_size: g.d_model,
            layers: g.layers,
            heads: g.heads,
            vocab: g.vocab,
            seq_len: Some(g.seq),
        })
    });
    MODEL_PRESETS.iter().copied().chain(builtin).collect()
}

/// A count the way `parse_count` reads it back: `6.74B`, `125M`, `350k`, `999`.
pub fn format_count(n: u64) -> String {
    let (v, unit) = match n {
        n if n >= 1_000_000_000 => (n as f64 / 1e9, "B"),
        n if n >= 1_000_000 => (n as f64 / 1e6, "M"),
        n if n >= 1_000 => (n as f64 / 1e3, "k"),
        n => return n.to_string(),
    };
    let s = format!("{v:.3}");
    format!("{}{unit}", s.trim_end_matches('0').trim_end_matches('.'))
}

/// A count as people write it: `7e9`, `7000000000`, `7B`, `1.3b`, `350M`, `125k`, `1_000`.
/// `None` for anything else, zero or negative.
pub fn parse_count(input: &str) -> Option<u64> {
    let s: String = input
        .trim()
        .chars()
        .filter(|c| *c != '_' && *c != ',')
        .collect();
    let (num, scale) = match s.chars().last()?.to_ascii_lowercase() {
        'k' => (&s[..s.len() - 1], 1e3),
        'm' => (&s[..s.len() - 1], 1e6),
        'b' | 'g' => (&s[..s.len() - 1], 1e9),
        't' => (&s[..s.len() - 1], 1e12),
        _ => (s.as_str(), 1.0),
    };
    let v = num.trim().parse::<f64>().ok()? * scale;
    (v.is_finite() && (1.0..1e16).contains(&v)).then(|| v.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn matches_deepspeed_on_every_recorded_case() {
        let text = include_str!("../tests/fixtures/zero_mem_estimates.json");
        let cases: Vec<Value> = serde_json::from_str(text).unwrap();
        assert!(cases.len() >= 40);
        for c in &cases {
            let i = &c["inputs"];
            let u = |k: &str| i[k].as_u64().unwrap();
            let b = |k: &str| i[k].as_bool().unwrap_or(true);
            let f = i["additional_buffer_factor"].as_f64().unwrap_or(1.5);
            let (cpu, gpu) = if c["fn"] == "zero2" {
                zero2_model_states(
                    u("total_params"),
                    u("num_gpus_per_node"),
                    u("num_nodes"),
                    b("cpu_offload"),
                    f,
                )
            } else {
                zero3_model_states(
                    u("total_params"),
                    u("largest_layer_params"),
                    u("num_gpus_per_node"),
                    u("num_nodes"),
                    b("cpu_offload"),
                    b("cpu_offload_params"),
                    b("zero_init"),
                    f,
                )
            };
            assert_eq!(
                (cpu, gpu),
                (
                    c["cpu_mem_bytes"].as_u64().unwrap(),
                    c["gpu_mem_bytes"].as_u64().unwrap()
                ),
                "{c}"
            );
        }
    }

    #[test]
    fn counts_are_read_as_people_write_them() {
        assert_eq!(parse_count("7e9"), Some(7_000_000_000));
        assert_eq!(parse_count("7B"), Some(7_000_000_000));
        assert_eq!(parse_count(" 1.3b "), Some(1_300_000_000));
        assert_eq!(parse_count("350M"), Some(350_000_000));
        assert_eq!(parse_count("125k"), Some(125_000));
        assert_eq!(parse_count("1_000_000"), Some(1_000_000));
        for p in MODEL_PRESETS {
            assert_eq!(
                parse_count(&format_count(p.params)),
                Some(p.params),
                "{}",
                p.name
            );
        }
        assert_eq!(format_count(6_740_000_000), "6.74B");
        assert_eq!(format_count(125_000_000), "125M");
        for bad in ["", "B", "seven", "-7B", "0", "1e99", "nan"] {
            assert_eq!(parse_count(bad), None, "{bad}");
        }
    }

    #[test]
    fn model_presets_match_their_shapes() {
        // 12·L·h² (attention + MLP weights) is within 50% of the stated count (embeddings, large
        // next to GPT-2 small, and the LLaMA MLP's 8/3 ratio make up the rest).
        for p in MODEL_PRESETS {
            let approx = 12 * p.layers * p.hidden_size * p.hidden_size;
            let ratio = p.params as f64 / approx as f64;
            assert!((0.75..1.5).contains(&ratio), "{}: {ratio}", p.name);
        }
    }
}
