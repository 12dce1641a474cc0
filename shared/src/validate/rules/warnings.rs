//! Things DeepSpeed accepts silently that are almost surely mistakes (rules 2.2, 3.2, 3.10,
//! 3.11, 5.17 and the ZeRO-3 save trap).

use super::super::{Diagnostic, View};
use super::ptr;
use crate::document::{escape_token, Kind};
use crate::i18n::Text;
use crate::registry::registry;
use serde_json::json;

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    let stage = view.zero_stage();
    if let Some(zero) = view.get("zero_optimization") {
        if let Kind::Bool(b) = zero.kind {
            out.push(Diagnostic::warning("deprecated-key", "/zero_optimization", Text::new(
                format!("`\"zero_optimization\": {b}` is a deprecated format (it means stage {}); write an object", if b { 1 } else { 0 }),
                format!("`\"zero_optimization\": {b}` 是已弃用的写法（表示 stage {}），请改写为对象", if b { 1 } else { 0 }),
            )).with_fix(json!([{"op": "replace", "path": "/zero_optimization", "value": {"stage": if b { 1 } else { 0 }}}])));
        }
        if stage < 3 {
            for m in zero.members() {
                let spec = registry().child("zero_optimization", &m.key);
                if spec.is_some_and(|s| s.stage3_only) && !matches!(m.value.kind, Kind::Null) {
                    let p = format!("/zero_optimization/{}", escape_token(&m.key));
                    out.push(Diagnostic::warning("stage3-only", &p, Text::new(
                        format!("`{}` only takes effect at ZeRO stage 3, but the stage is {stage}: DeepSpeed silently ignores it", m.key),
                        format!("`{}` 只在 ZeRO-3 生效，当前 stage 为 {stage}，DeepSpeed 会静默忽略它", m.key),
                    )).with_fix(json!([{"op": "remove", "path": p}])));
                }
            }
        }
        if stage == 3 && view.strict_bool("zero_optimization.elastic_checkpoint", false) {
            out.push(Diagnostic::warning("deprecated-key", &ptr("zero_optimization.elastic_checkpoint"), Text::new(
                "ZeRO-3 elastic checkpointing is deprecated and no longer supported. Use Universal Checkpointing instead.",
                "ZeRO-3 的弹性检查点已弃用且不再支持，请改用 Universal Checkpointing",
            )));
        }
        let saves_hf = view
            .ctx
            .saves_hf_model
            .unwrap_or(view.ctx.launcher.fills_auto());
        let gather = [
            "stage3_gather_16bit_weights_on_model_save",
            "gather_16bit_weights_on_model_save",
            "stage3_gather_fp16_weights_on_model_save",
        ]
        .iter()
        .any(|k| view.strict_bool(&format!("zero_optimization.{k}"), false));
        if stage == 3 && saves_hf && !gather && zero.is_object() {
            out.push(Diagnostic::warning("zero3-save-weights", "/zero_optimization", Text::new(
                "ZeRO-3 without `stage3_gather_16bit_weights_on_model_save: true`: save_pretrained/save_model writes only this rank's empty shards (a tiny, useless model file)",
                "ZeRO-3 未设置 `stage3_gather_16bit_weights_on_model_save: true`：save_pretrained/save_model 只会保存本 rank 的空分片，得到一个很小且不可用的模型文件",
            )).with_fix(json!([{"op": "add", "path": "/zero_optimization/stage3_gather_16bit_weights_on_model_save", "value": true}])));
        }
    }
    if view
        .get("bf16")
        .is_some_and(|n| !matches!(n.kind, Kind::Null))
        && view.get("bfloat16").is_some()
    {
        out.push(Diagnostic::warning("bfloat16-ignored", "/bfloat16", Text::new(
            "`bfloat16` is the old spelling of `bf16`; with both present DeepSpeed reads only `bf16` and ignores this block",
            "`bfloat16` 是 `bf16` 的旧写法；两者同时存在时 DeepSpeed 只读取 `bf16`，忽略此项",
        )).with_fix(json!([{"op": "remove", "path": "/bfloat16"}])));
    }
    if let Some(v) = view.py("vocabulary_size").and_then(|p| p.num()) {
        if v != 0.0 && v % 8.0 != 0.0 {
            out.push(Diagnostic::warning("vocab-alignment", "/vocabulary_size", Text::new(
                format!("vocabulary size {v} is not a multiple of 8, which may hurt tensor core utilization"),
                format!("词表大小 {v} 不是 8 的倍数，可能降低 Tensor Core 利用率"),
            )));
        }
    }
    if view
        .get("optimizer.params")
        .is_some_and(|p| p.member("max_grad_norm").is_some())
    {
        // reported as an error by zero.rs; nothing more here
    }
}
