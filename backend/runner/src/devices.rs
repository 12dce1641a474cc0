//! What a runner runs jobs on: its GPUs from NVML (index, name, total memory, compute
//! capability), narrowed by `CUDA_VISIBLE_DEVICES` and `--gpus`, and its host (CPU cores,
//! memory). NVML sits behind [`GpuProbe`] so the narrowing is unit-tested without a GPU; on a GPU
//! machine [`Nvml`] is the real library (loaded at run time: a host without a driver has none).

use ds_studio_shared::api::{GpuDevice, RunnerDevices};

/// One GPU as the driver lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbedGpu {
    pub index: u32,
    pub uuid: String,
    pub name: String,
    pub memory_bytes: u64,
    pub compute_capability: Option<(i32, i32)>,
}

/// Lists the machine's GPUs (all of them, in the driver's order).
pub trait GpuProbe {
    fn gpus(&self) -> Result<Vec<ProbedGpu>, String>;
}

/// The real NVML.
pub struct Nvml;

impl GpuProbe for Nvml {
    fn gpus(&self) -> Result<Vec<ProbedGpu>, String> {
        let nvml = nvml_wrapper::Nvml::init().map_err(|e| format!("NVML: {e}"))?;
        let count = nvml.device_count().map_err(|e| format!("NVML: {e}"))?;
        let mut out = Vec::new();
        for index in 0..count {
            let dev = nvml
                .device_by_index(index)
                .map_err(|e| format!("NVML device {index}: {e}"))?;
            out.push(ProbedGpu {
                index,
                uuid: dev.uuid().unwrap_or_default(),
                name: dev.name().unwrap_or_else(|_| format!("GPU {index}")),
                memory_bytes: dev.memory_info().map(|m| m.total).unwrap_or(0),
                compute_capability: dev
                    .cuda_compute_capability()
                    .ok()
                    .map(|c| (c.major, c.minor)),
            });
        }
        Ok(out)
    }
}

/// What detection found, and what it could not use (said in the runner's log).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Detected {
    pub devices: RunnerDevices,
    /// Why a GPU asked for is not used, or why none were found.
    pub notes: Vec<String>,
}

/// The GPUs a runner may use: those `--gpus` names (NVML indices), else those
/// `CUDA_VISIBLE_DEVICES` names (indices or `GPU-` UUIDs; empty or `-1`: none), else all.
pub fn detect(probe: &dyn GpuProbe, cuda_visible: Option<&str>, gpus_flag: &[u32]) -> Detected {
    let mut notes = Vec::new();
    let all = match probe.gpus() {
        Ok(g) => g,
        Err(e) => {
            if !gpus_flag.is_empty() {
                notes.push(format!(
                    "--gpus {} given but no GPU can be listed ({e})",
                    join(gpus_flag)
                ));
            }
            Vec::new()
        }
    };
    let chosen: Vec<&ProbedGpu> = if !gpus_flag.is_empty() {
        let mut out = Vec::new();
        for i in gpus_flag {
            match all.iter().find(|g| g.index == *i) {
                Some(g) => out.push(g),
                None if !all.is_empty() => notes.push(format!(
                    "--gpus names GPU {i}, but this machine has GPUs 0-{}",
                    all.len() - 1
                )),
                None => {}
            }
        }
        out
    } else if let Some(visible) = cuda_visible {
        let mut out = Vec::new();
        for entry in visible.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            if entry.starts_with('-') {
                break; // CUDA stops at the first invalid entry: `-1` hides every GPU
            }
            let found = match entry.parse::<u32>() {
                Ok(i) => all.iter().find(|g| g.index == i),
                Err(_) => all
                    .iter()
                    .find(|g| !g.uuid.is_empty() && g.uuid.starts_with(entry)),
            };
            match found {
                Some(g) if !out.iter().any(|o: &&ProbedGpu| o.index == g.index) => out.push(g),
                Some(_) => {}
                None => {
                    if !all.is_empty() {
                        notes.push(format!(
                            "CUDA_VISIBLE_DEVICES names `{entry}`, which no GPU of this machine is"
                        ));
                    }
                    break;
                }
            }
        }
        out
    } else {
        all.iter().collect()
    };
    Detected {
        devices: RunnerDevices {
            gpus: chosen
                .into_iter()
                .map(|g| GpuDevice {
                    index: g.index,
                    name: g.name.clone(),
                    memory_bytes: g.memory_bytes,
                    compute_capability: g.compute_capability.map(|(a, b)| format!("{a}.{b}")),
                })
                .collect(),
            cpu_cores: cpu_cores(),
            host_memory_bytes: host_memory_bytes().unwrap_or(0),
            landlock_abi: None,
            job_writable: Vec::new(),
        },
        notes,
    }
}

