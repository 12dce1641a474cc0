//! Will it fit: a job's estimate against a runner's memory. On a GPU runner each rank has one
//! GPU; on a CPU runner the node's ranks share the host's memory, which also holds what the
//! estimate puts on the CPU side.

use super::{estimate, human_bytes, suggest, Estimate, ModelSpec, Setup, Suggestion};
use crate::api::RunnerDevices;
use crate::validate::Context;
use serde::{Deserialize, Serialize};

/// What `max_memory_allocated` can reach of a card: its memory less the CUDA context and what
/// the caching allocator cannot use (1 GiB, or 5% of the card if that is more).
pub fn usable_gpu_bytes(total: u64) -> u64 {
    total.saturating_sub((1u64 << 30).max(total / 20))
}

/// The memory one rank of a job may use on a runner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Capacity {
    /// Bytes one rank may use: its GPU's usable memory, or its share of the host's.
    pub bytes_per_rank: u64,
    /// The device as people name it: `NVIDIA H200 · 139.8 GiB`, `CPU · 7.8 GiB` (host memory).
    pub device: String,
    /// A CPU runner: the ranks share host memory.
    pub host: bool,
}

/// The capacity of a runner with `devices` for `ranks_per_node` ranks. `None`: the runner did
/// not say what it has (an older runner), or has no memory figure.
pub fn runner_capacity(devices: &RunnerDevices, ranks_per_node: u32) -> Option<Capacity> {
    let ranks = ranks_per_node.max(1) as usize;
    if devices.gpus.is_empty() {
        if devices.host_memory_bytes == 0 {
            return None;
        }
        // A tenth for the operating system and the runner itself.
        let usable = devices.host_memory_bytes / 10 * 9;
        return Some(Capacity {
            bytes_per_rank: usable / ranks as u64,
            device: format!("CPU · {}", human_bytes(devices.host_memory_bytes)),
            host: true,
        });
    }
    // The smallest of the GPUs the job's ranks get.
    let gpu = devices
        .gpus
        .iter()
        .take(ranks)
        .min_by_key(|g| g.memory_bytes)?;
    (gpu.memory_bytes > 0).then(|| Capacity {
        bytes_per_rank: usable_gpu_bytes(gpu.memory_bytes),
        device: format!("{} · {}", gpu.name, human_bytes(gpu.memory_bytes)),
        host: false,
    })
}

/// What one rank needs: its GPU peak, and on a CPU runner its share of the CPU side too.
pub fn need_per_rank(e: &Estimate, cap: &Capacity, ranks_per_node: u32) -> u64 {
    if cap.host {
        e.gpu_peak_bytes
            .saturating_add(e.cpu_peak_bytes / ranks_per_node.max(1) as u64)
    } else {
        e.gpu_peak_bytes
    }
}

/// A job that would run out of memory: its estimate beside the capacity, and configs that fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DoesNotFit {
    pub estimate: Estimate,
    /// What one rank needs (the GPU peak; on a CPU runner with its share of the CPU side).
    pub need_bytes: u64,
    pub capacity: Capacity,
    /// The runner it was compared with (none: the largest of the runners it could go to).
    pub runner: Option<String>,
    /// A smaller micro batch keeping the global batch, and the cheapest stage or offload, that
    /// fit (either may be missing).
    pub suggestions: Vec<Suggestion>,
}

/// Whether `text` (judged in `ctx`, on `nodes` nodes, training `model`) fits `cap`.
pub fn check(
    text: &str,
    ctx: &Context,
    nodes: u32,
    model: &ModelSpec,
    setup: &Setup,
    cap: &Capacity,
    runner: Option<String>,
) -> Result<Estimate, Box<DoesNotFit>> {
    let e = estimate(model, setup);
    let ranks = setup.gpus_per_node.max(1) as u32;
    let need = need_per_rank(&e, cap, ranks);
    if need <= cap.bytes_per_rank {
        return Ok(e);
    }
    let for_gpu = if cap.host {
        cap.bytes_per_rank
            .saturating_sub(e.cpu_peak_bytes / ranks.max(1) as u64)
    } else {
        cap.bytes_per_rank
    };
    Err(Box::new(DoesNotFit {
        suggestions: suggest(text, ctx, nodes, model, for_gpu),
        estimate: e,
        need_bytes: need,
        capacity: cap.clone(),
        runner,
    }))
}
