//! ZeRO, optimizer and scheduler rules (3.x, 4.x): deprecated/replacement conflicts, partial
//! offload, and the engine-start checks the config alone decides.

use super::super::view::Py;
use super::super::{coerce, Diagnostic, View};
use super::ptr;
use crate::document::Kind;
use crate::i18n::Text;
use crate::registry::{deepspeed_optimizers, plausible_typo, registry, similarity};
use serde_json::json;

fn err(out: &mut Vec<Diagnostic>, code: &str, dotted: &str, en: String, zh: String) {
    out.push(Diagnostic::error(code, &ptr(dotted), Text::new(en, zh)));
}

/// `torch.optim` classes (case-sensitive), accepted as any other optimizer type.
pub const TORCH_OPTIMIZERS: &[&str] = &[
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "ASGD",
    "LBFGS",
    "Muon",
    "NAdam",
    "RAdam",
    "RMSprop",
    "Rprop",
    "SGD",
    "SparseAdam",
];
/// Optimizers on ZeRO's tested list (`ZERO_SUPPORTED_OPTIMIZERS`) when built from the config.
const ZERO_TESTED: &[&str] = &[
    "adam", "adamw", "adagrad", "lion", "muon", "Adam", "AdamW", "Adagrad",
];
const SCHEDULERS: &[&str] = &[
    "LRRangeTest",
    "OneCycle",
    "WarmupLR",
    "WarmupDecayLR",
    "WarmupCosineLR",
];
const TORCH_SCHEDULERS: &[&str] = &[
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "SequentialLR",
    "CosineAnnealingLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
    "OneCycleLR",
    "PolynomialLR",
    "LRScheduler",
];

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    let zero_is_obj = view.get("zero_optimization").is_some_and(|n| n.is_object());
    if view
        .get("zero_optimization")
        .is_some_and(|n| n.as_bool() == Some(true))
    {
        // Legacy form: the top-level allgather_size becomes allgather_bucket_size.
        if let Some(p) = view.py("allgather_size") {
            match coerce::to_int(&p) {
                Err(e) => err(out, "invalid-type", "allgather_size", format!("allgather_size must be an integer (it becomes zero_optimization.allgather_bucket_size): {e}"), "allgather_size 必须是整数".into()),
                // Stage 1 then checks its alignment, as for the object form.
                Ok(s) if s % 2.0 != 0.0 => err(out, "bucket-alignment", "allgather_size", "allgather_size becomes zero_optimization.allgather_bucket_size, which must be a multiple of nccl_start_alignment_factor, 2 (engine start)".into(), "allgather_size 会成为 zero_optimization.allgather_bucket_size，ZeRO-1 要求它是 2 的倍数（引擎启动时检查）".into()),
                Ok(_) => {}
            }
        }
    }
    let stage = view.zero_stage();
    if zero_is_obj {
        deprecated_pairs(view, out);
        if let Some(p) = view.strict("zero_optimization.offload_optimizer.ratio") {
            // In 0.14.x (pydantic v1) the root validator reads `getattr(values, ...)` on a
            // dict and never fires.
            if coerce::to_float(&p).is_ok_and(|r| r < 1.0)
                && stage != 3
                && !registry().has_check("pydantic-v1", view.release)
            {
                err(
                    out,
                    "partial-offload-stage",
                    "zero_optimization.offload_optimizer.ratio",
                    "Partial offloading only supported for ZeRO Stage 3.".into(),
                    "部分 offload（ratio < 1）仅支持 ZeRO-3".into(),
                );
            }
        }
        if !view.strict_bool("zero_optimization.compute_grad_norm", true)
            && stage != 1
            && stage != 2
        {
            err(
                out,
                "zero-incompatible",
                "zero_optimization.compute_grad_norm",
                "compute_grad_norm=false is supported only with ZeRO Stage 1 or 2".into(),
                "compute_grad_norm=false 仅支持 ZeRO-1/2".into(),
            );
        }
        for key in ["select_interval", "update_interval"] {
            let dotted = format!("zero_optimization.zenflow.{key}");
            match view.py(&dotted) {
                Some(Py::Str(s)) if s != "auto" => err(
                    out,
                    "invalid-value",
                    &dotted,
                    format!("If {key} is a string, it must be \"auto\""),
                    format!("{key} 为字符串时只能是 \"auto\""),
                ),
                Some(Py::Int(v))
                    if key == "update_interval"
                        && v < 1.0
                        && registry().has_check("zenflow-update-interval-min", view.release) =>
                {
                    err(
                        out,
                        "invalid-value",
                        &dotted,
                        "If update_interval is a number, it must be at least 1".into(),
                        "update_interval 为数字时必须 >= 1".into(),
                    )
                }
                _ => {}
            }
        }
        if view.strict_bool("zero_optimization.legacy_stage1", false) {
            err(out, "legacy-stage1", "zero_optimization.legacy_stage1", "The deprecated version of ZeRO Stage 1 is not supported in deepspeed >= 0.5.9 (engine start)".into(), "DeepSpeed >= 0.5.9 不再支持旧版 ZeRO Stage 1（legacy_stage1）".into());
        }
        if stage == 1 || stage == 2 {
            let size = view
                .strict("zero_optimization.allgather_bucket_size")
                .and_then(|p| coerce::to_int(&p).ok());
            if let Some(s) = size {
                if s % 2.0 != 0.0 {
                    err(out, "bucket-alignment", "zero_optimization.allgather_bucket_size", "allgather_bucket_size must be a multiple of nccl_start_alignment_factor, 2 (engine start)".into(), "ZeRO-1/2 的 allgather_bucket_size 必须是 2 的倍数".into());
                }
            }
        }
        let reduce_scatter = view.strict_bool("zero_optimization.reduce_scatter", true);
        if (stage == 2 && reduce_scatter) || stage == 3 {
            let name = if stage == 3 {
                "ZeRO stage 3"
            } else {
                "ZeRO stage 2 with reduce scatter enabled"
            };
            if view.py("prescale_gradients").is_some_and(|p| p.truthy()) {
                err(
                    out,
                    "zero-incompatible",
                    "prescale_gradients",
                    format!("pre-scale gradients is not yet supported with {name} (engine start)"),
                    format!("{name} 不支持 prescale_gradients"),
                );
            }
            if let Some(f) = view.py("gradient_predivide_factor").and_then(|p| p.num()) {
                if f != 1.0 {
                    err(out, "zero-incompatible", "gradient_predivide_factor", format!("gradient_predivide_factor != 1.0 is not yet supported with {name} (engine start)"), format!("{name} 要求 gradient_predivide_factor 为 1.0"));
                }
            }
        }
    }
    if stage >= 2 && view.ctx.pipeline_parallel > 1 {
        err(
            out,
            "zero-incompatible",
            "zero_optimization.stage",
            "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism".into(),
            "ZeRO-2/3 与流水线并行不兼容".into(),
        );
    }
    optimizer(view, stage, out);
    scheduler(view, out);
}

