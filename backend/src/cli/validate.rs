//! `ds-studio validate`: compiler-style text (coloured on a terminal) or JSON Lines.

use ds_studio_shared::i18n::Lang;
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::{Severity, Verdict};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Config files (`-` reads stdin). None with --trainer-args-file: the DeepSpeed config
    /// that file names.
    #[arg(required_unless_present = "trainer_args_file")]
    pub files: Vec<String>,
    #[command(flatten)]
    pub context: super::context_args::ContextArgs,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    /// Language of messages in text output.
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
}

pub fn run(mut args: Args) -> i32 {
    let resolved = match args.context.resolve() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
    };
    if args.files.is_empty() {
        let from = args.context.trainer_args_file.clone().unwrap_or_default();
        match resolved.config_path(&from) {
            Some(path) => args.files.push(path),
            None => {
                eprintln!("ds-studio: {from} names no DeepSpeed config: give the config file too");
                return 2;
            }
        }
    }
    let ctx = resolved.context;
    let lang: Lang = args.lang.parse().unwrap_or_default();
    let mut stdout = anstream::stdout();
    let mut code = 0;
    for file in &args.files {
        let text = match super::read_input(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("ds-studio: cannot read {file}: {e}");
                code = 2;
                continue;
            }
        };
        let (_, diags) = validate_text(&text, &ctx);
        let v = verdict(&diags);
        if v == Verdict::Rejected && code == 0 {
            code = 1;
        }
        let name = if file == "-" {
            "<stdin>"
        } else {
            file.as_str()
        };
        if args.format == "json" {
            let list: Vec<serde_json::Value> = diags
                .iter()
                .map(|d| {
                    let mut o = serde_json::json!({"severity": d.severity, "code": d.code, "path": d.path, "message": d.message.get(lang), "line": d.line, "column": d.column});
                    if let Some(f) = &d.fix {
                        o["fix"] = f.clone();
                    }
                    if let Some(t) = &d.text_fix {
                        o["text_fix"] = serde_json::json!(t);
                    }
                    o
                })
                .collect();
            let line =
                serde_json::json!({"file": name, "verdict": v.as_str(), "diagnostics": list});
            let _ = writeln!(stdout, "{line}");
        } else {
            for d in &diags {
                let (color, label) = match d.severity {
                    Severity::Error => ("\x1b[1;31m", "error"),
                    Severity::Warning => ("\x1b[1;33m", "warning"),
                    Severity::Info => ("\x1b[1;36m", "info"),
                };
                let _ = writeln!(
                    stdout,
                    "{name}:{}:{}: {color}{label}[{}]\x1b[0m: {}{}",
                    d.line.unwrap_or(1),
                    d.column.unwrap_or(1),
                    d.code,
                    d.message.get(lang),
                    if d.path.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", d.path)
                    }
                );
            }
            let errors = diags
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            let warnings = diags
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count();
            let plural = |n: usize, one: &str, many: &str| {
                format!("{n} {}", if n == 1 { one } else { many })
            };
            let summary = if lang == Lang::Zh {
                let verdict = if v == Verdict::Accepted {
                    "接受"
                } else {
                    "拒绝"
                };
                format!(
                    "{name}：{} 会{verdict}此配置（{errors} 个错误，{warnings} 个警告）",
                    judge(&ctx)
                )
            } else {
                format!(
                    "{name}: {} by {} ({}, {})",
                    v.as_str(),
                    judge(&ctx),
                    plural(errors, "error", "errors"),
                    plural(warnings, "warning", "warnings")
                )
            };
            let _ = writeln!(stdout, "{summary}");
        }
    }
    code
}

/// Who gives the verdict: DeepSpeed, or the HF launcher and then DeepSpeed.
fn judge(ctx: &ds_studio_shared::Context) -> String {
    let release = ctx.deepspeed_version.as_str();
    match ctx.launcher {
        ds_studio_shared::Launcher::Deepspeed => format!("DeepSpeed {release}"),
        ds_studio_shared::Launcher::HfTrainer => format!("HF Trainer + DeepSpeed {release}"),
        ds_studio_shared::Launcher::Accelerate => format!("Accelerate + DeepSpeed {release}"),
    }
}
