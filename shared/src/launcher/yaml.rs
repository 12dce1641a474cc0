//! A bounded YAML loader for the trainer-file importer: the tree is built from the parser's
//! events (yaml-rust2's event state machine, which does not recurse), with limits counted while
//! parsing, before anything large is built:
//! - nesting at most [`MAX_DEPTH`] (a deep tree would overflow the stack when dropped, and
//!   yaml-rust2's own `load` recurses per level);
//! - at most [`MAX_NODES`] nodes, counting every node an alias copies (a "billion laughs"
//!   document of a few hundred bytes otherwise expands to gigabytes);
//! - merge keys (`<<: *defaults`) applied as YAML 1.1 does, and tags other than the core
//!   schema's reported, so the importer can say what it read differently from the file.

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::yaml::Hash;
use yaml_rust2::Yaml;

/// Deepest nesting of sequences and mappings a training file may have (real ones use 3 or 4).
pub const MAX_DEPTH: usize = 64;
/// Most nodes a file may expand to, aliases counted as the copies they make.
pub const MAX_NODES: usize = 100_000;

/// The first document of a YAML text, and what the loader read differently from it.
#[derive(Debug)]
pub struct Loaded {
    pub doc: Yaml,
    /// Tags outside the core schema (`!!python/object`, `!custom`), as written: their values
    /// are read as plain YAML.
    pub foreign_tags: Vec<String>,
    /// Mappings that used merge keys (`<<`), applied.
    pub merges: usize,
}

/// Why a YAML text could not be loaded: the message, and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "YAML error at line {} column {}: {}",
            self.line, self.col, self.message
        )
    }
}

fn error(mark: &Marker, message: impl Into<String>) -> LoadError {
    LoadError {
        line: mark.line(),
        col: mark.col() + 1,
        message: message.into(),
    }
}

/// A node being built: its value, its anchor id (0: none) and its size in nodes.
struct Open {
    value: Yaml,
    anchor: usize,
    nodes: usize,
    /// A mapping's key waiting for its value.
    key: Option<Yaml>,
    /// A mapping's merge (`<<`) values, applied when it closes.
    merges: Vec<Yaml>,
}

/// Loads the first document of `text` within the limits (later documents are parsed and
/// checked, not kept). An empty text is `Yaml::BadValue`.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Open> = Vec::new();
    // Anchored nodes and their sizes, for aliases.
    let mut anchors: std::collections::HashMap<usize, (Yaml, usize)> = Default::default();
    let mut total = 0usize;
    let mut docs: Vec<Yaml> = Vec::new();
    let mut foreign_tags: Vec<String> = Vec::new();
    let mut merges = 0usize;
    loop {
        let (event, mark) = parser.next_token().map_err(|e| LoadError {
            line: e.marker().line(),
            col: e.marker().col() + 1,
            message: e.info().to_string(),
        })?;
        let is_sequence = matches!(event, Event::SequenceStart(..));
        let done: Option<(Yaml, usize, usize)> = match event {
            Event::StreamEnd => break,
            Event::Nothing | Event::StreamStart | Event::DocumentStart => None,
            Event::DocumentEnd => {
                if docs.is_empty() {
                    docs.push(Yaml::BadValue);
                }
                None
            }
            Event::SequenceStart(anchor, tag) | Event::MappingStart(anchor, tag) => {
                note_tag(tag.as_ref(), &mut foreign_tags);
                if stack.len() >= MAX_DEPTH {
                    return Err(error(
                        &mark,
                        format!(
                            "nested more than {MAX_DEPTH} levels deep: a training file is a few levels deep"
                        ),
                    ));
                }
                total += 1;
                check_total(total, &mark)?;
                let value = if is_sequence {
                    Yaml::Array(Vec::new())
                } else {
                    Yaml::Hash(Hash::new())
                };
                stack.push(Open {
                    value,
                    anchor,
                    nodes: 1,
                    key: None,
                    merges: Vec::new(),
                });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(mut open) = stack.pop() else {
                    return Err(error(&mark, "a collection ends that never started"));
                };
                if !open.merges.is_empty() {
                    merges += 1;
                    apply_merges(&mut open, &mark)?;
                }
                Some((open.value, open.anchor, open.nodes))
            }
            Event::Scalar(value, style, anchor, tag) => {
                note_tag(tag.as_ref(), &mut foreign_tags);
                total += 1;
                check_total(total, &mark)?;
                Some((scalar(value, style, tag.as_ref()), anchor, 1))
            }
            Event::Alias(id) => {
                let Some((value, nodes)) = anchors.get(&id) else {
                    return Err(error(
                        &mark,
                        "an alias names an anchor not defined before it",
                    ));
                };
                // The copy counts as the nodes it holds: checked before it is made.
                total = total.saturating_add(*nodes);
                check_total(total, &mark)?;
                Some((value.clone(), 0, *nodes))
            }
        };
        let Some((value, anchor, nodes)) = done else {
            continue;
        };
        if anchor > 0 {
            // The anchor keeps a copy: it counts too (anchors nested around one big value
            // would otherwise keep a copy per level, uncounted).
            total = total.saturating_add(nodes);
            check_total(total, &mark)?;
            anchors.insert(anchor, (value.clone(), nodes));
        }
        match stack.last_mut() {
            None => docs.push(value),
            Some(parent) => {
                parent.nodes = parent.nodes.saturating_add(nodes);
                insert(parent, value, &mark)?;
            }
        }
    }
    Ok(Loaded {
        doc: docs.into_iter().next().unwrap_or(Yaml::BadValue),
        foreign_tags,
        merges,
    })
}

