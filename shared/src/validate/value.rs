//! Checks of one value against its key's spec: null, "auto", booleans written as strings, the
//! declared types with pydantic's coercions (v2, or v1 for 0.14.x) in strict sections, and
//! enumerations and ranges as the chosen release bounds them.
//!
//! The registry is asked once per value (its mode, whether the section is a plain model,
//! whether pydantic v1 checks it); each concern is then one function of [`Value`].

use super::coerce;
use super::view::Py;
use super::{Diagnostic, View};
use crate::document::{Kind, Node};
use crate::i18n::Text;
use crate::registry::{registry, KeySpec, Mode, Ty};
use crate::release::Release;
use serde_json::json;

/// One value under check, with what the registry says about it looked up once.
struct Value<'a> {
    spec: &'a KeySpec,
    node: &'a Node,
    ptr: &'a str,
    py: Py,
    /// A pydantic section: a wrong value fails the parse (an error), not a later read.
    strict: bool,
    /// Checked by pydantic v1 (DeepSpeed 0.14.x), with its own coercions.
    v1: bool,
    release: Release,
}

/// Checks one value against its spec.
pub(super) fn check_value(
    view: &View,
    node: &Node,
    spec: &KeySpec,
    ptr: &str,
    out: &mut Vec<Diagnostic>,
) {
    if spec.accepts(Ty::Any) {
        return;
    }
    let reg = registry();
    let py = Py::of(node);
    let parent = spec.parent();
    if matches!(&py, Py::Str(s) if s == "auto") && !reg.plain_model(parent, view.release) {
        // Strict sections drop "auto"; lax "auto" is handled by the auto rules. A plain
        // pydantic model (0.14.x's `comms_logger`) checks it like any other value.
        return;
    }
    let strict = reg.mode(spec, view.release) == Mode::Strict;
    if matches!(py, Py::None) {
        if !spec.nullable && strict {
            out.push(type_error(spec, ptr, node, "Input should not be null"));
        }
        return;
    }
    let v = Value {
        spec,
        node,
        ptr,
        py,
        strict,
        v1: strict && reg.has_check("pydantic-v1", view.release),
        release: view.release,
    };
    if v.bool_as_string(out) {
        return;
    }
    let number = match v.first_fitting_type() {
        Ok(number) => number,
        Err(reason) => return v.type_mismatch(reason, out),
    };
    if strict {
        coerced(spec, ptr, &v.py, number, out);
    }
    if let (Kind::Array(items), false) = (&node.kind, spec.r#enum.is_empty()) {
        // Enumerations of each item for lists (`compile.passes`).
        return v.enum_items(items, out);
    }
    v.enum_value(number, out);
    if let Some(n) = number {
        v.range(n, out);
    }
}

