//! Differences between two configs: semantic changes at JSON-pointer level (key order ignored),
//! a unified line diff of the canonical texts, and the validation delta (diagnostics introduced
//! and resolved).
//!
//! `json-patch`'s `diff` would give the operations but not the old values, which the diff view
//! and the API show; so the walk is written here (it is short).

use crate::api::Change;
use crate::document::{pointer_join, Document};
use crate::validate::Diagnostic;
use serde_json::Value;

/// Semantic changes turning `old` into `new`: objects are compared key by key (order ignored),
/// arrays element by element, anything else as a whole.
pub fn semantic(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    walk(old, new, "", &mut out);
    out
}

fn walk(old: &Value, new: &Value, path: &str, out: &mut Vec<Change>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a {
                let p = pointer_join(path, k);
                match b.get(k) {
                    Some(vb) => walk(va, vb, &p, out),
                    None => out.push(change("remove", p, Some(va), None)),
                }
            }
            for (k, vb) in b {
                if !a.contains_key(k) {
                    out.push(change("add", pointer_join(path, k), None, Some(vb)));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let p = format!("{path}/{i}");
                match (a.get(i), b.get(i)) {
                    (Some(va), Some(vb)) => walk(va, vb, &p, out),
                    (Some(va), None) => out.push(change("remove", p, Some(va), None)),
                    (None, Some(vb)) => out.push(change("add", p, None, Some(vb))),
                    (None, None) => {}
                }
            }
        }
        (a, b) if same_value(a, b) => {}
        (a, b) => out.push(change("replace", path.to_string(), Some(a), Some(b))),
    }
}

/// Numbers compare by value (`5e8` equals `500000000`); everything else structurally.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn change(op: &str, path: String, old: Option<&Value>, new: Option<&Value>) -> Change {
    Change {
        op: op.into(),
        path,
        old: old.cloned(),
        new: new.cloned(),
    }
}

/// Unified diff (3 lines of context) of the canonical texts of two configs; a text that does
/// not parse is compared as written.
pub fn text(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    let canon = |t: &str| {
        Document::parse(t)
            .canonical()
            .unwrap_or_else(|| t.to_string())
    };
    let (a, b) = (canon(old), canon(new));
    similar::TextDiff::from_lines(&a, &b)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

/// Diagnostics present in `new` but not in `old` (introduced) and the reverse (resolved),
/// matched by severity, code and path.
pub fn diagnostics_delta(
    old: &[Diagnostic],
    new: &[Diagnostic],
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let key = |d: &Diagnostic| (d.severity, d.code.clone(), d.path.clone());
    let old_keys: Vec<_> = old.iter().map(key).collect();
    let new_keys: Vec<_> = new.iter().map(key).collect();
    let introduced = new
        .iter()
        .filter(|d| !old_keys.contains(&key(d)))
        .cloned()
        .collect();
    let resolved = old
        .iter()
        .filter(|d| !new_keys.contains(&key(d)))
        .cloned()
        .collect();
    (introduced, resolved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_is_ignored_and_values_carry_old_and_new() {
        let a = json!({"a": 1, "b": {"c": 2, "d": [1, 2]}, "gone": true});
        let b = json!({"b": {"d": [1, 3, 4], "c": 2}, "a": 1.0, "new": "x"});
        let ch = semantic(&a, &b);
        let got: Vec<(String, String)> =
            ch.iter().map(|c| (c.op.clone(), c.path.clone())).collect();
        assert_eq!(
            got,
            vec![
                ("replace".into(), "/b/d/1".into()),
                ("add".into(), "/b/d/2".into()),
                ("remove".into(), "/gone".into()),
                ("add".into(), "/new".into()),
            ]
        );
        assert_eq!(ch[0].old, Some(json!(2)));
        assert_eq!(ch[0].new, Some(json!(3)));
        assert!(semantic(&a, &a).is_empty());
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        let ch = semantic(&json!({}), &json!({"a/b": 1, "m~n": 2}));
        assert_eq!(ch[0].path, "/a~1b");
        assert_eq!(ch[1].path, "/m~0n");
    }

    #[test]
    fn text_diff_ignores_formatting_and_shows_changes() {
        let a = "{\"train_batch_size\": 8,\n  \"steps_per_print\": 10}";
        let b = "{\"train_batch_size\": 16, \"steps_per_print\": 10}";
        let d = text(a, b, "v1", "v2");
        assert!(d.contains("--- v1"), "{d}");
        assert!(d.contains("-  \"train_batch_size\": 8,"), "{d}");
        assert!(d.contains("+  \"train_batch_size\": 16,"), "{d}");
        assert!(!d.contains("-  \"steps_per_print\""), "{d}");
    }
}
