//! The user's model as the command line gives it (`--model NAME` or `--model-config FILE`,
//! `--seq-len`, `--attention`, `--lora-rank`, `--lora-targets`), for `estimate` and for a
//! rehearsal (`jobs submit --model`). It becomes a `UserModel`, which the server and the
//! estimate read the same way.

use crate::input::read_input;
use ds_studio_shared::architecture::lora::Lora;
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::memory::{
    Attention, UserModel, UserModelError, DEFAULT_SEQ_LEN, MAX_SEQ_LEN,
};

/// The user's model as flags of a command that also takes a built-in size (`sweep plan`,
/// `sweep run`): `--model`, `--model-config`, `--seq-len`, `--lora-rank`, `--lora-targets`.
#[derive(clap::Args, Debug, Default)]
pub struct ModelArgs {
    /// A model of the catalog (`ds-studio models`) instead of the built-in workload.
    #[arg(long, conflicts_with = "model_config")]
    pub model: Option<String>,
    /// The model of this Hugging Face config.json instead of the built-in workload.
    #[arg(long)]
    pub model_config: Option<String>,
    /// Tokens per sample of --model / --model-config (default 2048).
    #[arg(long)]
    pub seq_len: Option<u64>,
    /// LoRA adapters of this rank (peft): the base frozen.
    #[arg(long)]
    pub lora_rank: Option<u64>,
    /// The modules the adapters go on, comma-separated; default all-linear.
    #[arg(long, requires = "lora_rank")]
    pub lora_targets: Option<String>,
}

impl ModelArgs {
    pub fn flags(&self) -> ModelFlags<'_> {
        ModelFlags {
            model: self.model.as_deref(),
            model_config: self.model_config.as_deref(),
            seq_len: self.seq_len,
            attention: "sdpa",
            lora_rank: self.lora_rank,
            lora_targets: self.lora_targets.as_deref(),
        }
    }

    /// The model named, read (`None`: none was named), or the error said with its flag.
    pub fn resolved(
        &self,
        lang: Lang,
    ) -> Result<Option<(UserModel, ds_studio_shared::memory::ResolvedModel)>, String> {
        let flags = self.flags();
        let Some(m) = flags.user_model()? else {
            return Ok(None);
        };
        let r = m.resolve().map_err(|e| said(&e, &flags, lang))?;
        Ok(Some((m, r)))
    }
}

/// The flags, as parsed.
pub struct ModelFlags<'a> {
    pub model: Option<&'a str>,
    pub model_config: Option<&'a str>,
    pub seq_len: Option<u64>,
    pub attention: &'a str,
    pub lora_rank: Option<u64>,
    pub lora_targets: Option<&'a str>,
}

impl ModelFlags<'_> {
    /// The model they name; `None` when neither `--model` nor `--model-config` is given (a
    /// LoRA flag without one is an error naming both). Nothing is checked against the catalog
    /// or read as an architecture here: `UserModel::resolve` does that, where it is used.
    pub fn user_model(&self) -> Result<Option<UserModel>, String> {
        if self.model.is_some() && self.model_config.is_some() {
            return Err(
                "--model and --model-config each describe the model; give one of them".into(),
            );
        }
        if self.model.is_none() && self.model_config.is_none() {
            if self.lora_rank.is_some() {
                return Err(
                    "--lora-rank needs the model's architecture: give --model NAME or --model-config FILE"
                        .into(),
                );
            }
            return Ok(None);
        }
        let seq_len = self.seq_len.unwrap_or(DEFAULT_SEQ_LEN);
        if seq_len == 0 || seq_len > MAX_SEQ_LEN {
            return Err("--seq-len must be between 1 and 4,194,304".into());
        }
        let config = match self.model_config {
            Some(path) => Some(read_model_config(path)?),
            None => None,
        };
        Ok(Some(UserModel {
            name: self.model.map(str::to_string),
            config,
            seq_len,
            attention: if self.attention == "eager" {
                Attention::Eager
            } else {
                Attention::Sdpa
            },
            lora: self
                .lora_rank
                .map(|r| Lora::new(r, self.lora_targets.unwrap_or(""))),
        }))
    }
}

/// A model that does not resolve, said with the flag that gave what is wrong: `--lora-rank 8
/// --lora-targets x: ...`, `--model qwen9: ...`.
pub fn said(e: &UserModelError, flags: &ModelFlags, lang: Lang) -> String {
    let flag = match e {
        UserModelError::Lora(_) => match flags.lora_targets {
            Some(t) => format!(
                "--lora-rank {} --lora-targets {t}",
                flags.lora_rank.unwrap_or(0)
            ),
            None => format!("--lora-rank {}", flags.lora_rank.unwrap_or(0)),
        },
        UserModelError::SeqLen(s) => format!("--seq-len {s}"),
        _ => match (flags.model, flags.model_config) {
            (Some(m), _) => format!("--model {m}"),
            (None, Some(c)) => format!("--model-config {c}"),
            (None, None) => "--model".into(),
        },
    };
    format!("{flag}: {}", e.text().get(lang))
}

/// A config.json from a file, stdin (`-`) or a model's directory (as downloaded from the Hub,
/// holding its config.json).
pub fn read_model_config(path: &str) -> Result<serde_json::Value, String> {
    let file = match std::path::Path::new(path) {
        p if path != "-" && p.is_dir() => p.join("config.json").to_string_lossy().into_owned(),
        _ => path.to_string(),
    };
    let text = read_input(&file).map_err(|e| format!("--model-config {file}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("--model-config {path}: not JSON ({e})"))
}
