//! The validator: `validate(document, context) -> Vec<Diagnostic>`.
//!
//! - **Errors** are exactly what the context's DeepSpeed release (0.14.4 – 0.19.8, default the
//!   newest) rejects when it parses the config (`DeepSpeedConfig`) or starts the engine, where
//!   the config alone decides.
//! - **Warnings** are what DeepSpeed silently accepts but is almost surely a mistake.
//! - **Hints** (info) are tuning advice, each with its reason.
//!
//! Validation never stops at the first problem; it walks the whole tree ([`walk`]) with the
//! registry's metadata and then runs the cross-key rules ([`rules`]).
//!
//! The verdict is `rejected` exactly when there is an error ([`verdict`]). Validation never
//! panics and stays linear in hostile input (`tests/hostile.rs`); at most `MAX_DIAGNOSTICS` are
//! listed, the last counting the rest. One key, one story: a warning that DeepSpeed lets a key
//! pass is dropped where an error names that key (`drop_contradicted`).

mod coerce;
pub(crate) mod rules;
mod value;
mod view;
mod walk;

pub use crate::registry::deepspeed_optimizers as deepspeed_optimizer_names;
pub use crate::vocab::{
    apply_text_fix, Context, Diagnostic, Launcher, Severity, TextEdit, Verdict, AUTO_KEYS,
};
pub use rules::batch::{derive as derive_batch, Triple};
pub(crate) use view::View;

use crate::document::{Document, Kind};
use crate::i18n::Text;

/// Validates a parsed document. Diagnostics come sorted by position in the text.
pub fn validate(doc: &Document, ctx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Err(e) = ctx.release() {
        // Judging for a release we do not know would be a guess: say so, and nothing else.
        out.push(Diagnostic::error(
            "unknown-release",
            "",
            Text::new(
                e.to_string(),
                format!(
                    "未知的 DeepSpeed 版本 '{}'：ds-studio 支持 {} 之间的任一版本",
                    e.0.chars().take(40).collect::<String>(),
                    crate::release::Release::range_text()
                ),
            ),
        ));
        return out;
    }
    // Under the HF launchers the file is read with json.load, not hjson.
    let json_load = ctx.launcher.fills_auto();
    let reread = if json_load {
        crate::launcher::reader::as_json_load_reads(doc)
    } else {
        None
    };
    let doc = reread.as_ref().unwrap_or(doc);
    if json_load {
        out.extend(crate::launcher::reader::extensions(doc, ctx.launcher));
    }
    for e in doc.errors() {
        if json_load {
            let (severity, code, message) =
                crate::launcher::reader::parse_error(&e.message, ctx.launcher);
            let mut d =
                Diagnostic::new(severity, &code, e.pointer.as_deref().unwrap_or(""), message);
            d.line = Some(e.line).filter(|l| *l > 0);
            d.column = Some(e.column).filter(|c| *c > 0);
            out.push(d);
            continue;
        }
        let duplicate = e.message.starts_with("duplicate key");
        out.push(Diagnostic {
            severity: Severity::Error,
            code: if duplicate { "duplicate-key" } else { "syntax" }.into(),
            path: e.pointer.clone().unwrap_or_default(),
            message: if let Some(more) = e
                .message
                .strip_prefix("duplicate key: ")
                .and_then(|m| m.split(' ').next())
                .filter(|_| e.message.contains("more duplicate keys"))
            {
                Text::new(
                    format!("{more} more duplicate keys not listed — DeepSpeed raises \"Duplicate keys in DeepSpeed config\""),
                    format!("另有 {more} 个重复的键未列出：DeepSpeed 会报错 \"Duplicate keys in DeepSpeed config\""),
                )
            } else if duplicate {
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
                    format!("不是合法的 JSON/hjson：{}", e.zh.as_deref().unwrap_or(&e.message)),
                )
            },
            fix: None,
            text_fix: None,
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
                        "DeepSpeed 配置必须是 JSON 对象，实际是{}",
                        root.type_name_zh()
                    ),
                ),
            ));
        } else if doc.errors().is_empty()
            || doc
                .errors()
                .iter()
                .all(|e| e.message.starts_with("duplicate key"))
        {
            if ctx.launcher.fills_auto() {
                // HF processes the dict first; DeepSpeed judges what HF hands over.
                let run = crate::launcher::hf::run(root, ctx);
                out.extend(run.diagnostics);
                out.extend(crate::launcher::assumed_defaults(root, ctx));
                if !run.stopped {
                    let ds_ctx = ctx.after_hf();
                    let view = View::new(&run.dict, &ds_ctx);
                    let mut ds = Vec::new();
                    walk::walk(&view, &mut ds);
                    rules::run(&view, &mut ds);
                    // Advice about a value HF wrote is not the user's to act on; an error
                    // still decides the verdict (its message names the value).
                    let written: std::collections::HashSet<String> = run
                        .filled
                        .iter()
                        .map(|f| crate::launcher::hf::pointer(&f.path))
                        .collect();
                    // DeepSpeed's findings about an "auto" HF refused repeat HF's error.
                    let refused: Vec<(String, String, &str)> = run
                        .refused
                        .iter()
                        .map(|r| {
                            let (parent, key) = r.rsplit_once('.').unwrap_or(("", r));
                            let parent = if parent.is_empty() {
                                String::new()
                            } else {
                                crate::launcher::hf::pointer(parent)
                            };
                            (crate::launcher::hf::pointer(r), parent, key)
                        })
                        .collect();
                    out.extend(ds.into_iter().filter_map(|mut d| {
                        if refused.iter().any(|(own, parent, key)| {
                            d.path == *own || (d.path == *parent && d.message.en.contains(key))
                        }) {
                            return None;
                        }
                        if written.contains(&d.path) {
                            if d.severity != Severity::Error {
                                return None;
                            }
                            d.fix = None;
                        }
                        Some(d)
                    }));
                }
            } else {
                let mut view = View::new(root, ctx);
                view.has_duplicates = !doc.errors().is_empty();
                walk::walk(&view, &mut out);
                rules::run(&view, &mut out);
            }
        }
    }
    // A pointer through megabyte keys names its nearest ancestor that fits.
    for d in &mut out {
        if d.path.len() > crate::document::MAX_POINTER {
            let mut end = crate::document::MAX_POINTER + 1;
            while !d.path.is_char_boundary(end) {
                end -= 1;
            }
            let cut = d.path[..end].rfind('/').unwrap_or(0);
            d.path.truncate(cut);
        }
    }
    drop_contradicted(&mut out);
    locate_all(doc, &mut out);
    out.sort_by(|a, b| {
        (a.line.unwrap_or(0), a.column.unwrap_or(0), a.severity).cmp(&(
            b.line.unwrap_or(0),
            b.column.unwrap_or(0),
            b.severity,
        ))
    });
    out.dedup_by(|a, b| a.code == b.code && a.path == b.path && a.message == b.message);
    cap(&mut out);
    out
}

