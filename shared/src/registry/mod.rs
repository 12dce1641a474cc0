//! The key registry: every key DeepSpeed 0.14.4 – 0.19.8 reads, as data.
//!
//! The single source of truth is `shared/data/keys.json` (types, defaults, allowed values,
//! strict/lax mode, aliases, deprecations, as of the newest release),
//! `shared/data/releases.json` (per key, the releases it holds for and its default in each;
//! the sections each release checks with pydantic; generated from each release's source by
//! `tools/releases/gen.py`), `shared/data/docs/*.json` (English and Chinese documentation)
//! and `shared/data/optimizers.json` (per-type optimizer and scheduler parameters). They are compiled into the binary with `include_str!` and parsed once. The JSON
//! Schema (the `schema` module), the tooltips and the validator all read this registry.

mod load;
pub mod plain;
#[cfg(feature = "docs")]
pub use load::key_docs_json;
pub use load::Families;

use crate::release::Release;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The registry's maps: keys fixed at build time, so a fast hash (lookups with a document's
/// keys insert nothing).
pub(crate) type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;
use std::sync::OnceLock;

/// A JSON type a key accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Ty {
    Int,
    Float,
    Number,
    Bool,
    String,
    Object,
    Array,
    /// The literal string `"auto"` (besides the other types).
    Auto,
    Any,
}

/// How DeepSpeed reads a key: through a pydantic model (strict) or with `dict.get` (lax).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Strict,
    #[default]
    Lax,
}

/// What an object accepts besides its known keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Children {
    /// Unknown keys are rejected by DeepSpeed (pydantic `extra="forbid"`).
    Closed,
    /// Unknown keys are silently ignored by DeepSpeed (we warn).
    Open,
    /// Anything goes (passed through to another library or kept as is).
    Free,
}

/// Documentation in both languages.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Doc {
    pub en: String,
    pub zh: String,
}

/// Everything known about one key path (dot-separated; `<name>` stands for any name).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct KeySpec {
    pub path: String,
    #[serde(rename = "type")]
    pub types: Vec<Ty>,
    #[serde(default)]
    pub nullable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_text: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub r#enum: Vec<String>,
    /// How enum values are compared: `exact`, `lower` (lower-cased first), `upper`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_case: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default)]
    pub min_exclusive: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(default)]
    pub max_exclusive: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_text: Option<String>,
    #[serde(default)]
    pub mode: Mode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children: Option<Children>,
    /// For `stage3_*` aliases: the pydantic field name this key is an alias of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<String>,
    #[serde(default)]
    pub deprecated: bool,
    /// The key that replaces a deprecated one (a dot path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<String>,
    /// A JSON patch template fixing a deprecated key (`{ptr}` = its pointer, `{parent}` = the
    /// parent's pointer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<serde_json::Value>,
    /// Set when some release rejects the key outright: its `DeepSpeedConfigError` text (from
    /// [`KeySpec::removed_in`] on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
    /// The first release that reads the key (none: every release ds-studio knows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<Release>,
    /// The first release that no longer reads it, without saying so (strict sections then
    /// reject it as unknown; lax ones ignore it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Release>,
    /// The first release that rejects it with the [`KeySpec::removed`] message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed_in: Option<Release>,
    /// The default where it changed between releases: (first release, value), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<(Release, serde_json::Value)>,
    /// The engine or validator check (see [`Registry::has_check`]) `min`/`max` come from: the
    /// range holds only in the releases that have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds_check: Option<String>,
    /// The pydantic bounds where they changed between releases: (first release, bounds).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bounds: Vec<(Release, Bounds)>,
    #[serde(default)]
    pub stage3_only: bool,
    /// For a lax key: a value of another type is accepted at parse but makes training fail at
    /// the first step with this error (so it is an error, not a warning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fails_at_step: Option<String>,
    /// A lax key whose wrong type passes the parser and makes `deepspeed.initialize()` fail
    /// with this error (so it is an error, not a warning); with `enum_at_start`, a value outside
    /// its enum and `spellings` too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fails_at_start: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enum_at_start: bool,
    /// Other spellings DeepSpeed accepts for the enum's values (`float16`, `torch.float16` for
    /// `fp16`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spellings: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    #[serde(default)]
    pub doc: Doc,
}

