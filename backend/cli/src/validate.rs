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
    /// The least severity that makes the exit status 1: `error` (what DeepSpeed rejects, the
    /// default) or `warning` (also what it accepts but is almost surely a mistake), for CI that
    /// wants a clean config.
    #[arg(long, default_value = "error", value_parser = ["error", "warning"])]
    pub fail_on: String,
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
    let assumed = resolved.world_size_assumed;
    let ctx = resolved.context;
    let lang: Lang = args.lang.parse().unwrap_or_default();
    // Colour only for a terminal (and as NO_COLOR / CLICOLOR_FORCE say): pre-commit and CI
    // read plain text, written plain rather than stripped, through one buffer.
    let color = color_wanted();
    let mut stdout = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let mut code = 0;
    // --format sarif writes one log at the end.
    let mut all: Vec<Checked> = Vec::new();
    let mut unreadable: Vec<(String, String)> = Vec::new();
    // Files are read and judged on every core; their results are written in the order given.
    for_each_in_order(
        &args.files,
        |file| check_file(file, &ctx, assumed),
        |outcome| {
            let checked = match outcome {
                Outcome::Unreadable { name, file, error } => {
                    let why = ds_studio_shared::i18n::Text::new(
                        format!("cannot read {file}: {error}"),
                        format!("无法读取 {file}：{error}"),
                    );
                    let colon = if lang == Lang::Zh { "：" } else { ": " };
                    eprintln!("ds-studio{colon}{}", why.get(lang));
                    // JSON Lines keep one object per input: a reader sees which file failed;
                    // a pull request gets an annotation for it.
                    if args.format == "json" {
                        let line = serde_json::json!({"file": name, "verdict": "unreadable", "error": error, "diagnostics": []});
                        let _ = writeln!(stdout, "{line}");
                    } else if args.format == "github" {
                        let d = Diagnostic::error("unreadable", "", why);
                        let _ = writeln!(stdout, "{}", github_line(&name, &d, lang));
                    }
                    unreadable.push((name, error));
                    code = 2;
                    return;
                }
                Outcome::Checked(c) => c,
            };
            let failed = checked.verdict == Verdict::Rejected
                || (args.fail_on == "warning"
                    && checked
                        .diagnostics
                        .iter()
                        .any(|d| d.severity == Severity::Warning));
            if failed && code == 0 {
                code = 1;
            }
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
                _ => text_lines(&mut stdout, &checked, &ctx, lang, color),
            }
            // On a terminal each file's lines show as it is judged.
            if color {
                let _ = stdout.flush();
            }
        },
    );
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
    let _ = stdout.flush();
    code
}

/// Colour for stdout: never with `NO_COLOR`; always with `CLICOLOR_FORCE` (other than `0`);
/// otherwise on a terminal, unless `CLICOLOR=0` or `TERM=dumb`.
fn color_wanted() -> bool {
    use std::io::IsTerminal;
    let set = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if set("NO_COLOR").is_some() {
        return false;
    }
    if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    if set("CLICOLOR").is_some_and(|v| v == "0") || set("TERM").is_some_and(|v| v == "dumb") {
        return false;
    }
    std::io::stdout().is_terminal()
}

/// What became of one input.
enum Outcome {
    Checked(Checked),
    Unreadable {
        name: String,
        file: String,
        error: String,
    },
}

/// Reads and judges one input (`-`: stdin). With `world_size_assumed`, a batch mismatch says
/// that it was judged for one GPU: its fix is wrong for a cluster.
fn check_file(file: &str, ctx: &ds_studio_shared::Context, world_size_assumed: bool) -> Outcome {
    let name = if file == "-" { "<stdin>" } else { file }.to_string();
    let bytes = match crate::input::read_input_bytes(file) {
        Ok(b) => b,
        Err(e) => {
            return Outcome::Unreadable {
                name,
                file: file.to_string(),
                error: e.to_string(),
            }
        }
    };
    let diagnostics = match String::from_utf8(bytes) {
        Ok(text) => validate_text(&text, ctx).1,
        Err(e) => vec![crate::input::not_utf8(e.as_bytes(), e.utf8_error())],
    };
    let mut diagnostics = diagnostics;
    if world_size_assumed {
        for d in diagnostics
            .iter_mut()
            .filter(|d| d.code == "batch-mismatch")
        {
            d.message.en.push_str(" (judged for 1 GPU: no --world-size was given; pass --world-size N, or --nodes and --gpus-per-node, for the cluster it runs on before taking the fix)");
            d.message.zh.push_str("（按 1 个 GPU 判断：未给出 --world-size；采用修复前请用 --world-size N，或 --nodes 与 --gpus-per-node，给出实际运行的集群规模）");
        }
    }
    Outcome::Checked(Checked {
        name,
        verdict: verdict(&diagnostics),
        diagnostics,
    })
}

/// Runs `work` on every item on all cores and hands the results to `emit` in the items'
/// order, each as soon as those before it are done (so output streams, in order).
fn for_each_in_order<T: Sync, R: Send>(
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R),
) {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        items.iter().for_each(|i| emit(work(i)));
        return;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (tx, next, work) = (tx.clone(), &next, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= items.len() || tx.send((i, work(&items[i]))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 0;
        for (i, r) in rx {
            waiting.insert(i, r);
            while let Some(r) = waiting.remove(&due) {
                emit(r);
                due += 1;
            }
        }
    });
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

/// Compiler-style lines, one per diagnostic, then the verdict; the label coloured when `color`.
fn text_lines(
    out: &mut impl Write,
    c: &Checked,
    ctx: &ds_studio_shared::Context,
    lang: Lang,
    color: bool,
) {
    let name = &c.name;
    for d in &c.diagnostics {
        let (on, label) = match d.severity {
            Severity::Error => ("\x1b[1;31m", "error"),
            Severity::Warning => ("\x1b[1;33m", "warning"),
            Severity::Info => ("\x1b[1;36m", "info"),
        };
        let (on, off) = if color { (on, "\x1b[0m") } else { ("", "") };
        let _ = write!(
            out,
            "{name}:{}:{}: {on}{label}[{}]{off}: {}",
            d.line.unwrap_or(1),
            d.column.unwrap_or(1),
            d.code,
            d.message.get(lang),
        );
        let _ = if d.path.is_empty() {
            writeln!(out)
        } else {
            writeln!(out, " ({})", d.path)
        };
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
