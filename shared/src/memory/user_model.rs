//! The user's own model, as a request names it for an estimate or a rehearsal: a model of the
//! catalog or a Hugging Face config.json, trained at a sequence length, fully or with LoRA.
//! The CLI (`--model`, `--model-config`, `--lora-rank`), `POST /api/v1/estimate` and a
//! rehearsal job all resolve it here, so they agree on every figure and every error.

use super::{Attention, ModelSpec};
use crate::architecture::catalog;
use crate::architecture::lora::{Lora, LoraError};
use crate::architecture::{Architecture, ArchitectureError};
use crate::i18n::Text;
use serde::{Deserialize, Serialize};

/// The sequence length when none is given.
pub const DEFAULT_SEQ_LEN: u64 = 2048;
/// The longest sequence accepted (4 Mi tokens).
pub const MAX_SEQ_LEN: u64 = 1 << 22;

fn default_seq_len() -> u64 {
    DEFAULT_SEQ_LEN
}

/// A model to estimate or rehearse: `name` (a catalog model) or `config` (its config.json).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct UserModel {
    /// A model of the catalog (`ds-studio models`, `GET /api/v1/models`): `llama-3.1-8b`, or
    /// its Hub repository `meta-llama/Llama-3.1-8B`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A Hugging Face config.json, instead of `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub config: Option<serde_json::Value>,
    /// Tokens per sample (default 2048).
    #[serde(default = "default_seq_len")]
    pub seq_len: u64,
    #[serde(default)]
    pub attention: Attention,
    /// LoRA adapters (peft): the base model frozen. Absent: full fine-tuning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lora: Option<Lora>,
}

/// A [`UserModel`] read: its architecture and the spec the memory model uses.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedModel {
    /// The catalog model's name, when it is one.
    pub name: Option<&'static str>,
    pub architecture: Architecture,
    pub spec: ModelSpec,
}

/// Why a [`UserModel`] names no model.
#[derive(Debug, Clone, PartialEq)]
pub enum UserModelError {
    /// Neither `name` nor `config`.
    Neither,
    /// Both `name` and `config`.
    Both,
    UnknownName {
        name: String,
        near: Vec<&'static str>,
    },
    Architecture(ArchitectureError),
    Lora(LoraError),
    SeqLen(u64),
}

impl UserModelError {
    pub fn text(&self) -> Text {
        match self {
            UserModelError::Neither => Text::new(
                "give the model: a catalog name (ds-studio models lists them) or its config.json",
                "请给出模型：模型目录中的名称（ds-studio models 列出）或其 config.json",
            ),
            UserModelError::Both => Text::new(
                "give the model once: a catalog name or a config.json, not both",
                "模型只需给一次：模型目录中的名称或 config.json，不要同时给出",
            ),
            UserModelError::UnknownName { name, near } => {
                let shown: String = name.chars().take(60).collect();
                let (hint_en, hint_zh) = match near.first() {
                    Some(n) => (
                        format!(" (did you mean \"{n}\"?)"),
                        format!("（是否想写 \"{n}\"？）"),
                    ),
                    None => (String::new(), String::new()),
                };
                Text::new(
                    format!("\"{shown}\" is not in the model catalog{hint_en}; `ds-studio models` lists the catalog, and any other model is given by its config.json (--model-config FILE; \"config\" in the API)"),
                    format!("模型目录中没有 \"{shown}\"{hint_zh}；`ds-studio models` 列出全部，其他模型请提供其 config.json（--model-config FILE；API 中为 \"config\"）"),
                )
            }
            UserModelError::Architecture(e) => e.text(),
            UserModelError::Lora(e) => e.text(),
            UserModelError::SeqLen(s) => Text::new(
                format!("sequence length {s}: give 1 to {MAX_SEQ_LEN} tokens"),
                format!("序列长度 {s}：应在 1 到 {MAX_SEQ_LEN} 个 token 之间"),
            ),
        }
    }
}

impl std::fmt::Display for UserModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text().en)
    }
}

impl std::error::Error for UserModelError {}

impl UserModel {
    /// A catalog model by name, at the default sequence, fully fine-tuned.
    pub fn named(name: &str) -> UserModel {
        UserModel {
            name: Some(name.to_string()),
            config: None,
            seq_len: DEFAULT_SEQ_LEN,
            attention: Attention::Sdpa,
            lora: None,
        }
    }

    /// Reads the model: the catalog entry or the config.json, the adapters if any, and the
    /// spec the memory model estimates.
    pub fn resolve(&self) -> Result<ResolvedModel, UserModelError> {
        if self.seq_len == 0 || self.seq_len > MAX_SEQ_LEN {
            return Err(UserModelError::SeqLen(self.seq_len));
        }
        let (name, architecture) = match (&self.name, &self.config) {
            (Some(_), Some(_)) => return Err(UserModelError::Both),
            (None, None) => return Err(UserModelError::Neither),
            (Some(n), None) => {
                let m = catalog::find(n).ok_or_else(|| UserModelError::UnknownName {
                    name: n.clone(),
                    near: catalog::near(n),
                })?;
                let arch = m.architecture().map_err(UserModelError::Architecture)?;
                (Some(m.name.as_str()), arch)
            }
            (None, Some(c)) => (
                None,
                Architecture::from_config(c).map_err(UserModelError::Architecture)?,
            ),
        };
        let mut spec = ModelSpec::from_architecture(&architecture, self.seq_len, self.attention);
        if let Some(lora) = &self.lora {
            let adapters = architecture
                .lora_params(lora)
                .map_err(UserModelError::Lora)?;
            spec = spec.with_lora(&architecture, lora.rank, adapters);
        }
        Ok(ResolvedModel {
            name,
            architecture,
            spec,
        })
    }
}