impl KeySpec {
    pub fn accepts(&self, ty: Ty) -> bool {
        self.types.contains(&ty)
    }
    pub fn is_object(&self) -> bool {
        self.accepts(Ty::Object)
    }
    /// The last path segment.
    pub fn name(&self) -> &str {
        // By hand: called for every candidate and member, on paths of a few dozen bytes,
        // where a `str` searcher costs more than the scan.
        match self.path.bytes().rposition(|b| b == b'.') {
            Some(i) => &self.path[i + 1..],
            None => &self.path,
        }
    }

    /// The path of the section holding the key (`""` at the top level).
    pub fn parent(&self) -> &str {
        match self.path.bytes().rposition(|b| b == b'.') {
            Some(i) => &self.path[..i],
            None => "",
        }
    }
    /// The key is read by `release` (it is neither too new, gone, nor removed there).
    pub fn known_in(&self, release: Release) -> bool {
        self.since.is_none_or(|s| release >= s)
            && self.until.is_none_or(|u| release < u)
            && self.removed_at(release).is_none()
    }
    /// The message `release` rejects the key with, when it was removed by then.
    pub fn removed_at(&self, release: Release) -> Option<&str> {
        let from = self
            .removed_in
            .or(self.removed.as_ref().map(|_| Release::newest()))?;
        (release >= from).then_some(self.removed.as_deref()?)
    }
    /// The key's numeric range in `release`.
    pub fn range_at(&self, release: Release) -> Range {
        if let Some(check) = &self.bounds_check {
            if !registry().has_check(check, release) {
                return (None, None);
            }
        }
        match self.bounds.iter().rev().find(|(from, _)| *from <= release) {
            Some((_, b)) => (
                b.gt.map(|v| (v, true)).or(b.ge.map(|v| (v, false))),
                b.lt.map(|v| (v, true)).or(b.le.map(|v| (v, false))),
            ),
            None => (
                self.min.map(|v| (v, self.min_exclusive)),
                self.max.map(|v| (v, self.max_exclusive)),
            ),
        }
    }
    /// The default to show for `release`: as written for the newest release where it is the
    /// same there, else this release's own value.
    pub fn default_text_at(&self, release: Release) -> Option<String> {
        if self.defaults.is_empty()
            || self.default_at(release) == self.default_at(Release::newest())
        {
            self.default_text
                .clone()
                .or_else(|| self.default.as_ref().map(|v| v.to_string()))
        } else {
            self.default_at(release).map(|v| v.to_string())
        }
    }

    /// "0.14.4: 0.0 → 0.19.3: 1.0" when the default changed between releases.
    pub fn default_history(&self) -> Option<String> {
        (self.defaults.len() > 1).then(|| {
            self.defaults
                .iter()
                .map(|(r, v)| format!("{r}: {v}"))
                .collect::<Vec<_>>()
                .join(" → ")
        })
    }

    /// The key's default in `release`.
    pub fn default_at(&self, release: Release) -> Option<&serde_json::Value> {
        match self
            .defaults
            .iter()
            .rev()
            .find(|(from, _)| *from <= release)
        {
            Some((_, v)) => Some(v),
            None => self.default.as_ref(),
        }
    }
}

/// A pydantic field's bounds (`Field(gt=0)`), as one release has them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gt: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ge: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lt: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub le: Option<f64>,
}

/// A numeric range: (minimum, exclusive?) and (maximum, exclusive?).
pub type Range = (Option<(f64, bool)>, Option<(f64, bool)>);

