//! What changes for a config when it moves from one DeepSpeed release to another.
//!
//! [`upgrade`] compares the validator's verdict in both releases and the registry's per-release
//! facts, and lists:
//! - what the new release **rejects** that the old one accepted (with the validator's fix);
//! - keys it **removed** (its own `DeepSpeedConfigError` text names the replacement) or
//!   **renamed** (a fix moves the value to the new name);
//! - keys it silently **ignores** (dropped or not yet arrived in a lax section);
//! - **default changes** for keys the config leaves unset, which silently change behaviour
//!   (the fix pins the old value).
//!
//! [`apply`] applies the fixes as text edits, so comments, key order and number spelling are
//! kept; a config with nothing to fix comes back byte for byte.

use crate::document::{escape_token, Document};
use crate::i18n::Text;
use crate::registry::registry;
use crate::release::Release;
use crate::validate::{validate, Context, Diagnostic, Severity};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The kind of a change between two releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// The new release rejects the config here.
    Rejected,
    /// The new release removed the key and says so (`DeepSpeedConfigError`).
    Removed,
    /// The key has a new name in the new release.
    Renamed,
    /// The new release silently ignores the key.
    Ignored,
    /// A key the config leaves unset has another default in the new release.
    Default,
    /// An error of the old release that the new one no longer raises.
    Resolved,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Rejected => "rejected",
            ChangeKind::Removed => "removed",
            ChangeKind::Renamed => "renamed",
            ChangeKind::Ignored => "ignored",
            ChangeKind::Default => "default",
            ChangeKind::Resolved => "resolved",
        }
    }
}

/// One change, at a JSON pointer of the config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub kind: ChangeKind,
    pub path: String,
    pub message: Text,
    /// An RFC 6902 patch that makes the config work in the new release (or, for a default
    /// change, keeps the old behaviour).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// Every change for one config between two releases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Upgrade {
    pub from: Release,
    pub to: Release,
    pub changes: Vec<Change>,
    /// The errors the config still has in the new release after [`apply`] with the fixes
    /// (0: once the fixes are applied, the new release accepts it).
    pub errors_after_fixes: usize,
}

/// The changes for `doc` (validated in `ctx`, whose release is ignored) from `from` to `to`.
pub fn upgrade(doc: &Document, ctx: &Context, from: Release, to: Release) -> Upgrade {
    let at = |release: Release| {
        let ctx = Context {
            deepspeed_version: release.to_string(),
            ..ctx.clone()
        };
        validate(doc, &ctx)
    };
    let before = at(from);
    let after = at(to);
    let mut changes = Vec::new();
    let same = |d: &Diagnostic, list: &[Diagnostic]| {
        list.iter()
            .any(|b| b.code == d.code && b.path == d.path && b.severity <= d.severity)
    };
    for d in &after {
        if same(d, &before) {
            continue;
        }
        let kind = match (d.severity, d.code.as_str()) {
            (_, "renamed-key") => ChangeKind::Renamed,
            (Severity::Error, "removed-key") => ChangeKind::Removed,
            (Severity::Error, _) => ChangeKind::Rejected,
            (Severity::Warning, "not-in-release") => ChangeKind::Ignored,
            _ => continue,
        };
        changes.push(Change {
            kind,
            path: d.path.clone(),
            message: d.message.clone(),
            fix: d.fix.clone(),
            line: d.line,
        });
    }
    for d in before.iter().filter(|d| d.severity == Severity::Error) {
        // Still an error there, for another reason: not "no longer rejected".
        if after
            .iter()
            .any(|a| a.path == d.path && a.severity == Severity::Error)
        {
            continue;
        }
        changes.push(Change {
            kind: ChangeKind::Resolved,
            path: d.path.clone(),
            message: Text::new(
                format!(
                    "DeepSpeed {to} no longer rejects this ({from} did): {}",
                    d.message.en
                ),
                format!(
                    "DeepSpeed {to} 不再拒绝此处（{from} 会拒绝）：{}",
                    d.message.zh
                ),
            ),
            fix: None,
            line: d.line,
        });
    }
    default_changes(doc, from, to, &mut changes);
    changes.sort_by_key(|c| (c.line.unwrap_or(0), c.kind as u8));
    let fixed = apply(doc, &changes, false);
    let errors_after_fixes = validate(
        &fixed,
        &Context {
            deepspeed_version: to.to_string(),
            ..ctx.clone()
        },
    )
    .iter()
    .filter(|d| d.severity == Severity::Error)
    .count();
    Upgrade {
        from,
        to,
        changes,
        errors_after_fixes,
    }
}

