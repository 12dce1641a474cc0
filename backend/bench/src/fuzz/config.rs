//! The `config` target: DeepSpeed configs through `Document::parse` + `validate`, and the API's
//! JSON bodies (`JobCreate` with its checks, `TemplateCreate`, `ValidateRequest`, `EventBatch`).
//! Seeds are the corpus configs; generated inputs are documents built to be slow for a
//! quadratic parser or validator.

use super::{mutate, Rng};
use ds_studio_shared::api::{EventBatch, JobCreate, TemplateCreate, ValidateRequest};
use ds_studio_shared::validate::{validate, Context};
use ds_studio_shared::Document;

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\"a\":0,",
    "\"stage\": 3",
    "\"train_batch_size\": ",
    "\"zero_optimization\": {",
    "\"optimizer\": {\"type\": \"AdamW\", \"params\": {",
    "\"auto\"",
    "// c\n",
    "/* c */",
    "#x\n",
    "'''\nx\n'''",
    "\n",
    "\r",
    "1e999",
    "-0",
    "NaN",
    "true",
    "null",
    "\u{0}",
    "\u{feff}",
    "\\u0000",
    "\\ud800",
    "é",
    "💥",
    "0x10",
    "1_000",
];

/// The corpus configs and two API bodies.
pub struct Seeds(Vec<String>);

impl Seeds {
    pub fn read(corpus: &std::path::Path) -> Seeds {
        let mut seeds: Vec<String> = std::fs::read_dir(corpus)
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "conf"))
                    .filter_map(|p| std::fs::read_to_string(p).ok())
                    .collect()
            })
            .unwrap_or_default();
        seeds.push(
            r#"{"env": {"NCCL_DEBUG": "INFO"}, "template_id": 1, "workload": {"builtin": "gpt"}}"#
                .into(),
        );
        seeds.push(r#"{"events": [{"kind": "metric", "seq": 1, "ts": 1, "name": "x", "step": 1, "value": 1.0}]}"#.into());
        Seeds(seeds)
    }

    pub fn input(&self, rng: &mut Rng, generate: bool) -> String {
        if generate {
            return generated(rng);
        }
        let seed = rng.pick(&self.0);
        String::from_utf8_lossy(&mutate(rng, seed.as_bytes(), TOKENS)).into_owned()
    }
}

/// Documents built to be slow for a quadratic parser or validator.
fn generated(rng: &mut Rng) -> String {
    let n = 1 + rng.below(140_000);
    match rng.below(5) {
        0 => format!("{{{}\"a\":0}}", "\"a\":0,".repeat(n)),
        1 => format!(
            "{{{}}}",
            (0..n.min(50_000))
                .map(|i| format!("\"k{i}\":{i}"))
                .collect::<Vec<_>>()
                .join(",")
        ),
        2 => format!(
            "{}{}",
            "[".repeat(n.min(100_000)),
            "]".repeat(n.min(100_000))
        ),
        3 => format!(
            "{{\"zero_optimization\": {{{}\"stage\": 3}}}}",
            "\"stage\": 1,\n".repeat(n.min(100_000))
        ),
        _ => format!("{{\"a\": \"{}\"}}", "x\\n".repeat(n)),
    }
}

pub fn exercise(text: &str) {
    let doc = Document::parse(text);
    std::hint::black_box(validate(&doc, &Context::default()));
    if let Ok(j) = serde_json::from_str::<JobCreate>(text) {
        let _ = j.workload.check();
        if let Some(env) = &j.env {
            let _ = ds_studio_shared::api::check_env(env);
        }
    }
    let _ = serde_json::from_str::<TemplateCreate>(text);
    let _ = serde_json::from_str::<ValidateRequest>(text);
    let _ = serde_json::from_str::<EventBatch>(text);
}
