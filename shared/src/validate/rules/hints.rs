//! Tuning hints (info), from the tuning guide (seed 003) and DeepSpeed's docs. Each names its
//! reason.

use super::super::view::Py;
use super::super::{coerce, Diagnostic, View};
use super::ptr;
use crate::i18n::Text;
use serde_json::json;

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    let stage = view.zero_stage();
    if stage >= 1 && view.get("zero_optimization").is_some_and(|n| n.is_object()) {
        if view
            .strict("zero_optimization.overlap_comm")
            .is_some_and(|p| coerce::to_bool(&p) == Ok(false))
        {
            out.push(Diagnostic::info("overlap-comm-off", &ptr("zero_optimization.overlap_comm"), Text::new(
                "overlap_comm is off: gradient reduction waits for the backward pass instead of overlapping with it; turning it on usually raises throughput at the cost of some memory",
                "overlap_comm 已关闭：梯度通信无法与反向计算重叠；开启通常能提升吞吐，代价是多占一些显存",
            )).with_fix(json!([{"op": "replace", "path": "/zero_optimization/overlap_comm", "value": true}])));
        }
        if view
            .strict("zero_optimization.contiguous_gradients")
            .is_some_and(|p| coerce::to_bool(&p) == Ok(false))
        {
            out.push(Diagnostic::info("contiguous-gradients-off", &ptr("zero_optimization.contiguous_gradients"), Text::new(
                "contiguous_gradients is off: gradients are not copied into one buffer, which fragments memory during the backward pass",
                "contiguous_gradients 已关闭：梯度不会放入连续缓冲区，反向传播时容易产生显存碎片",
            )).with_fix(json!([{"op": "replace", "path": "/zero_optimization/contiguous_gradients", "value": true}])));
        }
        if let Some(gib) = view.ctx.gpu_memory_gib {
            for key in ["reduce_bucket_size", "allgather_bucket_size"] {
                let dotted = format!("zero_optimization.{key}");
                if let Some(n) = view.strict(&dotted).and_then(|p| coerce::to_int(&p).ok()) {
                    // A bucket holds elements; fp32 staging of one bucket costs 4 bytes each.
                    let bytes = n * 4.0;
                    if bytes > gib * 1024f64.powi(3) * 0.1 {
                        out.push(Diagnostic::info("bucket-too-large", &ptr(&dotted), Text::new(
                            format!("{key} = {n:e} elements needs about {:.1} GiB per bucket, more than 10% of the {gib} GiB GPU: lower it (e.g. 2e8) if you run out of memory", bytes / 1024f64.powi(3)),
                            format!("{key} = {n:e} 个元素，每个桶约需 {:.1} GiB，超过 {gib} GiB 显存的 10%：若显存不足请调小（如 2e8）", bytes / 1024f64.powi(3)),
                        )));
                    }
                }
            }
        }
    }
    if let Some(spp) = view.py("steps_per_print").and_then(|p| p.num()) {
        if spp > 1000.0 {
            out.push(Diagnostic::info("sparse-progress", &ptr("steps_per_print"), Text::new(
                format!("steps_per_print = {spp}: progress is printed so rarely that a stalled run looks the same as a healthy one; 10-100 is typical"),
                format!("steps_per_print = {spp}：打印间隔过大，训练卡住与正常运行看起来一样；一般取 10-100"),
            )).with_fix(json!([{"op": "replace", "path": "/steps_per_print", "value": 100}])));
        } else if !matches!(view.py("log_level"), Some(Py::Str(ref s)) if s.eq_ignore_ascii_case("info") || s.eq_ignore_ascii_case("debug"))
        {
            out.push(Diagnostic::info("progress-hidden", &ptr("steps_per_print"), Text::new(
                "steps_per_print is set, but DeepSpeed logs at WARNING by default, so the progress lines never appear; add \"log_level\": \"info\"",
                "设置了 steps_per_print，但 DeepSpeed 默认日志级别为 WARNING，进度行不会出现；请加上 \"log_level\": \"info\"",
            )).with_fix(json!([{"op": "add", "path": "/log_level", "value": "info"}])));
        }
    }
    if view.py("wall_clock_breakdown").is_some_and(|p| p.truthy()) {
        out.push(Diagnostic::info("wall-clock-breakdown", &ptr("wall_clock_breakdown"), Text::new(
            "wall_clock_breakdown synchronizes the device on every step to time it; keep it for profiling runs only",
            "wall_clock_breakdown 会在每一步同步设备以计时，仅在性能分析时开启",
        )));
    }
    if stage >= 1 {
        for (section, key) in [
            ("offload_optimizer", "pin_memory"),
            ("offload_param", "pin_memory"),
        ] {
            let dotted = format!("zero_optimization.{section}.{key}");
            let device = view
                .get(&format!("zero_optimization.{section}.device"))
                .and_then(|n| n.as_str())
                .unwrap_or("none");
            if device == "cpu"
                && view
                    .strict(&dotted)
                    .is_some_and(|p| coerce::to_bool(&p) == Ok(false))
            {
                out.push(Diagnostic::info("offload-unpinned", &ptr(&dotted), Text::new(
                    format!("{section} to CPU without pinned memory: host-device copies are slower; set pin_memory: true if the host has RAM to spare"),
                    format!("{section} 到 CPU 但未使用锁页内存，传输更慢；主机内存充足时建议 pin_memory: true"),
                )));
            }
        }
    }
}
