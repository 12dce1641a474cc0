//! Table-driven tests: one row per diagnostic code (and per rule variant), each with a config
//! that must raise it and, where it makes sense, the smallest change that must silence it.
//!
//! A row names the code, the severity, the JSON pointer the diagnostic must carry and the
//! context it runs in. The conformance suite (`conformance.rs`) checks verdicts against
//! DeepSpeed itself; this file pins down *which* diagnostic explains each verdict.

use ds_studio_shared::validate::{validate_text, verdict, Context, Launcher, Severity, Verdict};

#[derive(Clone, Copy)]
enum Ctx {
    Default,
    World(u32),
    Hf,
    HfSaves,
    Gpu(f64),
    Pipeline(u32),
}

impl Ctx {
    fn build(self) -> Context {
        match self {
            Ctx::Default => Context::default(),
            Ctx::World(n) => Context::with_world_size(n),
            Ctx::Hf => Context {
                launcher: Launcher::HfTrainer,
                ..Context::default()
            },
            Ctx::HfSaves => Context {
                launcher: Launcher::HfTrainer,
                saves_hf_model: Some(true),
                ..Context::default()
            },
            Ctx::Gpu(g) => Context {
                gpu_memory_gib: Some(g),
                ..Context::default()
            },
            Ctx::Pipeline(pp) => Context {
                world_size: 2 * pp,
                pipeline_parallel: pp,
                ..Context::default()
            },
        }
    }
}

struct Row {
    name: &'static str,
    config: &'static str,
    ctx: Ctx,
    code: &'static str,
    severity: Severity,
    path: &'static str,
    /// The same config corrected: must not raise `code` at all.
    fixed: Option<&'static str>,
}

const fn row(
    name: &'static str,
    config: &'static str,
    ctx: Ctx,
    code: &'static str,
    severity: Severity,
    path: &'static str,
    fixed: Option<&'static str>,
) -> Row {
    Row {
        name,
        config,
        ctx,
        code,
        severity,
        path,
        fixed,
    }
}

use Severity::{Error as E, Info as I, Warning as W};

