//! Parser checks on whole sections and lax keys (rules 0.x, 3.22, 5.x): sections DeepSpeed
//! unpacks with `**` must be objects, and the lax keys it checks by hand.

use super::super::view::Py;
use super::super::{Diagnostic, View};
use super::ptr;
use crate::document::Kind;
use crate::i18n::Text;
use serde_json::json;

fn err(out: &mut Vec<Diagnostic>, code: &str, dotted: &str, en: String, zh: String) {
    out.push(Diagnostic::error(code, &ptr(dotted), Text::new(en, zh)));
}

/// Sections DeepSpeed passes to a pydantic model with `Model(**value)`.
const MAPPING_SECTIONS: &[&str] = &[
    "fp16",
    "zero_optimization",
    "compile",
    "weight_quantization",
    "comms_logger",
    "hybrid_engine",
    "tensor_parallel",
];

/// Lax sections DeepSpeed reads with `section.get(...)`: anything but an object fails.
const LAX_DICT_SECTIONS: &[&str] = &[
    "checkpoint",
    "activation_checkpointing",
    "flops_profiler",
    "autotuning",
    "data_efficiency",
    "data_types",
    "pipeline",
    "torch_autocast",
    "optimizer",
    "scheduler",
];

/// Monitor sections: pydantic models inside `DeepSpeedMonitorConfig` ("auto" is dropped).
const MONITOR_SECTIONS: &[&str] = &["tensorboard", "wandb", "csv_monitor", "comet"];

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    for s in MAPPING_SECTIONS {
        let Some(node) = view.get(s) else { continue };
        let ok = match &node.kind {
            Kind::Object(_) => true,
            Kind::Bool(_) => *s == "zero_optimization", // legacy form
            Kind::String(a) => a == "auto" && *s == "tensor_parallel",
            _ => false,
        };
        if !ok {
            err(
                out,
                "section-not-object",
                s,
                format!(
                    "`{s}` must be an object; DeepSpeed unpacks it with `**` and fails on {} {}",
                    node.type_name(),
                    Py::of(node).show()
                ),
                format!(
                    "`{s}` 必须是对象（DeepSpeed 用 ** 解包），实际是{}",
                    node.type_name_zh()
                ),
            );
        }
    }
    for s in LAX_DICT_SECTIONS {
        let Some(node) = view.get(s) else { continue };
        if !node.is_object() {
            let shown = Py::of(node).show();
            // `"optimizer": "AdamW"` means `{"type": "AdamW"}`: said, with that as the fix.
            let typed = node
                .as_str()
                .filter(|_| matches!(*s, "optimizer" | "scheduler"));
            let (hint_en, hint_zh) = match typed {
                Some(t) => (
                    format!("; write {{\"type\": \"{t}\"}}"),
                    format!("；应写成 {{\"type\": \"{t}\"}}"),
                ),
                None => (String::new(), String::new()),
            };
            let mut d = Diagnostic::error(
                "section-not-object",
                &ptr(s),
                Text::new(
                    format!(
                        "`{s}` must be an object; DeepSpeed calls `.get()` on it and fails on {} {shown}{hint_en}",
                        node.type_name(),
                    ),
                    format!(
                        "`{s}` 必须是对象，实际是{} {shown}（DeepSpeed 会对它调用 .get() 而出错）{hint_zh}",
                        node.type_name_zh()
                    ),
                ),
            );
            if let Some(t) = typed {
                d = d.with_fix(json!([{"op": "replace", "path": ptr(s), "value": {"type": t}}]));
            }
            out.push(d);
        }
    }
    for s in MONITOR_SECTIONS {
        let Some(node) = view.get(s) else { continue };
        if !node.is_object() && node.as_str() != Some("auto") {
            err(out, "section-not-object", s, format!("`{s}` must be an object (pydantic: \"Input should be a valid dictionary\"); found {} {}", node.type_name(), Py::of(node).show()), format!("`{s}` 必须是对象，实际是{}", node.type_name_zh()));
        }
    }
    if let Some(node) = view.get("timers") {
        // DeepSpeed tests `"throughput" in timers`: strings and lists pass, others fail.
        if matches!(node.kind, Kind::Null | Kind::Bool(_) | Kind::Number(_)) {
            err(
                out,
                "section-not-object",
                "timers",
                format!("`timers` must be an object; found {}", node.type_name()),
                "`timers` 必须是对象".into(),
            );
        }
    }
    if let Some(node) = view.get("timers.throughput") {
        if !node.is_object() {
            err(
                out,
                "section-not-object",
                "timers.throughput",
                format!(
                    "`timers.throughput` must be an object; found {}",
                    node.type_name()
                ),
                "`timers.throughput` 必须是对象".into(),
            );
        }
    }
    if let Some(node) = view.get("optimizer.params") {
        let typed = view
            .get("optimizer.type")
            .and_then(|n| n.as_str())
            .is_some();
        if typed && !node.is_object() && !matches!(node.kind, Kind::Null) {
            err(
                out,
                "section-not-object",
                "optimizer.params",
                format!(
                    "`optimizer.params` must be an object; found {}",
                    node.type_name()
                ),
                "`optimizer.params` 必须是对象".into(),
            );
        }
    }
    if let Some(node) = view.get("optimizer.type") {
        if !matches!(node.kind, Kind::String(_) | Kind::Null) {
            err(out, "invalid-type", "optimizer.type", format!("`optimizer.type` must be a string; DeepSpeed calls `.lower()` on it and fails on {}", node.type_name()), format!("`optimizer.type` 必须是字符串：DeepSpeed 会对它调用 `.lower()`，遇到{}会出错", node.type_name_zh()));
        }
    }
    // `wall_clock_breakdown | flops_profiler.enabled` is evaluated while parsing.
    for key in ["wall_clock_breakdown", "flops_profiler.enabled"] {
        if let Some(node) = view.get(key) {
            if !matches!(Py::of(node), Py::Bool(_) | Py::Int(_)) {
                err(out, "invalid-type", key, format!("`{key}` must be true or false; DeepSpeed computes `wall_clock_breakdown | flops_profiler.enabled` and fails on {} {}", node.type_name(), Py::of(node).show()), format!("`{key}` 必须是 true 或 false：DeepSpeed 解析时计算 `wall_clock_breakdown | flops_profiler.enabled`，遇到{} {} 会出错", node.type_name_zh(), Py::of(node).show()));
            }
        }
    }
    if let Some(node) = view.get("sequence_parallel_size").filter(|_| {
        view.ctx.dict_input()
            && crate::registry::registry().has_check("sp-errors-propagate", view.release)
    }) {
        match Py::of(node).num() {
            Some(0.0) => err(
                out,
                "invalid-value",
                "sequence_parallel_size",
                "sequence_parallel_size must not be 0 (DeepSpeed divides the world size by it)"
                    .into(),
                "sequence_parallel_size 不能为 0".into(),
            ),
            Some(_) => {}
            None => err(
                out,
                "invalid-type",
                "sequence_parallel_size",
                format!(
                    "sequence_parallel_size must be a number; found {}",
                    node.type_name()
                ),
                "sequence_parallel_size 必须是数字".into(),
            ),
        }
    }
    legacy_sections(view, out);
    // bf16: None falls back to bfloat16; anything else must be a mapping.
    let bf = view.bf16_section();
    if let Some(node) = view.get(bf) {
        if !node.is_object() && (bf != "bf16" || !matches!(node.kind, Kind::Null)) {
            err(
                out,
                "section-not-object",
                bf,
                format!("`{bf}` must be an object; found {}", node.type_name()),
                format!("`{bf}` 必须是对象，实际是{}", node.type_name_zh()),
            );
        }
    }
    for key in [
        "communication_data_type",
        "seq_parallel_communication_data_type",
    ] {
        if let Some(node) = view.get(key) {
            let ok = match &node.kind {
                Kind::Null => true,
                Kind::String(s) => {
                    ["fp16", "bf16", "fp32"].contains(&s.to_ascii_lowercase().as_str())
                }
                _ => false,
            };
            if !ok {
                err(
                    out,
                    "invalid-value",
                    key,
                    format!(
                        "Invalid {key}. Supported data types: ['fp16', 'bf16', 'fp32']. Got: {}",
                        Py::of(node).show()
                    ),
                    format!("{key} 只能是 fp16、bf16 或 fp32"),
                );
            }
        }
    }
    allreduce_op(view, out);
    checkpoint(view, out);
    if let Some(node) = view.get("vocabulary_size") {
        if matches!(
            node.kind,
            Kind::String(_) | Kind::Array(_) | Kind::Object(_)
        ) && Py::of(node).truthy()
        {
            err(out, "invalid-type", "vocabulary_size", "vocabulary_size must be an integer (DeepSpeed computes `vocabulary_size % 8` and raises TypeError)".into(), "vocabulary_size 必须是整数".into());
        }
    }
    if let Some(node) = view.get("optimizer.params.max_grad_norm") {
        if !matches!(Py::of(node), Py::Int(_) | Py::Float(_) | Py::Bool(_)) {
            err(out, "invalid-type", "optimizer.params.max_grad_norm", "optimizer.params.max_grad_norm is compared with 0 while parsing and must be a number".into(), "optimizer.params.max_grad_norm 必须是数字".into());
        }
    }
    for key in ["autotuning.results_dir", "autotuning.exps_dir"] {
        if view.get(key).and_then(|n| n.as_str()) == Some("") {
            let name = key.rsplit('.').next().unwrap_or(key);
            err(
                out,
                "invalid-value",
                key,
                format!("{name} cannot be empty"),
                format!("{name} 不能为空"),
            );
        }
    }
    if let Some(node) = view.get("aio.use_gds") {
        if Py::of(node).truthy() && view.ctx.accelerator != "cuda" {
            err(out, "environment", "aio.use_gds", format!("GDS currently only supported for CUDA accelerator (validating for accelerator '{}')", view.ctx.accelerator), "GDS 仅支持 CUDA 加速器".into());
        }
    }
    if let Some(node) = view.get("expert_parallel.load_balance_coeff") {
        if !matches!(node.kind, Kind::Null) {
            err(
                out,
                "invalid-value",
                "expert_parallel.load_balance_coeff",
                format!(
                    "expert_parallel.load_balance_coeff is not supported and must be null; got {}",
                    Py::of(node).show()
                ),
                "expert_parallel.load_balance_coeff 不受支持，必须为 null".into(),
            );
        }
    }
    if let Some(node) = view.get("expert_parallel.validate_folding_routing") {
        if !matches!(node.kind, Kind::Bool(_)) {
            err(
                out,
                "invalid-type",
                "expert_parallel.validate_folding_routing",
                "expert_parallel.validate_folding_routing must be a bool".into(),
                "expert_parallel.validate_folding_routing 必须是布尔值".into(),
            );
        }
    }
    data_efficiency(view, out);
}

