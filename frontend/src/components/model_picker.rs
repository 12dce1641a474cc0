//! The user's own model, picked in the browser: a model of the catalog (searchable, grouped by
//! family) or a pasted config.json, the sequence length, and LoRA (rank and target modules).
//! It becomes a `UserModel`, read by `shared::memory` as the CLI and the API read it; the memory
//! panel estimates it and the Run dialog rehearses it. [`ModelFacts`] says what was read: the
//! parameters, the trainable ones and each part, or what is wrong, in both languages.

use crate::i18n::{t, use_lang};
use ds_studio_shared::architecture::catalog::{self, CatalogModel};
use ds_studio_shared::architecture::lora::Lora;
use ds_studio_shared::estimate::format_count;
use ds_studio_shared::i18n::Text;
use ds_studio_shared::memory::{Attention, ResolvedModel, UserModel};
use leptos::prelude::*;

/// What the picker's fields hold.
#[derive(Clone, Copy)]
pub struct ModelChoice {
    /// `catalog:NAME`, or `config` (the pasted text).
    pub source: RwSignal<String>,
    pub config_text: RwSignal<String>,
    pub seq_len: RwSignal<String>,
    /// Empty: full fine-tuning.
    pub lora_rank: RwSignal<String>,
    /// Comma-separated module names; empty: every linear layer.
    pub lora_targets: RwSignal<String>,
}

impl ModelChoice {
    /// Starts on catalog model `name` at sequence `seq_len`, fully fine-tuned.
    pub fn new(name: &str, seq_len: u64) -> ModelChoice {
        ModelChoice {
            source: RwSignal::new(format!("catalog:{name}")),
            config_text: RwSignal::new(String::new()),
            seq_len: RwSignal::new(seq_len.to_string()),
            lora_rank: RwSignal::new(String::new()),
            lora_targets: RwSignal::new(String::new()),
        }
    }

    /// The model the fields name (reactive), or what is wrong with them.
    pub fn user_model(&self) -> Result<UserModel, Text> {
        request(
            &self.source.get(),
            &self.config_text.get(),
            &self.seq_len.get(),
            &self.lora_rank.get(),
            &self.lora_targets.get(),
        )
    }

    /// The model read, or what is wrong (reactive).
    pub fn resolved(&self) -> Result<ResolvedModel, Text> {
        self.user_model()?.resolve().map_err(|e| e.text())
    }
}

/// The request the fields make (a pure function: tested natively).
pub fn request(
    source: &str,
    config_text: &str,
    seq_len: &str,
    lora_rank: &str,
    lora_targets: &str,
) -> Result<UserModel, Text> {
    let seq_len: u64 = seq_len
        .trim()
        .parse()
        .ok()
        .filter(|s| (1..=ds_studio_shared::memory::MAX_SEQ_LEN).contains(s))
        .ok_or_else(|| {
            Text::new(
                "Sequence length: a whole number from 1 to 4,194,304",
                "序列长度：1 到 4,194,304 之间的整数",
            )
        })?;
    let (name, config) = match source.strip_prefix("catalog:") {
        Some(n) => (Some(n.to_string()), None),
        None => {
            let value: serde_json::Value = serde_json::from_str(config_text).map_err(|e| {
                Text::new(
                    format!("config.json: not JSON ({e}); paste the model's config.json"),
                    format!("config.json：不是 JSON（{e}）；请粘贴模型的 config.json"),
                )
            })?;
            (None, Some(value))
        }
    };
    let lora = match lora_rank.trim() {
        "" => None,
        r => Some(Lora::new(
            r.parse().map_err(|_| {
                Text::new(
                    "LoRA rank: a whole number (8, 16, 64), or empty for full fine-tuning",
                    "LoRA 秩：整数（8、16、64），留空表示全参数微调",
                )
            })?,
            lora_targets,
        )),
    };
    Ok(UserModel {
        name,
        config,
        seq_len,
        attention: Attention::Sdpa,
        lora,
    })
}

