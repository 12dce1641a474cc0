//! The data files the validator loads are trimmed of what only the server, the CLI and the
//! editors show: each key's `source` and `notes`, and the optimizer and scheduler parameters'
//! descriptions (the browser fetches those with the key descriptions, see
//! `frontend/src/key_docs.rs`). With the `docs` feature the full files are compiled in as well,
//! and parsed only when a description is first needed (`registry::described`): `ds-studio
//! validate` does not pay for them at start.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=data/keys.json");
    println!("cargo:rerun-if-changed=data/optimizers.json");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let full = std::env::var_os("CARGO_FEATURE_DOCS").is_some();
    let keys = std::fs::read_to_string("data/keys.json").expect("data/keys.json");
    let optimizers = std::fs::read_to_string("data/optimizers.json").expect("data/optimizers.json");
    // What the validator loads: every key without its source and notes, every optimizer
    // parameter without its description. With `docs` the full files are compiled in as well and
    // parsed only when a description is asked for (`registry::described`).
    let mut k: serde_json::Value = serde_json::from_str(&keys).expect("keys.json is JSON");
    for spec in k.as_array_mut().expect("keys.json is a list") {
        if let Some(o) = spec.as_object_mut() {
            o.remove("source");
            o.remove("notes");
        }
    }
    let mut o: serde_json::Value =
        serde_json::from_str(&optimizers).expect("optimizers.json is JSON");
    for group in o.as_object_mut().expect("an object").values_mut() {
        for family in group
            .as_object_mut()
            .into_iter()
            .flat_map(|g| g.values_mut())
        {
            if let Some(f) = family.as_object_mut() {
                // The browser build has no use for the class name (the native validator reads
                // it for torch optimizers' argument checks).
                if !full {
                    f.remove("class");
                }
            }
            if let Some(params) = family.get_mut("params").and_then(|p| p.as_object_mut()) {
                for p in params.values_mut().filter_map(|p| p.as_object_mut()) {
                    p.remove("en");
                    p.remove("zh");
                }
            }
        }
    }
    let (keys, optimizers) = (k.to_string(), o.to_string());
    std::fs::write(out.join("keys.json"), keys).expect("write keys.json");
    std::fs::write(out.join("optimizers.json"), optimizers).expect("write optimizers.json");
}
