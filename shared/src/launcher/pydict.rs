//! The config as Python holds it after `json.load`: a `dict` the Hugging Face code reads with
//! `.get` and writes into. These helpers give [`Node`] trees Python's semantics where HF's code
//! depends on them: `.get` on a non-dict raises `AttributeError`, `==` compares numbers and
//! booleans numerically, and `str()` renders values the way HF's messages quote them.

use crate::document::{Kind, Member, Node, Number};

/// An exception HF's code raises, as Python names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PyErr {
    /// `'<type>' object has no attribute 'get'`
    Attribute(&'static str),
    /// A `TypeError` with Python's message.
    Type(String),
}

impl PyErr {
    pub(crate) fn message(&self) -> String {
        match self {
            PyErr::Attribute(ty) => {
                format!("AttributeError: '{ty}' object has no attribute 'get'")
            }
            PyErr::Type(m) => format!("TypeError: {m}"),
        }
    }
}

/// Python's type name of a JSON value.
pub(crate) fn type_name(node: Option<&Node>) -> &'static str {
    match node.map(|n| &n.kind) {
        None | Some(Kind::Null) => "NoneType",
        Some(Kind::Bool(_)) => "bool",
        Some(Kind::Number(n)) if n.is_int => "int",
        Some(Kind::Number(_)) => "float",
        Some(Kind::String(_)) => "str",
        Some(Kind::Array(_)) => "list",
        Some(Kind::Object(_)) => "dict",
    }
}

/// `d.get(key)` on `d`: an `AttributeError` unless `d` is a dict. The last of duplicate keys
/// wins, as `json.load` keeps it.
pub(crate) fn get<'a>(d: &'a Node, key: &str) -> Result<Option<&'a Node>, PyErr> {
    match &d.kind {
        Kind::Object(members) => Ok(members
            .iter()
            .rev()
            .find(|m| m.key == key)
            .map(|m| &m.value)),
        _ => Err(PyErr::Attribute(type_name(Some(d)))),
    }
}

/// `key in d` for a dict.
pub(crate) fn contains(d: &Node, key: &str) -> bool {
    d.members().iter().any(|m| m.key == key)
}

/// `HfDeepSpeedConfig.find_config_node`: the dict that should hold the last part of a dotted
/// key, `None` when a parent is missing or `None`, an error when a parent is not a dict.
pub(crate) fn find_node<'a>(root: &'a Node, long: &str) -> Result<Option<&'a Node>, PyErr> {
    let mut parts: Vec<&str> = long.split('.').collect();
    parts.pop();
    let mut config = root;
    for p in parts {
        match get(config, p)? {
            Some(n) if !matches!(n.kind, Kind::Null) => config = n,
            _ => return Ok(None),
        }
    }
    Ok(Some(config))
}

/// `HfDeepSpeedConfig.get_value`: the value under a dotted key (`None`: absent or null).
pub(crate) fn get_value<'a>(root: &'a Node, long: &str) -> Result<Option<&'a Node>, PyErr> {
    let key = long.rsplit('.').next().unwrap_or(long);
    match find_node(root, long)? {
        None => Ok(None),
        Some(config) => Ok(get(config, key)?.filter(|n| !matches!(n.kind, Kind::Null))),
    }
}

/// Sets `long` (whose parents exist as dicts) to `value`, replacing the last of duplicate keys
/// or appending a member; the new node takes the span of what it replaces or of its parent.
pub(crate) fn set(root: &mut Node, long: &str, mut value: Node) {
    let mut node = root;
    let parts: Vec<&str> = long.split('.').collect();
    for (i, part) in parts.iter().enumerate() {
        let span = node.span.clone();
        let Kind::Object(members) = &mut node.kind else {
            return;
        };
        let last = i + 1 == parts.len();
        match members.iter().rposition(|m| m.key == *part) {
            Some(at) if last => {
                value.span = members[at].value.span.clone();
                members[at].value = value;
                return;
            }
            Some(at) => node = &mut members[at].value,
            None if last => {
                value.span = span.clone();
                members.push(Member {
                    key: part.to_string(),
                    key_span: span,
                    value,
                    leading_comments: Vec::new(),
                });
                return;
            }
            None => return,
        }
    }
}

