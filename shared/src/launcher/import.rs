//! The training arguments from the files users already have: a LLaMA-Factory training YAML,
//! an axolotl YAML, an `accelerate config` YAML, or an HF command line (`torchrun ... train.py
//! --per_device_train_batch_size 4 ...`, `deepspeed ...`, `accelerate launch ...`). Each names
//! its DeepSpeed config, which [`Imported::deepspeed_config`] returns.

use super::args::TrainerArgs;
use crate::i18n::Text;
use crate::vocab::Launcher;
use yaml_rust2::Yaml;

pub use super::imported::{Imported, Source};

/// Why a file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImportError(pub String);

/// Longest file the importer reads (a training YAML is a few KiB).
pub const MAX_IMPORT_BYTES: usize = 1 << 20;

/// Reads the arguments from a file's text, recognising its kind.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    import_unbounded(text).map(|mut imported| {
        // One note per refused or ignored argument: a hostile file of 50,000 repeated flags
        // would answer with as many (14 MB for a 1 MB command line).
        if imported.notes.len() > MAX_NOTES {
            let more = imported.notes.len() - (MAX_NOTES - 1);
            imported.notes.truncate(MAX_NOTES - 1);
            imported.notes.push(Text::new(
                format!("{more} more notes not listed"),
                format!("另有 {more} 条说明未列出"),
            ));
        }
        for note in &mut imported.notes {
            note.en = crate::i18n::bounded(std::mem::take(&mut note.en));
            note.zh = crate::i18n::bounded(std::mem::take(&mut note.zh));
        }
        imported
    })
}

/// Most notes an import answers with (the last says how many more there were).
pub const MAX_NOTES: usize = 50;

fn import_unbounded(text: &str) -> Result<Imported, ImportError> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(ImportError(format!(
            "the file is {} bytes: training files are read up to {MAX_IMPORT_BYTES}",
            text.len()
        )));
    }
    if looks_like_command(text) {
        return command_line(text);
    }
    let loaded = super::yaml::load(text)
        .map_err(|e| ImportError(format!("not a training YAML or a command line: {e}")))?;
    let Yaml::Hash(map) = loaded.doc else {
        return Err(ImportError(
            "not a training YAML (no `key: value` mapping) or a command line (no --flags)".into(),
        ));
    };
    let has = |k: &str| map.contains_key(&Yaml::String(k.into()));
    let mut imported = if has("distributed_type") || has("compute_environment") {
        accelerate_config(&map)
    } else if has("base_model") || has("micro_batch_size") || has("num_epochs") {
        training_yaml(&map, Source::Axolotl)
    } else {
        training_yaml(&map, Source::LlamaFactory)
    }?;
    if imported.trainer.given().is_empty() && imported.deepspeed_config.is_none() {
        // A mapping, but nothing the studio reads: said, not "imported" in silence.
        let keys: Vec<String> = map
            .keys()
            .filter_map(|k| k.as_str().map(|k| crate::i18n::shown(k).into_owned()))
            .take(8)
            .collect();
        imported.notes.push(Text::new(
            format!(
                "no training argument found: none of this file's keys ({}) is one the studio reads",
                keys.join(", ")
            ),
            format!(
                "未找到训练参数：此文件的键（{}）都不是工作台读取的参数",
                keys.join(", ")
            ),
        ));
    }
    if !loaded.foreign_tags.is_empty() {
        let tags = loaded.foreign_tags.join(", ");
        imported.notes.push(Text::new(
            format!("YAML tags {tags} are not interpreted: their values were read as plain YAML"),
            format!("未解释 YAML 标签 {tags}：其值按普通 YAML 读取"),
        ));
    }
    if loaded.merges > 0 {
        imported.notes.push(Text::new(
            format!(
                "merge keys (`<<`) applied in {} mapping(s): their entries count where the mapping does not set its own",
                loaded.merges
            ),
            format!(
                "已应用 {} 处合并键（`<<`）：映射自身未设置的条目取自被合并的映射",
                loaded.merges
            ),
        ));
    }
    Ok(imported)
}