/// The catalog's models grouped by family, in the catalog's order.
fn by_family() -> Vec<(&'static str, Vec<&'static CatalogModel>)> {
    let mut groups: Vec<(&'static str, Vec<&'static CatalogModel>)> = Vec::new();
    for m in catalog::catalog() {
        let family = m
            .architecture()
            .map(|a| a.family.model_type())
            .unwrap_or("?");
        match groups.iter_mut().find(|(f, _)| *f == family) {
            Some((_, list)) => list.push(m),
            None => groups.push((family, vec![m])),
        }
    }
    groups
}

/// The fields; `id` prefixes each element's id (`mem`, `run`).
#[component]
pub fn ModelPicker(choice: ModelChoice, id: &'static str) -> impl IntoView {
    let search = RwSignal::new(String::new());
    let groups = by_family();
    let options = move || {
        let words = search.get();
        let shown: Vec<&str> = catalog::search(&words)
            .iter()
            .map(|m| m.name.as_str())
            .collect();
        groups
            .iter()
            .filter_map(|(family, list)| {
                let list: Vec<_> = list
                    .iter()
                    .filter(|m| shown.contains(&m.name.as_str()))
                    .collect();
                (!list.is_empty()).then(|| {
                    view! {
                        <optgroup label=*family>
                            {list.into_iter().map(|m| {
                                let value = format!("catalog:{}", m.name);
                                let selected = choice.source.get_untracked() == value;
                                let label = format!("{} · {}", m.title, format_count(m.params));
                                view! { <option value=value selected=selected>{label}</option> }
                            }).collect_view()}
                        </optgroup>
                    }
                })
            })
            .collect_view()
    };
    view! {
        <div class="model-picker" id=format!("{id}-model-picker")>
            <label>{t("model.search")}
                <input id=format!("{id}-model-search") type="search" placeholder="qwen 7b"
                    prop:value=move || search.get()
                    on:input=move |ev| search.set(event_target_value(&ev)) />
            </label>
            <label>{t("model.which")}
                <select id=format!("{id}-model") prop:value=move || choice.source.get()
                    on:change=move |ev| choice.source.set(event_target_value(&ev))>
                    {options}
                    <option value="config" selected=move || choice.source.get() == "config">{t("model.paste")}</option>
                </select>
            </label>
            <Show when=move || choice.source.get() == "config">
                <label class="wide">{t("model.config_json")}
                    <textarea id=format!("{id}-model-config") rows="6" spellcheck="false"
                        placeholder=r#"{"model_type": "llama", "hidden_size": 4096, ...}"#
                        prop:value=move || choice.config_text.get()
                        on:input=move |ev| choice.config_text.set(event_target_value(&ev))></textarea>
                </label>
            </Show>
            <label>{t("model.seq_len")}
                <input id=format!("{id}-model-seq") type="number" min="1" prop:value=move || choice.seq_len.get()
                    on:input=move |ev| choice.seq_len.set(event_target_value(&ev)) />
            </label>
            <label>{t("model.lora_rank")}
                <input id=format!("{id}-lora-rank") type="number" min="1" size="5" placeholder=t("model.full")
                    prop:value=move || choice.lora_rank.get()
                    on:input=move |ev| choice.lora_rank.set(event_target_value(&ev)) />
            </label>
            <Show when=move || !choice.lora_rank.get().trim().is_empty()>
                <label>{t("model.lora_targets")}
                    <input id=format!("{id}-lora-targets") placeholder="all-linear"
                        prop:value=move || choice.lora_targets.get()
                        on:input=move |ev| choice.lora_targets.set(event_target_value(&ev)) />
                </label>
            </Show>
        </div>
    }
}

