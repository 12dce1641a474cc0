//! Sweeps (issue 34, groundwork): a grid over config keys expanded into the configs it means,
//! each judged by the validator and pruned by the memory model before anything runs.
//!
//! A grid is a list of dotted keys, each with the values to try (`--grid
//! train_micro_batch_size_per_gpu=4,8,16 --grid zero_optimization.stage=0,2,3`); the points are
//! their cartesian product, in the order given. With `keep_global_batch`, a point that changes the
//! micro batch changes the gradient accumulation too, so every point trains on the same samples
//! per step (a point whose micro batch does not divide the global batch per GPU is pruned,
//! named). Each point's config is the base text with only its keys edited (comments and layout
//! kept). The server runs the points as jobs (`api/sweeps.rs`); `ds-studio sweep plan` lists them.
//!
//! Under the HF Trainer and Accelerate the batch, accumulation, learning rate and the other
//! values HF fills come from the training arguments, not the config: a grid may name those
//! arguments (`per_device_train_batch_size=2,4`), and an axis on a config key HF fills
//! ([`trainer_edits::HF_FILLED`]) whose value is `"auto"` (or absent) changes the argument and keeps `"auto"`;
//! where the config writes a number, both change, so HF's match check holds. A point carries
//! the trainer arguments it runs with ([`Point::trainer`]).

use crate::document::Document;
use crate::fit::EditRefusal;
use crate::i18n::Text;
use crate::memory::{estimate, setup_from_config, Capacity, Estimate, ModelSpec};
use crate::trainer_edits;
use crate::validate::Context;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most points one sweep may have.
pub const MAX_POINTS: usize = 256;
/// The most keys one grid may vary.
pub const MAX_KEYS: usize = 8;

const MICRO: &str = "train_micro_batch_size_per_gpu";
const ACCUMULATION: &str = "gradient_accumulation_steps";
/// The batch keys: whole numbers from 1.
const BATCH_KEYS: [&str; 4] = [
    MICRO,
    ACCUMULATION,
    "train_batch_size",
    trainer_edits::HF_MICRO,
];

/// One axis of a grid: a dotted config key and the values to try.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Axis {
    /// A dotted config key (`zero_optimization.stage`).
    pub key: String,
    /// The values to try, as JSON values.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Value>))]
    pub values: Vec<Value>,
}

/// Why a grid cannot be expanded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.en)]
pub struct GridError(pub Text);

/// At most this much of a hostile key or line is echoed in a message.
const ECHO: usize = 60;

fn echo(s: &str) -> String {
    if s.chars().count() > ECHO {
        format!("{}…", s.chars().take(ECHO).collect::<String>())
    } else {
        s.to_string()
    }
}

/// `KEY=V1,V2,...` as the CLI's `--grid` takes it (and the browser, one per line). The values
/// are read as one JSON list when they are one (`4,8,16`, `true,false`, `"cpu","none"`,
/// `[0.9,0.95],[0.8,0.9]`), else split at the commas, each read as JSON when it is JSON, else as
/// a string (`cpu,none`).
pub fn parse_axis(arg: &str) -> Result<Axis, GridError> {
    let (key, list) = arg.split_once('=').ok_or_else(|| {
        GridError(Text::new(
            format!(
                "`{}`: write KEY=V1,V2,... (e.g. train_micro_batch_size_per_gpu=4,8,16)",
                echo(arg)
            ),
            format!(
                "`{}`：请写成 KEY=V1,V2,...（例如 train_micro_batch_size_per_gpu=4,8,16）",
                echo(arg)
            ),
        ))
    })?;
    let key = key.trim();
    let values: Vec<Value> = match serde_json::from_str::<Vec<Value>>(&format!("[{list}]")) {
        Ok(v) => v,
        Err(_) => list
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string())))
            .collect(),
    };
    check_axis(&Axis {
        key: key.to_string(),
        values,
    })
}

