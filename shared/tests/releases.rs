//! Table tests for what depends on the DeepSpeed release: since/until/removal messages, the
//! engine-start checks each release has, and "did you mean" / "belongs elsewhere". Each row:
//! release, config, the code that must appear (with its severity and pointer), and a fragment of
//! its message. A row with `None` for the code says the config is accepted with no error.

use ds_studio_shared::validate::{validate_text, verdict, Context, Severity, Verdict};

struct Row {
    release: &'static str,
    config: &'static str,
    expect: Option<(&'static str, Severity, &'static str, &'static str)>,
}

const fn row(
    release: &'static str,
    config: &'static str,
    expect: Option<(&'static str, Severity, &'static str, &'static str)>,
) -> Row {
    Row {
        release,
        config,
        expect,
    }
}

use Severity::{Error, Info, Warning};

const ROWS: &[Row] = &[
    // Engine-start checks, each row checked with `ds-oracle run --engine` (0.17.5, 0.18.3, 0.18.5,
    // 0.18.6, 0.19.3, 0.19.7, 0.19.8). ZenFlow's (`configure_zenflow`, `ZenFlowZeroOptimizer`):
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "zero_optimization": {"zenflow": {"select_interval": 4}}}"#,
        Some((
            "zenflow-select",
            Error,
            "/zero_optimization/zenflow/select_interval",
            "select_interval would be overwritten",
        )),
    ),
    row(
        "0.19.5",
        r#"{"train_batch_size": 1, "zero_optimization": {"zenflow": {"select_strategy": "step"}}}"#,
        Some((
            "zenflow-select",
            Error,
            "/zero_optimization/zenflow/select_strategy",
            "select_interval must be a number",
        )),
    ),
    row(
        "0.19.5",
        r#"{"train_batch_size": 1, "zero_optimization": {"zenflow": {"select_strategy": "step", "select_interval": 2, "update_interval": 4}}}"#,
        Some((
            "zenflow-select",
            Error,
            "/zero_optimization/zenflow/select_interval",
            "greater or equal to update interval",
        )),
    ),
    row(
        "0.19.5",
        r#"{"train_batch_size": 1, "zero_optimization": {"zenflow": {"select_strategy": "step", "select_interval": 4, "update_interval": 2}}}"#,
        None,
    ),
    row(
        "0.17.5",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "zero_optimization": {"stage": 2, "zenflow": {}}}"#,
        Some((
            "zenflow-needs-offload",
            Error,
            "/zero_optimization/zenflow",
            "must be used with cpu offload",
        )),
    ),
    row(
        "0.19.5",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "zenflow": {}}}"#,
        None,
    ),
    row(
        "0.18.6",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "zenflow": {}}}"#,
        Some((
            "zero-untested-optimizer",
            Error,
            "/optimizer/type",
            "ZenFlowCPUAdam",
        )),
    ),
    // Master weights need the optimizer state offloaded to a DeepSpeedCPUAdam.
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "fp16": {"fp16_master_weights_and_grads": true}, "zero_optimization": {"stage": 1}}"#,
        Some((
            "master-weights-optimizer",
            Error,
            "/fp16/fp16_master_weights_and_grads",
            "requires ZeRO Offload with DeepSpeedCPUAdam",
        )),
    ),
    row(
        "0.17.0",
        r#"{"train_batch_size": 1, "fp16": {"fp16_master_weights_and_grads": true}, "zero_optimization": {"stage": 1}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "fp16": {"fp16_master_weights_and_grads": true}, "zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Lamb"}, "fp16": {"fp16_master_weights_and_grads": true}, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}"#,
        Some((
            "master-weights-optimizer",
            Error,
            "/fp16/fp16_master_weights_and_grads",
            "only for Adam/AdamW",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "bf16": {"enabled": true, "bf16_master_weights_and_grads": true}, "zero_optimization": {"stage": 1}}"#,
        Some((
            "master-weights-optimizer",
            Error,
            "/bf16/bf16_master_weights_and_grads",
            "requires ZeRO Offload with DeepSpeedCPUAdam",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "bf16": {"enabled": true, "bf16_master_weights_and_grads": true, "bf16_optimizer_states": true}, "zero_optimization": {"stage": 1}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "bf16": {"enabled": true, "bf16_master_weights_and_grads": true, "bf16_optimizer_states": true}, "zero_optimization": {"stage": 1, "offload_optimizer": {"device": "cpu"}}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "optimizer": {"type": "Adam"}, "bf16": {"enabled": true, "bf16_master_weights_and_grads": true}, "zero_optimization": {"stage": 3}}"#,
        Some((
            "master-weights-optimizer",
            Error,
            "/bf16/bf16_master_weights_and_grads",
            "requires ZeRO-3 Offload",
        )),
    ),
    // compute_grad_norm false with gradient clipping (the default is 1.0 from 0.19.3).
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "zero_optimization": {"stage": 1, "compute_grad_norm": false}}"#,
        Some((
            "compute-grad-norm-clipping",
            Error,
            "/zero_optimization/compute_grad_norm",
            "default gradient_clipping of DeepSpeed 0.19.8 is 1",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "gradient_clipping": 0, "zero_optimization": {"stage": 2, "compute_grad_norm": false}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "gradient_clipping": 0, "optimizer": {"type": "Adam"}, "zero_optimization": {"stage": 2, "compute_grad_norm": false, "offload_optimizer": {"device": "cpu"}}}"#,
        Some((
            "compute-grad-norm-unsupported",
            Error,
            "/zero_optimization/compute_grad_norm",
            "does not support optimizer offload",
        )),
    ),
    row(
        "0.19.7",
        r#"{"train_batch_size": 1, "gradient_clipping": 0, "optimizer": {"type": "Adam"}, "zero_optimization": {"stage": 2, "compute_grad_norm": false, "offload_optimizer": {"device": "cpu"}, "zenflow": {}}}"#,
        Some((
            "compute-grad-norm-unsupported",
            Error,
            "/zero_optimization/compute_grad_norm",
            "does not support ZenFlow",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "gradient_clipping": 0, "bf16": {"enabled": true}, "data_types": {"grad_accum_dtype": "fp32"}, "zero_optimization": {"stage": 1, "compute_grad_norm": false}}"#,
        Some((
            "compute-grad-norm-unsupported",
            Error,
            "/zero_optimization/compute_grad_norm",
            "BF16 parameters and FP32 gradient accumulation",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "gradient_clipping": 0, "bf16": {"enabled": true}, "data_types": {"grad_accum_dtype": "fp32"}, "zero_optimization": {"stage": 2, "compute_grad_norm": false}}"#,
        None,
    ),
    // autotp_size read from the raw dict from 0.18.6.
    row(
        "0.18.6",
        r#"{"train_batch_size": 1, "tensor_parallel": {"autotp_size": "auto"}}"#,
        Some((
            "autotp-size-string",
            Error,
            "/tensor_parallel/autotp_size",
            "compares tensor_parallel.autotp_size with 0",
        )),
    ),
    row(
        "0.18.5",
        r#"{"train_batch_size": 1, "tensor_parallel": {"autotp_size": "auto"}}"#,
        Some((
            "auto-unresolved",
            Warning,
            "/tensor_parallel/autotp_size",
            "silently drops it",
        )),
    ),
    // log_level is applied when the engine starts (0.19.3+).
    row(
        "0.19.3",
        r#"{"train_batch_size": 1, "log_level": "bogus"}"#,
        Some(("invalid-value", Error, "/log_level", "valid logging levels")),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "log_level": 5}"#,
        Some(("invalid-type", Error, "/log_level", "valid logging levels")),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "log_level": "INFO"}"#,
        None,
    ),
    // The checkpoint writer reads the deepspeed launcher's variables.
    row(
        "0.17.1",
        r#"{"train_batch_size": 1, "checkpoint": {"writer": {"type": "mock", "data_parallel": "replica"}}}"#,
        Some((
            "launcher-env",
            Info,
            "/checkpoint/writer",
            "KeyError: 'CROSS_SIZE'",
        )),
    ),
    row(
        "0.17.1",
        r#"{"train_batch_size": 1, "checkpoint": {"writer": {"type": "mock", "data_parallel": "replica"}}}"#,
        None,
    ),
    // Without data_parallel the writer fails below ZeRO-3 (started with CROSS_SIZE set, 0.17.5
    // and 0.19.8).
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "checkpoint": {"writer": {"type": "mock"}}}"#,
        Some((
            "checkpoint-writer-unit",
            Error,
            "/checkpoint/writer",
            "has no attribute 'dp_rank'",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "zero_optimization": {"stage": 3}, "checkpoint": {"writer": {"type": "mock"}}}"#,
        None,
    ),
    // Engine-start refusals found by `engine_verdicts.py --cases` (the parser accepts them).
    row(
        "0.18.4",
        r#"{"train_batch_size": 1, "compression_training": {"weight_quantization": {"shared_parameters": {"enabled": true}, "different_groups": {}}}}"#,
        Some((
            "moq-needs-fp16",
            Error,
            "/compression_training/weight_quantization/shared_parameters/enabled",
            "only supported for FP16",
        )),
    ),
    row(
        "0.18.4",
        r#"{"train_batch_size": 1, "fp16": {"enabled": true}, "compression_training": {"weight_quantization": {"shared_parameters": {"enabled": true}, "different_groups": {}}}}"#,
        None,
    ),
    row(
        "0.19.5",
        r#"{"train_batch_size": 1, "data_types": {"grad_accum_dtype": "bogus"}}"#,
        Some((
            "invalid-value",
            Error,
            "/data_types/grad_accum_dtype",
            "not a valid DtypeEnum",
        )),
    ),
    row(
        "0.19.5",
        r#"{"train_batch_size": 1, "data_types": {"grad_accum_dtype": "torch.float32"}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 1, "scheduler": {"type": 5}}"#,
        Some((
            "invalid-type",
            Error,
            "/scheduler/type",
            "attribute name must be string",
        )),
    ),
    row(
        "0.16.9",
        r#"{"train_batch_size": 1, "zero_optimization": true, "allgather_size": 3}"#,
        Some((
            "bucket-alignment",
            Error,
            "/allgather_size",
            "multiple of nccl_start_alignment_factor",
        )),
    ),
    // 0.14.x read `comms_logger` with a plain pydantic v1 model: types checked, "auto" refused
    // like any string, unknown keys ignored; 0.15.0 made it a DeepSpeedConfigModel.
    row(
        "0.14.4",
        r#"{"train_batch_size": 1, "comms_logger": {"prof_ops": "x"}}"#,
        Some((
            "invalid-type",
            Error,
            "/comms_logger/prof_ops",
            "must be array",
        )),
    ),
    row(
        "0.14.5",
        r#"{"train_batch_size": 1, "comms_logger": {"prof_ops": "auto"}}"#,
        Some((
            "invalid-type",
            Error,
            "/comms_logger/prof_ops",
            "must be array",
        )),
    ),
    row(
        "0.15.0",
        r#"{"train_batch_size": 1, "comms_logger": {"prof_ops": "auto"}}"#,
        None,
    ),
    row(
        "0.14.4",
        r#"{"train_batch_size": 1, "comms_logger": {"enabled": true, "bogus": 1}}"#,
        Some((
            "unknown-key",
            Warning,
            "/comms_logger/bogus",
            "DeepSpeed silently ignores it",
        )),
    ),
    row(
        "0.15.0",
        r#"{"train_batch_size": 1, "comms_logger": {"enabled": true, "bogus": 1}}"#,
        Some((
            "unknown-key",
            Error,
            "/comms_logger/bogus",
            "DeepSpeed rejects it",
        )),
    ),
    // Keys that arrived later: rejected in strict sections, named with their release.
    row(
        "0.17.4",
        r#"{"train_batch_size": 8, "zero_optimization": {"stage": 2, "zenflow": {"topk_ratio": 0.1}}}"#,
        Some((
            "not-in-release",
            Error,
            "/zero_optimization/zenflow",
            "arrived in DeepSpeed 0.17.5: DeepSpeed 0.17.4 rejects it",
        )),
    ),
    row(
        "0.17.5",
        r#"{"train_batch_size": 8, "optimizer": {"type": "AdamW"}, "zero_allow_untested_optimizer": true, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "zenflow": {"topk_ratio": 0.1}}}"#,
        None,
    ),
    row(
        "0.17.1",
        r#"{"train_batch_size": 8, "torch_autocast": {"enabled": true}}"#,
        Some((
            "not-in-release",
            Warning,
            "/torch_autocast",
            "arrived in DeepSpeed 0.17.2: DeepSpeed 0.17.1 silently ignores it",
        )),
    ),
    row(
        "0.18.2",
        r#"{"train_batch_size": 8, "bf16": {"enabled": true, "bf16_master_weights_and_grads": true}, "zero_optimization": {"stage": 2}}"#,
        Some((
            "not-in-release",
            Error,
            "/bf16/bf16_master_weights_and_grads",
            "arrived in DeepSpeed 0.18.3",
        )),
    ),
    // Before 0.17.1 the precision sections were read with dict.get: unknown keys ignored.
    row(
        "0.17.0",
        r#"{"train_batch_size": 8, "fp16": {"enabled": true, "opt_level": "O2"}}"#,
        None,
    ),
    row(
        "0.17.1",
        r#"{"train_batch_size": 8, "fp16": {"enabled": true, "opt_level": "O2"}}"#,
        Some((
            "unknown-key",
            Error,
            "/fp16/opt_level",
            "DeepSpeed rejects it",
        )),
    ),
    row(
        "0.17.0",
        r#"{"train_batch_size": 8, "fp16": {"enabled": true, "min_loss_scale": 0.5}}"#,
        None,
    ),
    // Removals name the release and DeepSpeed's own text with the replacement.
    row(
        "0.19.5",
        r#"{"train_batch_size": 8, "amp": {"enabled": true}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "amp": {"enabled": true}}"#,
        Some((
            "removed-key",
            Error,
            "/amp",
            "removed in DeepSpeed 0.19.8 (the last release that reads it is 0.19.7)",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "amp": {"enabled": true}}"#,
        Some(("removed-key", Error, "/amp", "torch_autocast")),
    ),
    // Apex amp in the releases that have it: the engine refuses it with ZeRO and with fp16/bf16.
    row(
        "0.18.4",
        r#"{"train_batch_size": 8, "amp": {"enabled": true}, "zero_optimization": {"stage": 2}}"#,
        Some((
            "zero-incompatible",
            Error,
            "/amp",
            "Amp and ZeRO are not currently compatible",
        )),
    ),
    row(
        "0.18.4",
        r#"{"train_batch_size": 8, "amp": {"enabled": true}, "fp16": {"enabled": true}}"#,
        Some((
            "fp16-and-bf16",
            Error,
            "/amp",
            "Cannot enable both amp with (legacy) fp16 or bfloat16 mode",
        )),
    ),
    row(
        "0.18.4",
        r#"{"train_batch_size": 8, "amp": {"enabled": true, "opt_level": "O1"}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "amp": {"enabled": true}}"#,
        Some((
            "removed-key",
            Error,
            "/amp",
            "The fix turns on DeepSpeed's fp16 mode",
        )),
    ),
    // Renames: the old name works up to 0.16.4, later releases ignore it.
    row(
        "0.16.4",
        r#"{"train_batch_size": 8, "seq_parallel_comm_data_type": "fp32"}"#,
        None,
    ),
    row(
        "0.16.5",
        r#"{"train_batch_size": 8, "seq_parallel_comm_data_type": "fp32"}"#,
        Some((
            "renamed-key",
            Warning,
            "/seq_parallel_comm_data_type",
            "renamed `seq_parallel_communication_data_type` in DeepSpeed 0.16.5",
        )),
    ),
    // Optimizers of other releases are named as such, not answered with a look-alike.
    row(
        "0.19.6",
        r#"{"train_batch_size": 8, "optimizer": {"type": "OneBitAdam", "params": {"lr": 0.001}}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "optimizer": {"type": "OneBitAdam", "params": {"lr": 0.001}}}"#,
        Some((
            "optimizer-not-in-release",
            Error,
            "/optimizer/type",
            "removed in DeepSpeed 0.19.7 (the last release with it is 0.19.6)",
        )),
    ),
    row(
        "0.17.5",
        r#"{"train_batch_size": 8, "optimizer": {"type": "muon", "params": {"lr": 0.001}}}"#,
        Some((
            "optimizer-not-in-release",
            Error,
            "/optimizer/type",
            "arrived in DeepSpeed 0.17.6",
        )),
    ),
    // Engine-start scheduler checks, per release.
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupLR"}}"#,
        Some((
            "scheduler-params",
            Error,
            "/scheduler",
            "argument after ** must be a mapping",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "scheduler": {"type": "OneCycle", "params": {"cycle_max_lr": 0.01}}}"#,
        Some(("missing-key", Error, "/scheduler/params", "cycle_min_lr")),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": 10}}}"#,
        Some(("missing-key", Error, "/scheduler/params", "total_num_steps")),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 0}}}"#,
        Some((
            "invalid-value",
            Error,
            "/scheduler/params/warmup_num_steps",
            "positive integer",
        )),
    ),
    row(
        "0.19.2",
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 0}}}"#,
        None,
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "scheduler": {"type": "LRRangeTest", "params": {"lr_range_test_step_size": 0}}}"#,
        Some((
            "invalid-value",
            Error,
            "/scheduler/params/lr_range_test_step_size",
            "positive integer",
        )),
    ),
    row(
        "0.19.3",
        r#"{"train_batch_size": 8, "scheduler": {"type": "LRRangeTest", "params": {"lr_range_test_step_size": 0}}}"#,
        None,
    ),
    // Did you mean, in scheduler params and in sections DeepSpeed reads loosely.
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {"warmup_max_l": 0.001}}}"#,
        Some((
            "unknown-scheduler-param",
            Error,
            "/scheduler/params/warmup_max_l",
            "did you mean `warmup_max_lr`?",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "pipeline": {"activation_checkpoint_intervall": 1}}"#,
        Some((
            "unknown-key",
            Warning,
            "/pipeline/activation_checkpoint_intervall",
            "did you mean `activation_checkpoint_interval`?",
        )),
    ),
    // Keys that belong elsewhere.
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "zero_optimization": {"stage": 3}, "stage3_max_live_parameters": 1000000}"#,
        Some((
            "misplaced-key",
            Warning,
            "/stage3_max_live_parameters",
            "belongs in `zero_optimization`",
        )),
    ),
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "offload_optimizer_device": "cpu"}"#,
        Some((
            "misplaced-key",
            Warning,
            "/offload_optimizer_device",
            "an Accelerate config key",
        )),
    ),
    // A string in a numeric key that the parser accepts and the first step crashes on.
    row(
        "0.19.8",
        r#"{"train_batch_size": 8, "gradient_clipping": "1,0"}"#,
        Some(("invalid-type", Error, "/gradient_clipping", "")),
    ),
];

