//! Config values that name a file or a directory, and the rule that keeps a job's inside its
//! own directory.
//!
//! DeepSpeed writes where a config tells it to (the monitors' `output_path` and `job_name`, the
//! flops profiler's `output_file`, autotuning's `results_dir`, `exps_dir`, `metric_path` and
//! `model_info_path`, the NVMe offload's `nvme_path`, nebula's storage paths, the data-efficiency
//! index files). Rather than a list of keys, which misses the next release's, every key at any
//! depth whose name says it names a file or a directory ([`names_a_path`]) must hold a relative
//! path without `..`: the server refuses the job with the key named (422) and the runner refuses
//! it again before it starts. The kernel confinement of the runner (`confine`) is what holds
//! when this check misses something; this is the early, readable refusal.

use serde_json::Value;

/// Whether a config key (its last segment) names a file or a directory: `…_path`, `…_paths`,
/// `…_dir`, `…_file`, `…_folder`, the bare words, and the monitors' `job_name` (a directory
/// under `output_path`).
pub fn names_a_path(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    const ENDINGS: [&str; 6] = ["path", "paths", "dir", "file", "folder", "directory"];
    k == "job_name"
        || ENDINGS
            .iter()
            .any(|e| k == *e || k.ends_with(&format!("_{e}")))
}

/// A config value that would leave the job's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Escape {
    /// The key as a dot path (`autotuning.model_info_path`).
    pub key: String,
    pub value: String,
    /// The directories outside it the runner lets jobs write (`--job-writable`), if any.
    pub allowed: Vec<String>,
}

impl std::fmt::Display for Escape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} `{}` must be a relative path inside the job directory (not absolute, no `..`)",
            self.key,
            self.value.escape_debug()
        )?;
        if !self.allowed.is_empty() {
            write!(
                f,
                ", or a path under a directory the runner lets jobs write: {}",
                self.allowed.join(", ")
            )?;
        }
        Ok(())
    }
}

/// The first value of `config` at a key that names a path ([`names_a_path`]) and is absolute,
/// has a `..` component, or holds a NUL; `None` when every such value stays inside.
pub fn escape(config: &Value) -> Option<Escape> {
    escape_within(config, &[])
}

/// [`escape`], where an absolute path beneath one of `allowed` (absolute directories the
/// runner's operator lets jobs write, `--job-writable`: a local NVMe for ZeRO-Infinity's
/// `nvme_path`, say) also stays inside.
pub fn escape_within(config: &Value, allowed: &[String]) -> Option<Escape> {
    fn walk(v: &Value, at: &mut Vec<String>, named: bool, allowed: &[String]) -> Option<Escape> {
        match v {
            Value::Object(map) => map.iter().find_map(|(k, child)| {
                at.push(k.clone());
                let found = walk(child, at, names_a_path(k), allowed);
                at.pop();
                found
            }),
            // A list under a path key holds paths; under any other key, objects whose keys may.
            Value::Array(items) => items.iter().find_map(|i| walk(i, at, named, allowed)),
            Value::String(s) if named && !inside(s) && !beneath_any(s, allowed) => Some(Escape {
                key: at.join("."),
                value: s.clone(),
                allowed: allowed.to_vec(),
            }),
            _ => None,
        }
    }
    walk(config, &mut Vec::new(), false, allowed)
}

/// [`escape_within`] of a config text (a text that does not parse as a JSON object holds no
/// path: the validator refuses it for that).
pub fn escape_in_text(text: &str, allowed: &[String]) -> Option<Escape> {
    crate::Document::parse(text)
        .to_value()
        .and_then(|v| escape_within(&v, allowed))
}

/// Whether `p` is an absolute path of plain components beneath one of `dirs` (compared by
/// components: `/nvme0` is not beneath `/nvme`).
pub fn beneath_any(p: &str, dirs: &[String]) -> bool {
    use std::path::{Component, Path};
    let path = Path::new(p);
    let plain = path.components().all(|c| {
        matches!(
            c,
            Component::RootDir | Component::Normal(_) | Component::CurDir
        )
    });
    !p.contains('\0')
        && path.is_absolute()
        && plain
        && dirs.iter().any(|d| path.starts_with(Path::new(d)))
}

