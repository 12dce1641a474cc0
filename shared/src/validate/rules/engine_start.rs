//! Checks DeepSpeed makes when the engine starts (`deepspeed.initialize`, the ZeRO optimizer's
//! constructor) on configs its parser accepted: the optimizer master weights need, gradient
//! clipping without a gradient norm, `autotp_size` read from the raw dict, and the checkpoint
//! writer's data-parallel unit and launcher variables.

use super::super::view::Py;
use super::super::{coerce, Diagnostic, View};
use super::ptr;
use crate::document::Kind;
use crate::i18n::Text;
use crate::registry::registry;
use serde_json::json;

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    let stage = view.zero_stage();
    master_weights_optimizer(view, stage, out);
    compute_grad_norm_off(view, stage, out);
    autotp_size_raw(view, out);
    checkpoint_writer_env(view, out);
}

/// Master weights in fp16 or bf16 (`*_master_weights_and_grads`) keep the optimizer state in
/// fp32 on the CPU: the ZeRO optimizer asserts `offload_optimizer` and a `DeepSpeedCPUAdam` (which
/// DeepSpeed builds for `Adam`/`AdamW` with the optimizer offloaded, unless `torch_adam`).
/// The stages the parser lets through are checked by `precision`.
fn master_weights_optimizer(view: &View, stage: u8, out: &mut Vec<Diagnostic>) {
    if stage == 0 {
        return;
    }
    // Stages other than 2 take master weights only from 0.18.3 (before, the parser refuses).
    let fp16 = super::precision::fp16_master_weights_on(view)
        && (stage == 2 || !registry().has_check("fp16-master-stage-2-only", view.release));
    let bf = view.bf16_section();
    let bf16_key = format!("{bf}.bf16_master_weights_and_grads");
    // bf16 master weights (0.18.3+) keep the optimizer states on the GPU only with
    // bf16_optimizer_states, and from 0.19.1 not even then when the optimizer is offloaded.
    let bf16 = view.strict_bool(&bf16_key, false)
        && (!view.strict_bool(&format!("{bf}.bf16_optimizer_states"), false)
            || (super::zero::offload_optimizer_device(view) != "none"
                && registry().has_check("bf16-states-offload-validated", view.release)));
    if fp16 {
        needs_cpu_adam(view, stage, "fp16.fp16_master_weights_and_grads", out);
    } else if bf16 {
        needs_cpu_adam(view, stage, &bf16_key, out);
    }
}

