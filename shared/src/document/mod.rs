//! Lossless document model for DeepSpeed config files.
//!
//! DeepSpeed reads a config *file* with `hjson` (comments, trailing commas, unquoted keys and
//! quoteless values are all fine) and rejects duplicate keys. [`Document::parse`] accepts the same
//! language and keeps the source text: every node records its byte span, so an untouched document
//! serializes back byte for byte, and edits ([`edit`]) splice new text only where something
//! changed. Parsing never fails: it returns a tree (possibly partial) and a list of errors, each
//! with line and column.

mod edit;
mod parser;
mod pointer;
mod printer;

pub use edit::EditError;
pub use pointer::{escape_token, pointer_join, split_pointer};

use std::ops::Range;

/// Which syntax the text needed: strict JSON or the hjson superset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Json,
    Hjson,
}

/// A construct of the text that hjson reads and strict JSON (Python's `json.load`) refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extension {
    pub kind: ExtensionKind,
    /// Byte range of the construct (empty for a missing comma: where it belongs).
    pub span: Range<usize>,
}

/// Which hjson-only construct an [`Extension`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtensionKind {
    /// `#`, `//` or `/* */`.
    Comment,
    /// A comma before `}` or `]`.
    TrailingComma,
    /// Members or items separated by a line break instead of a comma.
    MissingComma,
    /// A key without double quotes (bare or single-quoted).
    UnquotedKey,
    /// A value in single quotes.
    SingleQuotedString,
    /// A `'''` multi-line string.
    MultilineString,
    /// A value without quotes that is not a number, `true`, `false` or `null`.
    QuotelessString,
    /// A root object without braces.
    BracelessRoot,
    /// A UTF-8 byte order mark.
    ByteOrderMark,
}

/// A number exactly as written, plus its numeric reading.
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    /// The literal as it appears in the source (`5e8` stays `5e8`).
    pub raw: String,
    /// Parsed value (may be infinite for `1e999`).
    pub value: f64,
    /// True when the literal has no fraction or exponent (a Python `int`).
    pub is_int: bool,
}

/// The value of one node.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Node>),
    Object(Vec<Member>),
}

/// One value in the tree with its span in the source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub span: Range<usize>,
    /// Comments before the closing brace of an object (kept by `fmt`).
    pub trailing_comments: Vec<String>,
}

/// `key: value` inside an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_span: Range<usize>,
    pub value: Node,
    /// Comments written just before this member (kept by `fmt`).
    pub leading_comments: Vec<String>,
}

/// A syntax error with its position (1-based line and column, counted in characters).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ParseError {
    pub message: String,
    pub offset: usize,
    pub line: usize,
    pub column: usize,
    /// JSON pointer of the duplicated key (the later occurrence), when the error is a duplicate.
    pub pointer: Option<String>,
    /// The message in Chinese, for the errors that have one (the rest are shown in English
    /// after a Chinese lead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zh: Option<String>,
}

/// A parsed config: source text, tree and syntax errors.
#[derive(Debug, Clone)]
pub struct Document {
    text: String,
    root: Option<Node>,
    errors: Vec<ParseError>,
    format: Format,
    extensions: Vec<Extension>,
    line_starts: Vec<usize>,
}

/// Two documents are equal when their texts are (the tree and errors follow from the text).
impl PartialEq for Document {
    fn eq(&self, other: &Document) -> bool {
        self.text == other.text && self.format == other.format
    }
}

/// Longest JSON pointer a diagnostic carries; a deeper one names its nearest ancestor that
/// fits (keys can be megabytes long, and a pointer per node would be quadratic).
pub const MAX_POINTER: usize = 4096;

/// One step of a path while walking the tree.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The pointer of a path, cut to its longest ancestor within [`MAX_POINTER`] bytes.
fn pointer_of(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        let token = match step {
            Step::Key(k) => pointer::escape_token(k),
            Step::Index(i) => i.to_string().into(),
        };
        if out.len() + 1 + token.len() > MAX_POINTER {
            break;
        }
        out.push('/');
        out.push_str(&token);
    }
    out
}

