//! Per-GPU memory estimates.
//!
//! Model states follow DeepSpeed's own `estimate_zero2_model_states_mem_needs` and
//! `estimate_zero3_model_states_mem_needs` exactly (ported line by line, including Python's
//! `int()` truncation; checked against DeepSpeed on 258 cases in
//! `tests/fixtures/zero_mem_estimates.json`). ZeRO-0/1 use the same byte counts (mixed precision
//! Adam: 2 bytes fp16 params + 2 bytes fp16 grads + 12 bytes fp32 master weights and moments).
//! Activations follow Korthikanti et al. (2022): per layer `s·b·h·(34 + 5·a·s/h)` bytes in 16-bit
//! without checkpointing, and `2·s·b·h` per layer (the checkpointed input) plus one layer's full
//! activations with it.

use serde::{Deserialize, Serialize};

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

/// What the estimator needs to know about the model and the cluster.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ModelShape {
    pub params: u64,
    /// Parameters of the largest layer (default: `params / layers`, or 10% of the model).
    pub largest_layer_params: Option<u64>,
    pub gpus_per_node: u64,
    pub nodes: u64,
    pub hidden_size: Option<u64>,
    pub layers: Option<u64>,
    pub heads: Option<u64>,
    pub seq_len: Option<u64>,
    pub micro_batch: Option<u64>,
    pub activation_checkpointing: bool,
}

/// One line of the memory table.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Row {
    pub stage: u8,
    pub offload: &'static str,
    pub gpu_bytes: u64,
    pub cpu_bytes: u64,
}

/// Activation memory per GPU and the assumptions behind it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Activations {
    pub bytes: u64,
    pub assumptions: String,
}

/// The model-states table for ZeRO 0-3 with and without offload (buffer factor 1.5).
pub fn table(shape: &ModelShape) -> Vec<Row> {
    let p = shape.params;
    let n = (shape.gpus_per_node * shape.nodes).max(1);
    let largest = largest_layer(shape);
    let (g, nodes) = (shape.gpus_per_node.max(1), shape.nodes.max(1));
    let mut rows = vec![
        Row {
            stage: 0,
            offload: "none",
            gpu_bytes: 16 * p,
            cpu_bytes: 0,
        },
        Row {
            stage: 1,
            offload: "none",
            gpu_bytes: 4 * p + 12 * p / n,
            cpu_bytes: 0,
        },
    ];
    for (offload, cpu_off) in [("none", false), ("optimizer", true)] {
        let (cpu, gpu) = zero2_model_states(p, g, nodes, cpu_off, 1.5);
        rows.push(Row {
            stage: 2,
            offload,
            gpu_bytes: gpu,
            cpu_bytes: cpu,
        });
    }
    for (offload, opt, par) in [
        ("none", false, false),
        ("optimizer", true, false),
        ("optimizer+params", true, true),
    ] {
        let (cpu, gpu) = zero3_model_states(p, largest, g, nodes, opt, par, true, 1.5);
        rows.push(Row {
            stage: 3,
            offload,
            gpu_bytes: gpu,
            cpu_bytes: cpu,
        });
    }
    rows
}

/// One part of a line of the table, per GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// 16-bit parameters (all of them, or this GPU's partition at ZeRO-3).
    Parameters,
    /// 16-bit gradients (ZeRO-0/1: all of them).
    Gradients,
    /// 32-bit master weights and Adam's two moments (12 bytes per parameter), whole or
    /// partitioned.
    OptimizerStates,
    /// What DeepSpeed's ZeRO-2 estimator counts together and partitions: gradients and
    /// optimizer states, 18 bytes per parameter (a 32-bit gradient copy beside the 16-bit
    /// gradients and the 12 bytes of optimizer states).
    GradientsAndOptimizer,
    /// ZeRO-3's partitioned model states: 18 bytes per parameter split over the GPUs
    /// (parameters, gradients, optimizer states).
    PartitionedStates,
    /// ZeRO-3 gathers the largest layer's parameters and gradients to compute (4 bytes per
    /// parameter of that layer).
    GatheredLayer,
    /// The reduce and all-gather buckets (`reduce_bucket_size` + `allgather_bucket_size`, or
    /// `stage3_prefetch_bucket_size` at ZeRO-3, in 16-bit elements).
    Buckets,
    Activations,
}

