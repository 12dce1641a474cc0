//! Edits that splice text: only the bytes of what changed are rewritten, so everything else
//! (comments, key order, number spellings, whitespace) survives. Fixes are JSON patches
//! (RFC 6902) applied through these primitives.

use super::{split_pointer, Document, Kind, Node};
use serde_json::Value;

/// Why an edit could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("the document has syntax errors; fix them before editing")]
    Unparsed,
    #[error("no value at {0}")]
    Missing(String),
    #[error("the parent of {0} is not an object")]
    NotAnObject(String),
    #[error("invalid JSON patch: {0}")]
    BadPatch(String),
}

impl Document {
    /// Sets the value at `pointer`, inserting the member (and missing parent objects) if needed.
    pub fn set(&self, pointer: &str, value: &Value) -> Result<Document, EditError> {
        let root = self.root().ok_or(EditError::Unparsed)?;
        if let Some(node) = self.get(pointer) {
            let level = self.indent_of(node.span.start);
            let text = render(value, &level);
            return Ok(self.splice(node.span.clone(), &text));
        }
        let tokens = split_pointer(pointer);
        if tokens.is_empty() {
            return Err(EditError::Missing(pointer.into()));
        }
        // Find the deepest existing ancestor object, then insert one member holding the rest.
        let mut node = root;
        let mut depth = 0;
        while depth < tokens.len() - 1 {
            match node.child(&tokens[depth]) {
                Some(child) if child.is_object() => {
                    node = child;
                    depth += 1;
                }
                Some(_) => return Err(EditError::NotAnObject(pointer.into())),
                None => break,
            }
        }
        if !node.is_object() {
            return Err(EditError::NotAnObject(pointer.into()));
        }
        let mut nested = value.clone();
        for token in tokens[depth + 1..].iter().rev() {
            let mut map = serde_json::Map::new();
            map.insert(token.clone(), nested);
            nested = Value::Object(map);
        }
        Ok(self.insert_member(node, &tokens[depth], &nested))
    }

    /// Removes the member or array item at `pointer`.
    /// Sets the value at `pointer` to a literal written exactly as given (`5e8` stays `5e8`);
    /// `raw` must be one JSON value.
    pub fn set_raw(&self, pointer: &str, raw: &str) -> Result<Document, EditError> {
        let with_null = self.set(pointer, &Value::Null)?;
        let span = with_null
            .get(pointer)
            .map(|n| n.span.clone())
            .ok_or(EditError::Unparsed)?;
        Ok(with_null.splice(span, raw))
    }

    pub fn remove(&self, pointer: &str) -> Result<Document, EditError> {
        self.root().ok_or(EditError::Unparsed)?;
        let tokens = split_pointer(pointer);
        let Some((last, parent_tokens)) = tokens.split_last() else {
            return Err(EditError::Missing(pointer.into()));
        };
        let parent_ptr: String = parent_tokens
            .iter()
            .map(|t| format!("/{}", super::escape_token(t)))
            .collect();
        let parent = self
            .get(&parent_ptr)
            .ok_or_else(|| EditError::Missing(pointer.into()))?;
        let spans: Vec<(std::ops::Range<usize>, usize)> = match &parent.kind {
            Kind::Object(members) => members
                .iter()
                .map(|m| (m.key_span.start..m.value.span.end, m.value.span.end))
                .collect(),
            Kind::Array(items) => items.iter().map(|i| (i.span.clone(), i.span.end)).collect(),
            _ => return Err(EditError::Missing(pointer.into())),
        };
        let index = match &parent.kind {
            Kind::Object(members) => members.iter().rposition(|m| &m.key == last),
            Kind::Array(_) => last.parse::<usize>().ok().filter(|i| *i < spans.len()),
            _ => None,
        }
        .ok_or_else(|| EditError::Missing(pointer.into()))?;
        let text = self.text();
        let bytes = text.as_bytes();
        let (span, _) = &spans[index];
        let mut start = span.start;
        let mut end = span.end;
        // Eat a following comma.
        let mut j = end;
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        let had_comma = j < bytes.len() && bytes[j] == b',';
        if had_comma {
            end = j + 1;
            while end < bytes.len() && matches!(bytes[end], b' ' | b'\t') {
                end += 1;
            }
        } else if index > 0 {
            // Last member: remove the comma that follows the previous one instead.
            let prev_end = spans[index - 1].1;
            if let Some(k) = text[prev_end..start].find(',') {
                let comment_free = !text[prev_end..prev_end + k].contains('#')
                    && !text[prev_end..prev_end + k].contains("//");
                if comment_free {
                    // Remove from that comma through the member, in one splice.
                    return Ok(self.splice(prev_end + k..end, ""));
                }
            }
        }
        // If the member sat alone on its lines, remove those lines entirely.
        let line_start = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        if text[line_start..start].trim().is_empty() {
            let mut k = end;
            while k < bytes.len() && matches!(bytes[k], b' ' | b'\t' | b'\r') {
                k += 1;
            }
            if k < bytes.len() && bytes[k] == b'\n' {
                start = line_start;
                end = k + 1;
            }
        }
        Ok(self.splice(start..end, ""))
    }

