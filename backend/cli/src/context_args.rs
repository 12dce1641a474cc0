//! The validation context flags shared by `validate`, `effective` and `upgrade`: the cluster
//! shape, the launcher, the DeepSpeed release, and the HF Trainer's arguments (typed as
//! `--trainer-args` or imported with `--trainer-args-file` from a LLaMA-Factory, axolotl or
//! accelerate YAML, or a saved command line).

use ds_studio_shared::launcher::import::{import, Imported, MAX_IMPORT_BYTES};
use ds_studio_shared::launcher::TrainerArgs;
use ds_studio_shared::{Context, Launcher, Release};

#[derive(clap::Args, Debug, Clone)]
pub struct ContextArgs {
    /// Total number of GPUs (data-parallel world size unless tp/pp/sp are given). Without it,
    /// --nodes and --gpus-per-node, or a --trainer-args-file that names it: 1.
    #[arg(long, conflicts_with_all = ["nodes", "gpus_per_node"], value_parser = at_least_one())]
    pub world_size: Option<u32>,
    /// Number of nodes (with --gpus-per-node: the world size is their product).
    #[arg(long, requires = "gpus_per_node", value_parser = at_least_one())]
    pub nodes: Option<u32>,
    /// GPUs on each node (with --nodes).
    #[arg(long, requires = "nodes", value_parser = at_least_one())]
    pub gpus_per_node: Option<u32>,
    #[arg(long, default_value_t = 1, value_parser = at_least_one())]
    pub tensor_parallel: u32,
    #[arg(long, default_value_t = 1, value_parser = at_least_one())]
    pub pipeline_parallel: u32,
    #[arg(long, default_value_t = 1, value_parser = at_least_one())]
    pub sequence_parallel: u32,
    /// Who launches DeepSpeed: the HF launchers read the file with json.load, compare it with
    /// the trainer arguments and fill "auto". Default: what --trainer-args-file implies,
    /// hf-trainer with --trainer-args, else deepspeed.
    #[arg(long, value_parser = ["deepspeed", "hf-trainer", "accelerate"])]
    pub launcher: Option<String>,
    /// The DeepSpeed release to judge for (0.14.4 – 0.19.8), or `auto`: the one the Python on
    /// PATH imports.
    #[arg(long = "deepspeed", value_name = "X.Y.Z|auto", default_value = "0.19.8", value_parser = super::release_arg::parse)]
    pub release: Release,
    /// The HF Trainer's arguments, e.g. `per_device_train_batch_size=4,learning_rate=2e-5,bf16=true`
    /// (names as TrainingArguments; also train_samples, hidden_size, mixed_precision).
    /// Given ones override --trainer-args-file.
    #[arg(long, value_name = "KEY=VALUE,...")]
    pub trainer_args: Option<String>,
    /// Read the trainer arguments (and launcher, world size, DeepSpeed config path) from a
    /// LLaMA-Factory or axolotl training YAML, an `accelerate config` YAML, or a file holding
    /// the training command line.
    #[arg(long, value_name = "FILE")]
    pub trainer_args_file: Option<String>,
}

/// A count of GPUs, nodes or ranks: 0 is a usage error, not a world of one.
fn at_least_one() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..)
}

/// The context, and what was imported to make it (for messages and the config path).
pub struct Resolved {
    pub context: Context,
    pub imported: Option<Imported>,
    /// No flag or imported file gave the world size: 1 was assumed.
    pub world_size_assumed: bool,
}

