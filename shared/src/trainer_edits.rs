//! Under the HF Trainer and Accelerate the batch, accumulation, learning rate and the other
//! values HF fills come from the training arguments, not the config. An edit of such a value
//! (a sweep's point, the memory model's smaller micro batch) goes to the arguments and the
//! config keeps `"auto"` ([`split_edits`]); where the config writes a number, both change, so
//! HF's match check holds. [`edit`] makes those edits and judges the result in the context the
//! new arguments make: a sweep's points and the memory model's smaller micro batch call it.

use crate::document::Document;
use crate::fit::{EditRefusal, FitChange};
use crate::i18n::Text;
use crate::launcher::TrainerArgs;
use crate::validate::Context;
use serde_json::Value;

/// The trainer argument for the micro batch.
pub const HF_MICRO: &str = "per_device_train_batch_size";

/// Under the HF launchers: the config keys HF fills from a training argument, and that argument
/// (`transformers.integrations.deepspeed.HfTrainerDeepSpeedConfig.trainer_config_process`).
pub const HF_FILLED: [(&str, &str); 6] = [
    ("train_micro_batch_size_per_gpu", HF_MICRO),
    ("gradient_accumulation_steps", "gradient_accumulation_steps"),
    ("gradient_clipping", "max_grad_norm"),
    ("optimizer.params.lr", "learning_rate"),
    ("optimizer.params.eps", "adam_epsilon"),
    ("optimizer.params.weight_decay", "weight_decay"),
];

/// The prefix a trainer argument's change is listed with (`trainer.per_device_train_batch_size`).
pub const TRAINER_PREFIX: &str = "trainer.";

/// Whether `key` names a training argument (under the HF launchers a grid may vary them).
pub fn is_trainer_arg(key: &str) -> bool {
    TrainerArgs::names().any(|n| n == key)
}

/// A value as a trainer argument's text (`4`, `2e-5`, `true`, a string as it is).
fn arg_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The trainer argument `key` reaches under `ctx`'s launcher, if the change goes there:
/// a training argument itself, or a config key HF fills. The second value says whether the
/// config keeps `"auto"` (true) or writes a number that changes with the argument (false).
fn routed_to_trainer(key: &str, base: &Value, ctx: &Context) -> Option<(&'static str, bool)> {
    if !ctx.launcher.fills_auto() {
        return None;
    }
    // A config key HF fills first (`gradient_accumulation_steps` is both).
    if let Some((_, arg)) = HF_FILLED.iter().find(|(k, _)| *k == key) {
        let at = base.pointer(&crate::launcher::hf::pointer(key));
        return Some((arg, at.is_none_or(|v| v == "auto")));
    }
    TrainerArgs::names()
        .find(|n| *n == key)
        .map(|name| (name, true))
}

/// Which of `edits` (dotted key, value) go to the config and which to the training arguments,
/// under `ctx`'s launcher: the config edits, the trainer arguments they make (`None`: not
/// changed) and the trainer changes as a fit lists them.
#[allow(clippy::type_complexity)]
pub fn split_edits(
    base: &Value,
    ctx: &Context,
    edits: &[(String, Value)],
) -> Result<(Vec<(String, Value)>, Option<TrainerArgs>, Vec<FitChange>), Text> {
    let mut config = Vec::new();
    let mut trainer: Option<TrainerArgs> = None;
    let mut changes = Vec::new();
    let before = ctx.trainer.clone().unwrap_or_default();
    let before_json = serde_json::to_value(&before).unwrap_or(Value::Null);
    for (key, value) in edits {
        match routed_to_trainer(key, base, ctx) {
            Some((arg, keeps_auto)) => {
                let args = trainer.get_or_insert_with(|| before.clone());
                args.set(arg, &arg_text(value)).map_err(|e| {
                    Text::new(
                        format!("cannot set {arg}: {e}"),
                        format!("无法设置训练参数 {arg}：{e}"),
                    )
                })?;
                let after = serde_json::to_value(&*args).unwrap_or(Value::Null);
                let (from, to) = (
                    before_json.get(arg).cloned().unwrap_or(Value::Null),
                    after.get(arg).cloned().unwrap_or(Value::Null),
                );
                // A value the argument already has is no change ("4 → 4").
                if from != to {
                    changes.push(FitChange {
                        key: format!("{TRAINER_PREFIX}{arg}"),
                        from,
                        to,
                    });
                }
                if !keeps_auto {
                    config.push((key.clone(), value.clone()));
                }
            }
            None => config.push((key.clone(), value.clone())),
        }
    }
    Ok((config, trainer, changes))
}

/// A config edited by [`edit`]: its text, what changed (config keys, then
/// `trainer.`-prefixed arguments) and the training arguments when they changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Edited {
    pub text: String,
    pub changes: Vec<FitChange>,
    pub trainer: Option<TrainerArgs>,
}

/// Why [`edit`] made nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// A training argument refused the value (`per_device_train_batch_size=0`).
    Argument(Text),
    /// The config could not take the edit, or the validator found an error in it.
    Config(EditRefusal),
}

/// `doc` with `edits` (dotted key, value) made: under the HF launchers the values HF fills go
/// to the training arguments ([`split_edits`]); the rest are text edits (comments and layout
/// kept), and the result is judged in `ctx` with the new arguments.
pub fn edit(doc: &Document, ctx: &Context, edits: &[(String, Value)]) -> Result<Edited, Refusal> {
    let root = doc.to_value().unwrap_or(Value::Null);
    let (config, trainer, trainer_changes) =
        split_edits(&root, ctx, edits).map_err(Refusal::Argument)?;
    let judged_in = Context {
        trainer: trainer.clone().or_else(|| ctx.trainer.clone()),
        ..ctx.clone()
    };
    let pointers: Vec<(String, Option<Value>)> = config
        .into_iter()
        .map(|(k, v)| (crate::launcher::hf::pointer(&k), Some(v)))
        .collect();
    let (text, mut changes) =
        crate::fit::edit_and_check(doc, &judged_in, &pointers).map_err(Refusal::Config)?;
    changes.extend(trainer_changes);
    Ok(Edited {
        text,
        changes,
        trainer,
    })
}
