//! What the language server answers, from the validator and the key registry: diagnostics
//! (the same as `ds-studio validate`), fixes as code actions, hover and completion.

use super::text::LineIndex;
use ds_studio_shared::document::{split_pointer, Document, Kind, Node};
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::registry::{registry, KeySpec, Ty};
use ds_studio_shared::{Context, Diagnostic, Launcher, Release, Severity};
use lsp_types as lsp;
use std::collections::HashMap;

/// Top-level keys only a DeepSpeed config has.
const DISTINCTIVE: [&str; 6] = [
    "train_batch_size",
    "train_micro_batch_size_per_gpu",
    "zero_optimization",
    "gradient_accumulation_steps",
    "zero_allow_untested_optimizer",
    "steps_per_print",
];

/// Whether a JSON/hjson file is a DeepSpeed config: named like one (`ds_config*.json`,
/// `*deepspeed*.json`, `zero*.json`), or holding a key only DeepSpeed configs hold. Others (a
/// package.json, a tsconfig) get nothing from this server.
pub fn looks_like_config(path: &str, doc: &Document) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    if name.starts_with("ds_config")
        || name.contains("deepspeed")
        || (name.starts_with("zero") && name.ends_with(".json"))
    {
        return true;
    }
    doc.root().is_some_and(|r| {
        r.members()
            .iter()
            .any(|m| DISTINCTIVE.contains(&m.key.as_str()))
    })
}

/// The release of a context (the newest when the context names none it knows).
pub fn release_of(ctx: &Context) -> Release {
    ctx.release().unwrap_or_else(|_| Release::newest())
}

/// The codes about a value (squiggled there); the others are about the key.
const VALUE_CODES: [&str; 11] = [
    "invalid-type",
    "invalid-value",
    "out-of-range",
    "wrong-type",
    "bool-as-string",
    "coerced-value",
    "auto-unresolved",
    "launcher-mismatch",
    "launcher-auto-unfilled",
    "batch-size",
    "batch-mismatch",
];

/// Where a diagnostic points: the key of the member it names (or the value, for a value
/// that fits on a line), its line and column for a syntax error, else the first character.
fn span_of(doc: &Document, idx: &LineIndex, d: &Diagnostic) -> std::ops::Range<usize> {
    let tokens = split_pointer(&d.path);
    if let Some((last, parent)) = tokens.split_last() {
        let mut node = doc.root();
        for t in parent {
            node = node.and_then(|n| n.child(t));
        }
        if let Some(m) = node.and_then(|n| n.member(last)) {
            let value = &m.value.span;
            let one_line = !doc.text()[value.clone()].contains('\n');
            if one_line && VALUE_CODES.contains(&d.code.as_str()) {
                return value.clone();
            }
            return m.key_span.clone();
        }
        if let Some(n) = node.and_then(|n| n.child(last)) {
            let first_line = doc.text()[n.span.clone()]
                .find('\n')
                .map_or(n.span.end, |i| n.span.start + i);
            return n.span.start..first_line;
        }
    }
    if let (Some(line), Some(col)) = (d.line, d.column) {
        let at = idx.offset_of_line_col(line, col);
        let next = doc.text()[at..].chars().next().map_or(0, char::len_utf8);
        return at..at + next;
    }
    0..doc.text().chars().next().map_or(0, char::len_utf8)
}

/// The validator's diagnostics as LSP diagnostics.
pub fn diagnostics(doc: &Document, diags: &[Diagnostic], lang: Lang) -> Vec<lsp::Diagnostic> {
    let idx = LineIndex::new(doc.text());
    diags
        .iter()
        .map(|d| lsp::Diagnostic {
            range: idx.range(span_of(doc, &idx, d)),
            severity: Some(match d.severity {
                Severity::Error => lsp::DiagnosticSeverity::ERROR,
                Severity::Warning => lsp::DiagnosticSeverity::WARNING,
                Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
            }),
            code: Some(lsp::NumberOrString::String(d.code.clone())),
            source: Some("ds-studio".into()),
            message: d.message.get(lang).to_string(),
            ..Default::default()
        })
        .collect()
}

