//! Elasticity (releases before 0.19.8, which removed it): with `elasticity.enabled`,
//! `DeepSpeedConfig` computes the elastic batch at parse (`deepspeed/elasticity/elasticity.py`,
//! `compute_elastic_config`) and rejects configs and world sizes it cannot serve. Mirrored with
//! Python's arithmetic, DeepSpeed's own messages.

use super::super::view::Py;
use super::super::{Diagnostic, View};
use super::ptr;
use crate::document::Node;
use crate::i18n::Text;

/// DeepSpeed's highly composite numbers (`HCN_LIST`).
const HCN: &[u64] = &[
    1, 2, 4, 6, 12, 24, 36, 48, 60, 120, 180, 240, 360, 720, 840, 1260, 1680, 2520, 5040, 7560,
    10080, 15120, 20160, 25200, 27720, 45360, 50400, 55440, 83160, 110880, 166320, 221760, 277200,
    332640, 498960, 554400, 665280, 720720,
];

/// An elasticity failure: where, and DeepSpeed's message.
struct Fail(&'static str, String);

fn fail(key: &'static str, msg: impl Into<String>) -> Fail {
    Fail(key, msg.into())
}

/// Runs the elastic computation when this release reads an enabled `elasticity` section.
/// Returns true when it did (the batch triple is then elasticity's, not the config's, and the
/// batch rules must not run).
pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) -> bool {
    let Some(section) = view.get("elasticity").filter(|n| n.is_object()) else {
        return false;
    };
    let get = |k: &str| section.member(k).map(|m| Py::of(&m.value));
    if !get("enabled").is_some_and(|p| p.truthy()) {
        return false;
    }
    let world = world_size(view);
    match compute(view, section, world) {
        Ok((batch, micro)) => check_batch(view, section, batch, micro, world, out),
        Err(Fail(key, msg)) => out.push(Diagnostic::error(
            "elasticity",
            &if key.is_empty() {
                ptr("elasticity")
            } else {
                ptr(&format!("elasticity.{key}"))
            },
            Text::new(
                format!("{msg} (DeepSpeed {}, elastic training)", view.release),
                format!("弹性训练配置无效：{msg}（DeepSpeed {}）", view.release),
            ),
        )),
    }
    true
}

/// The world size `DeepSpeedConfig` uses (divided by a dict's `sequence_parallel_size`).
fn world_size(view: &View) -> f64 {
    let mut ws = view.ctx.data_parallel_size();
    if view.ctx.sequence_parallel <= 1 && view.ctx.dict_input() {
        if let Some(sp) = view
            .py("sequence_parallel_size")
            .and_then(|p| p.num())
            .filter(|v| *v != 0.0)
        {
            ws /= sp;
        }
    }
    ws
}

fn num(p: &Py, key: &'static str) -> Result<f64, Fail> {
    p.num().ok_or_else(|| {
        fail(
            key,
            format!(
                "TypeError: '<' not supported between instances of '{}' and 'int' ({key} = {})",
                match p {
                    Py::Str(_) => "str",
                    Py::List => "list",
                    Py::Dict => "dict",
                    Py::None => "NoneType",
                    _ => "object",
                },
                p.show()
            ),
        )
    })
}

