//! "Did you mean": the known key closest to a misspelt one, among the keys of its section.
//!
//! Jaro-Winkler is quadratic in the names' lengths, and the top level has a few hundred keys.
//! An index, built once per process, keeps each candidate's lower-case name and a histogram of
//! its characters. The characters two names have in common bound how many Jaro can match, so
//! they bound the similarity from above too. A candidate whose bound is under the threshold is
//! skipped without the quadratic work, and the answer is the same as comparing with every key
//! (`tests.rs` compares both over the registry).

use super::{similarity, KeySpec, Registry, MAX_SUGGESTED};
use crate::release::Release;
use std::sync::OnceLock;

/// Suggestions score at least this.
const THRESHOLD: f64 = 0.86;
/// Character classes of the histograms: a-z, 0-9, `_`, `-`, anything else.
const CLASSES: usize = 39;

/// Each section's candidates, in the registry's order, built the first time a name in that
/// section is misspelt.
pub(super) type Index = super::FastMap<&'static str, OnceLock<Vec<Candidate>>>;

/// An empty index: a cell for each section of the registry.
pub(super) fn index<'a>(sections: impl Iterator<Item = &'a &'static str>) -> Index {
    sections.map(|s| (*s, OnceLock::new())).collect()
}

#[derive(Debug)]
pub(super) struct Candidate {
    key: usize,
    lower: Box<str>,
    chars: usize,
    histogram: [u8; CLASSES],
}

fn class(c: char) -> usize {
    match c {
        'a'..='z' => c as usize - 'a' as usize,
        '0'..='9' => 26 + (c as usize - '0' as usize),
        '_' => 36,
        '-' => 37,
        _ => 38,
    }
}

/// Counts per class (a registry name or a query of at most [`MAX_SUGGESTED`] bytes: no count
/// reaches the saturation).
fn histogram(lower: &str) -> [u8; CLASSES] {
    let mut h = [0u8; CLASSES];
    for c in lower.chars() {
        h[class(c)] = h[class(c)].saturating_add(1);
    }
    h
}

/// How many characters two names have in common, counted by class.
fn shared_chars(a: &[u8; CLASSES], b: &[u8; CLASSES]) -> usize {
    a.iter()
        .zip(b)
        .fold(0u32, |n, (x, y)| n + u32::from(*x.min(y))) as usize
}

/// The highest Jaro-Winkler similarity two names can have, from their lengths in characters,
/// the characters they share (an upper bound on Jaro's matches) and their common prefix.
fn upper_bound(a: usize, b: usize, common: usize, prefix: usize) -> f64 {
    if a == 0 || b == 0 || common == 0 {
        return if a == 0 && b == 0 { 1.0 } else { 0.0 };
    }
    let m = common.min(a).min(b) as f64;
    let jaro = (m / a as f64 + m / b as f64 + 1.0) / 3.0;
    jaro + 0.1 * prefix.min(4) as f64 * (1.0 - jaro)
}

/// The candidates of the section `parent`.
fn build(reg: &Registry, parent: &str) -> Vec<Candidate> {
    reg.children
        .get(parent)
        .into_iter()
        .flatten()
        .filter_map(|&key| {
            let name = reg.keys[key].name();
            if name.starts_with('<') {
                return None;
            }
            let lower: Box<str> = name.to_ascii_lowercase().into();
            let histogram = histogram(&lower);
            Some(Candidate {
                key,
                chars: lower.chars().count(),
                lower,
                histogram,
            })
        })
        .collect()
}

impl Registry {
    /// The known key closest to `key` among the children of `parent`, for "did you mean"
    /// (any release's keys).
    pub fn suggest(&self, parent: &str, key: &str) -> Option<&KeySpec> {
        self.suggest_in(parent, key, None)
    }