/// Keys left unset whose default differs between the two releases (in sections the config has).
fn default_changes(doc: &Document, from: Release, to: Release, out: &mut Vec<Change>) {
    let Some(root) = doc.root().filter(|r| r.is_object()) else {
        return;
    };
    for spec in registry().keys() {
        if spec.defaults.is_empty() || !spec.known_in(from) || !spec.known_in(to) {
            continue;
        }
        let (old, new) = (spec.default_at(from), spec.default_at(to));
        if old == new {
            continue;
        }
        let tokens: Vec<&str> = spec.path.split('.').collect();
        let pointer: String = tokens
            .iter()
            .map(|t| format!("/{}", escape_token(t)))
            .collect();
        let parent: String = tokens[..tokens.len() - 1]
            .iter()
            .map(|t| format!("/{}", escape_token(t)))
            .collect();
        if doc.get(&pointer).is_some() || !(parent.is_empty() || doc.get(&parent).is_some()) {
            continue;
        }
        let _ = root;
        let show = |v: Option<&Value>| v.map_or("unset".to_string(), Value::to_string);
        let (old_s, new_s) = (show(old), show(new));
        let changed_in = spec
            .defaults
            .iter()
            .filter(|(r, _)| (*r > from.min(to)) && (*r <= from.max(to)))
            .map(|(r, _)| r.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        out.push(Change {
            kind: ChangeKind::Default,
            path: pointer.clone(),
            message: Text::new(
                format!("`{}` is not set: its default changes from {old_s} (DeepSpeed {from}) to {new_s} (DeepSpeed {to}; changed in {changed_in}). Set it to {old_s} to keep the old behaviour", spec.path),
                format!("`{}` 未设置：其默认值从 {old_s}（DeepSpeed {from}）变为 {new_s}（DeepSpeed {to}；于 {changed_in} 变更）。如需保持原行为，请显式设为 {old_s}", spec.path),
            ),
            fix: old.map(|v| json!([{"op": "add", "path": pointer, "value": v}])),
            line: None,
        });
    }
}

/// The config with the fixes of `changes` applied: those that make it work in the new
/// release, plus the default pins when `keep_defaults`. A fix that no longer applies (an
/// earlier one removed its section) is skipped.
pub fn apply(doc: &Document, changes: &[Change], keep_defaults: bool) -> Document {
    let mut out = doc.clone();
    for c in changes {
        if c.kind == ChangeKind::Default && !keep_defaults || c.kind == ChangeKind::Ignored {
            continue;
        }
        if let Some(fix) = &c.fix {
            if let Ok(next) = out.apply_patch(fix) {
                out = next;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Release {
        Release::parse(s).unwrap()
    }

    #[test]
    fn amp_is_removed_and_clipping_changes_default_from_0_18_4_to_0_19_8() {
        let text = "{\n  // mixed precision through apex\n  \"train_batch_size\": 8,\n  \"amp\": {\"enabled\": true, \"opt_level\": \"O1\"}\n}\n";
        let doc = Document::parse(text);
        let up = upgrade(&doc, &Context::default(), r("0.18.4"), r("0.19.8"));
        let kinds: Vec<(ChangeKind, &str)> = up
            .changes
            .iter()
            .map(|c| (c.kind, c.path.as_str()))
            .collect();
        assert!(kinds.contains(&(ChangeKind::Removed, "/amp")), "{kinds:?}");
        assert!(
            kinds.contains(&(ChangeKind::Default, "/gradient_clipping")),
            "{kinds:?}"
        );
        let removed = up
            .changes
            .iter()
            .find(|c| c.kind == ChangeKind::Removed)
            .unwrap();
        assert!(
            removed.message.en.contains("torch_autocast"),
            "{}",
            removed.message.en
        );
        let fixed = apply(&doc, &up.changes, false);
        assert!(fixed.get("/amp").is_none());
        // Mixed precision is kept: apex amp becomes DeepSpeed's fp16 mode.
        assert_eq!(fixed.get("/fp16/enabled").unwrap().to_value(), json!(true));
        assert!(fixed.text().contains("// mixed precision through apex"));
        assert_eq!(up.errors_after_fixes, 0);
        let pinned = apply(&doc, &up.changes, true);
        assert_eq!(
            pinned.get("/gradient_clipping").unwrap().to_value(),
            json!(0.0)
        );
    }

    #[test]
    fn nothing_to_change_keeps_the_text() {
        let text = "{\"train_batch_size\": 8, \"gradient_clipping\": 1.0, \"zero_optimization\": {\"stage\": 2}}";
        let doc = Document::parse(text);
        let up = upgrade(&doc, &Context::default(), r("0.19.5"), r("0.19.8"));
        assert!(
            up.changes.iter().all(|c| c.kind == ChangeKind::Default),
            "{:?}",
            up.changes
        );
        assert_eq!(apply(&doc, &up.changes, false).text(), text);
    }

    #[test]
    fn an_error_the_new_release_drops_is_listed_as_resolved() {
        let doc = Document::parse(
            r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW"}, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "zenflow": {"topk_ratio": 0.1}}}"#,
        );
        let up = upgrade(&doc, &Context::default(), r("0.17.4"), r("0.19.8"));
        assert!(up
            .changes
            .iter()
            .any(|c| c.kind == ChangeKind::Resolved && c.path == "/zero_optimization/zenflow"));
    }

    #[test]
    fn a_downgrade_names_keys_the_old_release_rejects() {
        let doc = Document::parse(
            r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "zenflow": {"topk_ratio": 0.1}}}"#,
        );
        let up = upgrade(&doc, &Context::default(), r("0.19.8"), r("0.17.4"));
        let c = up
            .changes
            .iter()
            .find(|c| c.path == "/zero_optimization/zenflow")
            .expect("zenflow listed");
        assert_eq!(c.kind, ChangeKind::Rejected);
        assert!(
            c.message.en.contains("arrived in DeepSpeed 0.17.5"),
            "{}",
            c.message.en
        );
    }
}
