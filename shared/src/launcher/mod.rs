//! The launcher between the config file and DeepSpeed.
//!
//! Under the plain `deepspeed` launcher DeepSpeed reads the file itself (hjson). Under the
//! Hugging Face Trainer and Accelerate, HF reads it with `json.load` ([`reader`]), fills its
//! `"auto"` values from the training arguments ([`args`]), checks it against them and hands the
//! resulting dict to DeepSpeed ([`hf`]). The validator judges that dict with the DeepSpeed rules,
//! so a verdict under an HF launcher is HF's and DeepSpeed's together.

pub use crate::vocab::args;
pub mod hf;
#[cfg(feature = "import")]
pub mod import;
pub mod imported;
pub(crate) mod pydict;
pub mod reader;
#[cfg(feature = "import")]
pub mod yaml;

pub use crate::vocab::{ArgError, TrainerArgs};
pub use hf::{Filled, HfRun};

use crate::i18n::Text;
use crate::vocab::{Context, Diagnostic, Launcher};

/// The config keys (set or "auto") that each argument is compared with or fills.
const COMPARED: &[(&str, &[&str])] = &[
    ("adam_beta1", &["optimizer.params.betas"]),
    ("adam_beta2", &["optimizer.params.betas"]),
    ("adam_epsilon", &["optimizer.params.eps"]),
    ("weight_decay", &["optimizer.params.weight_decay"]),
    (
        "learning_rate",
        &["optimizer.params.lr", "scheduler.params.warmup_max_lr"],
    ),
    ("max_grad_norm", &["gradient_clipping"]),
    ("warmup_steps", &["scheduler.params.warmup_num_steps"]),
    ("bf16", &["bf16", "bfloat16"]),
    ("fp16", &["fp16"]),
];

/// One info diagnostic naming the Trainer's defaults the comparison assumed (arguments not
/// given, and only those the config's keys are compared with), so the user knows which values
/// their config was checked against.
pub(crate) fn assumed_defaults(root: &crate::document::Node, ctx: &Context) -> Option<Diagnostic> {
    let present = |dotted: &str| {
        dotted
            .split('.')
            .try_fold(root, |n, k| n.child(k))
            .is_some()
    };
    let given = ctx
        .trainer
        .as_ref()
        .map(TrainerArgs::given)
        .unwrap_or_default();
    let r = ctx.trainer.clone().unwrap_or_default().resolved();
    // Both launchers take the batch and the learning rate; the Trainer compares the rest.
    let mut all: Vec<(&str, String)> = vec![
        (
            "per_device_train_batch_size",
            r.per_device_train_batch_size.to_string(),
        ),
        (
            "gradient_accumulation_steps",
            r.gradient_accumulation_steps.to_string(),
        ),
        ("learning_rate", pydict::float_repr(r.learning_rate)),
    ];
    if ctx.launcher == Launcher::HfTrainer {
        all.extend([
            ("adam_beta1", pydict::float_repr(r.adam_beta1)),
            ("adam_beta2", pydict::float_repr(r.adam_beta2)),
            ("adam_epsilon", pydict::float_repr(r.adam_epsilon)),
            ("weight_decay", pydict::float_repr(r.weight_decay)),
            ("max_grad_norm", pydict::float_repr(r.max_grad_norm)),
            ("warmup_steps", pydict::float_repr(r.warmup_steps)),
            ("bf16", "False".into()),
            ("fp16", "False".into()),
        ]);
    } else {
        all.push(("mixed_precision", "no".into()));
    }
    let missing: Vec<String> = all
        .into_iter()
        .filter(|(k, _)| {
            COMPARED
                .iter()
                .find(|(arg, _)| arg == k)
                .is_none_or(|(_, keys)| keys.iter().any(|d| present(d)))
        })
        .filter(|(k, _)| {
            !given.contains(k)
                && !(*k == "mixed_precision"
                    && (given.contains(&"bf16") || given.contains(&"fp16")))
        })
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let list = missing.join(", ");
    let (en, zh) = if ctx.launcher == Launcher::HfTrainer {
        (
            "the TrainingArguments' defaults",
            "TrainingArguments 的默认值",
        )
    } else {
        ("Accelerate's defaults", "Accelerate 的默认值")
    };
    Some(Diagnostic::info(
        "launcher-args-assumed",
        "",
        Text::new(
            format!("checked against {en} where no argument was given: {list} (give yours as trainer arguments: the editor's context bar, the CLI's --trainer-args, or an imported training file)"),
            format!("未给出的参数按 {zh}检查：{list}（可作为训练参数给出：编辑器的上下文栏、命令行的 --trainer-args，或导入训练配置文件）"),
        ),
    ))
}