/// Where ZeRO keeps the optimizer state, as DeepSpeed reads it: `offload_optimizer.device`
/// (`"none"`, `"cpu"`, `"nvme"`), or the deprecated `cpu_offload: true` (→ `"cpu"`).
pub(crate) fn offload_optimizer_device(view: &View) -> String {
    if !view.get("zero_optimization").is_some_and(|n| n.is_object()) {
        return "none".into();
    }
    if view
        .get("zero_optimization.offload_optimizer")
        .is_some_and(|n| n.is_object())
    {
        return match view.strict("zero_optimization.offload_optimizer.device") {
            Some(Py::Str(s)) => s.to_ascii_lowercase(),
            _ => "none".into(),
        };
    }
    if view.strict_bool("zero_optimization.cpu_offload", false) {
        return "cpu".into();
    }
    "none".into()
}

/// The fix that offloads the optimizer state to the CPU, keeping the section's other settings.
pub(crate) fn offload_to_cpu_fix(view: &View) -> serde_json::Value {
    if view
        .get("zero_optimization.offload_optimizer")
        .is_some_and(|n| n.is_object())
    {
        json!([{"op": "add", "path": "/zero_optimization/offload_optimizer/device", "value": "cpu"}])
    } else {
        json!([{"op": "add", "path": "/zero_optimization/offload_optimizer", "value": {"device": "cpu"}}])
    }
}

/// Whether DeepSpeed builds its CPU Adam (`DeepSpeedCPUAdam`, or `ZenFlowCPUAdam` under ZenFlow)
/// for `optimizer.type` when the optimizer is offloaded: Adam/AdamW, any case, without
/// `torch_adam`.
pub(crate) fn builds_cpu_adam(view: &View, ty: &str) -> bool {
    matches!(ty.to_ascii_lowercase().as_str(), "adam" | "adamw")
        && !view
            .py("optimizer.params.torch_adam")
            .is_some_and(|p| p.truthy())
}

