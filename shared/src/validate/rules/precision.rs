//! Precision (rules 2.1-2.12): fp16/bf16 sections, loss scaling, master weights, data types.

use super::super::view::Py;
use super::super::{coerce, Diagnostic, View};
use super::ptr;
use crate::document::Kind;
use crate::i18n::Text;
use crate::registry::registry;

fn err(out: &mut Vec<Diagnostic>, code: &str, dotted: &str, en: String, zh: String) {
    out.push(Diagnostic::error(code, &ptr(dotted), Text::new(en, zh)));
}

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    fp16(view, out);
    let stage = view.zero_stage();
    if view.fp16_enabled() && view.bf16_enabled() {
        err(
            out,
            "fp16-and-bf16",
            "bf16",
            "bfloat16 and fp16 modes cannot be simultaneously enabled".into(),
            "fp16 与 bf16 不能同时启用".into(),
        );
    }
    fp16_master_weights(view, stage, out);
    moq_needs_fp16(view, out);
    let bf = view.bf16_section();
    if view.get(bf).is_some_and(|n| n.is_object()) {
        let master = view.strict_bool(&format!("{bf}.bf16_master_weights_and_grads"), false);
        if master && stage == 0 {
            err(
                out,
                "master-weights-stage",
                &format!("{bf}.bf16_master_weights_and_grads"),
                "Bf16_master_weights_and_grads is only supported with ZeRO Stage 1, 2, or 3."
                    .into(),
                "bf16_master_weights_and_grads 仅支持 ZeRO 1/2/3 阶段".into(),
            );
        }
        if view.strict_bool(&format!("{bf}.bf16_optimizer_states"), false) {
            if stage == 0 {
                err(
                    out,
                    "master-weights-stage",
                    &format!("{bf}.bf16_optimizer_states"),
                    "bf16_optimizer_states is only supported with ZeRO Stage 1, 2, or 3.".into(),
                    "bf16_optimizer_states 仅支持 ZeRO 1/2/3 阶段".into(),
                );
            } else if !master {
                err(
                    out,
                    "master-weights-stage",
                    &format!("{bf}.bf16_optimizer_states"),
                    "bf16_optimizer_states requires bf16_master_weights_and_grads to be enabled."
                        .into(),
                    "bf16_optimizer_states 需要同时启用 bf16_master_weights_and_grads".into(),
                );
            }
        }
    }
    data_types(view, stage, out);
    autocast(view, out);
    apex_amp(view, stage, out);
}

/// Apex AMP (releases before 0.19.8): the engine's optimizer sanity check refuses it with ZeRO
/// and with DeepSpeed's own fp16/bf16 modes (`_do_optimizer_sanity_check`).
/// MoQ: weight quantization in the optimizer step (compression_training, until 0.19.7) needs
/// fp16; the engine asserts it when it starts (`quantize_weight_in_forward` quantizes in the
/// forward pass instead and does not).
fn moq_needs_fp16(view: &View, out: &mut Vec<Diagnostic>) {
    const SHARED: &str = "compression_training.weight_quantization.shared_parameters";
    let on = |key: &str| {
        view.py(&format!("{SHARED}.{key}"))
            .is_some_and(|p| p.truthy())
    };
    if on("enabled") && !on("quantize_weight_in_forward") && !view.fp16_enabled() {
        err(
            out,
            "moq-needs-fp16",
            &format!("{SHARED}.enabled"),
            "MoQ (quantize in optimization step) weight quantization is only supported for FP16 (engine start): enable fp16, or set quantize_weight_in_forward".into(),
            "MoQ（在优化步中量化）权重量化仅支持 FP16（引擎启动时检查）：请启用 fp16，或设置 quantize_weight_in_forward".into(),
        );
    }
}

fn apex_amp(view: &View, stage: u8, out: &mut Vec<Diagnostic>) {
    let enabled = view.get("amp").is_some_and(|n| n.is_object())
        && view.py("amp.enabled").is_some_and(|p| p.truthy());
    if !enabled {
        return;
    }
    if stage > 0 {
        err(
            out,
            "zero-incompatible",
            "amp",
            "Amp and ZeRO are not currently compatible, please use (legacy) fp16 mode which performs similar to amp opt_mode=O2 (engine start)".into(),
            "Apex AMP 与 ZeRO 不兼容（引擎启动时断言失败）：请改用 DeepSpeed 的 fp16 模式，其效果接近 amp opt_level=O2".into(),
        );
    } else if view.fp16_enabled() || view.bf16_enabled() {
        err(
            out,
            "fp16-and-bf16",
            "amp",
            "Cannot enable both amp with (legacy) fp16 or bfloat16 mode (engine start: NotImplementedError); keep one of them".into(),
            "Apex AMP 不能与 DeepSpeed 的 fp16/bf16 模式同时启用（引擎启动时报 NotImplementedError），请只保留其一".into(),
        );
    }
}