/// Most ranks or nodes a file may name (a count beyond it is a typo, not a cluster).
pub const MAX_COUNT: u64 = 1 << 20;

/// [`count`], its refusal kept in `refused`.
fn counted(refused: &mut Vec<String>, name: &str, value: &str) -> Option<u32> {
    count(name, value).map_err(|e| refused.push(e)).ok()
}

/// A count of ranks or nodes as written (`num_processes: 8`, `--nnodes 2`): a whole number from
/// 1 to [`MAX_COUNT`], or why not.
fn count(name: &str, value: &str) -> Result<u32, String> {
    match value.trim().parse::<i128>() {
        Ok(n) if (1..=MAX_COUNT as i128).contains(&n) => Ok(n as u32),
        _ => Err(format!(
            "{name} is {}: it must be a whole number from 1 to {MAX_COUNT}",
            value.chars().take(40).collect::<String>()
        )),
    }
}

/// The launchers whose command lines the importer reads.
const COMMANDS: &[&str] = &[
    "torchrun",
    "deepspeed",
    "accelerate",
    "python",
    "python3",
    "llamafactory-cli",
    "axolotl",
];

/// A command line or a launch script: the first word is a flag, or some word (after a
/// shebang, comments, `export` lines and `VAR=value` prefixes) is one of [`COMMANDS`].
fn looks_like_command(text: &str) -> bool {
    if text.trim_start().starts_with("--") {
        return true;
    }
    // A launcher word that starts a line (after `export` and `NAME=value` assignments): a
    // launcher named inside a YAML value (`output_dir: saves/deepspeed`, `run_name: python`)
    // starts no line, since YAML lines start with their key.
    let is_command = |w: &str| {
        let w = w.trim_end_matches(';');
        COMMANDS.contains(&w.rsplit('/').next().unwrap_or(w))
    };
    let is_assignment = |w: &str| {
        w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        })
    };
    text.lines().any(|line| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return false;
        }
        line.split_whitespace()
            .find(|w| *w != "export" && !is_assignment(w))
            .is_some_and(is_command)
    })
}

