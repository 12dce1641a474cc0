//! Starting-point configs (seed 004's ZeRO stages and seed 003's tuned configs), each accepted
//! by DeepSpeed 0.19.8 at world size 8 (checked with the ds-oracle and by a test here).

use serde::{Deserialize, Serialize};

/// A preset's description.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Preset {
    pub id: String,
    pub title_en: String,
    pub title_zh: String,
    pub description_en: String,
    pub description_zh: String,
    pub source: String,
    /// The config text.
    #[serde(default)]
    pub config: String,
}

const INDEX: &str = include_str!("../data/presets/index.json");
const FILES: &[(&str, &str)] = &[
    ("zero0", include_str!("../data/presets/zero0.json")),
    ("zero1", include_str!("../data/presets/zero1.json")),
    ("zero2", include_str!("../data/presets/zero2.json")),
    ("zero3", include_str!("../data/presets/zero3.json")),
    (
        "zero-infinity",
        include_str!("../data/presets/zero-infinity.json"),
    ),
    (
        "tuned-zero2-balanced",
        include_str!("../data/presets/tuned-zero2-balanced.json"),
    ),
    (
        "tuned-zero2-throughput",
        include_str!("../data/presets/tuned-zero2-throughput.json"),
    ),
    (
        "tuned-zero3-memory",
        include_str!("../data/presets/tuned-zero3-memory.json"),
    ),
];

/// All presets, in display order.
pub fn presets() -> Vec<Preset> {
    let mut list: Vec<Preset> =
        serde_json::from_str(INDEX).expect("presets/index.json is valid (tested)");
    for p in &mut list {
        p.config = FILES
            .iter()
            .find(|(id, _)| *id == p.id)
            .map(|(_, t)| t.to_string())
            .unwrap_or_default();
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{validate, verdict, Context, Document, Severity, Verdict};

    #[test]
    fn every_preset_is_accepted_without_warnings_at_world_size_8() {
        let list = presets();
        assert_eq!(list.len(), FILES.len());
        for p in list {
            assert!(!p.config.is_empty(), "{} has no file", p.id);
            let diags = validate(&Document::parse(&p.config), &Context::with_world_size(8));
            assert_eq!(verdict(&diags), Verdict::Accepted, "{}: {diags:#?}", p.id);
            let warnings: Vec<_> = diags
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .collect();
            assert!(warnings.is_empty(), "{}: {warnings:#?}", p.id);
        }
    }
}
