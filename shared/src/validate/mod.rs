//! The validator: `validate(document, context) -> Vec<Diagnostic>`.
//!
//! - **Errors** are exactly what DeepSpeed 0.19.8 rejects when it parses the config
//!   (`DeepSpeedConfig`) or starts the engine, where the config alone decides.
//! - **Warnings** are what DeepSpeed silently accepts but is almost surely a mistake.
//! - **Hints** (info) are tuning advice, each with its reason.
//!
//! Validation never stops at the first problem; it walks the whole tree ([`walk`]) with the
//! registry's metadata and then runs the cross-key rules ([`rules`]).

mod coerce;
mod context;
mod diagnostic;
pub(crate) mod rules;
mod view;
mod walk;

pub use context::{Context, Launcher, AUTO_KEYS};
pub use diagnostic::{Diagnostic, Severity, Verdict};
pub use rules::batch::{derive as derive_batch, Triple};
pub(crate) use view::View;

use crate::document::{Document, Kind};
use crate::i18n::Text;

/// Validates a parsed document. Diagnostics come sorted by position in the text.
pub fn validate(doc: &Document, ctx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for e in doc.errors() {
        let duplicate = e.message.starts_with("duplicate key");
        out.push(Diagnostic {
            severity: Severity::Error,
            code: if duplicate { "duplicate-key" } else { "syntax" }.into(),
            path: e.pointer.clone().unwrap_or_default(),
            message: if duplicate {
                Text::new(
                    format!(
                        "{} — DeepSpeed raises \"Duplicate keys in DeepSpeed config\"",
                        e.message
                    ),
                    format!(
                        "{}：DeepSpeed 会报错 \"Duplicate keys in DeepSpeed config\"",
                        e.message
                            .replace("duplicate key", "重复的键")
                            .replace("(DeepSpeed rejects duplicate keys)", "")
                    ),
                )
            } else {
                Text::new(
                    format!("not valid JSON or hjson: {}", e.message),
                    format!("不是合法的 JSON/hjson：{}", e.message),
                )
            },
            fix: None,
            line: Some(e.line),
            column: Some(e.column),
        });
    }
    if let Some(root) = doc.root() {
        if !matches!(root.kind, Kind::Object(_)) {
            out.push(Diagnostic::error(
                "not-an-object",
                "",
                Text::new(
                    format!(
                        "a DeepSpeed config must be a JSON object, found {}",
                        root.type_name()
                    ),
                    format!(
                        "DeepSpeed 配置必须是 JSON 对象，实际是 {}",
                        root.type_name()
                    ),
                ),
            ));
        } else if doc.errors().is_empty()
            || doc
                .errors()
                .iter()
                .all(|e| e.message.starts_with("duplicate key"))
        {
            let view = View::new(root, ctx);
            walk::walk(&view, &mut out);
            rules::run(&view, &mut out);
        }
    }
    for d in &mut out {
        if d.line.is_none() {
            if let Some((line, column)) = locate(doc, &d.path) {
                d.line = Some(line);
                d.column = Some(column);
            }
        }
    }
    out.sort_by(|a, b| {
        (a.line.unwrap_or(0), a.column.unwrap_or(0), a.severity).cmp(&(
            b.line.unwrap_or(0),
            b.column.unwrap_or(0),
            b.severity,
        ))
    });
    out.dedup_by(|a, b| a.code == b.code && a.path == b.path && a.message == b.message);
    out
}

/// Validates raw text (parse + validate).
pub fn validate_text(text: &str, ctx: &Context) -> (Document, Vec<Diagnostic>) {
    let doc = Document::parse(text);
    let diags = validate(&doc, ctx);
    (doc, diags)
}

/// `rejected` if and only if there is an error.
pub fn verdict(diags: &[Diagnostic]) -> Verdict {
    if diags.iter().any(|d| d.severity == Severity::Error) {
        Verdict::Rejected
    } else {
        Verdict::Accepted
    }
}

/// Line and column of the member key (or the value) a pointer names; the nearest existing
/// ancestor when the pointer names something missing.
fn locate(doc: &Document, pointer: &str) -> Option<(usize, usize)> {
    let root = doc.root()?;
    let tokens = crate::document::split_pointer(pointer);
    let mut node = root;
    let mut offset = root.span.start;
    for t in &tokens {
        if let Some(m) = node.member(t) {
            offset = m.key_span.start;
            node = &m.value;
        } else if let Some(child) = node.child(t) {
            offset = child.span.start;
            node = child;
        } else {
            break;
        }
    }
    Some(doc.line_col(offset))
}
