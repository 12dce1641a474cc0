//! One key's subschema: its annotations (hover text, default, deprecation), and what values the
//! release accepts there, as the validator judges them.
//!
//! - A key DeepSpeed checks with pydantic (strict) takes the values pydantic's lax mode takes:
//!   whole floats on integer keys (`multipleOf: 1`), numbers written as strings, booleans. Any
//!   other value is refused, with a message (`errorMessage`).
//! - A key DeepSpeed reads with `dict.get` (lax) takes anything: a value of another type only
//!   gets a warning (an `if`/`else` whose `else` carries a `deprecationMessage`, which VS Code
//!   shows as a warning and strict validators ignore), unless it fails training for sure.
//! - `"auto"` follows the launcher ([`super::words::auto`]).
//! - A key the release removed refuses every value (`not: {}`) and says why.

use super::words::{self, Auto};
use super::Gen;
use crate::registry::{described, Children, KeySpec, Mode, Ty};
use serde_json::{json, Map, Value};

/// An integer written as a string, as pydantic parses it (`" 16 "`, `"+8"`, `"1_000"`, `"16.0"`).
const INT_STRING: &str = r"^\s*[+-]?[0-9](_?[0-9])*(\.0*)?\s*$";
/// A number written as a string (`"1e-5"`, `"inf"`).
const FLOAT_STRING: &str = r"^\s*[+-]?(([0-9](_?[0-9])*)?\.?[0-9]*([eE][+-]?[0-9]+)?|[Ii][Nn][Ff]([Ii][Nn][Ii][Tt][Yy])?|[Nn][Aa][Nn])\s*$";
/// A boolean written as a string, as pydantic reads it.
const BOOL_STRING: &str = r"^\s*([Tt]([Rr][Uu][Ee])?|[Ff]([Aa][Ll][Ss][Ee])?|[Yy]([Ee][Ss])?|[Nn][Oo]?|[Oo][Nn]|[Oo][Ff][Ff]|[01])\s*$";

/// The registry path whose children a (possibly aliased) section has.
fn children_path(path: &str) -> &str {
    match path {
        "bfloat16" => "bf16",
        "tensor_parallel.tensor_parallel" => "tensor_parallel.tp",
        p => p,
    }
}

/// The subschema of an object at `path`: its known keys, and what else it takes.
pub(super) fn object_schema(g: &Gen, path: &str, policy: Children) -> Map<String, Value> {
    let mut props = Map::new();
    let mut placeholder = None;
    for child in described().children_of(children_path(path)) {
        if !child.known_in(g.release) && child.removed_at(g.release).is_none() {
            // A key of another release: named as such (refused in a closed section, ignored
            // in an open one), not "not allowed" or "a typo?".
            if !child.name().starts_with('<') {
                let closed = policy == Children::Closed;
                let msg = words::not_in_release(child, g.release, closed, g.lang);
                let mut k = Map::new();
                k.insert("description".into(), json!(msg));
                if closed {
                    k.insert("not".into(), json!({}));
                    k.insert("errorMessage".into(), json!(msg));
                } else {
                    k.insert("deprecationMessage".into(), json!(msg));
                }
                props.insert(child.name().to_string(), Value::Object(k));
            }
            continue;
        }
        let s = key_schema(g, child);
        if child.name().starts_with('<') {
            placeholder = Some(s);
        } else {
            props.insert(child.name().to_string(), s);
        }
    }
    // A level the registry does not list as a key of its own (`schedule_config` in
    // `random_ltd_schedule.schedule_config.seq_per_step`): its keys still get their hovers.
    let prefix = if path.is_empty() {
        String::new()
    } else {
        format!("{}.", children_path(path))
    };
    for k in described().keys() {
        let Some(rest) = k.path.strip_prefix(&prefix) else {
            continue;
        };
        if let Some((level, _)) = rest.split_once('.') {
            let inner = format!("{prefix}{level}");
            if !level.starts_with('<')
                && !props.contains_key(level)
                && described().get(&inner).is_none()
            {
                let mut o = object_schema(g, &inner, Children::Free);
                o.insert("description".into(), json!(inner));
                props.insert(level.to_string(), Value::Object(o));
            }
        }
    }
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("properties".into(), Value::Object(props));
    match (placeholder, policy) {
        (Some(p), _) => {
            m.insert("additionalProperties".into(), p);
        }
        (None, Children::Closed) => {
            // Editors say "Property x is not allowed" on the key. (pydantic would drop an
            // unknown key whose value is "auto" before looking for extra keys: refused here
            // all the same, as the typo it is.)
            m.insert("additionalProperties".into(), json!(false));
        }
        (None, Children::Open) => {
            // DeepSpeed ignores it: a warning on the key (VS Code reports a deprecationMessage
            // there), nothing for a strict validator.
            m.insert(
                "additionalProperties".into(),
                json!({"deprecationMessage": words::unknown_key(path, g.lang)}),
            );
        }
        _ => {}
    }
    m
}

