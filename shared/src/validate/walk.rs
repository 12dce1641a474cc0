//! The generic walk: every member of every object is checked against the registry.
//!
//! - unknown keys: an error inside strict (pydantic) sections, a warning elsewhere, with
//!   "did you mean" and a fix that renames the key;
//! - keys the chosen release does not know: too new ("arrived in 0.17.5"), gone, or removed
//!   with a `DeepSpeedConfigError` (0.19.6+ name the removal);
//! - deprecated keys (warning, fix: the replacement);
//! - each value against its spec ([`super::value`]): types, enums and ranges with pydantic's
//!   coercions in strict sections; in lax sections a wrong type is a warning, since DeepSpeed
//!   only reads it later (rules check the cases where the parser itself fails); booleans
//!   written as strings.

use super::view::Py;
use super::{Diagnostic, Severity, View};
use crate::document::{escape_token, Kind, Node};
use crate::i18n::Text;
use crate::registry::{registry, Children, KeySpec};
use crate::release::Release;
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
        // Past twice what is listed, only whether an error follows still matters (it decides
        // the verdict): warnings past that point are dropped as they come, and the walk ends at
        // the first such error. The walk stays linear in the document.
        let kept = 2 * super::MAX_DIAGNOSTICS;
        if out.len() > kept {
            if out[kept..].iter().any(|d| d.severity == Severity::Error) {
                return;
            }
            out.truncate(kept);
        }
        // Of duplicated keys only the last one is read (and the duplicate is already an error).
        if view.has_duplicates
            && !view
                .member(node, &m.key)
                .is_some_and(|last| std::ptr::eq(last, m))
        {
            continue;
        }
        let ptr = crate::document::pointer_join(pointer, &m.key);
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
        super::value::check_value(view, &m.value, spec, &ptr, out);
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
        let ptr = crate::document::pointer_join(pointer, &m.key);
        out.push(
            Diagnostic::warning(
                "unknown-key",
                &ptr,
                Text::new(
                    format!("unknown key `{}` in `{}`: DeepSpeed reads this section loosely and ignores it; did you mean `{}`?", m.key, spec.path, s.name()),
                    format!("`{}` 中有未知的键 `{}`：DeepSpeed 宽松地读取此段并忽略它；是否想写 `{}`？", spec.path, m.key, s.name()),
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

/// The sections (at most three) that have a key named `key` in this release, other than
/// `reg_path` where it was found: `pin_memory` beside `offload_optimizer`, say. Looked for, like
/// suggestions, only while the document has fewer than [`SUGGEST_WITHIN`] diagnostics.
fn elsewhere(reg_path: &str, key: &str, release: Release, said: usize) -> Vec<&'static str> {
    if said >= SUGGEST_WITHIN {
        return Vec::new();
    }
    let mut homes: Vec<&'static str> = registry()
        .keys_named(key)
        .filter(|s| s.parent() != reg_path && s.known_in(release))
        .map(|s| s.parent())
        .collect();
    homes.dedup();
    // Sections inside this one are what was meant (`pin_memory` in `zero_optimization` belongs
    // in its offload sections, not in `data_efficiency`).
    let inside = format!("{reg_path}.");
    if !reg_path.is_empty() && homes.iter().any(|h| h.starts_with(&inside)) {
        homes.retain(|h| h.starts_with(&inside));
    }
    homes.truncate(3);
    homes
}

/// Where a key found in the wrong section can be moved: its one home, when that section is in
/// the document (the top level always is) and does not set the key already.
fn move_home(view: &View, homes: &[&str], key: &str) -> Home {
    let [home] = homes else { return Home::Unknown };
    let target = if home.is_empty() {
        Some(view.root)
    } else {
        view.get(home)
    };
    let Some(target) = target.filter(|t| t.is_object()) else {
        return Home::Unknown;
    };
    if target.member(key).is_some() {
        return Home::SetThere;
    }
    let mut to = String::new();
    for token in home.split('.').filter(|t| !t.is_empty()).chain([key]) {
        to.push('/');
        to.push_str(&escape_token(token));
    }
    Home::MoveTo(to)
}

/// What can be done with a key found outside its one home section.
enum Home {
    /// Move it there (this pointer).
    MoveTo(String),
    /// Its home sets it already: this copy counts for nothing.
    SetThere,
    /// No single home section in the document.
    Unknown,
}

/// "; it belongs in `a`, `b` or `c`" (or "at the top level"), in English and Chinese.
fn belongs(homes: &[&str]) -> (String, String) {
    let sections: Vec<String> = homes
        .iter()
        .filter(|h| !h.is_empty())
        .map(|h| format!("`{h}`"))
        .collect();
    let top = homes.contains(&"");
    let mut en = Vec::new();
    let mut zh = Vec::new();
    if let Some((last, first)) = sections.split_last() {
        en.push(match first {
            [] => format!("in {last}"),
            _ => format!("in {} or {last}", first.join(", ")),
        });
        zh.push(match first {
            [] => format!(" {last} 中"),
            _ => format!(" {} 或 {last} 中", first.join("、")),
        });
    }
    if top {
        en.push("at the top level".to_string());
        zh.push("顶层".to_string());
    }
    (
        format!("; it belongs {}", en.join(" or ")),
        format!("；它应放在{}", zh.join("或")),
    )
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
    let homes = if suggestion.is_none() && twin.is_none() {
        elsewhere(reg_path, key, view.release, out.len())
    } else {
        Vec::new()
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
        (None, None) if homes.is_empty() => (String::new(), String::new()),
        (None, None) => belongs(&homes),
    };
    let home = if homes.is_empty() {
        Home::Unknown
    } else {
        move_home(view, &homes, key)
    };
    let (hint_en, hint_zh) = match home {
        Home::SetThere => (
            format!("{hint_en}, where it is set already: this copy counts for nothing (remove it)"),
            format!("{hint_zh}，而那里已设置了它：这一份不会生效（删除它）"),
        ),
        _ => (hint_en, hint_zh),
    };
    let diag = if policy == Children::Closed {
        Diagnostic::error(
            "unknown-key",
            ptr,
            Text::new(
                format!("unknown key `{key}` {where_en}: DeepSpeed rejects it (pydantic: \"Extra inputs are not permitted\"){hint_en}"),
                format!("{where_zh}有未知的键 `{key}`：DeepSpeed 会拒绝（pydantic：\"Extra inputs are not permitted\"）{hint_zh}"),
            ),
        )
    } else {
        Diagnostic::warning(
            "unknown-key",
            ptr,
            Text::new(
                format!("unknown key `{key}` {where_en}: DeepSpeed silently ignores it{hint_en}"),
                format!("{where_zh}有未知的键 `{key}`：DeepSpeed 会静默忽略它{hint_zh}"),
            ),
        )
    };
    out.push(match (suggestion, twin) {
        (Some(s), _) => diag.with_fix(json!([{"op": "move", "from": ptr, "path": format!("{pointer}/{}", escape_token(s.name()))}])),
        (None, Some(_)) => diag.with_fix(json!([{"op": "remove", "path": ptr}])),
        (None, None) => match home {
            Home::MoveTo(to) => diag.with_fix(json!([{"op": "move", "from": ptr, "path": to}])),
            Home::SetThere => diag.with_fix(json!([{"op": "remove", "path": ptr}])),
            Home::Unknown => diag,
        },
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
