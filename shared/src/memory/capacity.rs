//! Will it fit: a job's estimate against a runner's memory. On a GPU runner each rank has one
//! GPU and the node's ranks share the host's memory for what the estimate puts on the CPU side
//! (the model each rank builds, offloaded states); on a CPU runner the host's memory holds
//! both. [`Capacity::holds`] is the one judgement: the server's check, the Run dialog, a
//! sweep's pruning and every suggestion use it, so nothing offered for a runner fails on it.

use super::{estimate, human_bytes, suggest, Estimate, ModelSpec, Setup, Suggestion};
use crate::devices::RunnerDevices;
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
    /// Host memory the node's ranks may use together (nine tenths of it; 0: not known). On a
    /// GPU runner the CPU side of the estimate (the model each rank builds, offloaded states)
    /// must fit it too.
    #[serde(default)]
    pub host_bytes_per_node: u64,
}

impl Capacity {
    /// A device of `bytes_per_rank` per rank with nothing known of the host (the CLI's
    /// `--gpu-memory`).
    pub fn device_only(bytes_per_rank: u64) -> Capacity {
        Capacity {
            bytes_per_rank,
            device: String::new(),
            host: false,
            host_bytes_per_node: 0,
        }
    }

    /// What one rank of `ranks_per_node` needs of `bytes_per_rank`: its GPU peak, and on a CPU
    /// runner its share of the CPU side too.
    pub fn need(&self, e: &Estimate, ranks_per_node: u32) -> u64 {
        if self.host {
            e.gpu_peak_bytes
                .saturating_add(e.cpu_peak_bytes / ranks_per_node.max(1) as u64)
        } else {
            e.gpu_peak_bytes
        }
    }

    /// What one rank needs, in words: on a CPU runner the figure and what it is made of (the
    /// estimate's peak and the rank's share of the host side), so it reads beside the peak
    /// other pages show; on a GPU runner the peak per GPU.
    pub fn need_words(&self, e: &Estimate, ranks_per_node: u32) -> crate::i18n::Text {
        let need = human_bytes(self.need(e, ranks_per_node));
        if !self.host {
            return crate::i18n::Text::new(format!("{need} per GPU"), format!("每张 GPU {need}"));
        }
        let peak = human_bytes(e.gpu_peak_bytes);
        let share = human_bytes(e.cpu_peak_bytes / u64::from(ranks_per_node.max(1)));
        crate::i18n::Text::new(
            format!("{need} per rank ({peak} at the peak + {share} host side: the model each rank builds, offloaded states)"),
            format!("每个进程 {need}（峰值 {peak} + 主机侧 {share}：各进程构建的模型、卸载的状态）"),
        )
    }

    /// On a GPU runner whose host memory is known and too small for the CPU side of `e`: the
    /// CPU side per node and what the host gives.
    pub fn host_short(&self, e: &Estimate) -> Option<(u64, u64)> {
        (!self.host && self.host_bytes_per_node > 0 && e.cpu_peak_bytes > self.host_bytes_per_node)
            .then_some((e.cpu_peak_bytes, self.host_bytes_per_node))
    }

    /// Whether a job with estimate `e` and `ranks_per_node` ranks on each node fits: each
    /// rank's need within its share, and on a GPU runner the node's CPU side within its host.
    pub fn holds(&self, e: &Estimate, ranks_per_node: u32) -> bool {
        self.need(e, ranks_per_node) <= self.bytes_per_rank && self.host_short(e).is_none()
    }
}

/// Nine tenths of a host's memory: a tenth for the operating system and the runner itself.
fn usable_host_bytes(total: u64) -> u64 {
    total / 10 * 9
}

/// The capacity of a runner with `devices` for `ranks_per_node` ranks. `None`: the runner did
/// not say what it has (an older runner), or has no memory figure.
pub fn runner_capacity(devices: &RunnerDevices, ranks_per_node: u32) -> Option<Capacity> {
    let ranks = ranks_per_node.max(1) as usize;
    if devices.gpus.is_empty() {
        if devices.host_memory_bytes == 0 {
            return None;
        }
        let usable = usable_host_bytes(devices.host_memory_bytes);
        return Some(Capacity {
            bytes_per_rank: usable / ranks as u64,
            device: format!("CPU · {}", human_bytes(devices.host_memory_bytes)),
            host: true,
            host_bytes_per_node: usable,
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
        host_bytes_per_node: usable_host_bytes(devices.host_memory_bytes),
    })
}

/// A job that would run out of memory: its estimate beside the capacity, and configs that fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DoesNotFit {
    pub estimate: Estimate,
    /// What one rank needs (the GPU peak; on a CPU runner with its share of the CPU side).
    pub need_bytes: u64,
    /// On a GPU runner whose host memory is too small: the CPU memory the node needs (the
    /// model each rank builds and what is offloaded), beside `capacity.host_bytes_per_node`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_short: Option<u64>,
    pub capacity: Capacity,
    /// The runner it was compared with (none: the largest of the runners it could go to).
    pub runner: Option<String>,
    /// A smaller micro batch keeping the global batch, and the cheapest stage or offload, that
    /// fit (either may be missing).
    pub suggestions: Vec<Suggestion>,
}

/// Whether `text` (judged in `ctx`, on `nodes` nodes, training `model`) fits `cap`; when it
/// does not, the configs that would ([`suggest`], judged by the same [`Capacity::holds`]).
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
    if cap.holds(&e, ranks) {
        return Ok(e);
    }
    Err(Box::new(DoesNotFit {
        suggestions: suggest(text, ctx, nodes, model, cap),
        need_bytes: cap.need(&e, ranks),
        host_short: cap.host_short(&e).map(|(need, _)| need),
        estimate: e,
        capacity: cap.clone(),
        runner,
    }))
}
