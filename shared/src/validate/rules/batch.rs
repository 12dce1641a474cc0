//! Batch size (rules 1.1-1.3): DeepSpeed's derivation of the batch triple, with Python's
//! arithmetic, and its assertions.

use super::super::view::Py;
use super::super::{Diagnostic, View};
use super::ptr;
use crate::i18n::Text;
use serde_json::json;

const TBS: &str = "train_batch_size";
const MBS: &str = "train_micro_batch_size_per_gpu";
const GAS: &str = "gradient_accumulation_steps";

/// The batch triple after DeepSpeed's derivation, or why it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Triple {
    pub train_batch_size: f64,
    pub micro_batch: f64,
    pub grad_acc: f64,
    pub world_size: f64,
}

fn floordiv(a: f64, b: f64) -> Option<f64> {
    if b == 0.0 {
        None
    } else {
        Some((a / b).floor())
    }
}

/// Python-faithful `_set_batch_related_parameters`: `Err((key, message))` on a Python error.
pub fn derive(
    tbs: Option<&Py>,
    mbs: Option<&Py>,
    gas: Option<&Py>,
    ws: f64,
) -> Result<Triple, (&'static str, String)> {
    let num = |p: Option<&Py>, key: &'static str| -> Result<Option<f64>, (&'static str, String)> {
        match p {
            None | Some(Py::None) => Ok(None),
            Some(v) => match not_a_number(v) {
                Some(message) => Err((key, message)),
                None => Ok(v.num()),
            },
        }
    };
    let (t, m, g) = (num(tbs, TBS)?, num(mbs, MBS)?, num(gas, GAS)?);
    let zero_div = |key| {
        (
            key,
            "ZeroDivisionError: integer division or modulo by zero".to_string(),
        )
    };
    let (t, m, g) =
        match (t, m, g) {
            (Some(t), Some(m), Some(g)) => (t, m, g),
            (Some(t), Some(m), None) => {
                let g = floordiv(floordiv(t, m).ok_or(zero_div(MBS))?, ws).ok_or(zero_div(MBS))?;
                (t, m, g)
            }
            (Some(t), None, Some(g)) => {
                let m = floordiv(floordiv(t, ws).ok_or(zero_div(TBS))?, g).ok_or(zero_div(GAS))?;
                (t, m, g)
            }
            (None, Some(m), Some(g)) => (m * g * ws, m, g),
            (Some(t), None, None) => (t, floordiv(t, ws).ok_or(zero_div(TBS))?, 1.0),
            (None, Some(m), None) => (m * ws, m, 1.0),
            (None, None, _) => return Err((
                "",
                "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided"
                    .into(),
            )),
        };
    Ok(Triple {
        train_batch_size: t,
        micro_batch: m,
        grad_acc: g,
        world_size: ws,
    })
}

/// A batch value DeepSpeed cannot derive the triple from: `key` not a number (`"auto"` said
/// as such), or, with no key, neither batch size given.
fn batch_value_error(view: &View, key: &str, msg: &str) -> Diagnostic {
    let is_auto = !key.is_empty() && matches!(view.py(key), Some(Py::Str(s)) if s == "auto");
    let (en, zh) = if key.is_empty() {
        (
            format!("{msg}: set `train_batch_size` or `train_micro_batch_size_per_gpu`"),
            "必须至少设置 `train_batch_size` 或 `train_micro_batch_size_per_gpu` 之一（DeepSpeed 断言失败）".to_string(),
        )
    } else if is_auto {
        (
            format!("`{key}` is \"auto\", which only the Hugging Face Trainer or Accelerate fill in; the plain deepspeed launcher passes the string on and DeepSpeed fails with {msg}"),
            format!("`{key}` 为 \"auto\"：只有 HF Trainer/Accelerate 会替换它，直接用 deepspeed 启动时 DeepSpeed 会报 {msg}"),
        )
    } else {
        (
            format!("`{key}` must be a number: DeepSpeed fails with {msg}"),
            format!("`{key}` 必须是数字：DeepSpeed 会报 {msg}"),
        )
    };
    let path = if key.is_empty() {
        String::new()
    } else {
        ptr(key)
    };
    let code = if is_auto {
        "auto-unresolved"
    } else {
        "batch-size"
    };
    // A whole number written as a string ("8"): the number is the fix.
    let quoted = match view.py(key) {
        Some(Py::Str(s)) if !is_auto => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= i64::MAX as f64)
            .map(|n| (s.trim().to_string(), n as i64)),
        _ => None,
    };
    let (en, zh) = match &quoted {
        Some((text, _)) => (
            format!("{en}; write {text} without quotes"),
            format!("{zh}；请去掉引号，直接写 {text}"),
        ),
        None => (en, zh),
    };
    let d = Diagnostic::error(code, &path, Text::new(en, zh));
    if key.is_empty() {
        d.with_fix(json!([{"op": "add", "path": "/train_micro_batch_size_per_gpu", "value": 1}]))
    } else if let Some((_, n)) = quoted {
        d.with_fix(json!([{"op": "replace", "path": path, "value": n}]))
    } else {
        d
    }
}