/// `ElasticityConfig(...)` and `compute_elastic_config(...)`: (final batch size, micro batch).
fn compute(view: &View, section: &Node, world: f64) -> Result<(u64, u64), Fail> {
    let get = |k: &str| section.member(k).map(|m| Py::of(&m.value));
    let max_batch = get("max_train_batch_size").ok_or_else(|| {
        fail(
            "",
            "ElasticityConfigError: Elasticity config missing max_train_batch_size",
        )
    })?;
    let micro = section.member("micro_batch_sizes").ok_or_else(|| {
        fail(
            "",
            "ElasticityConfigError: Elasticity config missing micro_batch_sizes",
        )
    })?;
    let crate::document::Kind::Array(items) = &micro.value.kind else {
        return Err(fail("micro_batch_sizes", format!("ElasticityConfigError: Elasticity expected value of micro_batch_sizes to be a list of micro batches, instead is: {}", Py::of(&micro.value).show())));
    };
    // isinstance(m, int): JSON integers and booleans.
    let mut micro_batches = Vec::new();
    for item in items {
        match Py::of(item) {
            Py::Int(v) => micro_batches.push(v),
            Py::Bool(b) => micro_batches.push(if b { 1.0 } else { 0.0 }),
            _ => return Err(fail("micro_batch_sizes", "ElasticityConfigError: Elasticity expected micro_batch_sizes to only contain a list of integers")),
        }
    }
    if micro_batches.iter().any(|m| *m <= 0.0) {
        return Err(fail(
            "micro_batch_sizes",
            "ElasticityConfigError: Elasticity expected micro_batch_sizes to only contain positive integers",
        ));
    }
    let int_or = |k: &'static str, default: f64| match get(k) {
        None => Ok(default),
        Some(p) => num(&p, k),
    };
    let min_gpus = int_or("min_gpus", 1.0)?;
    let max_gpus = int_or("max_gpus", 10000.0)?;
    if min_gpus < 1.0 || max_gpus < 1.0 {
        return Err(fail("min_gpus", format!("ElasticityConfigError: Elasticity min/max gpus must be > 0, given min_gpus: {min_gpus}, max_gpus: {max_gpus}")));
    }
    if max_gpus < min_gpus {
        return Err(fail("max_gpus", format!("ElasticityConfigError: Elasticity min_gpus cannot be greater than max_gpus, given min_gpus: {min_gpus}, max_gpus: {max_gpus}")));
    }
    let mp = int_or("model_parallel_size", 1.0)?;
    if mp < 1.0 {
        return Err(fail(
            "model_parallel_size",
            format!("ElasticityConfigError: Model-Parallel size cannot be less than 1, given model-parallel size: {mp}"),
        ));
    }
    let per_node = int_or("num_gpus_per_node", 1.0)?;
    if per_node < 1.0 {
        return Err(fail("num_gpus_per_node", format!("ElasticityConfigError: Number of GPUs per node cannot be less than 1, given number of GPUs per node: {per_node}")));
    }
    let min_time = int_or("min_time", 0.0)?;
    if min_time < 0.0 {
        return Err(fail(
            "min_time",
            format!(
                "ElasticityConfigError: Elasticity min time needs to be >= 0: given {min_time}"
            ),
        ));
    }
    // float(version): numbers and numeric strings.
    let version = match get("version") {
        None => 0.2,
        Some(Py::Str(s)) => s.trim().parse::<f64>().map_err(|_| {
            fail(
                "version",
                format!("ValueError: could not convert string to float: '{s}'"),
            )
        })?,
        Some(p) => num(&p, "version")?,
    };
    let prefer_larger = get("prefer_larger_batch").is_none_or(|p| p.truthy());
    if mp > 1.0 && version != 0.2 {
        return Err(fail("model_parallel_size", format!("ElasticityConfigError: Elasticity V{version} does not support model-parallel training. Given model-parallel size: {mp}")));
    }
    if version > 0.2 {
        return Err(fail("version", format!("ElasticityConfigError: Attempting to run elasticity version {version} but runtime only supports up to 0.2")));
    }
    let max_batch = num(&max_batch, "max_train_batch_size")?;
    let micro: Vec<u64> = micro_batches.iter().map(|m| *m as u64).collect();
    let (final_batch, valid) = if version == 0.1 {
        v01(&micro, max_batch, min_gpus, max_gpus, prefer_larger)?
    } else if version == 0.2 {
        v02(
            &micro,
            max_batch,
            world,
            min_gpus,
            max_gpus,
            prefer_larger,
            per_node,
            mp,
        )?
    } else {
        return Err(fail(
            "version",
            format!("NotImplementedError: Unable to find elastic logic for version: {version}"),
        ));
    };
    let _ = view;
    if world > 0.0 {
        if !valid.iter().any(|g| *g as f64 == world) {
            return Err(fail("", format!("ElasticityIncompatibleWorldSize: World size ({world}) is not valid with the current list of valid GPU counts: {valid:?}")));
        }
        let mut sorted = micro.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let per_rank = (final_batch as f64 / world).floor() as u64;
        let chosen = sorted
            .iter()
            .rev()
            .find(|m| per_rank.is_multiple_of(**m))
            .copied()
            .ok_or_else(|| fail("micro_batch_sizes", format!("AssertionError: Unable to find divisible micro batch size world_size={world}, final_batch_size={final_batch}, and micro_batches={micro:?}.")))?;
        return Ok((final_batch, chosen));
    }
    Ok((final_batch, micro[0]))
}