/// The subschema of one key.
pub(super) fn key_schema(g: &Gen, spec: &KeySpec) -> Value {
    let mut m = Map::new();
    m.insert(
        "description".into(),
        json!(words::description(spec, g.lang)),
    );
    m.insert(
        "markdownDescription".into(),
        json!(words::markdown(spec, g.release, g.launcher, g.lang)),
    );
    if let Some(why) = spec.removed_at(g.release) {
        let msg = words::removed(spec, g.release, why, g.lang);
        m.insert("description".into(), json!(msg));
        m.insert("deprecated".into(), json!(true));
        m.insert(
            "deprecationMessage".into(),
            json!(words::removed_short(spec, g.lang)),
        );
        m.insert("errorMessage".into(), json!(msg));
        m.insert("not".into(), json!({}));
        return Value::Object(m);
    }
    if let Some(d) = spec.default_at(g.release).filter(|d| !d.is_null()) {
        m.insert("default".into(), d.clone());
    }
    if spec.deprecated {
        m.insert("deprecated".into(), json!(true));
        m.insert(
            "deprecationMessage".into(),
            json!(words::deprecated(spec, g.lang)),
        );
    }
    let mode = described().mode(spec, g.release);
    if spec.is_object() && spec.types.iter().all(|t| *t == Ty::Object) {
        m.extend(object_schema(
            g,
            &spec.path,
            described().policy(spec, g.release),
        ));
        return Value::Object(m);
    }
    let Some(typed) = branches(g, spec, mode) else {
        // Anything goes; the known keys of an object value still get their hovers.
        if described().children_of(&spec.path).next().is_some() {
            m.insert(
                "anyOf".into(),
                json!([Value::Object(object_schema(g, &spec.path, Children::Free)), {"not": {"type": "object"}}]),
            );
        }
        return Value::Object(m);
    };
    let auto = if spec.accepts(Ty::Auto) {
        Auto::Taken
    } else if spec.path == "tensor_parallel.autotp_size"
        && !g.launcher.fills_auto()
        && described().has_check("autotp-size-raw-compare", g.release)
    {
        // `deepspeed.initialize` compares the raw value with 0 (`rules::engine_start`).
        Auto::Refused(words::pick(
            g.lang,
            format!("DeepSpeed {} compares tensor_parallel.autotp_size with 0 before it parses the config: \"auto\" fails with TypeError: '>' not supported between instances of 'str' and 'int'; write a number (0: AutoTP off)", g.release),
            format!("DeepSpeed {} 在解析配置之前就把 tensor_parallel.autotp_size 与 0 比较：\"auto\" 会导致 TypeError；请写数字（0：不启用 AutoTP）", g.release),
        ))
    } else {
        words::auto(g.launcher, &spec.path, mode, g.lang)
    };
    value_check(
        &mut m,
        typed,
        &auto,
        mode == Mode::Strict
            || spec.fails_at_step.is_some()
            || (spec.fails_at_start.is_some() && spec.enum_at_start),
        || words::refused(spec, g.lang),
        || words::lax_mismatch(spec, g.lang),
    );
    Value::Object(m)
}

