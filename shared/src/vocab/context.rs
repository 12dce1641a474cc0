//! Where the config will run: cluster shape, launcher, DeepSpeed version.

use crate::release::{Release, UnknownRelease};
use serde::{Deserialize, Serialize};

/// Who launches DeepSpeed; this decides what `"auto"` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Launcher {
    /// The plain `deepspeed` launcher: `"auto"` is passed to DeepSpeed as a string.
    #[default]
    Deepspeed,
    /// Hugging Face Trainer: replaces `"auto"` values from its TrainingArguments.
    HfTrainer,
    /// Hugging Face Accelerate: replaces `"auto"` values too.
    Accelerate,
}

/// The keys the Hugging Face Trainer fills in when they are `"auto"` (registry paths;
/// `transformers.integrations.deepspeed.HfTrainerDeepSpeedConfig.trainer_config_process` and
/// `trainer_config_finalize`), where the editor's form offers "auto". Accelerate fills the
/// same batch, precision and bucket keys. (`amp.enabled` and the unprefixed
/// `prefetch_bucket_size`/`param_persistence_threshold` are not filled: HF refuses them as
/// "auto"; what each launcher fills is modelled in `launcher::hf`.)
pub const AUTO_KEYS: &[&str] = &[
    "train_batch_size",
    "train_micro_batch_size_per_gpu",
    "gradient_accumulation_steps",
    "gradient_clipping",
    "fp16.enabled",
    "bf16.enabled",
    "optimizer.params.lr",
    "optimizer.params.betas",
    "optimizer.params.eps",
    "optimizer.params.weight_decay",
    "scheduler.params.warmup_min_lr",
    "scheduler.params.warmup_max_lr",
    "scheduler.params.warmup_num_steps",
    "scheduler.params.total_num_steps",
    "zero_optimization.reduce_bucket_size",
    "zero_optimization.stage3_prefetch_bucket_size",
    "zero_optimization.stage3_param_persistence_threshold",
];

impl Launcher {
    pub fn fills_auto(self) -> bool {
        !matches!(self, Launcher::Deepspeed)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Launcher::Deepspeed => "deepspeed",
            Launcher::HfTrainer => "hf-trainer",
            Launcher::Accelerate => "accelerate",
        }
    }
}

impl std::str::FromStr for Launcher {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "deepspeed" => Ok(Launcher::Deepspeed),
            "hf-trainer" | "hf" | "transformers" => Ok(Launcher::HfTrainer),
            "accelerate" => Ok(Launcher::Accelerate),
            other => Err(format!(
                "unknown launcher '{other}' (use deepspeed, hf-trainer or accelerate)"
            )),
        }
    }
}

/// The validation context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Context {
    /// Total number of ranks (GPUs).
    pub world_size: u32,
    pub tensor_parallel: u32,
    pub pipeline_parallel: u32,
    pub sequence_parallel: u32,
    pub launcher: Launcher,
    /// The DeepSpeed release the config targets: any of [`crate::release::releases`]
    /// (0.14.4 – 0.19.8; default the newest). Anything else is an `unknown-release` error.
    pub deepspeed_version: String,
    /// The accelerator DeepSpeed runs on (`cuda`, `cpu`, ...): a few rules depend on it.
    pub accelerator: String,
    /// GPU memory per device in GiB, when known (used by hints).
    pub gpu_memory_gib: Option<f64>,
    /// The model is saved as a Hugging Face checkpoint (`save_pretrained`).
    pub saves_hf_model: Option<bool>,
    /// How the config reaches DeepSpeed: as a dict (HF Trainer, Accelerate, scripts that load
    /// the JSON themselves) or as a file path (`--deepspeed_config`). A few parser paths differ
    /// (`sequence_parallel_size` divides the world size only for dicts). Default: by launcher.
    pub passes_dict: Option<bool>,
    /// The HF Trainer's (or an Accelerate script's) arguments, read under those launchers:
    /// compared with the config and used to fill its `"auto"` values. Absent fields take the
    /// Trainer's defaults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trainer: Option<super::args::TrainerArgs>,
}

impl Default for Context {
    fn default() -> Self {
        Context {
            world_size: 1,
            tensor_parallel: 1,
            pipeline_parallel: 1,
            sequence_parallel: 1,
            launcher: Launcher::Deepspeed,
            deepspeed_version: Release::newest().to_string(),
            accelerator: "cuda".into(),
            gpu_memory_gib: None,
            saves_hf_model: None,
            passes_dict: None,
            trainer: None,
        }
    }
}

impl Context {
    /// The release [`Context::deepspeed_version`] names (empty: the newest).
    pub fn release(&self) -> Result<Release, UnknownRelease> {
        if self.deepspeed_version.trim().is_empty() {
            return Ok(Release::newest());
        }
        Release::parse(&self.deepspeed_version)
    }
    pub fn with_world_size(world_size: u32) -> Context {
        Context {
            world_size,
            ..Context::default()
        }
    }
    /// Whether DeepSpeed receives the config as a dict (see `passes_dict`).
    pub fn dict_input(&self) -> bool {
        self.passes_dict.unwrap_or(self.launcher.fills_auto())
    }
    /// The context DeepSpeed itself sees once an HF launcher has processed the config: a
    /// dict, no `"auto"` left, the HF model saved with `save_pretrained`.
    pub(crate) fn after_hf(&self) -> Context {
        Context {
            launcher: Launcher::Deepspeed,
            passes_dict: Some(true),
            saves_hf_model: Some(self.saves_hf_model.unwrap_or(true)),
            trainer: None,
            ..self.clone()
        }
    }
    /// Data-parallel size: the `world_size` DeepSpeed uses in the batch arithmetic.
    pub fn data_parallel_size(&self) -> f64 {
        // In f64: 65536 × 65536 in u32 wrapped to 0 (and a world size of "inf").
        let model = f64::from(self.tensor_parallel.max(1))
            * f64::from(self.pipeline_parallel.max(1))
            * f64::from(self.sequence_parallel.max(1));
        self.world_size.max(1) as f64 / model
    }
}

#[cfg(test)]
mod tests {
    use super::AUTO_KEYS;
    use crate::registry::registry;

    #[test]
    fn every_auto_key_is_known() {
        let reg = registry();
        for k in AUTO_KEYS {
            let known = reg.explain(k).is_some()
                || k.strip_prefix("optimizer.params.").is_some_and(|p| {
                    reg.optimizer("adamw")
                        .is_some_and(|f| f.params.contains_key(p))
                });
            assert!(
                known,
                "{k} is neither a registry key nor an AdamW parameter"
            );
        }
    }
}