/// The pointers of the members whose keys start at `offsets` (how duplicate keys are located),
/// in one walk of the tree that builds a pointer only for a match.
fn pointers_of_keys_at<'a>(
    node: &'a Node,
    offsets: &std::collections::HashSet<usize>,
    path: &mut Vec<Step<'a>>,
    found: &mut std::collections::HashMap<usize, String>,
) {
    match &node.kind {
        Kind::Object(members) => {
            for m in members {
                if found.len() == offsets.len() {
                    return; // every one located
                }
                path.push(Step::Key(&m.key));
                if offsets.contains(&m.key_span.start) {
                    found.insert(m.key_span.start, pointer_of(path));
                }
                if matches!(m.value.kind, Kind::Object(_) | Kind::Array(_)) {
                    pointers_of_keys_at(&m.value, offsets, path, found);
                }
                path.pop();
            }
        }
        Kind::Array(items) => {
            for (i, n) in items.iter().enumerate() {
                if matches!(n.kind, Kind::Object(_) | Kind::Array(_)) {
                    path.push(Step::Index(i));
                    pointers_of_keys_at(n, offsets, path, found);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

/// Finds the offsets pointers name, walking down each pointer; a large object gets a key index
/// the first time a pointer passes through it (keys borrowed, not copied), so many pointers
/// into one huge object stay linear.
pub(crate) struct Locator<'a> {
    root: &'a Node,
    /// Per object (by address): key -> index of its last member with that key.
    indexes: std::collections::HashMap<usize, std::collections::HashMap<&'a str, usize>>,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(root: &'a Node) -> Locator<'a> {
        Locator {
            root,
            indexes: std::collections::HashMap::new(),
        }
    }

    fn member(&mut self, node: &'a Node, key: &str) -> Option<&'a Member> {
        let Kind::Object(members) = &node.kind else {
            return None;
        };
        if members.len() <= 16 {
            return members.iter().rev().find(|m| m.key == key);
        }
        let index = self
            .indexes
            .entry(node as *const Node as usize)
            .or_insert_with(|| {
                members
                    .iter()
                    .enumerate()
                    .map(|(i, m)| (m.key.as_str(), i))
                    .collect()
            });
        index.get(key).map(|&i| &members[i])
    }

    /// Offset of the member key (or array item) a pointer names; the nearest existing ancestor
    /// when the pointer names something missing.
    pub(crate) fn offset(&mut self, pointer: &str) -> usize {
        let mut node = self.root;
        let mut offset = node.span.start;
        for t in pointer::pointer_tokens(pointer) {
            if let Some(m) = self.member(node, &t) {
                offset = m.key_span.start;
                node = &m.value;
            } else if let Some(child) = match &node.kind {
                Kind::Array(items) => t.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            } {
                offset = child.span.start;
                node = child;
            } else {
                break;
            }
        }
        offset
    }
}

impl Document {
    /// Parses `text` as DeepSpeed parses a config file (hjson). Never panics, never fails.
    pub fn parse(text: &str) -> Document {
        Document::parse_with(text, false)
    }

    /// Parses JSON written by Python's `json.dumps`, where `NaN` and `Infinity` are floats
    /// (a config handed to DeepSpeed as a dict rather than a file).
    pub fn parse_python_json(text: &str) -> Document {
        Document::parse_with(text, true)
    }

    fn parse_with(text: &str, python_floats: bool) -> Document {
        let mut out = parser::parse(text, python_floats);
        let starts = line_starts(text);
        let offsets: Vec<usize> = out.errors.iter().map(|e| e.offset).collect();
        for (e, (line, column)) in out
            .errors
            .iter_mut()
            .zip(line_cols(text, &starts, &offsets))
        {
            e.line = line;
            e.column = column;
        }
        if let Some(root) = &out.root {
            let wanted: std::collections::HashSet<usize> = out
                .errors
                .iter()
                .filter(|e| e.pointer.is_none())
                .map(|e| e.offset)
                .collect();
            if !wanted.is_empty() {
                let mut found = std::collections::HashMap::new();
                pointers_of_keys_at(root, &wanted, &mut Vec::new(), &mut found);
                for e in out.errors.iter_mut().filter(|e| e.pointer.is_none()) {
                    e.pointer = found.remove(&e.offset);
                }
            }
        }
        Document {
            line_starts: starts,
            text: text.to_string(),
            root: out.root,
            errors: out.errors,
            format: out.format,
            extensions: out.extensions,
        }
    }

    /// Builds a document from an in-memory JSON value (a config passed as a dict).
    pub fn from_value(value: &serde_json::Value) -> Document {
        let text = serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".into());
        Document::parse(&text)
    }

    pub fn text(&self) -> &str {
        &self.text
    }
    pub fn root(&self) -> Option<&Node> {
        self.root.as_ref()
    }
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }
    /// The hjson-only constructs of the text, in order (at most a thousand).
    pub fn extensions(&self) -> &[Extension] {
        &self.extensions
    }
    pub fn format(&self) -> Format {
        self.format
    }
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty() && self.root.is_some()
    }

    /// 1-based (line, column) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        line_col(&self.text, &self.line_starts, offset)
    }

    /// 1-based (line, column) of many byte offsets, in one sweep over the text.
    pub fn line_cols(&self, offsets: &[usize]) -> Vec<(usize, usize)> {
        line_cols(&self.text, &self.line_starts, offsets)
    }

    /// The node at a JSON pointer (`""` is the root).
    pub fn get(&self, pointer: &str) -> Option<&Node> {
        let mut node = self.root.as_ref()?;
        for token in split_pointer(pointer) {
            node = node.child(&token)?;
        }
        Some(node)
    }

    /// Converts the tree into a `serde_json::Value` (numbers through their raw spelling).
    pub fn to_value(&self) -> Option<serde_json::Value> {
        self.root.as_ref().map(Node::to_value)
    }

    /// Canonical text: two-space indented JSON, key order, number spellings and comments kept.
    pub fn canonical(&self) -> Option<String> {
        self.root.as_ref().map(printer::print)
    }

    /// Canonical JSON without comments, for exports: key order, unknown keys and number
    /// spellings kept.
    pub fn canonical_json(&self) -> Option<String> {
        self.root.as_ref().map(printer::print_json)
    }
}