/// Whether `p` is a relative path made of plain components only (`.` allowed), without NUL.
pub fn inside(p: &str) -> bool {
    use std::path::{Component, Path};
    !p.contains('\0')
        && Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_key_that_names_a_path_in_any_release_is_checked() {
        // Every key of every release the registry knows whose name reads as a file or a
        // directory: the list is written out so that a new one in the registry is noticed here.
        let mut named: Vec<&str> = crate::registry::registry()
            .keys()
            .map(|k| k.path.as_str())
            .filter(|p| names_a_path(p.rsplit('.').next().unwrap_or(p)))
            .collect();
        named.sort_unstable();
        assert_eq!(
            named,
            [
                "autotuning.exps_dir",
                "autotuning.metric_path",
                "autotuning.model_info_path",
                "autotuning.results_dir",
                "csv_monitor.job_name",
                "csv_monitor.output_path",
                "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.<metric>.index_to_metric_path",
                "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.<metric>.index_to_sample_path",
                "data_efficiency.data_sampling.curriculum_learning.data_cluster_path",
                "data_efficiency.data_sampling.dynamic_batching.metrics_path",
                "flops_profiler.output_file",
                "nebula.nebula_load_path",
                "nebula.persistent_storage_path",
                "tensorboard.job_name",
                "tensorboard.output_path",
                "zero_optimization.offload_optimizer.nvme_path",
                "zero_optimization.offload_param.nvme_path",
            ]
        );
    }

    #[test]
    fn each_path_key_refuses_absolute_and_parent_paths_at_any_depth() {
        for (config, key) in [
            (
                json!({"autotuning": {"enabled": true, "model_info": {"profile": true}, "model_info_path": "../../../ds-studio.db"}}),
                "autotuning.model_info_path",
            ),
            (
                json!({"autotuning": {"metric_path": "/srv/ds-studio/data/ds-studio.db"}}),
                "autotuning.metric_path",
            ),
            (
                json!({"tensorboard": {"enabled": true, "job_name": "../x"}}),
                "tensorboard.job_name",
            ),
            (
                json!({"zero_optimization": {"offload_param": {"device": "nvme", "nvme_path": "/local_nvme"}}}),
                "zero_optimization.offload_param.nvme_path",
            ),
            (
                json!({"data_efficiency": {"data_sampling": {"curriculum_learning": {"curriculum_metrics": {"seqlen": {"index_to_sample_path": "a/../../b"}}}}}}),
                "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.seqlen.index_to_sample_path",
            ),
            // A key no release has yet, named like one.
            (
                json!({"future_monitor": {"trace_dir": "/etc"}}),
                "future_monitor.trace_dir",
            ),
            (json!({"x": {"cache_paths": ["ok", "/tmp/x"]}}), "x.cache_paths"),
            // Objects inside a list of another key (the review's).
            (json!({"x": [{"ok": 1}, {"output_path": "/abs"}]}), "x.output_path"),
            (json!({"nebula": {"persistent_storage_path": "a\u{0}b"}}), "nebula.persistent_storage_path"),
        ] {
            let e = escape(&config).unwrap_or_else(|| panic!("{config} escapes"));
            assert_eq!(e.key, key);
            assert!(e.to_string().starts_with(&format!("{key} `")), "{e}");
        }
    }

    #[test]
    fn relative_paths_and_values_at_other_keys_pass() {
        for config in [
            json!({"csv_monitor": {"enabled": true, "output_path": "out", "job_name": "run-1"}}),
            json!({"tensorboard": {"output_path": "./tb/a"}}),
            json!({"zero_optimization": {"offload_param": {"nvme_path": "nvme"}}}),
            // Not keys that name a path: free text stays free.
            json!({"wandb": {"project": "../../x", "group": "/abs"}}),
            json!({"comet": {"experiment_name": "/a/b"}}),
            json!({"tensorboard": {"output_path": null}}),
            json!({"train_batch_size": 8}),
            json!({"x": ["/abs/strings/in/a/list/of/another/key"]}),
        ] {
            assert_eq!(escape(&config), None, "{config}");
        }
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// Every key of every release the registry knows that names a path, as a JSON pointer
        /// path (a `<name>` segment made concrete).
        fn path_keys() -> Vec<Vec<String>> {
            crate::registry::registry()
                .keys()
                .filter(|k| names_a_path(k.path.rsplit('.').next().unwrap_or(&k.path)))
                .map(|k| {
                    k.path
                        .split('.')
                        .map(|s| {
                            if s.starts_with('<') {
                                "m1".into()
                            } else {
                                s.to_string()
                            }
                        })
                        .collect()
                })
                .collect()
        }

        fn put(config: &mut Value, at: &[String], v: Value) {
            let mut here = config;
            for (i, seg) in at.iter().enumerate() {
                let map = here.as_object_mut().unwrap();
                if i + 1 == at.len() {
                    map.insert(seg.clone(), v);
                    return;
                }
                here = map
                    .entry(seg.clone())
                    .or_insert_with(|| Value::Object(Default::default()));
                if !here.is_object() {
                    *here = Value::Object(Default::default());
                }
            }
        }

        /// Path strings: plain components, sometimes a `..`, a leading `/` or `.` parts.
        fn a_path() -> impl Strategy<Value = String> {
            (
                any::<bool>(),
                prop::collection::vec(
                    prop_oneof![
                        "[a-z0-9_-]{1,6}",
                        Just("..".to_string()),
                        Just(".".to_string())
                    ],
                    1..5,
                ),
            )
                .prop_map(|(abs, parts)| {
                    format!("{}{}", if abs { "/" } else { "" }, parts.join("/"))
                })
        }

        proptest! {
            /// For any path keys of any release set to any paths, `escape` finds one exactly
            /// when some value is absolute or has a `..`, and names a key that holds one.
            #[test]
            fn escape_is_found_exactly_when_a_path_key_leaves(
                picks in prop::collection::vec((any::<prop::sample::Index>(), a_path()), 1..6),
            ) {
                let keys = path_keys();
                let mut config = serde_json::json!({"train_batch_size": 8});
                let mut set: Vec<(String, String)> = Vec::new();
                for (i, p) in &picks {
                    let key = &keys[i.index(keys.len())];
                    put(&mut config, key, Value::String(p.clone()));
                    set.retain(|(k, _)| *k != key.join("."));
                    set.push((key.join("."), p.clone()));
                }
                let leaving = |p: &str| p.starts_with('/') || p.split('/').any(|c| c == "..");
                match escape(&config) {
                    Some(e) => {
                        prop_assert!(leaving(&e.value), "{e}");
                        prop_assert!(set.iter().any(|(k, v)| *k == e.key && *v == e.value), "{e} {set:?}");
                    }
                    None => prop_assert!(set.iter().all(|(_, v)| !leaving(v)), "{set:?}"),
                }
            }
        }
    }

    #[test]
    fn absolute_paths_pass_only_beneath_a_directory_the_runner_allows() {
        let allowed = vec!["/local_nvme".to_string()];
        let nvme = |p: &str| json!({"zero_optimization": {"offload_param": {"device": "nvme", "nvme_path": p}}});
        assert_eq!(escape_within(&nvme("/local_nvme"), &allowed), None);
        assert_eq!(escape_within(&nvme("/local_nvme/job7"), &allowed), None);
        assert_eq!(escape_within(&nvme("rel"), &allowed), None);
        for bad in [
            "/local_nvme2",
            "/local_nvme/../etc",
            "/etc",
            "/local_nvme/a\u{0}",
        ] {
            let e = escape_within(&nvme(bad), &allowed).unwrap_or_else(|| panic!("{bad}"));
            assert!(
                e.to_string().ends_with(
                    ", or a path under a directory the runner lets jobs write: /local_nvme"
                ),
                "{e}"
            );
        }
        // Without allowed directories the plain rule and message.
        let e = escape(&nvme("/local_nvme")).unwrap();
        assert!(e.to_string().ends_with("(not absolute, no `..`)"), "{e}");
    }

    #[test]
    fn names_that_read_as_paths() {
        for k in [
            "nvme_path",
            "output_file",
            "results_dir",
            "job_name",
            "path",
            "Trace_Dir",
            "x_folder",
        ] {
            assert!(names_a_path(k), "{k}");
        }
        for k in [
            "pathological",
            "dir_count",
            "filed",
            "experiment_name",
            "name",
            "profile",
        ] {
            assert!(!names_a_path(k), "{k}");
        }
    }
}
