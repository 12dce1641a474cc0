//! How the launcher reads the file. DeepSpeed reads a config file with `hjson`; the HF Trainer
//! and Accelerate read it with Python's `json.load` (accelerate's `HfDeepSpeedConfig`) and hand
//! DeepSpeed the dict. So under them every hjson-only construct the parser met
//! ([`crate::document::Extension`]) is an error, with a text fix where one keeps the meaning;
//! duplicate keys are a warning (the last one wins); and `NaN`/`Infinity` are floats.

use crate::document::{Document, Extension, ExtensionKind};
use crate::i18n::Text;
use crate::vocab::{Diagnostic, Launcher, Severity, TextEdit};

/// Who reads the file with `json.load`, for messages.
fn reader(launcher: Launcher) -> (&'static str, &'static str) {
    match launcher {
        Launcher::Accelerate => ("Accelerate", "Accelerate"),
        _ => ("the HF Trainer", "HF Trainer"),
    }
}

/// The document as `json.load` reads it: `NaN`, `Infinity` and `-Infinity` are floats there
/// (hjson reads them as strings). Parsed again only when the text has one.
pub(crate) fn as_json_load_reads(doc: &Document) -> Option<Document> {
    let t = doc.text();
    (t.contains("NaN") || t.contains("Infinity")).then(|| Document::parse_python_json(t))
}

/// One error per hjson-only construct (a fix where it keeps the meaning).
pub(crate) fn extensions(doc: &Document, launcher: Launcher) -> Vec<Diagnostic> {
    let (who, who_zh) = reader(launcher);
    let offsets: Vec<usize> = doc.extensions().iter().map(|e| e.span.start).collect();
    let positions = doc.line_cols(&offsets);
    doc.extensions()
        .iter()
        .zip(positions)
        .map(|(ext, (line, column))| {
            let (what, what_zh) = describe(ext.kind);
            let python = python_error(doc.text(), ext);
            let mut d = Diagnostic::error(
                "not-json",
                "",
                Text::new(
                    format!("{what} is not JSON: {who} reads the file with Python's json.load, which stops here (\"JSONDecodeError: {python}\")"),
                    format!("{what_zh}不是合法的 JSON：{who_zh} 用 Python 的 json.load 读取文件，会在此处报错（\"JSONDecodeError: {python}\"）"),
                ),
            );
            d.line = Some(line);
            d.column = Some(column);
            d.text_fix = fix(doc.text(), ext);
            d
        })
        .collect()
}

/// What the construct is (en, zh).
fn describe(kind: ExtensionKind) -> (&'static str, &'static str) {
    match kind {
        ExtensionKind::Comment => ("a comment", "注释"),
        ExtensionKind::TrailingComma => ("a comma before the closing bracket", "右括号前的逗号"),
        ExtensionKind::MissingComma => ("a line break in place of a comma", "用换行代替逗号"),
        ExtensionKind::UnquotedKey => ("a key without double quotes", "未加双引号的键"),
        ExtensionKind::SingleQuotedString => ("a single-quoted string", "单引号字符串"),
        ExtensionKind::MultilineString => ("a ''' multi-line string", "''' 多行字符串"),
        ExtensionKind::QuotelessString => ("a string without quotes", "未加引号的字符串"),
        ExtensionKind::BracelessRoot => ("a root object without braces", "省略花括号的根对象"),
        ExtensionKind::ByteOrderMark => ("a byte order mark", "字节顺序标记（BOM）"),
    }
}

/// The message Python's json reader gives at the construct, from what it expects there: a
/// key after `{` (or after `,` when a key follows), a value after `:` or `[`, else a comma.
fn python_error(text: &str, ext: &Extension) -> &'static str {
    const KEY: &str = "Expecting property name enclosed in double quotes";
    const VALUE: &str = "Expecting value";
    const COMMA: &str = "Expecting ',' delimiter";
    let before = text[..ext.span.start].trim_end().chars().last();
    let after = text[ext.span.end..].trim_start();
    let key_follows = || {
        after.starts_with('"')
            && after[1..]
                .find('"')
                .is_some_and(|i| after[i + 2..].trim_start().starts_with(':'))
    };
    match ext.kind {
        ExtensionKind::ByteOrderMark => "Unexpected UTF-8 BOM (decode using utf-8-sig)",
        ExtensionKind::MissingComma => COMMA,
        ExtensionKind::UnquotedKey => KEY,
        ExtensionKind::TrailingComma if after.starts_with('}') => KEY,
        ExtensionKind::TrailingComma
        | ExtensionKind::BracelessRoot
        | ExtensionKind::SingleQuotedString
        | ExtensionKind::MultilineString
        | ExtensionKind::QuotelessString => VALUE,
        ExtensionKind::Comment => match before {
            Some('{') => KEY,
            Some(',') if key_follows() => KEY,
            Some(':') | Some('[') | Some(',') | None => VALUE,
            _ => COMMA,
        },
    }
}