fn join(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// CPU cores this process may use (its affinity mask and cgroup quota counted).
pub fn cpu_cores() -> u32 {
    std::thread::available_parallelism()
        .map(|n| n.get() as u32)
        .unwrap_or(1)
}

/// Host memory (`MemTotal` of `/proc/meminfo`).
pub fn host_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_total(&text)
}

fn mem_total(meminfo: &str) -> Option<u64> {
    let kb: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fake(Result<Vec<ProbedGpu>, String>);
    impl GpuProbe for Fake {
        fn gpus(&self) -> Result<Vec<ProbedGpu>, String> {
            self.0.clone()
        }
    }

    fn h200s(n: u32) -> Fake {
        Fake(Ok((0..n)
            .map(|i| ProbedGpu {
                index: i,
                uuid: format!("GPU-{i}aaa-bbbb"),
                name: "NVIDIA H200".into(),
                memory_bytes: 150_110_011_392,
                compute_capability: Some((9, 0)),
            })
            .collect()))
    }

    fn indices(d: &Detected) -> Vec<u32> {
        d.devices.gpus.iter().map(|g| g.index).collect()
    }

    #[test]
    fn every_gpu_unless_narrowed() {
        let d = detect(&h200s(2), None, &[]);
        assert_eq!(indices(&d), vec![0, 1]);
        assert_eq!(d.devices.gpus[0].compute_capability.as_deref(), Some("9.0"));
        assert_eq!(
            d.devices.summary().en,
            "2 × NVIDIA H200 · 139.8 GiB",
            "{:?}",
            d.devices
        );
        assert!(d.notes.is_empty());
    }

    #[test]
    fn cuda_visible_devices_by_index_or_uuid_and_minus_one_hides_all() {
        assert_eq!(indices(&detect(&h200s(4), Some("2,3"), &[])), vec![2, 3]);
        assert_eq!(indices(&detect(&h200s(4), Some("GPU-3aaa"), &[])), vec![3]);
        assert!(indices(&detect(&h200s(4), Some(""), &[])).is_empty());
        assert!(indices(&detect(&h200s(4), Some("-1"), &[])).is_empty());
        // CUDA stops at the first entry it cannot find.
        let d = detect(&h200s(2), Some("1,7,0"), &[]);
        assert_eq!(indices(&d), vec![1]);
        assert!(d.notes[0].contains("`7`"), "{:?}", d.notes);
    }

    #[test]
    fn the_gpus_flag_wins_and_a_missing_index_is_said() {
        let d = detect(&h200s(2), Some("0"), &[1, 5]);
        assert_eq!(indices(&d), vec![1]);
        assert!(
            d.notes[0].contains("GPU 5") && d.notes[0].contains("0-1"),
            "{:?}",
            d.notes
        );
    }

    #[test]
    fn no_driver_is_a_cpu_runner_with_its_cores_and_memory() {
        let d = detect(&Fake(Err("NVML: library not found".into())), None, &[]);
        assert!(d.devices.gpus.is_empty() && d.notes.is_empty());
        assert!(d.devices.cpu_cores >= 1);
        assert!(d.devices.host_memory_bytes > 0);
        assert!(
            d.devices.summary().en.starts_with("CPU · "),
            "{}",
            d.devices.summary().en
        );
        assert!(d.devices.summary().zh.contains(" 核 · "));
        let d = detect(&Fake(Err("NVML: library not found".into())), None, &[0]);
        assert!(d.notes[0].contains("--gpus 0 given"), "{:?}", d.notes);
    }

    #[test]
    fn mem_total_reads_kib() {
        assert_eq!(
            mem_total("MemFree: 5 kB\nMemTotal:       24576000 kB\n"),
            Some(24_576_000 * 1024)
        );
        assert_eq!(mem_total("nothing"), None);
    }
}
