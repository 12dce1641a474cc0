//! Three-way merge of config texts, for a save that finds someone else saved first: `base` is
//! the version the edit started from, `theirs` the head now, `mine` the text being edited.
//! Changes are semantic (JSON pointers, key order ignored, `5e8` equal to `500000000`): a
//! change of theirs that touches nothing mine touched is applied to mine's text (keeping
//! mine's comments, key order and number spellings, and theirs' spelling of the value); the
//! same key changed on both sides, or a key inside a part the other side changed, is a conflict
//! listed for a choice. An array counts as one value (elements have no identity to merge by).

use crate::api::Change;
use crate::diff::semantic;
use crate::document::Document;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A key both sides changed, differently.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    /// JSON pointer of the part in conflict.
    pub path: String,
    /// Its value in the version both started from, theirs and mine (`None`: absent).
    pub base: Option<Value>,
    pub theirs: Option<Value>,
    pub mine: Option<Value>,
}

/// Which side a conflict takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Mine,
    Theirs,
}

/// The merge: mine with every change of theirs that does not conflict, what was taken from
/// theirs, and what needs a choice.
#[derive(Debug, Clone, PartialEq)]
pub struct Merge {
    pub text: String,
    pub applied: Vec<Change>,
    pub conflicts: Vec<Conflict>,
}

/// Why a merge cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    #[error("{0} does not parse as a config: fix it first")]
    Unparsed(&'static str),
    #[error("cannot write `{0}` into the text: {1}")]
    Edit(String, String),
}

/// Whether `a` is `b` or inside it (`/x/y` is inside `/x`, `/xy` is not).
fn within(a: &str, b: &str) -> bool {
    a == b || (a.starts_with(b) && a[b.len()..].starts_with('/'))
}

fn get<'a>(v: &'a Value, pointer: &str) -> Option<&'a Value> {
    if pointer.is_empty() {
        Some(v)
    } else {
        v.pointer(pointer)
    }
}

/// The changes from `base` to `other`, with every change inside an array made one change of the
/// whole array.
fn changes(base: &Value, other: &Value) -> Vec<Change> {
    let mut out: Vec<Change> = Vec::new();
    for c in semantic(base, other) {
        let mut path = c.path.clone();
        // The outermost array on the way down, in either side.
        let mut at = String::new();
        for token in c.path.split('/').skip(1) {
            let is_array = |v: &Value| get(v, &at).is_some_and(Value::is_array);
            if !at.is_empty() && (is_array(base) || is_array(other)) {
                path = at.clone();
                break;
            }
            at.push('/');
            at.push_str(token);
        }
        if path == c.path {
            out.push(c);
        } else if !out.iter().any(|o| o.path == path) {
            out.push(Change {
                op: "replace".into(),
                path: path.clone(),
                old: get(base, &path).cloned(),
                new: get(other, &path).cloned(),
            });
        }
    }
    out
}

/// Numbers by value, the rest structurally (as the semantic diff compares).
fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => semantic(x, y).is_empty(),
        _ => false,
    }
}

/// Writes theirs' value at `path` (its own spelling) into `doc`, or removes the key.
fn take(doc: &Document, theirs: &Document, path: &str) -> Result<Document, MergeError> {
    let edit = |r: Result<Document, crate::document::EditError>| {
        r.map_err(|e| MergeError::Edit(path.to_string(), e.to_string()))
    };
    match theirs.get(path) {
        Some(node) => {
            let raw = theirs.text().get(node.span.clone()).unwrap_or("null");
            edit(doc.set_raw(path, raw))
        }
        None if doc.get(path).is_some() => edit(doc.remove(path)),
        None => Ok(doc.clone()),
    }
}

/// Merges `theirs` into `mine` against `base` (see the module).
pub fn three_way(base: &str, theirs: &str, mine: &str) -> Result<Merge, MergeError> {
    let value = |t: &str, what: &'static str| {
        Document::parse(t)
            .to_value()
            .ok_or(MergeError::Unparsed(what))
    };
    let (b, t, m) = (
        value(base, "the version you started from")?,
        value(theirs, "their version")?,
        value(mine, "your text")?,
    );
    let theirs_doc = Document::parse(theirs);
    let mut doc = Document::parse(mine);
    let ours = changes(&b, &m);
    let mut applied = Vec::new();
    let mut conflicts: Vec<Conflict> = Vec::new();
    for c in changes(&b, &t) {
        let overlapping: Vec<&Change> = ours
            .iter()
            .filter(|o| within(&o.path, &c.path) || within(&c.path, &o.path))
            .collect();
        if overlapping.is_empty() {
            doc = take(&doc, &theirs_doc, &c.path)?;
            applied.push(c);
            continue;
        }
        // Both made the same change: nothing to do.
        let path = overlapping
            .iter()
            .map(|o| o.path.as_str())
            .chain([c.path.as_str()])
            .min_by_key(|p| p.len())
            .unwrap_or(&c.path)
            .to_string();
        if same(get(&t, &path), get(&m, &path)) {
            continue;
        }
        if conflicts.iter().any(|x| within(&path, &x.path)) {
            continue;
        }
        conflicts.retain(|x| !within(&x.path, &path));
        conflicts.push(Conflict {
            base: get(&b, &path).cloned(),
            theirs: get(&t, &path).cloned(),
            mine: get(&m, &path).cloned(),
            path,
        });
    }
    Ok(Merge {
        text: doc.text().to_string(),
        applied,
        conflicts,
    })
}