/// The model-state parts of a line of [`table`] for `shape` (they add up to its `gpu_bytes`).
pub fn parts(row: &Row, shape: &ModelShape) -> Vec<(Part, u64)> {
    let p = shape.params;
    let largest = largest_layer(shape);
    let rest = |fixed: u64| row.gpu_bytes.saturating_sub(fixed);
    match (row.stage, row.offload) {
        (0, _) => vec![
            (Part::Parameters, 2 * p),
            (Part::Gradients, 2 * p),
            (Part::OptimizerStates, 12 * p),
        ],
        (1, _) => vec![
            (Part::Parameters, 2 * p),
            (Part::Gradients, 2 * p),
            (Part::OptimizerStates, rest(4 * p)),
        ],
        (2, "none") => vec![
            (Part::Parameters, 2 * p),
            (Part::GradientsAndOptimizer, rest(2 * p)),
        ],
        (2, _) => vec![(Part::Parameters, row.gpu_bytes)],
        (_, "none") => vec![
            (Part::GatheredLayer, 4 * largest),
            (Part::PartitionedStates, rest(4 * largest)),
        ],
        (_, "optimizer") => vec![
            (Part::GatheredLayer, 4 * largest),
            (Part::Parameters, rest(4 * largest)),
        ],
        _ => vec![(Part::GatheredLayer, row.gpu_bytes)],
    }
    .into_iter()
    .filter(|(_, b)| *b > 0)
    .collect()
}

fn largest_layer(shape: &ModelShape) -> u64 {
    let p = shape.params;
    shape
        .largest_layer_params
        .unwrap_or_else(|| match shape.layers {
            Some(l) if l > 0 => p / l,
            _ => p / 10,
        })
}

/// Bytes of the communication buckets at `stage`, from the sizes in elements the config gives
/// (or DeepSpeed's defaults): 16-bit elements of the reduce and all-gather buckets at ZeRO-1/2,
/// of the reduce and prefetch buckets at ZeRO-3; none at ZeRO-0.
pub fn bucket_bytes(stage: u8, reduce: u64, allgather: u64, prefetch: u64) -> u64 {
    match stage {
        0 => 0,
        1 | 2 => 2 * (reduce + allgather),
        _ => 2 * (reduce + prefetch),
    }
}

/// Why a line costs more per GPU than a line of a lower stage (both without offload).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Costlier {
    pub stage: u8,
    pub than: u8,
    pub extra_bytes: u64,
    /// The GPUs the states are partitioned over.
    pub gpus: u64,
    /// The parts that grew, with how much.
    pub grew: Vec<(Part, u64)>,
    /// What partitioning saved (the parts that shrank or went away), in bytes.
    pub saved_bytes: u64,
}

/// For each stage without offload that costs more than a lower one, the cheapest such lower
/// stage and the parts that make the difference. `lines` are `(stage, parts)` of the lines
/// without offload, buckets and activations included.
pub fn costlier(lines: &[(u8, Vec<(Part, u64)>)], gpus: u64) -> Vec<Costlier> {
    let total = |parts: &[(Part, u64)]| parts.iter().map(|(_, b)| b).sum::<u64>();
    let mut out = Vec::new();
    for (i, (stage, parts)) in lines.iter().enumerate() {
        let mine = total(parts);
        let cheaper = lines[..i]
            .iter()
            .filter(|(s, p)| s < stage && total(p) < mine)
            .min_by_key(|(_, p)| total(p));
        if let Some((than, lower)) = cheaper {
            let had = |part: Part| {
                lower
                    .iter()
                    .filter(|(p, _)| *p == part)
                    .map(|(_, b)| b)
                    .sum::<u64>()
            };
            let grew = parts
                .iter()
                .filter(|(p, b)| *b > had(*p))
                .map(|(p, b)| (*p, b - had(*p)))
                .collect();
            let has = |part: Part| {
                parts
                    .iter()
                    .filter(|(p, _)| *p == part)
                    .map(|(_, b)| b)
                    .sum::<u64>()
            };
            let saved_bytes = lower.iter().map(|(p, b)| b.saturating_sub(has(*p))).sum();
            out.push(Costlier {
                stage: *stage,
                than: *than,
                extra_bytes: mine - total(lower),
                gpus,
                grew,
                saved_bytes,
            });
        }
    }
    out
}

/// Activation estimate, when the shape says enough.
pub fn activations(shape: &ModelShape) -> Option<Activations> {
    activations_tp(shape, 1)
}