/// The edit that makes the construct JSON with the same meaning, where there is one.
fn fix(text: &str, ext: &Extension) -> Option<Vec<TextEdit>> {
    let span = ext.span.clone();
    let edit = |start, end, with: &str| TextEdit {
        start,
        end,
        text: with.to_string(),
    };
    let quoted = |raw: &str| {
        let value = Document::parse(raw);
        match value.root().map(|r| &r.kind) {
            Some(crate::document::Kind::String(s)) if value.errors().is_empty() => {
                serde_json::to_string(s).ok()
            }
            _ => None,
        }
    };
    Some(match ext.kind {
        ExtensionKind::Comment => {
            // A comment alone on its line goes with its line; else with the spaces before it.
            let line_start = text[..span.start].rfind('\n').map(|i| i + 1).unwrap_or(0);
            let before = &text[line_start..span.start];
            if before.trim().is_empty() && !text[span.start..].starts_with("/*") {
                let end = if text[span.end..].starts_with('\n') {
                    span.end + 1
                } else {
                    span.end
                };
                vec![edit(line_start, end, "")]
            } else {
                let start = span.start - (before.len() - before.trim_end().len());
                vec![edit(start, span.end, "")]
            }
        }
        ExtensionKind::TrailingComma | ExtensionKind::ByteOrderMark => {
            vec![edit(span.start, span.end, "")]
        }
        ExtensionKind::MissingComma => vec![edit(span.start, span.start, ",")],
        ExtensionKind::UnquotedKey | ExtensionKind::SingleQuotedString => {
            vec![edit(span.start, span.end, &quoted(&text[span.clone()])?)]
        }
        ExtensionKind::QuotelessString => vec![edit(
            span.start,
            span.end,
            &serde_json::to_string(text[span.clone()].trim()).ok()?,
        )],
        ExtensionKind::BracelessRoot => {
            vec![
                edit(span.start, span.start, "{"),
                edit(span.end, span.end, "\n}"),
            ]
        }
        // A ''' string's indentation rules make a safe rewrite a guess: left to the user.
        ExtensionKind::MultilineString => return None,
    })
}

/// A parse error or duplicate key, as the launcher's reader sees it: duplicates are a warning
/// (json.load keeps the last one), anything else names json.load.
pub(crate) fn parse_error(message: &str, launcher: Launcher) -> (Severity, String, Text) {
    let (who, who_zh) = reader(launcher);
    if let Some(more) = message
        .strip_prefix("duplicate key: ")
        .and_then(|m| m.split(' ').next())
    {
        return (
            Severity::Warning,
            "duplicate-key".into(),
            Text::new(
                format!(
                    "{more} more duplicate keys not listed: json.load keeps the last value of each"
                ),
                format!("另有 {more} 个重复的键未列出：json.load 会保留每个键的最后一个值"),
            ),
        );
    }
    if let Some(rest) = message.strip_prefix("duplicate key ") {
        let key = rest.split(" (").next().unwrap_or(rest);
        return (
            Severity::Warning,
            "duplicate-key".into(),
            Text::new(
                format!("duplicate key {key}: {who} reads the file with json.load, which keeps the last value silently (DeepSpeed never sees the earlier one)"),
                format!("重复的键 {key}：{who_zh} 用 json.load 读取文件，会静默保留最后一个值（DeepSpeed 看不到前面的值）"),
            ),
        );
    }
    (
        Severity::Error,
        "syntax".into(),
        Text::new(
            format!("not valid JSON: {message} ({who} reads the file with Python's json.load)"),
            format!("不是合法的 JSON：{message}（{who_zh} 用 Python 的 json.load 读取文件）"),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::apply_text_fix;

    #[test]
    fn every_construct_is_named_and_fixed_into_json() {
        let text = "{\n  // the batch\n  train_batch_size: 8,\n  'fp16': {'enabled': true,},\n  \"steps_per_print\": 10\n  \"x\": [1, 2,],\n}\n";
        let doc = Document::parse(text);
        let diags = extensions(&doc, Launcher::HfTrainer);
        let kinds: Vec<ExtensionKind> = doc.extensions().iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            vec![
                ExtensionKind::Comment,
                ExtensionKind::UnquotedKey,
                ExtensionKind::UnquotedKey,
                ExtensionKind::UnquotedKey,
                ExtensionKind::TrailingComma,
                ExtensionKind::MissingComma,
                ExtensionKind::TrailingComma,
                ExtensionKind::TrailingComma,
            ]
        );
        assert!(diags
            .iter()
            .all(|d| d.code == "not-json" && d.text_fix.is_some()));
        assert_eq!(diags[0].line, Some(2));
        assert!(
            diags[0].message.en.contains("json.load"),
            "{}",
            diags[0].message.en
        );
        // All fixes together give JSON that serde (strict) reads with the same values.
        let edits: Vec<TextEdit> = diags
            .iter()
            .flat_map(|d| d.text_fix.clone().unwrap())
            .collect();
        let fixed = apply_text_fix(text, &edits).unwrap();
        let strict: serde_json::Value =
            serde_json::from_str(&fixed).unwrap_or_else(|e| panic!("{e}: {fixed}"));
        assert_eq!(strict, doc.to_value().unwrap());
        assert!(!fixed.contains("//"));
    }

    #[test]
    fn duplicates_are_a_warning_and_nan_a_float() {
        let (sev, code, text) = parse_error(
            "duplicate key \"a\" (DeepSpeed rejects duplicate keys)",
            Launcher::Accelerate,
        );
        assert_eq!((sev, code.as_str()), (Severity::Warning, "duplicate-key"));
        assert!(text.en.contains("keeps the last value"), "{}", text.en);
        let doc = Document::parse("{\"gradient_clipping\": NaN}");
        let json = as_json_load_reads(&doc).unwrap();
        assert!(json
            .root()
            .unwrap()
            .child("gradient_clipping")
            .unwrap()
            .as_number()
            .is_some());
        assert!(as_json_load_reads(&Document::parse("{}")).is_none());
    }
}
