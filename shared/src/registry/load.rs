//! Parses the embedded data files into a [`Registry`].

use super::{KeySpec, ParamFamily, Registry, Span};
use crate::release::Release;
use std::collections::BTreeMap;
#[cfg(feature = "docs")]
use std::collections::HashMap;
use std::sync::OnceLock;

/// `registry_data.rs`, written by `shared/build.rs`: each key's trimmed JSON with its release
/// facts merged in, and the release facts that are not per key.
mod data {
    include!(concat!(env!("OUT_DIR"), "/registry_data.rs"));
}

/// Every key as written, its release facts merged, for [`Level::Described`].
#[cfg(feature = "docs")]
const KEYS_FULL: &str = include_str!(concat!(env!("OUT_DIR"), "/keys_full.json"));
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
/// `optimizer_data.rs`, written by `shared/build.rs`: each optimizer and scheduler type's
/// parameters, trimmed, as its own JSON text.
mod optimizer_data {
    include!(concat!(env!("OUT_DIR"), "/optimizer_data.rs"));
}

#[cfg(feature = "docs")]
#[derive(serde::Deserialize, Default)]
struct OptimizerData {
    #[serde(default)]
    optimizers: BTreeMap<String, ParamFamily>,
    #[serde(default)]
    torch_optimizers: BTreeMap<String, ParamFamily>,
    #[serde(default)]
    schedulers: BTreeMap<String, ParamFamily>,
}

/// What `releases.json` knows besides its list and its keys (see `tools/releases/gen.py`).
#[derive(serde::Deserialize)]
struct ReleaseData {
    closed_since: super::FastMap<String, Release>,
    #[serde(default)]
    plain_until: super::FastMap<String, Release>,
    optimizers: super::FastMap<String, Span>,
    schedulers: super::FastMap<String, Span>,
    checks: super::FastMap<String, Span>,
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
    let keys: Box<[Slot]> = match level {
        // Each key parsed when first asked for: validating a document touches a fraction.
        Level::Rules => data::KEYS
            .iter()
            .map(|(path, text)| Slot::lazy(path, text))
            .collect(),
        #[cfg(feature = "docs")]
        Level::Described => {
            let mut docs = parse_docs(DOCS);
            let keys: Vec<KeySpec> = serde_json::from_str(KEYS_FULL)
                .expect("shared/data/keys.json is valid (checked by tests)");
            assert_eq!(keys.len(), data::KEYS.len(), "build.rs wrote every key");
            keys.into_iter()
                .zip(data::KEYS)
                .map(|(mut k, (path, _))| {
                    assert_eq!(k.path, *path, "build.rs kept keys.json's order");
                    if let Some(d) = docs.remove(&k.path) {
                        k.doc = d;
                    }
                    Slot::parsed(path, k)
                })
                .collect()
        }
    };
    let releases: ReleaseData = serde_json::from_str(data::RELEASE_FACTS)
        .expect("shared/data/releases.json is valid (checked by tests)");
    // Keyed by the paths compiled in: nothing copied.
    let n = data::KEYS.len();
    let mut by_path = super::FastMap::with_capacity_and_hasher(n, Default::default());
    let mut children: super::FastMap<&str, Vec<usize>> = super::FastMap::default();
    let mut placeholders: super::FastMap<&str, usize> = super::FastMap::default();
    let mut named_children: super::FastMap<&str, super::FastMap<&str, usize>> =
        super::FastMap::default();
    for (i, (path, _)) in data::KEYS.iter().enumerate() {
        by_path.insert(*path, i);
        let (parent, name) = path.rsplit_once('.').unwrap_or(("", path));
        children.entry(parent).or_default().push(i);
        named_children.entry(parent).or_default().insert(name, i);
        if name.starts_with('<') {
            placeholders.entry(parent).or_insert(i);
        }
    }
    let (optimizers, torch_optimizers, schedulers) = families(level);
    Registry {
        keys,
        by_path,
        suggestions: super::suggest::index(children.keys()),
        by_name: OnceLock::new(),
        children,
        placeholders,
        named_children,
        optimizers,
        torch_optimizers,
        schedulers,
        closed_since: releases.closed_since,
        plain_until: releases.plain_until,
        optimizer_spans: releases.optimizers,
        scheduler_spans: releases.schedulers,
        checks: releases.checks,
    }
}

