//! `ds-studio`: the command line and the server in one binary. One module per subcommand
//! (`serve`, `migrate`, `login`, `templates`, `jobs`, `runner`, `engine`, `user`, `token`,
//! `runner-token`, `validate`, `schema`, `explain`, `effective`, `estimate`, `fmt`, `lsp`,
//! `launch-command`), each wiring the library crates: `ds-studio-server`,
//! `ds-studio-runner`, `ds-studio-client`, `ds-studio-lsp` and `ds-studio-shared`.
//!
//! Exit codes: 0 success (all configs accepted), 1 a config was rejected, 2 usage error or an
//! unreadable input.
//!
//! The subcommand modules use `input.rs`, the argument helpers and each other's functions, never
//! this file (`cargo xtask modules` finds such a circle).

/// mimalloc rather than glibc's malloc: the validator allocates many small strings, and over
/// many files a quarter of the CLI's time went to malloc and free (BENCHMARKS.md, "The CLI
/// over many files").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod admin;
mod backup;
mod confine;
mod context_args;
mod db_args;
mod effective;
mod estimate;
mod estimate_fit;
mod explain;
mod fmt;
mod input;
mod jobs;
mod launch;
mod model_args;
mod models;
mod reference;
mod rehearsal_report;
mod release_arg;
mod runner;
mod runners;
mod sarif;
mod serve;
mod server_args;
mod sweep;
mod templates;
mod upgrade;
mod validate;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "ds-studio",
    version,
    about = "DeepSpeed config studio: validate, explain, estimate, serve"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// `ds-studio validate` alone: what pre-commit hooks and CI steps run, parsed without building
/// the parser of every other command (most of the CLI's start; BENCHMARKS.md, "The CLI on one
/// file"). Its help and errors are the full CLI's (a test compares them).
#[derive(Parser, Debug)]
#[command(name = "ds-studio", version)]
struct ValidateOnly {
    #[command(subcommand)]
    command: OnlyValidate,
}

