//! `ds-studio effective`: the config DeepSpeed will actually run, defaults filled and the batch
//! triple derived, each value with its provenance (user, default, derived, auto).

use ds_studio_shared::document::Document;
use ds_studio_shared::effective::{effective, to_json, Provenance};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Config file (`-` reads stdin). None with --trainer-args-file: the DeepSpeed config that
    /// file names.
    #[arg(required_unless_present = "trainer_args_file")]
    pub file: Option<String>,
    #[command(flatten)]
    pub context: super::context_args::ContextArgs,
    /// `text`: one `key = value  (provenance)` line per key; `json`: the nested effective
    /// config; `entries`: a JSON array of `{path, value, provenance}`.
    #[arg(long, default_value = "text", value_parser = ["text", "json", "entries"])]
    pub format: String,
    /// Only the values the user did not set (defaults, derived, auto).
    #[arg(long)]
    pub implicit_only: bool,
}

pub fn run(args: Args) -> i32 {
    let resolved = match args.context.resolve() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
    };
    let from = args.context.trainer_args_file.clone().unwrap_or_default();
    let followed = match args.file.clone() {
        Some(f) => Some(f),
        None => match resolved.config_path(&from) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("ds-studio: {e}");
                return 2;
            }
        },
    };
    let Some(file) = followed else {
        eprintln!("ds-studio: {from} names no DeepSpeed config: give the config file too");
        return 2;
    };
    let ctx = resolved.context;
    let text = match crate::input::read_input(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ds-studio: cannot read {file}: {e}");
            return 2;
        }
    };
    let doc = Document::parse(&text);
    let Some(root) = doc.root().filter(|_| doc.is_ok()) else {
        let e = &doc.errors()[0];
        eprintln!(
            "ds-studio: {}:{}:{}: not valid JSON or hjson: {}",
            file, e.line, e.column, e.message
        );
        return 1;
    };
    if !root.is_object() {
        eprintln!("ds-studio: {file}: a DeepSpeed config must be a JSON object");
        return 1;
    }
    let mut entries = effective(root, &ctx);
    if args.implicit_only {
        entries.retain(|e| e.provenance != Provenance::User);
    }
    let mut out = std::io::stdout().lock();
    let written = match args.format.as_str() {
        "json" => writeln!(out, "{}", pretty(&to_json(&entries))),
        "entries" => writeln!(
            out,
            "{}",
            pretty(&serde_json::to_value(&entries).unwrap_or_default())
        ),
        _ => entries
            .iter()
            .filter(|e| !has_children(&entries, &e.path))
            .try_for_each(|e| {
                let tag = match e.provenance {
                    Provenance::User => "user",
                    Provenance::Default => "default",
                    Provenance::Derived => "derived",
                    Provenance::Auto => "auto",
                };
                match &e.from {
                    Some(from) => writeln!(out, "{} = {}  ({tag}, from {from})", e.path, e.value),
                    None => writeln!(out, "{} = {}  ({tag})", e.path, e.value),
                }
            }),
    };
    if written.is_err() {
        return 2;
    }
    0
}

/// An object entry whose keys are listed one by one is not printed again as a whole.
fn has_children(entries: &[ds_studio_shared::effective::Entry], path: &str) -> bool {
    let prefix = format!("{path}.");
    entries.iter().any(|e| e.path.starts_with(&prefix))
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}