    /// Like [`Registry::suggest`], among the keys `release` reads when one is given.
    pub fn suggest_in(
        &self,
        parent: &str,
        key: &str,
        release: Option<Release>,
    ) -> Option<&KeySpec> {
        if key.len() > MAX_SUGGESTED {
            return None;
        }
        let lower = key.to_ascii_lowercase();
        let chars = lower.chars().count();
        let mine = histogram(&lower);
        let candidates = self
            .suggestions
            .get(parent)?
            .get_or_init(|| build(self, parent));
        candidates
            .iter()
            .filter_map(|c| {
                let name = self.keys[c.key].name();
                let (short, long) = if name.len() < lower.len() {
                    (name.len(), lower.len())
                } else {
                    (lower.len(), name.len())
                };
                let common = shared_chars(&mine, &c.histogram);
                // One name inside the other shares every character of the shorter one: only
                // then is the substring search worth its cost.
                let contains = short * 3 >= long * 2
                    && common == chars.min(c.chars)
                    && (name.contains(&lower) || lower.contains(name));
                if !contains {
                    let prefix = lower
                        .chars()
                        .zip(c.lower.chars())
                        .take(4)
                        .take_while(|(a, b)| a == b)
                        .count();
                    // A margin for rounding: the bound only ever skips what cannot qualify.
                    if upper_bound(chars, c.chars, common, prefix) < THRESHOLD - 1e-9 {
                        return None;
                    }
                }
                let score = similarity(&lower, &c.lower);
                Some((if contains { score.max(0.9) } else { score }, c))
            })
            .filter(|(s, _)| *s >= THRESHOLD)
            // Only the few that come close are parsed, to ask whether `release` has them.
            .map(|(s, c)| (s, self.keys[c.key].get()))
            .filter(|(_, spec)| release.is_none_or(|r| spec.known_in(r)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, spec)| spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer without the index: Jaro-Winkler against every key of the section.
    fn every_key<'a>(
        reg: &'a Registry,
        parent: &str,
        key: &str,
        release: Option<Release>,
    ) -> Option<&'a KeySpec> {
        if key.len() > MAX_SUGGESTED {
            return None;
        }
        let lower = key.to_ascii_lowercase();
        reg.children_of(parent)
            .filter(|c| !c.name().starts_with('<'))
            .filter(|c| release.is_none_or(|r| c.known_in(r)))
            .map(|c| {
                let name = c.name();
                let score = similarity(&lower, &name.to_ascii_lowercase());
                let (short, long) = if name.len() < lower.len() {
                    (name.len(), lower.len())
                } else {
                    (lower.len(), name.len())
                };
                let contains =
                    (name.contains(&lower) || lower.contains(name)) && short * 3 >= long * 2;
                (if contains { score.max(0.9) } else { score }, c)
            })
            .filter(|(s, _)| *s >= THRESHOLD)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c)
    }

    /// Misspellings of every key of the registry (a letter dropped, doubled, swapped, changed,
    /// the case changed, a suffix added) and unrelated words: the index answers exactly as the
    /// full comparison, for every release.
    #[test]
    fn the_index_answers_as_comparing_with_every_key() {
        let reg = super::super::registry();
        let mut queries: Vec<(String, String)> = Vec::new();
        for spec in reg.keys() {
            let name = spec.name();
            if name.starts_with('<') || name.is_empty() {
                continue;
            }
            let parent = spec
                .path
                .rsplit_once('.')
                .map(|(p, _)| p.to_string())
                .unwrap_or_default();
            let chars: Vec<char> = name.chars().collect();
            let n = chars.len();
            let mut variants = vec![
                name.to_uppercase(),
                format!("{name}s"),
                format!("{name}_x"),
                chars[..n - 1].iter().collect(),
                format!("x{name}"),
            ];
            for i in [0, n / 2, n - 1] {
                let mut dropped = chars.clone();
                dropped.remove(i);
                variants.push(dropped.iter().collect());
                let mut changed = chars.clone();
                changed[i] = if changed[i] == 'e' { 'a' } else { 'e' };
                variants.push(changed.iter().collect());
                if i + 1 < n {
                    let mut swapped = chars.clone();
                    swapped.swap(i, i + 1);
                    variants.push(swapped.iter().collect());
                }
            }
            for v in variants {
                queries.push((parent.clone(), v));
            }
        }
        for word in [
            "lr",
            "zero",
            "optimiser",
            "完全无关",
            "ｓｔａｇｅ",
            "",
            "a_b_c_d_e_f",
        ] {
            queries.push((String::new(), word.into()));
            queries.push(("zero_optimization".into(), word.into()));
        }
        assert!(queries.len() > 5_000, "{}", queries.len());
        let releases = [
            None,
            Some(Release::parse("0.14.4").unwrap()),
            Some(Release::newest()),
        ];
        let mut found = 0;
        for (parent, q) in &queries {
            for r in releases {
                let fast = reg.suggest_in(parent, q, r).map(|s| &s.path);
                let slow = every_key(reg, parent, q, r).map(|s| &s.path);
                assert_eq!(fast, slow, "{parent:?} {q:?} {r:?}");
                found += usize::from(fast.is_some());
            }
        }
        assert!(
            found > queries.len(),
            "most misspellings find their key: {found}"
        );
    }

    #[test]
    fn the_bound_is_never_below_the_similarity() {
        let names = [
            "train_batch_size",
            "train_micro_batch_size_per_gpu",
            "stage",
            "stag",
            "offload_optimizer",
            "zero_optimisation",
            "a",
            "ab",
            "ba",
            "完全",
        ];
        for a in names {
            for b in names {
                let (la, lb) = (a.to_lowercase(), b.to_lowercase());
                let common = shared_chars(&histogram(&la), &histogram(&lb));
                let prefix = la
                    .chars()
                    .zip(lb.chars())
                    .take(4)
                    .take_while(|(x, y)| x == y)
                    .count();
                let bound = upper_bound(la.chars().count(), lb.chars().count(), common, prefix);
                assert!(bound + 1e-9 >= similarity(&la, &lb), "{a} {b}");
            }
        }
    }
}
