//! The validation context flags shared by `validate` and `effective`.

use ds_studio_shared::{Context, Launcher, Release};

#[derive(clap::Args, Debug, Clone)]
pub struct ContextArgs {
    /// Total number of GPUs (data-parallel world size unless tp/pp/sp are given).
    #[arg(long, conflicts_with_all = ["nodes", "gpus_per_node"])]
    pub world_size: Option<u32>,
    #[arg(long, requires = "gpus_per_node")]
    pub nodes: Option<u32>,
    #[arg(long, requires = "nodes")]
    pub gpus_per_node: Option<u32>,
    #[arg(long, default_value_t = 1)]
    pub tensor_parallel: u32,
    #[arg(long, default_value_t = 1)]
    pub pipeline_parallel: u32,
    #[arg(long, default_value_t = 1)]
    pub sequence_parallel: u32,
    /// Who launches DeepSpeed: decides what "auto" means.
    #[arg(long, default_value = "deepspeed", value_parser = ["deepspeed", "hf-trainer", "accelerate"])]
    pub launcher: String,
    /// The DeepSpeed release to judge for (0.14.4 – 0.19.8), or `auto`: the one the Python on
    /// PATH imports.
    #[arg(long = "deepspeed", value_name = "X.Y.Z|auto", default_value = "0.19.8", value_parser = super::release_arg::parse)]
    pub release: Release,
}

impl ContextArgs {
    pub fn to_context(&self) -> Context {
        let world_size = self
            .world_size
            .unwrap_or_else(|| self.nodes.unwrap_or(1) * self.gpus_per_node.unwrap_or(1));
        Context {
            world_size,
            tensor_parallel: self.tensor_parallel,
            pipeline_parallel: self.pipeline_parallel,
            sequence_parallel: self.sequence_parallel,
            launcher: self.launcher.parse::<Launcher>().unwrap_or_default(),
            deepspeed_version: self.release.to_string(),
            ..Context::default()
        }
    }
}
