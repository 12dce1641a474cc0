//! `ds-studio-bench fuzz` (`cargo xtask fuzz` runs it for 10 minutes): a mutation
//! fuzzer over everything that reads untrusted text. Cargo-fuzz needs a nightly toolchain, which
//! this project does not have; this one mutates seeds and mixes in generated pathological inputs
//! (one in ten), times every input and catches panics. Targets, taken in turn:
//!
//! - `config` ([`config`]): `Document::parse` + `validate` and the API's JSON bodies;
//! - `import` ([`import`]): the trainer-file importer, YAML (deep, aliased, tagged, merged,
//!   huge) and command lines (`deepspeed`, `torchrun`, `accelerate launch`);
//! - `toml`: the language server's `ds-studio.toml` reader;
//! - `lsp` ([`frames`]): the language server's stdio framing, whole streams of frames.
//!
//! Prints one JSON line: totals (inputs, inputs/s, crashes, inputs slower than the limit, the
//! slowest) and the same per target. Crashing inputs are kept in
//! `$TMPDIR/ds-studio-fuzz-crash-N.txt`, the slowest one (if over the limit) in
//! `$TMPDIR/ds-studio-fuzz-slowest-TARGET.txt`.

mod config;
mod frames;
mod import;

use std::collections::BTreeMap;
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
    /// What to fuzz (repeat for several; default: all, in turn).
    #[arg(long = "target", value_enum)]
    pub targets: Vec<Target>,
    /// Write each input to `$TMPDIR/ds-studio-fuzz-current.txt` before trying it (slower; for
    /// finding the input that aborts or exhausts the process, which no `catch_unwind` sees).
    #[arg(long)]
    pub keep_current: bool,
}

/// One reader of untrusted text.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    Config,
    Import,
    Toml,
    Lsp,
}

impl Target {
    const ALL: [Target; 4] = [Target::Config, Target::Import, Target::Toml, Target::Lsp];

    fn name(self) -> &'static str {
        match self {
            Target::Config => "config",
            Target::Import => "import",
            Target::Toml => "toml",
            Target::Lsp => "lsp",
        }
    }
}

/// xorshift64*: small, fast, seeded from the OS.
pub(crate) struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Largest input made (the API's and the importer's limit).
const MAX_INPUT: usize = 1 << 20;

/// 1-8 random edits of `seed`: bit flips, inserted `tokens`, deleted ranges, a slice repeated up
/// to 2,000 times, a token repeated up to 300 times.
pub(crate) fn mutate(rng: &mut Rng, seed: &[u8], tokens: &[&str]) -> Vec<u8> {
    let mut s: Vec<u8> = seed.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(s.len() + 1);
        match rng.below(6) {
            0 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = rng.pick(tokens).as_bytes();
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
                let t = rng.pick(tokens).as_bytes();
                let times = 1 + rng.below(300);
                let rep: Vec<u8> = t.repeat(times);
                s.splice(at..at, rep);
            }
        }
        s.truncate(MAX_INPUT);
    }
    s
}

/// What one target saw.
#[derive(Default)]
struct Tally {
    inputs: u64,
    crashes: u64,
    slow: u64,
    /// Of `slow`, the inputs built to be slow (not mutated seeds).
    slow_generated: u64,
    slowest_ms: f64,
    slowest_bytes: usize,
}

impl Tally {
    fn json(&self, secs: f64) -> serde_json::Value {
        serde_json::json!({"inputs": self.inputs, "inputs_per_s": self.inputs as f64 / secs,
            "crashes": self.crashes, "slow": self.slow, "slow_generated": self.slow_generated,
            "slowest_ms": self.slowest_ms,
            "slowest_input_bytes": self.slowest_bytes})
    }
}

pub fn run(a: Args) -> i32 {
    let configs = config::Seeds::read(&a.corpus);
    let targets: Vec<Target> = if a.targets.is_empty() {
        Target::ALL.to_vec()
    } else {
        a.targets.clone()
    };
    let mut b = [0u8; 8];
    let _ = getrandom::fill(&mut b);
    let mut rng = Rng(u64::from_le_bytes(b) | 1);
    let started = Instant::now();
    let mut tallies: BTreeMap<Target, Tally> = BTreeMap::new();
    let mut crashes = 0u64;
    std::panic::set_hook(Box::new(|_| {}));
    let mut turn = 0usize;
    while started.elapsed() < Duration::from_secs(a.seconds) {
        let target = targets[turn % targets.len()];
        turn += 1;
        let generate = rng.below(10) == 0;
        let input: Vec<u8> = match target {
            Target::Config => configs.input(&mut rng, generate).into_bytes(),
            Target::Import => import::input(&mut rng, generate).into_bytes(),
            Target::Toml => import::toml_input(&mut rng, generate).into_bytes(),
            Target::Lsp => frames::input(&mut rng, generate),
        };
        if a.keep_current {
            let _ = std::fs::write(
                std::env::temp_dir().join("ds-studio-fuzz-current.txt"),
                &input,
            );
        }
        let t = Instant::now();
        let ok = std::panic::catch_unwind(|| match target {
            Target::Config => config::exercise(&String::from_utf8_lossy(&input)),
            Target::Import => import::exercise(&String::from_utf8_lossy(&input)),
            Target::Toml => {
                std::hint::black_box(ds_studio_lsp::context::read(&String::from_utf8_lossy(
                    &input,
                )));
            }
            Target::Lsp => frames::exercise(&input),
        })
        .is_ok();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let tally = tallies.entry(target).or_default();
        tally.inputs += 1;
        if !ok {
            tally.crashes += 1;
            crashes += 1;
            let path = std::env::temp_dir().join(format!("ds-studio-fuzz-crash-{crashes}.txt"));
            let _ = std::fs::write(&path, &input);
            eprintln!(
                "crash ({}): input kept in {}",
                target.name(),
                path.display()
            );
        }
        if ms > a.slow_ms as f64 {
            tally.slow += 1;
            tally.slow_generated += u64::from(generate);
        }
        if ms > tally.slowest_ms {
            tally.slowest_ms = ms;
            tally.slowest_bytes = input.len();
            if ms > a.slow_ms as f64 {
                let _ = std::fs::write(
                    std::env::temp_dir()
                        .join(format!("ds-studio-fuzz-slowest-{}.txt", target.name())),
                    &input,
                );
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let mut total = Tally::default();
    for t in tallies.values() {
        total.inputs += t.inputs;
        total.crashes += t.crashes;
        total.slow += t.slow;
        total.slow_generated += t.slow_generated;
        if t.slowest_ms > total.slowest_ms {
            total.slowest_ms = t.slowest_ms;
            total.slowest_bytes = t.slowest_bytes;
        }
    }
    let mut out = total.json(secs);
    out["seconds"] = secs.into();
    out["slower_than_ms"] = a.slow_ms.into();
    out["targets"] = tallies
        .iter()
        .map(|(k, t)| (k.name().to_string(), t.json(secs)))
        .collect::<serde_json::Map<_, _>>()
        .into();
    println!("{out}");
    i32::from(total.crashes > 0 || total.slow > 0)
}