/// The fixes of the diagnostics whose range meets `range`, as code actions (a JSON patch
/// becomes one edit of the whole text, a text fix its own edits).
pub fn code_actions(
    uri: &lsp::Uri,
    doc: &Document,
    diags: &[Diagnostic],
    range: lsp::Range,
    lang: Lang,
) -> Vec<lsp::CodeActionOrCommand> {
    let idx = LineIndex::new(doc.text());
    let published = diagnostics(doc, diags, lang);
    let meets = |r: &lsp::Range| !(r.end < range.start || range.end < r.start);
    let mut out = Vec::new();
    for (d, shown) in diags.iter().zip(published) {
        if !meets(&shown.range) {
            continue;
        }
        let edits = if let Some(edits) = &d.text_fix {
            edits
                .iter()
                .map(|e| lsp::TextEdit::new(idx.range(e.start..e.end), e.text.clone()))
                .collect()
        } else if let Some(patch) = &d.fix {
            match doc.apply_patch(patch) {
                Ok(fixed) => vec![lsp::TextEdit::new(idx.all(), fixed.text().to_string())],
                Err(_) => continue,
            }
        } else {
            continue;
        };
        let title = match lang {
            Lang::Zh => format!("修复：{}", short(&shown.message)),
            Lang::En => format!("Fix: {}", short(&shown.message)),
        };
        out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title,
            kind: Some(lsp::CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![shown]),
            edit: Some(lsp::WorkspaceEdit {
                changes: Some(HashMap::from([(uri.clone(), edits)])),
                ..Default::default()
            }),
            is_preferred: Some(true),
            ..Default::default()
        }));
    }
    out
}

fn short(message: &str) -> String {
    let first = message.split([':', '：', ';']).next().unwrap_or(message);
    first.chars().take(90).collect()
}

/// The member keys from the root to the key under `offset`, if the offset is on a key.
fn key_at(node: &Node, offset: usize, trail: &mut Vec<String>) -> bool {
    for m in node.members() {
        if m.key_span.contains(&offset) || m.key_span.end == offset {
            trail.push(m.key.clone());
            return true;
        }
        if m.value.span.contains(&offset) {
            trail.push(m.key.clone());
            if key_at(&m.value, offset, trail) {
                return true;
            }
            trail.pop();
        }
    }
    false
}

/// The hover on a key: its documentation and facts for the context's release and launcher.
pub fn hover(doc: &Document, pos: lsp::Position, ctx: &Context, lang: Lang) -> Option<lsp::Hover> {
    let idx = LineIndex::new(doc.text());
    let offset = idx.offset(pos);
    let mut trail = Vec::new();
    if !key_at(doc.root()?, offset, &mut trail) {
        return None;
    }
    let tokens: Vec<&str> = trail.iter().map(String::as_str).collect();
    let text = match registry().resolve(&tokens) {
        Some(spec) => {
            ds_studio_shared::schema::key_markdown(spec, release_of(ctx), ctx.launcher, lang)
        }
        None => param_markdown(doc, &tokens, lang)?,
    };
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    })
}

/// `optimizer.params.<name>` / `scheduler.params.<name>`: the parameter of the config's type.
fn param_markdown(doc: &Document, tokens: &[&str], lang: Lang) -> Option<String> {
    let [section @ ("optimizer" | "scheduler"), "params", name] = tokens else {
        return None;
    };
    let ty = doc.get(&format!("/{section}/type"))?.as_str()?;
    let reg = registry();
    let family = if *section == "optimizer" {
        reg.optimizer(ty)
    } else {
        reg.schedulers.get(ty)
    }?;
    let p = family.params.get(*name)?;
    let doc = if lang == Lang::Zh && !p.zh.is_empty() {
        &p.zh
    } else {
        &p.en
    };
    Some(format!(
        "**`{section}.params.{name}`** ({})\n\n{doc}",
        family.class
    ))
}