/// A key DeepSpeed reads (any release; an optimizer's `params` are checked per type by the
/// validator): a misspelt key would only run the same config again and again.
fn known_key(key: &str, ctx: &Context) -> Result<(), GridError> {
    let registry = crate::registry::registry();
    if key.starts_with("optimizer.params.") || registry.explain(key).is_some() {
        return Ok(());
    }
    if trainer_edits::is_trainer_arg(key) {
        if ctx.launcher.fills_auto() {
            return Ok(());
        }
        return Err(GridError(Text::new(
            format!(
                "grid key `{key}` is a training argument of the HF Trainer and Accelerate; this version runs under the {} launcher, where the config's own keys are varied",
                ctx.launcher.as_str()
            ),
            format!(
                "网格键 `{key}` 是 HF Trainer/Accelerate 的训练参数；此版本使用 {} 启动器，请改变配置自身的键",
                ctx.launcher.as_str()
            ),
        )));
    }
    // The first part that is not a key, and the known key closest to it, the rest kept:
    // `zero_optimisation.stage` → `zero_optimization.stage`.
    let tokens: Vec<&str> = key.split('.').collect();
    let known = (0..tokens.len())
        .take_while(|&i| registry.resolve(&tokens[..=i]).is_some())
        .count();
    let parent = match known {
        0 => String::new(),
        n => registry
            .resolve(&tokens[..n])
            .map(|k| k.path.clone())
            .unwrap_or_default(),
    };
    let hint = registry.suggest(&parent, tokens[known]).map(|s| {
        std::iter::once(s.path.as_str())
            .chain(tokens[known + 1..].iter().copied())
            .collect::<Vec<_>>()
            .join(".")
    });
    let (en, zh) = match &hint {
        Some(h) => (
            format!("; did you mean `{h}`?"),
            format!("；是否想写 `{h}`？"),
        ),
        None => (String::new(), String::new()),
    };
    Err(GridError(Text::new(
        format!("grid key `{key}` is not a DeepSpeed config key{en}"),
        format!("网格键 `{key}` 不是 DeepSpeed 配置键{zh}"),
    )))
}

fn check_axis(axis: &Axis) -> Result<Axis, GridError> {
    let key_ok = !axis.key.is_empty()
        && axis.key.len() <= 200
        && axis
            .key
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if !key_ok {
        return Err(GridError(Text::new(
            format!(
                "grid key `{}` is not a dotted config key (letters, digits, `_`, `.`)",
                echo(&axis.key)
            ),
            format!(
                "网格键 `{}` 不是以点分隔的配置键（字母、数字、`_`、`.`）",
                echo(&axis.key)
            ),
        )));
    }
    if axis.values.is_empty() {
        return Err(GridError(Text::new(
            format!("grid key `{}` has no values", axis.key),
            format!("网格键 `{}` 没有取值", axis.key),
        )));
    }
    Ok(axis.clone())
}

/// The training arguments a sweep's point changed, carried onto a template's: the fields where
/// `ran` (its job's arguments) differs from `planned_from` (the sweep's context's), set on
/// `onto` (the head version's). What saving the best point keeps besides its config.
pub fn carry_trainer_changes(
    planned_from: Option<&crate::launcher::TrainerArgs>,
    ran: Option<&crate::launcher::TrainerArgs>,
    onto: Option<&crate::launcher::TrainerArgs>,
) -> Option<crate::launcher::TrainerArgs> {
    let as_map = |a: Option<&crate::launcher::TrainerArgs>| match a.map(serde_json::to_value) {
        Some(Ok(Value::Object(m))) => m,
        _ => serde_json::Map::new(),
    };
    let (from, ran_map) = (as_map(planned_from), as_map(ran));
    let changed: Vec<(&String, &Value)> = ran_map
        .iter()
        .filter(|(k, v)| from.get(*k) != Some(*v))
        .collect();
    if changed.is_empty() {
        return onto.cloned();
    }
    let mut out = as_map(onto);
    for (k, v) in changed {
        out.insert(k.clone(), v.clone());
    }
    serde_json::from_value(Value::Object(out))
        .ok()
        .or_else(|| onto.cloned())
}

/// One point of a sweep, before it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// The grid's value of each key (dotted key → value), in the grid's order.
    pub values: Vec<(String, Value)>,
    /// The config this point runs (absent when it could not be made).
    pub config_text: Option<String>,
    /// What it changes in the base config (its keys, and the accumulation where the global
    /// batch is kept), as a fit's changes are listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<crate::fit::FitChange>,
    /// Its predicted peak, where the model is known.
    pub estimate: Option<Estimate>,
    /// Under the HF launchers, the training arguments it runs with when the grid changes them
    /// (`None`: the context's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer: Option<crate::launcher::TrainerArgs>,
    /// Why it will not run (invalid, does not fit), in both languages; `None`: it runs.
    pub pruned: Option<Text>,
}

