//! The arguments the Hugging Face Trainer (its `TrainingArguments`) or an `accelerate launch`
//! script is given: what HF compares with the config and fills its `"auto"` values from.
//!
//! Every field is optional: a field not given takes the Trainer's default
//! ([`TrainerArgs::resolved`]), and the validator says once which defaults it assumed.

use serde::{Deserialize, Serialize};

/// The TrainingArguments (and Accelerate script arguments) that reach the DeepSpeed config.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct TrainerArgs {
    /// `per_device_train_batch_size` (Accelerate: the train dataloader's batch size). Default 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_device_train_batch_size: Option<u64>,
    /// `gradient_accumulation_steps` (Accelerate: `Accelerator(gradient_accumulation_steps=)`). Default 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gradient_accumulation_steps: Option<u64>,
    /// `learning_rate`. Default 5e-5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learning_rate: Option<f64>,
    /// `adam_beta1`. Default 0.9.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adam_beta1: Option<f64>,
    /// `adam_beta2`. Default 0.999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adam_beta2: Option<f64>,
    /// `adam_epsilon`. Default 1e-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adam_epsilon: Option<f64>,
    /// `weight_decay`. Default 0.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_decay: Option<f64>,
    /// `max_grad_norm` (compared with `gradient_clipping`). Default 1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_grad_norm: Option<f64>,
    /// `warmup_steps`: a count, or below 1 a fraction of the training steps (transformers 5;
    /// older `warmup_ratio` is read into it). Default 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warmup_steps: Option<f64>,
    /// `max_steps`; 0 or negative: train for `num_train_epochs`. Default -1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<i64>,
    /// `num_train_epochs`. Default 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_train_epochs: Option<f64>,
    /// Training examples in the dataset (not a TrainingArguments field): with the batch sizes
    /// and the world size it gives the Trainer's `num_training_steps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub train_samples: Option<u64>,
    /// `bf16` (Accelerate: `--mixed_precision bf16`). Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bf16: Option<bool>,
    /// `fp16` (Accelerate: `--mixed_precision fp16`). Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fp16: Option<bool>,
    /// `optim` (informational: the Trainer builds it only when the config has no optimizer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optim: Option<String>,
    /// `lr_scheduler_type`: the Trainer builds it only when the config has no scheduler (a
    /// config scheduler of another shape is said: `launcher-scheduler-overridden`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lr_scheduler_type: Option<String>,
    /// The model's `hidden_size` (fills the bucket-size `"auto"` values). Unknown: 4096 is
    /// assumed for checking, and the effective config says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_size: Option<u64>,
}

/// [`TrainerArgs`] with every default applied: what HF actually uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub per_device_train_batch_size: u64,
    pub gradient_accumulation_steps: u64,
    pub learning_rate: f64,
    pub adam_beta1: f64,
    pub adam_beta2: f64,
    pub adam_epsilon: f64,
    pub weight_decay: f64,
    pub max_grad_norm: f64,
    pub warmup_steps: f64,
    pub max_steps: i64,
    pub num_train_epochs: f64,
    pub train_samples: Option<u64>,
    pub bf16: bool,
    pub fp16: bool,
    pub hidden_size: u64,
    pub hidden_size_known: bool,
}

/// The hidden size assumed when the model's is not given.
pub const ASSUMED_HIDDEN_SIZE: u64 = 4096;

/// One argument as users write it: names, aliases and the kind of value.
struct Field {
    name: &'static str,
    aliases: &'static [&'static str],
    kind: FieldKind,
}

#[derive(Clone, Copy)]
enum FieldKind {
    Count,
    Int,
    Float,
    Bool,
    Text,
}

const FIELDS: &[Field] = &[
    Field {
        name: "per_device_train_batch_size",
        aliases: &[
            "micro_batch_size",
            "batch_size",
            "train_batch_size_per_device",
        ],
        kind: FieldKind::Count,
    },
    Field {
        name: "gradient_accumulation_steps",
        aliases: &[],
        kind: FieldKind::Count,
    },
    Field {
        name: "learning_rate",
        aliases: &["lr"],
        kind: FieldKind::Float,
    },
    Field {
        name: "adam_beta1",
        aliases: &[],
        kind: FieldKind::Float,
    },
    Field {
        name: "adam_beta2",
        aliases: &[],
        kind: FieldKind::Float,
    },
    Field {
        name: "adam_epsilon",
        aliases: &["adam_eps"],
        kind: FieldKind::Float,
    },
    Field {
        name: "weight_decay",
        aliases: &[],
        kind: FieldKind::Float,
    },
    Field {
        name: "max_grad_norm",
        aliases: &[],
        kind: FieldKind::Float,
    },
    Field {
        name: "warmup_steps",
        aliases: &[],
        kind: FieldKind::Float,
    },
    Field {
        name: "warmup_ratio",
        aliases: &[],
        kind: FieldKind::Float,
    },
    Field {
        name: "max_steps",
        aliases: &[],
        kind: FieldKind::Int,
    },
    Field {
        name: "num_train_epochs",
        aliases: &["epochs"],
        kind: FieldKind::Float,
    },
    Field {
        name: "train_samples",
        aliases: &["dataset_size", "num_train_samples"],
        kind: FieldKind::Count,
    },
    Field {
        name: "bf16",
        aliases: &[],
        kind: FieldKind::Bool,
    },
    Field {
        name: "fp16",
        aliases: &[],
        kind: FieldKind::Bool,
    },
    Field {
        name: "mixed_precision",
        aliases: &[],
        kind: FieldKind::Text,
    },
    Field {
        name: "optim",
        aliases: &["optimizer"],
        kind: FieldKind::Text,
    },
    Field {
        name: "lr_scheduler_type",
        aliases: &["lr_scheduler"],
        kind: FieldKind::Text,
    },
    Field {
        name: "hidden_size",
        aliases: &[],
        kind: FieldKind::Count,
    },
];

