//! Fixes you can read before you apply them: what a diagnostic's fix changes (each key, its
//! value as written now → the value it gets), applying one, and applying every fix that cannot
//! collide with another in one step ("Apply all").
//!
//! A fix is a JSON patch on the document (`Diagnostic::fix`) or byte edits on the text
//! (`Diagnostic::text_fix`, for what JSON cannot say: a comment, a trailing comma). Both are
//! computed against the text the diagnostics were found in.

use crate::document::{split_pointer, Document};
use crate::validate::{apply_text_fix, Diagnostic};
use serde_json::Value;

/// Longest snippet a preview shows of a value before eliding it.
const SNIPPET: usize = 48;

/// One change a fix makes. `old`/`new` are the value as written (`None`: absent), already
/// shortened for display.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Change {
    /// Dotted key (`zero_optimization.stage`); empty for a text edit.
    pub key: String,
    pub old: Option<String>,
    pub new: Option<String>,
    /// The new value is `"auto"` and the launcher fills it with this (a hyperparameter the fix
    /// changes, said rather than hidden behind "auto").
    pub becomes: Option<Becomes>,
}

/// What a launcher fills an `"auto"` with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Becomes {
    /// The value, as JSON, shortened for display.
    pub value: String,
    /// The argument it comes from (`weight_decay`, `train_batch_size (calculated)`).
    pub from: String,
    /// The argument is not given: its default is used.
    pub default: bool,
}

/// The `becomes` member a launcher's fix carries beside its `"auto"` value.
fn becomes(op: &Value) -> Option<Becomes> {
    let b = op.get("becomes")?;
    Some(Becomes {
        value: snippet(&b.get("value")?.to_string()),
        from: b.get("from")?.as_str()?.to_string(),
        default: b.get("default").and_then(Value::as_bool).unwrap_or(false),
    })
}

/// What applying `d`'s fix to `text` changes; empty when it has no fix or the fix no longer
/// fits the text.
pub fn preview(text: &str, d: &Diagnostic) -> Vec<Change> {
    if let Some(edits) = &d.text_fix {
        return edits
            .iter()
            .filter_map(|e| {
                let old = text.get(e.start..e.end)?;
                Some(Change {
                    key: String::new(),
                    old: (!old.is_empty()).then(|| snippet(old)),
                    new: (!e.text.is_empty()).then(|| snippet(&e.text)),
                    becomes: None,
                })
            })
            .collect();
    }
    let Some(ops) = d.fix.as_ref().and_then(Value::as_array) else {
        return Vec::new();
    };
    let doc = Document::parse(text);
    let written = |path: &str| {
        doc.get(path)
            .and_then(|n| text.get(n.span.clone()))
            .map(snippet)
    };
    let mut out = Vec::new();
    for op in ops {
        let path = op.get("path").and_then(Value::as_str).unwrap_or("");
        let from = op.get("from").and_then(Value::as_str);
        match op.get("op").and_then(Value::as_str).unwrap_or("") {
            "add" | "replace" => out.push(Change {
                key: dotted(path),
                old: written(path),
                new: op.get("value").map(|v| snippet(&v.to_string())),
                becomes: becomes(op),
            }),
            "remove" => out.push(Change {
                key: dotted(path),
                old: written(path),
                new: None,
                becomes: None,
            }),
            kind @ ("move" | "copy") => {
                let value = from.and_then(written);
                if kind == "move" {
                    if let Some(from) = from {
                        out.push(Change {
                            key: dotted(from),
                            old: value.clone(),
                            new: None,
                            becomes: None,
                        });
                    }
                }
                out.push(Change {
                    key: dotted(path),
                    old: written(path),
                    new: value,
                    becomes: None,
                });
            }
            _ => {}
        }
    }
    out
}

/// `text` with `d`'s fix applied; `None` when it has none or it no longer fits.
pub fn apply(text: &str, d: &Diagnostic) -> Option<String> {
    if let Some(edits) = &d.text_fix {
        return apply_text_fix(text, edits);
    }
    let patch = d.fix.as_ref()?;
    Document::parse(text)
        .apply_patch(patch)
        .ok()
        .map(|doc| doc.text().to_string())
}

/// The result of [`apply_all`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedAll {
    pub text: String,
    /// Indexes (into the diagnostics given) of the fixes applied.
    pub applied: Vec<usize>,
}

