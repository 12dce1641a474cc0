//! The generic walk: every member of every object is checked against the registry.
//!
//! - unknown keys: an error inside strict (pydantic) sections, a warning elsewhere, with
//!   "did you mean" and a fix that renames the key;
//! - keys the chosen release does not know: too new ("arrived in 0.17.5"), gone, or removed
//!   with a `DeepSpeedConfigError` (0.19.6+ name the removal);
//! - deprecated keys (warning, fix: the replacement);
//! - types, enums and ranges with pydantic's coercions in strict sections; in lax sections a
//!   wrong type is a warning, since DeepSpeed only reads it later (rules check the cases where
//!   the parser itself fails);
//! - booleans written as strings.

use super::coerce;
use super::view::Py;
use super::{Diagnostic, View};
use crate::document::{escape_token, Kind, Node};
use crate::i18n::Text;
use crate::registry::{registry, Children, KeySpec, Mode, Ty};
use serde_json::json;

pub(super) fn walk(view: &View, out: &mut Vec<Diagnostic>) {
    walk_object(view, view.root, "", "", Children::Open, out);
}

fn walk_object<'a>(
    view: &View<'a>,
    node: &'a Node,
    reg_path: &str,
    pointer: &str,
    policy: Children,
    out: &mut Vec<Diagnostic>,
) {
    let reg = registry();
    for m in node.members() {
        // Past twice what is listed, more findings only cost time (the rest are counted).
        if out.len() >= 2 * super::MAX_DIAGNOSTICS {
            return;
        }
        // Of duplicated keys only the last one is read (and the duplicate is already an error).
        if view.has_duplicates
            && !view
                .member(node, &m.key)
                .is_some_and(|last| std::ptr::eq(last, m))
        {
            continue;
        }
        let ptr = format!("{pointer}/{}", escape_token(&m.key));
        if pointer.is_empty()
            && m.key == "bfloat16"
            && view
                .get("bf16")
                .is_some_and(|n| !matches!(n.kind, Kind::Null))
        {
            continue; // ignored by DeepSpeed when `bf16` is present (see warnings)
        }
        if let Some(field) = reg
            .child(reg_path, &m.key)
            .and_then(|s| s.alias_of.as_deref())
        {
            if view.member(node, field).is_some() && policy == Children::Closed {
                out.push(Diagnostic::error(
                    "alias-conflict",
                    &format!("{pointer}/{}", escape_token(field)),
                    Text::new(
                        format!("`{field}` and its alias `{}` are both given: DeepSpeed takes the alias and rejects `{field}` as an extra input", m.key),
                        format!("同时给出了 `{field}` 与其别名 `{}`：DeepSpeed 采用别名，并把 `{field}` 当作多余字段拒绝", m.key),
                    ),
                ).with_fix(json!([{"op": "remove", "path": format!("{pointer}/{}", escape_token(field))}])));
            }
        }
        let Some(spec) = reg.child(reg_path, &m.key) else {
            unknown_key(view, node, reg_path, pointer, &ptr, &m.key, policy, out);
            continue;
        };
        let release = view.release;
        if let Some(msg) = spec.removed_at(release) {
            let since = spec.removed_in.unwrap_or(release);
            let last = since.previous().map(|r| r.to_string()).unwrap_or_default();
            let (fix, note_en, note_zh) = removal_fix(view, node, &m.key, &m.value, &ptr);
            out.push(Diagnostic::error(
                "removed-key",
                &ptr,
                Text::new(
                    format!("`{}` was removed in DeepSpeed {since} (the last release that reads it is {last}): {msg}{note_en}", spec.path),
                    format!("`{}` 已在 DeepSpeed {since} 中移除（最后支持它的版本是 {last}），DeepSpeed {release} 会直接报错（DeepSpeedConfigError）：{msg}{note_zh}", spec.path),
                ),
            )
            .with_fix(fix));
            continue;
        }
        if !spec.known_in(release) {
            // Pydantic sections drop "auto" values before they check for extra keys.
            let dropped = policy == Children::Closed && m.value.as_str() == Some("auto");
            if !dropped {
                not_in_release(view, spec, &ptr, policy, out);
            }
            continue;
        }
        if spec.deprecated {
            deprecated(node, pointer, &ptr, spec, out);
        }
        check_value(view, &m.value, spec, &ptr, out);
        if let Kind::Object(_) = m.value.kind {
            if spec.is_object() {
                let policy = reg.policy(spec, release);
                if policy != Children::Free {
                    walk_object(view, &m.value, &spec.path, &ptr, policy, out);
                } else {
                    misspelled_in_loose_section(view, &m.value, spec, &ptr, out);
                }
            }
        }
    }
}