impl ContextArgs {
    /// The context the flags describe; a message naming the problem when a trainer argument
    /// or the imported file is refused.
    pub fn resolve(&self) -> Result<Resolved, String> {
        let imported = match &self.trainer_args_file {
            None => None,
            Some(path) => {
                let text = crate::input::read_input_limited(path, MAX_IMPORT_BYTES as u64)
                    .map_err(|e| format!("cannot read {path}: {e}"))?;
                let got = import(&text).map_err(|e| format!("{path}: {e}"))?;
                for n in &got.notes {
                    eprintln!("ds-studio: {path} ({}): {}", got.source.title(), n.en);
                }
                Some(got)
            }
        };
        let mut trainer = imported.as_ref().map(|i| i.trainer.clone());
        if let Some(pairs) = &self.trainer_args {
            let typed =
                TrainerArgs::parse_pairs(pairs).map_err(|e| format!("--trainer-args: {e}"))?;
            let mut merged = serde_json::to_value(trainer.unwrap_or_default()).unwrap_or_default();
            if let (Some(m), serde_json::Value::Object(t)) = (
                merged.as_object_mut(),
                serde_json::to_value(typed).unwrap_or_default(),
            ) {
                m.extend(t);
            }
            trainer =
                Some(serde_json::from_value(merged).map_err(|e| format!("--trainer-args: {e}"))?);
        }
        let launcher = match (&self.launcher, &imported) {
            (Some(l), _) => l.parse::<Launcher>()?,
            (None, Some(i)) => i.launcher,
            // Trainer arguments mean the Trainer launches it.
            (None, None) if trainer.is_some() => Launcher::HfTrainer,
            (None, None) => Launcher::Deepspeed,
        };
        if trainer.is_some() && !launcher.fills_auto() {
            eprintln!("ds-studio: trainer arguments are read only with --launcher hf-trainer or accelerate");
        }
        let world_size_assumed = self.world_size.is_none()
            && self.nodes.is_none()
            && imported.as_ref().and_then(|i| i.world_size).is_none();
        let world_size = self.world_size.unwrap_or_else(|| {
            match (
                self.nodes,
                self.gpus_per_node,
                imported.as_ref().and_then(|i| i.world_size),
            ) {
                (Some(n), Some(g), _) => n * g,
                (_, _, Some(w)) => w,
                _ => 1,
            }
        });
        Ok(Resolved {
            context: Context {
                world_size,
                tensor_parallel: self.tensor_parallel,
                pipeline_parallel: self.pipeline_parallel,
                sequence_parallel: self.sequence_parallel,
                launcher,
                deepspeed_version: self.release.to_string(),
                trainer,
                ..Context::default()
            },
            imported,
            world_size_assumed,
        })
    }
}

impl Resolved {
    /// The DeepSpeed config the imported file names, relative to the working directory or,
    /// failing that, to the imported file's directory; `Ok(None)` when it names none. The file
    /// a training YAML points at is followed only to a regular file of at most 1 MiB (not
    /// `/dev/zero`, a FIFO or a directory).
    pub fn config_path(&self, imported_from: &str) -> Result<Option<String>, String> {
        let Some(named) = self
            .imported
            .as_ref()
            .and_then(|i| i.deepspeed_config.clone())
        else {
            return Ok(None);
        };
        let beside = std::path::Path::new(imported_from)
            .parent()
            .map(|p| p.join(&named));
        let path = match beside {
            Some(b) if !std::path::Path::new(&named).exists() && b.exists() => {
                b.to_string_lossy().into_owned()
            }
            _ => named,
        };
        followable(&path)
            .map_err(|e| format!("{imported_from} names {path} as its DeepSpeed config: {e}"))?;
        Ok(Some(path))
    }
}

/// Largest config file the CLI follows from a training file.
pub const MAX_FOLLOWED_BYTES: u64 = 1 << 20;

/// Whether a path a training file names may be read: a regular file (symlinks followed) of at
/// most [`MAX_FOLLOWED_BYTES`]. A missing file passes (reading it then says so).
fn followable(path: &str) -> Result<(), String> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    if !meta.is_file() {
        return Err("not a regular file (a device, FIFO or directory is not followed)".into());
    }
    if meta.len() > MAX_FOLLOWED_BYTES {
        return Err(format!(
            "{} bytes; a config file is read up to {MAX_FOLLOWED_BYTES} (1 MiB)",
            meta.len()
        ));
    }
    Ok(())
}