/// The releases a name (an optimizer, a scheduler) holds for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<Release>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<Release>,
}

impl Span {
    pub fn holds(&self, release: Release) -> bool {
        self.since.is_none_or(|s| release >= s) && self.until.is_none_or(|u| release < u)
    }
}

/// Parameters of one optimizer or scheduler type (`optimizer.params` depends on `optimizer.type`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ParamSpec {
    #[serde(rename = "type", default)]
    pub ty: String,
    #[serde(default)]
    pub default: serde_json::Value,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub en: String,
    #[serde(default)]
    pub zh: String,
}

/// A named family (an optimizer or scheduler type) and its parameters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ParamFamily {
    #[serde(default)]
    pub class: String,
    #[serde(default)]
    pub params: BTreeMap<String, ParamSpec>,
}

/// The whole registry.
#[derive(Debug)]
pub struct Registry {
    keys: Box<[load::Slot]>,
    by_path: FastMap<&'static str, usize>,
    children: FastMap<&'static str, Vec<usize>>,
    /// The placeholder child (`<name>`) of a path, where it has one (found without scanning
    /// the children: `child` runs for every member of a document).
    placeholders: FastMap<&'static str, usize>,
    /// Each path's children by name: `child` runs for every member of a document, and finds
    /// its key without building the dotted path.
    named_children: FastMap<&'static str, FastMap<&'static str, usize>>,
    /// DeepSpeed optimizers by lower-case type name.
    pub optimizers: Families,
    /// torch.optim optimizers by exact class name.
    pub torch_optimizers: Families,
    /// Schedulers by exact type name.
    pub schedulers: Families,
    /// Sections a pydantic model checks only from some release on (before it, DeepSpeed read
    /// them with `dict.get`: unknown keys ignored, values not type-checked).
    closed_since: FastMap<String, Release>,
    /// Sections that, before their `closed_since` release, were a plain pydantic model (0.14.x's
    /// `comms_logger`): values type-checked, unknown keys ignored, `"auto"` not dropped.
    plain_until: FastMap<String, Release>,
    /// DeepSpeed optimizers (lower case) and schedulers that only some releases have.
    optimizer_spans: FastMap<String, Span>,
    scheduler_spans: FastMap<String, Span>,
    /// Engine-start checks ds-studio reproduces, by name, and the releases that have them.
    checks: FastMap<String, Span>,
    /// Every key's index by its last segment, built on the first [`Registry::keys_named`].
    by_name: OnceLock<FastMap<&'static str, Vec<usize>>>,
    /// "Did you mean" candidates per section, each built on its first suggestion.
    suggestions: suggest::Index,
}

/// The registry the validator uses, parsed on first use: every key, type, bound, default and
/// release fact, without the descriptions, sources and notes (a key's `doc` is empty here).
/// That is what `ds-studio validate` pays at start; see [`described`] for the texts.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| load::load(load::Level::Rules))
}

/// The registry with every description (en, zh), source and note, for what shows them: the
/// JSON Schema, `ds-studio explain`, the language server's hovers. Parsed on first use, apart
/// from [`registry`]. Without the `docs` feature (the browser) it is [`registry`].
pub fn described() -> &'static Registry {
    #[cfg(feature = "docs")]
    {
        static DESCRIBED: OnceLock<Registry> = OnceLock::new();
        DESCRIBED.get_or_init(|| load::load(load::Level::Described))
    }
    #[cfg(not(feature = "docs"))]
    registry()
}

impl Registry {
    /// Every key, in `keys.json`'s order (parses every key not parsed yet).
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &KeySpec> + DoubleEndedIterator + Clone {
        self.keys.iter().map(load::Slot::get)
    }