/// A YAML scalar as the text a command line would give.
fn scalar(v: &Yaml) -> Option<String> {
    match v {
        Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::String(s) => Some(s.clone()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Sets one argument, keeping a note when the value is refused.
fn set(args: &mut TrainerArgs, refused: &mut Vec<String>, key: &str, value: &str) {
    if let Err(e) = args.set(key, value) {
        refused.push(e.0);
    }
}

/// A file with a value HF would refuse is refused, naming every such value.
fn refuse(refused: Vec<String>) -> Result<(), ImportError> {
    if refused.is_empty() {
        Ok(())
    } else {
        Err(ImportError(refused.join("; ")))
    }
}

/// The TrainingArguments names ds-studio reads (LLaMA-Factory and command lines use them as is).
const TRAINING_ARGS: &[&str] = &[
    "per_device_train_batch_size",
    "gradient_accumulation_steps",
    "learning_rate",
    "adam_beta1",
    "adam_beta2",
    "adam_epsilon",
    "weight_decay",
    "max_grad_norm",
    "warmup_steps",
    "warmup_ratio",
    "max_steps",
    "num_train_epochs",
    "bf16",
    "fp16",
    "optim",
    "lr_scheduler_type",
];

/// axolotl's names for TrainingArguments (LLaMA-Factory uses TrainingArguments' own).
const AXOLOTL_NAMES: &[(&str, &str)] = &[
    ("micro_batch_size", "per_device_train_batch_size"),
    ("num_epochs", "num_train_epochs"),
    ("optimizer", "optim"),
    ("lr_scheduler", "lr_scheduler_type"),
];

/// A training YAML of LLaMA-Factory or axolotl: the Trainer's arguments under their names (or
/// axolotl's), `deepspeed:` naming the config. LLaMA-Factory's `max_samples` bounds the dataset
/// size; axolotl's `bf16: auto` turns bf16 on where the GPU has it.
fn training_yaml(map: &yaml_rust2::yaml::Hash, source: Source) -> Result<Imported, ImportError> {
    let axolotl = source == Source::Axolotl;
    let mut args = TrainerArgs::default();
    let mut notes: Vec<Text> = Vec::new();
    let mut refused = Vec::new();
    let mut deepspeed = None;
    for (k, v) in map {
        let (Some(k), Some(v)) = (k.as_str(), scalar(v)) else {
            continue;
        };
        let renamed = AXOLOTL_NAMES
            .iter()
            .find(|(from, _)| axolotl && *from == k)
            .map(|(_, to)| *to);
        let name = match (k, renamed) {
            ("deepspeed", _) => {
                deepspeed = Some(v);
                continue;
            }
            ("max_samples", _) if !axolotl => {
                set(&mut args, &mut refused, "train_samples", &v);
                notes.push(Text::new(
                    format!(
                        "train_samples taken from max_samples ({v}): the dataset may be smaller"
                    ),
                    format!("数据集大小取自 max_samples（{v}）：实际数据集可能更小"),
                ));
                continue;
            }
            (_, Some(to)) => to,
            _ if TRAINING_ARGS.contains(&k) => k,
            _ => continue,
        };
        if axolotl && (name == "bf16" || name == "fp16") && v == "auto" {
            // axolotl turns bf16: auto on where the GPU has bf16 (every Ampere or newer), and
            // fp16 only where it has not: on such a GPU, bf16 true and fp16 false (both true
            // would be a config DeepSpeed refuses).
            let on = name == "bf16";
            set(
                &mut args,
                &mut refused,
                name,
                if on { "true" } else { "false" },
            );
            notes.push(if on {
                Text::new(
                    "bf16: auto taken as true (axolotl enables it on GPUs with bf16)",
                    "bf16: auto 按 true 处理（axolotl 在支持 bf16 的 GPU 上启用它）",
                )
            } else {
                Text::new(
                    "fp16: auto taken as false (on GPUs with bf16 axolotl uses bf16, not fp16)",
                    "fp16: auto 按 false 处理（在支持 bf16 的 GPU 上 axolotl 使用 bf16 而非 fp16）",
                )
            });
            continue;
        }
        set(&mut args, &mut refused, name, &v);
    }
    refuse(refused)?;
    Ok(Imported {
        source,
        launcher: Launcher::HfTrainer,
        trainer: args,
        world_size: None,
        nodes: None,
        deepspeed_config: deepspeed,
        notes,
    })
}

fn accelerate_config(map: &yaml_rust2::yaml::Hash) -> Result<Imported, ImportError> {
    let mut args = TrainerArgs::default();
    let mut notes: Vec<Text> = Vec::new();
    let mut refused = Vec::new();
    let get = |k: &str| map.get(&Yaml::String(k.into()));
    if let Some(mp) = get("mixed_precision").and_then(scalar) {
        set(&mut args, &mut refused, "mixed_precision", &mp);
    }
    let world = get("num_processes")
        .and_then(scalar)
        .and_then(|v| counted(&mut refused, "num_processes", &v));
    let nodes = get("num_machines")
        .and_then(scalar)
        .and_then(|v| counted(&mut refused, "num_machines", &v));
    let ds = get("deepspeed_config").and_then(Yaml::as_hash);
    let file = ds
        .and_then(|d| d.get(&Yaml::String("deepspeed_config_file".into())))
        .and_then(scalar);
    if let Some(ds) = ds {
        if let Some(gas) = ds
            .get(&Yaml::String("gradient_accumulation_steps".into()))
            .and_then(scalar)
        {
            if file.is_none() {
                set(&mut args, &mut refused, "gradient_accumulation_steps", &gas);
            } else {
                notes.push(Text::new(
                    "deepspeed_config.gradient_accumulation_steps beside a deepspeed_config_file: accelerate refuses the pair (\"When using `deepspeed_config_file`, the following accelerate config variables will be ignored\")",
                    "deepspeed_config.gradient_accumulation_steps 与 deepspeed_config_file 同时出现：accelerate 会拒绝（\"When using `deepspeed_config_file`, the following accelerate config variables will be ignored\"）",
                ));
            }
        }
    }
    if file.is_none() {
        notes.push(Text::new(
            "the accelerate config names no deepspeed_config_file: accelerate builds the DeepSpeed config from its own fields",
            "该 accelerate 配置没有 deepspeed_config_file：accelerate 会用它自己的字段生成 DeepSpeed 配置",
        ));
    }
    refuse(refused)?;
    Ok(Imported {
        source: Source::AccelerateConfig,
        launcher: Launcher::Accelerate,
        trainer: args,
        world_size: world,
        nodes,
        deepspeed_config: file,
        notes,
    })
}

/// Splits a shell command line into words: quotes, backslash escapes and `\` line
/// continuations, as a POSIX shell does for these simple cases.
fn shell_words(text: &str) -> Result<Vec<String>, ImportError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(n) => {
                    cur.push(n);
                    in_word = true;
                }
                None => {}
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(n) => cur.push(n),
                        None => {
                            return Err(ImportError(
                                "unterminated ' quote in the command line".into(),
                            ))
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => {
                            if let Some(n) = chars.next() {
                                cur.push(n);
                            }
                        }
                        Some(n) => cur.push(n),
                        None => {
                            return Err(ImportError(
                                "unterminated \" quote in the command line".into(),
                            ))
                        }
                    }
                }
            }
            '#' if !in_word => {
                // a comment to the end of the line
                for n in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

fn command_line(text: &str) -> Result<Imported, ImportError> {
    let words = shell_words(text)?;
    let mut args = TrainerArgs::default();
    let mut notes: Vec<Text> = Vec::new();
    let mut refused = Vec::new();
    let mut deepspeed = None;
    let (mut per_node, mut nodes, mut processes) = (None::<u32>, None::<u32>, None::<u32>);
    let mut launcher = Launcher::HfTrainer;
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w == "accelerate" && words.get(i + 1).map(String::as_str) == Some("launch") {
            launcher = Launcher::Accelerate;
        }
        let Some(flag) = w.strip_prefix("--") else {
            i += 1;
            continue;
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n.replace('-', "_"), Some(v.to_string())),
            None => (flag.replace('-', "_"), None),
        };
        // The value: inline, or the next word unless it is another flag (a bare boolean).
        let next_is_value = words.get(i + 1).is_some_and(|n| !n.starts_with("--"));
        let value = match inline {
            Some(v) => v,
            None if next_is_value
                && (!matches!(name.as_str(), "bf16" | "fp16") || is_bool(&words[i + 1])) =>
            {
                i += 1;
                words[i].clone()
            }
            None => "true".into(),
        };
        let flag_name = format!("--{}", flag.split('=').next().unwrap_or(flag));
        match name.as_str() {
            "deepspeed" | "deepspeed_config" | "deepspeed_config_file" => deepspeed = Some(value),
            // torchrun's `--nproc_per_node auto|gpu|cpu` counts the machine's devices: unknown here.
            "nproc_per_node" if matches!(value.as_str(), "auto" | "gpu" | "cpu") => {}
            "nproc_per_node" | "num_gpus" => per_node = counted(&mut refused, &flag_name, &value),
            // torchrun's elastic `--nnodes 1:4` range: the upper bound.
            "nnodes" if value.contains(':') => {
                nodes = counted(&mut refused, &flag_name, value.rsplit(':').next().unwrap_or_default())
            }
            "nnodes" | "num_nodes" | "num_machines" => nodes = counted(&mut refused, &flag_name, &value),
            "num_processes" => processes = counted(&mut refused, &flag_name, &value),
            "config_file" => notes.push(Text::new(
                format!("the accelerate settings are in {value}: import that file too (its mixed_precision and num_processes)"),
                format!("accelerate 的设置在 {value} 中：请同时导入该文件（其中的 mixed_precision 与 num_processes）"),
            )),
            "mixed_precision" => set(&mut args, &mut refused, "mixed_precision", &value),
            n if TRAINING_ARGS.contains(&n) => set(&mut args, &mut refused, n, &value),
            _ => {}
        }
        i += 1;
    }
    // `llamafactory-cli train x.yaml` / `axolotl train x.yaml`: the arguments are in the YAML.
    if let Some(yaml) = words
        .iter()
        .find(|w| w.ends_with(".yaml") || w.ends_with(".yml"))
    {
        if deepspeed.is_none() && !words.iter().any(|w| w == "--config_file") {
            notes.push(Text::new(
                format!("the training arguments are in {yaml}: import that file for them and its DeepSpeed config"),
                format!("训练参数在 {yaml} 中：请导入该文件以获得参数及其 DeepSpeed 配置"),
            ));
        }
    }
    // NNODES=2 / NPROC_PER_NODE=8 before the command (LLaMA-Factory's FORCE_TORCHRUN form).
    for w in &words {
        if let Some((k, v)) = w.split_once('=') {
            match k {
                "NNODES" if nodes.is_none() => nodes = counted(&mut refused, k, v),
                "NPROC_PER_NODE" if per_node.is_none() => per_node = counted(&mut refused, k, v),
                _ => {}
            }
        }
    }
    let world = match processes {
        Some(p) => Some(p),
        None => match per_node.map(|p| u64::from(p) * u64::from(nodes.unwrap_or(1))) {
            Some(w) if w > MAX_COUNT => {
                refused.push(format!(
                    "{} processes per node × {} nodes is {w} ranks: at most {MAX_COUNT}",
                    per_node.unwrap_or(1),
                    nodes.unwrap_or(1)
                ));
                None
            }
            w => w.map(|w| w as u32),
        },
    };
    refuse(refused)?;
    Ok(Imported {
        source: Source::CommandLine,
        launcher,
        trainer: args,
        world_size: world,
        nodes,
        deepspeed_config: deepspeed,
        notes,
    })
}

