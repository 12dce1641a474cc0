//! A recursive-descent reader for the hjson dialect DeepSpeed accepts (a superset of JSON).
//!
//! It mirrors `hjson` 3.1 as DeepSpeed uses it: `#`, `//` and `/* */` comments; commas optional
//! between members on separate lines and allowed after the last one; quoteless keys; quoteless
//! values that run to the end of the line unless the text read so far is a number, `true`,
//! `false` or `null`; single-quoted and `'''` multi-line strings; a root object without braces.
//! Duplicate keys in any object are errors, as DeepSpeed's `object_pairs_hook` makes them.

use super::{Extension, ExtensionKind, Format, Kind, Member, Node, Number, ParseError};

pub(super) struct Output {
    pub root: Option<Node>,
    pub errors: Vec<ParseError>,
    pub format: Format,
    pub extensions: Vec<Extension>,
}

struct Parser<'a> {
    /// Accept `NaN`, `Infinity` and `-Infinity` as numbers (Python's `json.dumps` output).
    python_floats: bool,
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    errors: Vec<ParseError>,
    hjson: bool,
    /// The hjson-only constructs met, in text order (what `json.load` would refuse).
    extensions: Vec<Extension>,
    comments: Vec<String>,
    depth: usize,
    /// Duplicate keys seen; only the first [`MAX_DUPLICATE_ERRORS`] get an error each.
    duplicates: usize,
}

/// Deepest nesting read (containers and the values in them): hjson, run by DeepSpeed, reads
/// 494 levels and stops with Python's RecursionError past them (measured with ds-oracle).
const MAX_DEPTH: usize = 494;

/// hjson-only constructs recorded one by one; past this many the reader has said enough.
const MAX_EXTENSIONS: usize = 1000;

/// A key as messages quote it: at most 120 characters.
/// Indentation counted for the missing-brace guess, at most.
const MAX_INDENT: usize = 256;

/// The 0-based line holding `offset`, given where each line starts.
fn line_of(lines: &[usize], offset: usize) -> usize {
    lines.partition_point(|&s| s <= offset).saturating_sub(1)
}

fn shorten(key: &str) -> String {
    if key.chars().count() <= 120 {
        key.to_string()
    } else {
        format!("{}…", key.chars().take(120).collect::<String>())
    }
}

/// Duplicate keys reported one by one; the rest are counted in one last error.
pub(super) const MAX_DUPLICATE_ERRORS: usize = 200;

#[derive(Debug)]
struct Fatal;

pub(super) fn parse(src: &str, python_floats: bool) -> Output {
    let mut p = Parser {
        python_floats,
        src,
        bytes: src.as_bytes(),
        pos: 0,
        errors: Vec::new(),
        hjson: false,
        extensions: Vec::new(),
        comments: Vec::new(),
        depth: 0,
        duplicates: 0,
    };
    let root = p.parse_root().ok();
    if p.duplicates > MAX_DUPLICATE_ERRORS {
        let more = p.duplicates - MAX_DUPLICATE_ERRORS;
        let at = p.errors.last().map(|e| e.offset).unwrap_or(0);
        p.errors.push(ParseError {
            message: format!(
                "duplicate key: {more} more duplicate keys not listed (DeepSpeed rejects duplicate keys)"
            ),
            offset: at,
            line: 0,
            column: 0,
            pointer: Some(String::new()),
            zh: None,
        });
    }
    let format = if p.hjson { Format::Hjson } else { Format::Json };
    p.extensions.sort_by_key(|e| e.span.start);
    p.extensions.dedup_by_key(|e| e.span.start);
    Output {
        root,
        errors: p.errors,
        format,
        extensions: p.extensions,
    }
}

impl<'a> Parser<'a> {
    /// Records an error; its line and column are filled in once for all errors at the end
    /// (`Document::parse`), so many errors cost one sweep over the text.
    fn error(&mut self, offset: usize, message: impl Into<String>) {
        self.errors.push(ParseError {
            message: message.into(),
            offset,
            line: 0,
            column: 0,
            pointer: None,
            zh: None,
        });
    }

    /// Records an hjson-only construct (and that the text needed hjson).
    fn extension(&mut self, kind: ExtensionKind, span: std::ops::Range<usize>) {
        self.hjson = true;
        if self.extensions.len() < MAX_EXTENSIONS {
            self.extensions.push(Extension { kind, span });
        }
    }