/// The fix for a removed key: remove it; an enabled apex `amp` block is replaced by
/// DeepSpeed's own fp16 mode (dynamic loss scaling, what apex O2 does) unless the config
/// already enables a precision mode, so that the fix does not silently train in fp32.
fn removal_fix<'a>(
    view: &View<'a>,
    parent: &'a Node,
    key: &str,
    value: &Node,
    ptr: &str,
) -> (serde_json::Value, &'static str, &'static str) {
    let remove = json!([{"op": "remove", "path": ptr}]);
    let enabled = value
        .member("enabled")
        .is_some_and(|m| Py::of(&m.value).truthy());
    let top = ptr.matches('/').count() == 1;
    if key != "amp" || !top || !enabled {
        return (remove, "", "");
    }
    let has = |k: &str| {
        view.member(parent, k).is_some_and(|m| {
            m.value
                .member("enabled")
                .is_some_and(|e| Py::of(&e.value).truthy())
        })
    };
    if has("fp16") || has("bf16") || has("bfloat16") || has("torch_autocast") {
        return (remove, "", "");
    }
    // An fp16 section that is there but off keeps its settings (loss scale, window, ...).
    let enable = if view
        .member(parent, "fp16")
        .is_some_and(|m| m.value.is_object())
    {
        json!({"op": "add", "path": "/fp16/enabled", "value": true})
    } else {
        json!({"op": "add", "path": "/fp16", "value": {"enabled": true}})
    };
    (
        json!([{"op": "remove", "path": ptr}, enable]),
        " The fix turns on DeepSpeed's fp16 mode instead (dynamic loss scaling, like apex O2); on Ampere or newer GPUs prefer `bf16`.",
        " 修复会改为启用 DeepSpeed 的 fp16 模式（动态 loss scaling，效果接近 apex O2）；Ampere 及更新的 GPU 建议改用 `bf16`。",
    )
}

/// A key the registry knows but the chosen release does not: too new, or gone without a word.
fn not_in_release(
    view: &View,
    spec: &KeySpec,
    ptr: &str,
    policy: Children,
    out: &mut Vec<Diagnostic>,
) {
    let release = view.release;
    let name = &spec.path;
    if let (Some(until), Some(new)) = (spec.until, spec.replaced_by.as_deref()) {
        if release >= until && registry().get(new).is_some_and(|n| n.known_in(release)) {
            let parent = &ptr[..ptr.rfind('/').unwrap_or(0)];
            let leaf = new.rsplit('.').next().unwrap_or(new);
            out.push(
                Diagnostic::warning(
                    "renamed-key",
                    ptr,
                    Text::new(
                        format!("`{name}` was renamed `{new}` in DeepSpeed {until}: DeepSpeed {release} silently ignores the old name"),
                        format!("`{name}` 已在 DeepSpeed {until} 中改名为 `{new}`：DeepSpeed {release} 会静默忽略旧名"),
                    ),
                )
                .with_fix(json!([{"op": "move", "from": ptr, "path": format!("{parent}/{}", escape_token(leaf))}])),
            );
            return;
        }
    }
    let (why_en, why_zh) = match (spec.since, spec.until) {
        (Some(since), _) if release < since => (
            format!("`{name}` arrived in DeepSpeed {since}"),
            format!("`{name}` 自 DeepSpeed {since} 起才有"),
        ),
        (_, Some(until)) => (
            format!(
                "`{name}` was dropped in DeepSpeed {until} (the last release that reads it is {})",
                until.previous().map(|r| r.to_string()).unwrap_or_default()
            ),
            format!(
                "`{name}` 已在 DeepSpeed {until} 中去掉（最后支持它的版本是 {}）",
                until.previous().map(|r| r.to_string()).unwrap_or_default()
            ),
        ),
        _ => (
            format!("`{name}` is not read by DeepSpeed {release}"),
            format!("DeepSpeed {release} 不读取 `{name}`"),
        ),
    };
    let fix = json!([{"op": "remove", "path": ptr}]);
    out.push(if policy == Children::Closed {
        Diagnostic::error(
            "not-in-release",
            ptr,
            Text::new(
                format!("{why_en}: DeepSpeed {release} rejects it (pydantic: \"Extra inputs are not permitted\"). Remove it, or choose a newer release"),
                format!("{why_zh}：DeepSpeed {release} 会拒绝它（pydantic: Extra inputs are not permitted）。请删除此项，或选择更新的版本"),
            ),
        )
    } else {
        Diagnostic::warning(
            "not-in-release",
            ptr,
            Text::new(
                format!("{why_en}: DeepSpeed {release} silently ignores it"),
                format!("{why_zh}：DeepSpeed {release} 会静默忽略它"),
            ),
        )
    }
    .with_fix(fix));
}

