//! Read access to the config tree for rules: lookups by dotted path and Python-like readings
//! of values the way DeepSpeed's `dict.get` code sees them.
//! `View::get` hides a key the chosen release does not read, so no rule judges a key that
//! release ignores (the walk reports it).

use super::Context;
use crate::document::{Kind, Member, Node};
use crate::registry::{registry, Mode};
use crate::release::Release;

/// A value as Python would hold it after `json`/`hjson` loading.
#[derive(Debug, Clone, PartialEq)]
pub enum Py {
    None,
    Bool(bool),
    Int(f64),
    Float(f64),
    Str(String),
    List,
    Dict,
}

impl Py {
    pub fn of(node: &Node) -> Py {
        match &node.kind {
            Kind::Null => Py::None,
            Kind::Bool(b) => Py::Bool(*b),
            Kind::Number(n) if n.is_int => Py::Int(n.value),
            Kind::Number(n) => Py::Float(n.value),
            Kind::String(s) => Py::Str(s.clone()),
            Kind::Array(_) => Py::List,
            Kind::Object(_) => Py::Dict,
        }
    }
    /// Numeric value for arithmetic (bools are ints in Python).
    pub fn num(&self) -> Option<f64> {
        match self {
            Py::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
            Py::Int(v) | Py::Float(v) => Some(*v),
            _ => None,
        }
    }
    /// Python truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Py::None => false,
            Py::Bool(b) => *b,
            Py::Int(v) | Py::Float(v) => *v != 0.0,
            Py::Str(s) => !s.is_empty(),
            Py::List | Py::Dict => true,
        }
    }
    /// Python's name of the value's type (`type(v).__name__`), as DeepSpeed's errors print it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Py::None => "NoneType",
            Py::Bool(_) => "bool",
            Py::Int(_) => "int",
            Py::Float(_) => "float",
            Py::Str(_) => "str",
            Py::List => "list",
            Py::Dict => "dict",
        }
    }
    /// `repr`-like rendering for messages.
    pub fn show(&self) -> String {
        match self {
            Py::None => "None".into(),
            Py::Bool(b) => if *b { "True" } else { "False" }.into(),
            Py::Int(v) => format!("{}", *v as i128),
            Py::Float(v) => {
                if v.fract() == 0.0 && v.abs() < 1e16 {
                    format!("{v:.1}")
                } else {
                    format!("{v}")
                }
            }
            Py::Str(s) => format!("'{s}'"),
            Py::List => "[...]".into(),
            Py::Dict => "{...}".into(),
        }
    }
}

/// The config tree plus the context, as rules see it.
pub struct View<'a> {
    pub root: &'a Node,
    pub ctx: &'a Context,
    /// The DeepSpeed release the config is judged for (from the context).
    pub release: Release,
    /// The document has duplicate keys (then only the last of each is read).
    pub has_duplicates: bool,
    /// Key indexes of large objects (by address), made the first time one is searched, so
    /// the many lookups of the rules and the walk stay linear in a huge object.
    indexes: std::cell::RefCell<
        std::collections::HashMap<usize, std::collections::HashMap<&'a str, &'a Member>>,
    >,
}

impl<'a> View<'a> {
    pub fn new(root: &'a Node, ctx: &'a Context) -> View<'a> {
        View {
            root,
            ctx,
            release: ctx.release().unwrap_or_default(),
            has_duplicates: false,
            indexes: Default::default(),
        }
    }

    /// The member `key` of an object (the last one, as DeepSpeed reads duplicates).
    pub fn member(&self, node: &'a Node, key: &str) -> Option<&'a Member> {
        let Kind::Object(members) = &node.kind else {
            return None;
        };
        if members.len() <= 16 {
            return members.iter().rev().find(|m| m.key == key);
        }
        let mut indexes = self.indexes.borrow_mut();
        let index = indexes
            .entry(node as *const Node as usize)
            .or_insert_with(|| members.iter().map(|m| (m.key.as_str(), m)).collect());
        index.get(key).copied()
    }

    /// The node at a dotted path (`zero_optimization.stage`), as the chosen release reads
    /// it: a key that release does not read (too new, gone, removed) is absent to the rules
    /// (the walk reports it).
    pub fn get(&self, dotted: &str) -> Option<&'a Node> {
        // Split by hand: the rules ask for hundreds of paths per document, and a `str::split`
        // searcher costs more than these few bytes.
        let mut node = self.root;
        let mut rest = dotted;
        loop {
            let (token, tail) = match rest.bytes().position(|b| b == b'.') {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            node = self.member(node, token).map(|m| &m.value)?;
            match tail {
                Some(t) => rest = t,
                None => break,
            }
        }
        match registry().get(dotted) {
            Some(spec) if !spec.known_in(self.release) => None,
            _ => Some(node),
        }
    }

    pub fn py(&self, dotted: &str) -> Option<Py> {
        self.get(dotted).map(Py::of)
    }

    /// A strict-section field's effective value: `"auto"` is dropped (default applies).
    pub fn strict(&self, dotted: &str) -> Option<Py> {
        match self.py(dotted) {
            Some(Py::Str(s)) if s == "auto" => None,
            other => other,
        }
    }

    /// Effective boolean of a strict field with pydantic's lax bool parsing.
    pub fn strict_bool(&self, dotted: &str, default: bool) -> bool {
        match self.strict(dotted) {
            Some(p) => super::coerce::to_bool(&p).unwrap_or(default),
            None => default,
        }
    }

    /// The ZeRO stage DeepSpeed will use (legacy boolean form, `"auto"` and defaults included).
    pub fn zero_stage(&self) -> u8 {
        match self.get("zero_optimization").map(|n| &n.kind) {
            Some(Kind::Bool(true)) => 1,
            Some(Kind::Object(_)) => match self.strict("zero_optimization.stage") {
                Some(p) => super::coerce::to_int(&p)
                    .ok()
                    .filter(|v| (0.0..=3.0).contains(v))
                    .map(|v| v as u8)
                    .unwrap_or(0),
                None => 0,
            },
            _ => 0,
        }
    }

    /// The precision section in force for bf16 (`bf16`, else the legacy `bfloat16`).
    pub fn bf16_section(&self) -> &'static str {
        match self.get("bf16") {
            Some(n) if !matches!(n.kind, Kind::Null) => "bf16",
            _ if self.get("bfloat16").is_some() => "bfloat16",
            _ => "bf16",
        }
    }

    /// Whether the precision sections are read with `dict.get` by this release (before
    /// 0.17.1): then `"enabled"` counts by Python truthiness (`"auto"` is true).
    pub fn precision_is_lax(&self) -> bool {
        let reg = registry();
        reg.get("fp16.enabled")
            .is_some_and(|spec| reg.mode(spec, self.release) == Mode::Lax)
    }

    fn section_enabled(&self, section: &str) -> bool {
        if !self.get(section).is_some_and(Node::is_object) {
            return false;
        }
        let path = format!("{section}.enabled");
        if self.precision_is_lax() {
            self.py(&path).is_some_and(|p| p.truthy())
        } else {
            self.strict_bool(&path, false)
        }
    }

    pub fn fp16_enabled(&self) -> bool {
        self.section_enabled("fp16")
    }

    pub fn bf16_enabled(&self) -> bool {
        self.section_enabled(self.bf16_section())
    }
}