/// The fixes that can be applied together, as indexes into `diags`, in order: every text fix
/// whose bytes no other chosen one touches, and every patch whose keys no other chosen patch
/// touches (neither the same key nor one inside the other). A fix that would collide with one
/// chosen before it is left for the user to apply alone.
pub fn compatible(diags: &[Diagnostic]) -> Vec<usize> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut keys: Vec<Vec<String>> = Vec::new();
    let mut out = Vec::new();
    for (i, d) in diags.iter().enumerate() {
        if let Some(edits) = &d.text_fix {
            let mine: Vec<(usize, usize)> = edits.iter().map(|e| (e.start, e.end)).collect();
            let clash = mine.iter().any(|a| {
                ranges
                    .iter()
                    .any(|b| a.0 < b.1.max(b.0 + 1) && b.0 < a.1.max(a.0 + 1))
            });
            if !clash && !mine.is_empty() {
                ranges.extend(mine);
                out.push(i);
            }
        } else if let Some(ops) = d.fix.as_ref().and_then(Value::as_array) {
            let mine = touched(ops);
            let clash = mine.iter().any(|a| keys.iter().any(|b| nested(a, b)));
            if !clash && !mine.is_empty() {
                keys.extend(mine);
                out.push(i);
            }
        }
    }
    out
}

/// Applies every fix [`compatible`] chooses: the text fixes first (together, by the offsets
/// they were found at), then each patch on the result (by key, which text fixes do not move).
pub fn apply_all(text: &str, diags: &[Diagnostic]) -> AppliedAll {
    let chosen = compatible(diags);
    let edits: Vec<_> = chosen
        .iter()
        .filter_map(|&i| diags[i].text_fix.clone())
        .flatten()
        .collect();
    // No text edits apply as the text unchanged; edits that no longer fit apply none.
    let (mut current, mut applied): (String, Vec<usize>) = match apply_text_fix(text, &edits) {
        Some(t) => (
            t,
            chosen
                .iter()
                .copied()
                .filter(|&i| diags[i].text_fix.is_some())
                .collect(),
        ),
        None => (text.to_string(), Vec::new()),
    };
    for &i in chosen.iter().filter(|&&i| diags[i].text_fix.is_none()) {
        if let Some(next) = apply(&current, &diags[i]) {
            current = next;
            applied.push(i);
        }
    }
    applied.sort_unstable();
    AppliedAll {
        text: current,
        applied,
    }
}