impl Value<'_> {
    /// A boolean written as a string (`"true"`): pydantic coerces it, Python's `if` does not.
    /// Returns whether it was said (nothing more is checked then).
    fn bool_as_string(&self, out: &mut Vec<Diagnostic>) -> bool {
        let (spec, strict) = (self.spec, self.strict);
        if !spec.accepts(Ty::Bool) || spec.accepts(Ty::String) {
            return false;
        }
        let Py::Str(s) = &self.py else { return false };
        let Ok(b) = coerce::to_bool(&self.py) else {
            return false;
        };
        if !(["true", "false"].contains(&s.trim().to_ascii_lowercase().as_str()) || strict) {
            return false;
        }
        out.push(
            Diagnostic::warning(
                "bool-as-string",
                self.ptr,
                Text::new(
                    if strict {
                        format!("`{}` is the string \"{s}\", not a boolean: DeepSpeed's pydantic check turns it into {b}; write {b}", spec.path)
                    } else {
                        format!("`{}` is the string \"{s}\", not a boolean: DeepSpeed tests it with `if`, so any non-empty string counts as true; write {b}", spec.path)
                    },
                    if strict {
                        format!("`{}` 写成了字符串 \"{s}\" 而不是布尔值：DeepSpeed 的 pydantic 校验会把它转成 {b}；请直接写 {b}", spec.path)
                    } else {
                        format!("`{}` 写成了字符串 \"{s}\" 而不是布尔值：DeepSpeed 用 if 判断，任何非空字符串都会被当作 true；请直接写 {b}", spec.path)
                    },
                ),
            )
            .with_fix(json!([{"op": "replace", "path": self.ptr, "value": b}])),
        );
        true
    }

    /// The first declared type the value fits, tried in a pydantic-like order (the exact JSON
    /// type first): the value as a number where the type is numeric, or the last reason none
    /// fits.
    fn first_fitting_type(&self) -> Result<Option<f64>, &'static str> {
        let mut order = self.spec.types.clone();
        order.sort_by_key(|t| match (t, &self.py) {
            (Ty::Bool, Py::Bool(_))
            | (Ty::String, Py::Str(_))
            | (Ty::Object, Py::Dict)
            | (Ty::Array, Py::List) => 0,
            (Ty::Int, Py::Int(_)) | (Ty::Float | Ty::Number, Py::Float(_)) => 0,
            _ => 1,
        });
        let mut last_err = "wrong type";
        for ty in order {
            match self.fits(ty) {
                Ok(n) => return Ok(n),
                Err(e) => last_err = e,
            }
        }
        Err(last_err)
    }

    /// Whether the value fits one type, as DeepSpeed's release checks it: the value as a number
    /// where the type is numeric.
    fn fits(&self, ty: Ty) -> Result<Option<f64>, &'static str> {
        let (py, spec, strict, v1) = (&self.py, self.spec, self.strict, self.v1);
        match ty {
            // An enum field (`ZeroStageEnum`, `OffloadDeviceEnum`) takes its members' values
            // only: an int enum no strings nor fractions, a string enum no numbers.
            Ty::Int if v1 && !spec.r#enum.is_empty() => match py {
                Py::Int(v) => Ok(Some(*v)),
                Py::Bool(b) => Ok(Some(if *b { 1.0 } else { 0.0 })),
                Py::Float(v) if v.fract() == 0.0 => Ok(Some(*v)),
                _ => Err("value is not a valid enumeration member"),
            },
            Ty::Int if v1 => coerce::v1::to_int(py).map(Some),
            // `Path` fields (the offload `nvme_path`) take strings only.
            Ty::String if v1 && (!spec.r#enum.is_empty() || spec.name() == "nvme_path") => {
                coerce::to_str(py).map(|_| None)
            }
            Ty::String if v1 => coerce::v1::to_str(py).map(|_| None),
            Ty::Object if v1 && self.pairs() => Ok(None),
            Ty::Int if strict => coerce::to_int(py).map(Some),
            Ty::Int => match py {
                Py::Int(v) => Ok(Some(*v)),
                Py::Float(v) if v.fract() == 0.0 => Ok(Some(*v)),
                _ => Err("expected an integer"),
            },
            Ty::Float | Ty::Number if strict => coerce::to_float(py).map(Some),
            Ty::Float | Ty::Number => match py {
                Py::Int(v) | Py::Float(v) => Ok(Some(*v)),
                _ => Err("expected a number"),
            },
            Ty::Bool if strict => coerce::to_bool(py).map(|_| None),
            Ty::Bool => match py {
                Py::Bool(_) => Ok(None),
                Py::Int(v) if *v == 0.0 || *v == 1.0 => Ok(None),
                _ => Err("expected a boolean"),
            },
            Ty::String => coerce::to_str(py).map(|_| None),
            Ty::Object => match py {
                Py::Dict => Ok(None),
                _ => Err("Input should be a valid dictionary"),
            },
            Ty::Array => match py {
                Py::List => Ok(None),
                _ => Err("Input should be a valid list"),
            },
            Ty::Auto => Err("expected \"auto\""),
            Ty::Any => Ok(None),
        }
    }

    /// A list of pairs, which pydantic v1 takes for a dictionary.
    fn pairs(&self) -> bool {
        match &self.node.kind {
            Kind::Array(items) => items
                .iter()
                .all(|i| matches!(&i.kind, Kind::Array(p) if p.len() == 2)),
            _ => false,
        }
    }

    /// A value of none of the declared types: the parse fails (strict), DeepSpeed fails later
    /// (an error saying when), or it only reads it later (a warning).
    fn type_mismatch(&self, reason: &str, out: &mut Vec<Diagnostic>) {
        let (spec, ptr, node, py) = (self.spec, self.ptr, self.node, &self.py);
        if self.strict {
            out.push(type_error(spec, ptr, node, reason));
        } else if let Some((crash, when, when_zh)) = late_failure(spec, py) {
            out.push(Diagnostic::error(
                "invalid-type",
                ptr,
                Text::new(
                    format!("`{}` should be {}, found {} {}: DeepSpeed accepts it when it parses the config, then {when} {crash}", spec.path, type_words(spec), node.type_name(), py.show()),
                    format!("`{}` 应为{}，实际为{} {}：DeepSpeed 解析配置时接受，但{when_zh}（{}）", spec.path, type_words_zh(spec), node.type_name_zh(), py.show(), python_error_only(&crash)),
                ),
            ));
        } else {
            out.push(Diagnostic::warning(
                "wrong-type",
                ptr,
                Text::new(
                    format!(
                        "`{}` should be {}, found {} {}",
                        spec.path,
                        type_words(spec),
                        node.type_name(),
                        py.show()
                    ),
                    format!(
                        "`{}` 应为{}，实际为{} {}",
                        spec.path,
                        type_words_zh(spec),
                        node.type_name_zh(),
                        py.show()
                    ),
                ),
            ));
        }
    }

    /// Each item of a list with an enumeration must be one of its members.
    fn enum_items(&self, items: &[Node], out: &mut Vec<Diagnostic>) {
        let spec = self.spec;
        for (i, item) in items.iter().enumerate() {
            let ok = item
                .as_str()
                .is_some_and(|s| spec.r#enum.iter().any(|e| e == s));
            if !ok {
                out.push(Diagnostic::error(
                    "invalid-value",
                    &format!("{}/{i}", self.ptr),
                    Text::new(
                        format!(
                            "each item of `{}` must be one of {}; found {}",
                            spec.path,
                            spec.r#enum.join(", "),
                            Py::of(item).show()
                        ),
                        format!(
                            "`{}` 的每一项只能是 {} 之一，实际为 {}",
                            spec.path,
                            spec.r#enum.join(", "),
                            Py::of(item).show()
                        ),
                    ),
                ));
            }
        }
    }

    /// A scalar with an enumeration must be one of its members (or a spelling DeepSpeed takes,
    /// compared as its enum compares).
    fn enum_value(&self, number: Option<f64>, out: &mut Vec<Diagnostic>) {
        let (spec, py) = (self.spec, &self.py);
        if spec.r#enum.is_empty() {
            return;
        }
        let candidate = match (py, number) {
            (_, Some(n)) if n.fract() == 0.0 => format!("{}", n as i64),
            (Py::Str(s), _) => s.clone(),
            _ => return,
        };
        let case = spec.enum_case.as_deref().unwrap_or("exact");
        let matches = spec
            .r#enum
            .iter()
            .chain(&spec.spellings)
            .any(|e| match case {
                "lower" | "upper" | "insensitive" => e.eq_ignore_ascii_case(&candidate),
                _ => *e == candidate,
            });
        if matches {
            return;
        }
        let allowed = spec.r#enum.join(", ");
        let en = format!(
            "`{}` must be one of {allowed}; found {}",
            spec.path,
            py.show()
        );
        let zh = format!(
            "`{}` 只能取 {} 之一，实际为 {}",
            spec.path,
            spec.r#enum.join("、"),
            py.show()
        );
        if self.strict {
            out.push(Diagnostic::error(
                "invalid-value",
                self.ptr,
                Text::new(en, zh),
            ));
        } else if let Some(crash) = spec.fails_at_start.as_ref().filter(|_| spec.enum_at_start) {
            out.push(Diagnostic::error(
                "invalid-value",
                self.ptr,
                Text::new(
                    format!("{en}: DeepSpeed accepts it when it parses the config, then fails when the engine starts with {crash}"),
                    format!("{zh}：DeepSpeed 解析配置时接受，但启动引擎时会失败（{crash}）"),
                ),
            ));
        } else {
            out.push(Diagnostic::warning(
                "invalid-value",
                self.ptr,
                Text::new(en, zh),
            ));
        }
    }

    /// A number within the bounds the chosen release puts on the field (NaN is outside any).
    fn range(&self, n: f64, out: &mut Vec<Diagnostic>) {
        let (spec, py) = (self.spec, &self.py);
        let (min, max) = spec.range_at(self.release);
        let low = min.is_some_and(|(m, excl)| n.is_nan() || if excl { n <= m } else { n < m });
        let high =
            !low && max.is_some_and(|(m, excl)| n.is_nan() || if excl { n >= m } else { n > m });
        if !(low || high) {
            return;
        }
        let ((bound, excl), words, words_zh) = if low {
            (
                min.unwrap_or((0.0, false)),
                ["greater than", "at least"],
                ["大于", "不小于"],
            )
        } else {
            (
                max.unwrap_or((0.0, false)),
                ["less than", "at most"],
                ["小于", "不大于"],
            )
        };
        let i = usize::from(!excl);
        let en = format!(
            "`{}` must be {} {bound}; found {}",
            spec.path,
            words[i],
            py.show()
        );
        let zh = format!(
            "`{}` 必须{} {bound}，实际为 {}",
            spec.path,
            words_zh[i],
            py.show()
        );
        out.push(if self.strict {
            Diagnostic::error("out-of-range", self.ptr, Text::new(en, zh))
        } else {
            Diagnostic::warning("out-of-range", self.ptr, Text::new(en, zh))
        });
    }
}