    /// The keys whose last segment is `name`, in any section, in the registry's order (only
    /// those are parsed; the index by name is built on the first call).
    pub fn keys_named(&self, name: &str) -> impl Iterator<Item = &KeySpec> {
        let by_name = self.by_name.get_or_init(|| {
            let mut map: FastMap<&'static str, Vec<usize>> = FastMap::default();
            for (i, slot) in self.keys.iter().enumerate() {
                map.entry(slot.name()).or_default().push(i);
            }
            map
        });
        by_name
            .get(name)
            .into_iter()
            .flatten()
            .map(|i| self.keys[*i].get())
    }

    /// Exact lookup by registry path (may contain `<name>`).
    pub fn get(&self, path: &str) -> Option<&KeySpec> {
        self.by_path.get(path).map(|i| self.keys[*i].get())
    }

    /// Known children of a registry path (`""` for top level).
    pub fn children_of(&self, path: &str) -> impl Iterator<Item = &KeySpec> {
        self.children
            .get(path)
            .into_iter()
            .flatten()
            .map(move |i| self.keys[*i].get())
    }

    /// Resolves a member `key` under the registry path `parent` to its spec, following
    /// placeholders (`<name>`) and section aliases (`bfloat16` reads like `bf16`, `tp` like
    /// `tensor_parallel`).
    pub fn child(&self, parent: &str, key: &str) -> Option<&KeySpec> {
        let parent = match parent {
            "bfloat16" => "bf16",
            "tensor_parallel.tensor_parallel" => "tensor_parallel.tp",
            p => p,
        };
        if let Some(i) = self.named_children.get(parent).and_then(|c| c.get(key)) {
            return Some(self.keys[*i].get());
        }
        self.placeholders
            .get(parent)
            .map(|i| self.keys[*i].get())
            .or_else(|| {
                let alias = match (parent, key) {
                    ("", "bfloat16") => Some("bf16"),
                    ("tensor_parallel", "tp") => Some("tensor_parallel"),
                    _ => None,
                }?;
                self.get(&join(parent, alias))
            })
    }

    /// Canonical registry path of a concrete dotted path (`bfloat16.enabled` -> `bf16.enabled`).
    pub fn resolve(&self, tokens: &[&str]) -> Option<&KeySpec> {
        let mut path = String::new();
        let mut spec = None;
        for t in tokens {
            let s = self.child(&path, t)?;
            path = s.path.clone();
            spec = Some(s);
        }
        spec
    }

    /// Documentation for a dotted key path (aliases and placeholders resolved).
    pub fn explain(&self, dotted: &str) -> Option<&KeySpec> {
        let tokens: Vec<&str> = dotted.split('.').filter(|t| !t.is_empty()).collect();
        self.resolve(&tokens)
    }

    /// What `release` does with unknown members of the section `spec`: a section checked by
    /// pydantic only from a later release is open before it.
    pub fn policy(&self, spec: &KeySpec, release: Release) -> Children {
        let policy = spec.children.unwrap_or(Children::Open);
        match (policy, self.closed_since.get(section_of(&spec.path))) {
            (Children::Closed, Some(from)) if release < *from => Children::Open,
            _ => policy,
        }
    }

    /// How `release` reads the key: a strict key of a section checked by pydantic only from a
    /// later release was read with `dict.get` before it, unless the section was a plain
    /// pydantic model then (its types checked all along).
    pub fn mode(&self, spec: &KeySpec, release: Release) -> Mode {
        let parent = spec.parent();
        match (spec.mode, self.closed_since.get(section_of(parent))) {
            (Mode::Strict, Some(from)) if release < *from && !self.plain_model(parent, release) => {
                Mode::Lax
            }
            (mode, _) => mode,
        }
    }

    /// Whether `release` reads the section at `path` with a plain pydantic model: types
    /// checked, unknown keys ignored, and `"auto"` a value like any other (not dropped).
    pub fn plain_model(&self, path: &str, release: Release) -> bool {
        self.plain_until
            .get(section_of(path))
            .is_some_and(|until| release < *until)
    }

