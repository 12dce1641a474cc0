//! Fitting a config to another number of GPUs: a preset written for 8 GPUs says
//! `train_batch_size: 128, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 4`,
//! which DeepSpeed refuses on 1 GPU (128 != 4 * 4 * 1). The fit keeps the global batch
//! (what the training run means) by changing the gradient accumulation, else the micro batch
//! too; where no split of the global batch fits the new data-parallel size it keeps the
//! micro batch and accumulation and says the global batch changes. Only the three batch keys
//! change, each only if written, through document edits (comments and layout kept).

use crate::document::Document;
use crate::i18n::Text;
use crate::validate::Context;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

const TBS: &str = "train_batch_size";
const MBS: &str = "train_micro_batch_size_per_gpu";
const GAS: &str = "gradient_accumulation_steps";

/// One key the fit changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FitChange {
    pub key: String,
    /// The value before (`null`: the key was not written).
    #[cfg_attr(feature = "openapi", schema(value_type = Value))]
    pub from: Value,
    #[cfg_attr(feature = "openapi", schema(value_type = Value))]
    pub to: Value,
}

/// A config fitted to a data-parallel size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Fitted {
    /// The config as it will run.
    pub config_text: String,
    /// What changed (empty: the config already fits).
    pub changes: Vec<FitChange>,
    /// The global batch stays what it was.
    pub keeps_global_batch: bool,
    /// The fit in words, in both languages.
    pub summary: Text,
}

/// Why edits could not make a config DeepSpeed accepts (see [`edit_and_check`]).
#[derive(Debug, Clone, PartialEq)]
pub enum EditRefusal {
    /// The text could not take a value at this dotted key.
    Set { key: String, error: String },
    /// The edited config has an error: the first one, and the text.
    Rejected {
        text: String,
        diagnostic: Box<crate::Diagnostic>,
    },
}

/// `doc` with `edits` (JSON pointer, value; `None` removes) applied as text edits (comments
/// and layout kept), each edit that changes something listed as a change, and the result
/// judged by the validator in `ctx`. The memory model's suggestions and a sweep's points are
/// made with it.
pub fn edit_and_check(
    doc: &Document,
    ctx: &Context,
    edits: &[(String, Option<Value>)],
) -> Result<(String, Vec<FitChange>), EditRefusal> {
    let root = doc.to_value().unwrap_or(Value::Null);
    let mut current = doc.clone();
    let mut changes = Vec::new();
    for (pointer, value) in edits {
        let before = root.pointer(pointer).cloned();
        if before.as_ref() == value.as_ref() {
            continue;
        }
        let key = pointer.trim_start_matches('/').replace('/', ".");
        let next = match value {
            Some(v) => current.set(pointer, v),
            None => current.remove(pointer),
        };
        current = next.map_err(|e| EditRefusal::Set {
            key: key.clone(),
            error: e.to_string(),
        })?;
        changes.push(FitChange {
            key,
            from: before.unwrap_or(Value::Null),
            to: value.clone().unwrap_or(Value::Null),
        });
    }
    let text = current.text().to_string();
    let (_, diags) = crate::validate::validate_text(&text, ctx);
    match diags
        .into_iter()
        .find(|d| d.severity == crate::validate::Severity::Error)
    {
        Some(d) => Err(EditRefusal::Rejected {
            text,
            diagnostic: Box::new(d),
        }),
        None => Ok((text, changes)),
    }
}

/// Why a config cannot be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.en)]
pub struct FitError(pub Text);

fn whole(v: Option<&Value>) -> Option<u64> {
    let f = v?.as_f64()?;
    (f >= 1.0 && f.fract() == 0.0 && f < 1e15).then_some(f as u64)
}

/// The largest global batch [`fit`] works with (2^40 samples a step).
const MAX_GLOBAL: u64 = 1 << 40;

