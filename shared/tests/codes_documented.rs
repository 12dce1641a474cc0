//! Every diagnostic code the validator emits has its entry in the reference
//! (`shared::vocab::codes`, the book's "Diagnostic codes" page and each diagnostic's link), and
//! every entry names a code the code base still emits. The configs: the corpus, our oracle
//! probes, DeepSpeed's unit cases and the HF probes, each under the three launchers, at one and
//! eight GPUs, in the oldest and the newest release.

use ds_studio_shared::validate::{validate_text, Context, Launcher};
use ds_studio_shared::vocab::codes::CODES;
use ds_studio_shared::Release;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("DS_SHARED_DIR") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The texts of every config the suites hold.
fn texts() -> Vec<String> {
    let mut out = Vec::new();
    let corpus = shared_dir().join("deepspeed/corpus/configs");
    for e in std::fs::read_dir(&corpus).expect("the corpus (../shared/deepspeed)") {
        out.push(std::fs::read_to_string(e.unwrap().path()).unwrap_or_default());
    }
    for file in [
        fixtures().join("oracle_probes.jsonl"),
        fixtures().join("unit_cases_0198.jsonl"),
        fixtures().join("hf/probes.jsonl"),
    ] {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if let Some(t) = v["text"].as_str() {
                out.push(t.to_owned());
            } else if v.get("config").is_some() {
                out.push(v["config"].to_string());
            }
        }
    }
    // What no suite holds: text that is no JSON at all, and a non-object.
    out.push("{\"train_batch_size\": 8,, ".into());
    out.push("[1, 2]".into());
    out
}

#[test]
fn every_emitted_code_is_documented() {
    let documented: BTreeSet<&str> = CODES.iter().map(|c| c.code).collect();
    let texts = texts();
    assert!(texts.len() > 300, "read only {} configs", texts.len());
    let mut seen = BTreeSet::new();
    for text in &texts {
        for launcher in [
            Launcher::Deepspeed,
            Launcher::HfTrainer,
            Launcher::Accelerate,
        ] {
            for world_size in [1, 8] {
                for release in [Release::OLDEST, Release::newest()] {
                    let ctx = Context {
                        world_size,
                        launcher,
                        deepspeed_version: release.to_string(),
                        ..Context::default()
                    };
                    for d in validate_text(text, &ctx).1 {
                        seen.insert(d.code);
                    }
                }
            }
        }
    }
    let missing: Vec<&String> = seen
        .iter()
        .filter(|c| !documented.contains(c.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "codes emitted but not in shared/src/vocab/codes.rs: {missing:?}"
    );
    // The suites reach most of the table: a table filled with made-up codes would not.
    assert!(
        seen.len() * 10 >= CODES.len() * 6,
        "{} of {}",
        seen.len(),
        CODES.len()
    );
}

/// Each entry names a code some source file still spells (`"code"`): no stale entries.
#[test]
fn every_documented_code_is_still_emitted() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut sources = String::new();
    for dir in ["shared/src", "backend/cli/src", "backend/lsp/src"] {
        read_rs(&root.join(dir), &mut sources);
    }
    let codes_file = std::fs::read_to_string(root.join("shared/src/vocab/codes.rs")).unwrap();
    let sources = sources.replace(&codes_file, "");
    let stale: Vec<&str> = CODES
        .iter()
        .map(|c| c.code)
        .filter(|c| !sources.contains(&format!("\"{c}\"")))
        .collect();
    assert!(
        stale.is_empty(),
        "documented but emitted nowhere: {stale:?}"
    );
    let mut sorted: Vec<&str> = CODES.iter().map(|c| c.code).collect();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), CODES.len(), "a code is listed twice");
}

fn read_rs(dir: &Path, out: &mut String) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            read_rs(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push_str(&std::fs::read_to_string(&p).unwrap());
        }
    }
}
