//! `ds-studio validate`: compiler-style text (coloured on a terminal), JSON Lines, GitHub
//! Actions workflow commands (`--format github`: annotations on the pull request), or one SARIF
//! 2.1.0 log for all inputs (`--format sarif`, see [`super::sarif`]). A file that
//! is not UTF-8 is judged too (an `encoding` error at its first bad byte), so every input gets
//! its line in every format.

use ds_studio_shared::i18n::Lang;
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::{Diagnostic, Severity, Verdict};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Config files (`-` reads stdin). None with --trainer-args-file: the DeepSpeed config
    /// that file names.
    #[arg(required_unless_present = "trainer_args_file")]
    pub files: Vec<String>,
    #[command(flatten)]
    pub context: super::context_args::ContextArgs,
    #[arg(long, default_value = "text", value_parser = ["text", "json", "github", "sarif"])]
    pub format: String,
    /// Language of messages.
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
}

/// One input's outcome.
struct Checked {
    name: String,
    verdict: Verdict,
    diagnostics: Vec<Diagnostic>,
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
            Ok(Some(path)) => args.files.push(path),
            Err(e) => {
                eprintln!("ds-studio: {e}");
                return 2;
            }
            Ok(None) => {
                eprintln!("ds-studio: {from} names no DeepSpeed config: give the config file too");
                return 2;
            }
        }
    }
    let ctx = resolved.context;
    let lang: Lang = args.lang.parse().unwrap_or_default();
    let mut stdout = anstream::stdout();
    let mut code = 0;
    // --format sarif writes one log at the end.
    let mut all: Vec<Checked> = Vec::new();
    let mut unreadable: Vec<(String, String)> = Vec::new();
    for file in &args.files {
        let name = if file == "-" {
            "<stdin>"
        } else {
            file.as_str()
        }
        .to_string();
        let bytes = match crate::input::read_input_bytes(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("ds-studio: cannot read {file}: {e}");
                unreadable.push((name, e.to_string()));
                code = 2;
                continue;
            }
        };
        let diagnostics = match String::from_utf8(bytes) {
            Ok(text) => validate_text(&text, &ctx).1,
            Err(e) => vec![crate::input::not_utf8(e.as_bytes(), e.utf8_error())],
        };
        let v = verdict(&diagnostics);
        if v == Verdict::Rejected && code == 0 {
            code = 1;
        }
        let checked = Checked {
            name,
            verdict: v,
            diagnostics,
        };
        match args.format.as_str() {
            "json" => {
                let _ = writeln!(stdout, "{}", json_line(&checked, lang));
            }
            "github" => {
                for d in &checked.diagnostics {
                    let _ = writeln!(stdout, "{}", github_line(&checked.name, d, lang));
                }
            }
            "sarif" => all.push(checked),
            _ => text_lines(&mut stdout, &checked, &ctx, lang),
        }
    }
    if args.format == "sarif" {
        let inputs: Vec<super::sarif::Input> = all
            .iter()
            .map(|c| super::sarif::Input {
                name: &c.name,
                diagnostics: &c.diagnostics,
            })
            .collect();
        let log = super::sarif::log(&inputs, &unreadable, lang);
        let _ = writeln!(
            stdout,
            "{}",
            serde_json::to_string_pretty(&log).unwrap_or_default()
        );
    }
    code
}

/// A diagnostic as every `--format json` of the CLI prints it: the message a string in `lang`.
pub(crate) fn diagnostic_json(d: &ds_studio_shared::Diagnostic, lang: Lang) -> serde_json::Value {
    let mut o = serde_json::json!({"severity": d.severity, "code": d.code, "path": d.path, "message": d.message.get(lang), "line": d.line, "column": d.column});
    if let Some(f) = &d.fix {
        o["fix"] = f.clone();
    }
    if let Some(t) = &d.text_fix {
        o["text_fix"] = serde_json::json!(t);
    }
    o
}

fn json_line(c: &Checked, lang: Lang) -> serde_json::Value {
    let list: Vec<serde_json::Value> = c
        .diagnostics
        .iter()
        .map(|d| diagnostic_json(d, lang))
        .collect();
    serde_json::json!({"file": c.name, "verdict": c.verdict.as_str(), "diagnostics": list})
}

fn text_lines(out: &mut impl Write, c: &Checked, ctx: &ds_studio_shared::Context, lang: Lang) {
    let name = &c.name;
    for d in &c.diagnostics {
        let (color, label) = match d.severity {
            Severity::Error => ("\x1b[1;31m", "error"),
            Severity::Warning => ("\x1b[1;33m", "warning"),
            Severity::Info => ("\x1b[1;36m", "info"),
        };
        let _ = writeln!(
            out,
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
    let count = |s: Severity| c.diagnostics.iter().filter(|d| d.severity == s).count();
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let summary = if lang == Lang::Zh {
        let verdict = if c.verdict == Verdict::Accepted {
            "接受"
        } else {
            "拒绝"
        };
        format!(
            "{name}：{} 会{verdict}此配置（{errors} 个错误，{warnings} 个警告）",
            judge(ctx)
        )
    } else {
        format!(
            "{name}: {} by {} ({}, {})",
            c.verdict.as_str(),
            judge(ctx),
            plural(errors, "error", "errors"),
            plural(warnings, "warning", "warnings")
        )
    };
    let _ = writeln!(out, "{summary}");
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

/// A GitHub Actions workflow command: `::error file=F,line=L,col=C,title=T::message`, with the
/// escapes the runner expects (`%`, CR, LF everywhere; `:` and `,` in properties too).
fn github_line(file: &str, d: &Diagnostic, lang: Lang) -> String {
    let data = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let title = if d.path.is_empty() {
        format!("ds-studio {}", d.code)
    } else {
        format!("ds-studio {} {}", d.code, d.path)
    };
    format!(
        "::{level} file={},line={},col={},title={}::{}",
        prop(file),
        d.line.unwrap_or(1),
        d.column.unwrap_or(1),
        prop(&title),
        data(d.message.get(lang))
    )
}