/// Whether DeepSpeed reads `fp16_master_weights_and_grads` as on (before 0.17.1 only when fp16
/// is enabled).
pub(super) fn fp16_master_weights_on(view: &View) -> bool {
    if !view.get("fp16").is_some_and(|n| n.is_object()) {
        return false;
    }
    if view.precision_is_lax() {
        view.fp16_enabled()
            && view
                .py("fp16.fp16_master_weights_and_grads")
                .is_some_and(|p| p.truthy())
    } else {
        view.strict_bool("fp16.fp16_master_weights_and_grads", false)
    }
}

/// `fp16_master_weights_and_grads` needs ZeRO: stage 2 until 0.18.2, stage 1, 2 or 3 from
/// 0.18.3. Before 0.17.1 it is read only when fp16 is enabled.
fn fp16_master_weights(view: &View, stage: u8, out: &mut Vec<Diagnostic>) {
    if !fp16_master_weights_on(view) {
        return;
    }
    if registry().has_check("fp16-master-stage-2-only", view.release) {
        if stage != 2 {
            err(
                out,
                "master-weights-stage",
                "fp16.fp16_master_weights_and_grads",
                format!("Fp16_master_weights_and_grads is only supported with ZeRO Stage 2 for now. (DeepSpeed {}; 0.18.3 and later also allow stages 1 and 3)", view.release),
                format!("DeepSpeed {} 中 fp16_master_weights_and_grads 仅支持 ZeRO stage 2（0.18.3 起也支持 1 和 3）", view.release),
            );
        }
    } else if stage == 0 {
        err(
            out,
            "master-weights-stage",
            "fp16.fp16_master_weights_and_grads",
            "Fp16_master_weights_and_grads is only supported with ZeRO Stage 1, 2, or 3.".into(),
            "fp16_master_weights_and_grads 仅支持 ZeRO 1/2/3 阶段".into(),
        );
    }
}

fn fp16(view: &View, out: &mut Vec<Diagnostic>) {
    let Some(node) = view.get("fp16") else { return };
    if !node.is_object() {
        return; // reported by sections
    }
    if view.precision_is_lax() {
        // Before 0.17.1 no validator checks the section (see `fp16_lax`).
        return;
    }
    let reg = registry();
    let release = view.release;
    // loss_scale: custom validator (bool rejected, float(), finite, >= 0) from 0.18.8; a plain
    // pydantic float before.
    let mut loss_scale = 0.0;
    if let Some(p) = view.strict("fp16.loss_scale") {
        let r = if !reg.has_check("fp16-loss-scale-validator", release) {
            match coerce::to_float(&p) {
                Ok(v) => {
                    loss_scale = v;
                    Ok(())
                }
                Err(_) => Err("fp16.loss_scale must be a number"),
            }
        } else {
            match &p {
                Py::Bool(_) => Err("fp16.loss_scale must be a number, not bool"),
                _ => match coerce::to_float(&p) {
                    Err(_) => Err("fp16.loss_scale must be a number"),
                    Ok(v) if !v.is_finite() => {
                        Err("fp16.loss_scale must be a finite number (not inf/-inf/nan)")
                    }
                    Ok(v) if v < 0.0 => {
                        Err("fp16.loss_scale must be >= 0 (0 enables dynamic loss scaling)")
                    }
                    Ok(v) => {
                        loss_scale = v;
                        Ok(())
                    }
                },
            }
        };
        if let Err(m) = r {
            err(
                out,
                "invalid-value",
                "fp16.loss_scale",
                m.into(),
                format!("fp16.loss_scale 取值非法：{m}"),
            );
            loss_scale = f64::NAN;
        }
    }
    let mut ints = [(1000.0, true), (1.0, true)];
    for (i, field) in ["loss_scale_window", "min_loss_scale"].iter().enumerate() {
        let dotted = format!("fp16.{field}");
        let Some(p) = view.strict(&dotted) else {
            continue;
        };
        let r: Result<f64, String> = match &p {
            // Before 0.19.3 a plain pydantic int (bools and integral floats pass).
            _ if !reg.has_check("fp16-scale-params-integers", release) => {
                coerce::to_int(&p).map_err(|e| format!("fp16.{field}: {e}"))
            }
            Py::Bool(_) => Err(format!("fp16.{field} must be an integer, not bool")),
            Py::Float(v) if !v.is_finite() => Err(format!(
                "fp16.{field} must be a finite number (not inf/-inf/nan)"
            )),
            Py::Str(s)
                if s.trim()
                    .replace('_', "")
                    .trim_start_matches(['+', '-'])
                    .chars()
                    .any(|c| !c.is_ascii_digit())
                    || s.trim().is_empty() =>
            {
                Err(format!("fp16.{field} must be an integer"))
            }
            Py::None | Py::List | Py::Dict => Err(format!("fp16.{field} must be an integer")),
            _ => coerce::to_int(&p).map_err(|e| format!("fp16.{field}: {e}")),
        };
        match r {
            Ok(v) => ints[i] = (v, true),
            Err(m) => {
                ints[i].1 = false;
                err(
                    out,
                    "invalid-value",
                    &dotted,
                    m.clone(),
                    format!("{dotted} 取值非法：{m}"),
                );
            }
        }
    }
    // Model validator: only when enabled with dynamic scaling and all fields were valid.
    let enabled_ok = match view.strict("fp16.enabled") {
        Some(p) => coerce::to_bool(&p).ok(),
        None => Some(false),
    };
    if enabled_ok == Some(true)
        && loss_scale == 0.0
        && ints.iter().all(|(_, ok)| *ok)
        && reg.has_check("fp16-dynamic-scale-positive", release)
    {
        if ints[0].0 <= 0.0 {
            err(out, "loss-scale", "fp16.loss_scale_window", "fp16.loss_scale_window must be > 0 when dynamic loss scaling is enabled (loss_scale=0)".into(), "动态 loss scaling（loss_scale=0）时 fp16.loss_scale_window 必须大于 0".into());
        } else if ints[1].0 <= 0.0 {
            err(out, "loss-scale", "fp16.min_loss_scale", "fp16.min_loss_scale must be > 0 when dynamic loss scaling is enabled (loss_scale=0)".into(), "动态 loss scaling（loss_scale=0）时 fp16.min_loss_scale 必须大于 0".into());
        }
    }
}

