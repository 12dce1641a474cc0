//! What a runner runs jobs on (its GPUs, cores and host memory), as it registers them: read by
//! the memory model's capacity and carried on the wire by the runner protocol (the API
//! re-exports [`RunnerDevices`] and [`GpuDevice`]).

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// One GPU a runner may use, as NVML reports it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct GpuDevice {
    /// NVML's index (the `CUDA_VISIBLE_DEVICES` number jobs get).
    pub index: u32,
    pub name: String,
    /// Total memory in bytes.
    pub memory_bytes: u64,
    /// CUDA compute capability, `9.0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute_capability: Option<String>,
}

/// What a runner runs jobs on: its GPUs (none on a CPU runner) and its host.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct RunnerDevices {
    #[serde(default)]
    pub gpus: Vec<GpuDevice>,
    /// CPU cores the runner may use.
    #[serde(default)]
    pub cpu_cores: u32,
    /// Host memory in bytes.
    #[serde(default)]
    pub host_memory_bytes: u64,
    /// The Landlock ABI the kernel confines this runner's job writes with; 0 when it cannot
    /// (jobs then run with the config and variable checks alone); none from runners before
    /// the confinement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landlock_abi: Option<u32>,
    /// Directories outside a job's own that its operator lets jobs write (`--job-writable`,
    /// e.g. a local NVMe for `nvme_path`): absolute config paths beneath them are accepted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub job_writable: Vec<String>,
}

/// Bytes as GiB with one decimal.
fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

impl RunnerDevices {
    /// Ranks a job may start here per node: its GPUs, or 1 on a CPU runner.
    pub fn device_count(&self) -> u32 {
        (self.gpus.len() as u32).max(1)
    }

    /// One line: `1 × NVIDIA H200 · 139.8 GiB` (alike GPUs counted together), or on a CPU runner
    /// `CPU · 16 cores · 125.7 GiB` (`CPU · 16 核 · 125.7 GiB`).
    pub fn summary(&self) -> crate::i18n::Text {
        if self.gpus.is_empty() {
            return crate::i18n::Text::new(
                format!(
                    "CPU · {} cores · {}",
                    self.cpu_cores,
                    gib(self.host_memory_bytes)
                ),
                format!(
                    "CPU · {} 核 · {}",
                    self.cpu_cores,
                    gib(self.host_memory_bytes)
                ),
            );
        }
        let mut groups: Vec<(&str, u64, usize)> = Vec::new();
        for g in &self.gpus {
            match groups
                .iter_mut()
                .find(|(n, m, _)| *n == g.name && *m == g.memory_bytes)
            {
                Some(group) => group.2 += 1,
                None => groups.push((&g.name, g.memory_bytes, 1)),
            }
        }
        let line = groups
            .iter()
            .map(|(name, mem, n)| format!("{n} × {name} · {}", gib(*mem)))
            .collect::<Vec<_>>()
            .join(" + ");
        crate::i18n::Text::new(line.clone(), line)
    }
}
