//! The HF launchers' rules one by one, with the messages users read (the verdicts of every
//! class are checked against HF's own code in `hf_conformance.rs`).

use ds_studio_shared::launcher::TrainerArgs;
use ds_studio_shared::validate::{validate_text, verdict, Context, Launcher};
use ds_studio_shared::{Severity, Verdict};

fn ctx(launcher: Launcher, args: &str) -> Context {
    Context {
        launcher,
        trainer: (!args.is_empty()).then(|| TrainerArgs::parse_pairs(args).unwrap()),
        ..Context::default()
    }
}

fn errors(text: &str, ctx: &Context) -> Vec<(String, String)> {
    let (_, diags) = validate_text(text, ctx);
    diags
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code, d.message.en))
        .collect()
}

#[test]
fn a_refused_auto_is_one_error_not_two() {
    // Plain Accelerate does not fill the betas: HF refuses them, and DeepSpeed's own finding
    // about the missing value would only repeat it.
    let text = r#"{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}, "optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto"}}}"#;
    let found = errors(text, &ctx(Launcher::Accelerate, ""));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "launcher-auto-unfilled");
    assert!(
        found[0]
            .1
            .contains("`optimizer.params.betas` not found in kwargs"),
        "{found:?}"
    );
    // The Trainer fills them.
    assert!(errors(text, &ctx(Launcher::HfTrainer, "")).is_empty());
}

#[test]
fn accelerate_fills_the_scheduler_steps_without_a_dataset_size() {
    let text = r#"{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}, "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},
        "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": "auto", "total_num_steps": "auto"}}}"#;
    let (_, diags) = validate_text(text, &ctx(Launcher::Accelerate, ""));
    assert_eq!(verdict(&diags), Verdict::Accepted, "{diags:?}");
}

#[test]
fn both_precisions_in_the_arguments_are_the_arguments_fault() {
    let text = r#"{"train_batch_size": "auto", "zero_optimization": {"stage": 2}, "bf16": {"enabled": "auto"}}"#;
    let found = errors(text, &ctx(Launcher::HfTrainer, "bf16=true,fp16=true"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].1.contains("At most one of fp16 and bf16"),
        "{found:?}"
    );
}

#[test]
fn precision_conflict_and_missing_zero_use_the_launchers_words() {
    let found = errors(
        r#"{"train_batch_size": "auto", "fp16": {"enabled": true}}"#,
        &ctx(Launcher::HfTrainer, "bf16=true"),
    );
    let codes: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert!(codes.contains(&"launcher-needs-zero"), "{found:?}");
    assert!(codes.contains(&"launcher-precision-conflict"), "{found:?}");
    assert!(
        found
            .iter()
            .any(|(_, m)| m.contains("cannot be set to `bf16` when `fp16` is set")),
        "{found:?}"
    );
}

#[test]
fn the_assumed_defaults_name_only_what_is_compared() {
    let (_, diags) = validate_text(
        r#"{"train_batch_size": "auto", "zero_optimization": {"stage": 2}, "gradient_clipping": 1.0}"#,
        &ctx(Launcher::HfTrainer, "per_device_train_batch_size=8"),
    );
    let info = diags
        .iter()
        .find(|d| d.code == "launcher-args-assumed")
        .expect("the defaults are named");
    assert!(
        info.message.en.contains("max_grad_norm=1.0"),
        "{}",
        info.message.en
    );
    assert!(
        !info.message.en.contains("per_device_train_batch_size"),
        "given: {}",
        info.message.en
    );
    assert!(
        !info.message.en.contains("adam_beta1"),
        "no optimizer: {}",
        info.message.en
    );
}

#[test]
fn hostile_argument_sizes_saturate_instead_of_overflowing() {
    // Counts far beyond any cluster: the arithmetic saturates (no overflow panic, no wrap).
    let args = TrainerArgs {
        per_device_train_batch_size: Some(u64::MAX),
        gradient_accumulation_steps: Some(u64::MAX),
        hidden_size: Some(u64::MAX),
        train_samples: Some(u64::MAX),
        ..TrainerArgs::default()
    };
    let ctx = Context {
        launcher: Launcher::HfTrainer,
        world_size: u32::MAX,
        trainer: Some(args),
        ..Context::default()
    };
    let text = r#"{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
        "zero_optimization": {"stage": 3, "reduce_bucket_size": "auto", "stage3_prefetch_bucket_size": "auto", "stage3_param_persistence_threshold": "auto"},
        "scheduler": {"type": "WarmupDecayLR", "params": {"total_num_steps": "auto", "warmup_num_steps": "auto"}}}"#;
    for launcher in [Launcher::HfTrainer, Launcher::Accelerate] {
        let (_, diags) = validate_text(
            text,
            &Context {
                launcher,
                ..ctx.clone()
            },
        );
        assert!(!diags.is_empty());
        let doc = ds_studio_shared::Document::parse(text);
        let e = ds_studio_shared::effective::effective(
            doc.root().unwrap(),
            &Context {
                launcher,
                ..ctx.clone()
            },
        );
        let reduce = e
            .iter()
            .find(|x| x.path == "zero_optimization.reduce_bucket_size")
            .unwrap();
        assert_eq!(reduce.value, i64::MAX, "{launcher:?}");
    }
}