/// Sections DeepSpeed reads loosely (passes on, or reads with `dict.get`, any name allowed):
/// a member that is not a known key but close to one is most likely a misspelling of it.
fn misspelled_in_loose_section(
    view: &View,
    node: &Node,
    spec: &KeySpec,
    pointer: &str,
    out: &mut Vec<Diagnostic>,
) {
    let reg = registry();
    if reg.children_of(&spec.path).next().is_none() {
        return;
    }
    // The keys given, found once (a lookup per unknown member would cost the square of a
    // section of thousands of members).
    let given: std::collections::HashSet<&str> =
        node.members().iter().map(|m| m.key.as_str()).collect();
    // One suggestion per distinct key: a key repeated thousands of times is compared once.
    let mut suggested = std::collections::HashMap::new();
    for m in node.members() {
        if reg.child(&spec.path, &m.key).is_some() {
            continue;
        }
        let Some(s) = (*suggested
            .entry(m.key.as_str())
            .or_insert_with(|| reg.suggest_in(&spec.path, &m.key, Some(view.release))))
        .filter(|s| !given.contains(s.name())) else {
            continue;
        };
        let ptr = format!("{pointer}/{}", escape_token(&m.key));
        out.push(
            Diagnostic::warning(
                "unknown-key",
                &ptr,
                Text::new(
                    format!("unknown key `{}` in `{}`: DeepSpeed reads this section loosely and ignores it; did you mean `{}`?", m.key, spec.path, s.name()),
                    format!("`{}` 中未知的键 `{}`：DeepSpeed 宽松地读取此段并忽略它；是否想写 `{}`？", spec.path, m.key, s.name()),
                ),
            )
            .with_fix(json!([{"op": "move", "from": ptr, "path": format!("{pointer}/{}", escape_token(s.name()))}])),
        );
    }
}

/// Keys of an `accelerate config` YAML (its `deepspeed_config` part) that people paste into a
/// DeepSpeed config, and the DeepSpeed key that says the same.
const ACCELERATE_KEYS: &[(&str, &str)] = &[
    ("zero_stage", "zero_optimization.stage"),
    (
        "offload_optimizer_device",
        "zero_optimization.offload_optimizer.device",
    ),
    (
        "offload_param_device",
        "zero_optimization.offload_param.device",
    ),
    (
        "offload_optimizer_nvme_path",
        "zero_optimization.offload_optimizer.nvme_path",
    ),
    (
        "offload_param_nvme_path",
        "zero_optimization.offload_param.nvme_path",
    ),
    (
        "zero3_save_16bit_model",
        "zero_optimization.stage3_gather_16bit_weights_on_model_save",
    ),
    ("zero3_init_flag", ""),
    ("deepspeed_config_file", ""),
    ("deepspeed_multinode_launcher", ""),
    ("mixed_precision", "bf16.enabled / fp16.enabled"),
    ("distributed_type", ""),
];