/// The optimizer, torch optimizer and scheduler families: lazily parsed texts for
/// [`Level::Rules`], the whole file parsed for [`Level::Described`].
fn families(level: Level) -> (Families, Families, Families) {
    #[cfg(feature = "docs")]
    if level == Level::Described {
        let opt: OptimizerData = serde_json::from_str(OPTIMIZERS_FULL)
            .expect("shared/data/optimizers.json is valid (checked by tests)");
        return (
            Families::parsed(opt.optimizers),
            Families::parsed(opt.torch_optimizers),
            Families::parsed(opt.schedulers),
        );
    }
    let _ = level;
    let group = |g: &str| {
        Families(
            optimizer_data::FAMILIES
                .iter()
                .filter(|(group, _, _)| *group == g)
                .map(|(_, name, text)| (name.to_string(), Lazy::new(text)))
                .collect(),
        )
    };
    (
        group("optimizers"),
        group("torch_optimizers"),
        group("schedulers"),
    )
}

/// Optimizer or scheduler types by name, each type's parameters parsed when first asked for.
#[derive(Debug)]
pub struct Families(BTreeMap<String, Lazy<ParamFamily>>);

impl Families {
    #[cfg(feature = "docs")]
    fn parsed(map: BTreeMap<String, ParamFamily>) -> Families {
        Families(map.into_iter().map(|(k, v)| (k, Lazy::parsed(v))).collect())
    }

    pub fn get(&self, name: &str) -> Option<&ParamFamily> {
        self.0.get(name).map(Lazy::get)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// The type names, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.keys()
    }

    /// Every type with its parameters, sorted by name (parses them all).
    pub fn iter(&self) -> impl Iterator<Item = (&String, &ParamFamily)> {
        self.0.iter().map(|(k, v)| (k, v.get()))
    }
}

impl<'a> IntoIterator for &'a Families {
    type Item = (&'a String, &'a ParamFamily);
    type IntoIter = Box<dyn Iterator<Item = Self::Item> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// A value parsed from its JSON text the first time it is asked for.
pub(super) struct Lazy<T> {
    text: &'static str,
    value: OnceLock<T>,
}

impl<T: serde::de::DeserializeOwned> Lazy<T> {
    fn new(text: &'static str) -> Lazy<T> {
        Lazy {
            text,
            value: OnceLock::new(),
        }
    }

    #[cfg(feature = "docs")]
    fn parsed(value: T) -> Lazy<T> {
        Lazy {
            text: "",
            value: OnceLock::from(value),
        }
    }

    pub(super) fn get(&self) -> &T {
        self.value.get_or_init(|| {
            serde_json::from_str(self.text).expect("shared/data is valid (checked by tests)")
        })
    }
}

impl<T: serde::de::DeserializeOwned + std::fmt::Debug> std::fmt::Debug for Lazy<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

/// One key of a registry: its path, and its spec parsed when first asked for (or given parsed,
/// for [`Level::Described`]).
#[derive(Debug)]
pub(super) struct Slot {
    path: &'static str,
    spec: Lazy<KeySpec>,
}

impl Slot {
    fn lazy(path: &'static str, text: &'static str) -> Slot {
        Slot {
            path,
            spec: Lazy::new(text),
        }
    }

    #[cfg(feature = "docs")]
    fn parsed(path: &'static str, spec: KeySpec) -> Slot {
        Slot {
            path,
            spec: Lazy::parsed(spec),
        }
    }

    /// The key's last path segment, without parsing it.
    pub(super) fn name(&self) -> &'static str {
        self.path.rsplit_once('.').map_or(self.path, |(_, n)| n)
    }

    pub(super) fn get(&self) -> &KeySpec {
        self.spec.get()
    }
}
