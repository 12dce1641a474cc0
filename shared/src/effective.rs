//! The effective config: what DeepSpeed will actually use, with the provenance of each value
//! (set by the user, default, derived, or left to the launcher's "auto").

use crate::document::{Kind, Node};
use crate::registry::{registry, Mode, Ty};
use crate::validate::{derive_batch, Context, View};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where an effective value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    User,
    Default,
    Derived,
    Auto,
}

/// One effective value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Dotted key path.
    pub path: String,
    pub value: Value,
    pub provenance: Provenance,
    /// Under the HF launchers: the argument or rule a value HF wrote came from
    /// (`per_device_train_batch_size`, `hidden_size²`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// Effective values of every key the user set, every default of the sections in play, and the
/// batch triple as DeepSpeed derives it.
pub fn effective(root: &Node, ctx: &Context) -> Vec<Entry> {
    if ctx.launcher.fills_auto() {
        return after_hf(root, ctx);
    }
    let reg = registry();
    let view = View::new(root, ctx);
    let mut out = Vec::new();
    let release = view.release;
    // Keys written under an alias (`stage3_prefetch_bucket_size` for
    // `zero_optimization.prefetch_bucket_size`): the value is the canonical key's.
    let mut aliases: std::collections::HashMap<String, Vec<&str>> = Default::default();
    for a in reg.keys() {
        if let Some(canonical) = canonical_of(&a.path) {
            aliases.entry(canonical).or_default().push(a.path.as_str());
        }
    }
    let lookup = |path: &str| {
        view.get(path).or_else(|| {
            aliases
                .get(path)
                .and_then(|list| list.iter().find_map(|a| view.get(a)))
        })
    };
    for spec in reg.keys() {
        if !spec.known_in(release)
            || spec.deprecated
            || spec.alias_of.is_some()
            || spec.path.contains('<')
            || spec.is_object() && spec.types.len() == 1
        {
            continue;
        }
        let parent = spec.path.rsplit_once('.').map(|(p, _)| p).unwrap_or("");
        let parent_present = parent.is_empty() || view.get(parent).is_some_and(Node::is_object);
        match lookup(&spec.path) {
            Some(node) => {
                let provenance = match &node.kind {
                    Kind::String(s) if s == "auto" => {
                        if ctx.launcher.fills_auto() {
                            Provenance::Auto
                        } else if reg.mode(spec, release) == Mode::Strict {
                            Provenance::Default
                        } else {
                            Provenance::User
                        }
                    }
                    _ => Provenance::User,
                };
                let value = if provenance == Provenance::Default {
                    spec.default_at(release).cloned().unwrap_or(Value::Null)
                } else {
                    node.to_value()
                };
                out.push(Entry {
                    path: spec.path.clone(),
                    value,
                    provenance,
                    from: None,
                });
            }
            None if parent_present
                && spec.default_at(release).is_some()
                && !spec.accepts(Ty::Any) =>
            {
                out.push(Entry {
                    path: spec.path.clone(),
                    value: spec.default_at(release).cloned().unwrap_or(Value::Null),
                    provenance: Provenance::Default,
                    from: None,
                });
            }
            None => {}
        }
    }
    // The batch triple.
    let ws = ctx.data_parallel_size();
    let py = |k| view.py(k);
    if let Ok(t) = derive_batch(
        py("train_batch_size").as_ref(),
        py("train_micro_batch_size_per_gpu").as_ref(),
        py("gradient_accumulation_steps").as_ref(),
        ws,
    ) {
        for (k, v) in [
            ("train_batch_size", t.train_batch_size),
            ("train_micro_batch_size_per_gpu", t.micro_batch),
            ("gradient_accumulation_steps", t.grad_acc),
        ] {
            out.retain(|e| e.path != k);
            let user = view.get(k).is_some_and(|n| n.as_str() != Some("auto"));
            out.push(Entry {
                path: k.into(),
                value: Value::from(v as i64),
                provenance: if user {
                    Provenance::User
                } else {
                    Provenance::Derived
                },
                from: None,
            });
        }
    }
    // ZeRO stage and overlap_comm follow the stage.
    let stage = view.zero_stage();
    out.retain(|e| {
        e.path != "zero_optimization.stage" || view.get("zero_optimization.stage").is_some()
    });
    if view.get("zero_optimization.overlap_comm").is_none() {
        out.retain(|e| e.path != "zero_optimization.overlap_comm");
        out.push(Entry {
            path: "zero_optimization.overlap_comm".into(),
            value: Value::Bool(stage == 3),
            provenance: Provenance::Derived,
            from: None,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The full path of the key an alias names (`alias_of` is relative to the alias's section).
fn canonical_of(path: &str) -> Option<String> {
    let alias_of = registry().explain(path)?.alias_of.as_ref()?;
    Some(match path.rsplit_once('.') {
        Some((parent, _)) if !alias_of.contains('.') => format!("{parent}.{alias_of}"),
        _ => alias_of.clone(),
    })
}

/// Under the HF Trainer or Accelerate: the effective config of the dict HF hands to DeepSpeed,
/// each value HF wrote marked `auto` with the argument it came from.
fn after_hf(root: &Node, ctx: &Context) -> Vec<Entry> {
    let run = crate::launcher::hf::run(root, ctx);
    let mut out = effective(&run.dict, &ctx.after_hf());
    for f in run.filled {
        // An alias HF filled is listed under its canonical key.
        let path = canonical_of(&f.path).unwrap_or(f.path);
        out.retain(|e| e.path != path);
        out.push(Entry {
            path,
            value: f.value,
            provenance: Provenance::Auto,
            from: Some(f.from),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The effective config as a nested JSON object.
pub fn to_json(entries: &[Entry]) -> Value {
    let mut root = serde_json::Map::new();
    for e in entries {
        let mut map = &mut root;
        let parts: Vec<&str> = e.path.split('.').collect();
        for p in &parts[..parts.len() - 1] {
            let next = map
                .entry(p.to_string())
                .or_insert_with(|| Value::Object(Default::default()));
            if !next.is_object() {
                *next = Value::Object(Default::default());
            }
            map = next.as_object_mut().expect("object");
        }
        map.insert(parts[parts.len() - 1].to_string(), e.value.clone());
    }
    Value::Object(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Document;

    #[test]
    fn batch_is_derived_and_defaults_filled() {
        let doc = Document::parse(
            r#"{"train_batch_size": 32, "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 3}}"#,
        );
        let e = effective(doc.root().unwrap(), &Context::with_world_size(4));
        let get = |p: &str| e.iter().find(|x| x.path == p).cloned().unwrap();
        assert_eq!(get("train_micro_batch_size_per_gpu").value, 4);
        assert_eq!(
            get("train_micro_batch_size_per_gpu").provenance,
            Provenance::Derived
        );
        assert_eq!(get("train_batch_size").provenance, Provenance::User);
        assert_eq!(get("zero_optimization.overlap_comm").value, true);
        assert_eq!(
            get("zero_optimization.contiguous_gradients").provenance,
            Provenance::Default
        );
        assert_eq!(get("gradient_clipping").value, 1.0);
        let json = to_json(&e);
        assert_eq!(json["zero_optimization"]["stage"], 3);
    }

    #[test]
    fn keys_written_under_an_alias_count() {
        let doc = Document::parse(
            r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 1234, "stage3_gather_16bit_weights_on_model_save": true}}"#,
        );
        let e = effective(doc.root().unwrap(), &Context::default());
        let get = |p: &str| e.iter().find(|x| x.path == p).cloned().unwrap();
        assert_eq!(get("zero_optimization.prefetch_bucket_size").value, 1234);
        assert_eq!(
            get("zero_optimization.prefetch_bucket_size").provenance,
            Provenance::User
        );
        assert_eq!(
            get("zero_optimization.gather_16bit_weights_on_model_save").value,
            true
        );
        // Under the Trainer, an "auto" alias is filled and listed once, under its canonical key.
        let doc = Document::parse(
            r#"{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": "auto"}}"#,
        );
        let ctx = Context {
            launcher: crate::Launcher::HfTrainer,
            ..Context::default()
        };
        let e = effective(doc.root().unwrap(), &ctx);
        let found: Vec<&Entry> = e
            .iter()
            .filter(|x| x.path.ends_with("prefetch_bucket_size"))
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].provenance, Provenance::Auto);
        assert!(
            found[0]
                .from
                .as_deref()
                .unwrap_or("")
                .contains("hidden_size"),
            "{found:?}"
        );
    }

    #[test]
    fn auto_is_marked_under_hf() {
        let doc = Document::parse(r#"{"train_batch_size": "auto", "gradient_clipping": "auto"}"#);
        let ctx = Context {
            launcher: crate::Launcher::HfTrainer,
            ..Context::default()
        };
        let e = effective(doc.root().unwrap(), &ctx);
        assert_eq!(
            e.iter()
                .find(|x| x.path == "gradient_clipping")
                .unwrap()
                .provenance,
            Provenance::Auto
        );
    }
}
