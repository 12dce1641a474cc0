//! `ds-studio fmt FILE...`: rewrites each config canonically in place (`--check` only reports).

use ds_studio_shared::Document;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Report files that would change; change nothing (exit 1 if any would).
    #[arg(long)]
    pub check: bool,
}

pub fn run(args: Args) -> i32 {
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
        let doc = Document::parse(&text);
        let Some(out) = doc.canonical().filter(|_| doc.errors().is_empty()) else {
            for e in doc.errors() {
                eprintln!("{file}:{}:{}: error: {}", e.line, e.column, e.message);
            }
            code = 2;
            continue;
        };
        if file == "-" {
            print!("{out}");
        } else if out != text {
            if args.check {
                println!("{file}: would reformat");
                code = code.max(1);
            } else if let Err(e) = std::fs::write(file, &out) {
                eprintln!("ds-studio: cannot write {file}: {e}");
                code = 2;
            }
        }
    }
    code
}