/// Adds the value check to a key's subschema: `typed` are the accepted values' subschemas
/// (without `"auto"`); `strict` refuses others (with `refused`'s message), else they are warned
/// about (`mismatch`).
pub(super) fn value_check(
    m: &mut Map<String, Value>,
    mut typed: Vec<Value>,
    auto: &Auto,
    strict: bool,
    refused: impl Fn() -> String,
    mismatch: impl Fn() -> String,
) {
    let mut extra = Vec::new();
    match auto {
        Auto::Taken => typed.push(json!({"const": "auto"})),
        Auto::Warned(msg) => {
            typed.push(json!({"const": "auto"}));
            extra.push(json!({"if": {"const": "auto"}, "then": {"deprecationMessage": msg}}));
        }
        Auto::Refused(msg) => {
            extra.push(json!({"not": {"const": "auto"}, "errorMessage": msg}));
        }
    }
    if !strict {
        // An object's own keys are checked (and hovered) where it is one, not inside the `if`
        // below, whose problems nobody sees.
        for t in typed.iter_mut() {
            if t.get("properties").is_some() {
                let object = std::mem::replace(t, json!({"type": "object"}));
                extra.push(json!({"if": {"type": "object"}, "then": object}));
            }
        }
    }
    let check = if strict {
        merge_enums(&mut typed);
        let msg = refused();
        for t in typed.iter_mut() {
            if let Some(o) = t.as_object_mut() {
                if o.get("type") != Some(&json!("object")) {
                    o.insert("errorMessage".into(), json!(msg));
                    if o.contains_key("pattern") {
                        o.insert("patternErrorMessage".into(), json!(msg));
                    }
                }
            }
        }
        if typed.len() == 1 {
            typed.pop().unwrap_or_default()
        } else {
            json!({"anyOf": typed})
        }
    } else {
        // A lax key warns only: "auto" never reaches the `else` (its own rule speaks for it).
        if !typed.contains(&json!({"const": "auto"})) {
            typed.push(json!({"const": "auto"}));
        }
        json!({"if": {"anyOf": typed}, "else": {"deprecationMessage": mismatch()}})
    };
    let mut all = vec![check];
    all.extend(extra);
    if all.len() == 1 {
        if let Value::Object(o) = all.pop().unwrap_or_default() {
            m.extend(o);
        }
    } else {
        m.insert("allOf".into(), Value::Array(all));
    }
}

/// Joins the alternatives that are only `enum`/`const` into one `enum`: editors merge failed
/// enum alternatives into "Valid values: ..." and drop their `errorMessage`.
fn merge_enums(typed: &mut Vec<Value>) {
    let mut values = Vec::new();
    let mut at = None;
    let mut i = 0;
    while i < typed.len() {
        let only = typed[i].as_object().filter(|o| o.len() == 1).and_then(|o| {
            o.get("enum")
                .and_then(Value::as_array)
                .cloned()
                .or_else(|| o.get("const").map(|c| vec![c.clone()]))
        });
        match only {
            Some(v) => {
                values.extend(v);
                at.get_or_insert(i);
                typed.remove(i);
            }
            None => i += 1,
        }
    }
    if let Some(i) = at {
        typed.insert(i, json!({ "enum": values }));
    }
}

