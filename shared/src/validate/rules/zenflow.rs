//! ZenFlow (`zero_optimization.zenflow`, 0.17.5+): the checks DeepSpeed makes when the engine
//! starts (`runtime/zenflow/engine.py` `configure_zenflow`, and for ZeRO-1/2
//! `ZenFlowZeroOptimizer._configure_zenflow`). The parser accepts all of these; the engine
//! refuses them before the first step.

use super::super::view::Py;
use super::super::{Diagnostic, View};
use super::ptr;
use crate::i18n::Text;
use serde_json::json;

const ZF: &str = "zero_optimization.zenflow";

/// Whether the config turns ZenFlow on (a `zenflow` object in a `zero_optimization` object).
pub(super) fn on(view: &View) -> bool {
    view.get(ZF).is_some_and(|n| n.is_object())
}

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    if !on(view) {
        return;
    }
    let strategy = match view.strict(&format!("{ZF}.select_strategy")) {
        Some(Py::Str(s)) => s,
        _ => "auto".to_string(),
    };
    let interval = view.py(&format!("{ZF}.select_interval"));
    let update = view.py(&format!("{ZF}.update_interval"));
    let at = |key: &str| ptr(&format!("{ZF}.{key}"));
    let engine = |en: &str| format!("{en} (DeepSpeed raises this when the engine starts)");
    match (&strategy[..], &interval) {
        ("auto", Some(Py::Int(_))) => out.push(
            Diagnostic::error(
                "zenflow-select",
                &at("select_interval"),
                Text::new(
                    engine("Warning: If use auto select strategy, select_interval will be set to 1 and select_strategy will be set to epoch, thus select_interval would be overwritten. Remove select_interval, or set select_strategy to \"step\" or \"epoch\""),
                    "select_strategy 为 \"auto\"（默认）时不能设置数字 select_interval：DeepSpeed 启动引擎时会抛出 Warning 异常（auto 会把 select_interval 改为 1、select_strategy 改为 epoch）。请删除 select_interval，或把 select_strategy 设为 \"step\" 或 \"epoch\"",
                ),
            )
            .with_fix(json!([{"op": "remove", "path": at("select_interval")}])),
        ),
        ("step" | "epoch", None | Some(Py::Str(_))) => out.push(Diagnostic::error(
            "zenflow-select",
            &at(if interval.is_some() { "select_interval" } else { "select_strategy" }),
            Text::new(
                engine(&format!("If don't use auto select strategy, select_interval must be a number (select_strategy is \"{strategy}\"; select_interval is {})", interval.as_ref().map_or("not set (\"auto\")".into(), Py::show))),
                format!("select_strategy 为 \"{strategy}\" 时 select_interval 必须是数字（当前为 {}）：DeepSpeed 启动引擎时会报 ValueError", interval.as_ref().map_or("未设置（\"auto\"）".into(), Py::show)),
            ),
        )),
        // With "epoch" the interval is counted in epochs (0 without a dataloader): only "step"
        // compares the two intervals as written.
        ("step", Some(Py::Int(select))) => {
            if let Some(Py::Int(update)) = update {
                if *select != 0.0 && *select < update {
                    out.push(Diagnostic::error(
                        "zenflow-select",
                        &at("select_interval"),
                        Text::new(
                            engine(&format!("Select interval must be greater or equal to update interval (select_interval {select} < update_interval {update})")),
                            format!("select_interval（{select}）必须大于或等于 update_interval（{update}）：DeepSpeed 启动引擎时会报 ValueError"),
                        ),
                    ));
                }
            }
        }
        _ => {}
    }
    let stage = view.zero_stage();
    if (stage == 1 || stage == 2) && super::zero::offload_optimizer_device(view) == "none" {
        out.push(
            Diagnostic::error(
                "zenflow-needs-offload",
                &ptr(ZF),
                Text::new(
                    engine(&format!("Zenflow must be used with cpu offload: ZeRO stage {stage} with zenflow needs zero_optimization.offload_optimizer.device \"cpu\"")),
                    format!("ZenFlow 必须与 CPU offload 一起使用：ZeRO stage {stage} 下启用 zenflow 需要设置 zero_optimization.offload_optimizer.device 为 \"cpu\"（否则 DeepSpeed 启动引擎时报 ValueError）"),
                ),
            )
            .with_fix(super::zero::offload_to_cpu_fix(view)),
        );
    }
}
