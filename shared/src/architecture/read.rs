//! Reading a Hugging Face `config.json` into an [`Architecture`], family by family, with
//! transformers' defaults for what it leaves out.

use super::{Architecture, Experts, Family, Mlp, Norm};
use crate::i18n::Text;
use serde_json::{Map, Value};

/// Why a config.json cannot be read as a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchitectureError {
    #[error("the model's config.json is not a JSON object: {0}")]
    NotAnObject(String),
    #[error("the model's config.json has no \"model_type\" (it names the architecture: \"llama\", \"qwen2\", ...)")]
    NoModelType,
    #[error("model_type {0} is not one ds-studio reads{hint}; it reads {list}", hint = did_you_mean(.0, false), list = supported())]
    Unsupported(String),
    #[error("the {family} config.json has no \"{field}\", which gives the model's shape")]
    Missing {
        family: &'static str,
        field: &'static str,
    },
    #[error("\"{field}\" must be {expected}, not {got}")]
    Invalid {
        field: &'static str,
        expected: &'static str,
        got: String,
    },
}

fn supported() -> String {
    Family::ALL
        .iter()
        .map(|f| match f {
            Family::Gemma3 => "gemma3 (gemma3_text)",
            f => f.model_type(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// ", did you mean "qwen2"?" when the unsupported type (as quoted) is close to one that is.
fn did_you_mean(quoted: &str, zh: bool) -> String {
    let typed = quoted.trim_matches('"').to_ascii_lowercase();
    let typed: String = typed
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let best = Family::ALL
        .iter()
        .map(|f| f.model_type())
        .chain(["gemma3"])
        .map(|t| (crate::registry::similarity(&typed, t), t))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|(score, _)| *score >= 0.85);
    match best {
        Some((_, t)) if zh => format!("（是否想写 \"{t}\"？）"),
        Some((_, t)) => format!(" (did you mean \"{t}\"?)"),
        None => String::new(),
    }
}

impl ArchitectureError {
    /// The message in English and Chinese.
    pub fn text(&self) -> Text {
        let zh = match self {
            ArchitectureError::NotAnObject(e) => format!("模型的 config.json 不是 JSON 对象：{e}"),
            ArchitectureError::NoModelType => {
                "模型的 config.json 缺少 \"model_type\"（它指明架构，如 \"llama\"、\"qwen2\"）"
                    .into()
            }
            ArchitectureError::Unsupported(t) => {
                format!(
                    "ds-studio 不支持 model_type {t}{}；支持的有 {}",
                    did_you_mean(t, true),
                    supported()
                )
            }
            ArchitectureError::Missing { family, field } => {
                format!("{family} 的 config.json 缺少 \"{field}\"，它决定模型的形状")
            }
            ArchitectureError::Invalid {
                field,
                expected,
                got,
            } => format!("\"{field}\" 应为{}，实际为 {got}", expected_zh(expected)),
        };
        Text::new(self.to_string(), zh)
    }
}

fn expected_zh(expected: &str) -> &'static str {
    match expected {
        "true or false" => " true 或 false",
        "a list of layer numbers" => "层号列表",
        "an object" => "对象",
        "a positive integer up to 65,536" => "不超过 65,536 的正整数",
        "a positive integer up to 1,024" => "不超过 1,024 的正整数",
        "a positive integer up to 4,096" => "不超过 4,096 的正整数",
        "a positive integer up to 1,048,576" => "不超过 1,048,576 的正整数",
        "a positive integer up to 4,194,304" => "不超过 4,194,304 的正整数",
        _ => "不超过上限的正整数",
    }
}

/// The largest value each size may have: far above any real model, low enough that every
/// product of sizes the memory model forms fits in 64 bits.
/// Each with the words an error says it in.
const LIMITS: &[(&str, u64, &str)] = &[
    ("hidden", 1 << 16, "a positive integer up to 65,536"),
    ("layers", 1 << 10, "a positive integer up to 1,024"),
    ("heads", 1 << 12, "a positive integer up to 4,096"),
    ("head_dim", 1 << 12, "a positive integer up to 4,096"),
    (
        "intermediate",
        1 << 20,
        "a positive integer up to 1,048,576",
    ),
    ("vocab", 1 << 22, "a positive integer up to 4,194,304"),
    ("experts", 1 << 10, "a positive integer up to 1,024"),
    ("positions", 1 << 22, "a positive integer up to 4,194,304"),
];

/// One config object and the family it is read for.
struct Reader<'a> {
    cfg: &'a Map<String, Value>,
    family: Family,
}

impl Reader<'_> {
    /// A size: a positive integer no larger than its limit; `None` when absent or null.
    fn size(&self, field: &'static str, limit: &str) -> Result<Option<u64>, ArchitectureError> {
        let (max, expected) = LIMITS
            .iter()
            .find(|(k, _, _)| *k == limit)
            .map_or((1 << 20, "a positive integer up to 1,048,576"), |l| {
                (l.1, l.2)
            });
        match self.cfg.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if n >= 1 && n <= max => Ok(Some(n)),
                _ => Err(ArchitectureError::Invalid {
                    field,
                    expected,
                    got: shown(v),
                }),
            },
        }
    }

    fn required(&self, field: &'static str, limit: &str) -> Result<u64, ArchitectureError> {
        self.size(field, limit)?.ok_or(ArchitectureError::Missing {
            family: self.family.model_type(),
            field,
        })
    }

    fn flag(&self, field: &'static str, default: bool) -> Result<bool, ArchitectureError> {
        match self.cfg.get(field) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(ArchitectureError::Invalid {
                field,
                expected: "true or false",
                got: shown(v),
            }),
        }
    }

    /// A list of layer numbers (`mlp_only_layers`).
    fn layer_list(&self, field: &'static str) -> Result<Vec<u64>, ArchitectureError> {
        match self.cfg.get(field) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) if items.len() <= 1 << 10 => items
                .iter()
                .map(|i| i.as_u64())
                .collect::<Option<Vec<u64>>>()
                .ok_or_else(|| ArchitectureError::Invalid {
                    field,
                    expected: "a list of layer numbers",
                    got: shown(&Value::Array(items.clone())),
                }),
            Some(v) => Err(ArchitectureError::Invalid {
                field,
                expected: "a list of layer numbers",
                got: shown(v),
            }),
        }
    }
}