#[rustfmt::skip]
fn rows() -> Vec<Row> {
    vec![
        // --- the document itself -------------------------------------------------------
        row("syntax error", r#"{"train_batch_size": }"#, Ctx::Default, "syntax", E, "", Some(r#"{"train_batch_size": 1}"#)),
        row("duplicate key", r#"{"train_batch_size": 1, "train_batch_size": 2}"#, Ctx::Default, "duplicate-key", E, "/train_batch_size", Some(r#"{"train_batch_size": 2}"#)),
        row("top level is an array", "[1, 2]", Ctx::Default, "not-an-object", E, "", Some(r#"{"train_batch_size": 1}"#)),
        // --- batch arithmetic ----------------------------------------------------------
        row("no batch size at all", r#"{"fp16": {"enabled": true}}"#, Ctx::Default, "batch-size", E, "", Some(r#"{"train_batch_size": 1}"#)),
        row("triple does not multiply", r#"{"train_batch_size": 10, "train_micro_batch_size_per_gpu": 3, "gradient_accumulation_steps": 1}"#, Ctx::World(2), "batch-mismatch", E, "/train_batch_size", Some(r#"{"train_batch_size": 6, "train_micro_batch_size_per_gpu": 3, "gradient_accumulation_steps": 1}"#)),
        row("sequence_parallel_size above the world size (a dict: HF)", r#"{"train_micro_batch_size_per_gpu": 8, "sequence_parallel_size": 2}"#, Ctx::Hf, "sp-not-dividing", W, "/sequence_parallel_size", Some(r#"{"train_micro_batch_size_per_gpu": 8, "sequence_parallel_size": 1}"#)),
        row("removed 1-bit optimizer", r#"{"train_batch_size": 8, "optimizer": {"type": "OneBitAdam", "params": {"lr": 0.001, "freeze_step": 400, "cuda_aware": false, "comm_backend_name": "nccl"}}}"#, Ctx::World(1), "optimizer-not-in-release", E, "/optimizer/type", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "Adam", "params": {"lr": 0.001}}}"#)),
        row("removed 1-bit Lamb", r#"{"train_batch_size": 8, "optimizer": {"type": "OneBitLamb", "params": {"lr": 0.001, "max_coeff": 0.3}}}"#, Ctx::World(1), "optimizer-not-in-release", E, "/optimizer/type", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "Lamb", "params": {"lr": 0.001, "max_coeff": 0.3}}}"#)),
        row("global batch kept by the accumulation", r#"{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4}"#, Ctx::World(2), "batch-mismatch", E, "/train_batch_size", Some(r#"{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8}"#)),
        row("batch not divisible by world size", r#"{"train_batch_size": 6, "gradient_accumulation_steps": 4}"#, Ctx::World(1), "batch-mismatch", E, "/train_batch_size", Some(r#"{"train_batch_size": 8, "gradient_accumulation_steps": 4}"#)),
        row("zero batch size", r#"{"train_batch_size": 0}"#, Ctx::Default, "batch-size", E, "/train_batch_size", Some(r#"{"train_batch_size": 1}"#)),
        // --- types and values ----------------------------------------------------------
        row("float for an int in a strict section", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 1.5}}"#, Ctx::Default, "invalid-type", E, "/zero_optimization/stage", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 1}}"#)),
        row("stage out of range", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 4}}"#, Ctx::Default, "invalid-value", E, "/zero_optimization/stage", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3}}"#)),
        row("section is a number", r#"{"train_batch_size": 8, "zero_optimization": 3}"#, Ctx::Default, "section-not-object", E, "/zero_optimization", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3}}"#)),
        row("unknown key in a strict section", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "overlap_com": true}}"#, Ctx::Default, "unknown-key", E, "/zero_optimization/overlap_com", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "overlap_comm": true}}"#)),
        row("top-level key inside a section", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "gradient_clipping": 1.0}}"#, Ctx::Default, "unknown-key", E, "/zero_optimization/gradient_clipping", Some(r#"{"train_batch_size": 8, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}}"#)),
        row("section key at the top level", r#"{"train_batch_size": 8, "fp16": {"enabled": true}, "loss_scale": 0}"#, Ctx::Default, "unknown-key", W, "/loss_scale", Some(r#"{"train_batch_size": 8, "fp16": {"enabled": true, "loss_scale": 0}}"#)),
        row("top-level key inside a section and at the top", r#"{"train_batch_size": 8, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2, "gradient_clipping": 1.0}}"#, Ctx::Default, "unknown-key", E, "/zero_optimization/gradient_clipping", Some(r#"{"train_batch_size": 8, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}}"#)),
        row("batch size written as a string", r#"{"train_batch_size": 8, "train_micro_batch_size_per_gpu": "8"}"#, Ctx::Default, "batch-size", E, "/train_micro_batch_size_per_gpu", Some(r#"{"train_batch_size": 8, "train_micro_batch_size_per_gpu": 8}"#)),
        row("the HF Trainer's name for lr", r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"learning_rate": 1e-4}}}"#, Ctx::Default, "unknown-optimizer-param", E, "/optimizer/params/learning_rate", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}}"#)),
        row("unknown top-level key", r#"{"train_batch_size": 8, "gradient_acumulation_steps": 1}"#, Ctx::Default, "unknown-key", W, "/gradient_acumulation_steps", Some(r#"{"train_batch_size": 8, "gradient_accumulation_steps": 1}"#)),
        row("removed in 0.19.8", r#"{"train_batch_size": 8, "elasticity": {"enabled": false}}"#, Ctx::Default, "removed-key", E, "/elasticity", Some(r#"{"train_batch_size": 8}"#)),
        row("number written as a string", r#"{"train_batch_size": 8, "zero_optimization": {"stage": "3"}}"#, Ctx::Default, "coerced-value", W, "/zero_optimization/stage", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3}}"#)),
        row("boolean for a number", r#"{"train_batch_size": 8, "fp16": {"enabled": true, "initial_scale_power": true}}"#, Ctx::Default, "coerced-value", W, "/fp16/initial_scale_power", Some(r#"{"train_batch_size": 8, "fp16": {"enabled": true, "initial_scale_power": 1}}"#)),
        row("boolean written as a string", r#"{"train_batch_size": 8, "fp16": {"enabled": "true"}}"#, Ctx::Default, "bool-as-string", W, "/fp16/enabled", Some(r#"{"train_batch_size": 8, "fp16": {"enabled": true}}"#)),
        // --- deprecations and aliases --------------------------------------------------
        row("deprecated key", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "cpu_offload_param": true}}"#, Ctx::Default, "deprecated-key", W, "/zero_optimization/cpu_offload_param", None),
        row("bfloat16 beside bf16", r#"{"train_batch_size": 8, "bf16": {"enabled": true}, "bfloat16": {"enabled": false}}"#, Ctx::Default, "bfloat16-ignored", W, "/bfloat16", Some(r#"{"train_batch_size": 8, "bf16": {"enabled": true}}"#)),
        // --- precision -----------------------------------------------------------------
        row("fp16 and bf16 both on", r#"{"train_batch_size": 8, "fp16": {"enabled": true}, "bf16": {"enabled": true}}"#, Ctx::Default, "fp16-and-bf16", E, "/bf16", Some(r#"{"train_batch_size": 8, "bf16": {"enabled": true}}"#)),
        // --- ZeRO ----------------------------------------------------------------------
        row("stage-3 key below stage 3", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "stage3_max_live_parameters": 1e9}}"#, Ctx::Default, "stage3-only", W, "/zero_optimization/stage3_max_live_parameters", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "stage3_max_live_parameters": 1e9}}"#)),
        row("offload_param below stage 3", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}}}"#, Ctx::Default, "stage3-only", W, "/zero_optimization/offload_param", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}"#)),
        row("ZeRO-3 without gathering weights for save_pretrained", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3}}"#, Ctx::HfSaves, "zero3-save-weights", W, "/zero_optimization", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}"#)),
        // --- "auto" --------------------------------------------------------------------
        row("auto under the plain launcher", r#"{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": 1}"#, Ctx::Default, "auto-unresolved", E, "/train_batch_size", Some(r#"{"train_batch_size": 1, "train_micro_batch_size_per_gpu": 1}"#)),
        // --- optimizer and scheduler ---------------------------------------------------
        row("unknown optimizer param", r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.0, "momentum": 0.9}}}"#, Ctx::Default, "unknown-optimizer-param", E, "/optimizer/params/momentum", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}}"#)),
        row("max_grad_norm in optimizer params", r#"{"train_batch_size": 8, "optimizer": {"type": "Adam", "params": {"lr": 1e-4, "max_grad_norm": 1.0}}}"#, Ctx::Default, "max-grad-norm", E, "/optimizer/params/max_grad_norm", Some(r#"{"train_batch_size": 8, "gradient_clipping": 1.0, "optimizer": {"type": "Adam", "params": {"lr": 1e-4}}}"#)),
        row("optimizer param misspelt", r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "weight_decy": 0.01}}}"#, Ctx::Default, "unknown-optimizer-param", E, "/optimizer/params/weight_decy", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "weight_decay": 0.01}}}"#)),
        row("learning rate written as a string", r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": "3e-4"}}}"#, Ctx::Default, "wrong-type", W, "/optimizer/params/lr", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 3e-4}}}"#)),
        row("scheduler param written as a string", r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {"warmup_max_lr": "0.001"}}}"#, Ctx::Default, "wrong-type", W, "/scheduler/params/warmup_max_lr", Some(r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {"warmup_max_lr": 0.001}}}"#)),
        row("optimizer given as its type name", r#"{"train_batch_size": 8, "optimizer": "AdamW"}"#, Ctx::Default, "section-not-object", E, "/optimizer", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW"}}"#)),
        row("unknown scheduler type", r#"{"train_batch_size": 8, "scheduler": {"type": "Cosine", "params": {}}}"#, Ctx::Default, "unknown-scheduler", E, "/scheduler/type", Some(r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupCosineLR", "params": {"total_num_steps": 100}}}"#)),
        // --- hints ---------------------------------------------------------------------
        row("overlap_comm off", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "overlap_comm": false}}"#, Ctx::Default, "overlap-comm-off", I, "/zero_optimization/overlap_comm", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "overlap_comm": true}}"#)),
        row("contiguous_gradients off", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "contiguous_gradients": false}}"#, Ctx::Default, "contiguous-gradients-off", I, "/zero_optimization/contiguous_gradients", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "contiguous_gradients": true}}"#)),
        row("bucket too large for the GPU", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": 5e9}}"#, Ctx::Gpu(80.0), "bucket-too-large", I, "/zero_optimization/reduce_bucket_size", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}}"#)),
        row("progress printed too rarely", r#"{"train_batch_size": 8, "steps_per_print": 100000}"#, Ctx::Default, "sparse-progress", I, "/steps_per_print", Some(r#"{"train_batch_size": 8, "steps_per_print": 100}"#)),
        row("offload without pinned memory", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": false}}}"#, Ctx::Default, "offload-unpinned", I, "/zero_optimization/offload_optimizer/pin_memory", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": true}}}"#)),
        row("wall-clock breakdown in production", r#"{"train_batch_size": 8, "wall_clock_breakdown": true}"#, Ctx::Default, "wall-clock-breakdown", I, "/wall_clock_breakdown", Some(r#"{"train_batch_size": 8, "wall_clock_breakdown": false}"#)),
        // --- more rows: every remaining code --------------------------------------------
        row("field and its alias both given", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "prefetch_bucket_size": 1000, "stage3_prefetch_bucket_size": 2000}}"#, Ctx::Default, "alias-conflict", E, "/zero_optimization/prefetch_bucket_size", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 2000}}"#)),
        row("deprecated key beside its replacement", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "cpu_offload": true, "offload_optimizer": {"device": "cpu"}}}"#, Ctx::Default, "deprecated-conflict", E, "/zero_optimization/cpu_offload", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}"#)),
        row("odd allgather bucket at stage 2", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "allgather_bucket_size": 500000001}}"#, Ctx::Default, "bucket-alignment", E, "/zero_optimization/allgather_bucket_size", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "allgather_bucket_size": 500000000}}"#)),
        row("legacy stage 1", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 1, "legacy_stage1": true}}"#, Ctx::Default, "legacy-stage1", E, "/zero_optimization/legacy_stage1", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 1}}"#)),
        row("partial offload below stage 3", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu", "ratio": 0.5}}}"#, Ctx::Default, "partial-offload-stage", E, "/zero_optimization/offload_optimizer/ratio", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "ratio": 0.5}}}"#)),
        row("ZeRO-2 with pipeline parallelism", r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2}}"#, Ctx::Pipeline(2), "zero-incompatible", E, "/zero_optimization/stage", Some(r#"{"train_batch_size": 8, "zero_optimization": {"stage": 1}}"#)),
        row("prescale gradients with ZeRO-3", r#"{"train_batch_size": 8, "prescale_gradients": true, "zero_optimization": {"stage": 3}}"#, Ctx::Default, "zero-incompatible", E, "/prescale_gradients", Some(r#"{"train_batch_size": 8, "prescale_gradients": false, "zero_optimization": {"stage": 3}}"#)),
        row("fp16 master weights without ZeRO", r#"{"train_batch_size": 8, "fp16": {"enabled": true, "fp16_master_weights_and_grads": true}}"#, Ctx::Default, "master-weights-stage", E, "/fp16/fp16_master_weights_and_grads", Some(r#"{"train_batch_size": 8, "fp16": {"enabled": true, "fp16_master_weights_and_grads": true}, "zero_optimization": {"stage": 2}}"#)),
        row("dynamic loss scale with zero window", r#"{"train_batch_size": 8, "fp16": {"enabled": true, "loss_scale": 0, "loss_scale_window": 0}}"#, Ctx::Default, "loss-scale", E, "/fp16/loss_scale_window", Some(r#"{"train_batch_size": 8, "fp16": {"enabled": true, "loss_scale": 0, "loss_scale_window": 1000}}"#)),
        row("unknown optimizer type", r#"{"train_batch_size": 8, "optimizer": {"type": "Adamw2", "params": {"lr": 1e-4}}}"#, Ctx::Default, "unknown-optimizer", E, "/optimizer/type", Some(r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}}"#)),
        row("untested optimizer with ZeRO", r#"{"train_batch_size": 8, "optimizer": {"type": "SGD", "params": {"lr": 1e-2}}, "zero_optimization": {"stage": 2}}"#, Ctx::Default, "zero-untested-optimizer", E, "/optimizer/type", Some(r#"{"train_batch_size": 8, "zero_allow_untested_optimizer": true, "optimizer": {"type": "SGD", "params": {"lr": 1e-2}}, "zero_optimization": {"stage": 2}}"#)),
        row("scheduler without total_num_steps", r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": 10}}}"#, Ctx::Default, "missing-key", E, "/scheduler/params", Some(r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": 10, "total_num_steps": 100}}}"#)),
        row("negative loss scale (strict range)", r#"{"train_batch_size": 8, "fp16": {"enabled": true, "loss_scale": -1}}"#, Ctx::Default, "out-of-range", E, "/fp16/loss_scale", Some(r#"{"train_batch_size": 8, "fp16": {"enabled": true, "loss_scale": 0}}"#)),
        row("negative gradient clipping (lax range)", r#"{"train_batch_size": 8, "gradient_clipping": -1.0}"#, Ctx::Default, "out-of-range", W, "/gradient_clipping", Some(r#"{"train_batch_size": 8, "gradient_clipping": 1.0}"#)),
        row("string for a number in a lax section", r#"{"train_batch_size": 8, "steps_per_print": "ten"}"#, Ctx::Default, "wrong-type", W, "/steps_per_print", Some(r#"{"train_batch_size": 8, "steps_per_print": 10}"#)),
        row("string gradient_clipping fails at the first step", r#"{"train_batch_size": 8, "gradient_clipping": "1,0"}"#, Ctx::Default, "invalid-type", E, "/gradient_clipping", Some(r#"{"train_batch_size": 8, "gradient_clipping": 1.0}"#)),
        row("vocabulary size not a multiple of 8", r#"{"train_batch_size": 8, "vocabulary_size": 50257}"#, Ctx::Default, "vocab-alignment", W, "/vocabulary_size", Some(r#"{"train_batch_size": 8, "vocabulary_size": 50304}"#)),
        row("steps_per_print without info logging", r#"{"train_batch_size": 8, "steps_per_print": 10}"#, Ctx::Default, "progress-hidden", I, "/steps_per_print", Some(r#"{"train_batch_size": 8, "steps_per_print": 10, "log_level": "info"}"#)),
    ]
}

#[test]
fn every_row_raises_its_code_and_the_fixed_config_does_not() {
    let mut failures = Vec::new();
    let all = rows();
    for r in &all {
        let ctx = r.ctx.build();
        let (_, diags) = validate_text(r.config, &ctx);
        let hit = diags
            .iter()
            .find(|d| d.code == r.code && d.severity == r.severity && d.path == r.path);
        if let Some(d) = hit {
            if d.message.en.is_empty() || d.message.zh.is_empty() {
                failures.push(format!("{}: message missing a language", r.name));
            }
        } else {
            let got: Vec<String> = diags
                .iter()
                .map(|d| format!("{}[{}] at {:?}", d.severity.as_str(), d.code, d.path))
                .collect();
            failures.push(format!(
                "{}: expected {}[{}] at {:?}, got {:?}",
                r.name,
                r.severity.as_str(),
                r.code,
                r.path,
                got
            ));
        }
        // An error row must make the verdict `rejected`.
        if r.severity == Severity::Error && verdict(&diags) != Verdict::Rejected {
            failures.push(format!("{}: verdict should be rejected", r.name));
        }
        if let Some(fixed) = r.fixed {
            let (_, diags) = validate_text(fixed, &ctx);
            if let Some(d) = diags.iter().find(|d| d.code == r.code) {
                failures.push(format!(
                    "{} (fixed): still raises {} at {:?}",
                    r.name, d.code, d.path
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// Every fix the validator offers, applied, must make its own diagnostic disappear.
#[test]
fn every_offered_fix_resolves_its_diagnostic() {
    use ds_studio_shared::document::Document;
    let mut failures = Vec::new();
    let mut applied = 0;
    for r in rows() {
        let ctx = r.ctx.build();
        let (doc, diags) = validate_text(r.config, &ctx);
        for d in diags.iter().filter(|d| d.fix.is_some()) {
            let Ok(fixed) = doc.apply_patch(d.fix.as_ref().unwrap()) else {
                failures.push(format!("{}: fix for {} does not apply", r.name, d.code));
                continue;
            };
            applied += 1;
            let text = fixed.text().to_string();
            let (_, after) = validate_text(&text, &ctx);
            if after.iter().any(|a| a.code == d.code && a.path == d.path) {
                failures.push(format!(
                    "{}: fix for {} at {} leaves it in place:\n{}",
                    r.name, d.code, d.path, text
                ));
            }
            if !Document::parse(&text).errors().is_empty() {
                failures.push(format!("{}: fix for {} breaks the syntax", r.name, d.code));
            }
        }
    }
    assert!(applied >= 10, "only {applied} fixes were offered");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hf_launcher_fills_auto() {
    let cfg = r#"{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "zero_optimization": {"stage": 2}}"#;
    let (_, diags) = validate_text(cfg, &Ctx::Hf.build());
    assert_eq!(verdict(&diags), Verdict::Accepted, "{diags:?}");
    let (_, diags) = validate_text(cfg, &Ctx::Default.build());
    assert_eq!(verdict(&diags), Verdict::Rejected, "{diags:?}");
}

/// A misspelled section beside the real one (`zero_optimisation` next to `zero_optimization`)
/// says so, with its removal as the fix; alone, it is still "did you mean", moved by the fix.
#[test]
fn a_misspelled_twin_of_a_set_key_is_named() {
    let text = r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2}, "zero_optimisation": {"stage": 3}}"#;
    let (_, diags) = validate_text(text, &Context::default());
    let d = diags
        .iter()
        .find(|d| d.code == "unknown-key" && d.path == "/zero_optimisation")
        .expect("the misspelled twin is reported");
    assert!(
        d.message
            .en
            .contains("looks like `zero_optimization`, which is set here too"),
        "{}",
        d.message.en
    );
    assert_eq!(
        d.fix,
        Some(serde_json::json!([{"op": "remove", "path": "/zero_optimisation"}]))
    );
    let alone = r#"{"train_batch_size": 8, "zero_optimisation": {"stage": 3}}"#;
    let (_, diags) = validate_text(alone, &Context::default());
    let d = diags
        .iter()
        .find(|d| d.code == "unknown-key" && d.path == "/zero_optimisation")
        .unwrap();
    assert!(
        d.message.en.contains("did you mean `zero_optimization`"),
        "{}",
        d.message.en
    );
}

/// The first training step's TypeError names the value's own Python type: `'list'` for a
/// list, `'dict'` for an object (it said `'str'` for all three).
#[test]
fn a_late_type_error_names_the_values_python_type() {
    for (value, ty) in [
        ("[1.0]", "list"),
        (r#"{"a": 1}"#, "dict"),
        (r#""1.0""#, "str"),
    ] {
        let text = format!(r#"{{"train_batch_size": 8, "gradient_clipping": {value}}}"#);
        let (_, diags) = validate_text(&text, &Context::default());
        let d = diags
            .iter()
            .find(|d| d.code == "invalid-type" && d.path == "/gradient_clipping")
            .unwrap_or_else(|| panic!("{value}: {diags:?}"));
        let expected = format!("between instances of '{ty}' and 'float'");
        assert!(
            d.message.en.contains(&expected),
            "{value}: {}",
            d.message.en
        );
        assert!(
            d.message.zh.contains(&expected),
            "{value}: {}",
            d.message.zh
        );
    }
}

#[test]
fn a_warning_that_an_error_on_the_same_key_contradicts_is_left_out() {
    // A misspelt scheduler parameter: DeepSpeed's TypeError when it builds the scheduler, not
    // also "reads this section loosely and ignores it".
    let text = r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_step": 10}}}"#;
    let (_, diags) = validate_text(text, &Context::default());
    let here: Vec<_> = diags
        .iter()
        .filter(|d| d.path == "/scheduler/params/warmup_num_step")
        .map(|d| (d.severity, d.code.as_str()))
        .collect();
    assert_eq!(
        here,
        [(Severity::Error, "unknown-scheduler-param")],
        "{diags:?}"
    );
    // A batch size that is not a number: DeepSpeed's TypeError, not also "should be integer".
    let (_, diags) = validate_text(
        r#"{"train_batch_size": "8x", "train_micro_batch_size_per_gpu": 1}"#,
        &Context::default(),
    );
    let here: Vec<_> = diags
        .iter()
        .filter(|d| d.path == "/train_batch_size")
        .map(|d| (d.severity, d.code.as_str()))
        .collect();
    assert_eq!(here, [(Severity::Error, "batch-size")], "{diags:?}");
    // A warning on a key no error names stays.
    let text = r#"{"train_batch_size": 8, "steps_per_prin": 10}"#;
    let (_, diags) = validate_text(text, &Context::default());
    assert!(
        diags.iter().any(|d| d.severity == Severity::Warning
            && d.code == "unknown-key"
            && d.path == "/steps_per_prin"),
        "{diags:?}"
    );
}

#[test]
fn an_unknown_key_that_is_known_in_another_section_says_where_it_belongs() {
    let text = r#"{"train_batch_size": 8, "loss_scale": 0, "zero_optimization": {"stage": 2, "gradient_clipping": 1.0, "pin_memory": true}}"#;
    let (_, diags) = validate_text(text, &Context::default());
    let message = |path: &str| {
        diags
            .iter()
            .find(|d| d.code == "unknown-key" && d.path == path)
            .map(|d| d.message.clone())
            .unwrap_or_else(|| panic!("{path}: {diags:?}"))
    };
    let m = message("/loss_scale");
    assert!(m.en.ends_with("; it belongs in `fp16`"), "{}", m.en);
    // No `fp16` section to move it into: no fix; the top level always takes one.
    let fix_of = |path: &str| {
        diags
            .iter()
            .find(|d| d.path == path)
            .and_then(|d| d.fix.clone())
    };
    assert_eq!(fix_of("/loss_scale"), None);
    assert_eq!(
        fix_of("/zero_optimization/gradient_clipping"),
        Some(
            serde_json::json!([{"op": "move", "from": "/zero_optimization/gradient_clipping", "path": "/gradient_clipping"}])
        )
    );
    assert!(m.zh.ends_with("；它应放在 `fp16` 中"), "{}", m.zh);
    let m = message("/zero_optimization/gradient_clipping");
    assert!(m.en.ends_with("; it belongs at the top level"), "{}", m.en);
    assert!(m.zh.ends_with("；它应放在顶层"), "{}", m.zh);
    let m = message("/zero_optimization/pin_memory");
    // Of the sections that have it, those inside this one.
    assert!(
        m.en.ends_with(
            "it belongs in `zero_optimization.offload_param` or `zero_optimization.offload_optimizer`"
        ),
        "{}",
        m.en
    );
    // A key no section has gets no such hint.
    let (_, diags) = validate_text(
        r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "qqqq_zzzz": 1}}"#,
        &Context::default(),
    );
    assert!(
        diags.iter().all(|d| !d.message.en.contains("belongs")),
        "{diags:?}"
    );
}

#[test]
fn chinese_messages_name_types_in_chinese() {
    let (_, diags) = validate_text(
        r#"{"train_batch_size": 8, "gradient_clipping": "1.0", "zero_optimization": 5}"#,
        &Context::default(),
    );
    let zh = |code: &str| {
        diags
            .iter()
            .find(|d| d.code == code)
            .map(|d| d.message.zh.clone())
            .unwrap_or_else(|| panic!("{code}: {diags:?}"))
    };
    assert!(
        zh("invalid-type").contains("应为数字，实际为字符串 '1.0'"),
        "{}",
        zh("invalid-type")
    );
    assert!(
        zh("section-not-object").ends_with("实际是整数"),
        "{}",
        zh("section-not-object")
    );
    // The parser's own errors too.
    let (_, diags) = validate_text("{\"a\": [1, 2", &Context::default());
    assert!(
        diags[0].message.zh.contains("文档意外结束：缺少 ']'"),
        "{diags:?}"
    );
}

#[test]
fn every_batch_value_that_is_not_a_number_is_named_at_once() {
    let (_, diags) = validate_text(
        r#"{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "4"}"#,
        &Context::default(),
    );
    let named: Vec<(&str, &str)> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code.as_str(), d.path.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            ("auto-unresolved", "/train_batch_size"),
            ("auto-unresolved", "/train_micro_batch_size_per_gpu"),
            ("batch-size", "/gradient_accumulation_steps"),
        ],
        "{diags:?}"
    );
}

#[test]
fn a_boolean_written_as_a_string_says_what_deepspeed_makes_of_it() {
    let (_, diags) = validate_text(
        r#"{"train_batch_size": 8, "fp16": {"enabled": "false"}}"#,
        &Context::default(),
    );
    let d = diags
        .iter()
        .find(|d| d.code == "bool-as-string")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert!(
        d.message.en.contains("turns it into false; write false"),
        "{}",
        d.message.en
    );
    assert!(d.message.zh.contains("转成 false"), "{}", d.message.zh);
}

#[test]
fn a_typo_suggestion_needs_more_than_a_shared_prefix() {
    // `warmup_type` shares `warmup_` with WarmupLR's `warmup_max_lr`, nothing else: no "did
    // you mean", no rename; what WarmupCosineLR does instead is said.
    let (_, diags) = validate_text(
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupCosineLR", "params": {"total_num_steps": 100, "warmup_max_lr": 1e-4}}}"#,
        &Context::default(),
    );
    let d = diags
        .iter()
        .find(|d| d.path == "/scheduler/params/warmup_max_lr")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert!(!d.message.en.contains("did you mean"), "{}", d.message.en);
    assert!(
        d.message.en.contains("warms up to the optimizer's `lr`"),
        "{}",
        d.message.en
    );
    assert_eq!(d.fix, None);
    // A real typo still gets its suggestion.
    let (_, diags) = validate_text(
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupCosineLR", "params": {"total_num_steps": 100, "warmup_num_step": 10}}}"#,
        &Context::default(),
    );
    assert!(
        diags
            .iter()
            .any(|d| d.message.en.contains("did you mean `warmup_num_steps`?")),
        "{diags:?}"
    );
}

#[test]
fn a_misspelt_required_scheduler_parameter_is_one_error_with_its_rename() {
    let (_, diags) = validate_text(
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupDecayLR", "params": {"total_num_step": 100}}}"#,
        &Context::default(),
    );
    let errors: Vec<(&str, &str)> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code.as_str(), d.path.as_str()))
        .collect();
    assert_eq!(
        errors,
        [(
            "unknown-scheduler-param",
            "/scheduler/params/total_num_step"
        )],
        "{diags:?}"
    );
    // Missing outright, it is still required.
    let (_, diags) = validate_text(
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": 10}}}"#,
        &Context::default(),
    );
    assert!(
        diags
            .iter()
            .any(|d| d.code == "missing-key" && d.message.en.contains("requires `total_num_steps`")),
        "{diags:?}"
    );
}