/// Activation estimate per GPU under tensor parallelism of `tp` without sequence parallelism
/// (Korthikanti et al. 2022, eq. 2): per layer `s·b·h·(10 + 24/t + 5·a·s/(h·t))` bytes; with
/// checkpointing every layer's input (`2·s·b·h`, not split by TP) plus one layer in full.
pub fn activations_tp(shape: &ModelShape, tp: u64) -> Option<Activations> {
    let (h, l, s, b) = (
        shape.hidden_size?,
        shape.layers?,
        shape.seq_len?,
        shape.micro_batch?,
    );
    let a = shape.heads.unwrap_or((h / 128).max(1));
    let t = tp.max(1) as f64;
    let per_layer =
        (s * b * h) as f64 * (10.0 + 24.0 / t + 5.0 * a as f64 * s as f64 / (h as f64 * t));
    let bytes = if shape.activation_checkpointing {
        2.0 * (s * b * h) as f64 * l as f64 + per_layer
    } else {
        per_layer * l as f64
    };
    Some(Activations {
        bytes: bytes as u64,
        assumptions: format!(
            "16-bit activations of a standard transformer (Korthikanti et al. 2022): hidden {h}, {l} layers, {a} heads, sequence {s}, micro batch {b}, tensor parallel {tp}; {}; no sequence parallelism, no flash attention (which removes the 5·a·s/h term)",
            if shape.activation_checkpointing { "activation checkpointing keeps each layer's input (2·s·b·h bytes) plus one layer recomputed" } else { "no activation checkpointing" }
        ),
    })
}

/// A model size preset: parameters and the transformer shape behind them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPreset {
    pub name: &'static str,
    pub params: u64,
    pub hidden_size: u64,
    pub layers: u64,
    pub heads: u64,
}

/// GPT-2 small, GPT-3 XL and the LLaMA-2 sizes (shapes from their papers).
pub const MODEL_PRESETS: &[ModelPreset] = &[
    ModelPreset {
        name: "125M",
        params: 125_000_000,
        hidden_size: 768,
        layers: 12,
        heads: 12,
    },
    ModelPreset {
        name: "1.3B",
        params: 1_300_000_000,
        hidden_size: 2048,
        layers: 24,
        heads: 16,
    },
    ModelPreset {
        name: "7B",
        params: 6_740_000_000,
        hidden_size: 4096,
        layers: 32,
        heads: 32,
    },
    ModelPreset {
        name: "13B",
        params: 13_000_000_000,
        hidden_size: 5120,
        layers: 40,
        heads: 40,
    },
    ModelPreset {
        name: "70B",
        params: 68_980_000_000,
        hidden_size: 8192,
        layers: 80,
        heads: 64,
    },
];

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

