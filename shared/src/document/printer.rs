//! Canonical printing for `ds-studio fmt`: two-space indentation, one member per line, keys in
//! their original order, numbers in their original spelling, strings as JSON strings, comments
//! kept on their own lines.

use super::{Kind, Node};

pub(super) fn print(root: &Node) -> String {
    let mut out = String::new();
    write_node(&mut out, root, 0, true);
    out.push('\n');
    out
}

/// The same without comments: strict JSON for exports (numbers keep their spelling).
pub(super) fn print_json(root: &Node) -> String {
    let mut out = String::new();
    write_node(&mut out, root, 0, false);
    out.push('\n');
    out
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_comments(out: &mut String, comments: &[String], level: usize) {
    for c in comments {
        for line in c.lines() {
            indent(out, level);
            out.push_str(line.trim_start());
            out.push('\n');
        }
    }
}

fn write_node(out: &mut String, node: &Node, level: usize, comments: bool) {
    match &node.kind {
        Kind::Null => out.push_str("null"),
        Kind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Kind::Number(n) => out.push_str(&n.raw),
        Kind::String(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
        Kind::Array(items) => {
            let simple = items
                .iter()
                .all(|i| !matches!(i.kind, Kind::Array(_) | Kind::Object(_)));
            if items.is_empty() {
                out.push_str("[]");
            } else if simple {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_node(out, item, level, comments);
                }
                out.push(']');
            } else {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    indent(out, level + 1);
                    write_node(out, item, level + 1, comments);
                    if i + 1 < items.len() {
                        out.push(',');
                    }
                    out.push('\n');
                }
                indent(out, level);
                out.push(']');
            }
        }
        Kind::Object(members) => {
            if members.is_empty() && (node.trailing_comments.is_empty() || !comments) {
                out.push_str("{}");
                return;
            }
            out.push_str("{\n");
            for (i, m) in members.iter().enumerate() {
                if comments {
                    write_comments(out, &m.leading_comments, level + 1);
                }
                indent(out, level + 1);
                out.push_str(&serde_json::to_string(&m.key).unwrap_or_default());
                out.push_str(": ");
                write_node(out, &m.value, level + 1, comments);
                if i + 1 < members.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            if comments {
                write_comments(out, &node.trailing_comments, level + 1);
            }
            indent(out, level);
            out.push('}');
        }
    }
}