#[test]
fn release_dependent_diagnostics() {
    let mut failures = Vec::new();
    for (i, r) in ROWS.iter().enumerate() {
        let ctx = Context {
            deepspeed_version: r.release.into(),
            accelerator: "cpu".into(),
            ..Context::default()
        };
        let (_, diags) = validate_text(r.config, &ctx);
        match r.expect {
            None => {
                if verdict(&diags) != Verdict::Accepted {
                    failures.push(format!(
                        "row {i} ({}): expected accepted, got {diags:#?}",
                        r.release
                    ));
                }
            }
            Some((code, severity, path, fragment)) => {
                let hit = diags.iter().any(|d| {
                    d.code == code
                        && d.severity == severity
                        && d.path == path
                        && d.message.en.contains(fragment)
                        && !d.message.zh.is_empty()
                });
                if !hit {
                    let got: Vec<String> = diags
                        .iter()
                        .map(|d| format!("{:?} {} {} {}", d.severity, d.code, d.path, d.message.en))
                        .collect();
                    failures.push(format!("row {i} ({}): expected {code} at {path} containing {fragment:?}; got {got:#?}", r.release));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_unknown_release_is_one_clear_error() {
    let ctx = Context {
        deepspeed_version: "0.13.2".into(),
        ..Context::default()
    };
    let (_, diags) = validate_text(r#"{"train_batch_size": 8}"#, &ctx);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, "unknown-release");
    assert!(diags[0].message.en.contains("0.14.4") && diags[0].message.en.contains("0.19.8"));
}

/// `upgrade` 0.18.4 -> 0.19.8 on every corpus file: a file with nothing to fix comes back byte
/// for byte; a file with fixes keeps every comment line, and the fixes leave no error the fixes
/// were meant to remove.
#[test]
fn upgrading_the_corpus_keeps_untouched_files_byte_for_byte() {
    use ds_studio_shared::upgrade::{apply, upgrade, ChangeKind};
    use ds_studio_shared::{Document, Release};
    let dir = std::env::var("DS_SHARED_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared")
        })
        .join("deepspeed/corpus/configs");
    let (from, to) = (Release::parse("0.18.4").unwrap(), Release::newest());
    let (mut untouched, mut fixed) = (0, 0);
    for entry in std::fs::read_dir(&dir).expect("the corpus (is ../shared beside the repo?)") {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = Document::parse(&text);
        let up = upgrade(&doc, &Context::default(), from, to);
        let out = apply(&doc, &up.changes, false);
        let fixes = up.changes.iter().any(|c| {
            c.fix.is_some() && !matches!(c.kind, ChangeKind::Default | ChangeKind::Ignored)
        });
        if !fixes {
            assert_eq!(out.text(), text, "{} changed without a fix", path.display());
            untouched += 1;
        } else {
            for line in text.lines().filter(|l| l.trim_start().starts_with("//")) {
                assert!(
                    out.text().contains(line.trim()),
                    "{}: lost {line}",
                    path.display()
                );
            }
            let after = validate_text(out.text(), &Context::default()).1;
            for c in up.changes.iter().filter(|c| c.kind == ChangeKind::Removed) {
                assert!(
                    !after
                        .iter()
                        .any(|d| d.code == "removed-key" && d.path == c.path),
                    "{}: {} still removed",
                    path.display(),
                    c.path
                );
            }
            fixed += 1;
        }
    }
    println!("upgrade 0.18.4 -> 0.19.8: {untouched} files untouched, {fixed} fixed");
    assert!(
        untouched > 80 && fixed > 5,
        "{untouched} untouched, {fixed} fixed"
    );
}

/// The `amp` removal's fix turns on an fp16 section that is there but off, keeping its loss
/// scaling; and the upgrade does not call `/amp` both removed and "no longer rejected".
#[test]
fn the_amp_fix_keeps_an_existing_fp16_section() {
    use ds_studio_shared::upgrade::{apply, upgrade, ChangeKind};
    use ds_studio_shared::{Document, Release};
    let text = r#"{
  "train_batch_size": 8,
  "zero_optimization": {"stage": 1},
  "amp": {"enabled": true, "opt_level": "O2"},
  "fp16": {"enabled": false, "loss_scale": 128, "initial_scale_power": 12}
}"#;
    let doc = Document::parse(text);
    let up = upgrade(
        &doc,
        &Context::default(),
        Release::parse("0.18.4").unwrap(),
        Release::newest(),
    );
    let kinds: Vec<&str> = up
        .changes
        .iter()
        .filter(|c| c.path == "/amp")
        .map(|c| c.kind.as_str())
        .collect();
    assert!(kinds.contains(&"removed"), "{kinds:?}");
    assert!(
        !up.changes
            .iter()
            .any(|c| c.kind == ChangeKind::Resolved && c.path == "/amp"),
        "{kinds:?}"
    );
    let out = apply(&doc, &up.changes, false);
    let value: serde_json::Value = serde_json::from_str(out.text()).unwrap();
    assert_eq!(value.get("amp"), None, "{}", out.text());
    assert_eq!(
        value["fp16"],
        serde_json::json!({"enabled": true, "loss_scale": 128, "initial_scale_power": 12}),
        "{}",
        out.text()
    );
}
