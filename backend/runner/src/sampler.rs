//! Resource samples of a running job: GPU utilisation and memory through NVML where a GPU and
//! its driver exist (nvml-wrapper loads the library at run time, so the runner starts without
//! one; every GPU NVML lists is sampled, not only the runner's `devices`), and otherwise the
//! resident memory of the job's process group from `/proc`.

use super::monitor::Sample;

pub struct Sampler {
    nvml: Option<nvml_wrapper::Nvml>,
}

impl Default for Sampler {
    fn default() -> Self {
        Sampler::new()
    }
}

impl Sampler {
    pub fn new() -> Sampler {
        Sampler {
            nvml: nvml_wrapper::Nvml::init().ok(),
        }
    }

    /// One round of samples (the step is filled in by the caller).
    pub fn sample(&self, pgid: i32) -> Vec<Sample> {
        let mut out = Vec::new();
        if let Some(nvml) = &self.nvml {
            let count = nvml.device_count().unwrap_or(0);
            for i in 0..count {
                let Ok(dev) = nvml.device_by_index(i) else {
                    continue;
                };
                if let Ok(u) = dev.utilization_rates() {
                    out.push(Sample {
                        name: format!("gpu{i}/util_pct"),
                        step: 0,
                        value: u.gpu as f64,
                    });
                }
                if let Ok(m) = dev.memory_info() {
                    out.push(Sample {
                        name: format!("gpu{i}/mem_used_mb"),
                        step: 0,
                        value: m.used as f64 / 1048576.0,
                    });
                }
            }
        }
        if let Some(kb) = group_rss_kb(pgid) {
            out.push(Sample {
                name: "process/rss_mb".into(),
                step: 0,
                value: kb as f64 / 1024.0,
            });
        }
        out
    }
}

/// Resident memory of every process in group `pgid`, in KiB (Linux `/proc`); `None` when the
/// group has no process left.
pub fn group_rss_kb(pgid: i32) -> Option<u64> {
    let pids = group_members(pgid);
    if pids.is_empty() {
        return None;
    }
    let rss = |pid: u32| -> Option<u64> {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()?
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    };
    Some(pids.into_iter().filter_map(rss).sum())
}

/// Processes in group `pgid` still alive.
pub fn group_members(pgid: i32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    if pgid <= 0 {
        return out;
    }
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        // Fields after the command name (which may hold spaces) start after the last ')'.
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            if let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) {
                if rest
                    .split_whitespace()
                    .nth(2)
                    .and_then(|s| s.parse::<i32>().ok())
                    == Some(pgid)
                {
                    out.push(pid);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rss_of_a_process_group_is_read_from_proc() {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .process_group(0)
            .spawn()
            .unwrap();
        let pgid = child.id() as i32;
        std::thread::sleep(std::time::Duration::from_millis(100));
        let kb = group_rss_kb(pgid).expect("the group exists");
        assert!(kb > 0);
        assert_eq!(group_members(pgid), vec![child.id()]);
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(group_rss_kb(pgid), None);
    }
}
