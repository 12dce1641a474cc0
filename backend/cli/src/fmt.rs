//! `ds-studio fmt FILE...`: rewrites each config canonically in place (`--check` only reports).
//! `--format json` prints one object per input (also for one that cannot be read as UTF-8 or
//! parsed): `{"file", "status": "unchanged"|"reformatted"|"would-reformat"|"formatted"|"error",
//! "errors": [{"line", "column", "message"}], "output"?}` (`output`: the text, for stdin).

use ds_studio_shared::Document;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Report files that would change; change nothing (exit 1 if any would).
    #[arg(long)]
    pub check: bool,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

/// What happened to one input.
struct Outcome {
    status: &'static str,
    errors: Vec<(usize, usize, String)>,
    output: Option<String>,
}

pub fn run(args: Args) -> i32 {
    let mut code = 0;
    let json = args.format == "json";
    for file in &args.files {
        let bytes = match crate::input::read_input_bytes(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("ds-studio: cannot read {file}: {e}");
                code = 2;
                continue;
            }
        };
        let outcome = format_one(file, bytes, args.check);
        code = code.max(match outcome.status {
            "error" => 2,
            "would-reformat" => 1,
            _ => 0,
        });
        if json {
            let errors: Vec<serde_json::Value> = outcome
                .errors
                .iter()
                .map(|(l, c, m)| serde_json::json!({"line": l, "column": c, "message": m}))
                .collect();
            let mut line =
                serde_json::json!({"file": file, "status": outcome.status, "errors": errors});
            if let Some(out) = &outcome.output {
                line["output"] = serde_json::Value::String(out.clone());
            }
            println!("{line}");
            continue;
        }
        for (l, c, m) in &outcome.errors {
            eprintln!("{file}:{l}:{c}: error: {m}");
        }
        match (outcome.status, &outcome.output) {
            ("formatted", Some(out)) => print!("{out}"),
            ("would-reformat", _) => {
                println!("{file}: would reformat (run `ds-studio fmt {file}` to rewrite it)")
            }
            _ => {}
        }
    }
    code
}

fn format_one(file: &str, bytes: Vec<u8>, check: bool) -> Outcome {
    let error = |errors| Outcome {
        status: "error",
        errors,
        output: None,
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let d = crate::input::not_utf8(e.as_bytes(), e.utf8_error());
            return error(vec![(
                d.line.unwrap_or(1),
                d.column.unwrap_or(1),
                d.message.en,
            )]);
        }
    };
    let doc = Document::parse(&text);
    let Some(out) = doc.canonical().filter(|_| doc.errors().is_empty()) else {
        return error(
            doc.errors()
                .iter()
                .map(|e| (e.line, e.column, e.message.clone()))
                .collect(),
        );
    };
    let status = if file == "-" {
        "formatted"
    } else if out == text {
        "unchanged"
    } else if check {
        "would-reformat"
    } else if let Err(e) = std::fs::write(file, &out) {
        return error(vec![(1, 1, format!("cannot write {file}: {e}"))]);
    } else {
        "reformatted"
    };
    Outcome {
        status,
        errors: Vec::new(),
        output: (file == "-").then_some(out),
    }
}
