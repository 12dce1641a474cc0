//! No function over [`MAX_LINES`] lines outside tests (part of `cargo xtask modules`): a
//! function one cannot hold in one's head is split into named pieces. Leptos components count
//! like any other function (their `view!` is in their body).
//!
//! The scan reads Rust as text with enough of its lexical rules to find a body's end: strings
//! (also over several lines, raw strings), character literals beside lifetimes, comments. A
//! file's `#[cfg(test)]` part and files named `tests.rs` or under `tests/` are left out.

use crate::tools::{root, Result};
use std::path::Path;

/// The longest a function may be, from its `fn` line to its closing brace.
pub const MAX_LINES: usize = 250;

/// The source folders scanned: every crate of the workspace.
const DIRS: [&str; 9] = [
    "shared/src",
    "frontend/src",
    "backend/server/src",
    "backend/runner/src",
    "backend/client/src",
    "backend/lsp/src",
    "backend/cli/src",
    "backend/bench/src",
    "xtask/src",
];

/// The broken rules: each function over the limit.
pub fn breaks() -> Result<Vec<String>> {
    let mut long = Vec::new();
    for dir in DIRS {
        let mut files = Vec::new();
        rust_files(&root().join(dir), &mut files)?;
        for path in files {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let rel = path
                .strip_prefix(root())
                .unwrap_or(&path)
                .display()
                .to_string();
            for (name, line, lines) in long_functions(&text) {
                long.push((rel.clone(), name, line, lines));
            }
        }
    }
    Ok(long
        .into_iter()
        .map(|(file, name, line, lines)| {
            format!("{file}:{line}: fn {name} is {lines} lines; split it under {MAX_LINES}")
        })
        .collect())
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "tests" {
                rust_files(&path, out)?;
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
    Ok(())
}

/// The text with every string, character literal and comment blanked (newlines kept), so only
/// code braces remain.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |s: &[u8], out: &mut String| {
        for &c in s {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
            blank(&b[i..end], &mut out);
            i = end;
        } else if c == b'/' && next == Some(b'*') {
            let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            blank(&b[i..end], &mut out);
            i = end;
        } else if c == b'r' && matches!(next, Some(b'"' | b'#')) && !ident_before(b, i) {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                out.push(c as char);
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let from = i + 2 + hashes;
            let end = text[from..]
                .find(&close)
                .map_or(b.len(), |e| from + e + close.len());
            blank(&b[i..end], &mut out);
            i = end;
        } else if c == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            blank(&b[i..end], &mut out);
            i = end;
        } else if c == b'\'' {
            // A character literal ('x', '\n', '\u{7f}', '{'), not a lifetime ('a).
            let end = if next == Some(b'\\') {
                text[i + 2..].find('\'').map(|e| i + 2 + e + 1)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 2 + ch)
            };
            match end {
                Some(end) => {
                    blank(&b[i..end], &mut out);
                    i = end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// Functions of `text` (its non-test part) over [`MAX_LINES`]: (name, first line, lines).
fn long_functions(text: &str) -> Vec<(String, usize, usize)> {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0i64;
        let mut opened = false;
        for (m, l) in lines.iter().enumerate().skip(n) {
            for ch in l.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    ';' if !opened && depth == 0 => break,
                    _ => {}
                }
            }
            if !opened && l.trim_end().ends_with(';') {
                break;
            }
            if opened && depth <= 0 {
                let len = m - n + 1;
                if len > MAX_LINES {
                    out.push((name.to_string(), n + 1, len));
                }
                break;
            }
        }
    }
    out
}

/// The name of the function a line declares (`pub async fn name(`), if it declares one.
fn fn_name(line: &str) -> Option<&str> {
    let i = line.find("fn ")?;
    let before = line[..i].trim();
    let words_ok = before.split_whitespace().all(|w| {
        matches!(
            w,
            "pub" | "async" | "const" | "unsafe" | "extern" | "default"
        ) || w.starts_with("pub(")
            || w.starts_with('"')
    });
    if !words_ok || !(i == 0 || line.as_bytes()[i - 1] == b' ') {
        return None;
    }
    let rest = &line[i + 3..];
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    (end > 0).then(|| &rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(lines: usize, filler: &str) -> String {
        let mut s = String::from("pub fn big() {\n");
        for _ in 0..lines {
            s.push_str(filler);
            s.push('\n');
        }
        s.push_str("}\nfn small() { let x = 1; }\n");
        s
    }

    #[test]
    fn a_function_over_the_limit_is_found_and_one_under_it_is_not() {
        let over = body(MAX_LINES, "    let a = 1;");
        assert_eq!(
            long_functions(&over),
            vec![("big".into(), 1, MAX_LINES + 2)]
        );
        assert!(long_functions(&body(MAX_LINES - 2, "    let a = 1;")).is_empty());
    }

    #[test]
    fn braces_in_strings_chars_and_comments_do_not_end_a_body() {
        // Each filler line holds a closing brace the scan must not count.
        for filler in [
            r#"    let s = "}";"#,
            "    let c = '}'; // }",
            "    let r = r#\"}\"#; /* } */",
            "    let s = \"a \\\n }\";",
        ] {
            let found = long_functions(&body(MAX_LINES, filler));
            assert_eq!(found.len(), 1, "{filler}: {found:?}");
            assert_eq!(found[0].0, "big");
        }
        // Lifetimes are not character literals.
        let with_lifetimes = body(MAX_LINES, "    fn f<'a>(x: &'a str) -> &'a str { x }");
        assert_eq!(long_functions(&with_lifetimes)[0].2, MAX_LINES + 2);
    }

    #[test]
    fn no_function_of_the_workspace_is_over_the_limit() {
        let b = breaks().unwrap();
        assert!(b.is_empty(), "{}", b.join("\n"));
    }
}
