//! `cargo xtask modules` (also a step of `cargo xtask test`): no import circle between the
//! top-level modules of any crate of the workspace (ARCHITECTURE.md, "Crates"), and the
//! server's layers kept: SQL only in `store/`, and no API handler module naming another
//! (what two handlers share lives in `domain/` or in the API's helpers); and no function over
//! 250 lines (`long_functions`).
//!
//! A top-level module is a file or folder under a crate's `src/`; the crate root (`lib.rs`,
//! `main.rs`) is one more node. An edge `a → b` is a path `crate::b…` in `a`'s code (tests
//! left out), or `super::b…` in a file directly under `src/` (where `super` is the root); a name
//! the root defines (a function, a type) is an edge to the root. The root's own edges are the
//! modules whose items it uses (`b::…`), not those it merely declares. The scan is textual:
//! a path in a comment or a doc link (`[`crate::api::x`]`) counts as a use too.

use crate::tools::{root, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The crates checked (every crate of the workspace), with their root file.
const CRATES: [(&str, &str); 9] = [
    ("shared/src", "lib.rs"),
    ("frontend/src", "lib.rs"),
    ("xtask/src", "main.rs"),
    ("backend/server/src", "lib.rs"),
    ("backend/runner/src", "lib.rs"),
    ("backend/client/src", "lib.rs"),
    ("backend/lsp/src", "lib.rs"),
    ("backend/cli/src", "main.rs"),
    ("backend/bench/src", "main.rs"),
];

const ROOT: &str = "<crate root>";

pub fn check() -> Result {
    let mut circles = Vec::new();
    for (dir, root_file) in CRATES {
        let edges = edges(&root().join(dir), root_file)?;
        if let Some(c) = circle(&edges) {
            circles.push(format!("{dir}: {}", c.join(" → ")));
        }
    }
    circles.extend(server_layers()?);
    circles.extend(crate::long_functions::breaks()?);
    if circles.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the modules' structure is broken (an import circle is a module importing one that imports it back):\n  {}",
            circles.join("\n  ")
        ))
    }
}

/// What SQL looks like in Rust code: sqlx's query functions and PostgreSQL's own calls.
const SQL_MARKS: [&str; 6] = [
    "sqlx::query",
    "sqlx::raw_sql",
    "PgListener",
    "pg_notify",
    "pg_advisory",
    "pg_stat_activity",
];

/// The API modules that are not handlers of one resource: the router's root, the OpenAPI
/// document (which describes every handler) and the helpers handlers share.
const API_NOT_HANDLERS: [&str; 2] = ["mod", "openapi"];

/// The server's layering, as broken rules (none: kept).
fn server_layers() -> Result<Vec<String>> {
    let src = root().join("backend/server/src");
    let mut all = Vec::new();
    files(&src, Path::new(""), &mut all)?;
    Ok(layer_breaks(&all))
}

fn layer_breaks(all: &[(std::path::PathBuf, String)]) -> Vec<String> {
    let mut broken = Vec::new();
    for (rel, text) in all {
        let code = code(text);
        if !rel.starts_with("store") {
            if let Some(mark) = SQL_MARKS.iter().find(|m| code.contains(*m)) {
                broken.push(format!(
                    "backend/server/src/{}: `{mark}` outside store/ (SQL lives in the store)",
                    rel.display()
                ));
            }
        }
    }
    let handler = |rel: &Path| -> Option<String> {
        let name = rel
            .strip_prefix("api")
            .ok()?
            .to_str()?
            .strip_suffix(".rs")?;
        let text = &all.iter().find(|(r, _)| r == rel)?.1;
        (!API_NOT_HANDLERS.contains(&name)
            && !name.contains('/')
            && code(text).contains("fn router("))
        .then(|| name.to_string())
    };
    let handlers: Vec<String> = all.iter().filter_map(|(rel, _)| handler(rel)).collect();
    for (rel, text) in all {
        let Some(me) = handler(rel) else { continue };
        let code = code(text);
        for other in handlers.iter().filter(|h| **h != me) {
            if [
                format!("super::{other}::"),
                format!("crate::api::{other}::"),
            ]
            .iter()
            .any(|p| !names_after(code, p).is_empty())
            {
                broken.push(format!(
                    "backend/server/src/{}: the {me} handlers use the {other} handlers' module (move what they share to domain/)",
                    rel.display()
                ));
            }
        }
    }
    broken
}

/// The code of a file without its `#[cfg(test)]` part.
fn code(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or(text)
}

/// Identifiers following `prefix` in `text` (`crate::store::Store` → `store`).
fn names_after<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(prefix) {
        let start = from + i + prefix.len();
        let before = text[..from + i].chars().next_back();
        let end = text[start..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(text.len(), |e| start + e);
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && end > start {
            out.push(&text[start..end]);
        }
        from = start;
    }
    out
}

/// Every `.rs` file under `dir`, as (path relative to `dir`, text).
fn files(dir: &Path, rel: &Path, out: &mut Vec<(std::path::PathBuf, String)>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = rel.join(entry.file_name());
        if path.is_dir() {
            files(&path, &name, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            out.push((name, text));
        }
    }
    Ok(())
}