/// Completion: the keys the object under the cursor may take (not those it has), or the
/// values a key takes after its colon.
pub fn completion(
    doc: &Document,
    pos: lsp::Position,
    ctx: &Context,
    lang: Lang,
) -> Vec<lsp::CompletionItem> {
    let idx = LineIndex::new(doc.text());
    let offset = idx.offset(pos);
    let text = doc.text();
    let before = &text[..offset];
    let line = before.rsplit('\n').next().unwrap_or(before);
    let release = release_of(ctx);
    // After `"key": ` on this line: the key's values.
    if let Some((head, _)) = line.rsplit_once(':') {
        let key = head.trim().trim_matches('"');
        let mut trail = Vec::new();
        object_at(doc.root(), offset, &mut trail);
        trail.push(key.to_string());
        let tokens: Vec<&str> = trail.iter().map(String::as_str).collect();
        return registry()
            .resolve(&tokens)
            .map(|spec| values(spec, ctx.launcher, lang))
            .unwrap_or_default();
    }
    let mut trail = Vec::new();
    let Some(obj) = object_at(doc.root(), offset, &mut trail) else {
        return Vec::new();
    };
    let parent = if trail.is_empty() {
        Some(String::new())
    } else {
        let tokens: Vec<&str> = trail.iter().map(String::as_str).collect();
        registry().resolve(&tokens).map(|s| s.path.clone())
    };
    let Some(parent) = parent else {
        return Vec::new();
    };
    let quoted = line.trim_end().ends_with('"');
    registry()
        .children_of(&parent)
        .filter(|k| k.known_in(release) && !k.name().starts_with('<'))
        .filter(|k| obj.member(k.name()).is_none())
        .map(|k| {
            let doc = if lang == Lang::Zh {
                &k.doc.zh
            } else {
                &k.doc.en
            };
            lsp::CompletionItem {
                label: k.name().to_string(),
                kind: Some(lsp::CompletionItemKind::PROPERTY),
                detail: k.default_text_at(release).map(|d| format!("= {d}")),
                documentation: Some(lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value: doc.clone(),
                })),
                deprecated: Some(k.deprecated),
                insert_text: Some(if quoted {
                    k.name().to_string()
                } else {
                    format!("\"{}\"", k.name())
                }),
                filter_text: Some(k.name().to_string()),
                ..Default::default()
            }
        })
        .collect()
}

/// The innermost object whose braces hold `offset`, with the keys leading to it.
fn object_at<'a>(
    node: Option<&'a Node>,
    offset: usize,
    trail: &mut Vec<String>,
) -> Option<&'a Node> {
    let node = node?;
    let inside = node.span.start < offset && offset < node.span.end;
    if !matches!(node.kind, Kind::Object(_)) || !inside {
        return None;
    }
    for m in node.members() {
        if m.value.span.start < offset && offset < m.value.span.end {
            trail.push(m.key.clone());
            if let Some(inner) = object_at(Some(&m.value), offset, trail) {
                return Some(inner);
            }
            trail.pop();
        }
    }
    Some(node)
}

/// A key's values: its allowed ones, booleans, and "auto" where the launcher fills it.
fn values(spec: &KeySpec, launcher: Launcher, lang: Lang) -> Vec<lsp::CompletionItem> {
    let mut out: Vec<String> = spec
        .r#enum
        .iter()
        .map(|e| {
            if spec.accepts(Ty::Int) {
                e.clone()
            } else {
                format!("\"{e}\"")
            }
        })
        .collect();
    if spec.accepts(Ty::Bool) {
        out.extend(["true".into(), "false".into()]);
    }
    if spec.accepts(Ty::Auto)
        || (launcher.fills_auto() && ds_studio_shared::AUTO_KEYS.contains(&spec.path.as_str()))
    {
        out.push("\"auto\"".into());
    }
    let detail = match lang {
        Lang::Zh => spec.doc.zh.chars().take(80).collect::<String>(),
        Lang::En => spec.doc.en.chars().take(80).collect::<String>(),
    };
    out.into_iter()
        .map(|v| lsp::CompletionItem {
            label: v.clone(),
            kind: Some(lsp::CompletionItemKind::VALUE),
            detail: Some(detail.clone()),
            ..Default::default()
        })
        .collect()
}