fn lcm(a: u64, b: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    if a == 0 || b == 0 {
        0
    } else {
        // Past 64 bits the base is larger than any acceptable batch (and skipped).
        (a / gcd(a, b)).saturating_mul(b)
    }
}

/// Most divisors tried per micro batch when listing valid GPU counts: DeepSpeed walks up to
/// `min(batch / micro / 2, max_gpus)`, which a hostile config makes 10^18 steps; GPU counts
/// past a million are never a world size ds-studio judges.
const MAX_GPU_COUNT: u64 = 1_000_000;

fn v01(
    micro: &[u64],
    max_batch: f64,
    min_gpus: f64,
    max_gpus: f64,
    prefer_larger: bool,
) -> Result<(u64, Vec<u64>), Fail> {
    let smallest = *micro.iter().min().unwrap_or(&1);
    // `min_gpus or 1`, `max_gpus or max_acceptable_batch_size // min(micro_batches)`.
    let min_gpus = if min_gpus == 0.0 { 1.0 } else { min_gpus };
    let max_gpus = if max_gpus == 0.0 {
        (max_batch / smallest as f64).floor()
    } else {
        max_gpus
    };
    if micro.iter().any(|m| *m as f64 > max_batch) {
        return Err(fail("max_train_batch_size", format!("ValueError: All micro batches must be less than or equal to max_acceptable_batch_size: {max_batch}")));
    }
    let mut bases: Vec<u64> = micro.to_vec();
    bases.push(micro.iter().fold(1, |acc, m| lcm(acc, *m)));
    let mut candidates: Vec<u64> = Vec::new();
    for base in bases {
        let b = base as f64;
        if b > max_batch {
            continue;
        }
        let c = if b == max_batch {
            base
        } else {
            let value = (max_batch / b).floor() as u64;
            // np.argmax(HCN > value): the first index above, 0 when none (then HCN[-1]).
            let index = HCN.iter().position(|h| *h > value).unwrap_or(0);
            let hcn = if index == 0 {
                HCN[HCN.len() - 1]
            } else {
                HCN[index - 1]
            };
            match hcn.checked_mul(base) {
                Some(c) => c,
                None => continue,
            }
        };
        if !candidates.contains(&c) {
            candidates.push(c);
        }
    }
    // Python iterates the set of candidates; ties on the count prefer the larger (or smaller).
    candidates.sort_unstable();
    let mut best_count = 0;
    let mut valid = Vec::new();
    let mut final_batch = smallest;
    for batch in candidates {
        let gpus = valid_gpus(batch, micro, min_gpus, max_gpus);
        let better = gpus.len() > best_count
            || gpus.len() == best_count
                && (prefer_larger && batch > final_batch || !prefer_larger && batch < final_batch);
        if better {
            best_count = gpus.len();
            valid = gpus;
            final_batch = batch;
        }
    }
    Ok((final_batch, valid))
}