    /// Renames the key at `pointer` in place (the member keeps its position).
    pub fn rename(&self, pointer: &str, new_key: &str) -> Result<Document, EditError> {
        let tokens = split_pointer(pointer);
        let Some((last, parent_tokens)) = tokens.split_last() else {
            return Err(EditError::Missing(pointer.into()));
        };
        let parent_ptr: String = parent_tokens
            .iter()
            .map(|t| format!("/{}", super::escape_token(t)))
            .collect();
        let member = self
            .get(&parent_ptr)
            .and_then(|p| p.member(last))
            .ok_or_else(|| EditError::Missing(pointer.into()))?;
        let key = serde_json::to_string(new_key).unwrap_or_default();
        Ok(self.splice(member.key_span.clone(), &key))
    }

    /// Applies an RFC 6902 patch (`add`, `replace`, `remove`, `move`, `copy`, `test`).
    pub fn apply_patch(&self, patch: &Value) -> Result<Document, EditError> {
        let ops = patch
            .as_array()
            .ok_or_else(|| EditError::BadPatch("a patch is an array of operations".into()))?;
        let mut doc = self.clone();
        for op in ops {
            let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
            let path = op
                .get("path")
                .and_then(Value::as_str)
                .ok_or_else(|| EditError::BadPatch("operation without a path".into()))?;
            doc = match kind {
                "add" | "replace" => {
                    let value = op
                        .get("value")
                        .ok_or_else(|| EditError::BadPatch(format!("{kind} without a value")))?;
                    if kind == "replace" && doc.get(path).is_none() {
                        return Err(EditError::Missing(path.into()));
                    }
                    doc.set(path, value)?
                }
                "remove" => doc.remove(path)?,
                "move" | "copy" => {
                    let from = op
                        .get("from")
                        .and_then(Value::as_str)
                        .ok_or_else(|| EditError::BadPatch(format!("{kind} without from")))?;
                    let value = doc
                        .get(from)
                        .map(Node::to_value)
                        .ok_or_else(|| EditError::Missing(from.into()))?;
                    let same_parent = parent_of(from) == parent_of(path);
                    if kind == "move" && same_parent && doc.get(path).is_none() {
                        let new_key = split_pointer(path).pop().unwrap_or_default();
                        doc.rename(from, &new_key)?
                    } else if kind == "move" {
                        doc.remove(from)?.set(path, &value)?
                    } else {
                        doc.set(path, &value)?
                    }
                }
                "test" => {
                    let want = op.get("value").cloned().unwrap_or(Value::Null);
                    if doc.get(path).map(Node::to_value) != Some(want) {
                        return Err(EditError::BadPatch(format!("test failed at {path}")));
                    }
                    doc
                }
                other => return Err(EditError::BadPatch(format!("unknown op '{other}'"))),
            };
        }
        Ok(doc)
    }

    fn splice(&self, range: std::ops::Range<usize>, with: &str) -> Document {
        let mut text = String::with_capacity(self.text().len() + with.len());
        text.push_str(&self.text()[..range.start]);
        text.push_str(with);
        text.push_str(&self.text()[range.end..]);
        Document::parse(&text)
    }

    /// Leading whitespace of the line holding `offset`.
    fn indent_of(&self, offset: usize) -> String {
        let text = self.text();
        let line_start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
        text[line_start..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    }

    fn insert_member(&self, object: &Node, key: &str, value: &Value) -> Document {
        let text = self.text();
        let key_json = serde_json::to_string(key).unwrap_or_default();
        let members = object.members();
        if let Some(last) = members.last() {
            let member_indent = self.indent_of(last.key_span.start);
            let value_text = render(value, &member_indent);
            let value_src = &text[last.value.span.clone()];
            let quoteless = matches!(last.value.kind, Kind::String(_))
                && !value_src.starts_with('"')
                && !value_src.starts_with('\'');
            let same_line = text[object.span.start..last.key_span.start].contains('\n');
            let sep = if quoteless { "" } else { "," };
            let insertion = if same_line {
                format!("{sep}\n{member_indent}{key_json}: {value_text}")
            } else {
                format!("{sep} {key_json}: {value_text}")
            };
            // Keep an existing comma after the last member where it is.
            let after = last.value.span.end;
            let rest = &text[after..];
            let ws = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            if rest[ws..].starts_with(',') {
                let at = after + ws + 1;
                let insertion = insertion.trim_start_matches(',').to_string();
                return self.splice(at..at, &insertion);
            }
            self.splice(after..after, &insertion)
        } else {
            let outer = self.indent_of(object.span.start);
            let inner = format!("{outer}  ");
            let value_text = render(value, &inner);
            let body = format!("{{\n{inner}{key_json}: {value_text}\n{outer}}}");
            if object.span.start == object.span.end {
                // Braceless empty root.
                return self.splice(0..text.len(), &body);
            }
            self.splice(object.span.clone(), &body)
        }
    }
}

fn parent_of(pointer: &str) -> &str {
    pointer.rfind('/').map(|i| &pointer[..i]).unwrap_or("")
}

/// JSON text for a new value: scalars compact, containers pretty, indented under `indent`.
fn render(value: &Value, indent: &str) -> String {
    match value {
        Value::Object(m) if !m.is_empty() => {
            let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
            pretty.replace('\n', &format!("\n{indent}"))
        }
        _ => serde_json::to_string(value).unwrap_or_default(),
    }
}