/// Why a `key=value` argument was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ArgError(pub String);

impl TrainerArgs {
    /// Every argument name [`TrainerArgs::set`] takes (without aliases).
    pub fn names() -> impl Iterator<Item = &'static str> {
        FIELDS.iter().map(|f| f.name)
    }

    /// Sets one argument from its text, as a command line or a YAML file writes it.
    /// `warmup_ratio` sets `warmup_steps` to the fraction; `mixed_precision` sets bf16/fp16.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ArgError> {
        let key = key.trim().trim_start_matches('-').replace('-', "_");
        let field = FIELDS
            .iter()
            .find(|f| f.name == key || f.aliases.contains(&key.as_str()))
            .ok_or_else(|| {
                ArgError(format!(
                    "unknown trainer argument '{}' (known: {})",
                    key.chars().take(60).collect::<String>(),
                    FIELDS.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
                ))
            })?;
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        let bad = |what: &str| {
            ArgError(format!(
                "trainer argument {} must be {what}, got '{}'",
                field.name,
                value.chars().take(40).collect::<String>()
            ))
        };
        match field.kind {
            FieldKind::Count => {
                let n: u64 = parse_count(value).ok_or_else(|| bad("a positive whole number"))?;
                match field.name {
                    "per_device_train_batch_size" => self.per_device_train_batch_size = Some(n),
                    "gradient_accumulation_steps" => self.gradient_accumulation_steps = Some(n),
                    "train_samples" => self.train_samples = Some(n),
                    _ => self.hidden_size = Some(n),
                }
            }
            FieldKind::Int => {
                let n: i64 = value.parse().map_err(|_| bad("a whole number"))?;
                self.max_steps = Some(n);
            }
            FieldKind::Float => {
                let x: f64 = value
                    .parse()
                    .ok()
                    .filter(|x: &f64| x.is_finite())
                    .ok_or_else(|| bad("a number"))?;
                match field.name {
                    "learning_rate" => self.learning_rate = Some(x),
                    "adam_beta1" => self.adam_beta1 = Some(x),
                    "adam_beta2" => self.adam_beta2 = Some(x),
                    "adam_epsilon" => self.adam_epsilon = Some(x),
                    "weight_decay" => self.weight_decay = Some(x),
                    "max_grad_norm" => self.max_grad_norm = Some(x),
                    "num_train_epochs" => self.num_train_epochs = Some(x),
                    "warmup_ratio" => {
                        if !(0.0..1.0).contains(&x) {
                            return Err(bad("a fraction in [0, 1)"));
                        }
                        self.warmup_steps = Some(x)
                    }
                    _ => {
                        if x < 0.0 {
                            return Err(bad("0 or more"));
                        }
                        self.warmup_steps = Some(x)
                    }
                }
            }
            FieldKind::Bool => {
                let b = match value.to_ascii_lowercase().as_str() {
                    "true" | "1" | "yes" | "on" | "" => true,
                    "false" | "0" | "no" | "off" => false,
                    _ => return Err(bad("true or false")),
                };
                if field.name == "bf16" {
                    self.bf16 = Some(b);
                } else {
                    self.fp16 = Some(b);
                }
            }
            FieldKind::Text => match field.name {
                "mixed_precision" => match value.to_ascii_lowercase().as_str() {
                    "bf16" | "fp8" => (self.bf16, self.fp16) = (Some(true), Some(false)),
                    "fp16" => (self.bf16, self.fp16) = (Some(false), Some(true)),
                    "no" | "none" | "fp32" => (self.bf16, self.fp16) = (Some(false), Some(false)),
                    _ => return Err(bad("no, fp16, bf16 or fp8")),
                },
                "optim" => self.optim = Some(value.to_string()),
                _ => self.lr_scheduler_type = Some(value.to_string()),
            },
        }
        Ok(())
    }

    /// Parses `key=value,key=value` (the CLI's `--trainer-args`).
    pub fn parse_pairs(text: &str) -> Result<TrainerArgs, ArgError> {
        let mut args = TrainerArgs::default();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').ok_or_else(|| {
                ArgError(format!(
                    "trainer argument '{}' is not key=value",
                    pair.chars().take(60).collect::<String>()
                ))
            })?;
            args.set(k, v)?;
        }
        Ok(args)
    }

    /// The names of the fields given (for "assumed the defaults of ..." messages).
    pub fn given(&self) -> Vec<&'static str> {
        let v = serde_json::to_value(self).unwrap_or_default();
        FIELDS
            .iter()
            .map(|f| f.name)
            .filter(|n| v.get(n).is_some())
            .collect()
    }

    /// The arguments with the Trainer's defaults (transformers 5.23) filled in.
    pub fn resolved(&self) -> Resolved {
        Resolved {
            per_device_train_batch_size: self.per_device_train_batch_size.unwrap_or(8),
            gradient_accumulation_steps: self.gradient_accumulation_steps.unwrap_or(1),
            learning_rate: self.learning_rate.unwrap_or(5e-5),
            adam_beta1: self.adam_beta1.unwrap_or(0.9),
            adam_beta2: self.adam_beta2.unwrap_or(0.999),
            adam_epsilon: self.adam_epsilon.unwrap_or(1e-8),
            weight_decay: self.weight_decay.unwrap_or(0.0),
            max_grad_norm: self.max_grad_norm.unwrap_or(1.0),
            warmup_steps: self.warmup_steps.unwrap_or(0.0),
            max_steps: self.max_steps.unwrap_or(-1),
            num_train_epochs: self.num_train_epochs.unwrap_or(3.0),
            train_samples: self.train_samples,
            bf16: self.bf16.unwrap_or(false),
            fp16: self.fp16.unwrap_or(false),
            hidden_size: self.hidden_size.unwrap_or(ASSUMED_HIDDEN_SIZE),
            hidden_size_known: self.hidden_size.is_some(),
        }
    }
}