fn check_total(total: usize, mark: &Marker) -> Result<(), LoadError> {
    if total > MAX_NODES {
        Err(error(
            mark,
            format!(
                "the document expands to more than {MAX_NODES} values (aliases count as the copies they make)"
            ),
        ))
    } else {
        Ok(())
    }
}

/// Adds a finished node to its parent: an item of a sequence, or a key or value of a mapping.
fn insert(parent: &mut Open, value: Yaml, mark: &Marker) -> Result<(), LoadError> {
    match &mut parent.value {
        Yaml::Array(items) => items.push(value),
        Yaml::Hash(map) => match parent.key.take() {
            None => parent.key = Some(value),
            Some(Yaml::String(k)) if k == "<<" => parent.merges.push(value),
            Some(key) => {
                if map.contains_key(&key) {
                    return Err(error(
                        mark,
                        format!("{}: duplicated key in mapping", shown(&key)),
                    ));
                }
                map.insert(key, value);
            }
        },
        _ => return Err(error(mark, "a value inside a scalar")),
    }
    Ok(())
}

/// YAML 1.1 merge keys: the merged mappings' entries the mapping does not set itself (the
/// first of several merged mappings wins).
fn apply_merges(open: &mut Open, mark: &Marker) -> Result<(), LoadError> {
    let Yaml::Hash(map) = &mut open.value else {
        return Ok(());
    };
    for merged in std::mem::take(&mut open.merges) {
        let sources = match merged {
            Yaml::Hash(h) => vec![h],
            Yaml::Array(items) => items
                .into_iter()
                .map(|i| match i {
                    Yaml::Hash(h) => Ok(h),
                    _ => Err(error(mark, "`<<` merges mappings only")),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(error(mark, "`<<` merges mappings only")),
        };
        for h in sources {
            for (k, v) in h {
                map.entry(k).or_insert(v);
            }
        }
    }
    Ok(())
}

/// A key as a message names it.
fn shown(key: &Yaml) -> String {
    match key {
        Yaml::String(s) => format!("`{}`", s.chars().take(60).collect::<String>()),
        Yaml::Integer(i) => i.to_string(),
        _ => "a key".into(),
    }
}

/// Notes a tag the core schema does not define.
fn note_tag(tag: Option<&Tag>, out: &mut Vec<String>) {
    let Some(t) = tag else { return };
    let core = t.handle == "tag:yaml.org,2002:"
        && matches!(
            t.suffix.as_str(),
            "str" | "int" | "float" | "bool" | "null" | "map" | "seq"
        );
    if !core && out.len() < 8 {
        let name = if t.handle == "tag:yaml.org,2002:" {
            format!("!!{}", t.suffix)
        } else {
            format!("{}{}", t.handle, t.suffix)
        };
        let name: String = name.chars().take(60).collect();
        if !out.contains(&name) {
            out.push(name);
        }
    }
}

/// A scalar as yaml-rust2's own loader resolves it (core schema tags honoured).
fn scalar(v: String, style: TScalarStyle, tag: Option<&Tag>) -> Yaml {
    if style != TScalarStyle::Plain {
        return Yaml::String(v);
    }
    match tag {
        Some(t) if t.handle == "tag:yaml.org,2002:" => match t.suffix.as_str() {
            "bool" => match v.as_str() {
                "true" | "True" | "TRUE" => Yaml::Boolean(true),
                "false" | "False" | "FALSE" => Yaml::Boolean(false),
                _ => Yaml::BadValue,
            },
            "int" => v.parse::<i64>().map_or(Yaml::BadValue, Yaml::Integer),
            "float" => match Yaml::from_str(&v) {
                Yaml::Real(_) | Yaml::Integer(_) => Yaml::Real(v),
                _ => Yaml::BadValue,
            },
            "null" => match v.as_str() {
                "~" | "null" => Yaml::Null,
                _ => Yaml::BadValue,
            },
            _ => Yaml::String(v),
        },
        Some(_) => Yaml::String(v),
        None => Yaml::from_str(&v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_file_loads_as_yaml_rust2_loads_it() {
        let text = "a: 1\nb: [x, 2.5, true]\nc:\n  d: ~\n";
        let ours = load(text).unwrap().doc;
        let theirs = yaml_rust2::YamlLoader::load_from_str(text)
            .unwrap()
            .remove(0);
        assert_eq!(ours, theirs);
    }

    #[test]
    fn deep_nesting_is_refused_without_recursion() {
        // 5,000 and 100,000 levels: refused at the 65th, whatever follows.
        for depth in [65, 5_000, 100_000] {
            let text = format!("k:\n  {}x\n", "- ".repeat(depth));
            let e = load(&text).unwrap_err();
            assert!(e.message.contains("64 levels"), "{e}");
            let flow = format!("k: {}x{}\n", "[".repeat(depth), "]".repeat(depth));
            let e = load(&flow).unwrap_err();
            // yaml-rust2's scanner refuses deep flow collections itself from 256 levels.
            assert!(
                e.message.contains("64 levels") || e.message.contains("recursion limit"),
                "{depth}: {e}"
            );
        }
        let ok = format!("k:\n  {}x\n", "- ".repeat(60));
        assert!(load(&ok).is_ok());
    }

    #[test]
    fn alias_expansion_is_counted_before_it_is_made() {
        let mut text = String::from("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..=9 {
            let refs = vec![format!("*l{}", i - 1); 10].join(", ");
            text.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
        }
        let e = load(&text).unwrap_err();
        assert!(e.message.contains("expands to more than"), "{e}");
        // A few aliases are fine.
        let small = load("base: &b {lr: 1}\nrun: *b\n").unwrap().doc;
        assert_eq!(small["run"]["lr"].as_i64(), Some(1));
        assert!(load("x: *nowhere\n").is_err());
    }

    /// Found by an outside attack: anchors nested around one big sequence each kept a copy,
    /// uncounted (62 levels around 99,000 scalars: 700 MB for an 891 KB request).
    #[test]
    fn nested_anchors_count_the_copies_they_keep() {
        let levels = 62;
        let mut text = String::from("k: ");
        for i in 0..levels {
            text.push_str(&format!("&a{i} ["));
        }
        text.push_str(&vec!["xxxxxxx"; 60_000].join(", "));
        text.push_str(&"]".repeat(levels));
        text.push('\n');
        let e = load(&text).unwrap_err();
        assert!(e.message.contains("expands to more than"), "{e}");
        // One anchor around a big value is still fine (its copy counts once).
        let one = format!("k: &a [{}]\n", vec!["x"; 40_000].join(", "));
        assert!(load(&one).is_ok());
    }

    #[test]
    fn merge_keys_and_tags() {
        let l = load("d: &d {lr: 1, wd: 2}\nrun:\n  <<: *d\n  wd: 3\n").unwrap();
        assert_eq!(l.doc["run"]["lr"].as_i64(), Some(1));
        assert_eq!(l.doc["run"]["wd"].as_i64(), Some(3));
        assert_eq!(l.merges, 1);
        let t = load("a: !!python/object:foo.Bar 1\nb: !!int 3\nc: !custom x\n").unwrap();
        assert_eq!(t.foreign_tags, vec!["!!python/object:foo.Bar", "!custom"]);
        assert_eq!(t.doc["b"].as_i64(), Some(3));
        assert!(load("a: 1\na: 2\n")
            .unwrap_err()
            .message
            .contains("duplicated"));
    }
}