/// What was read: "Qwen2.5 7B (qwen2): 7.616B parameters · LoRA trains 40.37M (0.53%)" and the
/// parts; or the problem, as an alert.
#[component]
pub fn ModelFacts(choice: ModelChoice, id: &'static str) -> impl IntoView {
    let lang = use_lang();
    move || {
        match choice.resolved() {
        Err(e) => view! {
            <p class="error" id=format!("{id}-model-error") role="alert">{move || e.get(lang.get()).to_string()}</p>
        }
        .into_any(),
        Ok(r) => {
            let zh = lang.get() == ds_studio_shared::i18n::Lang::Zh;
            let arch = &r.architecture;
            let p = arch.params();
            let parts = [
                (p.embeddings, "embeddings", "嵌入"),
                (p.attention, "attention", "注意力"),
                (p.mlp, "MLP", "MLP"),
                (p.experts, "experts", "专家"),
                (p.norms, "norms", "归一化"),
                (p.lm_head, "output layer", "输出层"),
            ];
            let parts: Vec<String> = parts
                .iter()
                .filter(|(n, _, _)| *n > 0)
                .map(|(n, en, cn)| format!("{} {}", if zh { cn } else { en }, format_count(*n)))
                .collect();
            let name = r.name.unwrap_or("config.json");
            // The model's own parameters (the adapters are counted as what LoRA trains).
            let (total, trainable) = (p.total(), r.spec.trainable());
            let training = if trainable < r.spec.params {
                let share = 100.0 * trainable as f64 / total.max(1) as f64;
                if zh {
                    format!("LoRA 训练 {}（{share:.2}%），基座冻结", format_count(trainable))
                } else {
                    format!("LoRA trains {} ({share:.2}%), the base frozen", format_count(trainable))
                }
            } else if zh {
                "全参数训练".to_string()
            } else {
                "every parameter trained".to_string()
            };
            let line = if zh {
                format!("{name}（{}）：{} 参数 · {training}", arch.family.model_type(), format_count(total))
            } else {
                format!("{name} ({}): {} parameters · {training}", arch.family.model_type(), format_count(total))
            };
            let shape = if zh {
                format!("宽度 {}，{} 层，{} 个注意力头（{} 个键值头），词表 {}；{}", arch.hidden, arch.layers, arch.heads, arch.kv_heads, arch.vocab, parts.join("，"))
            } else {
                format!("width {}, {} layers, {} attention heads ({} key/value), vocabulary {}; {}", arch.hidden, arch.layers, arch.heads, arch.kv_heads, arch.vocab, parts.join(", "))
            };
            view! {
                <div class="model-facts" id=format!("{id}-model-facts") data-params=total.to_string() data-trainable=trainable.to_string()>
                    <p><strong>{line}</strong></p>
                    <p class="muted">{shape}</p>
                </div>
            }
            .into_any()
        }
    }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_make_the_request_or_say_what_is_wrong() {
        let m = request("catalog:qwen2.5-7b", "", "4096", "16", "q_proj,v_proj").unwrap();
        assert_eq!(m.name.as_deref(), Some("qwen2.5-7b"));
        assert_eq!(m.lora.as_ref().map(|l| l.targets.len()), Some(2));
        let full = request("catalog:gpt2", "", "1024", " ", "").unwrap();
        assert!(full.lora.is_none());
        let pasted = request(
            "config",
            r#"{"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100}"#,
            "128",
            "",
            "",
        )
        .unwrap();
        assert_eq!(
            pasted.resolve().unwrap().spec.params,
            pasted.resolve().unwrap().spec.trainable()
        );
        assert!(request("config", "{oops", "128", "", "")
            .unwrap_err()
            .en
            .contains("not JSON"));
        assert!(request("catalog:gpt2", "", "0", "", "")
            .unwrap_err()
            .zh
            .contains("序列长度"));
        assert!(request("catalog:gpt2", "", "128", "r8", "")
            .unwrap_err()
            .en
            .contains("LoRA rank"));
        // Every family is offered, each model once.
        let groups = by_family();
        assert_eq!(
            groups.iter().map(|g| g.1.len()).sum::<usize>(),
            catalog::catalog().len()
        );
        assert!(groups.len() >= 12, "{}", groups.len());
    }
}
