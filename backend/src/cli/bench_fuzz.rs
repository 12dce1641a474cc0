//! `ds-studio bench-fuzz` (hidden; `cargo xtask fuzz` runs it for 10 minutes): a mutation
//! fuzzer on `Document::parse` + `validate` and on the API's JSON bodies. Cargo-fuzz needs a
//! nightly toolchain, which this project does not have; this one mutates the corpus configs and
//! mixes in generated pathological documents (duplicate keys, deep nesting, many unknown keys,
//! long lines), times every input and catches panics. Prints one JSON line: inputs, inputs/s,
//! crashes, inputs slower than 50 ms, the slowest time. Crashing inputs are kept in
//! `$TMPDIR/ds-studio-fuzz-crash-N.txt`, the slowest one (if over the limit) in
//! `$TMPDIR/ds-studio-fuzz-slowest.txt`.

use ds_studio_shared::api::{EventBatch, JobCreate, TemplateCreate, ValidateRequest};
use ds_studio_shared::validate::{validate, Context};
use ds_studio_shared::Document;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory of seed configs (`*.json`, `*.conf`).
    pub corpus: std::path::PathBuf,
    /// How long to run.
    #[arg(long, default_value_t = 600)]
    pub seconds: u64,
    /// An input slower than this counts as a blowup.
    #[arg(long, default_value_t = 50)]
    pub slow_ms: u64,
}

/// xorshift64*: small, fast, seeded from the OS.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

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

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut s: Vec<u8> = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(s.len() + 1);
        match rng.below(6) {
            0 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                s.splice(at..at, t.iter().copied());
            }
            2 if !s.is_empty() => {
                let end = (at + rng.below(64)).min(s.len());
                s.drain(at.min(end)..end);
            }
            3 if !s.is_empty() => {
                // Repeat a slice many times (duplicate keys, deep nesting, long lines).
                let a = rng.below(s.len());
                let b = (a + 1 + rng.below(32)).min(s.len());
                let piece = s[a..b].to_vec();
                let times = 1 + rng.below(2000);
                let mut rep = Vec::with_capacity(piece.len() * times);
                for _ in 0..times {
                    rep.extend_from_slice(&piece);
                    if rep.len() > 256 * 1024 {
                        break;
                    }
                }
                s.splice(b..b, rep);
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let times = 1 + rng.below(300);
                for _ in 0..times {
                    s.splice(at..at, t.iter().copied());
                }
            }
        }
        s.truncate(1 << 20);
    }
    String::from_utf8_lossy(&s).into_owned()
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

fn api_bodies(text: &str) {
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

pub fn run(a: Args) -> i32 {
    let mut seeds: Vec<String> = std::fs::read_dir(&a.corpus)
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
    let mut b = [0u8; 8];
    let _ = getrandom::fill(&mut b);
    let mut rng = Rng(u64::from_le_bytes(b) | 1);
    let ctx = Context::default();
    let started = Instant::now();
    let (mut inputs, mut crashes, mut slow) = (0u64, 0u64, 0u64);
    let (mut slowest, mut slowest_len) = (0f64, 0usize);
    std::panic::set_hook(Box::new(|_| {}));
    while started.elapsed() < Duration::from_secs(a.seconds) {
        let text = if rng.below(10) == 0 {
            generated(&mut rng)
        } else {
            let seed = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, seed)
        };
        let t = Instant::now();
        let ok = std::panic::catch_unwind(|| {
            let doc = Document::parse(&text);
            std::hint::black_box(validate(&doc, &ctx));
            api_bodies(&text);
        })
        .is_ok();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        inputs += 1;
        if !ok {
            crashes += 1;
            let path = std::env::temp_dir().join(format!("ds-studio-fuzz-crash-{crashes}.txt"));
            let _ = std::fs::write(&path, &text);
            eprintln!("crash: input kept in {}", path.display());
        }
        if ms > a.slow_ms as f64 {
            slow += 1;
        }
        if ms > slowest {
            slowest = ms;
            slowest_len = text.len();
            if ms > a.slow_ms as f64 {
                let _ = std::fs::write(
                    std::env::temp_dir().join("ds-studio-fuzz-slowest.txt"),
                    &text,
                );
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({"inputs": inputs, "seconds": secs, "inputs_per_s": inputs as f64 / secs,
            "crashes": crashes, "slower_than_ms": a.slow_ms, "slow": slow,
            "slowest_ms": slowest, "slowest_input_bytes": slowest_len})
    );
    i32::from(crashes > 0 || slow > 0)
}
