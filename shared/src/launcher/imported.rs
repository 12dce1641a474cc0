//! What an imported training file says about the run ([`Imported`]): the answer of
//! `POST /api/v1/trainer-args/import`, which the browser reads without the importer itself
//! (the `import` feature, see `import.rs`).

use super::args::TrainerArgs;
use crate::i18n::Text;
use crate::vocab::Launcher;
use serde::{Deserialize, Serialize};

/// Which kind of file the arguments came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    LlamaFactory,
    Axolotl,
    AccelerateConfig,
    CommandLine,
}

impl Source {
    /// As the API writes it (`llama-factory`, `axolotl`, `accelerate-config`, `command-line`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::LlamaFactory => "llama-factory",
            Source::Axolotl => "axolotl",
            Source::AccelerateConfig => "accelerate-config",
            Source::CommandLine => "command-line",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Source::LlamaFactory => "LLaMA-Factory training YAML",
            Source::Axolotl => "axolotl YAML",
            Source::AccelerateConfig => "accelerate config YAML",
            Source::CommandLine => "HF command line",
        }
    }
    pub fn title_zh(self) -> &'static str {
        match self {
            Source::LlamaFactory => "LLaMA-Factory 训练 YAML",
            Source::Axolotl => "axolotl YAML",
            Source::AccelerateConfig => "accelerate config YAML",
            Source::CommandLine => "HF 训练命令行",
        }
    }
}

/// What an imported file says about the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Imported {
    pub source: Source,
    /// The launcher the file implies (the Trainer for LLaMA-Factory, axolotl and training
    /// scripts; Accelerate for an accelerate config).
    pub launcher: Launcher,
    pub trainer: TrainerArgs,
    /// Ranks, where the file says (`num_processes`, `--nproc_per_node` × `--nnodes`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world_size: Option<u32>,
    /// Nodes, where the file says (`num_machines`, `--nnodes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u32>,
    /// The DeepSpeed config the file points at, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deepspeed_config: Option<String>,
    /// What the importer read but could not use, or had to assume (one line each).
    #[serde(default)]
    pub notes: Vec<Text>,
}