/// The merged text with each conflict decided: `choices` names the side per conflict path
/// (a conflict left out keeps mine).
pub fn resolve(
    merge: &Merge,
    theirs: &str,
    choices: &[(String, Side)],
) -> Result<String, MergeError> {
    let theirs_doc = Document::parse(theirs);
    let mut doc = Document::parse(&merge.text);
    for c in &merge.conflicts {
        let side = choices
            .iter()
            .find(|(p, _)| *p == c.path)
            .map_or(Side::Mine, |(_, s)| *s);
        if side == Side::Theirs {
            doc = take(&doc, &theirs_doc, &c.path)?;
        }
    }
    Ok(doc.text().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"{
  "train_batch_size": 64,
  "gradient_clipping": 1.0,
  "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "weight_decay": 0.01}},
  "zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}
}"#;

    #[test]
    fn changes_to_different_keys_merge_and_keep_both_spellings() {
        // Theirs: lr and a new key; mine: the stage, with a comment and my spelling.
        let theirs = BASE.replace("\"lr\": 1e-4", "\"lr\": 3e-4").replace(
            "\"gradient_clipping\": 1.0,",
            "\"gradient_clipping\": 1.0,\n  \"steps_per_print\": 10,",
        );
        let mine = BASE
            .replace("\"stage\": 2", "\"stage\": 3")
            .replace("{\n", "{\n  // ours\n");
        let m = three_way(BASE, &theirs, &mine).unwrap();
        assert!(m.conflicts.is_empty(), "{:?}", m.conflicts);
        assert_eq!(m.applied.len(), 2);
        assert!(m.text.contains("// ours"), "{}", m.text);
        assert!(m.text.contains("\"lr\": 3e-4"), "{}", m.text);
        assert!(m.text.contains("\"steps_per_print\": 10"), "{}", m.text);
        assert!(m.text.contains("\"stage\": 3"), "{}", m.text);
        assert!(m.text.contains("5e8"), "mine's spelling stays: {}", m.text);
        // Nothing of theirs is lost: the merged config has every change of both sides.
        let v = Document::parse(&m.text).to_value().unwrap();
        assert_eq!(v["optimizer"]["params"]["lr"], serde_json::json!(3e-4));
        assert_eq!(v["zero_optimization"]["stage"], 3);
    }

    #[test]
    fn the_same_key_changed_on_both_sides_is_a_choice() {
        let theirs = BASE.replace("\"gradient_clipping\": 1.0", "\"gradient_clipping\": 0.5");
        let mine = BASE
            .replace("\"gradient_clipping\": 1.0", "\"gradient_clipping\": 2.0")
            .replace("\"stage\": 2", "\"stage\": 1");
        let m = three_way(BASE, &theirs, &mine).unwrap();
        assert_eq!(m.conflicts.len(), 1);
        let c = &m.conflicts[0];
        assert_eq!(c.path, "/gradient_clipping");
        assert_eq!(
            (c.base.clone(), c.theirs.clone(), c.mine.clone()),
            (Some(1.0.into()), Some(0.5.into()), Some(2.0.into()))
        );
        // Left as mine until chosen; theirs when chosen.
        assert!(m.text.contains("\"gradient_clipping\": 2.0"));
        let took = resolve(&m, &theirs, &[("/gradient_clipping".into(), Side::Theirs)]).unwrap();
        assert!(took.contains("\"gradient_clipping\": 0.5"), "{took}");
        assert!(took.contains("\"stage\": 1"), "{took}");
        let kept = resolve(&m, &theirs, &[]).unwrap();
        assert!(kept.contains("\"gradient_clipping\": 2.0"));
    }

    #[test]
    fn nested_removals_arrays_and_equal_changes() {
        // Theirs removed the optimizer; mine changed its lr: one conflict, on the optimizer.
        let theirs = r#"{"train_batch_size": 64, "gradient_clipping": 1.0,
            "zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}}"#;
        let mine = BASE.replace("\"lr\": 1e-4", "\"lr\": 2e-4");
        let m = three_way(BASE, theirs, &mine).unwrap();
        assert_eq!(m.conflicts.len(), 1, "{:?}", m.conflicts);
        assert_eq!(m.conflicts[0].path, "/optimizer");
        assert_eq!(m.conflicts[0].theirs, None);
        let took = resolve(&m, theirs, &[("/optimizer".into(), Side::Theirs)]).unwrap();
        assert!(!took.contains("optimizer"), "{took}");
        // Both made the same change (another spelling): no conflict.
        let theirs = BASE.replace("\"train_batch_size\": 64", "\"train_batch_size\": 128");
        let mine = BASE.replace("\"train_batch_size\": 64", "\"train_batch_size\": 1.28e2");
        let m = three_way(BASE, &theirs, &mine).unwrap();
        assert!(m.conflicts.is_empty() && m.applied.is_empty(), "{m:?}");
        // Arrays are one value: betas changed on both sides is one conflict on the array.
        let base = r#"{"optimizer": {"params": {"betas": [0.9, 0.999]}}}"#;
        let theirs = r#"{"optimizer": {"params": {"betas": [0.8, 0.999]}}}"#;
        let mine = r#"{"optimizer": {"params": {"betas": [0.9, 0.95]}}}"#;
        let m = three_way(base, theirs, mine).unwrap();
        assert_eq!(m.conflicts.len(), 1);
        assert_eq!(m.conflicts[0].path, "/optimizer/params/betas");
        // Theirs changed an array mine left alone: taken whole.
        let m = three_way(base, theirs, base).unwrap();
        assert!(m.conflicts.is_empty());
        assert!(m.text.contains("[0.8, 0.999]"), "{}", m.text);
        // A text that does not parse is named.
        assert_eq!(
            three_way(base, theirs, "{oops").unwrap_err().to_string(),
            "your text does not parse as a config: fix it first"
        );
    }
}
