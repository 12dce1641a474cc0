//! What the language server answers, from the validator and the key registry: diagnostics
//! (the same as `ds-studio validate`), fixes as code actions, hover and completion.

use super::text::LineIndex;
use ds_studio_shared::document::{split_pointer, Document, Kind, Node};
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::registry::{described, KeySpec, Ty};
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
        let title = d
            .fix
            .as_ref()
            .and_then(|p| patch_title(p, lang))
            .unwrap_or_else(|| match lang {
                Lang::Zh => format!("修复：{}", short(&shown.message)),
                Lang::En => format!("Fix: {}", short(&shown.message)),
            });
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

/// What a JSON patch does, in words: "Rename `overlap_com` to `overlap_comm`", "Set
/// `fp16.enabled` to "auto"", "Remove `amp`", "Add `zero_optimization`: {"stage": 0}".
fn patch_title(patch: &serde_json::Value, lang: Lang) -> Option<String> {
    let dotted = |p: &str| split_pointer(p).join(".");
    let short = |v: &serde_json::Value| {
        let t = v.to_string();
        if t.chars().count() > 40 {
            format!("{}…", t.chars().take(40).collect::<String>())
        } else {
            t
        }
    };
    let words: Vec<String> = patch
        .as_array()?
        .iter()
        .map(|op| {
            let path = dotted(op["path"].as_str().unwrap_or(""));
            let zh = lang == Lang::Zh;
            match op["op"].as_str().unwrap_or("") {
                "move" => {
                    let from = op["from"].as_str().unwrap_or("");
                    let to = op["path"].as_str().unwrap_or("");
                    let same_parent =
                        from.rsplit_once('/').map(|p| p.0) == to.rsplit_once('/').map(|p| p.0);
                    let (f, t) = (dotted(from), path.clone());
                    match (same_parent, zh) {
                        (true, false) => {
                            format!("Rename `{f}` to `{}`", t.rsplit('.').next().unwrap_or(&t))
                        }
                        (true, true) => {
                            format!("把 `{f}` 改名为 `{}`", t.rsplit('.').next().unwrap_or(&t))
                        }
                        (false, false) => format!("Move `{f}` to `{t}`"),
                        (false, true) => format!("把 `{f}` 移到 `{t}`"),
                    }
                }
                "replace" if zh => format!("把 `{path}` 设为 {}", short(&op["value"])),
                "replace" => format!("Set `{path}` to {}", short(&op["value"])),
                "remove" if zh => format!("删除 `{path}`"),
                "remove" => format!("Remove `{path}`"),
                "add" if zh => format!("添加 `{path}`：{}", short(&op["value"])),
                "add" => format!("Add `{path}`: {}", short(&op["value"])),
                other => other.to_string(),
            }
        })
        .collect();
    (!words.is_empty()).then(|| words.join(if lang == Lang::Zh { "；" } else { "; " }))
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
            // On a plain value the hover is its key's.
            if !matches!(m.value.kind, Kind::Object(_) | Kind::Array(_))
                || key_at(&m.value, offset, trail)
            {
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
    let text = match described().resolve(&tokens) {
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
    let reg = described();
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

/// Where the cursor is, read from the text before it alone (while typing, the document is
/// rarely valid JSON): the keys of the enclosing objects, the key whose value is being typed
/// (after its colon), the keys already written in the innermost object, and the string being
/// typed (after an opening quote).
#[derive(Debug, Default, PartialEq)]
struct Cursor {
    path: Vec<String>,
    value_of: Option<String>,
    siblings: Vec<String>,
    typing: Option<String>,
}

fn scan(before: &str) -> Cursor {
    // One frame per open object or array: (key it is under, keys seen, pending key, after colon).
    struct Frame {
        under: Option<String>,
        object: bool,
        seen: Vec<String>,
        key: Option<String>,
        after_colon: bool,
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut last_string: Option<String> = None;
    let mut chars = before.char_indices().peekable();
    let mut open_string: Option<String> = None;
    while let Some((_, c)) = chars.next() {
        match c {
            '"' | '\'' => {
                let mut s = String::new();
                let mut closed = false;
                while let Some((_, d)) = chars.next() {
                    if d == '\\' {
                        if let Some((_, e)) = chars.next() {
                            s.push(e);
                        }
                    } else if d == c {
                        closed = true;
                        break;
                    } else {
                        s.push(d);
                    }
                }
                if closed {
                    last_string = Some(s);
                } else {
                    open_string = Some(s);
                }
            }
            '/' if chars.peek().is_some_and(|(_, d)| *d == '/') => {
                for (_, d) in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '#' => {
                for (_, d) in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '{' | '[' => {
                let under = stack
                    .last()
                    .and_then(|f| if f.object { f.key.clone() } else { None });
                stack.push(Frame {
                    under,
                    object: c == '{',
                    seen: Vec::new(),
                    key: None,
                    after_colon: false,
                });
                last_string = None;
            }
            '}' | ']' => {
                stack.pop();
                last_string = None;
            }
            ':' => {
                if let Some(f) = stack.last_mut() {
                    if let Some(k) = last_string.take() {
                        f.seen.push(k.clone());
                        f.key = Some(k);
                    }
                    f.after_colon = true;
                }
            }
            ',' => {
                if let Some(f) = stack.last_mut() {
                    f.key = None;
                    f.after_colon = false;
                }
                last_string = None;
            }
            _ => {}
        }
    }
    let mut cur = Cursor {
        typing: open_string,
        ..Default::default()
    };
    // Only objects below objects make a key path; inside an array nothing is offered.
    if stack.iter().any(|f| !f.object) {
        return Cursor::default();
    }
    cur.path = stack.iter().filter_map(|f| f.under.clone()).collect();
    if let Some(f) = stack.last() {
        cur.siblings = f.seen.clone();
        if f.after_colon {
            cur.value_of = f.key.clone();
        }
    } else {
        return Cursor::default();
    }
    cur
}

/// Completion: the keys the object under the cursor may take (not those it has), or the
/// values a key takes after its colon. Works on the text before the cursor, so a half-typed
/// document completes too.
pub fn completion(
    doc: &Document,
    pos: lsp::Position,
    ctx: &Context,
    lang: Lang,
) -> Vec<lsp::CompletionItem> {
    let idx = LineIndex::new(doc.text());
    let offset = idx.offset(pos);
    let cur = scan(&doc.text()[..offset]);
    let release = release_of(ctx);
    let quoted = cur.typing.is_some();
    let tokens: Vec<&str> = cur.path.iter().map(String::as_str).collect();
    if let Some(key) = &cur.value_of {
        let mut full = tokens.clone();
        full.push(key);
        return described()
            .resolve(&full)
            .map(|spec| values(spec, release, ctx.launcher, lang, quoted))
            .unwrap_or_default();
    }
    let parent = if tokens.is_empty() {
        Some(String::new())
    } else {
        described().resolve(&tokens).map(|s| s.path.clone())
    };
    let Some(parent) = parent else {
        return Vec::new();
    };
    described()
        .children_of(&parent)
        .filter(|k| k.known_in(release) && !k.name().starts_with('<'))
        .filter(|k| !cur.siblings.iter().any(|s| s == k.name()))
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

/// A key's values: its allowed ones, booleans, and "auto" where the launcher fills it.
fn values(
    spec: &KeySpec,
    release: Release,
    launcher: Launcher,
    lang: Lang,
    quoted: bool,
) -> Vec<lsp::CompletionItem> {
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
    if spec.path == "optimizer.type" {
        // DeepSpeed's names in this release, then torch.optim's.
        out.extend(
            ds_studio_shared::validate::deepspeed_optimizer_names(release)
                .map(|n| format!("\"{n}\"")),
        );
        out.extend(
            described()
                .torch_optimizers
                .keys()
                .map(|n| format!("\"{n}\"")),
        );
    }
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
        // Inside an opened string only strings fit, written without their quotes.
        .filter(|v| !quoted || v.starts_with('"'))
        .map(|v| lsp::CompletionItem {
            insert_text: Some(if quoted {
                v.trim_matches('"').to_string()
            } else {
                v.clone()
            }),
            filter_text: Some(v.trim_matches('"').to_string()),
            label: v,
            kind: Some(lsp::CompletionItemKind::VALUE),
            detail: Some(detail.clone()),
            ..Default::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_is_found_in_half_typed_text() {
        let c = scan("{\n  \"zero_optimization\": {\n    \"stage\": 3,\n    \"st");
        assert_eq!(c.path, ["zero_optimization"]);
        assert_eq!(c.typing.as_deref(), Some("st"));
        assert_eq!(c.value_of, None);
        assert_eq!(c.siblings, ["stage"]);
        let c = scan("{\"optimizer\": {\"type\": \"Ad");
        assert_eq!(c.path, ["optimizer"]);
        assert_eq!(c.value_of.as_deref(), Some("type"));
        assert_eq!(c.typing.as_deref(), Some("Ad"));
        // Comments, escaped quotes and closed objects are skipped; arrays offer nothing.
        let c = scan("{ // \"x\": {\n \"a\\\"b\": {\"c\": 1}, \"fp16\": {");
        assert_eq!(c.path, ["fp16"]);
        assert!(scan("{\"compile\": {\"passes\": [").path.is_empty());
        assert_eq!(scan(""), Cursor::default());
    }
}