/// The DtypeEnum value a spelling names (`float32` → `fp32`).
pub(super) fn dtype_name(s: &str) -> Option<&'static str> {
    match s {
        "torch.float16" | "fp16" | "float16" | "half" => Some("fp16"),
        "torch.float32" | "fp32" | "float32" | "float" => Some("fp32"),
        "torch.bfloat16" | "bf16" | "bfloat16" => Some("bf16"),
        "torch.int8" | "int8" => Some("int8"),
        _ => None,
    }
}

fn data_types(view: &View, stage: u8, out: &mut Vec<Diagnostic>) {
    if let Some(node) = view.get("data_types.keep_in_fp32_modules") {
        let ok = match &node.kind {
            Kind::String(s) => s == "auto",
            Kind::Array(items) => items.iter().all(|i| i.as_str().is_some()),
            _ => false,
        };
        if !ok {
            err(out, "invalid-value", "data_types.keep_in_fp32_modules", format!("data_types.keep_in_fp32_modules must be \"auto\" or a list of name patterns, got {}", Py::of(node).show()), "data_types.keep_in_fp32_modules 必须是 \"auto\" 或名称模式列表".into());
        }
    }
    let model = if view.fp16_enabled() {
        "fp16"
    } else if view.bf16_enabled() {
        "bf16"
    } else {
        "fp32"
    };
    if let Some(p) = view.get("data_types.param_dtype").and_then(|n| n.as_str()) {
        if let Some(d) = dtype_name(p) {
            if d != model {
                err(out, "dtype-conflict", "data_types.param_dtype", format!("data_types.param_dtype='{p}' conflicts with the precision the fp16/bf16 flags select ({model})"), format!("data_types.param_dtype='{p}' 与 fp16/bf16 开关决定的精度（{model}）冲突"));
            }
        }
    }
    if stage == 0 {
        if let Some(g) = view
            .get("data_types.grad_accum_dtype")
            .and_then(|n| n.as_str())
            .and_then(dtype_name)
        {
            if g != model {
                err(out, "dtype-conflict", "data_types.grad_accum_dtype", format!("unsupported mix of model_dtype={model} and grad_accum_dtype={g} without ZeRO (DeepSpeed raises NotImplementedError at engine start)"), format!("不使用 ZeRO 时不支持 model_dtype={model} 与 grad_accum_dtype={g} 的组合（引擎启动时报 NotImplementedError）"));
            }
        }
    }
}

fn autocast(view: &View, out: &mut Vec<Diagnostic>) {
    if let Some(node) = view.get("torch_autocast.dtype") {
        match &node.kind {
            Kind::Null => {}
            Kind::String(s) if dtype_name(s).is_some() => {}
            _ => err(
                out,
                "invalid-value",
                "torch_autocast.dtype",
                format!("Invalid dtype for torch autocast: {}", Py::of(node).show()),
                "torch_autocast.dtype 取值非法".into(),
            ),
        }
    }
    if let Some(node) = view.get("torch_autocast.lower_precision_safe_modules") {
        let ok = match &node.kind {
            Kind::Null | Kind::String(_) => true,
            Kind::Array(items) => items.iter().all(|i| i.as_str().is_some()),
            _ => false,
        };
        if !ok {
            err(
                out,
                "invalid-value",
                "torch_autocast.lower_precision_safe_modules",
                "Invalid module names for torch autocast: expected a list of strings.".into(),
                "torch_autocast.lower_precision_safe_modules 必须是字符串列表".into(),
            );
        }
    }
}
