//! `ds-studio upgrade FILE --from 0.18.4 --to 0.19.8 [--write] [--format json] [--lang zh]`: what a config
//! meets when it moves between DeepSpeed releases (see `ds_studio_shared::upgrade`).
//!
//! Exit codes: 0 when the config is accepted by `--to` (after `--write`, as written), 1 when it
//! is still rejected there, 2 for usage errors and unreadable files.

use ds_studio_shared::document::Document;
use ds_studio_shared::upgrade::{apply, upgrade, ChangeKind};
use ds_studio_shared::Release;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Config file (`-` reads stdin; `--write` needs a file).
    pub file: String,
    /// The release the config runs on today.
    #[arg(long, value_name = "X.Y.Z|auto", value_parser = super::release_arg::parse)]
    pub from: Release,
    /// The release to move to (default: the newest, 0.19.8).
    #[arg(long, value_name = "X.Y.Z", default_value = "0.19.8", value_parser = super::release_arg::parse)]
    pub to: Release,
    /// Rewrite the file with the fixes (removals, renames); comments and spelling are kept.
    #[arg(long)]
    pub write: bool,
    /// With --write: also pin the old default of every key whose default changes.
    #[arg(long, requires = "write")]
    pub keep_defaults: bool,
    #[command(flatten)]
    pub context: super::context_args::ContextArgs,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    /// Language of the text report.
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
}

pub fn run(args: Args) -> i32 {
    let ctx = match args.context.resolve() {
        Ok(r) => r.context,
        Err(e) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
    };
    if args.write && args.file == "-" {
        eprintln!("ds-studio: --write needs a file, not stdin");
        return 2;
    }
    let text = match crate::input::read_input(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ds-studio: cannot read {}: {e}", args.file);
            return 2;
        }
    };
    let doc = Document::parse(&text);
    let up = upgrade(&doc, &ctx, args.from, args.to);
    let zh = args.lang == "zh";
    if args.format == "json" {
        println!("{}", serde_json::to_string_pretty(&up).unwrap_or_default());
    } else {
        println!(
            "{}: DeepSpeed {} -> {}: {} change(s)",
            args.file,
            up.from,
            up.to,
            up.changes.len()
        );
        for c in &up.changes {
            let fix = match (&c.fix, c.kind, args.write) {
                (Some(_), ChangeKind::Default, false) => "  [fix with --write --keep-defaults]",
                (Some(_), ChangeKind::Default, true) if args.keep_defaults => "  [fixed]",
                (Some(_), ChangeKind::Default, true) => "",
                (Some(_), ChangeKind::Ignored, _) | (None, _, _) => "",
                (Some(_), _, false) => "  [fix with --write]",
                (Some(_), _, true) => "  [fixed]",
            };
            println!(
                "  {:<9} {}  {}{fix}",
                c.kind.as_str(),
                if c.path.is_empty() { "/" } else { &c.path },
                if zh { &c.message.zh } else { &c.message.en }
            );
        }
    }
    if args.write {
        let fixed = apply(&doc, &up.changes, args.keep_defaults);
        if fixed.text() != text {
            if let Err(e) = std::fs::write(&args.file, fixed.text()) {
                eprintln!("ds-studio: cannot write {}: {e}", args.file);
                return 2;
            }
            eprintln!("wrote {}", args.file);
        }
    }
    let still_rejected = up.errors_after_fixes > 0;
    let needs_fixes = !args.write
        && up
            .changes
            .iter()
            .any(|c| matches!(c.kind, ChangeKind::Rejected | ChangeKind::Removed));
    if args.format == "text" {
        // Say why the exit status is 1.
        if still_rejected {
            eprintln!(
                "DeepSpeed {} rejects {} even after these fixes: {} error(s) to fix by hand (`ds-studio validate --deepspeed {} {}` lists them)",
                up.to, args.file, up.errors_after_fixes, up.to, args.file
            );
        } else if needs_fixes {
            eprintln!(
                "DeepSpeed {} rejects {} as it is: `--write` applies the fixes",
                up.to, args.file
            );
        }
    }
    i32::from(still_rejected || needs_fixes)
}
