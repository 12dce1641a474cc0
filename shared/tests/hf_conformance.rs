//! Conformance with the Hugging Face launchers: for every corpus config (world sizes 1 and 8)
//! and our own probes, under the HF Trainer (argument variants defaults, bf16-mbs1, matched)
//! and Accelerate without the Trainer (defaults, bf16-mbs1), the validator's verdict is HF's
//! (HF's processing, then DeepSpeed 0.19.8's parse of the dict HF hands over).
//!
//! Ground truth: `tests/fixtures/hf/verdicts.jsonl`, written by `tools/hf/verdicts.py` with
//! `../shared/tools/hf-oracle` (transformers 5.23, accelerate 1.15, DeepSpeed 0.19.8). Each row
//! records the arguments the run used; the oracle's run has 64 training examples on one process
//! and a model with hidden size 64, which the context states as `train_samples = 64 × world`
//! (the same per-rank dataloader) and `hidden_size = 64`.
//!
//! Disagreements are listed. `tests/fixtures/hf/known_gaps.txt` is a ratchet: a new
//! disagreement fails, and so does a listed one that now agrees.

use ds_studio_shared::launcher::TrainerArgs;
use ds_studio_shared::validate::{validate, verdict, Context, Launcher};
use ds_studio_shared::{Document, Severity, Verdict};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("DS_SHARED_DIR") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hf")
        .join(name)
}

/// Parse-accepted by DeepSpeed, refused when its engine starts, for a reason the config alone
/// decides (as in `conformance.rs`): the validator reports them as errors by design.
const ENGINE_REJECTS: &[&str] = &[
    "bigscience-workshop__Megatron-DeepSpeed__examples__curriculum_learning__ds_config_cl.json",
    "microsoft__Megatron-DeepSpeed__examples_deepspeed__curriculum_learning__ds_zero_stage_1_config_curriculum_fixed_linear.json",
    "deepspeedai__DeepSpeedExamples__training__bing_bert__01_adam__nccl__deepspeed_bsz4k_01adam_config_seq128_nccl.json",
    "deepspeedai__DeepSpeedExamples__training__bing_bert__1-bit_adam__nccl__deepspeed_bsz4k_onebitadam_config_seq128_nccl.json",
    "deepspeedai__DeepSpeedExamples__training__bing_bert__1-bit_lamb__nccl__deepspeed_bsz64k_onebitlamb_config_seq128_nccl.json",
    // Accelerate passes warmup_num_steps 0 on (the Trainer compares it with max(1, ...));
    // `hf-oracle run --engine --accelerate`: "ValueError: warmup_num_steps must be a positive
    // integer, got 0" at deepspeed.initialize.
    "warmup-zero-explicit",
];