#[derive(Subcommand, Debug)]
enum OnlyValidate {
    /// Validate DeepSpeed configs the way a DeepSpeed release (default 0.19.8) would, plus
    /// warnings and hints.
    Validate(validate::Args),
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Start the web studio (SQLite in --data, or PostgreSQL with --database-url).
    Serve(serve::Args),
    /// Apply the database migrations and exit.
    Migrate(admin::MigrateArgs),
    /// Back up the studio while it runs: a consistent copy of the database (SQLite, or
    /// pg_dump's) and the job files, in one .tar.gz.
    Backup(backup::BackupArgs),
    /// Make a data directory (or an empty PostgreSQL database) from a backup; checks it,
    /// applies this binary's migrations, never overwrites.
    Restore(backup::RestoreArgs),
    /// Sign in to a ds-studio server and keep an API token for the other client commands.
    Login(templates::LoginArgs),
    /// Templates on a ds-studio server: list, show, pull, push, diff, share.
    Templates(templates::TemplatesArgs),
    /// Jobs on a ds-studio server: submit, list, show, watch, cancel, logs.
    Jobs(jobs::JobsArgs),
    /// The runners a ds-studio server knows: their devices, release, state and jobs.
    Runners(runners::RunnersArgs),
    /// Run jobs from a ds-studio server on this host with the real DeepSpeed engine.
    Runner(runner::RunnerArgs),
    /// Run a program with its writes confined by the kernel (the Slurm runner's batch scripts).
    #[command(hide = true)]
    Confine(confine::Args),
    /// The Python environment runners use: `engine setup` creates it.
    #[command(subcommand)]
    Engine(runner::EngineCommand),
    /// Manage users offline (straight on the database).
    #[command(subcommand)]
    User(admin::UserCommand),
    /// Manage API tokens offline (straight on the database).
    #[command(subcommand)]
    Token(admin::TokenCommand),
    /// Manage runner tokens offline: a credential for one runner (and optionally one team).
    #[command(subcommand)]
    RunnerToken(admin::RunnerTokenCommand),
    /// Validate DeepSpeed configs the way a DeepSpeed release (default 0.19.8) would, plus
    /// warnings and hints.
    Validate(validate::Args),
    /// Print the JSON Schema of DeepSpeed configs for one release, launcher and language (for
    /// VS Code's `json.schemas`, `$schema`, or any JSON Schema validator).
    Schema(SchemaArgs),
    /// Print the OpenAPI document of the REST API (what `/api/openapi.json` serves), to
    /// generate a client without a running server.
    Openapi,
    /// What changes for a config between two DeepSpeed releases, with fixes (`--write`).
    Upgrade(upgrade::Args),
    /// Print the documentation of a key (e.g. `zero_optimization.stage`).
    Explain(explain::Args),
    /// Print the effective config: defaults filled, batch triple derived, with provenance.
    Effective(effective::Args),
    /// The predicted peak memory per GPU (and CPU per node) of a config, its parts, and
    /// whether it fits (`--gpu-memory-gib`); or every ZeRO line for a parameter count.
    Estimate(estimate::Args),
    /// The model catalog: common open models by name, with their parameters (for `estimate
    /// --model NAME`); any other model is read from its config.json.
    Models(models::Args),
    /// Sweeps over config keys: `plan` lists the points, estimated and pruned, before anything
    /// runs; `run` runs them on the server's runners and ranks them (`show`, `cancel`,
    /// `save-best`).
    #[command(subcommand)]
    Sweep(sweep::SweepCommand),
    /// Rewrite configs canonically (2-space JSON, comments, key order and numbers kept).
    Fmt(fmt::Args),
    /// The commands that launch a config on N nodes × G GPUs: deepspeed (with its hostfile),
    /// torchrun, accelerate launch (with its YAML); for a file or a template version.
    LaunchCommand(launch::Args),
    /// A language server (LSP over stdio) for DeepSpeed configs in any editor: diagnostics,
    /// fixes, hover and completion; the context comes from the nearest `ds-studio.toml`.
    Lsp(LspArgs),
    /// The book's generated reference pages (`cargo xtask docs`): cli, rest, diagnostics,
    /// releases, as Markdown.
    #[command(hide = true)]
    Reference(reference::Args),
}

#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Speak on stdin/stdout (the only transport; accepted because LSP clients pass it).
    #[arg(long)]
    pub stdio: bool,
}

#[derive(clap::Args, Debug)]
pub struct SchemaArgs {
    /// The DeepSpeed release (0.14.4 – 0.19.8) or `auto`.
    #[arg(long = "deepspeed", value_name = "X.Y.Z|auto", default_value = "0.19.8", value_parser = release_arg::parse)]
    pub release: ds_studio_shared::Release,
    /// Who launches DeepSpeed: decides where "auto" is taken (the HF launchers fill it).
    #[arg(long, default_value = "deepspeed", value_parser = ["deepspeed", "hf-trainer", "accelerate"])]
    pub launcher: String,
    /// The language of descriptions and messages.
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
    /// Leave out VS Code's annotation keywords (markdownDescription, deprecationMessage,
    /// errorMessage, patternErrorMessage), for a validator that refuses unknown keywords.
    #[arg(long)]
    pub standard_keywords: bool,
}

impl SchemaArgs {
    fn options(&self) -> ds_studio_shared::schema::Options {
        ds_studio_shared::schema::Options {
            release: self.release,
            launcher: self.launcher.parse().unwrap_or_default(),
            lang: self.lang.parse().unwrap_or_default(),
            editor_keywords: !self.standard_keywords,
        }
    }
}

/// Runs the CLI and returns the process exit code.
fn main() {
    std::process::exit(run());
}