/// A value as an error quotes it: at most 60 characters.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

impl Architecture {
    /// Reads a config.json's text.
    pub fn from_config_json(text: &str) -> Result<Architecture, ArchitectureError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| ArchitectureError::NotAnObject(e.to_string()))?;
        Architecture::from_config(&value)
    }

    /// Reads a parsed config.json.
    pub fn from_config(value: &Value) -> Result<Architecture, ArchitectureError> {
        let cfg = value
            .as_object()
            .ok_or_else(|| ArchitectureError::NotAnObject(format!("it is {}", shown(value))))?;
        let model_type = match cfg.get("model_type") {
            Some(Value::String(t)) => t.as_str(),
            _ => return Err(ArchitectureError::NoModelType),
        };
        let family = Family::of(model_type)
            .ok_or_else(|| ArchitectureError::Unsupported(shown(&Value::from(model_type))))?;
        // Gemma 3's multimodal config holds its language model in `text_config`.
        let cfg = if model_type == "gemma3" {
            match cfg.get("text_config") {
                Some(Value::Object(t)) => t,
                Some(v) => {
                    return Err(ArchitectureError::Invalid {
                        field: "text_config",
                        expected: "an object",
                        got: shown(v),
                    })
                }
                None => {
                    return Err(ArchitectureError::Missing {
                        family: "gemma3",
                        field: "text_config",
                    })
                }
            }
        } else {
            cfg
        };
        read(&Reader { cfg, family })
    }
}