impl Resolved {
    /// Accelerate's `--mixed_precision` for these arguments.
    pub fn mixed_precision(&self) -> &'static str {
        if self.bf16 {
            "bf16"
        } else if self.fp16 {
            "fp16"
        } else {
            "no"
        }
    }
}

/// A positive count, also as YAML and HF scripts write them (`8`, `8.0`, `1e3`).
fn parse_count(s: &str) -> Option<u64> {
    if let Ok(n) = s.parse::<u64>() {
        return (n > 0).then_some(n);
    }
    let x: f64 = s.parse().ok()?;
    (x >= 1.0 && x.fract() == 0.0 && x < 9.0e15).then_some(x as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_parse_with_aliases_and_refuse_bad_values() {
        let a = TrainerArgs::parse_pairs(
            "per_device_train_batch_size=4, lr=2e-5,--bf16=true,warmup_ratio=0.1,max-steps=100",
        )
        .unwrap();
        assert_eq!(a.per_device_train_batch_size, Some(4));
        assert_eq!(a.learning_rate, Some(2e-5));
        assert_eq!(a.bf16, Some(true));
        assert_eq!(a.warmup_steps, Some(0.1));
        assert_eq!(a.max_steps, Some(100));
        let e = TrainerArgs::parse_pairs("per_device_train_batch_size=0").unwrap_err();
        assert!(e.0.contains("positive whole number"), "{e}");
        let e = TrainerArgs::parse_pairs("bogus=1").unwrap_err();
        assert!(e.0.contains("unknown trainer argument 'bogus'"), "{e}");
        let e = TrainerArgs::parse_pairs("lr").unwrap_err();
        assert!(e.0.contains("not key=value"), "{e}");
        let e = TrainerArgs::parse_pairs("mixed_precision=int4").unwrap_err();
        assert!(e.0.contains("no, fp16, bf16"), "{e}");
    }

    #[test]
    fn defaults_are_the_trainers() {
        let r = TrainerArgs::default().resolved();
        assert_eq!(
            (r.per_device_train_batch_size, r.gradient_accumulation_steps),
            (8, 1)
        );
        assert_eq!((r.learning_rate, r.max_grad_norm), (5e-5, 1.0));
        assert_eq!(r.mixed_precision(), "no");
        assert!(TrainerArgs::default().given().is_empty());
        let a = TrainerArgs::parse_pairs("mixed_precision=fp16,lr=1").unwrap();
        assert_eq!(a.given(), vec!["learning_rate", "bf16", "fp16"]);
        assert_eq!(a.resolved().mixed_precision(), "fp16");
    }
}