/// A top-level key that belongs elsewhere: a key of `zero_optimization`, or an `accelerate
/// config` key. Returns true when it said so.
fn misplaced<'a>(
    view: &View<'a>,
    parent: &'a Node,
    ptr: &str,
    key: &str,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let reg = registry();
    if let Some(&(_, ds)) = ACCELERATE_KEYS.iter().find(|(k, _)| *k == key) {
        let (en, zh) = if ds.is_empty() {
            (
                format!("`{key}` is an Accelerate config key (accelerate config YAML), not a DeepSpeed one: DeepSpeed silently ignores it here"),
                format!("`{key}` 是 Accelerate 配置（accelerate config YAML）的键，不是 DeepSpeed 的：DeepSpeed 在这里会静默忽略它"),
            )
        } else {
            (
                format!("`{key}` is an Accelerate config key (accelerate config YAML), not a DeepSpeed one: DeepSpeed silently ignores it; in a DeepSpeed config write `{ds}`"),
                format!("`{key}` 是 Accelerate 配置（accelerate config YAML）的键，不是 DeepSpeed 的：DeepSpeed 会静默忽略它；DeepSpeed 配置中应写 `{ds}`"),
            )
        };
        out.push(Diagnostic::warning("misplaced-key", ptr, Text::new(en, zh)));
        return true;
    }
    let Some(spec) = reg
        .get(&format!("zero_optimization.{key}"))
        .filter(|s| s.known_in(view.release))
    else {
        return false;
    };
    let mut d = Diagnostic::warning(
        "misplaced-key",
        ptr,
        Text::new(
            format!("`{key}` belongs in `zero_optimization`: at the top level DeepSpeed silently ignores it"),
            format!("`{key}` 应放在 `zero_optimization` 中：放在顶层时 DeepSpeed 会静默忽略它"),
        ),
    );
    let zero = view.member(parent, "zero_optimization").map(|m| &m.value);
    if zero.is_some_and(|z| z.is_object() && z.member(key).is_none()) {
        d = d.with_fix(json!([{"op": "move", "from": ptr, "path": format!("/zero_optimization/{}", escape_token(&spec.path["zero_optimization.".len()..]))}]));
    }
    out.push(d);
    true
}

/// Typo suggestions ("did you mean") are looked for while a document has fewer diagnostics
/// than this: each compares the key with every key of its section, and a generated document of
/// 50,000 unknown keys would spend most of its time on suggestions nobody reads.
const SUGGEST_WITHIN: usize = 1_000;

#[allow(clippy::too_many_arguments)]
fn unknown_key<'a>(
    view: &View<'a>,
    parent: &'a Node,
    reg_path: &str,
    pointer: &str,
    ptr: &str,
    key: &str,
    policy: Children,
    out: &mut Vec<Diagnostic>,
) {
    if policy == Children::Free {
        return;
    }
    if reg_path.is_empty() && misplaced(view, parent, ptr, key, out) {
        return;
    }
    let reg = registry();
    // A key the user has is no suggestion; one an HF launcher wrote into its dict (a member
    // whose key and value both carry the parent's span) is: HF filled it because the user's
    // spelling missed it.
    let closest = (out.len() < SUGGEST_WITHIN)
        .then(|| reg.suggest_in(reg_path, key, Some(view.release)))
        .flatten();
    let suggestion = closest.filter(|s| {
        view.member(parent, s.name())
            .is_none_or(|m| m.key_span == m.value.span)
    });
    // The key it looks like is set too (`zero_optimisation` beside `zero_optimization`): a
    // stray copy, whose settings count for nothing; said, with its removal as the fix.
    let twin = closest.filter(|_| suggestion.is_none());
    let where_en = if reg_path.is_empty() {
        "at the top level".to_string()
    } else {
        format!("in `{reg_path}`")
    };
    let where_zh = if reg_path.is_empty() {
        "顶层".to_string()
    } else {
        format!("`{reg_path}` 中")
    };
    let (hint_en, hint_zh) = match (suggestion, twin) {
        (Some(s), _) => (
            format!("; did you mean `{}`?", s.name()),
            format!("；是否想写 `{}`？", s.name()),
        ),
        (None, Some(t)) => (
            format!("; it looks like `{}`, which is set here too: nothing in this one counts (remove it, or move what it holds into `{}`)", t.name(), t.name()),
            format!("；它像是 `{}`，而此处也已设置了 `{}`：这个键中的设置都不会生效（删除它，或把其中的内容移到 `{}`）", t.name(), t.name(), t.name()),
        ),
        (None, None) => (String::new(), String::new()),
    };
    let diag = if policy == Children::Closed {
        Diagnostic::error(
            "unknown-key",
            ptr,
            Text::new(
                format!("unknown key `{key}` {where_en}: DeepSpeed rejects it (pydantic: \"Extra inputs are not permitted\"){hint_en}"),
                format!("{where_zh}未知的键 `{key}`：DeepSpeed 会拒绝（pydantic: Extra inputs are not permitted）{hint_zh}"),
            ),
        )
    } else {
        Diagnostic::warning(
            "unknown-key",
            ptr,
            Text::new(
                format!("unknown key `{key}` {where_en}: DeepSpeed silently ignores it{hint_en}"),
                format!("{where_zh}未知的键 `{key}`：DeepSpeed 会静默忽略它{hint_zh}"),
            ),
        )
    };
    let _ = view;
    out.push(match (suggestion, twin) {
        (Some(s), _) => diag.with_fix(json!([{"op": "move", "from": ptr, "path": format!("{pointer}/{}", escape_token(s.name()))}])),
        (None, Some(_)) => diag.with_fix(json!([{"op": "remove", "path": ptr}])),
        (None, None) => diag,
    });
}