    /// Records an error in English and Chinese.
    fn error_in_both(&mut self, offset: usize, message: impl Into<String>, zh: impl Into<String>) {
        self.error(offset, message);
        if let Some(e) = self.errors.last_mut() {
            e.zh = Some(zh.into());
        }
    }

    /// Records an error (English, Chinese) that stops the parse.
    fn fatal<T>(
        &mut self,
        offset: usize,
        message: impl Into<String>,
        zh: impl Into<String>,
    ) -> Result<T, Fatal> {
        self.error_in_both(offset, message, zh);
        Err(Fatal)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }
    fn peek_at(&self, n: usize) -> Option<u8> {
        self.bytes.get(self.pos + n).copied()
    }

    /// Skips whitespace and comments; collects comment texts.
    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                0xEF if self.src[self.pos..].starts_with('\u{feff}') => {
                    let at = self.pos;
                    self.pos += 3;
                    self.extensions.push(Extension {
                        kind: ExtensionKind::ByteOrderMark,
                        span: at..self.pos,
                    });
                }
                b'#' => self.line_comment(),
                b'/' if self.peek_at(1) == Some(b'/') => self.line_comment(),
                b'/' if self.peek_at(1) == Some(b'*') => self.skip_ws_block_comment(),
                _ => break,
            }
        }
    }

    fn line_comment(&mut self) {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if b == b'\n' || b == b'\r' {
                break;
            }
            self.pos += 1;
        }
        self.extension(ExtensionKind::Comment, start..self.pos);
        self.comments
            .push(self.src[start..self.pos].trim_end().to_string());
    }

    /// Skips spaces and comments on the current line only; true if a newline (or end) follows.
    fn skip_inline_ws(&mut self) -> bool {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                // A carriage return ends a line for hjson, alone or before '\n'.
                Some(b'\r') if self.peek_at(1) == Some(b'\n') => self.pos += 1,
                Some(b'\r') => return true,
                Some(b'#') => self.line_comment(),
                Some(b'/') if self.peek_at(1) == Some(b'/') => self.line_comment(),
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let save = self.pos;
                    self.skip_ws_block_comment();
                    if self.pos == save {
                        return false;
                    }
                }
                Some(b'\n') | None => return true,
                _ => return false,
            }
        }
    }

    fn skip_ws_block_comment(&mut self) {
        let start = self.pos;
        match self.src[self.pos + 2..].find("*/") {
            Some(i) => self.pos += 2 + i + 2,
            None => self.pos = self.bytes.len(),
        }
        self.extension(ExtensionKind::Comment, start..self.pos);
        self.comments.push(self.src[start..self.pos].to_string());
    }

    fn parse_root(&mut self) -> Result<Node, Fatal> {
        self.skip_ws();
        let start = self.pos;
        let node = match self.peek() {
            None => {
                return self.fatal(
                    self.pos,
                    "empty document: expected a JSON object",
                    "文档为空：应为一个 JSON 对象",
                )
            }
            Some(b'{') | Some(b'[') => self.parse_value()?,
            Some(_) => {
                // hjson: a root object without braces, or else a single value.
                let save = (
                    self.pos,
                    self.errors.len(),
                    self.comments.len(),
                    self.extensions.len(),
                );
                match self.parse_members(None, start) {
                    Ok(node) if !node.members().is_empty() => {
                        let end = node.span.end;
                        self.extension(ExtensionKind::BracelessRoot, start..end);
                        node
                    }
                    _ => {
                        self.pos = save.0;
                        self.errors.truncate(save.1);
                        self.comments.truncate(save.2);
                        self.extensions.truncate(save.3);
                        self.parse_value()?
                    }
                }
            }
        };
        self.skip_ws();
        if self.pos < self.bytes.len() {
            let at = self.pos;
            return self.fatal(
                at,
                "unexpected text after the end of the document",
                "文档结束后还有多余的内容",
            );
        }
        Ok(node)
    }

    fn parse_value(&mut self) -> Result<Node, Fatal> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let at = self.pos;
            return self.fatal(at, "document nested too deeply", "文档嵌套过深");
        }
        self.skip_ws();
        let start = self.pos;
        let result = match self.peek() {
            None => self.fatal(
                start,
                "unexpected end of document: expected a value",
                "文档意外结束：此处应为一个值",
            ),
            Some(b'{') => {
                self.pos += 1;
                self.parse_members(Some(b'}'), start)
            }
            Some(b'[') => self.parse_array(start),
            Some(b'"') => {
                let s = self.parse_string(b'"')?;
                Ok(Node {
                    kind: Kind::String(s),
                    span: start..self.pos,
                    trailing_comments: Vec::new(),
                })
            }
            Some(b'\'') => {
                let multiline = self.src[self.pos..].starts_with("'''");
                let s = if multiline {
                    self.parse_multiline()?
                } else {
                    self.parse_string(b'\'')?
                };
                let kind = if multiline {
                    ExtensionKind::MultilineString
                } else {
                    ExtensionKind::SingleQuotedString
                };
                self.extension(kind, start..self.pos);
                Ok(Node {
                    kind: Kind::String(s),
                    span: start..self.pos,
                    trailing_comments: Vec::new(),
                })
            }
            Some(b'}' | b']' | b',' | b':') => {
                let c = self.peek().unwrap_or(b' ') as char;
                self.fatal(
                    start,
                    format!("unexpected '{c}': expected a value"),
                    format!("意外的 '{c}'：此处应为一个值"),
                )
            }
            Some(_) => self.parse_tfnns(start),
        };
        self.depth -= 1;
        result
    }

    /// Members of an object; `close` is `None` for a braceless root.
    fn parse_members(&mut self, close: Option<u8>, start: usize) -> Result<Node, Fatal> {
        let mut members: Vec<Member> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        let trailing;
        loop {
            self.skip_ws();
            let leading = std::mem::take(&mut self.comments);
            match (self.peek(), close) {
                (None, None) => {
                    trailing = leading;
                    break;
                }
                (None, Some(_)) => {
                    let (at, message, zh) = self.unclosed(start, &members);
                    self.error_in_both(at, message, zh);
                    return Err(Fatal);
                }
                (Some(b'}'), Some(b'}')) => {
                    self.pos += 1;
                    trailing = leading;
                    break;
                }
                _ => {}
            }
            let key_start = self.pos;
            let key = self.parse_key()?;
            let key_span = key_start..self.pos;
            self.skip_ws();
            if self.peek() != Some(b':') {
                let at = self.pos;
                return self.fatal(
                    at,
                    format!("expected ':' after key \"{key}\""),
                    format!("键 \"{key}\" 之后应为 ':'"),
                );
            }
            self.pos += 1;
            let value = self.parse_value()?;
            // Hashed once an object is large, so a document of many keys stays linear.
            let duplicate = if members.len() < 16 {
                members.iter().any(|m| m.key == key)
            } else {
                if seen.is_empty() {
                    seen.extend(members.iter().map(|m| m.key.clone()));
                }
                // Checked before cloning: a flood of one duplicated key allocates nothing.
                seen.contains(&key) || !seen.insert(key.clone())
            };
            if duplicate {
                self.duplicates += 1;
                if self.duplicates <= MAX_DUPLICATE_ERRORS {
                    self.error(
                        key_start,
                        format!(
                            "duplicate key \"{}\" (DeepSpeed rejects duplicate keys)",
                            shorten(&key)
                        ),
                    );
                }
            }
            members.push(Member {
                key,
                key_span,
                value,
                leading_comments: leading,
            });
            // Separator: a comma, a newline, or the closing brace.
            let value_end = self.pos;
            let newline = self.skip_inline_ws();
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.skip_inline_ws();
                    let save = (self.pos, self.comments.len(), self.extensions.len());
                    self.skip_ws();
                    let at_end = match close {
                        Some(c) => self.peek() == Some(c),
                        None => self.peek().is_none(),
                    };
                    if at_end {
                        self.extension(ExtensionKind::TrailingComma, comma..comma + 1);
                    }
                    if !at_end {
                        // Comments after the comma belong to the next member (and are
                        // recorded when they are read again).
                        self.pos = save.0;
                        self.comments.truncate(save.1);
                        self.extensions.truncate(save.2);
                    }
                }
                Some(b'}') if close == Some(b'}') => {}
                None if close.is_none() => {}
                Some(_) if newline || ends_by_itself(&members) => {
                    self.extension(ExtensionKind::MissingComma, value_end..value_end)
                }
                Some(c) => {
                    let at = self.pos;
                    return self.fatal(
                        at,
                        format!("expected ',' or '}}' after a member, found '{}'", c as char),
                        format!("成员之后应为 ',' 或 '}}'，实际是 '{}'", c as char),
                    );
                }
                None => {}
            }
        }
        Ok(Node {
            kind: Kind::Object(members),
            span: start..self.pos,
            trailing_comments: trailing,
        })
    }

    /// Where and how to report an object opened at `start` that the document never closes.
    /// An object that took a member indented no deeper than its own opening line is where a
    /// '}' was most likely left out: the report goes there, naming both lines.
    fn unclosed(&self, start: usize, members: &[Member]) -> (usize, String, String) {
        // Line starts once, so each member's line is a binary search: a megabyte on one line
        // with thousands of members stays linear.
        let lines: Vec<usize> = std::iter::once(0)
            .chain(
                self.bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        let mut found = None;
        self.swallowed(&lines, members, &mut found);
        match found {
            Some((key, open, took, at)) => {
                let (key, took) = (shorten(key), shorten(took));
                let (opened, line) = (line_of(&lines, open) + 1, line_of(&lines, at) + 1);
                (
                    at,
                    format!(
                        "missing '}}': the object `{key}` opened on line {opened} also takes `{took}` on line {line}, indented like `{key}` itself; a '}}' is probably missing before line {line} (the document ends with a '{{' still open)"
                    ),
                    format!(
                        "缺少 '}}'：第 {opened} 行开始的对象 `{key}` 把第 {line} 行的 `{took}` 也包含了进去，而它的缩进与 `{key}` 相同；很可能在第 {line} 行之前少了一个 '}}'（文档结束时仍有未闭合的 '{{'）"
                    ),
                )
            }
            None => {
                let line = line_of(&lines, start) + 1;
                (
                    self.pos,
                    format!(
                        "unexpected end of document: missing '}}' (the '{{' on line {line} is never closed)"
                    ),
                    format!("文档意外结束：缺少 '}}'（第 {line} 行的 '{{' 没有闭合）"),
                )
            }
        }
    }

    /// The earliest member (in text order) of an object in `members`, or deeper, that starts its
    /// own line no deeper than the line that opened its object: (the object's key, where it
    /// opened, the member's key, where it starts). `lines`: where each line starts.
    fn swallowed<'m>(
        &self,
        lines: &[usize],
        members: &'m [Member],
        found: &mut Option<(&'m str, usize, &'m str, usize)>,
    ) {
        for m in members {
            let Kind::Object(inner) = &m.value.kind else {
                continue;
            };
            let open = m.value.span.start;
            let open_line = line_of(lines, open);
            let open_indent = self.indent(lines[open_line]);
            for im in inner {
                let at = im.key_span.start;
                if found.is_some_and(|f| f.3 <= at) {
                    break;
                }
                let line = line_of(lines, at);
                if line == open_line {
                    continue;
                }
                let indent = self.indent(lines[line]);
                if lines[line] + indent == at && indent <= open_indent {
                    *found = Some((&m.key, open, &im.key, at));
                    break;
                }
            }
            self.swallowed(lines, inner, found);
        }
    }

    /// The indentation (spaces and tabs) of the line starting at `line_start`, counted up to
    /// [`MAX_INDENT`] (deeper is no indentation a person reads).
    fn indent(&self, line_start: usize) -> usize {
        self.bytes[line_start.min(self.bytes.len())..]
            .iter()
            .take(MAX_INDENT)
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    }

    fn parse_array(&mut self, start: usize) -> Result<Node, Fatal> {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => {
                    return self.fatal(
                        self.pos,
                        "unexpected end of document: missing ']'",
                        "文档意外结束：缺少 ']'",
                    )
                }
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => {}
            }
            items.push(self.parse_value()?);
            let value_end = self.pos;
            let newline = self.skip_inline_ws();
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.extension(ExtensionKind::TrailingComma, comma..comma + 1);
                    }
                }
                Some(b']') => {}
                Some(_) if newline || items.last().is_some_and(closed_value) => {
                    self.extension(ExtensionKind::MissingComma, value_end..value_end)
                }
                Some(c) => {
                    let at = self.pos;
                    return self.fatal(
                        at,
                        format!(
                            "expected ',' or ']' after an array item, found '{}'",
                            c as char
                        ),
                        format!("数组项之后应为 ',' 或 ']'，实际是 '{}'", c as char),
                    );
                }
                None => {}
            }
        }
        Ok(Node {
            kind: Kind::Array(items),
            span: start..self.pos,
            trailing_comments: Vec::new(),
        })
    }

    fn parse_key(&mut self) -> Result<String, Fatal> {
        match self.peek() {
            Some(b'"') => self.parse_string(b'"'),
            Some(b'\'') => {
                let start = self.pos;
                let key = self.parse_string(b'\'')?;
                self.extension(ExtensionKind::UnquotedKey, start..self.pos);
                Ok(key)
            }
            _ => {
                let start = self.pos;
                while let Some(b) = self.peek() {
                    match b {
                        b':' => break,
                        // hjson allows blanks (line breaks too) between a bare key and its ':'.
                        b' ' | b'\t' | b'\r' | b'\n'
                            if self.src[self.pos..]
                                .trim_start_matches([' ', '\t', '\r', '\n'])
                                .starts_with(':') =>
                        {
                            break
                        }
                        b' ' | b'\t' | b'\r' | b'\n' => return self.fatal(
                            self.pos,
                            "whitespace in an unquoted key (quote the key, or add the missing ':')",
                            "未加引号的键中有空白（给键加上引号，或补上缺少的 ':'）",
                        ),
                        b'{' | b'}' | b'[' | b']' | b',' => {
                            let c = b as char;
                            return self.fatal(
                                self.pos,
                                format!("unexpected '{c}' where a key was expected"),
                                format!("此处应为键，却出现了 '{c}'"),
                            );
                        }
                        _ => self.pos += 1,
                    }
                }
                if self.pos == start {
                    return self.fatal(start, "empty key", "键为空");
                }
                self.extension(ExtensionKind::UnquotedKey, start..self.pos);
                Ok(self.src[start..self.pos].to_string())
            }
        }
    }

    fn parse_string(&mut self, quote: u8) -> Result<String, Fatal> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            // A run of plain characters is copied at once (all ASCII stops: a UTF-8 sequence
            // never contains one, so the run ends on a character boundary).
            let run = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == quote || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.src[run..self.pos]);
            let Some(b) = self.peek() else {
                return self.fatal(start, "unterminated string", "字符串缺少结束引号");
            };
            if b == quote {
                self.pos += 1;
                return Ok(out);
            }
            match b {
                b'\\' => {
                    let esc = self.peek_at(1);
                    self.pos += 2;
                    match esc {
                        Some(b'"') => out.push('"'),
                        Some(b'\'') => out.push('\''),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let cp = self.hex4()?;
                            if (0xD800..0xDC00).contains(&cp)
                                && self.src[self.pos..].starts_with("\\u")
                            {
                                self.pos += 2;
                                let lo = self.hex4()?;
                                let c = 0x10000
                                    + ((cp - 0xD800) << 10)
                                    + (lo.wrapping_sub(0xDC00) & 0x3FF);
                                out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                            } else {
                                out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                            }
                        }
                        _ => {
                            let at = self.pos - 2;
                            return self.fatal(
                                at,
                                "invalid escape in string",
                                "字符串中有无效的转义",
                            );
                        }
                    }
                }
                b'\n' | b'\r' => {
                    return self.fatal(self.pos, "line break inside a string", "字符串中有换行")
                }
                0..=0x1f => {
                    let at = self.pos;
                    return self.fatal(
                        at,
                        format!("invalid control character U+{b:04X} inside a string (write it as an escape, e.g. \\t or \\u{b:04x})"),
                        format!("字符串中有无效的控制字符 U+{b:04X}（请写成转义，如 \\t 或 \\u{b:04x}）"),
                    );
                }
                _ => {
                    let ch = self.src[self.pos..].chars().next().unwrap_or('\u{fffd}');
                    out.push(ch);
                    self.pos += ch.len_utf8();
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, Fatal> {
        let digits = self.src.get(self.pos..self.pos + 4).unwrap_or("");
        match u32::from_str_radix(digits, 16) {
            Ok(v) if digits.len() == 4 => {
                self.pos += 4;
                Ok(v)
            }
            _ => {
                let at = self.pos;
                self.fatal(at, "invalid \\u escape", "无效的 \\u 转义")
            }
        }
    }

    fn parse_multiline(&mut self) -> Result<String, Fatal> {
        let start = self.pos;
        // Indentation of the opening ''' is stripped from following lines, as hjson does.
        let line_start = self.src[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let indent = start - line_start;
        self.pos += 3;
        let Some(end) = self.src[self.pos..].find("'''") else {
            return self.fatal(start, "unterminated ''' string", "''' 字符串没有结束");
        };
        let body = &self.src[self.pos..self.pos + end];
        self.pos += end + 3;
        let mut body = body
            .strip_prefix('\n')
            .or_else(|| body.strip_prefix("\r\n"))
            .unwrap_or(body);
        if let Some(i) = body.rfind('\n') {
            if body[i + 1..].trim().is_empty() {
                body = &body[..i];
            }
        }
        let lines: Vec<String> = body
            .split('\n')
            .map(|l| {
                let skip = l
                    .bytes()
                    .take(indent)
                    .take_while(|b| *b == b' ' || *b == b'\t')
                    .count();
                l[skip..].trim_end_matches('\r').to_string()
            })
            .collect();
        Ok(lines.join("\n"))
    }

    /// true / false / null / number / quoteless string, as hjson's `scantfnns`.
    fn parse_tfnns(&mut self, start: usize) -> Result<Node, Fatal> {
        let mut end = self.pos;
        loop {
            let ch = self.bytes.get(end).copied();
            let is_eol = matches!(ch, None | Some(b'\n') | Some(b'\r'));
            let is_stop = is_eol
                || matches!(ch, Some(b',') | Some(b'}') | Some(b']') | Some(b'#'))
                || (ch == Some(b'/') && matches!(self.bytes.get(end + 1), Some(b'/') | Some(b'*')));
            if is_stop {
                let chunk = self.src[start..end].trim();
                let kind = match chunk {
                    "true" => Some(Kind::Bool(true)),
                    "false" => Some(Kind::Bool(false)),
                    "null" => Some(Kind::Null),
                    "NaN" | "Infinity" | "-Infinity" if self.python_floats => {
                        Some(Kind::Number(Number {
                            raw: chunk.to_string(),
                            value: match chunk {
                                "NaN" => f64::NAN,
                                "Infinity" => f64::INFINITY,
                                _ => f64::NEG_INFINITY,
                            },
                            is_int: false,
                        }))
                    }
                    _ => parse_number(chunk).map(Kind::Number),
                };
                if let Some(Kind::Number(n)) = &kind {
                    if !n.value.is_finite() && !self.python_floats {
                        self.error_in_both(
                            start,
                            format!(
                                "number {} is out of range (hjson fails with OverflowError)",
                                n.raw
                            ),
                            format!("数字 {} 超出范围（hjson 会报 OverflowError）", n.raw),
                        );
                    }
                }
                if let Some(kind) = kind {
                    let trimmed_end = start + self.src[start..end].trim_end().len();
                    self.pos = trimmed_end;
                    return Ok(Node {
                        kind,
                        span: start..trimmed_end,
                        trailing_comments: Vec::new(),
                    });
                }
                if chunk.is_empty() {
                    // Only whitespace JSON does not skip (a form feed, U+00A0, ...) before the
                    // line's end: no value at all. (Returning an empty one would not advance,
                    // and an array would collect empty values forever.)
                    let c = self.src[start..].chars().next().unwrap_or(' ');
                    return self.fatal(
                        start,
                        format!(
                            "unexpected character U+{:04X} where a value should be",
                            c as u32
                        ),
                        format!("此处应为一个值，却出现了字符 U+{:04X}", c as u32),
                    );
                }
                if is_eol {
                    let trimmed_end = start + self.src[start..end].trim_end().len();
                    self.extension(ExtensionKind::QuotelessString, start..trimmed_end);
                    self.pos = trimmed_end;
                    return Ok(Node {
                        kind: Kind::String(chunk.to_string()),
                        span: start..trimmed_end,
                        trailing_comments: Vec::new(),
                    });
                }
            }
            end += 1;
        }
    }
}

/// A value after which hjson needs no comma, even on the same line: a quoted string, an object
/// or an array (it ends by itself; a number or a bare word would run on to the line's end).
fn closed_value(node: &Node) -> bool {
    matches!(
        node.kind,
        Kind::String(_) | Kind::Object(_) | Kind::Array(_)
    )
}

fn ends_by_itself(members: &[Member]) -> bool {
    members.last().is_some_and(|m| closed_value(&m.value))
}

/// Parses a JSON number literal (hjson's NUMBER_RE), keeping its spelling.
pub(super) fn parse_number(s: &str) -> Option<Number> {
    let b = s.as_bytes();
    let mut i = 0;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        _ => return None,
    }
    let _ = int_start;
    let mut is_int = true;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let s0 = i;
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        if i == s0 {
            return None;
        }
        is_int = false;
    }
    if matches!(b.get(i), Some(b'e') | Some(b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+') | Some(b'-')) {
            i += 1;
        }
        let s0 = i;
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        if i == s0 {
            return None;
        }
        is_int = false;
    }
    if i != b.len() {
        return None;
    }
    let value: f64 = s.parse().ok()?;
    Some(Number {
        raw: s.to_string(),
        value,
        is_int,
    })
}