/// The context of one recorded run.
fn context(row: &Value) -> Context {
    let world = row["world_size"].as_u64().unwrap_or(1) as u32;
    let launcher = if row["launcher"] == "accelerate" {
        Launcher::Accelerate
    } else {
        Launcher::HfTrainer
    };
    let mut args = TrainerArgs::default();
    let given = row
        .get("training_args")
        .or_else(|| row.get("script_args"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (k, v) in &given {
        let text = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let key = match k.as_str() {
            "batch_size" => "per_device_train_batch_size",
            other => other,
        };
        if let Err(e) = args.set(key, &text) {
            // JSON has no NaN: the tool writes Python's repr; only max_grad_norm takes one.
            match (key, text.as_str()) {
                ("max_grad_norm", "nan") => args.max_grad_norm = Some(f64::NAN),
                _ => panic!("{}: {e}", row["id"]),
            }
        }
    }
    args.train_samples = Some(64 * world as u64);
    args.hidden_size = Some(64);
    Context {
        world_size: world,
        launcher,
        accelerator: "cpu".into(),
        trainer: Some(args),
        ..Context::default()
    }
}

fn document(row: &Value, probes: &[Value]) -> Document {
    if row["source"] == "corpus" {
        let path = shared_dir()
            .join("deepspeed/corpus/configs")
            .join(row["id"].as_str().unwrap());
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (is ../shared beside the repo?)", path.display()));
        return Document::parse(&text);
    }
    let probe = probes
        .iter()
        .find(|p| p["id"] == row["id"])
        .unwrap_or_else(|| panic!("probe {} not in probes.jsonl", row["id"]));
    match probe.get("text") {
        Some(Value::String(t)) => Document::parse(t),
        _ => Document::from_value(&probe["config"]),
    }
}

fn label(row: &Value) -> String {
    format!(
        "{} [{} {} world {}]",
        row["id"].as_str().unwrap_or(""),
        row["launcher"].as_str().unwrap_or(""),
        row["args"].as_str().unwrap_or(""),
        row["world_size"]
    )
}

#[test]
fn hf_launchers_match_hf() {
    let rows: Vec<Value> = std::fs::read_to_string(fixture("verdicts.jsonl"))
        .expect("tests/fixtures/hf/verdicts.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let probes: Vec<Value> = std::fs::read_to_string(fixture("probes.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut failures = BTreeSet::new();
    let mut details = Vec::new();
    let (mut total, mut unknown) = (0, 0);
    let mut per = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for row in &rows {
        if row.get("environment") == Some(&Value::Bool(true)) {
            unknown += 1; // the machine's refusal, not the config's
            continue;
        }
        let mut want = if row["verdict"] == "accepted" {
            Verdict::Accepted
        } else {
            Verdict::Rejected
        };
        if want == Verdict::Accepted && ENGINE_REJECTS.contains(&row["id"].as_str().unwrap_or("")) {
            want = Verdict::Rejected;
        }
        let doc = document(row, &probes);
        let diags = validate(&doc, &context(row));
        let got = verdict(&diags);
        total += 1;
        let key = format!(
            "{} {} {}",
            row["source"].as_str().unwrap_or(""),
            row["launcher"].as_str().unwrap_or(""),
            row["args"].as_str().unwrap_or("")
        );
        let e = per.entry(key).or_default();
        e.1 += 1;
        if got == want {
            e.0 += 1;
            continue;
        }
        let ours: Vec<String> = diags
            .iter()
            .filter(|d| got == Verdict::Accepted || d.severity == Severity::Error)
            .take(3)
            .map(|d| {
                format!(
                    "{}[{}] {}: {}",
                    d.severity.as_str(),
                    d.code,
                    d.path,
                    d.message.en
                )
            })
            .collect();
        failures.insert(label(row));
        details.push(format!(
            "{}: HF {want:?} at {} ({}), ours {got:?} {ours:?}",
            label(row),
            row["stage"].as_str().unwrap_or(""),
            row["error"]
                .as_str()
                .unwrap_or("")
                .chars()
                .take(200)
                .collect::<String>()
        ));
    }
    for (k, (agree, n)) in &per {
        println!("{k}: {agree}/{n} agree with HF");
    }
    println!(
        "HF launchers: {}/{total} agree ({unknown} runs the oracle marks as the machine's, not counted)",
        total - failures.len()
    );
    assert!(total > 1000, "too few recorded runs: {total}");
    let known: BTreeSet<String> = std::fs::read_to_string(fixture("known_gaps.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    let new: Vec<&String> = details
        .iter()
        .filter(|d| !known.iter().any(|k| d.starts_with(&format!("{k}:"))))
        .collect();
    assert!(
        new.is_empty(),
        "{} disagreement(s) with HF not in known_gaps.txt:\n{}",
        new.len(),
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let fixed: Vec<&String> = known.iter().filter(|k| !failures.contains(*k)).collect();
    assert!(
        fixed.is_empty(),
        "{} known gap(s) now agree with HF: remove them from known_gaps.txt:\n{:?}",
        fixed.len(),
        fixed
    );
}