fn deprecated(parent: &Node, pointer: &str, ptr: &str, spec: &KeySpec, out: &mut Vec<Diagnostic>) {
    let replacement = spec.replaced_by.as_deref();
    let (en, zh) = match replacement {
        Some(r) => (
            format!("`{}` is deprecated; use `{r}` instead", spec.path),
            format!("`{}` 已弃用，请改用 `{r}`", spec.path),
        ),
        None => (
            format!("`{}` is deprecated and has no effect", spec.path),
            format!("`{}` 已弃用且不再生效", spec.path),
        ),
    };
    let mut d = Diagnostic::warning("deprecated-key", ptr, Text::new(en, zh));
    if let Some(fix) = spec.fix.as_ref() {
        // A registry-provided patch template: `{ptr}` and `{parent}` are substituted.
        let text = fix
            .to_string()
            .replace("{ptr}", ptr)
            .replace("{parent}", pointer);
        if let Ok(v) = serde_json::from_str(&text) {
            d = d.with_fix(v);
        }
    } else if let Some(r) = replacement {
        let new_key = r.rsplit('.').next().unwrap_or(r);
        if parent.member(new_key).is_none() {
            d = d.with_fix(json!([{"op": "move", "from": ptr, "path": format!("{pointer}/{}", escape_token(new_key))}]));
        }
    }
    out.push(d);
}

fn type_words(spec: &KeySpec) -> String {
    let mut words: Vec<&str> = spec
        .types
        .iter()
        .map(|t| match t {
            Ty::Int => "integer",
            Ty::Float | Ty::Number => "number",
            Ty::Bool => "boolean",
            Ty::String => "string",
            Ty::Object => "object",
            Ty::Array => "array",
            Ty::Auto => "\"auto\"",
            Ty::Any => "any value",
        })
        .collect();
    if spec.nullable {
        words.push("null");
    }
    words.dedup();
    words.join(" or ")
}

