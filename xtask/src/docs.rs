//! `cargo xtask docs [--check]`: the book in `docs/` (mdBook).
//!
//! 1. The reference pages are generated from the code (`ds-studio reference cli|rest|
//!    diagnostics|releases`) into `docs/src/reference/` (and the codes' Chinese page); with
//!    `--check` a page that differs from the committed one fails, naming it.
//! 2. Every page of the user's and the operator's parts (`docs/src/using/`,
//!    `docs/src/operating/`) has its Chinese page under `docs/src/zh/` with the same headings in
//!    the same order (the reference's Chinese pages, where they exist, too), and every Chinese
//!    page its English one.
//! 3. mdBook (pinned, built from crates.io into `target/tools` the first time) builds the book
//!    into `target/book`, which `ds-studio serve` serves at `/docs`.
//! 4. Every link and anchor of the built book resolves (links outside the book fail too), and
//!    so do README.md's and README_zh.md's links and the pages the studio's Help links open
//!    (`frontend/src/help.rs`).

use crate::tools::{cargo, root, run, step, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const MDBOOK_VERSION: &str = "0.5.4";

/// The generated pages: (the `reference` arguments, the file under `docs/src`).
const GENERATED: [(&[&str], &str); 5] = [
    (&["cli"], "reference/cli.md"),
    (&["rest"], "reference/rest-api.md"),
    (&["diagnostics"], "reference/diagnostics.md"),
    (
        &["diagnostics", "--lang", "zh"],
        "zh/reference/diagnostics.md",
    ),
    (&["releases"], "reference/releases.md"),
];

pub fn docs(check: bool) -> Result {
    step(if check {
        "docs --check: the book"
    } else {
        "docs: the book"
    });
    generate(check)?;
    languages_in_step()?;
    let mdbook = ensure_mdbook()?;
    run(Command::new(&mdbook).arg("build").arg(root().join("docs")))?;
    let book = root().join("target/book");
    check_links(&book)?;
    check_readme_links()?;
    check_help_pages(&book)?;
    eprintln!("the book is in {} (served at /docs)", book.display());
    Ok(())
}

fn generate(check: bool) -> Result {
    run(cargo().args(["build", "--quiet", "-p", "ds-studio"]))?;
    let binary = root().join("target/debug/ds-studio");
    let mut stale = Vec::new();
    for (args, file) in GENERATED {
        let out = Command::new(&binary)
            .arg("reference")
            .args(args)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
        if !out.status.success() {
            return Err(format!(
                "`ds-studio reference {}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let path = root().join("docs/src").join(file);
        if std::fs::read(&path).ok().as_deref() == Some(&out.stdout[..]) {
            continue;
        }
        if check {
            stale.push(file);
        } else {
            std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))
                .map_err(|e| e.to_string())?;
            std::fs::write(&path, &out.stdout).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("wrote docs/src/{file}");
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "generated reference pages differ from the code: {}; run `cargo xtask docs` and commit them",
            stale.join(", ")
        ))
    }
}

/// Every Markdown file under `dir`, relative to it.
fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p.strip_prefix(dir).unwrap_or(&p).to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The levels of a page's headings in order (`#` lines outside code blocks).
fn heading_levels(text: &str) -> Vec<usize> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(line.chars().take_while(|c| *c == '#').count());
        }
    }
    out
}

/// The user's and the operator's parts in both languages, page for page and heading for
/// heading.
fn languages_in_step() -> Result {
    let src = root().join("docs/src");
    let zh = src.join("zh");
    let mut problems = Vec::new();
    for part in ["using", "operating"] {
        for page in pages(&src.join(part)) {
            if !zh.join(part).join(&page).is_file() {
                problems.push(format!(
                    "{part}/{} has no Chinese page (zh/{part}/{0})",
                    page.display()
                ));
            }
        }
    }
    for page in pages(&zh) {
        let en = src.join(&page);
        let Ok(en_text) = std::fs::read_to_string(&en) else {
            problems.push(format!("zh/{} has no English page ({0})", page.display()));
            continue;
        };
        let zh_text = std::fs::read_to_string(zh.join(&page)).unwrap_or_default();
        let (a, b) = (heading_levels(&en_text), heading_levels(&zh_text));
        if a != b {
            problems.push(format!(
                "zh/{} is not in step with its English page: headings {b:?} against {a:?}",
                page.display()
            ));
        }
    }
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).map_err(|e| e.to_string())?;
    for page in pages(&src) {
        let name = page.display().to_string();
        if name != "SUMMARY.md" && !summary.contains(&format!("]({name})")) {
            problems.push(format!("{name} is not in SUMMARY.md"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the book's languages:\n  {}",
            problems.join("\n  ")
        ))
    }
}

/// mdBook, pinned, without its server and watcher (the book is static files).
pub(crate) fn ensure_mdbook() -> Result<PathBuf> {
    let tools = root().join("target/tools");
    let bin = tools.join("bin/mdbook");
    let have = Command::new(&bin)
        .arg("--version")
        .output()
        .ok()
        .is_some_and(|o| String::from_utf8_lossy(&o.stdout).contains(MDBOOK_VERSION));
    if !have {
        step(&format!(
            "installing mdBook {MDBOOK_VERSION} from crates.io (once)"
        ));
        run(cargo()
            .args(["install", "mdbook", "--locked", "--version", MDBOOK_VERSION])
            .args(["--no-default-features", "--features", "search", "--root"])
            .arg(&tools))?;
    }
    Ok(bin)
}