fn valid_gpus(batch: u64, micro: &[u64], min_gpus: f64, max_gpus: f64) -> Vec<u64> {
    let mut out = Vec::new();
    for m in micro {
        if !batch.is_multiple_of(*m) {
            continue;
        }
        let most = batch / m;
        if min_gpus <= most as f64 && most as f64 <= max_gpus {
            out.push(most);
        }
        for i in 1..=(most / 2).min(MAX_GPU_COUNT) {
            if i as f64 > max_gpus {
                break;
            }
            if (i as f64) < min_gpus {
                continue;
            }
            if most.is_multiple_of(i) {
                out.push(i);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[allow(clippy::too_many_arguments)]
fn v02(
    micro: &[u64],
    max_batch: f64,
    world: f64,
    min_gpus: f64,
    max_gpus: f64,
    prefer_larger: bool,
    per_node: f64,
    mp: f64,
) -> Result<(u64, Vec<u64>), Fail> {
    if per_node % mp != 0.0 {
        return Err(fail("model_parallel_size", format!("ElasticityError: In Elasticity v0.2, number of GPUs per node:{per_node} should be divisible by model parallel size {mp}")));
    }
    let dp_per_node = (per_node / mp).floor();
    let (batch, valid_world) = v01(
        micro,
        (max_batch / dp_per_node).trunc(),
        (min_gpus / per_node).trunc(),
        (max_gpus / per_node).trunc(),
        prefer_larger,
    )?;
    let final_batch = batch * dp_per_node as u64;
    let valid_dp: Vec<u64> = valid_world.iter().map(|i| i * dp_per_node as u64).collect();
    if valid_dp.iter().any(|g| *g as f64 == (world / mp).floor()) {
        return Ok((final_batch, valid_dp));
    }
    let current_dp = (world / per_node) * dp_per_node;
    let candidates: Vec<f64> = micro
        .iter()
        .map(|m| (max_batch / (*m as f64 * current_dp)).floor() * *m as f64 * current_dp)
        .collect();
    let pick = if prefer_larger {
        candidates.iter().copied().fold(f64::MIN, f64::max)
    } else {
        candidates.iter().copied().fold(f64::MAX, f64::min)
    };
    Ok((pick as u64, vec![current_dp as u64]))
}

/// After the elastic computation: the batch parameters it overrides, and the batch assertion
/// on its triple.
fn check_batch(
    view: &View,
    section: &Node,
    batch: u64,
    micro: u64,
    world: f64,
    out: &mut Vec<Diagnostic>,
) {
    let ignore = section
        .member("ignore_non_elastic_batch_info")
        .is_some_and(|m| Py::of(&m.value).truthy());
    let given: Vec<&str> = [
        "train_batch_size",
        "train_micro_batch_size_per_gpu",
        "gradient_accumulation_steps",
    ]
    .into_iter()
    .filter(|k| view.get(k).is_some())
    .collect();
    if !ignore && !given.is_empty() {
        out.push(Diagnostic::error(
            "elasticity",
            &ptr(given[0]),
            Text::new(
                format!("ElasticityConfigError: One or more batch related parameters were found in your ds_config (train_batch_size, train_micro_batch_size_per_gpu, and/or gradient_accumulation_steps). These parameters *will not be used* since elastic training is enabled (DeepSpeed {}); remove them or set \"ignore_non_elastic_batch_info\": true in `elasticity`", view.release),
                format!("启用弹性训练时 DeepSpeed {} 会自行计算批大小：请删除 {}，或在 `elasticity` 中设置 \"ignore_non_elastic_batch_info\": true", view.release, given.join(", ")),
            ),
        ));
        return;
    }
    let gas = (batch as f64 / (micro as f64 * world)).floor();
    if gas <= 0.0 || (micro as f64 * gas * world - batch as f64).abs() > f64::EPSILON {
        out.push(Diagnostic::error(
            "batch-mismatch",
            &ptr("elasticity"),
            Text::new(
                format!("Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size {batch} != {micro} * {gas} * {world} (the elastic batch, DeepSpeed {})", view.release),
                format!("弹性训练计算出的批大小不一致：{batch} != {micro} × {gas} × {world}"),
            ),
        ));
    }
}