/// Checks one value against its spec.
fn check_value(view: &View, node: &Node, spec: &KeySpec, ptr: &str, out: &mut Vec<Diagnostic>) {
    if spec.accepts(Ty::Any) {
        return;
    }
    let py = Py::of(node);
    let parent = spec.path.rsplit_once('.').map_or("", |(p, _)| p);
    if matches!(&py, Py::Str(s) if s == "auto") && !registry().plain_model(parent, view.release) {
        // Strict sections drop "auto"; lax "auto" is handled by the auto rules. A plain
        // pydantic model (0.14.x's `comms_logger`) checks it like any other value.
        return;
    }
    let strict = registry().mode(spec, view.release) == Mode::Strict;
    if matches!(py, Py::None) {
        if !spec.nullable && strict {
            out.push(type_error(spec, ptr, node, "Input should not be null"));
        }
        return;
    }
    // Booleans written as strings ("true"): pydantic coerces them, Python's `if` does not.
    if spec.accepts(Ty::Bool) && !spec.accepts(Ty::String) {
        if let Py::Str(s) = &py {
            if let Ok(b) = coerce::to_bool(&py) {
                if ["true", "false"].contains(&s.trim().to_ascii_lowercase().as_str()) || strict {
                    out.push(
                        Diagnostic::warning(
                            "bool-as-string",
                            ptr,
                            Text::new(
                                format!("`{}` is the string \"{s}\", not a boolean{}", spec.path, if strict { "" } else { "; DeepSpeed tests it with `if`, so any non-empty string counts as true" }),
                                format!("`{}` 写成了字符串 \"{s}\" 而不是布尔值{}", spec.path, if strict { "" } else { "；DeepSpeed 用 if 判断，任何非空字符串都会被当作 true" }),
                            ),
                        )
                        .with_fix(json!([{"op": "replace", "path": ptr, "value": b}])),
                    );
                    return;
                }
            }
        }
    }
    // DeepSpeed 0.14.x validated with pydantic v1 (its own coercions).
    let v1 = strict && registry().has_check("pydantic-v1", view.release);
    let pairs = match &node.kind {
        Kind::Array(items) => items
            .iter()
            .all(|i| matches!(&i.kind, Kind::Array(p) if p.len() == 2)),
        _ => false,
    };
    let fits = |ty: Ty| -> Result<Option<f64>, &'static str> {
        match ty {
            // An enum field (`ZeroStageEnum`, `OffloadDeviceEnum`) takes its members' values
            // only: an int enum no strings nor fractions, a string enum no numbers.
            Ty::Int if v1 && !spec.r#enum.is_empty() => match py {
                Py::Int(v) => Ok(Some(v)),
                Py::Bool(b) => Ok(Some(if b { 1.0 } else { 0.0 })),
                Py::Float(v) if v.fract() == 0.0 => Ok(Some(v)),
                _ => Err("value is not a valid enumeration member"),
            },
            Ty::Int if v1 => coerce::v1::to_int(&py).map(Some),
            // `Path` fields (the offload `nvme_path`) take strings only.
            Ty::String if v1 && (!spec.r#enum.is_empty() || spec.name() == "nvme_path") => {
                coerce::to_str(&py).map(|_| None)
            }
            Ty::String if v1 => coerce::v1::to_str(&py).map(|_| None),
            Ty::Object if v1 && pairs => Ok(None),
            Ty::Int if strict => coerce::to_int(&py).map(Some),
            Ty::Int => match &py {
                Py::Int(v) => Ok(Some(*v)),
                Py::Float(v) if v.fract() == 0.0 => Ok(Some(*v)),
                _ => Err("expected an integer"),
            },
            Ty::Float | Ty::Number if strict => coerce::to_float(&py).map(Some),
            Ty::Float | Ty::Number => match &py {
                Py::Int(v) | Py::Float(v) => Ok(Some(*v)),
                _ => Err("expected a number"),
            },
            Ty::Bool if strict => coerce::to_bool(&py).map(|_| None),
            Ty::Bool => match &py {
                Py::Bool(_) => Ok(None),
                Py::Int(v) if *v == 0.0 || *v == 1.0 => Ok(None),
                _ => Err("expected a boolean"),
            },
            Ty::String => coerce::to_str(&py).map(|_| None),
            Ty::Object => match &py {
                Py::Dict => Ok(None),
                _ => Err("Input should be a valid dictionary"),
            },
            Ty::Array => match &py {
                Py::List => Ok(None),
                _ => Err("Input should be a valid list"),
            },
            Ty::Auto => Err("expected \"auto\""),
            Ty::Any => Ok(None),
        }
    };
    let mut number = None;
    let mut last_err = "wrong type";
    let mut ok = false;
    // Try the declared types in a pydantic-like order: exact JSON type first.
    let mut order = spec.types.clone();
    order.sort_by_key(|t| match (t, &py) {
        (Ty::Bool, Py::Bool(_))
        | (Ty::String, Py::Str(_))
        | (Ty::Object, Py::Dict)
        | (Ty::Array, Py::List) => 0,
        (Ty::Int, Py::Int(_)) | (Ty::Float | Ty::Number, Py::Float(_)) => 0,
        _ => 1,
    });
    for ty in order {
        match fits(ty) {
            Ok(n) => {
                number = n;
                ok = true;
                break;
            }
            Err(e) => last_err = e,
        }
    }
    if !ok {
        if strict {
            out.push(type_error(spec, ptr, node, last_err));
        } else if let Some((crash, when, when_zh)) = late_failure(spec, &py) {
            out.push(Diagnostic::error(
                "invalid-type",
                ptr,
                Text::new(
                    format!("`{}` should be {}, found {} {}: DeepSpeed accepts it when it parses the config, then {when} {crash}", spec.path, type_words(spec), node.type_name(), py.show()),
                    format!("`{}` 应为 {}，实际为 {} {}：DeepSpeed 解析配置时接受，但{when_zh}（{crash}）", spec.path, type_words(spec), node.type_name(), py.show()),
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
                        "`{}` 应为 {}，实际为 {} {}",
                        spec.path,
                        type_words(spec),
                        node.type_name(),
                        py.show()
                    ),
                ),
            ));
        }
        return;
    }
    if strict {
        coerced(spec, ptr, &py, number, out);
    }
    // Enumerations (of each item for lists, e.g. compile.passes).
    if let (Kind::Array(items), false) = (&node.kind, spec.r#enum.is_empty()) {
        for (i, item) in items.iter().enumerate() {
            let ok = item
                .as_str()
                .is_some_and(|s| spec.r#enum.iter().any(|e| e == s));
            if !ok {
                out.push(Diagnostic::error(
                    "invalid-value",
                    &format!("{ptr}/{i}"),
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
        return;
    }
    if !spec.r#enum.is_empty() {
        let candidate = match (&py, number) {
            (_, Some(n)) if n.fract() == 0.0 => Some(format!("{}", n as i64)),
            (Py::Str(s), _) => Some(s.clone()),
            _ => None,
        };
        if let Some(c) = candidate {
            let case = spec.enum_case.as_deref().unwrap_or("exact");
            let matches = spec
                .r#enum
                .iter()
                .chain(&spec.spellings)
                .any(|e| match case {
                    "lower" | "upper" | "insensitive" => e.eq_ignore_ascii_case(&c),
                    _ => *e == c,
                });
            if !matches {
                let allowed = spec.r#enum.join(", ");
                let en = format!(
                    "`{}` must be one of {allowed}; found {}",
                    spec.path,
                    py.show()
                );
                let zh = format!(
                    "`{}` 只能取 {allowed} 之一，实际为 {}",
                    spec.path,
                    py.show()
                );
                if strict {
                    out.push(Diagnostic::error("invalid-value", ptr, Text::new(en, zh)));
                } else if let Some(crash) =
                    spec.fails_at_start.as_ref().filter(|_| spec.enum_at_start)
                {
                    out.push(Diagnostic::error(
                        "invalid-value",
                        ptr,
                        Text::new(
                            format!("{en}: DeepSpeed accepts it when it parses the config, then fails when the engine starts with {crash}"),
                            format!("{zh}：DeepSpeed 解析配置时接受，但启动引擎时会失败（{crash}）"),
                        ),
                    ));
                } else {
                    out.push(Diagnostic::warning("invalid-value", ptr, Text::new(en, zh)));
                }
            }
        }
    }
    // Ranges (as the chosen release bounds the field).
    if let Some(n) = number {
        let (min, max) = spec.range_at(view.release);
        let low = min.is_some_and(|(m, excl)| n.is_nan() || if excl { n <= m } else { n < m });
        let high =
            !low && max.is_some_and(|(m, excl)| n.is_nan() || if excl { n >= m } else { n > m });
        if low || high {
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
            out.push(if strict {
                Diagnostic::error("out-of-range", ptr, Text::new(en, zh))
            } else {
                Diagnostic::warning("out-of-range", ptr, Text::new(en, zh))
            });
        }
    }
    let _ = view;
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
                "`{}` 必须是 {}（pydantic 校验：{reason}），实际为 {} {}",
                spec.path,
                type_words(spec),
                node.type_name(),
                py.show()
            ),
        ),
    )
}

/// Where a lax key's value of the wrong type makes DeepSpeed fail after it parsed the config:
/// (its error, when in English, when in Chinese). Engine start for any wrong type; the first
/// training step for a string, list or object.
fn late_failure<'a>(spec: &'a KeySpec, py: &Py) -> Option<(&'a str, &'static str, &'static str)> {
    if let Some(crash) = &spec.fails_at_start {
        return Some((
            crash,
            "fails when the engine starts with",
            "启动引擎时会失败",
        ));
    }
    spec.fails_at_step
        .as_deref()
        .filter(|_| matches!(py, Py::Str(_) | Py::List | Py::Dict))
        .map(|crash| {
            (
                crash,
                "training fails at the first step with",
                "训练第一步就会失败",
            )
        })
}
