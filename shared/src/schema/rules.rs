//! What the schema says across keys: fp16 and bf16 not both enabled, a batch key present, and
//! `optimizer.params` / `scheduler.params` closed per `type` (each type's constructor raises
//! TypeError on an unknown keyword), with removed optimizer types refused.

use super::keys::{any_case, value_check};
use super::words::{self, pick};
use super::Gen;
use crate::registry::{described, ParamFamily};
use crate::Launcher;
use serde_json::{json, Map, Value};

/// The rules on the whole config (an `allOf` at the root).
pub(super) fn root_rules(g: &Gen) -> Vec<Value> {
    let enabled = json!({"type": "object", "required": ["enabled"], "properties": {"enabled": {"const": true}}});
    // Said on `bf16.enabled` (where editors underline it), when fp16 is enabled too.
    let both = |bf: &str| {
        json!({
            "if": {"type": "object", "required": ["fp16", bf], "properties": {"fp16": enabled, bf: enabled}},
            "then": {"type": "object", "properties": {bf: {"type": "object", "properties": {"enabled": {
                "not": {"const": true},
                "errorMessage": pick(g.lang,
                    "bfloat16 and fp16 modes cannot be simultaneously enabled: DeepSpeed refuses fp16.enabled and bf16.enabled both true",
                    "fp16 与 bf16 不能同时启用（DeepSpeed 会报错：bfloat16 and fp16 modes cannot be simultaneously enabled）"),
            }}}}},
        })
    };
    let mut rules = vec![both("bf16"), both("bfloat16")];
    // The plain launcher needs a batch key; the HF launchers write theirs.
    if g.launcher == Launcher::Deepspeed {
        let mut ways = vec![
            json!({"type": "object", "required": ["train_batch_size"], "properties": {"train_batch_size": true}}),
            json!({"type": "object", "required": ["train_micro_batch_size_per_gpu"], "properties": {"train_micro_batch_size_per_gpu": true}}),
        ];
        let elastic = described()
            .get("elasticity")
            .is_some_and(|s| s.known_in(g.release));
        if elastic {
            // Elasticity computes the batch sizes itself.
            ways.push(json!({"type": "object", "required": ["elasticity"], "properties": {"elasticity": enabled}}));
        }
        // As `if none then fail`, so that editors show this message, not "Missing property".
        rules.push(json!({
            "if": {"not": {"anyOf": ways}},
            "then": {"not": {}, "errorMessage": pick(g.lang,
                "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided (DeepSpeed refuses a config with neither)",
                "train_batch_size 与 train_micro_batch_size_per_gpu 至少要给出一个（两者都没有时 DeepSpeed 会报错）")},
        }));
    }
    rules
}

/// How DeepSpeed's documentation spells an optimizer the registry keys in lower case.
fn display_name(name: &str) -> &str {
    match name {
        "onebitadam" => "OneBitAdam",
        "zerooneadam" => "ZeroOneAdam",
        "onebitlamb" => "OneBitLamb",
        "muon" => "Muon",
        other => other,
    }
}

/// `optimizer`'s per-type rules: each type's `params`, and the types this release lacks.
pub(super) fn optimizer_rules(g: &Gen) -> Vec<Value> {
    let reg = described();
    let mut rules = Vec::new();
    for (name, fam) in &reg.optimizers {
        let cond = json!({"type": "string", "pattern": any_case(&[name])});
        match reg.optimizer_span(name) {
            Some(span) if !span.holds(g.release) => {
                let name = display_name(name);
                let msg = match (span.since, span.until) {
                    (Some(since), _) if g.release < since => pick(g.lang,
                        format!("{name} arrived in DeepSpeed {since}: DeepSpeed {} does not have it (\"{name} is not a supported DeepSpeed Optimizer\" at engine start)", g.release),
                        format!("{name} 自 DeepSpeed {since} 起才有：DeepSpeed {} 没有这个优化器", g.release)),
                    (_, Some(until)) => {
                        let last = until.previous().map(|r| r.to_string()).unwrap_or_default();
                        pick(g.lang,
                            format!("{name} was removed in DeepSpeed {until} (the last release with it is {last}): DeepSpeed {} fails at engine start with \"{name} is not a supported DeepSpeed Optimizer\"; use Adam/AdamW, or stay on {last}", g.release),
                            format!("{name} 已在 DeepSpeed {until} 中移除（最后支持它的版本是 {last}）：DeepSpeed {} 启动引擎时会报错；请改用 Adam/AdamW，或继续使用 {last}", g.release))
                    }
                    _ => continue,
                };
                rules.push(json!({
                    "if": {"type": "object", "required": ["type"], "properties": {"type": cond}},
                    "then": {"properties": {"type": {"not": {}, "errorMessage": msg, "deprecationMessage": msg}}}
                }));
            }
            _ => rules.push(per_type(g, "optimizer", name, cond, fam)),
        }
    }
    // DeepSpeed takes its own names in any case first: `Adam` is DeepSpeed's, not torch's.
    let ours: Vec<&str> = crate::registry::deepspeed_optimizers(g.release).collect();
    for (name, fam) in &reg.torch_optimizers {
        if ours.contains(&name.to_ascii_lowercase().as_str()) {
            continue;
        }
        rules.push(per_type(g, "optimizer", name, json!({"const": name}), fam));
    }
    rules
}