/// Removes the members at every dotted key of `longs` in one walk of the tree's objects.
pub(crate) fn remove_all(root: &mut Node, longs: &std::collections::HashSet<&str>) {
    if longs.is_empty() {
        return;
    }
    // Only objects on the way to a removed key are entered.
    let parents: std::collections::HashSet<&str> = longs
        .iter()
        .flat_map(|l| l.match_indices('.').map(move |(i, _)| &l[..i]))
        .collect();
    fn walk(
        node: &mut Node,
        prefix: &mut String,
        longs: &std::collections::HashSet<&str>,
        parents: &std::collections::HashSet<&str>,
    ) {
        let Kind::Object(members) = &mut node.kind else {
            return;
        };
        let base = prefix.len();
        members.retain(|m| {
            prefix.truncate(base);
            if base > 0 {
                prefix.push('.');
            }
            prefix.push_str(&m.key);
            !longs.contains(prefix.as_str())
        });
        for m in members.iter_mut() {
            prefix.truncate(base);
            if base > 0 {
                prefix.push('.');
            }
            prefix.push_str(&m.key);
            if parents.contains(prefix.as_str()) {
                walk(&mut m.value, prefix, longs, parents);
            }
        }
        prefix.truncate(base);
    }
    walk(root, &mut String::new(), longs, &parents);
}

/// `json.load` keeps the last of duplicate keys at the place of the first: the same for every
/// object of the tree.
pub(crate) fn dedupe(node: &mut Node) {
    match &mut node.kind {
        Kind::Object(members) => {
            let mut seen: std::collections::HashMap<String, usize> = Default::default();
            let mut out: Vec<Member> = Vec::with_capacity(members.len());
            for m in members.drain(..) {
                match seen.get(&m.key) {
                    Some(&i) => out[i].value = m.value,
                    None => {
                        seen.insert(m.key.clone(), out.len());
                        out.push(m);
                    }
                }
            }
            for m in &mut out {
                dedupe(&mut m.value);
            }
            *members = out;
        }
        Kind::Array(items) => items.iter_mut().for_each(dedupe),
        _ => {}
    }
}

/// A number as Python would hold it, for arithmetic and comparisons (bools are ints).
pub(crate) fn num(node: Option<&Node>) -> Option<f64> {
    match node.map(|n| &n.kind) {
        Some(Kind::Number(n)) => Some(n.value),
        Some(Kind::Bool(b)) => Some(if *b { 1.0 } else { 0.0 }),
        _ => None,
    }
}

/// Python's `a == b` on two JSON values.
pub(crate) fn eq(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
        (Kind::Null, Kind::Null) => true,
        (Kind::String(x), Kind::String(y)) => x == y,
        (Kind::Array(x), Kind::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| eq(p, q))
        }
        (Kind::Object(_), Kind::Object(_)) => {
            let (x, y) = (a.members(), b.members());
            x.len() == y.len()
                && x.iter()
                    .all(|m| b.member(&m.key).is_some_and(|n| eq(&m.value, &n.value)))
        }
        _ => match (num(Some(a)), num(Some(b))) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

/// Python's `str(value)` (strings bare, as an f-string writes them).
pub(crate) fn str_of(node: &Node) -> String {
    match &node.kind {
        Kind::String(s) => s.clone(),
        _ => repr(node),
    }
}