fn allreduce_op(view: &View, out: &mut Vec<Diagnostic>) {
    let Some(node) = view.get("gradient_allreduce_op") else {
        return;
    };
    let value = match &node.kind {
        Kind::String(s) => s.to_ascii_lowercase(),
        _ => String::new(),
    };
    if value != "mean" && value != "sum" {
        err(
            out,
            "invalid-value",
            "gradient_allreduce_op",
            format!(
                "Invalid gradient_allreduce_op. Supported operations: ['mean', 'sum']. Got: {}",
                Py::of(node).show()
            ),
            "gradient_allreduce_op 只能是 mean 或 sum".into(),
        );
        return;
    }
    if value == "sum" {
        let with = if view.zero_stage() == 3 {
            Some(("ZeRO stage 3", "ZeRO-3"))
        } else if view
            .get("zero_optimization.zenflow")
            .is_some_and(|n| !matches!(n.kind, Kind::Null))
            && view.get("zero_optimization").is_some_and(|n| n.is_object())
        {
            Some(("ZenFlow", "ZenFlow"))
        } else if view.strict_bool("compile.deepcompile", false) {
            Some(("DeepCompile", "DeepCompile"))
        } else {
            None
        };
        if let Some((en, zh)) = with {
            out.push(
                Diagnostic::error(
                    "invalid-value",
                    &ptr("gradient_allreduce_op"),
                    Text::new(
                        format!("gradient_allreduce_op='sum' is not supported with {en}"),
                        format!("{zh} 不支持 gradient_allreduce_op='sum'"),
                    ),
                )
                .with_fix(
                    json!([{"op": "replace", "path": "/gradient_allreduce_op", "value": "mean"}]),
                ),
            );
        }
    }
}