fn needs_cpu_adam(view: &View, stage: u8, key: &str, out: &mut Vec<Diagnostic>) {
    let zero = if stage == 3 { "ZeRO-3" } else { "ZeRO" };
    let device = super::zero::offload_optimizer_device(view);
    let optimizer =
        view.get("optimizer")
            .filter(|n| n.is_object())
            .map(|_| match view.py("optimizer.type") {
                Some(Py::Str(t)) => t,
                _ => String::new(),
            });
    let torch_adam = view
        .py("optimizer.params.torch_adam")
        .is_some_and(|p| p.truthy());
    let problem = if device == "none" {
        Some(("the optimizer state is not offloaded: set zero_optimization.offload_optimizer.device to \"cpu\"".to_string(),
              "优化器状态没有 offload：请把 zero_optimization.offload_optimizer.device 设为 \"cpu\"".to_string()))
    } else {
        match &optimizer {
            Some(t) if !super::zero::builds_cpu_adam(view, t) => Some((
                format!("DeepSpeed builds DeepSpeedCPUAdam only for Adam/AdamW without torch_adam; the optimizer here is {}", if torch_adam { format!("{t} with torch_adam") } else { format!("\"{t}\"") }),
                format!("DeepSpeed 只为不带 torch_adam 的 Adam/AdamW 构建 DeepSpeedCPUAdam；这里的优化器是 {t}"),
            )),
            _ => None,
        }
    };
    if let Some((en, zh)) = problem {
        let mut d = Diagnostic::error(
            "master-weights-optimizer",
            &ptr(key),
            Text::new(
                format!("Master weights feature requires {zero} Offload with DeepSpeedCPUAdam (engine start): {en}"),
                format!("{key} 需要 {zero} Offload 配合 DeepSpeedCPUAdam（引擎启动时断言）：{zh}"),
            ),
        );
        if device == "none" {
            d = d.with_fix(super::zero::offload_to_cpu_fix(view));
        }
        out.push(d);
    } else if optimizer.is_none() {
        // The Hugging Face launchers then build torch's AdamW; a script of its own may pass a
        // DeepSpeedCPUAdam.
        let severity = if view.ctx.launcher.fills_auto() {
            Diagnostic::error
        } else {
            Diagnostic::warning
        };
        out.push(severity(
            "master-weights-optimizer",
            &ptr(key),
            Text::new(
                format!("Master weights feature requires {zero} Offload with DeepSpeedCPUAdam: with no \"optimizer\" section the training script's own optimizer is used, and DeepSpeed refuses it at engine start unless it is a DeepSpeedCPUAdam (the Hugging Face Trainer's default AdamW is not); add \"optimizer\": {{\"type\": \"AdamW\"}}"),
                format!("{key} 需要 {zero} Offload 配合 DeepSpeedCPUAdam：没有 \"optimizer\" 段时使用训练脚本自己的优化器，除非它是 DeepSpeedCPUAdam（HF Trainer 默认的 AdamW 不是），否则 DeepSpeed 启动引擎时会拒绝；请添加 \"optimizer\": {{\"type\": \"AdamW\"}}"),
            ),
        ));
    }
}

/// `compute_grad_norm: false` (0.19.7+, ZeRO-1/2): what the ZeRO optimizer (and for ZeRO-1
/// with bf16, the engine) refuses it with.
fn compute_grad_norm_off(view: &View, stage: u8, out: &mut Vec<Diagnostic>) {
    if !(stage == 1 || stage == 2)
        || view.strict_bool("zero_optimization.compute_grad_norm", true)
        || view.get("zero_optimization.compute_grad_norm").is_none()
    {
        return;
    }
    compute_grad_norm_unsupported(view, stage, out);
    compute_grad_norm_clipping(view, out);
}

/// It skips the gradient norm that clipping needs: refused with any `gradient_clipping`
/// above 0, and the default is 1.0 from 0.19.3.
fn compute_grad_norm_clipping(view: &View, out: &mut Vec<Diagnostic>) {
    let given = view.py("gradient_clipping");
    let clip = match &given {
        Some(Py::Str(s)) if s == "auto" && view.ctx.launcher.fills_auto() => Some(
            view.ctx
                .trainer
                .clone()
                .unwrap_or_default()
                .resolved()
                .max_grad_norm,
        ),
        Some(p) => coerce::to_float(p).ok(),
        None => registry()
            .get("gradient_clipping")
            .and_then(|s| s.default_at(view.release))
            .and_then(|v| v.as_f64()),
    };
    let Some(clip) = clip.filter(|c| *c > 0.0) else {
        return;
    };
    let whence = match &given {
        None => format!(
            "the default gradient_clipping of DeepSpeed {} is {clip}",
            view.release
        ),
        Some(Py::Str(_)) => format!("\"auto\" becomes max_grad_norm, {clip}"),
        Some(_) => format!("gradient_clipping is {clip}"),
    };
    let zh_whence = match &given {
        None => format!(
            "DeepSpeed {} 的 gradient_clipping 默认值为 {clip}",
            view.release
        ),
        Some(Py::Str(_)) => format!("\"auto\" 会被替换为 max_grad_norm，即 {clip}"),
        Some(_) => format!("gradient_clipping 为 {clip}"),
    };
    out.push(
        Diagnostic::error(
            "compute-grad-norm-clipping",
            &ptr("zero_optimization.compute_grad_norm"),
            Text::new(
                format!("zero_optimization.compute_grad_norm=false requires gradient_clipping=0 (engine start): {whence}; set \"gradient_clipping\": 0, or drop compute_grad_norm"),
                format!("zero_optimization.compute_grad_norm=false 要求 gradient_clipping=0（引擎启动时检查）：{zh_whence}；请设置 \"gradient_clipping\": 0，或删除 compute_grad_norm"),
            ),
        )
        .with_fix(json!([{"op": "add", "path": "/gradient_clipping", "value": 0}])),
    );
}