impl Node {
    /// Child by object key or array index.
    pub fn child(&self, token: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Object(members) => members
                .iter()
                .rev()
                .find(|m| m.key == token)
                .map(|m| &m.value),
            Kind::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        }
    }
    pub fn member(&self, key: &str) -> Option<&Member> {
        match &self.kind {
            Kind::Object(members) => members.iter().rev().find(|m| m.key == key),
            _ => None,
        }
    }
    pub fn members(&self) -> &[Member] {
        match &self.kind {
            Kind::Object(members) => members,
            _ => &[],
        }
    }
    pub fn is_object(&self) -> bool {
        matches!(self.kind, Kind::Object(_))
    }
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match &self.kind {
            Kind::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_number(&self) -> Option<&Number> {
        match &self.kind {
            Kind::Number(n) => Some(n),
            _ => None,
        }
    }
    /// A short name of the JSON type, for messages.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "boolean",
            Kind::Number(n) if n.is_int => "integer",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Object(_) => "object",
        }
    }
    /// [`Node::type_name`] in Chinese, for the Chinese half of a message.
    pub fn type_name_zh(&self) -> &'static str {
        match &self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "布尔值",
            Kind::Number(n) if n.is_int => "整数",
            Kind::Number(_) => "数字",
            Kind::String(_) => "字符串",
            Kind::Array(_) => "数组",
            Kind::Object(_) => "对象",
        }
    }
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Number(n) => number_to_value(n),
            Kind::String(s) => Value::String(s.clone()),
            Kind::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Kind::Object(members) => {
                let mut map = serde_json::Map::new();
                for m in members {
                    map.insert(m.key.clone(), m.value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}

fn number_to_value(n: &Number) -> serde_json::Value {
    if n.is_int {
        if let Ok(i) = n.raw.parse::<i64>() {
            return i.into();
        }
        if let Ok(u) = n.raw.parse::<u64>() {
            return u.into();
        }
    }
    serde_json::Number::from_f64(n.value)
        .map(serde_json::Value::Number)
        .unwrap_or(serde_json::Value::Null)
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            starts.push(i + 1);
        }
    }
    starts
}

/// 1-based (line, column) of many byte offsets in one sweep over the text: linear in the text
/// plus `k log k` for `k` offsets, however long the lines (a per-offset column count would be
/// quadratic on a one-line document with many errors).
fn line_cols(text: &str, starts: &[usize], offsets: &[usize]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    let mut out = vec![(1, 1); offsets.len()];
    // The last position reached: byte offset, line index, characters since the line start.
    let (mut at, mut line, mut col) = (0usize, 0usize, 0usize);
    for i in order {
        let t = offsets[i].min(text.len());
        let t_line = match starts.binary_search(&t) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        if t_line != line || t < at {
            line = t_line;
            at = starts[line];
            col = 0;
        }
        col += text.get(at..t).map(|s| s.chars().count()).unwrap_or(t - at);
        at = t;
        out[i] = (line + 1, col + 1);
    }
    out
}

fn line_col(text: &str, starts: &[usize], offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let line = match starts.binary_search(&offset) {
        Ok(i) => i,
        Err(i) => i - 1,
    };
    let start = starts[line];
    let column = text
        .get(start..offset)
        .map(|s| s.chars().count())
        .unwrap_or(offset - start);
    (line + 1, column + 1)
}

#[cfg(test)]
mod tests;