    /// The release a section is first checked by pydantic, when that is not every release.
    pub fn closed_since(&self, path: &str) -> Option<Release> {
        self.closed_since.get(path).copied()
    }

    /// The releases a DeepSpeed optimizer (any case) holds for, when not every release.
    pub fn optimizer_span(&self, ty: &str) -> Option<Span> {
        self.optimizer_spans.get(&ty.to_ascii_lowercase()).copied()
    }

    /// Whether `release` has the engine-start check `name` (see `tools/releases/source.py`,
    /// `CHECKS`). An unknown name is a bug: it panics in debug builds.
    pub fn has_check(&self, name: &str, release: Release) -> bool {
        debug_assert!(self.checks.contains_key(name), "unknown check {name}");
        self.checks.get(name).is_some_and(|s| s.holds(release))
    }

    /// The releases a scheduler holds for, when not every release.
    pub fn scheduler_span(&self, ty: &str) -> Option<Span> {
        self.scheduler_spans.get(ty).copied()
    }

    /// The parameter family of an optimizer type as DeepSpeed resolves it (DeepSpeed names are
    /// case-insensitive; other names are torch.optim classes, case-sensitive).
    pub fn optimizer(&self, ty: &str) -> Option<&ParamFamily> {
        self.optimizers
            .get(&ty.to_ascii_lowercase())
            .or_else(|| self.torch_optimizers.get(ty))
    }
}

mod suggest;

/// Longest name "did you mean" compares: Jaro-Winkler costs length x length, and no DeepSpeed
/// key or type is longer, so a megabyte-long key gets no suggestion instead of seconds of work.
pub(crate) const MAX_SUGGESTED: usize = 64;

/// Jaro-Winkler similarity, 0 for a name longer than [`MAX_SUGGESTED`].
pub(crate) fn similarity(a: &str, b: &str) -> f64 {
    if a.len() > MAX_SUGGESTED || b.len() > MAX_SUGGESTED {
        return 0.0;
    }
    strsim::jaro_winkler(a, b)
}

/// Whether `b` is a plausible correction of the typo `a`: similar (Jaro-Winkler above 0.8),
/// and what differs after their common prefix is close too, or one name extends the other.
/// Jaro-Winkler's prefix bonus alone takes `warmup_max_lr` for `warmup_type`.
pub(crate) fn plausible_typo(a: &str, b: &str) -> bool {
    if similarity(a, b) <= 0.8 {
        return false;
    }
    let common = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let (ra, rb) = (&a[common..], &b[common.min(b.len())..]);
    if ra.is_empty() || rb.is_empty() {
        return true;
    }
    strsim::levenshtein(ra, rb) <= (ra.len().max(rb.len()) / 3).max(2)
}

/// The section whose pydantic model checks `path` (`bfloat16` is read like `bf16`).
fn section_of(path: &str) -> &str {
    match path {
        "bfloat16" => "bf16",
        p => p,
    }
}

pub(crate) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// DeepSpeed optimizers built from the config (`DEEPSPEED_OPTIMIZERS`) in any release; the
/// registry says which releases have which (the 1-bit optimizers were dropped in 0.19.7 and
/// are then "not a supported DeepSpeed Optimizer"; `muon` arrived in 0.17.6).
pub const DEEPSPEED_OPTIMIZERS: &[&str] = &[
    "adam",
    "adamw",
    "lamb",
    "adagrad",
    "lion",
    "muadam",
    "muadamw",
    "musgd",
    "muon",
    "onebitadam",
    "zerooneadam",
    "onebitlamb",
];

/// The DeepSpeed optimizers `release` builds from the config.
pub fn deepspeed_optimizers(release: Release) -> impl Iterator<Item = &'static str> {
    DEEPSPEED_OPTIMIZERS.iter().copied().filter(move |o| {
        registry()
            .optimizer_span(o)
            .is_none_or(|s| s.holds(release))
    })
}

#[cfg(test)]
mod tests;