/// A command whose output goes into `head` ends quietly when the pipe closes, as Unix tools
/// do, instead of panicking on the write. The long-running commands (`serve`, `runner`, `lsp`)
/// keep Rust's default, where a closed socket or pipe is an error to handle, not the end.
fn quiet_on_a_closed_pipe() {
    // SAFETY: setting a signal's disposition to its default touches no memory; nothing else
    // has started yet (no thread, no handler).
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Runs the command line; the process exit code.
fn run() -> i32 {
    let first = std::env::args_os().nth(1);
    if !first
        .as_ref()
        .is_some_and(|a| ["serve", "runner", "lsp", "confine"].iter().any(|c| a == c))
    {
        quiet_on_a_closed_pipe();
    }
    if first.is_some_and(|a| a == "validate") {
        return match ValidateOnly::try_parse() {
            Ok(ValidateOnly {
                command: OnlyValidate::Validate(a),
            }) => validate::run(a),
            Err(e) => {
                let code = if e.use_stderr() { 2 } else { 0 };
                let _ = e.print();
                code
            }
        };
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Serve(a) => serve::run(a),
        Command::Migrate(a) => admin::migrate(a),
        Command::Backup(a) => backup::backup(a),
        Command::Restore(a) => backup::restore(a),
        Command::Login(a) => templates::login(a),
        Command::Templates(a) => templates::templates(a),
        Command::Jobs(a) => jobs::jobs(a),
        Command::Runners(a) => runners::runners(a),
        Command::Runner(a) => runner::run(a),
        Command::Confine(a) => confine::run(a),
        Command::Engine(c) => runner::engine_cmd(c),
        Command::User(c) => admin::user(c),
        Command::Token(c) => admin::token(c),
        Command::RunnerToken(c) => admin::runner_token(c),
        Command::Validate(a) => validate::run(a),
        Command::Schema(a) => {
            // `ds-studio schema | head` closes the pipe early: not a crash.
            let text = ds_studio_shared::schema::schema_text_with(&a.options());
            let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
            0
        }
        Command::Reference(a) => reference::run(a, &<Cli as clap::CommandFactory>::command()),
        Command::Openapi => {
            let text = serde_json::to_string_pretty(ds_studio_server::api::openapi::document())
                .unwrap_or_default();
            let _ =
                std::io::Write::write_all(&mut std::io::stdout(), format!("{text}\n").as_bytes());
            0
        }
        Command::Upgrade(a) => upgrade::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Effective(a) => effective::run(a),
        Command::Estimate(a) => estimate::run(a),
        Command::Models(a) => models::run(a),
        Command::Sweep(c) => sweep::run(c),
        Command::Fmt(a) => fmt::run(a),
        Command::LaunchCommand(a) => launch::run_cmd(a),
        Command::Lsp(_) => match ds_studio_lsp::run_stdio() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("ds-studio lsp: {e}");
                1
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn validate_help(mut top: clap::Command) -> String {
        top.build();
        top.find_subcommand_mut("validate")
            .expect("a validate command")
            .render_long_help()
            .to_string()
    }

    /// `ds-studio validate` parsed alone answers exactly as the full CLI does.
    #[test]
    fn validate_alone_has_the_full_clis_help_and_errors() {
        let full = validate_help(Cli::command());
        assert!(full.contains("--deepspeed"), "{full}");
        assert_eq!(validate_help(ValidateOnly::command()), full);
        for args in [
            &["ds-studio", "validate"][..],
            &["ds-studio", "validate", "--format", "xml", "a.json"],
            &["ds-studio", "validate", "--no-such-flag", "a.json"],
        ] {
            let want = Cli::try_parse_from(args).expect_err("refused").to_string();
            let got = ValidateOnly::try_parse_from(args)
                .expect_err("refused")
                .to_string();
            assert_eq!(got, want, "{args:?}");
        }
        let ok = ValidateOnly::try_parse_from(["ds-studio", "validate", "--lang", "zh", "a.json"]);
        assert!(ok.is_ok());
    }
}