/// The largest micro batch `m <= micro` with `global = m × accumulation × dp`: the largest
/// divisor of `global / dp` up to `micro`, found among the divisors up to its square root (at
/// most 2^20 steps for a global batch up to [`MAX_GLOBAL`]).
fn largest_divisor_up_to(global: u64, dp: u64, micro: u64) -> Option<u64> {
    if dp == 0 || !global.is_multiple_of(dp) {
        return None;
    }
    let q = global / dp;
    let mut best = None;
    let mut i = 1u64;
    while i.saturating_mul(i) <= q {
        if q.is_multiple_of(i) {
            for d in [i, q / i] {
                if d <= micro && best.is_none_or(|b| d > b) {
                    best = Some(d);
                }
            }
        }
        i += 1;
    }
    best
}

/// Fits `text` (judged in `from`) to the world of `to` (its world size and parallel sizes).
pub fn fit(text: &str, from: &Context, to: &Context) -> Result<Fitted, FitError> {
    let doc = Document::parse(text);
    let root = doc.to_value().filter(Value::is_object).ok_or_else(|| {
        FitError(Text::new(
            "the config is not a JSON object: nothing to fit",
            "配置不是 JSON 对象，无法调整",
        ))
    })?;
    if from.launcher.fills_auto() || to.launcher.fills_auto() {
        return Err(FitError(Text::new(
            "under the HF Trainer or Accelerate the batch comes from the training arguments (per_device_train_batch_size, gradient_accumulation_steps): change those instead",
            "使用 HF Trainer/Accelerate 时 batch 来自训练参数（per_device_train_batch_size、gradient_accumulation_steps），请修改训练参数",
        )));
    }
    let dp = |c: &Context| c.data_parallel_size();
    let (dp_from, dp_to) = (dp(from), dp(to));
    if dp_to < 1.0 || dp_to.fract() != 0.0 {
        return Err(FitError(Text::new(
            format!(
                "{} GPUs do not split into tensor × pipeline × sequence parallel groups of {}",
                to.world_size,
                (to.world_size as f64 / dp_to.max(1e-9)).round()
            ),
            format!(
                "{} 张 GPU 无法按张量 × 流水线 × 序列并行分组",
                to.world_size
            ),
        )));
    }
    let (dp_from, dp_to) = (dp_from.max(1.0) as u64, dp_to as u64);
    let written = |k: &str| root.get(k).filter(|v| !v.is_null());
    let (tbs, mbs, gas) = (
        whole(written(TBS)),
        whole(written(MBS)),
        whole(written(GAS)),
    );
    for k in [TBS, MBS, GAS] {
        if written(k).is_some() && whole(written(k)).is_none() {
            return Err(FitError(Text::new(
                format!(
                    "`{k}` is {} (not a whole number): fix it first",
                    written(k).cloned().unwrap_or_default()
                ),
                format!(
                    "`{k}` 为 {}（不是正整数）：请先修正",
                    written(k).cloned().unwrap_or_default()
                ),
            )));
        }
    }
    // The global batch the config means on the world it was written for.
    let global = match (tbs, mbs, gas) {
        (Some(t), _, _) => t,
        (None, Some(m), g) => m.saturating_mul(g.unwrap_or(1)).saturating_mul(dp_from),
        (None, None, _) => return Err(FitError(Text::new(
            "neither train_batch_size nor train_micro_batch_size_per_gpu is set: nothing to fit",
            "train_batch_size 与 train_micro_batch_size_per_gpu 都未设置，无法调整",
        ))),
    };
    // Past 2^40 samples a step no run means it: said, not searched.
    if global > MAX_GLOBAL {
        return Err(FitError(Text::new(
            format!("the global batch ({global} samples a step) is too large to fit"),
            format!("全局 batch（每步 {global} 个样本）过大，无法调整"),
        )));
    }
    let micro = mbs.unwrap_or_else(|| (global / dp_from / gas.unwrap_or(1)).max(1));
    // Keep the micro batch if it can; else the largest micro batch up to it that divides.
    let split = largest_divisor_up_to(global, dp_to, micro).map(|m| (m, global / dp_to / m));
    let (new_tbs, new_mbs, new_gas, keeps) = match split {
        Some((m, g)) => (global, m, g, true),
        None => {
            let g = gas.unwrap_or(1);
            (
                micro.saturating_mul(g).saturating_mul(dp_to),
                micro,
                g,
                false,
            )
        }
    };
    let mut changes = Vec::new();
    let mut patch = Vec::new();
    let mut change = |key: &str, old: Option<u64>, new: u64, must_write: bool| {
        if old == Some(new) || (old.is_none() && !must_write) {
            return;
        }
        changes.push(FitChange {
            key: key.into(),
            from: old.map_or(Value::Null, Value::from),
            to: Value::from(new),
        });
        let op = if old.is_some() { "replace" } else { "add" };
        patch.push(json!({"op": op, "path": format!("/{key}"), "value": new}));
    };
    // A key not written stays unwritten when DeepSpeed derives the same value.
    change(TBS, tbs, new_tbs, false);
    change(MBS, mbs, new_mbs, tbs.is_none() || new_mbs != micro);
    change(
        GAS,
        gas,
        new_gas,
        new_gas != 1 && !(tbs.is_some() && mbs.is_none()),
    );
    let fitted = doc.apply_patch(&Value::Array(patch)).map_err(|e| {
        FitError(Text::new(
            format!("cannot edit the config: {e}"),
            format!("无法修改配置：{e}"),
        ))
    })?;
    let list = |zh: bool| {
        changes
            .iter()
            .map(|c| {
                let from = if c.from.is_null() {
                    if zh {
                        "未设置".to_string()
                    } else {
                        "unset".to_string()
                    }
                } else {
                    c.from.to_string()
                };
                format!("{} {from} → {}", c.key, c.to)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let summary = if changes.is_empty() {
        Text::new(
            format!("already fits {}", ranks(dp_to)),
            format!("已适配 {dp_to} 个数据并行 rank"),
        )
    } else if keeps {
        Text::new(
            format!(
                "fitted to {}, global batch {global} kept: {}",
                ranks(dp_to),
                list(false)
            ),
            format!(
                "已适配 {dp_to} 个数据并行 rank，保持全局 batch {global}：{}",
                list(true)
            ),
        )
    } else {
        Text::new(
            format!("no split of the global batch {global} fits {}: the global batch becomes {new_tbs} ({})", ranks(dp_to), list(false)),
            format!("全局 batch {global} 无法均分到 {dp_to} 个数据并行 rank：全局 batch 变为 {new_tbs}（{}）", list(true)),
        )
    };
    Ok(Fitted {
        config_text: fitted.text().to_string(),
        changes,
        keeps_global_batch: keeps,
        summary,
    })
}

/// "1 data-parallel rank", "8 data-parallel ranks".
fn ranks(n: u64) -> String {
    if n == 1 {
        "1 data-parallel rank".into()
    } else {
        format!("{n} data-parallel ranks")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{validate_text, verdict, Verdict};

    fn world(n: u32) -> Context {
        Context {
            world_size: n,
            ..Context::default()
        }
    }

    fn accepted(text: &str, ctx: &Context) -> bool {
        verdict(&validate_text(text, ctx).1) == Verdict::Accepted
    }

    #[test]
    fn an_eight_gpu_preset_fits_one_gpu_by_accumulating_more() {
        let text = "{\n  // for 8 GPUs\n  \"train_batch_size\": 128,\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": 4\n}\n";
        assert!(!accepted(text, &world(1)));
        let f = fit(text, &world(8), &world(1)).unwrap();
        assert!(f.keeps_global_batch);
        assert_eq!(
            f.changes,
            [FitChange {
                key: GAS.into(),
                from: json!(4),
                to: json!(32)
            }]
        );
        assert!(f.config_text.contains("// for 8 GPUs"), "comments kept");
        assert!(accepted(&f.config_text, &world(1)), "{}", f.config_text);
        assert!(
            f.summary.en.contains("global batch 128 kept"),
            "{}",
            f.summary.en
        );
    }

    #[test]
    fn the_micro_batch_shrinks_where_accumulation_alone_cannot_keep_the_batch() {
        // 24 on 16 ranks: micro 1 × 16 is 16, 24 % 16 != 0 -> no split keeps 24.
        let text = r#"{"train_batch_size": 24, "train_micro_batch_size_per_gpu": 3, "gradient_accumulation_steps": 1}"#;
        let f = fit(text, &world(8), &world(16)).unwrap();
        assert!(!f.keeps_global_batch);
        assert!(accepted(&f.config_text, &world(16)), "{}", f.config_text);
        assert!(f.summary.en.contains("becomes 48"), "{}", f.summary.en);
        // 32 on 8 ranks from micro 8: micro 4, accumulation 1.
        let text = r#"{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 8}"#;
        let f = fit(text, &world(1), &world(8)).unwrap();
        assert!(f.keeps_global_batch);
        assert!(accepted(&f.config_text, &world(8)), "{}", f.config_text);
        assert_eq!(f.changes[0].key, MBS);
    }

    #[test]
    fn only_written_keys_change_and_a_fitting_config_is_left_alone() {
        // micro × accumulation only: the global batch was 2 × 2 × 4 = 16 on 4 GPUs.
        let text = r#"{"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 2}"#;
        let f = fit(text, &world(4), &world(1)).unwrap();
        assert_eq!(
            f.changes,
            [FitChange {
                key: GAS.into(),
                from: json!(2),
                to: json!(8)
            }]
        );
        let text = r#"{"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 8}"#;
        let f = fit(text, &world(1), &world(1)).unwrap();
        assert!(f.changes.is_empty());
        assert_eq!(f.config_text, text);
    }

    #[test]
    fn hostile_sizes_cost_little_and_do_not_overflow() {
        // 10^14 × 10^14 micro batches: no overflow, no 10^14-step walk.
        let text = r#"{"train_micro_batch_size_per_gpu": 100000000000000, "gradient_accumulation_steps": 100000000000000}"#;
        let e = fit(text, &world(8), &world(3)).unwrap_err();
        assert!(e.0.en.contains("too large"), "{}", e.0.en);
        let text =
            r#"{"train_batch_size": 999999999989, "train_micro_batch_size_per_gpu": 999999999989}"#;
        let f = fit(text, &world(1), &world(7)).unwrap();
        assert!(
            !f.keeps_global_batch,
            "a prime global batch does not split over 7"
        );
        assert_eq!(largest_divisor_up_to(128, 1, 4), Some(4));
        assert_eq!(largest_divisor_up_to(24, 16, 3), None);
        assert_eq!(largest_divisor_up_to(36, 1, 5), Some(4));
    }

    #[test]
    fn what_cannot_be_fitted_says_why() {
        let hf = Context {
            launcher: crate::validate::Launcher::HfTrainer,
            ..world(1)
        };
        assert!(fit(r#"{"train_batch_size": 8}"#, &hf, &hf)
            .unwrap_err()
            .0
            .en
            .contains("training arguments"));
        assert!(fit(
            r#"{"zero_optimization": {"stage": 2}}"#,
            &world(8),
            &world(1)
        )
        .unwrap_err()
        .0
        .en
        .contains("nothing to fit"));
        assert!(fit(r#"{"train_batch_size": "auto"}"#, &world(8), &world(1))
            .unwrap_err()
            .0
            .en
            .contains("not a whole number"));
        assert!(fit("[1, 2]", &world(8), &world(1)).is_err());
        let tp = Context {
            tensor_parallel: 4,
            ..world(6)
        };
        assert!(fit(r#"{"train_batch_size": 8}"#, &world(8), &tp).is_err());
    }
}