fn checkpoint(view: &View, out: &mut Vec<Diagnostic>) {
    let upper_enum = |key: &str, allowed: &[&str], out: &mut Vec<Diagnostic>| {
        if let Some(node) = view.get(key) {
            let ok = match &node.kind {
                Kind::String(s) => allowed.contains(&s.to_ascii_uppercase().as_str()),
                Kind::Null => key.ends_with("data_parallel"),
                _ => false,
            };
            if !ok {
                err(out, "invalid-value", key, format!("checkpoint config contains invalid {key} value of {}, expecting one of {allowed:?}", Py::of(node).show()), format!("{key} 只能是 {allowed:?} 之一"));
            }
        }
    };
    upper_enum(
        "checkpoint.tag_validation",
        &["WARN", "IGNORE", "FAIL"],
        out,
    );
    upper_enum("checkpoint.writer.type", &["MOCK", "PYTHON", "FAST"], out);
    upper_enum(
        "checkpoint.writer.data_parallel",
        &["REPLICA", "SOCKET", "MACHINE"],
        out,
    );
    if let Some(node) = view.get("checkpoint.parallel_write.pipeline_stage") {
        let ok = matches!(Py::of(node), Py::Bool(_))
            || matches!(Py::of(node), Py::Int(v) | Py::Float(v) if v == 0.0 || v == 1.0);
        if !ok {
            err(out, "invalid-value", "checkpoint.parallel_write.pipeline_stage", format!("checkpoint::parallel_write::pipeline_stage value of '{}' is invalid, expecting: true or false", Py::of(node).show()), "pipeline_stage 只能是 true 或 false".into());
        }
    }
}