#[test]
fn a_misspelled_key_keeps_its_hint_where_hf_wrote_the_right_one() {
    // HF writes gradient_accumulation_steps (from its arguments) because the user's spelling
    // missed it: the hint matters most here.
    let text = r#"{"train_micro_batch_size_per_gpu": "auto", "gradient_acumulation_steps": 8, "zero_optimization": {"stage": 2}}"#;
    let (_, diags) = validate_text(text, &ctx(Launcher::HfTrainer, ""));
    let typo = diags
        .iter()
        .find(|d| d.code == "unknown-key")
        .expect("the typo is reported");
    assert!(
        typo.message
            .en
            .contains("did you mean `gradient_accumulation_steps`?"),
        "{}",
        typo.message.en
    );
    assert!(typo.fix.is_some());
}

#[test]
fn a_scheduler_in_the_config_overriding_lr_scheduler_type_is_said() {
    let text = r#"{"train_batch_size": "auto", "zero_optimization": {"stage": 2},
        "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": "auto", "total_num_steps": "auto"}}}"#;
    let said = |args: &str| {
        let (_, diags) = validate_text(text, &ctx(Launcher::HfTrainer, args));
        diags
            .into_iter()
            .filter(|d| d.code == "launcher-scheduler-overridden")
            .collect::<Vec<_>>()
    };
    let found = said("lr_scheduler_type=cosine,max_steps=100");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].severity, Severity::Warning);
    assert!(
        found[0].message.en.contains("lr_scheduler_type=cosine")
            && found[0].message.en.contains("WarmupDecayLR"),
        "{found:?}"
    );
    assert_eq!(
        found[0].fix,
        Some(serde_json::json!([{"op": "remove", "path": "/scheduler"}]))
    );
    // The same shape under DeepSpeed's name, or no lr_scheduler_type at all: nothing to say.
    assert!(said("lr_scheduler_type=linear,max_steps=100").is_empty());
    assert!(said("max_steps=100").is_empty());
    // Accelerate never reads lr_scheduler_type.
    let (_, diags) = validate_text(text, &ctx(Launcher::Accelerate, "lr_scheduler_type=cosine"));
    assert!(diags
        .iter()
        .all(|d| d.code != "launcher-scheduler-overridden"));
}

/// Issue 49: Accelerate (under the HF Trainer too) sets `steps_per_print` to infinity whatever
/// the config says; a value the user wrote is said to be unused, with the fix to remove it.
#[test]
fn a_steps_per_print_the_hf_launchers_override_is_said() {
    let text =
        r#"{"train_batch_size": "auto", "steps_per_print": 10, "zero_optimization": {"stage": 2}}"#;
    for launcher in [Launcher::HfTrainer, Launcher::Accelerate] {
        let (_, diags) = validate_text(text, &ctx(launcher, ""));
        let found: Vec<_> = diags
            .iter()
            .filter(|d| d.code == "launcher-steps-per-print-overridden")
            .collect();
        assert_eq!(found.len(), 1, "{launcher:?}: {diags:?}");
        assert_eq!(found[0].severity, Severity::Warning);
        assert_eq!(found[0].path, "/steps_per_print");
        assert!(
            found[0]
                .message
                .en
                .contains("steps_per_print 10 is not used"),
            "{found:?}"
        );
        assert!(found[0].message.zh.contains("logging_steps"), "{found:?}");
        assert_eq!(
            found[0].fix,
            Some(serde_json::json!([{"op": "remove", "path": "/steps_per_print"}]))
        );
        // Not written: nothing to say.
        let (_, quiet) = validate_text(
            r#"{"train_batch_size": "auto", "zero_optimization": {"stage": 2}}"#,
            &ctx(launcher, ""),
        );
        assert!(quiet
            .iter()
            .all(|d| d.code != "launcher-steps-per-print-overridden"));
    }
    // DeepSpeed's own launcher prints every steps_per_print steps: nothing to say.
    let (_, own) = validate_text(
        r#"{"train_batch_size": 8, "steps_per_print": 10}"#,
        &ctx(Launcher::Deepspeed, ""),
    );
    assert!(own
        .iter()
        .all(|d| d.code != "launcher-steps-per-print-overridden"));
}

/// HF calls `.get` on a section that is a string: the error points at that section and says it
/// must be an object, not at the key HF was looking for below it.
#[test]
fn a_section_that_is_not_a_dict_is_named_where_hf_fails_on_it() {
    let text = r#"{"train_micro_batch_size_per_gpu": 8, "optimizer": "AdamW"}"#;
    let (_, diags) = validate_text(text, &ctx(Launcher::HfTrainer, ""));
    let d = diags
        .iter()
        .find(|d| d.code == "launcher-error")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(d.path, "/optimizer", "{diags:?}");
    assert!(
        d.message.en.contains("object has no attribute 'get'")
            && d.message.en.ends_with("(`optimizer` must be an object)"),
        "{}",
        d.message.en
    );
    assert_eq!(verdict(&diags), Verdict::Rejected);
}

/// Master weights under optimizer offload with no `optimizer` section: under the HF Trainer,
/// Accelerate swaps the Trainer's torch AdamW for DeepSpeedCPUAdam, and the engine starts
/// (hf-oracle `run --engine`, transformers 5.23 / accelerate 1.15 / DeepSpeed 0.19.8: accepted
/// at stage "engine"). Not an error there.
#[test]
fn master_weights_without_an_optimizer_start_under_the_hf_trainer() {
    let text = r#"{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1, "bf16": {"enabled": true, "bf16_master_weights_and_grads": true}, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}"#;
    let found = errors(
        text,
        &ctx(
            Launcher::HfTrainer,
            "per_device_train_batch_size=4,bf16=true",
        ),
    );
    assert!(found.is_empty(), "{found:?}");
}