/// The declared types in words (`integer or null`).
fn type_words(spec: &KeySpec) -> String {
    type_words_in(spec, false)
}

/// [`type_words`] in Chinese.
fn type_words_zh(spec: &KeySpec) -> String {
    type_words_in(spec, true)
}

fn type_words_in(spec: &KeySpec, zh: bool) -> String {
    let mut words: Vec<&str> = spec
        .types
        .iter()
        .map(|t| match (t, zh) {
            (Ty::Int, false) => "integer",
            (Ty::Int, true) => "整数",
            (Ty::Float | Ty::Number, false) => "number",
            (Ty::Float | Ty::Number, true) => "数字",
            (Ty::Bool, false) => "boolean",
            (Ty::Bool, true) => "布尔值",
            (Ty::String, false) => "string",
            (Ty::String, true) => "字符串",
            (Ty::Object, false) => "object",
            (Ty::Object, true) => "对象",
            (Ty::Array, false) => "array",
            (Ty::Array, true) => "数组",
            (Ty::Auto, _) => "\"auto\"",
            (Ty::Any, false) => "any value",
            (Ty::Any, true) => "任意值",
        })
        .collect();
    if spec.nullable {
        words.push("null");
    }
    words.dedup();
    if zh {
        // A space between Chinese and a Latin word (`对象或 null`), none between Chinese words.
        let mut text = String::new();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                text.push('或');
            }
            if w.is_ascii() && i > 0 {
                text.push(' ');
            }
            text.push_str(w);
            if w.is_ascii() && i + 1 < words.len() {
                text.push(' ');
            }
        }
        text
    } else {
        words.join(" or ")
    }
}

