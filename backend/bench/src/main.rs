//! `ds-studio-bench`: the benchmarks and the fuzzer, apart from the shipped `ds-studio` binary
//! (which then starts without them). `cargo xtask bench`, `bench-jobs`, `bench-hostile` and
//! `fuzz` build and run it; it is not installed.
//!
//! - `validate DIR`: median microseconds to parse and validate one config ([`validate`]);
//! - `ingest`: metric ingest and SSE latency against a server ([`ingest`]);
//! - `hostile`: hostile load on `/validate` while a job trains ([`hostile`]);
//! - `fuzz CORPUS`: mutation fuzzing of the parser, validator, importer and LSP framing
//!   ([`fuzz`]).

/// The same allocator as `ds-studio`, so the validator is timed as it runs there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod fuzz;
mod hostile;
mod ingest;
mod request;
mod validate;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "ds-studio-bench",
    version,
    about = "ds-studio's benchmarks and fuzzer"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Time the validator on a directory of configs (used by `cargo xtask bench`).
    Validate(validate::Args),
    /// Metric ingest and SSE latency against a server (used by `cargo xtask bench-jobs`).
    Ingest(ingest::Args),
    /// Hostile load on /validate while a job trains (used by `cargo xtask bench-hostile`).
    Hostile(hostile::Args),
    /// Mutation fuzzing of the parser, validator and API bodies (used by `cargo xtask fuzz`).
    Fuzz(fuzz::Args),
}

fn main() {
    let code = match Cli::parse().command {
        Command::Validate(a) => validate::run(a),
        Command::Ingest(a) => ingest::run(a),
        Command::Hostile(a) => hostile::run(a),
        Command::Fuzz(a) => fuzz::run(a),
    };
    std::process::exit(code);
}