fn data_efficiency(view: &View, out: &mut Vec<Diagnostic>) {
    let on = |k: &str| view.py(k).is_some_and(|p| p.truthy());
    let cl = "data_efficiency.data_sampling.curriculum_learning";
    if on(&format!("{cl}.enabled")) && view.get(&format!("{cl}.curriculum_metrics")).is_none() {
        err(
            out,
            "missing-key",
            cl,
            "Curriculum learning is enabled, curriculum_metrics must be specified".into(),
            "启用 curriculum learning 时必须指定 curriculum_metrics".into(),
        );
    }
    let db = "data_efficiency.data_sampling.dynamic_batching";
    if on(&format!("{db}.enabled")) && view.get(&format!("{db}.max_tokens")).is_none() {
        err(
            out,
            "missing-key",
            db,
            "Dynamic batching is enabled, so max_tokens must be specified".into(),
            "启用 dynamic batching 时必须指定 max_tokens".into(),
        );
    }
}

/// Sections later releases removed, as the releases that still read them fail on them
/// (`get_curriculum_params_legacy`, `get_sparse_attention`), and precision sections set to
/// null before 0.17.1 (read with `.get` on None).
fn legacy_sections(view: &View, out: &mut Vec<Diagnostic>) {
    if let Some(node) = view.get("curriculum_learning") {
        if node.is_object() && node.member("enabled").is_none() {
            err(out, "missing-key", "curriculum_learning", format!("KeyError: 'enabled': DeepSpeed {} pops `enabled` from the legacy `curriculum_learning` section; add \"enabled\": true or false", view.release), "旧版 `curriculum_learning` 段缺少 `enabled`（DeepSpeed 会报 KeyError: 'enabled'）".into());
        } else if !node.is_object() {
            err(
                out,
                "section-not-object",
                "curriculum_learning",
                format!(
                    "AttributeError: `curriculum_learning` must be an object; found {}",
                    node.type_name()
                ),
                "`curriculum_learning` 必须是对象".into(),
            );
        }
    }
    if let Some(node) = view.get("sparse_attention") {
        if !node.is_object() {
            err(out, "section-not-object", "sparse_attention", format!("AttributeError: '{}' object has no attribute 'keys': `sparse_attention` must be an object", match Py::of(node) { Py::None => "NoneType", Py::List => "list", Py::Str(_) => "str", _ => "int" }), "`sparse_attention` 必须是对象".into());
        } else if let Some(mode) = node.member("mode").map(|m| Py::of(&m.value)) {
            let known = ["dense", "fixed", "variable", "bigbird", "bslongformer"];
            if !matches!(&mode, Py::Str(s) if known.contains(&s.as_str())) {
                err(out, "invalid-value", "sparse_attention.mode", format!("NotImplementedError: Given sparsity mode, {}, has not been implemented yet! (modes: {})", match &mode { Py::Str(s) => s.clone(), other => other.show() }, known.join(", ")), format!("不支持的稀疏注意力模式（可选：{}）", known.join(", ")));
            }
        }
    }
    if view.precision_is_lax() {
        for section in ["fp16", "bf16", "bfloat16"] {
            if view
                .get(section)
                .is_some_and(|n| matches!(n.kind, Kind::Null))
            {
                err(out, "section-not-object", section, format!("AttributeError: 'NoneType' object has no attribute 'get': DeepSpeed {} reads `{section}` with .get; remove it or write an object", view.release), format!("DeepSpeed {} 会对 `{section}` 调用 .get，值为 null 时报 AttributeError：请删除或改为对象", view.release));
            }
        }
    }
}