fn is_bool(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "true" | "false" | "1" | "0" | "yes" | "no"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yaml_with_nothing_to_read_says_so() {
        let got = import("foo: bar\nbaz: 1\n").unwrap();
        assert!(
            got.notes.iter().any(
                |n| n.en.starts_with("no training argument found") && n.en.contains("foo, baz")
            ),
            "{:?}",
            got.notes
        );
    }

    /// Found by an outside attack: a launcher named anywhere made the whole file a command
    /// line, and every argument of the YAML was dropped without a word.
    #[test]
    fn a_launcher_named_in_a_yaml_value_keeps_it_yaml() {
        for text in [
            "output_dir: saves/deepspeed\nper_device_train_batch_size: 4\n",
            "run_name: python\nper_device_train_batch_size: 4\n",
            "# trained with deepspeed\nper_device_train_batch_size: 4\n",
        ] {
            let got = import(text).unwrap();
            assert_ne!(got.source, Source::CommandLine, "{text:?}");
            assert_eq!(got.trainer.per_device_train_batch_size, Some(4), "{text:?}");
        }
        // A command line still is one, after a shebang, exports and assignments.
        for text in [
            "#!/bin/bash\nexport NCCL_DEBUG=INFO\ndeepspeed --num_gpus 8 train.py --per_device_train_batch_size 4\n",
            "CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 train.py --per_device_train_batch_size 4",
            "/usr/bin/python3 train.py --per_device_train_batch_size 4",
        ] {
            let got = import(text).unwrap();
            assert_eq!(got.source, Source::CommandLine, "{text:?}");
            assert_eq!(got.trainer.per_device_train_batch_size, Some(4), "{text:?}");
        }
    }

    #[test]
    fn llama_factory_yaml() {
        // examples/train_full/llama3_full_sft.yaml, as LLaMA-Factory documents it
        let text = "### model\nmodel_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\ntrust_remote_code: true\n\n### method\nstage: sft\ndo_train: true\nfinetuning_type: full\ndeepspeed: examples/deepspeed/ds_z3_config.json\n\n### dataset\ndataset: identity,alpaca_en_demo\ntemplate: llama3\ncutoff_len: 2048\nmax_samples: 1000\n\n### output\noutput_dir: saves/llama3-8b/full/sft\nlogging_steps: 10\n\n### train\nper_device_train_batch_size: 1\ngradient_accumulation_steps: 2\nlearning_rate: 1.0e-5\nnum_train_epochs: 3.0\nlr_scheduler_type: cosine\nwarmup_ratio: 0.1\nbf16: true\nddp_timeout: 180000000\n";
        let got = import(text).unwrap();
        assert_eq!(got.source, Source::LlamaFactory);
        assert_eq!(got.launcher, Launcher::HfTrainer);
        assert_eq!(
            got.deepspeed_config.as_deref(),
            Some("examples/deepspeed/ds_z3_config.json")
        );
        let a = &got.trainer;
        assert_eq!(a.per_device_train_batch_size, Some(1));
        assert_eq!(a.gradient_accumulation_steps, Some(2));
        assert_eq!(a.learning_rate, Some(1e-5));
        assert_eq!(a.warmup_steps, Some(0.1));
        assert_eq!(a.bf16, Some(true));
        assert_eq!(a.train_samples, Some(1000));
        assert_eq!(a.lr_scheduler_type.as_deref(), Some("cosine"));
    }

    #[test]
    fn axolotl_yaml() {
        let text = "base_model: NousResearch/Llama-2-7b-hf\nmodel_type: LlamaForCausalLM\ndatasets:\n  - path: mhenrichsen/alpaca_2k_test\n    type: alpaca\nsequence_len: 4096\nmicro_batch_size: 2\ngradient_accumulation_steps: 4\nnum_epochs: 4\noptimizer: adamw_bnb_8bit\nlr_scheduler: cosine\nlearning_rate: 0.0002\nbf16: auto\nfp16:\ntf32: false\nwarmup_steps: 10\nweight_decay: 0.0\ndeepspeed: deepspeed_configs/zero2.json\n";
        let got = import(text).unwrap();
        assert_eq!(got.source, Source::Axolotl);
        let a = &got.trainer;
        assert_eq!(a.per_device_train_batch_size, Some(2));
        assert_eq!(a.gradient_accumulation_steps, Some(4));
        assert_eq!(a.num_train_epochs, Some(4.0));
        assert_eq!(a.learning_rate, Some(2e-4));
        assert_eq!(a.bf16, Some(true));
        assert_eq!(a.fp16, None);
        assert_eq!(a.warmup_steps, Some(10.0));
        assert_eq!(a.optim.as_deref(), Some("adamw_bnb_8bit"));
        assert_eq!(
            got.deepspeed_config.as_deref(),
            Some("deepspeed_configs/zero2.json")
        );
        assert!(
            got.notes.iter().any(|n| n.en.contains("bf16: auto")),
            "{:?}",
            got.notes
        );
    }

    #[test]
    fn accelerate_config_yaml() {
        let text = "compute_environment: LOCAL_MACHINE\ndebug: false\ndeepspeed_config:\n  deepspeed_config_file: ds_zero3.json\n  zero3_init_flag: true\ndistributed_type: DEEPSPEED\ndowncast_bf16: 'no'\nmachine_rank: 0\nmain_training_function: main\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 8\nrdzv_backend: static\nsame_network: true\nuse_cpu: false\n";
        let got = import(text).unwrap();
        assert_eq!(got.source, Source::AccelerateConfig);
        assert_eq!(got.launcher, Launcher::Accelerate);
        assert_eq!(got.world_size, Some(8));
        assert_eq!(got.trainer.bf16, Some(true));
        assert_eq!(got.deepspeed_config.as_deref(), Some("ds_zero3.json"));
    }

    #[test]
    fn command_lines() {
        let text = "torchrun --nproc_per_node 8 --nnodes 2 train.py \\\n  --deepspeed ds_config.json \\\n  --per_device_train_batch_size 4 --gradient_accumulation_steps=2 \\\n  --learning_rate 2e-5 --bf16 --warmup_ratio 0.03 --output_dir 'out dir'\n";
        let got = import(text).unwrap();
        assert_eq!(got.source, Source::CommandLine);
        assert_eq!(got.world_size, Some(16));
        assert_eq!(got.deepspeed_config.as_deref(), Some("ds_config.json"));
        let a = &got.trainer;
        assert_eq!(
            (a.per_device_train_batch_size, a.gradient_accumulation_steps),
            (Some(4), Some(2))
        );
        assert_eq!(a.bf16, Some(true));
        assert_eq!(a.warmup_steps, Some(0.03));
        let acc =
            import("accelerate launch --num_processes 4 --mixed_precision fp16 train.py --lr 1")
                .unwrap();
        assert_eq!(acc.launcher, Launcher::Accelerate);
        assert_eq!(acc.world_size, Some(4));
        assert_eq!(acc.trainer.fp16, Some(true));
    }

    #[test]
    fn launch_scripts_as_users_write_them() {
        let script = "#!/bin/bash\n# LLaMA-Factory, two nodes\nexport NCCL_DEBUG=WARN\nFORCE_TORCHRUN=1 NNODES=2 NPROC_PER_NODE=8 torchrun \\\n  src/train.py --deepspeed examples/deepspeed/ds_z3_config.json --per_device_train_batch_size 1 --bf16 True\n";
        let got = import(script).unwrap();
        assert_eq!(got.source, Source::CommandLine);
        assert_eq!((got.world_size, got.nodes), (Some(16), Some(2)));
        assert_eq!(got.trainer.bf16, Some(true));
        assert_eq!(got.trainer.per_device_train_batch_size, Some(1));
        let cli = import("FORCE_TORCHRUN=1 NNODES=2 llamafactory-cli train examples/train_full/llama3_full_sft.yaml").unwrap();
        assert!(
            cli.notes
                .iter()
                .any(|n| n.en.contains("llama3_full_sft.yaml")),
            "{:?}",
            cli.notes
        );
        let acc = import("accelerate launch --config_file accel.yaml train.py").unwrap();
        assert!(
            acc.notes.iter().any(|n| n.en.contains("accel.yaml")),
            "{:?}",
            acc.notes
        );
        let accel_cfg = import("compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_machines: 2\nnum_processes: 16\n").unwrap();
        assert_eq!((accel_cfg.world_size, accel_cfg.nodes), (Some(16), Some(2)));
    }

    #[test]
    fn bad_files_say_why() {
        let e = import("key: [unclosed").unwrap_err();
        assert!(e.0.contains("YAML error at line"), "{e}");
        let e = import("just words").unwrap_err();
        assert!(e.0.contains("not a training YAML"), "{e}");
        let e = import("torchrun train.py --output_dir 'x").unwrap_err();
        assert!(e.0.contains("unterminated"), "{e}");
        let e = import(&"a".repeat(MAX_IMPORT_BYTES + 1)).unwrap_err();
        assert!(e.0.contains("bytes"), "{e}");
        let e = import("per_device_train_batch_size: zero\ngradient_accumulation_steps: -4\nbf16: maybe\ndeepspeed: ds.json\n").unwrap_err();
        assert!(
            e.0.contains("per_device_train_batch_size must be a positive whole number, got 'zero'"),
            "{e}"
        );
        assert!(
            e.0.contains("gradient_accumulation_steps must be a positive whole number, got '-4'"),
            "{e}"
        );
        assert!(
            e.0.contains("bf16 must be true or false, got 'maybe'"),
            "{e}"
        );
    }
}