/// What `compute_grad_norm: false` does not support (the ZeRO-1/2 optimizer's constructor,
/// and the engine for ZeRO-1 with bf16 parameters and fp32 gradient accumulation, which it runs
/// on its BF16 optimizer).
fn compute_grad_norm_unsupported(view: &View, stage: u8, out: &mut Vec<Diagnostic>) {
    let device = super::zero::offload_optimizer_device(view);
    let fp32_accumulation = matches!(
        view.py("data_types.grad_accum_dtype"),
        Some(Py::Str(s)) if super::precision::dtype_name(&s.to_ascii_lowercase()) == Some("fp32")
    );
    let mut unsupported = Vec::new();
    if super::zenflow::on(view) {
        unsupported.push(("ZenFlow", "ZenFlow", "remove zenflow", "删除 zenflow"));
    }
    if device != "none" {
        unsupported.push((
            "optimizer offload",
            "优化器 offload",
            "keep the optimizer on the GPU",
            "不要 offload 优化器",
        ));
    }
    if stage == 1
        && view.bf16_enabled()
        && !view.fp16_enabled()
        && fp32_accumulation
        && device != "cpu"
    {
        unsupported.push((
            "ZeRO Stage 1 with BF16 parameters and FP32 gradient accumulation",
            "BF16 参数 + FP32 梯度累积的 ZeRO-1",
            "use ZeRO stage 2",
            "改用 ZeRO-2",
        ));
    }
    for (en, zh, en_hint, zh_hint) in unsupported {
        out.push(
            Diagnostic::error(
                "compute-grad-norm-unsupported",
                &ptr("zero_optimization.compute_grad_norm"),
                Text::new(
                    format!("zero_optimization.compute_grad_norm=false does not support {en} (engine start); drop compute_grad_norm, or {en_hint}"),
                    format!("zero_optimization.compute_grad_norm=false 不支持{zh}（引擎启动时检查）；请删除 compute_grad_norm，或{zh_hint}"),
                ),
            )
            .with_fix(json!([{"op": "remove", "path": "/zero_optimization/compute_grad_norm"}])),
        );
    }
}

/// From 0.18.6 `deepspeed.initialize` reads `tensor_parallel.autotp_size` from the raw dict
/// and compares it with 0 before the parser runs: a string there (`"auto"`, which the parser
/// itself would drop, or a number in quotes, which it would convert) fails with a TypeError.
/// The Hugging Face launchers fail on it earlier, in their own code (`launcher::hf`).
fn autotp_size_raw(view: &View, out: &mut Vec<Diagnostic>) {
    if view.ctx.launcher.fills_auto()
        || !registry().has_check("autotp-size-raw-compare", view.release)
    {
        return;
    }
    let path = "tensor_parallel.autotp_size";
    let Some(node) = view
        .get("tensor_parallel")
        .filter(|n| n.is_object())
        .and_then(|_| view.get(path))
    else {
        return;
    };
    let Kind::String(s) = &node.kind else { return };
    let number = s.trim().parse::<i64>().ok();
    if s.is_empty() || (s != "auto" && number.is_none()) {
        return; // an empty string is falsy; anything else not a number the walk reports
    }
    let fix = match number {
        Some(n) => json!([{"op": "replace", "path": ptr(path), "value": n}]),
        None => json!([{"op": "remove", "path": ptr(path)}]),
    };
    out.push(
        Diagnostic::error(
            "autotp-size-string",
            &ptr(path),
            Text::new(
                format!("DeepSpeed {} compares tensor_parallel.autotp_size with 0 before it parses the config, and the string \"{s}\" fails there: TypeError: '>' not supported between instances of 'str' and 'int'; write a number (0 or no key: AutoTP off)", view.release),
                format!("DeepSpeed {} 在解析配置之前就把 tensor_parallel.autotp_size 与 0 比较，字符串 \"{s}\" 会导致 TypeError；请写数字（0 或不写：不启用 AutoTP）", view.release),
            ),
        )
        .with_fix(fix),
    );
}