/// Warnings that say DeepSpeed lets a key pass (`unknown-key`: "silently ignores it";
/// `wrong-type`: "should be") where an error on the same key says it fails: the error is the
/// whole truth, the warning would contradict it.
const CONTRADICTED_BY_AN_ERROR: &[&str] = &["unknown-key", "wrong-type"];

fn drop_contradicted(out: &mut Vec<Diagnostic>) {
    if !out.iter().any(|d| {
        d.severity == Severity::Warning && CONTRADICTED_BY_AN_ERROR.contains(&d.code.as_str())
    }) {
        return;
    }
    let failing: std::collections::HashSet<String> = out
        .iter()
        .filter(|d| d.severity == Severity::Error && !d.path.is_empty())
        .map(|d| d.path.clone())
        .collect();
    out.retain(|d| {
        !(d.severity == Severity::Warning
            && CONTRADICTED_BY_AN_ERROR.contains(&d.code.as_str())
            && failing.contains(&d.path))
    });
}

/// Most diagnostics listed for one document; the rest become one last diagnostic that counts
/// them (with the most severe severity among them, so the verdict does not change).
pub const MAX_DIAGNOSTICS: usize = 500;

fn cap(out: &mut Vec<Diagnostic>) {
    if out.len() <= MAX_DIAGNOSTICS {
        return;
    }
    let rest = out.split_off(MAX_DIAGNOSTICS - 1);
    let severity = rest
        .iter()
        .map(|d| d.severity)
        .min()
        .unwrap_or(Severity::Info);
    let n = rest.len();
    // Past twice the limit the walk keeps only the first error, so the count is a lower bound.
    let (at_least_en, at_least_zh) = if out.len() + n >= 2 * MAX_DIAGNOSTICS {
        ("at least ", "至少")
    } else {
        ("", "")
    };
    let first = &rest[0];
    let shown = MAX_DIAGNOSTICS - 1;
    out.push(Diagnostic {
        severity,
        code: "more-diagnostics".into(),
        path: first.path.clone(),
        message: Text::new(
            format!("{at_least_en}{n} more problems not listed (only the first {shown} are shown); fix these first"),
            format!("另有{at_least_zh} {n} 个问题未列出（只显示前 {shown} 个），请先修正上面的问题"),
        ),
        fix: None,
        text_fix: None,
        line: first.line,
        column: first.column,
    });
}

/// Fills in line and column of every diagnostic that has none: each from the member key (or
/// value) its pointer names, or the nearest existing ancestor. The pointers are followed with
/// key indexes for large objects and all positions come from one sweep over the text, so the
/// cost stays linear in the document and the diagnostics.
fn locate_all(doc: &Document, out: &mut [Diagnostic]) {
    let Some(root) = doc.root() else { return };
    let missing: Vec<usize> = (0..out.len()).filter(|&i| out[i].line.is_none()).collect();
    if missing.is_empty() {
        return;
    }
    let mut locator = crate::document::Locator::new(root);
    let offsets: Vec<usize> = missing
        .iter()
        .map(|&i| locator.offset(&out[i].path))
        .collect();
    for (&i, (line, column)) in missing.iter().zip(doc.line_cols(&offsets)) {
        out[i].line = Some(line);
        out[i].column = Some(column);
    }
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