/// The TypeError DeepSpeed's `train_batch_size > 0`-style comparisons raise on a value that is
/// not a number (None is "not given", not an error).
fn not_a_number(v: &Py) -> Option<String> {
    if matches!(v, Py::None) || v.num().is_some() {
        return None;
    }
    Some(format!(
        "TypeError: '>' not supported between instances of '{}' and 'int'",
        v.type_name()
    ))
}

fn show(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    let (tbs, mbs, gas) = (view.py(TBS), view.py(MBS), view.py(GAS));
    let mut ws = view.ctx.data_parallel_size();
    let mut sp_divided = false;
    if view.ctx.sequence_parallel <= 1 && view.ctx.dict_input() {
        // DeepSpeed divides the world size by a config's sequence_parallel_size; where that
        // fails (0, not a number), releases before 0.19.3 swallow the error and use 1.
        if let Some(sp) = view.py("sequence_parallel_size") {
            match sp.num().filter(|v| *v != 0.0) {
                Some(sp) => {
                    sp_divided = ws.fract() == 0.0;
                    ws /= sp
                }
                None if !crate::registry::registry()
                    .has_check("sp-errors-propagate", view.release) =>
                {
                    ws = 1.0
                }
                None => {}
            }
        }
    }
    let auto_filled = view.ctx.launcher.fills_auto();
    // Under HF Trainer / Accelerate "auto" is replaced before DeepSpeed sees it.
    let clean = |p: Option<Py>| match p {
        Some(Py::Str(s)) if s == "auto" && auto_filled => None,
        other => other,
    };
    let any_auto = [&tbs, &mbs, &gas]
        .iter()
        .any(|p| matches!(p, Some(Py::Str(s)) if s == "auto"));
    if any_auto && auto_filled {
        return; // the launcher derives the triple from its own arguments
    }
    let (tbs, mbs, gas) = (clean(tbs), clean(mbs), clean(gas));
    let triple = match derive(tbs.as_ref(), mbs.as_ref(), gas.as_ref(), ws) {
        Ok(t) => t,
        Err((key, msg)) => {
            // DeepSpeed stops at the first value that is not a number; the others are just as
            // wrong, so all are named at once (one run, not three).
            let failed: Vec<(&str, String)> = if msg.starts_with("TypeError") {
                [(TBS, &tbs), (MBS, &mbs), (GAS, &gas)]
                    .into_iter()
                    .filter_map(|(k, v)| not_a_number(v.as_ref()?).map(|m| (k, m)))
                    .collect()
            } else {
                vec![(key, msg)]
            };
            for (key, msg) in failed {
                out.push(batch_value_error(view, key, &msg));
            }
            return;
        }
    };
    let Triple {
        train_batch_size: t,
        micro_batch: m,
        grad_acc: g,
        ..
    } = triple;
    for (key, v, en, zh) in [
        (TBS, t, "Train batch size", "train_batch_size"),
        (
            MBS,
            m,
            "Micro batch size per gpu",
            "train_micro_batch_size_per_gpu",
        ),
        (
            GAS,
            g,
            "Gradient accumulation steps",
            "gradient_accumulation_steps",
        ),
    ] {
        if v <= 0.0 {
            let given = view.get(key).is_some();
            out.push(Diagnostic::error(
                "batch-size",
                &if given { ptr(key) } else { String::new() },
                Text::new(
                    format!(
                        "{en}: {} has to be greater than 0{}",
                        show(v),
                        if given {
                            String::new()
                        } else {
                            format!(" (derived with world size {})", show(ws))
                        }
                    ),
                    format!(
                        "{zh} 为 {}，必须大于 0{}",
                        show(v),
                        if given {
                            String::new()
                        } else {
                            format!("（按总 GPU 数 {} 推导）", show(ws))
                        }
                    ),
                ),
            ));
            return;
        }
    }
    if t != m * g * ws {
        // The global batch is the hyperparameter the learning rate was tuned for: where an
        // accumulation keeps it exactly, that is the fix; otherwise the global batch follows.
        let per_step = m * ws;
        // (Without an accumulation given, DeepSpeed derives one and gets here only when none fits.)
        let keep = (view.get(TBS).is_some()
            && view.get(MBS).is_some()
            && view.get(GAS).is_some()
            && per_step > 0.0)
            .then(|| t / per_step)
            .filter(|g2| g2.fract() == 0.0 && *g2 >= 1.0 && *g2 <= i64::MAX as f64);
        let all_given =
            view.get(TBS).is_some() && view.get(MBS).is_some() && view.get(GAS).is_some();
        let (how_en, how_zh) = match keep {
            Some(g2) => (
                format!(": to keep the global batch of {}, set gradient_accumulation_steps to {} (the suggested fix), or set train_batch_size to {}", show(t), show(g2), show(m * g * ws)),
                format!("。要保持全局批大小 {}，请把 gradient_accumulation_steps 改为 {}（即建议的修复），或把 train_batch_size 改为 {}", show(t), show(g2), show(m * g * ws)),
            ),
            None if all_given => (
                format!(": set train_batch_size to {} (the suggested fix), or change the micro batch or the accumulation steps", show(m * g * ws)),
                format!("。请把 train_batch_size 改为 {}（即建议的修复），或修改 train_micro_batch_size_per_gpu 或 gradient_accumulation_steps", show(m * g * ws)),
            ),
            None => (String::new(), String::new()),
        };
        let mut d = Diagnostic::error(
            "batch-mismatch",
            &ptr(TBS),
            Text::new(
                format!("Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size {} != {} * {} * {}{how_en}", show(t), show(m), show(g), show(ws)),
                format!("批大小不一致：train_batch_size 必须等于 train_micro_batch_size_per_gpu × gradient_accumulation_steps × world_size，即 {} != {} × {} × {}{how_zh}", show(t), show(m), show(g), show(ws)),
            ),
        );
        if let Some(g2) = keep {
            d = d.with_fix(json!([{"op": "replace", "path": "/gradient_accumulation_steps", "value": g2 as i64}]));
        } else if all_given {
            d = d.with_fix(json!([{"op": "replace", "path": "/train_batch_size", "value": (m * g * ws) as i64}]));
        }
        out.push(d);
    } else if sp_divided && ws.fract() != 0.0 {
        // The triple holds only by accident of the arithmetic (1 = 2 x 1 x 0.5).
        let total = view.ctx.data_parallel_size();
        out.push(Diagnostic::warning(
            "sp-not-dividing",
            &ptr("sequence_parallel_size"),
            Text::new(
                format!("sequence_parallel_size does not divide the {} ranks: DeepSpeed divides the world size by it ({}) and derives the batch from that (micro batch {}, train batch {}); use a sequence_parallel_size that divides the number of ranks", show(total), show(ws), show(m), show(t)),
                format!("sequence_parallel_size 不能整除 {} 个进程：DeepSpeed 用它去除 world size（得到 {}），并据此推导批大小（micro batch {}，train batch {}）；请使用能整除进程数的 sequence_parallel_size", show(total), show(ws), show(m), show(t)),
            ),
        ));
    }
}