/// The keys a patch writes or removes, as pointer tokens.
fn touched(ops: &[Value]) -> Vec<Vec<String>> {
    ops.iter()
        .flat_map(|op| {
            ["path", "from"]
                .into_iter()
                .filter_map(|k| op.get(k).and_then(Value::as_str))
                .map(split_pointer)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether one key is the other or lies inside it.
fn nested(a: &[String], b: &[String]) -> bool {
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

fn dotted(pointer: &str) -> String {
    split_pointer(pointer).join(".")
}

fn snippet(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= SNIPPET {
        flat
    } else {
        let cut: String = flat.chars().take(SNIPPET - 1).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{validate, Context};
    use serde_json::json;

    fn diag(fix: Value) -> Diagnostic {
        Diagnostic::warning("x", "/", crate::i18n::Text::new("x", "x")).with_fix(fix)
    }

    #[test]
    fn the_batch_fix_says_it_changes_the_global_batch() {
        let text = "{\n  \"train_batch_size\": 100,\n  \"train_micro_batch_size_per_gpu\": 16,\n  \"gradient_accumulation_steps\": 8\n}";
        let diags = validate(&Document::parse(text), &Context::default());
        let d = diags
            .iter()
            .find(|d| d.fix.is_some() && d.path == "/train_batch_size")
            .expect("a batch fix");
        assert_eq!(
            preview(text, d),
            [Change {
                key: "train_batch_size".into(),
                old: Some("100".into()),
                new: Some("128".into()),
                becomes: None
            }]
        );
        assert!(apply(text, d)
            .unwrap()
            .contains("\"train_batch_size\": 128"));
    }

    #[test]
    fn an_hf_mismatch_fix_says_what_auto_becomes_and_whether_it_is_a_default() {
        let text = r#"{"optimizer": {"type": "AdamW", "params": {"lr": 0.0002, "weight_decay": 0.01}}, "train_micro_batch_size_per_gpu": 8}"#;
        let ctx = Context {
            launcher: crate::validate::Launcher::HfTrainer,
            trainer: Some(crate::launcher::TrainerArgs {
                learning_rate: Some(1e-4),
                ..Default::default()
            }),
            ..Context::default()
        };
        let diags = validate(&Document::parse(text), &ctx);
        let change = |path: &str| {
            let d = diags
                .iter()
                .find(|d| d.code == "launcher-mismatch" && d.path == path)
                .unwrap_or_else(|| panic!("a mismatch at {path}: {diags:?}"));
            preview(text, d).remove(0)
        };
        assert_eq!(
            change("/optimizer/params/weight_decay"),
            Change {
                key: "optimizer.params.weight_decay".into(),
                old: Some("0.01".into()),
                new: Some("\"auto\"".into()),
                becomes: Some(Becomes {
                    value: "0.0".into(),
                    from: "weight_decay".into(),
                    default: true
                })
            }
        );
        let lr = change("/optimizer/params/lr").becomes.unwrap();
        assert_eq!(
            (lr.value.as_str(), lr.from.as_str(), lr.default),
            ("0.0001", "learning_rate", false)
        );
        // The patch itself still applies as RFC 6902 says: the extra member is ignored.
        let d = diags
            .iter()
            .find(|d| d.path == "/optimizer/params/weight_decay")
            .unwrap();
        assert!(apply(text, d)
            .unwrap()
            .contains(r#""weight_decay": "auto""#));
    }

    #[test]
    fn a_move_shows_the_key_removed_and_the_key_written_as_spelled() {
        let text = r#"{"optimizer": {"type": "AdamW", "params": {"max_grad_norm": 1.0e0}}}"#;
        let d = diag(
            json!([{"op": "move", "from": "/optimizer/params/max_grad_norm", "path": "/gradient_clipping"}]),
        );
        assert_eq!(
            preview(text, &d),
            [
                Change {
                    key: "optimizer.params.max_grad_norm".into(),
                    old: Some("1.0e0".into()),
                    new: None,
                    becomes: None
                },
                Change {
                    key: "gradient_clipping".into(),
                    old: None,
                    new: Some("1.0e0".into()),
                    becomes: None
                }
            ]
        );
    }

    #[test]
    fn a_text_fix_shows_the_bytes_it_removes_and_long_values_are_elided() {
        let text = "{\n  // why\n  \"a\": 1\n}";
        let start = text.find("//").unwrap();
        let mut d = diag(json!([]));
        d.fix = None;
        d.text_fix = Some(vec![crate::validate::TextEdit {
            start,
            end: start + 6,
            text: String::new(),
        }]);
        assert_eq!(
            preview(text, &d),
            [Change {
                key: String::new(),
                old: Some("// why".into()),
                new: None,
                becomes: None
            }]
        );
        let long = format!("{{\"a\": \"{}\"}}", "x".repeat(100));
        let d = diag(json!([{"op": "remove", "path": "/a"}]));
        let old = preview(&long, &d)[0].old.clone().unwrap();
        assert_eq!(old.chars().count(), SNIPPET);
        assert!(old.ends_with('…'));
    }

    #[test]
    fn apply_all_takes_fixes_on_different_keys_and_leaves_colliding_ones() {
        let text =
            r#"{"zero_optimization": {"stage": 2, "overlap_comm": false}, "steps_per_print": 1}"#;
        let diags = vec![
            diag(
                json!([{"op": "replace", "path": "/zero_optimization/overlap_comm", "value": true}]),
            ),
            // Inside the key the first one writes: left out.
            diag(json!([{"op": "replace", "path": "/zero_optimization", "value": {"stage": 0}}])),
            diag(json!([{"op": "replace", "path": "/steps_per_print", "value": 100}])),
            // A fix that no longer fits is not counted as applied.
            diag(json!([{"op": "replace", "path": "/gone", "value": 1}])),
        ];
        assert_eq!(compatible(&diags), [0, 2, 3]);
        let all = apply_all(text, &diags);
        assert_eq!(all.applied, [0, 2]);
        let v: Value = serde_json::from_str(&all.text).unwrap();
        assert_eq!(
            v["zero_optimization"],
            json!({"stage": 2, "overlap_comm": true})
        );
        assert_eq!(v["steps_per_print"], 100);
    }

    #[test]
    fn apply_all_runs_text_fixes_then_patches_on_a_commented_config() {
        let text = "{\n  // note\n  \"steps_per_print\": 1,\n}";
        let hf = Context {
            launcher: crate::Launcher::HfTrainer,
            ..Context::default()
        };
        let mut diags: Vec<Diagnostic> = validate(&Document::parse(text), &hf)
            .into_iter()
            .filter(|d| d.fix.is_some() || d.text_fix.is_some())
            // Its fix removes the key this test patches (Accelerate overrides it anyway).
            .filter(|d| d.code != "launcher-steps-per-print-overridden")
            .collect();
        assert!(diags.iter().any(|d| d.text_fix.is_some()), "{diags:?}");
        diags.push(diag(
            json!([{"op": "replace", "path": "/steps_per_print", "value": 100}]),
        ));
        let all = apply_all(text, &diags);
        let v: Value = serde_json::from_str(&all.text).expect("plain JSON after every fix");
        assert_eq!(v["steps_per_print"], 100);
        assert_eq!(all.applied.len(), compatible(&diags).len());
    }
}
