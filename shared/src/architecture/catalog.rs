//! The model catalog: the common open models' config.json facts (`shared/data/models.json`),
//! pickable by name (`--model llama-3.1-8b`, the browser's model picker). Nothing is fetched:
//! the facts are compiled in, and anything else is read from its own config.json.
//!
//! Each entry keeps the config.json fields the architecture is read from, the Hub repository
//! it came from, and transformers' parameter count for it (`params`, written by
//! `tools/models/count_params.py shared/data/models.json --write`). Invariant: every entry's
//! [`Architecture::params`] equals that count (`tests.rs`; `cargo xtask test` counts them
//! again with the engine's transformers).

use super::{Architecture, ArchitectureError};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

const CATALOG_JSON: &str = include_str!("../../data/models.json");

/// One model of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CatalogModel {
    /// The name to pick it by: `llama-3.1-8b`, `qwen2.5-7b`.
    pub name: String,
    /// As people write it: "Llama 3.1 8B".
    pub title: String,
    /// The Hugging Face repository its config.json comes from.
    pub hub: String,
    /// Parameters, as transformers counts the model built from `config`.
    pub params: u64,
    /// The config.json fields the architecture is read from.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub config: serde_json::Value,
}

impl CatalogModel {
    /// The entry's architecture (every entry reads: `tests.rs`).
    pub fn architecture(&self) -> Result<Architecture, ArchitectureError> {
        Architecture::from_config(&self.config)
    }
}

#[derive(Deserialize)]
struct CatalogFile {
    models: Vec<CatalogModel>,
}

/// Every model of the catalog, in its file's order (by family, then size).
pub fn catalog() -> &'static [CatalogModel] {
    static CATALOG: OnceLock<Vec<CatalogModel>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        serde_json::from_str::<CatalogFile>(CATALOG_JSON)
            .map(|f| f.models)
            .unwrap_or_default()
    })
}

/// The model called `name`: its catalog name, its Hub repository (`Qwen/Qwen2.5-7B`) or the
/// repository's own name (`Qwen2.5-7B`), in any case. A chat or instruction-tuned variant
/// (`-Instruct`, `-it`, `-chat`) has its base model's architecture and is found as it, and
/// Meta's older repository names (`Meta-Llama-3.1-8B`) as today's.
pub fn find(name: &str) -> Option<&'static CatalogModel> {
    let want = name.trim().to_ascii_lowercase();
    exact(&want).or_else(|| {
        let base = base_name(&want);
        (base != want).then(|| exact(&base)).flatten()
    })
}

fn exact(want: &str) -> Option<&'static CatalogModel> {
    catalog().iter().find(|m| {
        let hub = m.hub.to_ascii_lowercase();
        m.name == want || hub == want || hub.rsplit('/').next() == Some(want)
    })
}

/// `name` without the owner, a variant's suffix and Meta's old prefix:
/// `meta-llama/Meta-Llama-3.1-8B-Instruct` → `llama-3.1-8b`.
fn base_name(name: &str) -> String {
    let mut n = name.rsplit('/').next().unwrap_or(name).to_string();
    for suffix in ["-instruct", "-it", "-chat", "-hf", "-base", "-pt"] {
        if let Some(s) = n.strip_suffix(suffix) {
            n = s.to_string();
        }
    }
    n.strip_prefix("meta-").map(str::to_string).unwrap_or(n)
}

/// Catalog names near `name`, nearest first (for "did you mean"), against the names and the
/// repositories' own names.
pub fn near(name: &str) -> Vec<&'static str> {
    let want = base_name(&name.trim().to_ascii_lowercase());
    let mut scored: Vec<(f64, &'static str)> = catalog()
        .iter()
        .map(|m| {
            let repo = m.hub.rsplit('/').next().unwrap_or("").to_ascii_lowercase();
            let score = crate::registry::similarity(&want, &m.name)
                .max(crate::registry::similarity(&want, &repo));
            (score, m.name.as_str())
        })
        .filter(|(s, _)| *s >= 0.85)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(3).map(|(_, n)| n).collect()
}

/// Catalog entries whose name, title or repository holds every word of `query` (the picker's
/// search): each word starts a part of one of them ("qwen 7b" finds Qwen2.5 7B, not Qwen3
/// 1.7B). When that finds nothing, a word may be anywhere, separators left out ("llama3").
pub fn search(query: &str) -> Vec<&'static CatalogModel> {
    let words: Vec<String> = query
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let hay = |m: &CatalogModel| format!("{} {} {}", m.name, m.title, m.hub).to_ascii_lowercase();
    let starts_a_part = |m: &CatalogModel| {
        let hay = hay(m);
        let parts: Vec<&str> = hay.split([' ', '-', '_', '/', '(', ')']).collect();
        words
            .iter()
            .all(|w| parts.iter().any(|p| p.starts_with(w.as_str())))
    };
    let strict: Vec<&CatalogModel> = catalog().iter().filter(|m| starts_a_part(m)).collect();
    if !strict.is_empty() {
        return strict;
    }
    let squashed = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
            .collect()
    };
    catalog()
        .iter()
        .filter(|m| {
            let hay = squashed(&hay(m));
            words.iter().all(|w| hay.contains(squashed(w).as_str()))
        })
        .collect()
}
