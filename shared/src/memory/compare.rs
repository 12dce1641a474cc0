//! Why one line of the memory table costs more than a lower stage: on few GPUs partitioning
//! saves less than the buckets and gathered parameters of the higher stage add.

use super::Part;

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
/// without offload, at their peaks.
pub fn costlier(lines: &[(u8, Vec<(Part, u64)>)], gpus: u64) -> Vec<Costlier> {
    let total = |parts: &[(Part, u64)]| parts.iter().map(|(_, b)| b).sum::<u64>();
    let sum_of = |parts: &[(Part, u64)], part: Part| {
        parts
            .iter()
            .filter(|(p, _)| *p == part)
            .map(|(_, b)| b)
            .sum::<u64>()
    };
    let mut out = Vec::new();
    for (i, (stage, parts)) in lines.iter().enumerate() {
        let mine = total(parts);
        let cheaper = lines[..i]
            .iter()
            .filter(|(s, p)| s < stage && total(p) < mine)
            .min_by_key(|(_, p)| total(p));
        if let Some((than, lower)) = cheaper {
            let grew = parts
                .iter()
                .filter(|(p, b)| *b > sum_of(lower, *p))
                .map(|(p, b)| (*p, b - sum_of(lower, *p)))
                .collect();
            let saved_bytes = lower
                .iter()
                .map(|(p, b)| b.saturating_sub(sum_of(parts, *p)))
                .sum();
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