/// Python's `repr(value)`.
pub(crate) fn repr(node: &Node) -> String {
    match &node.kind {
        Kind::Null => "None".into(),
        Kind::Bool(b) => if *b { "True" } else { "False" }.into(),
        Kind::Number(n) if n.is_int => n.raw.trim_start_matches('+').to_string(),
        Kind::Number(n) => float_repr(n.value),
        Kind::String(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        Kind::Array(items) => format!(
            "[{}]",
            items.iter().map(repr).collect::<Vec<_>>().join(", ")
        ),
        Kind::Object(members) => format!(
            "{{{}}}",
            members
                .iter()
                .map(|m| format!("'{}': {}", m.key, repr(&m.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Python's `repr(float)`: the shortest round-trip digits, positional between 1e-4 and 1e16,
/// else `d.ddde-05`.
pub(crate) fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let a = x.abs();
    if a == 0.0 || (1e-4..1e16).contains(&a) {
        let s = format!("{x}");
        if s.contains('.') {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        let s = format!("{x:e}");
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        format!("{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

/// New nodes for values HF writes into the dict.
pub(crate) fn int(n: i64) -> Node {
    leaf(Kind::Number(Number {
        raw: n.to_string(),
        value: n as f64,
        is_int: true,
    }))
}

pub(crate) fn float(x: f64) -> Node {
    let raw = if x.is_nan() {
        "NaN".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else {
        float_repr(x)
    };
    leaf(Kind::Number(Number {
        raw,
        value: x,
        is_int: false,
    }))
}

pub(crate) fn boolean(b: bool) -> Node {
    leaf(Kind::Bool(b))
}

pub(crate) fn string(s: &str) -> Node {
    leaf(Kind::String(s.to_string()))
}

pub(crate) fn list(items: Vec<Node>) -> Node {
    leaf(Kind::Array(items))
}

pub(crate) fn dict(members: Vec<(&str, Node)>) -> Node {
    leaf(Kind::Object(
        members
            .into_iter()
            .map(|(k, value)| Member {
                key: k.to_string(),
                key_span: 0..0,
                value,
                leading_comments: Vec::new(),
            })
            .collect(),
    ))
}

fn leaf(kind: Kind) -> Node {
    Node {
        kind,
        span: 0..0,
        trailing_comments: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    fn node(text: &str) -> Node {
        Document::parse(text).root().unwrap().clone()
    }

    #[test]
    fn python_equality_and_str() {
        assert!(eq(&node("1"), &node("1.0")));
        assert!(eq(&node("true"), &node("1")));
        assert!(!eq(&node("\"1\""), &node("1")));
        assert!(eq(
            &node("[0.9, 0.999]"),
            &list(vec![float(0.9), float(0.999)])
        ));
        assert_eq!(float_repr(5e-5), "5e-05");
        assert_eq!(float_repr(1e-8), "1e-08");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(1.0), "1.0");
        assert_eq!(float_repr(3e16), "3e+16");
        assert_eq!(
            repr(&node(r#"{"a": [true, null, "x"]}"#)),
            "{'a': [True, None, 'x']}"
        );
    }

    #[test]
    fn get_raises_on_a_non_dict_and_find_stops_at_none() {
        let root = node(r#"{"zero_optimization": false, "optimizer": null}"#);
        assert_eq!(
            get_value(&root, "zero_optimization.stage")
                .unwrap_err()
                .message(),
            "AttributeError: 'bool' object has no attribute 'get'"
        );
        assert!(get_value(&root, "optimizer.params.lr").unwrap().is_none());
        assert!(get_value(&root, "scheduler.params.lr").unwrap().is_none());
    }

    #[test]
    fn set_and_dedupe_keep_json_load_order() {
        let mut root = node(r#"{"a": 1, "b": {"c": 2}, "a": 3}"#);
        dedupe(&mut root);
        assert_eq!(repr(&root), "{'a': 3, 'b': {'c': 2}}");
        set(&mut root, "b.c", string("x"));
        set(&mut root, "b.d", int(4));
        remove_all(&mut root, &["a"].into_iter().collect());
        assert_eq!(repr(&root), "{'b': {'c': 'x', 'd': 4}}");
        remove_all(&mut root, &["b.c", "b.x.y", "z"].into_iter().collect());
        assert_eq!(repr(&root), "{'b': {'d': 4}}");
    }

    #[test]
    fn removing_many_keys_is_one_walk() {
        // 50,000 keys of one object: one pass (the old per-key removal took seconds).
        let text = format!(
            "{{{}}}",
            (0..50_000)
                .map(|i| format!("\"k{i}\": {{\"v\": 1, \"w\": 2}}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut root = node(&text);
        let longs: Vec<String> = (0..50_000).map(|i| format!("k{i}.v")).collect();
        remove_all(&mut root, &longs.iter().map(String::as_str).collect());
        assert_eq!(root.members().len(), 50_000);
        assert!(root.members().iter().all(|m| m.value.members().len() == 1));
    }
}