/// Which line of [`table`] a config is: its ZeRO stage and what it offloads to CPU or NVMe.
/// Parameter offload without optimizer offload counts as `optimizer+params` (the nearest line).
pub fn config_choice(doc: &crate::Document) -> (u8, &'static str) {
    let stage = doc
        .get("/zero_optimization/stage")
        .and_then(|n| n.as_number())
        .map(|n| n.value.clamp(0.0, 3.0) as u8)
        .unwrap_or(0);
    let offloaded = |p: &str| {
        doc.get(p)
            .and_then(|n| n.as_str())
            .is_some_and(|d| d == "cpu" || d == "nvme")
    };
    let opt = offloaded("/zero_optimization/offload_optimizer/device");
    let par = offloaded("/zero_optimization/offload_param/device");
    let offload = match stage {
        0 | 1 => "none",
        2 if opt => "optimizer",
        2 => "none",
        _ if par => "optimizer+params",
        _ if opt => "optimizer",
        _ => "none",
    };
    (stage, offload)
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

    /// A LLaMA-7B-shaped model on one node of 8 GPUs, micro batch 1.
    fn llama_7b_shape(params: u64, seq_len: u64, checkpointing: bool) -> ModelShape {
        ModelShape {
            params,
            largest_layer_params: None,
            gpus_per_node: 8,
            nodes: 1,
            hidden_size: Some(4096),
            layers: Some(32),
            heads: Some(32),
            seq_len: Some(seq_len),
            micro_batch: Some(1),
            activation_checkpointing: checkpointing,
        }
    }

    #[test]
    fn tensor_parallelism_splits_all_but_the_checkpointed_inputs() {
        let shape = llama_7b_shape(6_740_000_000, 2048, false);
        let (sbh, l) = (2048.0 * 4096.0, 32.0);
        let one = activations_tp(&shape, 1).unwrap().bytes as f64;
        assert_eq!(
            one as u64,
            (sbh * (34.0 + 5.0 * 32.0 * 2048.0 / 4096.0) * l) as u64
        );
        let eight = activations_tp(&shape, 8).unwrap().bytes as f64;
        assert_eq!(
            eight as u64,
            (sbh * (10.0 + 3.0 + 5.0 * 32.0 * 2048.0 / (4096.0 * 8.0)) * l) as u64
        );
        // With checkpointing the stored inputs (2·s·b·h per layer) do not shrink with TP.
        let ckpt = ModelShape {
            activation_checkpointing: true,
            ..shape
        };
        let c8 = activations_tp(&ckpt, 8).unwrap().bytes as f64;
        assert!(c8 > 2.0 * sbh * l);
    }

    /// The parts of every line add up to the line, and on one GPU the panel can say why
    /// ZeRO-2 and ZeRO-3 cost more than ZeRO-0 (partitioning over one GPU saves nothing, and
    /// DeepSpeed's estimators count more bytes per parameter than plain data parallelism).
    #[test]
    fn parts_add_up_and_a_costlier_stage_is_explained() {
        for gpus in [1, 8] {
            let shape = ModelShape {
                gpus_per_node: gpus,
                ..llama_7b_shape(6_740_000_000, 2048, true)
            };
            let rows = table(&shape);
            for r in &rows {
                let sum: u64 = parts(r, &shape).iter().map(|(_, b)| b).sum();
                assert_eq!(sum, r.gpu_bytes, "{r:?}");
            }
            let lines: Vec<(u8, Vec<(Part, u64)>)> = rows
                .iter()
                .filter(|r| r.offload == "none")
                .map(|r| {
                    let mut p = parts(r, &shape);
                    p.push((
                        Part::Buckets,
                        bucket_bytes(r.stage, 500_000_000, 500_000_000, 50_000_000),
                    ));
                    (r.stage, p)
                })
                .collect();
            let why = costlier(&lines, gpus);
            if gpus == 1 {
                let stages: Vec<u8> = why.iter().map(|c| c.stage).collect();
                assert_eq!(stages, [1, 2, 3], "{why:?}");
                let z2 = &why[1];
                assert_eq!(z2.than, 0);
                let grew: u64 = z2.grew.iter().map(|(_, b)| b).sum();
                assert_eq!(grew - z2.saved_bytes, z2.extra_bytes, "{z2:?}");
                assert!(z2
                    .grew
                    .iter()
                    .any(|(p, _)| *p == Part::GradientsAndOptimizer));
                assert!(z2.grew.iter().any(|(p, _)| *p == Part::Buckets));
                let z3 = &why[2];
                assert!(z3.grew.iter().any(|(p, _)| *p == Part::GatheredLayer));
            } else {
                assert!(why.is_empty(), "at 8 GPUs each stage saves: {why:?}");
            }
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
    fn a_config_maps_to_its_line_of_the_table() {
        let choice = |t: &str| config_choice(&crate::Document::parse(t));
        assert_eq!(choice("{}"), (0, "none"));
        assert_eq!(
            choice(r#"{"zero_optimization": {"stage": 1}}"#),
            (1, "none")
        );
        assert_eq!(
            choice(
                r#"{"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}"#
            ),
            (2, "optimizer")
        );
        assert_eq!(
            choice(r#"{"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}}"#),
            (3, "optimizer+params")
        );
        assert_eq!(
            choice(
                r#"{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "none"}}}"#
            ),
            (3, "none")
        );
        // Every choice names a line that exists in the table.
        let shape = ModelShape {
            params: 1_000_000,
            largest_layer_params: None,
            gpus_per_node: 8,
            nodes: 1,
            hidden_size: None,
            layers: None,
            heads: None,
            seq_len: None,
            micro_batch: None,
            activation_checkpointing: false,
        };
        let rows = table(&shape);
        for t in [
            "{}",
            r#"{"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}"#,
        ] {
            let (stage, offload) = choice(t);
            assert!(rows
                .iter()
                .any(|r| r.stage == stage && r.offload == offload));
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

    #[test]
    fn table_orders_stages_by_memory() {
        let shape = llama_7b_shape(7_000_000_000, 4096, true);
        let rows = table(&shape);
        assert_eq!(rows[0].gpu_bytes, 112_000_000_000);
        assert!(rows
            .windows(2)
            .take(3)
            .all(|w| w[1].gpu_bytes <= w[0].gpu_bytes));
        let act = activations(&shape).unwrap();
        let no_ckpt = activations(&ModelShape {
            activation_checkpointing: false,
            ..shape
        })
        .unwrap();
        assert!(act.bytes < no_ckpt.bytes);
    }
}