/// With ZenFlow and the optimizer offloaded, DeepSpeed builds `ZenFlowCPUAdam` for Adam/AdamW;
/// releases before 0.19.3 (`zenflow-cpu-adam-tested`) do not list it among ZeRO's tested
/// optimizers.
fn zenflow_cpu_adam_untested(view: &View, key: &str) -> bool {
    builds_cpu_adam(view, key)
        && super::zenflow::on(view)
        && offload_optimizer_device(view) != "none"
        && !registry().has_check("zenflow-cpu-adam-tested", view.release)
}

fn deprecated_pairs(view: &View, out: &mut Vec<Diagnostic>) {
    let z = |k: &str| view.strict(&format!("zero_optimization.{k}")).is_some();
    let pairs = [
        ("cpu_offload", vec!["offload_optimizer"]),
        ("cpu_offload_param", vec!["offload_param"]),
        (
            "stage3_gather_fp16_weights_on_model_save",
            vec![
                "gather_16bit_weights_on_model_save",
                "stage3_gather_16bit_weights_on_model_save",
            ],
        ),
    ];
    for (old, news) in pairs {
        if let Some(new) = news.iter().find(|n| z(n)) {
            if z(old) {
                out.push(Diagnostic::error("deprecated-conflict", &ptr(&format!("zero_optimization.{old}")), Text::new(
                    format!("Cannot provide deprecated parameter '{old}' and replacing parameter '{new}' together"),
                    format!("不能同时提供已弃用的 '{old}' 和替代它的 '{new}'"),
                )).with_fix(json!([{"op": "remove", "path": format!("/zero_optimization/{old}")}])));
            }
        }
    }
}

/// The fix for an optimizer a release removed (the 1-bit family): its plain counterpart
/// (`Lamb` for 1-bit Lamb, `Adam` otherwise), without the parameters only the removed one read
/// (`freeze_step`, `cuda_aware`, `comm_backend_name`, ...), so the fixed config is clean.
fn successor_fix(view: &View, lower: &str) -> serde_json::Value {
    let successor = if lower.contains("lamb") {
        "Lamb"
    } else {
        "Adam"
    };
    let known = registry().optimizer(&successor.to_ascii_lowercase());
    let mut ops = vec![json!({"op": "replace", "path": "/optimizer/type", "value": successor})];
    if let (Some(known), Some(params)) = (known, view.get("optimizer.params")) {
        for m in params.members() {
            if !known.params.contains_key(&m.key) {
                ops.push(json!({"op": "remove", "path": format!("/optimizer/params/{}", crate::document::escape_token(&m.key))}));
            }
        }
    }
    serde_json::Value::Array(ops)
}