fn read(r: &Reader) -> Result<Architecture, ArchitectureError> {
    use Family::*;
    let family = r.family;
    if matches!(family, Gpt2) {
        return gpt2(r);
    }
    let hidden = r.required("hidden_size", "hidden")?;
    let layers = r.required("num_hidden_layers", "layers")?;
    let heads = r.required("num_attention_heads", "heads")?;
    let vocab = r.required("vocab_size", "vocab")?;
    // transformers' default where config.json gives no num_key_value_heads: some families'
    // configs have a constant of their own (MistralConfig's 8, Qwen2Config's 32, ...), the
    // others take the attention heads.
    let kv_default = match family {
        Mistral | Mixtral => Some(8),
        Qwen2 | Qwen3 => Some(32),
        Gemma | Qwen2Moe => Some(16),
        Gemma2 | Gemma3 | Qwen3Moe => Some(4),
        Llama | Phi3 | Gpt2 | GptNeox => None,
    };
    let given = r.size("num_key_value_heads", "heads")?;
    let kv_heads = given.or(kv_default).unwrap_or(heads);
    if kv_heads > heads || heads % kv_heads != 0 {
        return Err(ArchitectureError::Invalid {
            field: "num_key_value_heads",
            expected: "a divisor of num_attention_heads",
            got: if given.is_some() {
                kv_heads.to_string()
            } else {
                format!(
                    "{kv_heads} (transformers' default for {}, as config.json gives none: give it)",
                    family.model_type()
                )
            },
        });
    }
    // transformers' defaults where config.json leaves a fact out.
    let default_head_dim = match family {
        Gemma | Gemma2 | Gemma3 => 256,
        Qwen3 | Qwen3Moe => 128,
        _ => hidden / heads,
    };
    let head_dim = r
        .size("head_dim", "head_dim")?
        .unwrap_or(default_head_dim)
        .max(1);
    let tied_default = matches!(family, Gemma | Gemma2 | Gemma3);
    let tied_embeddings = r.flag("tie_word_embeddings", tied_default)?;
    let attention_bias = r.flag("attention_bias", matches!(family, GptNeox))?;
    let (qkv_bias, o_bias) = match family {
        Qwen2 | Qwen2Moe => (true, false),
        Mistral | Phi3 | Mixtral => (false, false),
        _ => (attention_bias, attention_bias),
    };
    let mlp_bias = match family {
        Llama => r.flag("mlp_bias", false)?,
        GptNeox => true,
        _ => false,
    };
    let experts = match family {
        Mixtral => Some(Experts {
            total: r.size("num_local_experts", "experts")?.unwrap_or(8),
            per_token: r.size("num_experts_per_tok", "experts")?.unwrap_or(2),
            intermediate: r.required("intermediate_size", "intermediate")?,
            shared_intermediate: 0,
            shared_gate: false,
            sparse_layers: layers,
        }),
        Qwen2Moe | Qwen3Moe => {
            let total = r.required("num_experts", "experts")?;
            let step = r.size("decoder_sparse_step", "layers")?.unwrap_or(1);
            let dense_only = r.layer_list("mlp_only_layers")?;
            let sparse_layers = (0..layers)
                .filter(|i| !dense_only.contains(i) && (i + 1) % step == 0)
                .count() as u64;
            let shared_intermediate = match family {
                Qwen2Moe => r.required("shared_expert_intermediate_size", "intermediate")?,
                _ => 0,
            };
            Some(Experts {
                total,
                per_token: r
                    .size("num_experts_per_tok", "experts")?
                    .unwrap_or(if family == Qwen2Moe { 4 } else { 8 }),
                intermediate: r.required("moe_intermediate_size", "intermediate")?,
                shared_intermediate,
                shared_gate: family == Qwen2Moe,
                sparse_layers,
            })
        }
        _ => None,
    };
    if let Some(e) = &experts {
        if e.per_token > e.total {
            return Err(ArchitectureError::Invalid {
                field: "num_experts_per_tok",
                expected: "at most the number of experts",
                got: e.per_token.to_string(),
            });
        }
    }
    // The dense MLP's width: every layer of a dense model; the dense layers of an MoE one.
    let intermediate = match &experts {
        Some(e) if e.sparse_layers == layers => e.intermediate,
        _ => r.required("intermediate_size", "intermediate")?,
    };
    let plain = matches!(family, GptNeox);
    Ok(Architecture {
        family,
        hidden,
        layers,
        heads,
        kv_heads,
        head_dim,
        intermediate,
        vocab,
        learned_positions: 0,
        tied_embeddings,
        mlp: if plain { Mlp::Plain } else { Mlp::Gated },
        norm: if plain { Norm::Layer } else { Norm::Rms },
        norms_per_layer: if matches!(family, Gemma2 | Gemma3) {
            4
        } else {
            2
        },
        qk_norm: matches!(family, Qwen3 | Qwen3Moe | Gemma3),
        qkv_bias,
        o_bias,
        mlp_bias,
        experts,
    })
}

/// GPT-2 names its sizes its own way (`n_embd`, `n_layer`, `n_head`, `n_inner`).
fn gpt2(r: &Reader) -> Result<Architecture, ArchitectureError> {
    let hidden = r.required("n_embd", "hidden")?;
    let heads = r.required("n_head", "heads")?;
    Ok(Architecture {
        family: Family::Gpt2,
        hidden,
        layers: r.required("n_layer", "layers")?,
        heads,
        kv_heads: heads,
        head_dim: (hidden / heads).max(1),
        intermediate: r.size("n_inner", "intermediate")?.unwrap_or(4 * hidden),
        vocab: r.required("vocab_size", "vocab")?,
        learned_positions: r.size("n_positions", "positions")?.unwrap_or(1024),
        tied_embeddings: r.flag("tie_word_embeddings", true)?,
        mlp: Mlp::Plain,
        norm: Norm::Layer,
        norms_per_layer: 2,
        qk_norm: false,
        qkv_bias: true,
        o_bias: true,
        mlp_bias: true,
        experts: None,
    })
}