/// The points of `grid` over `base` (judged in `ctx` on `nodes` nodes). With a model and a
/// capacity, points whose estimate exceeds it are pruned with their figures.
pub fn expand(
    base: &str,
    ctx: &Context,
    nodes: u32,
    grid: &[Axis],
    keep_global_batch: bool,
    memory: Option<(&ModelSpec, Option<&Capacity>)>,
) -> Result<Vec<Point>, GridError> {
    if grid.is_empty() || grid.len() > MAX_KEYS {
        return Err(GridError(Text::new(
            format!("a grid varies 1 to {MAX_KEYS} keys"),
            format!("网格须变化 1 到 {MAX_KEYS} 个键"),
        )));
    }
    let count = grid
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
        .filter(|n| *n <= MAX_POINTS)
        .ok_or_else(|| {
            GridError(Text::new(
                format!("the grid has more than {MAX_POINTS} points: narrow it"),
                format!("网格超过 {MAX_POINTS} 个点：请缩小范围"),
            ))
        })?;
    for (i, axis) in grid.iter().enumerate() {
        check_axis(axis)?;
        known_key(&axis.key, ctx)?;
        if grid[..i].iter().any(|a| a.key == axis.key) {
            return Err(GridError(Text::new(
                format!(
                    "grid key `{}` is given twice: list its values once",
                    axis.key
                ),
                format!("网格键 `{}` 出现了两次：请在一处列出它的取值", axis.key),
            )));
        }
    }
    let doc = Document::parse(base);
    doc.to_value().filter(Value::is_object).ok_or_else(|| {
        GridError(Text::new(
            "the base config is not a JSON object",
            "基础配置不是 JSON 对象",
        ))
    })?;
    // Samples per GPU a step the base means, kept across micro batches when asked.
    let per_rank = setup_from_config(&doc, ctx, nodes)
        .ok()
        .map(|s| s.micro_batch * s.gradient_accumulation);
    let mut points = Vec::with_capacity(count);
    for i in 0..count {
        let mut rest = i;
        let mut values = Vec::new();
        for axis in grid.iter().rev() {
            values.push((
                axis.key.clone(),
                axis.values[rest % axis.values.len()].clone(),
            ));
            rest /= axis.values.len();
        }
        values.reverse();
        points.push(point(
            &doc,
            ctx,
            nodes,
            values,
            keep_global_batch,
            per_rank,
            memory,
        ));
    }
    Ok(points)
}