fn optimizer(view: &View, stage: u8, out: &mut Vec<Diagnostic>) {
    let Some(opt) = view.get("optimizer") else {
        return;
    };
    if !opt.is_object() {
        return;
    }
    let Some(ty) = view.get("optimizer.type").and_then(|n| n.as_str()) else {
        return;
    };
    let lower = ty.to_ascii_lowercase();
    let release = view.release;
    let is_ds = deepspeed_optimizers(release).any(|o| o == lower);
    if !is_ds && !TORCH_OPTIMIZERS.contains(&ty) {
        // An optimizer of another release is named as such, not answered with a look-alike.
        if let Some(span) = registry().optimizer_span(&lower) {
            let (en, zh) = match (span.since, span.until) {
                (Some(since), _) if release < since => (
                    format!("{ty} arrived in DeepSpeed {since}: DeepSpeed {release} does not have it (\"{ty} is not a supported DeepSpeed Optimizer\" at engine start); choose {since} or newer"),
                    format!("{ty} 自 DeepSpeed {since} 起才有：DeepSpeed {release} 没有这个优化器（引擎启动时报错）；请选择 {since} 或更新的版本"),
                ),
                (_, Some(until)) => {
                    let last = until.previous().map(|r| r.to_string()).unwrap_or_default();
                    (
                        format!("{ty} was removed in DeepSpeed {until} (the last release with it is {last}): DeepSpeed {release} fails at engine start with \"{ty} is not a supported DeepSpeed Optimizer\"; use Adam/AdamW, or stay on {last}"),
                        format!("{ty} 已在 DeepSpeed {until} 中移除（最后支持它的版本是 {last}）：DeepSpeed {release} 启动引擎时会报错；请改用 Adam/AdamW，或继续使用 {last}"),
                    )
                }
                _ => (String::new(), String::new()),
            };
            if !en.is_empty() {
                let mut d = Diagnostic::error(
                    "optimizer-not-in-release",
                    &ptr("optimizer.type"),
                    Text::new(en, zh),
                );
                if span.until.is_some() {
                    d = d.with_fix(successor_fix(view, &lower));
                }
                out.push(d);
                return;
            }
        }
        let suggestion = deepspeed_optimizers(release)
            .chain(TORCH_OPTIMIZERS.iter().copied())
            .max_by(|a, b| {
                similarity(&lower, &a.to_ascii_lowercase())
                    .total_cmp(&similarity(&lower, &b.to_ascii_lowercase()))
            })
            .unwrap_or("AdamW");
        out.push(Diagnostic::error("unknown-optimizer", &ptr("optimizer.type"), Text::new(
            format!("{ty} is not a supported DeepSpeed Optimizer (nor a torch.optim class); did you mean `{suggestion}`? (engine start)"),
            format!("{ty} 不是 DeepSpeed 支持的优化器，也不是 torch.optim 中的类；是否想写 `{suggestion}`？"),
        )).with_fix(json!([{"op": "replace", "path": "/optimizer/type", "value": suggestion}])));
        return;
    }
    let key = if is_ds { lower.as_str() } else { ty };
    if stage > 0 {
        let onebit = match key {
            "onebitadam" => Some("1bit-Adam"),
            "zerooneadam" => Some("0/1 Adam"),
            "onebitlamb" => Some("1bit-Lamb"),
            _ => None,
        };
        if let Some(name) = onebit {
            err(
                out,
                "zero-incompatible",
                "optimizer.type",
                format!("{name} is not compatible with ZeRO (engine start)"),
                format!("{name} 与 ZeRO 不兼容"),
            );
        } else if (!ZERO_TESTED.contains(&key) || zenflow_cpu_adam_untested(view, key))
            && !view
                .py("zero_allow_untested_optimizer")
                .is_some_and(|p| p.truthy())
        {
            let name = if ZERO_TESTED.contains(&key) {
                format!("ZenFlowCPUAdam, which DeepSpeed {release} builds for {ty} with ZenFlow and the optimizer offloaded")
            } else {
                ty.to_string()
            };
            out.push(Diagnostic::error("zero-untested-optimizer", &ptr("optimizer.type"), Text::new(
                format!("You are using an untested ZeRO Optimizer ({name}). Please add <\"zero_allow_untested_optimizer\": true> in the configuration file to use it. (engine start)"),
                format!("{name} 不在 ZeRO 测试过的优化器列表中；如确需使用，请设置 \"zero_allow_untested_optimizer\": true"),
            )).with_fix(json!([{"op": "add", "path": "/zero_allow_untested_optimizer", "value": true}])));
        }
    }
    if let Some(params) = view.get("optimizer.params") {
        if params.member("max_grad_norm").is_some()
            && registry().has_check("max-grad-norm-refused", view.release)
        {
            out.push(Diagnostic::error("max-grad-norm", &ptr("optimizer.params.max_grad_norm"), Text::new(
                "'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed parameter 'gradient_clipping' (engine start)",
                "优化器参数不支持 'max_grad_norm'，请改用顶层的 'gradient_clipping'",
            )).with_fix(json!([{"op": "move", "from": "/optimizer/params/max_grad_norm", "path": "/gradient_clipping"}])));
        }
        if let (Kind::Object(members), Some(family)) = (&params.kind, registry().optimizer(ty)) {
            numbers_as_strings(members, family, "optimizer", out);
            for m in members {
                if m.key == "max_grad_norm"
                    || family.params.contains_key(&m.key)
                    || family.params.is_empty()
                {
                    continue;
                }
                let names: Vec<&String> = family.params.keys().collect();
                let best = names
                    .iter()
                    .max_by(|a, b| similarity(&m.key, a).total_cmp(&similarity(&m.key, b)));
                let best = best
                    .filter(|b| plausible_typo(&m.key, b))
                    .or_else(|| names.iter().find(|n| alias_of(&m.key) == Some(n.as_str())));
                let hint = best
                    .map(|b| format!("; did you mean `{b}`?"))
                    .unwrap_or_default();
                let at = format!(
                    "/optimizer/params/{}",
                    crate::document::escape_token(&m.key)
                );
                // The rename as the fix, where the right name is not set already.
                let fix = best.filter(|b| params.member(b).is_none()).map(|b| {
                    json!([{"op": "move", "from": at, "path": format!("/optimizer/params/{}", crate::document::escape_token(b))}])
                });
                let d = Diagnostic::error("unknown-optimizer-param", &at, Text::new(
                    format!("`{}` is not a parameter of the {ty} optimizer: it raises TypeError when DeepSpeed builds the optimizer{hint}{}", m.key, built_by_default(family)),
                    format!("`{}` 不是 {ty} 优化器的参数，DeepSpeed 构建优化器时会报 TypeError{}", m.key, hint.replace("; did you mean", "；是否想写").replace('?', "？")),
                ));
                out.push(match fix {
                    Some(f) => d.with_fix(f),
                    None => d,
                });
            }
        }
    }
    if (key == "lamb" || key == "onebitlamb") && view.fp16_enabled() {
        if let Some(ls) = view
            .strict("fp16.loss_scale")
            .and_then(|p| coerce::to_float(&p).ok())
        {
            if ls != 0.0 {
                err(
                    out,
                    "zero-incompatible",
                    "fp16.loss_scale",
                    "DeepSpeed lamb optimizer requires dynamic loss scaling (engine start)".into(),
                    "Lamb 优化器需要动态 loss scaling（loss_scale=0）".into(),
                );
            }
        }
    }
}

