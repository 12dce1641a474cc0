//! Parses the embedded data files into a [`Registry`].

use super::{join, KeySpec, ParamFamily, Registry, Span};
use crate::release::Release;
use std::collections::{BTreeMap, HashMap};

// Trimmed of descriptions, sources and notes (build.rs): what the validator loads.
const KEYS: &str = include_str!(concat!(env!("OUT_DIR"), "/keys.json"));
/// As written, for [`Level::Described`].
#[cfg(feature = "docs")]
const KEYS_FULL: &str = include_str!("../../data/keys.json");
#[cfg(feature = "docs")]
const OPTIMIZERS_FULL: &str = include_str!("../../data/optimizers.json");
/// The descriptions of the keys (en + zh). Without the `docs` feature (the browser build) they
/// are not compiled in: the UI fetches them from the server when it needs them (see
/// [`key_docs_json`]).
#[cfg(feature = "docs")]
const DOCS: &[&str] = &[
    include_str!("../../data/docs/keys-a.json"),
    include_str!("../../data/docs/keys-b.json"),
    include_str!("../../data/docs/extra.json"),
];
const OPTIMIZERS: &str = include_str!(concat!(env!("OUT_DIR"), "/optimizers.json"));

#[derive(serde::Deserialize, Default)]
struct OptimizerData {
    #[serde(default)]
    optimizers: BTreeMap<String, ParamFamily>,
    #[serde(default)]
    torch_optimizers: BTreeMap<String, ParamFamily>,
    #[serde(default)]
    schedulers: BTreeMap<String, ParamFamily>,
}

/// `shared/data/releases.json`: what each release knows (see `tools/releases/gen.py`).
#[derive(serde::Deserialize)]
struct ReleaseData {
    keys: super::FastMap<String, KeyFacts>,
    closed_since: super::FastMap<String, Release>,
    #[serde(default)]
    plain_until: super::FastMap<String, Release>,
    optimizers: super::FastMap<String, Span>,
    schedulers: super::FastMap<String, Span>,
    checks: super::FastMap<String, Span>,
}

#[derive(serde::Deserialize)]
struct KeyFacts {
    since: Option<Release>,
    until: Option<Release>,
    removed_in: Option<Release>,
    removed: Option<String>,
    #[serde(default)]
    defaults: Vec<(Release, serde_json::Value)>,
    #[serde(default)]
    bounds: Vec<(Release, super::Bounds)>,
}

/// Key descriptions by registry path, from the texts of the doc files.
#[cfg(feature = "docs")]
fn parse_docs(texts: &[&str]) -> HashMap<String, super::Doc> {
    let mut docs: HashMap<String, super::Doc> = HashMap::new();
    for text in texts {
        let part: HashMap<String, super::Doc> = serde_json::from_str(text)
            .expect("shared/data/docs/*.json is valid (checked by tests)");
        docs.extend(part);
    }
    docs
}

/// The tooltip texts the browser fetches once (`/pkg/key-docs.json`, served by the server; the
/// browser build has no `docs` feature): every key's description, and each optimizer and
/// scheduler parameter's as `param:<group>.<type>.<name>`, en and zh, one JSON object sorted
/// by name.
#[cfg(feature = "docs")]
pub fn key_docs_json() -> String {
    let mut docs: BTreeMap<String, super::Doc> = parse_docs(DOCS).into_iter().collect();
    let data: serde_json::Value =
        serde_json::from_str(OPTIMIZERS_FULL).expect("shared/data/optimizers.json is valid");
    for (group, families) in data.as_object().into_iter().flatten() {
        for (family, spec) in families.as_object().into_iter().flatten() {
            for (name, p) in spec["params"].as_object().into_iter().flatten() {
                let text = |k: &str| p[k].as_str().unwrap_or_default().to_string();
                docs.insert(
                    format!("param:{group}.{family}.{name}"),
                    super::Doc {
                        en: text("en"),
                        zh: text("zh"),
                    },
                );
            }
        }
    }
    serde_json::to_string(&docs).expect("descriptions serialise")
}

/// How much of the data a registry holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    /// What validation needs: no descriptions, sources or notes.
    Rules,
    /// Everything (with the `docs` feature).
    #[cfg(feature = "docs")]
    Described,
}

pub(super) fn load(level: Level) -> Registry {
    #[cfg(feature = "docs")]
    let (keys_text, optimizers_text) = match level {
        Level::Rules => (KEYS, OPTIMIZERS),
        Level::Described => (KEYS_FULL, OPTIMIZERS_FULL),
    };
    #[cfg(not(feature = "docs"))]
    let (keys_text, optimizers_text) = (KEYS, OPTIMIZERS);
    let mut keys: Vec<KeySpec> =
        serde_json::from_str(keys_text).expect("shared/data/keys.json is valid (checked by tests)");
    #[cfg(feature = "docs")]
    let mut docs: HashMap<String, super::Doc> = match level {
        Level::Rules => HashMap::new(),
        Level::Described => parse_docs(DOCS),
    };
    #[cfg(not(feature = "docs"))]
    let mut docs: HashMap<String, super::Doc> = {
        let _ = level;
        HashMap::new()
    };
    let releases: ReleaseData = serde_json::from_str(crate::release::data())
        .expect("shared/data/releases.json is valid (checked by tests)");
    let mut facts = releases.keys;
    for k in &mut keys {
        if let Some(d) = docs.remove(&k.path) {
            k.doc = d;
        }
        if let Some(f) = facts.remove(&k.path) {
            k.since = f.since;
            k.until = f.until;
            k.removed_in = f.removed_in;
            if f.removed.is_some() {
                k.removed = f.removed;
            }
            k.defaults = f.defaults;
            k.bounds = f.bounds;
        }
    }
    let mut by_path = super::FastMap::default();
    let mut children: super::FastMap<String, Vec<usize>> = super::FastMap::default();
    let mut placeholders: super::FastMap<String, usize> = super::FastMap::default();
    let mut named_children: super::FastMap<String, super::FastMap<String, usize>> =
        super::FastMap::default();
    for (i, k) in keys.iter().enumerate() {
        by_path.insert(k.path.clone(), i);
        let parent = k.path.rsplit_once('.').map(|(p, _)| p).unwrap_or("");
        children.entry(parent.to_string()).or_default().push(i);
        named_children
            .entry(parent.to_string())
            .or_default()
            .insert(k.name().to_string(), i);
        if k.name().starts_with('<') {
            placeholders.entry(parent.to_string()).or_insert(i);
        }
    }
    let _ = join;
    let opt: OptimizerData = serde_json::from_str(optimizers_text).unwrap_or_default();
    Registry {
        keys,
        by_path,
        children,
        placeholders,
        named_children,
        optimizers: opt.optimizers,
        torch_optimizers: opt.torch_optimizers,
        schedulers: opt.schedulers,
        closed_since: releases.closed_since,
        plain_until: releases.plain_until,
        optimizer_spans: releases.optimizers,
        scheduler_spans: releases.schedulers,
        checks: releases.checks,
        suggestions: Default::default(),
    }
}