#[allow(clippy::too_many_arguments)]
fn point(
    doc: &Document,
    ctx: &Context,
    nodes: u32,
    values: Vec<(String, Value)>,
    keep_global_batch: bool,
    per_rank: Option<u64>,
    memory: Option<(&ModelSpec, Option<&Capacity>)>,
) -> Point {
    let pruned = |why: Text, text: Option<String>, values: Vec<(String, Value)>| Point {
        values,
        config_text: text,
        changes: Vec::new(),
        estimate: None,
        trainer: None,
        pruned: Some(why),
    };
    let mut edits: Vec<(String, Value)> = values.clone();
    // DeepSpeed reads a fractional batch size and the run fails later, deep in torch: a
    // batch key takes whole numbers from 1 here.
    if let Some((k, v)) = values
        .iter()
        .find(|(k, v)| BATCH_KEYS.contains(&k.as_str()) && v.as_u64().is_none_or(|n| n < 1))
    {
        return pruned(
            Text::new(
                format!("{k} = {v} is not a whole number from 1"),
                format!("{k} = {v} 不是从 1 开始的整数"),
            ),
            None,
            values.clone(),
        );
    }
    let micro = values
        .iter()
        .find(|(k, _)| k == MICRO || (k == trainer_edits::HF_MICRO && ctx.launcher.fills_auto()))
        .and_then(|(_, v)| v.as_u64());
    if let (true, Some(m), Some(total)) = (keep_global_batch, micro, per_rank) {
        if m == 0 || !total.is_multiple_of(m) {
            return pruned(
                Text::new(
                    format!("micro batch {m} does not divide the {total} samples per GPU a step the base trains on"),
                    format!("微批 {m} 不能整除基础配置每卡每步的 {total} 个样本"),
                ),
                None,
                values,
            );
        }
        if !values.iter().any(|(k, _)| k == ACCUMULATION) {
            edits.push((ACCUMULATION.into(), Value::from(total / m)));
        }
    }
    // Under the HF launchers the values HF fills go to the training arguments.
    let edited = match trainer_edits::edit(doc, ctx, &edits) {
        Ok(done) => done,
        Err(trainer_edits::Refusal::Argument(why)) => return pruned(why, None, values),
        Err(trainer_edits::Refusal::Config(EditRefusal::Set { key, error })) => {
            return pruned(
                Text::new(
                    format!("cannot set {key}: {error}"),
                    format!("无法设置 {key}：{error}"),
                ),
                None,
                values,
            )
        }
        Err(trainer_edits::Refusal::Config(EditRefusal::Rejected { text, diagnostic })) => {
            return pruned(
                Text::new(
                    format!("DeepSpeed would reject it: {}", diagnostic.message.en),
                    format!("DeepSpeed 会拒绝：{}", diagnostic.message.zh),
                ),
                Some(text),
                values,
            )
        }
    };
    let trainer_edits::Edited {
        text,
        changes,
        trainer,
    } = edited;
    let point_ctx = Context {
        trainer: trainer.clone().or_else(|| ctx.trainer.clone()),
        ..ctx.clone()
    };
    let ctx = &point_ctx;
    let Some((model, cap)) = memory else {
        return Point {
            values,
            config_text: Some(text),
            changes,
            estimate: None,
            trainer,
            pruned: None,
        };
    };
    let Ok(setup) = setup_from_config(&Document::parse(&text), ctx, nodes) else {
        return Point {
            values,
            config_text: Some(text),
            changes,
            estimate: None,
            trainer,
            pruned: None,
        };
    };
    let e = estimate(model, &setup);
    let why = cap.and_then(|cap| {
        let ranks = setup.gpus_per_node as u32;
        let need = cap.need(&e, ranks);
        if let Some((host_need, host)) = cap.host_short(&e) {
            return Some(Text::new(
                format!(
                    "does not fit: needs {} of CPU memory per node, the host gives {}",
                    crate::memory::human_bytes(host_need),
                    crate::memory::human_bytes(host)
                ),
                format!(
                    "放不下：每个节点需要 {} CPU 内存，主机可用 {}",
                    crate::memory::human_bytes(host_need),
                    crate::memory::human_bytes(host)
                ),
            ));
        }
        (need > cap.bytes_per_rank).then(|| {
            let words = cap.need_words(&e, ranks);
            Text::new(
                format!(
                    "does not fit: needs {}, {} gives {}",
                    words.en,
                    cap.device,
                    crate::memory::human_bytes(cap.bytes_per_rank)
                ),
                format!(
                    "放不下：需要{}，{} 可用 {}",
                    words.zh,
                    cap.device,
                    crate::memory::human_bytes(cap.bytes_per_rank)
                ),
            )
        })
    });
    Point {
        values,
        config_text: Some(text),
        changes,
        estimate: Some(e),
        trainer,
        pruned: why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"{
  // the preset-like xl run
  "train_micro_batch_size_per_gpu": 8,
  "gradient_accumulation_steps": 16,
  "bf16": {"enabled": true},
  "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}},
  "zero_optimization": {"stage": 2, "overlap_comm": true}
}"#;

    #[test]
    fn a_grid_expands_keeping_the_global_batch_and_prunes_what_does_not_fit() {
        let grid = [
            parse_axis("train_micro_batch_size_per_gpu=4,8,16,32,64,3").unwrap(),
            parse_axis("zero_optimization.stage=0,3").unwrap(),
        ];
        let model = ModelSpec::builtin("xl", false).unwrap();
        let h200 = Capacity {
            bytes_per_rank: crate::memory::usable_gpu_bytes(150_110_011_392),
            device: "NVIDIA H200 · 139.8 GiB".into(),
            host: false,
            host_bytes_per_node: 0,
        };
        let ctx = Context::default();
        let points = expand(BASE, &ctx, 1, &grid, true, Some((&model, Some(&h200)))).unwrap();
        assert_eq!(points.len(), 12);
        assert_eq!(points[0].values[0].1, 4);
        assert_eq!(points[1].values[1].1, 3, "the last key varies fastest");
        let micro16_stage3 = &points[5];
        let c = &micro16_stage3.changes;
        let keys: Vec<&str> = c.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(
            keys,
            [MICRO, "zero_optimization.stage", ACCUMULATION],
            "{c:?}"
        );
        assert_eq!((c[2].from.clone(), c[2].to.clone()), (16.into(), 8.into()));
        for p in &points {
            let micro = p.values[0].1.as_u64().unwrap();
            match micro {
                3 => assert!(p
                    .pruned
                    .as_ref()
                    .unwrap()
                    .en
                    .contains("does not divide the 128")),
                // 64 × xl activations (about 130 GiB) are over the card.
                64 => assert!(
                    p.pruned.as_ref().unwrap().en.starts_with("does not fit"),
                    "{p:?}"
                ),
                _ => {
                    assert!(p.pruned.is_none(), "{p:?}");
                    let v = Document::parse(p.config_text.as_ref().unwrap())
                        .to_value()
                        .unwrap();
                    assert_eq!(
                        v[MICRO].as_u64().unwrap() * v[ACCUMULATION].as_u64().unwrap(),
                        128
                    );
                    assert!(p
                        .config_text
                        .as_ref()
                        .unwrap()
                        .contains("// the preset-like xl run"));
                    assert!(p.estimate.as_ref().unwrap().gpu_peak_bytes <= h200.bytes_per_rank);
                }
            }
        }
    }

    #[test]
    fn bad_grids_are_named() {
        assert!(parse_axis("stage").is_err());
        assert!(parse_axis("zero_optimization.stage=").is_err());
        assert!(parse_axis("../etc=1").is_err());
        let a = parse_axis("zero_optimization.offload_optimizer.device=cpu,none").unwrap();
        assert_eq!(a.values, vec![Value::from("cpu"), Value::from("none")]);
        // Lists of lists are values; a key given twice, a misspelt key and a fractional micro
        // batch are named.
        let betas = parse_axis("optimizer.params.betas=[0.9,0.95],[0.8,0.9]").unwrap();
        assert_eq!(betas.values.len(), 2);
        assert_eq!(betas.values[0], serde_json::json!([0.9, 0.95]));
        let ctx0 = Context::default();
        let twice = [
            parse_axis("train_micro_batch_size_per_gpu=4").unwrap(),
            parse_axis("train_micro_batch_size_per_gpu=8").unwrap(),
        ];
        assert!(expand(BASE, &ctx0, 1, &twice, false, None)
            .unwrap_err()
            .0
            .en
            .contains("given twice"));
        let typo = [parse_axis("zero_optimisation.stage=0,1").unwrap()];
        let e = expand(BASE, &ctx0, 1, &typo, false, None).unwrap_err();
        assert!(
            e.0.en
                .contains("not a DeepSpeed config key; did you mean `zero_optimization.stage`?"),
            "{e}"
        );
        let frac = [parse_axis("train_micro_batch_size_per_gpu=4.5,4").unwrap()];
        let p = expand(BASE, &ctx0, 1, &frac, true, None).unwrap();
        assert!(
            p[0].pruned
                .as_ref()
                .unwrap()
                .en
                .contains("not a whole number"),
            "{:?}",
            p[0]
        );
        assert!(p[1].pruned.is_none());
        let long = "x".repeat(5000);
        assert!(parse_axis(&long).unwrap_err().0.en.len() < 200);
        let big: Vec<Axis> = (0..3)
            .map(|i| Axis {
                key: format!("k{i}"),
                values: (0..10).map(Value::from).collect(),
            })
            .collect();
        let ctx = Context::default();
        let e = expand(BASE, &ctx, 1, &big, false, None).unwrap_err();
        assert!(e.0.en.contains("more than 256 points"), "{e}");
        assert!(expand("[1]", &ctx, 1, &big[..1], false, None).is_err());
        // A value DeepSpeed rejects is pruned with its reason, not dropped.
        let stage = [parse_axis("zero_optimization.stage=2,7").unwrap()];
        let points = expand(BASE, &ctx, 1, &stage, false, None).unwrap();
        assert!(points[0].pruned.is_none());
        assert!(
            points[1]
                .pruned
                .as_ref()
                .unwrap()
                .en
                .starts_with("DeepSpeed would reject it"),
            "{:?}",
            points[1]
        );
    }

    /// Issue 49: under the HF Trainer a micro batch sweep wrote the config's key and left the
    /// trainer's `per_device_train_batch_size`, so every other point was an HF mismatch ("0 of
    /// 16 points will run"). It changes the trainer's argument and keeps `"auto"`.
    #[test]
    fn under_the_hf_trainer_a_micro_batch_sweep_changes_the_trainer_arguments() {
        use crate::launcher::TrainerArgs;
        use crate::validate::Launcher;
        let base = r#"{
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "bf16": {"enabled": "auto"},
  "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},
  "zero_optimization": {"stage": 2}
}"#;
        let ctx = Context {
            launcher: Launcher::HfTrainer,
            trainer: Some(TrainerArgs {
                per_device_train_batch_size: Some(2),
                gradient_accumulation_steps: Some(4),
                bf16: Some(true),
                ..TrainerArgs::default()
            }),
            ..Context::default()
        };
        let grid = [parse_axis("train_micro_batch_size_per_gpu=1,2,4,8,3").unwrap()];
        let points = expand(base, &ctx, 1, &grid, true, None).unwrap();
        for p in &points {
            let m = p.values[0].1.as_u64().unwrap();
            if m == 3 {
                assert!(p
                    .pruned
                    .as_ref()
                    .unwrap()
                    .en
                    .contains("does not divide the 8"));
                continue;
            }
            assert!(p.pruned.is_none(), "{m}: {:?}", p.pruned);
            let text = p.config_text.as_ref().unwrap();
            assert_eq!(text, base, "the config keeps \"auto\"");
            let args = p.trainer.as_ref().expect("the point's trainer arguments");
            assert_eq!(args.per_device_train_batch_size, Some(m));
            assert_eq!(
                args.gradient_accumulation_steps,
                Some(8 / m),
                "8 samples kept"
            );
            assert_eq!(args.bf16, Some(true), "the rest of the arguments kept");
            let keys: Vec<&str> = p.changes.iter().map(|c| c.key.as_str()).collect();
            if m != 2 {
                assert!(
                    keys.contains(&"trainer.per_device_train_batch_size"),
                    "{keys:?}"
                );
            }
        }
        // Trainer arguments by name, and the config key HF fills for the learning rate.
        let by_name = [
            parse_axis("per_device_train_batch_size=2,4").unwrap(),
            parse_axis("optimizer.params.lr=1e-5,3e-5").unwrap(),
        ];
        let points = expand(base, &ctx, 1, &by_name, false, None).unwrap();
        assert_eq!(points.len(), 4);
        for p in &points {
            assert!(p.pruned.is_none(), "{:?}", p.pruned);
            let args = p.trainer.as_ref().unwrap();
            assert_eq!(args.per_device_train_batch_size, p.values[0].1.as_u64());
            assert_eq!(args.learning_rate, p.values[1].1.as_f64());
            assert_eq!(p.config_text.as_deref(), Some(base));
        }
        // A config that writes the micro batch as a number: both change, so they match.
        let literal = base.replace(
            r#""train_micro_batch_size_per_gpu": "auto""#,
            r#""train_micro_batch_size_per_gpu": 2"#,
        );
        let points = expand(&literal, &ctx, 1, &grid[..], false, None).unwrap();
        let four = points.iter().find(|p| p.values[0].1 == 4).unwrap();
        assert!(four.pruned.is_none(), "{:?}", four.pruned);
        let v = Document::parse(four.config_text.as_ref().unwrap())
            .to_value()
            .unwrap();
        assert_eq!(v[MICRO], 4);
        assert_eq!(
            four.trainer.as_ref().unwrap().per_device_train_batch_size,
            Some(4)
        );
        // Under DeepSpeed's own launcher a trainer argument is named as one.
        let plain = Context::default();
        let e = expand(BASE, &plain, 1, &by_name[..1], false, None).unwrap_err();
        assert!(
            e.0.en.contains("is a training argument of the HF Trainer"),
            "{e}"
        );
        // What saving the best point keeps: the changed arguments, onto the head's.
        let planned = ctx.trainer.clone().unwrap();
        let ran = TrainerArgs {
            per_device_train_batch_size: Some(4),
            gradient_accumulation_steps: Some(2),
            ..planned.clone()
        };
        let head = TrainerArgs {
            learning_rate: Some(1e-5),
            ..planned.clone()
        };
        let saved = carry_trainer_changes(Some(&planned), Some(&ran), Some(&head)).unwrap();
        assert_eq!(
            (
                saved.per_device_train_batch_size,
                saved.gradient_accumulation_steps,
                saved.learning_rate
            ),
            (Some(4), Some(2), Some(1e-5))
        );
        assert_eq!(
            carry_trainer_changes(Some(&planned), Some(&planned), Some(&head)),
            Some(head)
        );
    }
}