/// " (DeepSpeed builds <the class it builds by default>)", or nothing when the registry has no
/// class for the family: the first of the registry's class alternatives.
fn built_by_default(family: &crate::registry::ParamFamily) -> String {
    match family.class.split(';').next().map(str::trim) {
        Some(c) if !c.is_empty() => {
            format!(
                " (DeepSpeed builds {})",
                c.replace(" (default)", " by default")
            )
        }
        _ => String::new(),
    }
}

/// The optimizer parameter a name from elsewhere means: the HF Trainer's and papers' names
/// for what DeepSpeed's optimizers call `lr`, `eps` and `weight_decay`.
fn alias_of(key: &str) -> Option<&'static str> {
    match key {
        "learning_rate" => Some("lr"),
        "epsilon" | "adam_epsilon" | "adam_eps" => Some("eps"),
        "weight_decay_rate" | "wd" => Some("weight_decay"),
        _ => None,
    }
}

/// An optimizer or scheduler parameter that is a number, written as a string (`"lr": "3e-4"`,
/// as YAML and templates produce): DeepSpeed hands the string to the class, which fails when it
/// compares or computes with it. A warning (when it fails depends on the class), with the
/// number as the fix; "auto" is the auto rule's.
fn numbers_as_strings(
    members: &[crate::document::Member],
    family: &crate::registry::ParamFamily,
    section: &str,
    out: &mut Vec<Diagnostic>,
) {
    for m in members {
        let (Some(spec), Some(text)) = (family.params.get(&m.key), m.value.as_str()) else {
            continue;
        };
        let numeric = spec.ty.starts_with("float") || spec.ty.starts_with("int");
        if !numeric || text == "auto" {
            continue;
        }
        let at = format!(
            "/{section}/params/{}",
            crate::document::escape_token(&m.key)
        );
        // The number the string holds, as the key's type writes it.
        let value = text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .and_then(|n| {
                if n.fract() == 0.0 && spec.ty.starts_with("int") && n.abs() <= i64::MAX as f64 {
                    Some(json!(n as i64))
                } else {
                    serde_json::Number::from_f64(n).map(serde_json::Value::Number)
                }
            });
        let shown = Py::Str(text.to_string()).show();
        let (write_en, write_zh) = match &value {
            Some(v) => (
                format!("; write it as a number ({v}, the suggested fix)"),
                format!("；请写成数字（{v}，即建议的修复）"),
            ),
            None => (String::new(), String::new()),
        };
        let mut d = Diagnostic::warning(
            "wrong-type",
            &at,
            Text::new(
                format!("`{section}.params.{}` should be a number, found string {shown}: DeepSpeed passes the string to the {section}, which raises TypeError when it uses it{write_en}", m.key),
                format!("`{section}.params.{}` 应为数字，实际为字符串 {shown}：DeepSpeed 会把字符串原样传给{}，使用时会报 TypeError{write_zh}", m.key, if section == "optimizer" { "优化器" } else { "调度器" }),
            ),
        );
        if let Some(v) = value {
            d = d.with_fix(json!([{"op": "replace", "path": at, "value": v}]));
        }
        out.push(d);
    }
}