/// The checkpoint writer (0.17.1+) reads `CROSS_SIZE` and `CROSS_RANK` from the environment
/// when the engine starts: the `deepspeed` launcher (and ds-studio's runner) set them, torchrun,
/// `accelerate launch` and a plain `python` do not, and DeepSpeed then fails with a KeyError.
fn checkpoint_writer_env(view: &View, out: &mut Vec<Diagnostic>) {
    let path = "checkpoint.writer";
    if !view.get("checkpoint").is_some_and(|n| n.is_object())
        || view.get(path).is_none_or(|n| matches!(n.kind, Kind::Null))
    {
        return;
    }
    // Without `data_parallel` (and without ZeRO-3, whose writer is every rank's own) the
    // writer factory reads `UniversalParallelInfo.dp_rank`, which it does not have, unless the
    // script passes a model-parallel unit (Megatron-DeepSpeed's mpu): checked by starting
    // the engine in 0.17.5 and 0.19.8.
    let unit = format!("{path}.data_parallel");
    if view.zero_stage() < 3
        && view.get(path).is_some_and(|n| n.is_object())
        && view.py(&unit).is_none_or(|p| matches!(p, Py::None))
    {
        out.push(
            Diagnostic::error(
                "checkpoint-writer-unit",
                &ptr(path),
                Text::new(
                    format!("checkpoint.writer without data_parallel fails when the engine starts below ZeRO-3: DeepSpeed {} fails with AttributeError: 'UniversalParallelInfo' object has no attribute 'dp_rank' (unless the training script passes an mpu, as Megatron-DeepSpeed does); set checkpoint.writer.data_parallel to \"replica\", \"socket\" or \"machine\"", view.release),
                    format!("未设置 data_parallel 的 checkpoint.writer 在 ZeRO-3 以下启动引擎时会失败：DeepSpeed {} 报 AttributeError: 'UniversalParallelInfo' object has no attribute 'dp_rank'（除非训练脚本传入 mpu，如 Megatron-DeepSpeed）；请把 checkpoint.writer.data_parallel 设为 \"replica\"、\"socket\" 或 \"machine\"", view.release),
                ),
            )
            .with_fix(json!([{"op": "add", "path": ptr(&unit), "value": "replica"}])),
        );
    }
    // The Hugging Face launchers usually run under torchrun or `accelerate launch`: a warning
    // there, a note under the deepspeed launcher.
    let severity = if view.ctx.launcher.fills_auto() {
        Diagnostic::warning
    } else {
        Diagnostic::info
    };
    out.push(severity(
        "launcher-env",
        &ptr(path),
        Text::new(
            "checkpoint.writer reads the CROSS_SIZE and CROSS_RANK environment variables when the engine starts: the deepspeed launcher and ds-studio's runner set them; under torchrun, accelerate launch or plain python set them yourself (number of nodes, this node's index) or DeepSpeed fails with KeyError: 'CROSS_SIZE'",
            "checkpoint.writer 会在启动引擎时读取环境变量 CROSS_SIZE 和 CROSS_RANK：deepspeed 启动器和 ds-studio 的 runner 会设置它们；用 torchrun、accelerate launch 或直接用 python 启动时请自行设置（节点数、本节点序号），否则 DeepSpeed 报 KeyError: 'CROSS_SIZE'",
        ),
    ));
}