/// The values of `attr="…"` in an HTML text.
fn attributes<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let needle = format!(" {attr}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&needle) {
        rest = &rest[i + needle.len()..];
        if let Some(end) = rest.find('"') {
            out.push(&rest[..end]);
            rest = &rest[end..];
        }
    }
    out
}

fn is_external(link: &str) -> bool {
    [
        "http://",
        "https://",
        "mailto:",
        "javascript:",
        "data:",
        "//",
    ]
    .iter()
    .any(|p| link.starts_with(p))
}

/// Every `href` and `src` of the built book names a file of the book, and its `#anchor` an id
/// of that page.
fn check_links(book: &Path) -> Result {
    let mut ids: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut htmls = Vec::new();
    let mut todo = vec![book.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d)
            .map_err(|e| format!("{}: {e}", d.display()))?
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                ids.insert(
                    p.clone(),
                    attributes(&text, "id")
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                );
                htmls.push((p, text));
            }
        }
    }
    if htmls.len() < 10 {
        return Err(format!("the book has only {} pages", htmls.len()));
    }
    let mut broken = BTreeSet::new();
    let mut checked = 0;
    for (page, text) in &htmls {
        let dir = page.parent().unwrap_or(book);
        for link in attributes(text, "href")
            .into_iter()
            .chain(attributes(text, "src"))
        {
            if is_external(link) || link.is_empty() {
                continue;
            }
            checked += 1;
            let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
            let path = path.split('?').next().unwrap_or("");
            let target = if path.is_empty() {
                page.clone()
            } else if let Some(rest) = path.strip_prefix("/docs/") {
                // The book's own absolute links (`site-url`, the 404 page): where /docs serves it.
                let t = normalize(&book.join(rest));
                if rest.is_empty() || t.is_dir() {
                    t.join("index.html")
                } else {
                    t
                }
            } else {
                let t = normalize(&dir.join(path.replace("%20", " ")));
                if t.is_dir() {
                    t.join("index.html")
                } else {
                    t
                }
            };
            let shown = page
                .strip_prefix(book)
                .unwrap_or(page)
                .display()
                .to_string();
            if !target.starts_with(book) || !target.exists() {
                broken.insert(format!("{shown}: {link} (no such file)"));
            } else if !anchor.is_empty()
                && target.extension().is_some_and(|x| x == "html")
                && !ids.get(&target).is_some_and(|s| s.contains(anchor))
            {
                broken.insert(format!("{shown}: {link} (no such anchor)"));
            }
        }
    }
    eprintln!(
        "{checked} links in {} pages of the book checked",
        htmls.len()
    );
    if broken.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "broken links in the book:\n  {}",
            broken.into_iter().collect::<Vec<_>>().join("\n  ")
        ))
    }
}

/// `a/b/../c` → `a/c`, without touching the file system.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// README.md's and README_zh.md's relative links name files of the repository.
fn check_readme_links() -> Result {
    let mut broken = Vec::new();
    for readme in ["README.md", "README_zh.md"] {
        let text =
            std::fs::read_to_string(root().join(readme)).map_err(|e| format!("{readme}: {e}"))?;
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let link = &rest[..end];
            if !is_external(link) && !link.starts_with('#') {
                let file = link.split('#').next().unwrap_or(link);
                if !root().join(file).exists() {
                    broken.push(format!("{readme}: {link}"));
                }
            }
        }
    }
    if broken.is_empty() {
        Ok(())
    } else {
        Err(format!("broken links: {}", broken.join(", ")))
    }
}

/// The pages the studio's Help link and code links open exist, in both languages.
fn check_help_pages(book: &Path) -> Result {
    let help =
        std::fs::read_to_string(root().join("frontend/src/help.rs")).map_err(|e| e.to_string())?;
    let mut missing = Vec::new();
    let mut pages = 0;
    for (i, _) in help.match_indices(".html\"") {
        let start = help[..i].rfind('"').map_or(0, |s| s + 1);
        let page = &help[start..i + 5];
        if page.contains('/') && !page.starts_with("/docs") {
            pages += 1;
            for prefix in ["", "zh/"] {
                if !book.join(prefix).join(page).is_file() {
                    missing.push(format!("{prefix}{page}"));
                }
            }
        }
    }
    if pages < 5 {
        return Err(format!("found only {pages} pages in frontend/src/help.rs"));
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the studio's Help opens pages the book lacks: {}",
            missing.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_in_code_blocks_are_not_headings() {
        let page = "# Title\n\ntext\n\n```sh\n# a comment\n```\n\n## Part\n### Sub\n";
        assert_eq!(heading_levels(page), vec![1, 2, 3]);
    }

    #[test]
    fn attributes_are_read_in_order() {
        let html = r#"<a href="a.html#x">a</a> <h2 id="x">X</h2><img src="i.png"> <a href="https://e.org">"#;
        assert_eq!(attributes(html, "href"), vec!["a.html#x", "https://e.org"]);
        assert_eq!(attributes(html, "id"), vec!["x"]);
        assert_eq!(attributes(html, "src"), vec!["i.png"]);
        assert!(is_external("https://e.org") && !is_external("../using/jobs.html"));
    }

    #[test]
    fn a_link_that_climbs_out_of_the_book_stays_outside_it() {
        let book = Path::new("/b/book");
        assert_eq!(
            normalize(&book.join("zh/using/../../using/jobs.html")),
            book.join("using/jobs.html")
        );
        assert!(!normalize(&book.join("using/../../../README.md")).starts_with(book));
    }
}