/// `scheduler`'s per-type `params`.
pub(super) fn scheduler_rules(g: &Gen) -> Vec<Value> {
    let reg = described();
    reg.schedulers
        .iter()
        .filter(|(name, _)| reg.scheduler_span(name).is_none_or(|s| s.holds(g.release)))
        .map(|(name, fam)| per_type(g, "scheduler", name, json!({"const": name}), fam))
        .collect()
}

/// `if type is <cond> then params has these keys` (closed where the family lists its keys).
fn per_type(g: &Gen, section: &str, name: &str, cond: Value, fam: &ParamFamily) -> Value {
    // The class where the registry names it (`torch.optim.Adam`), else the type as written.
    let class = if fam.class.is_empty() {
        name
    } else {
        fam.class.as_str()
    };
    let mut props = Map::new();
    for (k, p) in &fam.params {
        let path = format!("{section}.params.{k}");
        let mut s = Map::new();
        let doc = match g.lang {
            crate::i18n::Lang::Zh if !p.zh.is_empty() => &p.zh,
            _ => &p.en,
        };
        s.insert("description".into(), json!(doc));
        let mut md = format!("**`{path}`** ({})\n\n{doc}", class);
        if !p.default.is_null() {
            md.push_str(&pick(
                g.lang,
                format!("\n\nDefault: `{}`", p.default),
                format!("\n\n默认值：`{}`", p.default),
            ));
        }
        s.insert("markdownDescription".into(), json!(md));
        if !p.default.is_null() {
            s.insert("default".into(), p.default.clone());
        }
        let auto = words::auto(g.launcher, &path, crate::registry::Mode::Lax, g.lang);
        let ty = p.ty.to_ascii_lowercase();
        let expected = match param_type(&ty) {
            Some((schema, en, zh)) => {
                let typed = vec![schema, json!({"type": "null"})];
                let msg = pick(
                    g.lang,
                    format!("`{path}` should be {en} for {}", class),
                    format!("`{path}` 应为{zh}（{}）", class),
                );
                Some((typed, msg))
            }
            None => None,
        };
        match expected {
            Some((typed, msg)) => {
                value_check(&mut s, typed, &auto, false, String::new, || msg.clone())
            }
            None => {
                if let words::Auto::Refused(msg) = &auto {
                    s.insert("not".into(), json!({"const": "auto"}));
                    s.insert("errorMessage".into(), json!(msg));
                }
            }
        }
        props.insert(k.clone(), Value::Object(s));
    }
    let mut params = Map::new();
    params.insert("type".into(), json!("object"));
    if section == "optimizer" {
        let refused = described().has_check("max-grad-norm-refused", g.release);
        let s = if refused {
            let msg = pick(g.lang,
                "'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed parameter 'gradient_clipping' (engine start)",
                "优化器参数不支持 'max_grad_norm'，请改用顶层的 'gradient_clipping'（引擎启动时报错）");
            json!({"not": {}, "errorMessage": msg, "deprecationMessage": msg})
        } else {
            json!({"description": pick(g.lang, "Read by DeepSpeed as the gradient clipping value (use the top-level gradient_clipping).", "DeepSpeed 会把它当作梯度裁剪值（请改用顶层的 gradient_clipping）")})
        };
        props.insert("max_grad_norm".into(), s);
    }
    params.insert("properties".into(), Value::Object(props));
    params.insert("description".into(), json!(class));
    if !fam.params.is_empty() {
        let names: Vec<&str> = fam.params.keys().map(String::as_str).collect();
        params.insert(
            "additionalProperties".into(),
            json!({"not": {}, "errorMessage": pick(g.lang,
                format!("not a parameter of {}: it raises TypeError when DeepSpeed builds it (its parameters: {})", class, names.join(", ")),
                format!("不是 {} 的参数：DeepSpeed 构建时会报 TypeError（可用参数：{}）", class, names.join("、")))}),
        );
    }
    json!({
        "if": {"type": "object", "required": ["type"], "properties": {"type": cond}},
        "then": {"properties": {"params": params}}
    })
}

/// The subschema and words of an optimizer parameter's Python type annotation.
fn param_type(ty: &str) -> Option<(Value, &'static str, &'static str)> {
    Some(if ty.starts_with("int") {
        (
            json!({"type": "number", "multipleOf": 1}),
            "an integer",
            "整数",
        )
    } else if ty.starts_with("float") || ty.starts_with("number") {
        (json!({"type": "number"}), "a number", "数字")
    } else if ty.starts_with("bool") {
        (json!({"type": "boolean"}), "a boolean", "布尔值")
    } else if ty.starts_with("str") {
        (json!({"type": "string"}), "a string", "字符串")
    } else if ty.starts_with("list") || ty.starts_with("tuple") {
        (json!({"type": "array"}), "a list", "列表")
    } else {
        return None;
    })
}