/// A number written as a string or a boolean, which pydantic turns into the number without a
/// word (the JSON Schema takes it too): a warning, with the number as the fix.
fn coerced(spec: &KeySpec, ptr: &str, py: &Py, number: Option<f64>, out: &mut Vec<Diagnostic>) {
    let Some(n) = number else { return };
    let numeric = spec.accepts(Ty::Int) || spec.accepts(Ty::Float) || spec.accepts(Ty::Number);
    let shown = match py {
        Py::Str(_) if !spec.accepts(Ty::String) => py.show(),
        Py::Bool(_) if !spec.accepts(Ty::Bool) => py.show(),
        _ => return,
    };
    if !numeric {
        return;
    }
    let value = if spec.accepts(Ty::Int) && n.fract() == 0.0 && n.abs() < 9.0e15 {
        json!(n as i64)
    } else {
        json!(n)
    };
    let mut d = Diagnostic::warning(
        "coerced-value",
        ptr,
        Text::new(
            format!("`{}` is {shown}: DeepSpeed's pydantic check silently turns it into {value}; write the number", spec.path),
            format!("`{}` 写成了 {shown}：DeepSpeed 的 pydantic 校验会静默地把它转换为 {value}；请直接写数字", spec.path),
        ),
    );
    if n.is_finite() {
        d = d.with_fix(json!([{"op": "replace", "path": ptr, "value": value}]));
    }
    out.push(d);
}

fn type_error(spec: &KeySpec, ptr: &str, node: &Node, reason: &str) -> Diagnostic {
    let py = Py::of(node);
    Diagnostic::error(
        "invalid-type",
        ptr,
        Text::new(
            format!(
                "`{}` must be {} (DeepSpeed's pydantic check: {reason}); found {} {}",
                spec.path,
                type_words(spec),
                node.type_name(),
                py.show()
            ),
            format!(
                "`{}` 必须是{}（pydantic 校验：{reason}），实际为{} {}",
                spec.path,
                type_words_zh(spec),
                node.type_name_zh(),
                py.show()
            ),
        ),
    )
}

/// The Python error of a registry crash text without its English gloss in brackets
/// (`TypeError: … (the engine compares it with 0.0 at the first step)`), for a Chinese message.
fn python_error_only(crash: &str) -> &str {
    match crash.rfind(" (") {
        Some(i) if crash.ends_with(')') && crash[i + 2..].starts_with(char::is_lowercase) => {
            &crash[..i]
        }
        _ => crash,
    }
}

/// Where a lax key's value of the wrong type makes DeepSpeed fail after it parsed the config:
/// (its error, when in English, when in Chinese). Engine start for any wrong type; the first
/// training step for a string, list or object, whose error names the value's Python type (the
/// registry writes it for a string: `'str'`).
fn late_failure(spec: &KeySpec, py: &Py) -> Option<(String, &'static str, &'static str)> {
    if let Some(crash) = &spec.fails_at_start {
        return Some((
            crash.clone(),
            "fails when the engine starts with",
            "启动引擎时会失败",
        ));
    }
    spec.fails_at_step
        .as_deref()
        .filter(|_| matches!(py, Py::Str(_) | Py::List | Py::Dict))
        .map(|crash| {
            (
                crash.replacen("'str'", &format!("'{}'", py.type_name()), 1),
                "training fails at the first step with",
                "训练第一步就会失败",
            )
        })
}