/// The subschemas of the values a key takes besides `"auto"`; `None` when it takes anything.
fn branches(g: &Gen, spec: &KeySpec, mode: Mode) -> Option<Vec<Value>> {
    let strict = mode == Mode::Strict;
    // DeepSpeed 0.14.x's pydantic v1 takes no strings for enum members.
    let v1 = strict && described().has_check("pydantic-v1", g.release);
    let range = number_range(g, spec);
    let mut out = Vec::new();
    for ty in &spec.types {
        match ty {
            Ty::Any => return None,
            Ty::Auto => {}
            Ty::Int if !spec.r#enum.is_empty() => {
                let ints: Vec<Value> = spec
                    .r#enum
                    .iter()
                    .filter_map(|e| e.parse::<i64>().ok().map(Value::from))
                    .collect();
                out.push(json!({"enum": ints}));
                if strict && !v1 {
                    out.push(json!({"enum": spec.r#enum}));
                }
            }
            Ty::Int => {
                let mut n = json!({"type": "number", "multipleOf": 1});
                extend(&mut n, &range);
                out.push(n);
                if strict {
                    out.push(json!({"type": "string", "pattern": INT_STRING}));
                    out.push(json!({"type": "boolean"}));
                }
            }
            Ty::Float | Ty::Number => {
                let mut n = json!({"type": "number"});
                extend(&mut n, &range);
                out.push(n);
                if strict {
                    out.push(json!({"type": "string", "pattern": FLOAT_STRING}));
                    out.push(json!({"type": "boolean"}));
                }
            }
            Ty::Bool => {
                out.push(json!({"type": "boolean"}));
                out.push(json!({"enum": [0, 1]}));
                if strict {
                    out.push(json!({"type": "string", "pattern": BOOL_STRING}));
                }
            }
            Ty::String if spec.r#enum.is_empty() => out.push(json!({"type": "string"})),
            Ty::String => match spec.enum_case.as_deref() {
                Some("lower" | "upper" | "insensitive") => out.push(json!({
                    "type": "string",
                    "pattern": any_case(&spec.r#enum),
                    "examples": spec.r#enum,
                })),
                // The other spellings DeepSpeed takes are valid too (`float16` for `fp16`).
                _ => {
                    let names: Vec<&String> = spec.r#enum.iter().chain(&spec.spellings).collect();
                    out.push(json!({"type": "string", "enum": names}))
                }
            },
            Ty::Array if spec.r#enum.is_empty() => out.push(json!({"type": "array"})),
            Ty::Array => out.push(json!({"type": "array", "items": {"enum": spec.r#enum}})),
            Ty::Object => out.push(Value::Object(object_schema(
                g,
                &spec.path,
                described().policy(spec, g.release),
            ))),
        }
    }
    if spec.nullable || !strict {
        out.push(json!({"type": "null"}));
    }
    Some(out)
}

fn extend(v: &mut Value, more: &Map<String, Value>) {
    if let Some(o) = v.as_object_mut() {
        o.extend(more.clone());
    }
}

/// `minimum`/`maximum` (exclusive or not) as the release bounds the key.
fn number_range(g: &Gen, spec: &KeySpec) -> Map<String, Value> {
    let (min, max) = spec.range_at(g.release);
    let mut m = Map::new();
    if let Some((v, excl)) = min {
        m.insert(
            if excl { "exclusiveMinimum" } else { "minimum" }.into(),
            json!(v),
        );
    }
    if let Some((v, excl)) = max {
        m.insert(
            if excl { "exclusiveMaximum" } else { "maximum" }.into(),
            json!(v),
        );
    }
    m
}

/// An ECMAScript pattern matching any of `names` in any letter case (`adam` -> `[Aa][Dd][Aa][Mm]`):
/// JSON Schema has no case-insensitive flag.
pub(super) fn any_case<S: AsRef<str>>(names: &[S]) -> String {
    let alts: Vec<String> = names
        .iter()
        .map(|n| {
            n.as_ref()
                .chars()
                .map(|c| {
                    if c.is_ascii_alphabetic() {
                        format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
                    } else if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                        c.to_string()
                    } else {
                        format!("\\{c}")
                    }
                })
                .collect()
        })
        .collect();
    format!("^({})$", alts.join("|"))
}