fn edges(src: &Path, root_file: &str) -> Result<BTreeMap<String, BTreeSet<String>>> {
    let mut all = Vec::new();
    files(src, Path::new(""), &mut all)?;
    let top = |rel: &Path| -> String {
        if rel == Path::new(root_file) {
            return ROOT.into();
        }
        let first = rel
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().to_string());
        first
            .unwrap_or_default()
            .trim_end_matches(".rs")
            .to_string()
    };
    let modules: BTreeSet<String> = all.iter().map(|(rel, _)| top(rel)).collect();
    let root_text = all
        .iter()
        .find(|(rel, _)| rel == Path::new(root_file))
        .map(|(_, t)| code(t).to_string())
        .unwrap_or_default();
    // Names the root defines, which a module reaches as `crate::name` or `super::name`.
    let mut root_items = BTreeSet::new();
    for kw in [
        "fn ", "struct ", "enum ", "const ", "static ", "type ", "trait ",
    ] {
        for line in root_text.lines() {
            let l = line.trim_start();
            let l = l
                .strip_prefix("pub(crate) ")
                .or_else(|| l.strip_prefix("pub "))
                .unwrap_or(l);
            let l = l.strip_prefix("async ").unwrap_or(l);
            if let Some(rest) = l.strip_prefix(kw) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                root_items.insert(name);
            }
        }
    }
    let target = |name: &str| -> Option<String> {
        if modules.contains(name) && name != ROOT {
            Some(name.to_string())
        } else if root_items.contains(name) {
            Some(ROOT.to_string())
        } else {
            None
        }
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, text) in &all {
        let from = top(rel);
        let text = code(text);
        let mut names = names_after(text, "crate::");
        let depth = rel.components().count();
        if from != ROOT && depth == 1 {
            names.extend(names_after(text, "super::"));
        }
        if from == ROOT {
            // The root's edges: the modules whose items it uses.
            for m in &modules {
                if m != ROOT && !names_after(text, &format!("{m}::")).is_empty() {
                    edges.entry(from.clone()).or_default().insert(m.clone());
                }
            }
            continue;
        }
        for n in names {
            if let Some(t) = target(n).filter(|t| *t != from) {
                edges.entry(from.clone()).or_default().insert(t);
            }
        }
    }
    Ok(edges)
}

/// One circle of the graph, if any (a depth-first search).
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut c = stack[i..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for next in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, edges, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in edges.keys() {
        if let Some(c) = visit(n, edges, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_that_imports_one_importing_it_back_is_a_circle() {
        let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        e.entry("api".into()).or_default().insert("state".into());
        e.entry("state".into()).or_default().insert("limits".into());
        assert_eq!(circle(&e), None);
        e.entry("limits".into()).or_default().insert("api".into());
        assert_eq!(
            circle(&e),
            Some(vec![
                "api".into(),
                "state".into(),
                "limits".into(),
                "api".into()
            ])
        );
    }

    #[test]
    fn paths_name_modules_only_at_word_starts() {
        assert_eq!(
            names_after(
                "use crate::store::Store; my_crate::x; crate::api",
                "crate::"
            ),
            vec!["store", "api"]
        );
    }

    #[test]
    fn sql_outside_the_store_and_handlers_naming_handlers_are_breaks() {
        let file = |p: &str, t: &str| (std::path::PathBuf::from(p), t.to_string());
        let router = "pub fn router() -> Router<AppState> { todo!() }\n";
        let kept = [
            file("store/jobs.rs", "sqlx::query(\"SELECT 1\")"),
            file("api/jobs.rs", router),
            file(
                "api/sweeps.rs",
                &format!("{router}use crate::domain::job_plan;"),
            ),
            file(
                "api/openapi.rs",
                &format!("{router}super::jobs::MAX_LOG_LINES"),
            ),
        ];
        assert_eq!(layer_breaks(&kept), Vec::<String>::new());
        let broken = [
            file("cluster.rs", "sqlx::query(\"SELECT pg_notify($1, $2)\")"),
            file("api/jobs.rs", router),
            file(
                "api/sweeps.rs",
                &format!("{router}use super::jobs::check_shape;"),
            ),
        ];
        let b = layer_breaks(&broken);
        assert_eq!(b.len(), 2, "{b:?}");
        assert!(b[0].contains("cluster.rs") && b[0].contains("outside store/"));
        assert!(b[1].contains("the sweeps handlers use the jobs handlers"));
    }

    #[test]
    fn every_member_of_the_workspace_is_checked() {
        let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
        let members = manifest
            .split("members = [")
            .nth(1)
            .and_then(|m| m.split(']').next())
            .unwrap();
        let members: Vec<&str> = members
            .split(',')
            .map(|m| m.trim().trim_matches('"'))
            .filter(|m| !m.is_empty())
            .collect();
        assert!(members.len() >= 8, "{members:?}");
        for m in members {
            assert!(
                CRATES.iter().any(|(dir, _)| *dir == format!("{m}/src")),
                "{m} is a member of the workspace but `cargo xtask modules` does not check it"
            );
        }
    }

    #[test]
    fn no_crate_of_the_workspace_has_a_module_circle() {
        check().unwrap();
    }
}