fn scheduler(view: &View, out: &mut Vec<Diagnostic>) {
    let Some(ty) = view.get("scheduler.type").and_then(|n| n.as_str()) else {
        return;
    };
    if !SCHEDULERS.contains(&ty) && !TORCH_SCHEDULERS.contains(&ty) {
        out.push(Diagnostic::error(
            "unknown-scheduler",
            &ptr("scheduler.type"),
            Text::new(
                format!("DeepSpeed does not recognize LR scheduler {ty} (engine start)"),
                format!("DeepSpeed 不认识学习率调度器 {ty}"),
            ),
        ));
        return;
    }
    let params = view.get("scheduler.params");
    let release = view.release;
    let Some(params) = params.filter(|p| p.is_object()) else {
        // `scheduler(optimizer, **scheduler_params)` with params None (or not a dict).
        err(
            out,
            "scheduler-params",
            if params.is_some() { "scheduler.params" } else { "scheduler" },
            format!("{ty} needs a `params` object: DeepSpeed builds it as {ty}(optimizer, **params) and fails with TypeError (\"argument after ** must be a mapping\") at engine start"),
            format!("{ty} 需要 `params` 对象：DeepSpeed 以 {ty}(optimizer, **params) 构建调度器，缺少时引擎启动报 TypeError"),
        );
        return;
    };
    let required: &[&str] = match ty {
        "WarmupDecayLR" | "WarmupCosineLR" => &["total_num_steps"],
        "OneCycle" => &["cycle_min_lr", "cycle_max_lr"],
        _ => &[],
    };
    let family = registry().schedulers.get(ty);
    for name in required {
        // A misspelling of it is there (`total_num_step`): its own error says "did you mean"
        // and renames it; "requires" beside it would be the same fact twice.
        let misspelt = params.members().iter().any(|m| {
            family.is_some_and(|f| !f.params.contains_key(&m.key)) && plausible_typo(&m.key, name)
        });
        if params.member(name).is_none() && !misspelt {
            err(
                out,
                "missing-key",
                "scheduler.params",
                format!("{ty} requires `{name}` (engine start: TypeError: missing required argument '{name}')"),
                format!("{ty} 需要 `{name}`（引擎启动时报 TypeError：缺少必需参数 '{name}'）"),
            );
        }
    }
    // A Python int: JSON integers and booleans (isinstance(True, int)).
    let positive_int = |p: &Py| match p {
        Py::Int(v) => *v > 0.0,
        Py::Bool(b) => *b,
        _ => false,
    };
    if let Some(p) = params.member("warmup_num_steps").map(|m| Py::of(&m.value)) {
        let warmup = ["WarmupLR", "WarmupDecayLR", "WarmupCosineLR"].contains(&ty);
        if warmup && registry().has_check("warmup-num-steps-positive", release) {
            if !positive_int(&p) {
                err(out, "invalid-value", "scheduler.params.warmup_num_steps",
                    format!("warmup_num_steps must be a positive integer, got {} (DeepSpeed {release}, engine start: ValueError)", p.show()),
                    format!("warmup_num_steps 必须是正整数，实际为 {}（DeepSpeed {release} 启动引擎时报 ValueError）", p.show()));
            }
        } else if warmup && p.num().is_none() {
            // Before 0.19.3: `max(2, warmup_num_steps)` (TypeError for anything but a number).
            err(
                out,
                "invalid-value",
                "scheduler.params.warmup_num_steps",
                format!("warmup_num_steps must be a number, got {} (DeepSpeed {release}, engine start: TypeError in max(2, warmup_num_steps))", p.show()),
                format!("warmup_num_steps 必须是数字，实际为 {}（DeepSpeed {release} 启动引擎时报 TypeError）", p.show()),
            );
        }
    }
    if ty == "LRRangeTest" && registry().has_check("lr-range-step-size-positive", release) {
        if let Some(p) = params
            .member("lr_range_test_step_size")
            .map(|m| Py::of(&m.value))
        {
            if !positive_int(&p) {
                err(out, "invalid-value", "scheduler.params.lr_range_test_step_size",
                    format!("lr_range_test_step_size must be a positive integer, got {} (DeepSpeed {release}, engine start: ValueError)", p.show()),
                    format!("lr_range_test_step_size 必须是正整数，实际为 {}（DeepSpeed {release} 启动引擎时报 ValueError）", p.show()));
            }
        }
    }
    if ty == "OneCycle" && registry().has_check("one-cycle-step-size-positive", release) {
        let num = |name: &str| params.member(name).map(|m| Py::of(&m.value));
        if let Some(first) = num("cycle_first_step_size") {
            if first.num().is_some_and(|v| v <= 0.0) {
                err(out, "invalid-value", "scheduler.params.cycle_first_step_size",
                    format!("cycle_first_step_size must be positive, got {} (DeepSpeed {release}, engine start: ValueError)", first.show()),
                    format!("cycle_first_step_size 必须为正数，实际为 {}（引擎启动时报 ValueError）", first.show()));
            }
        }
        if let Some(second) = num("cycle_second_step_size") {
            if second.num().is_some_and(|v| v < 0.0) {
                err(out, "invalid-value", "scheduler.params.cycle_second_step_size",
                    format!("cycle_second_step_size must be non-negative, got {} (DeepSpeed {release}, engine start: ValueError)", second.show()),
                    format!("cycle_second_step_size 不能为负数，实际为 {}（引擎启动时报 ValueError）", second.show()));
            }
        }
    }
    let params = Some(params);
    if let (Some(params), Some(family)) = (params, registry().schedulers.get(ty)) {
        numbers_as_strings(params.members(), family, "scheduler", out);
        // The parameters not given, found once (not per unknown member: a section of
        // thousands of members would cost their square).
        let given: std::collections::HashSet<&str> =
            params.members().iter().map(|m| m.key.as_str()).collect();
        let missing: Vec<&String> = family
            .params
            .keys()
            .filter(|b| !given.contains(b.as_str()))
            .collect();
        // One suggestion per distinct key (a key repeated thousands of times is compared once).
        let mut suggested: std::collections::HashMap<&str, Option<&String>> = Default::default();
        for m in params.members() {
            if !family.params.is_empty() && !family.params.contains_key(&m.key) {
                let best = *suggested.entry(m.key.as_str()).or_insert_with(|| {
                    missing
                        .iter()
                        .copied()
                        .max_by(|a, b| similarity(&m.key, a).total_cmp(&similarity(&m.key, b)))
                        .filter(|b| plausible_typo(&m.key, b))
                });
                // WarmupCosineLR warms up to the optimizer's own learning rate: a peak of its
                // own (WarmupLR's `warmup_max_lr`) has no place, and no near name is meant.
                let peak_elsewhere = best.is_none()
                    && ty == "WarmupCosineLR"
                    && matches!(m.key.as_str(), "warmup_max_lr" | "max_lr");
                let (hint_en, hint_zh) = if peak_elsewhere {
                    (
                        "; WarmupCosineLR warms up to the optimizer's `lr` (warmup_min_ratio × lr at the start): set the peak as optimizer.params.lr and remove this key".to_string(),
                        "；WarmupCosineLR 预热到优化器的 `lr`（起点为 warmup_min_ratio × lr）：请把峰值学习率设为 optimizer.params.lr，并删除此键".to_string(),
                    )
                } else {
                    best.map(|b| {
                        (
                            format!("; did you mean `{b}`?"),
                            format!("；是否想写 `{b}`？"),
                        )
                    })
                    .unwrap_or_default()
                };
                let at = format!(
                    "/scheduler/params/{}",
                    crate::document::escape_token(&m.key)
                );
                let mut d = Diagnostic::error("unknown-scheduler-param", &at, Text::new(
                    format!("`{}` is not a parameter of {ty}: it raises TypeError when DeepSpeed builds the scheduler{hint_en}", m.key),
                    format!("`{}` 不是 {ty} 的参数，构建调度器时会报 TypeError{hint_zh}", m.key),
                ));
                if let Some(b) = best {
                    d = d.with_fix(json!([{"op": "move", "from": at, "path": format!("/scheduler/params/{}", crate::document::escape_token(b))}]));
                }
                out.push(d);
            }
        }
    }
}
