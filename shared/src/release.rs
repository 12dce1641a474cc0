//! DeepSpeed releases: which one a config is judged for.
//!
//! ds-studio knows every release from 0.14.4 (the oldest whose config parser imports with
//! today's torch) to 0.19.8. The list, and what each release knows, come from
//! `shared/data/releases.json`, generated from each release's own source by
//! `tools/releases/gen.py` (kept honest by `cargo xtask codegen --check`). A [`Release`] is an
//! index into that list, so comparing releases is comparing numbers.
//! A release is data, not code paths: every per-release difference is a fact of that file the
//! rules ask the registry for; an unknown release is one `unknown-release` error, never a guess.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One DeepSpeed release ds-studio can judge a config for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release(u8);

// `RELEASES`: the list in `releases.json`, written as a Rust array by `shared/build.rs`.
include!(concat!(env!("OUT_DIR"), "/release_list.rs"));
const _: () = assert!(!RELEASES.is_empty() && RELEASES.len() < 256);

/// The releases, oldest first.
pub fn releases() -> &'static [&'static str] {
    RELEASES
}

/// A release name that is not one of [`releases`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRelease(pub String);

impl std::fmt::Display for UnknownRelease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown DeepSpeed release '{}': ds-studio knows every release from {} to {}",
            self.0.chars().take(40).collect::<String>(),
            Release::OLDEST,
            Release::newest()
        )
    }
}

impl std::error::Error for UnknownRelease {}

impl Release {
    pub const OLDEST: Release = Release(0);

    /// The newest release ds-studio knows (the default).
    pub fn newest() -> Release {
        Release((releases().len() - 1) as u8)
    }

    /// Every release, oldest first.
    pub fn all() -> impl DoubleEndedIterator<Item = Release> + ExactSizeIterator {
        (0..releases().len()).map(|i| Release(i as u8))
    }

    /// `"0.18.4"` (a leading `v` and surrounding spaces are allowed).
    pub fn parse(text: &str) -> Result<Release, UnknownRelease> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        releases()
            .iter()
            .position(|r| *r == t)
            .map(|i| Release(i as u8))
            .ok_or_else(|| UnknownRelease(text.to_string()))
    }

    pub fn as_str(self) -> &'static str {
        releases()[self.0 as usize]
    }

    /// The release before this one, if any.
    pub fn previous(self) -> Option<Release> {
        self.0.checked_sub(1).map(Release)
    }

    /// "0.14.4 – 0.19.8".
    pub fn range_text() -> String {
        format!("{} – {}", Release::OLDEST, Release::newest())
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for Release {
    fn default() -> Self {
        Release::newest()
    }
}

impl std::str::FromStr for Release {
    type Err = UnknownRelease;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Release::parse(s)
    }
}

impl Serialize for Release {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Release {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor, not a `String`: the name is looked up without being copied.
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Release;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a DeepSpeed release such as \"0.19.8\"")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Release, E> {
                Release::parse(s).map_err(E::custom)
            }
        }
        d.deserialize_str(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_is_0_14_4_to_0_19_8_in_order() {
        assert_eq!(Release::OLDEST.as_str(), "0.14.4");
        assert_eq!(Release::newest().as_str(), "0.19.8");
        assert_eq!(releases().len(), 43);
        let parsed: Vec<Vec<u32>> = releases()
            .iter()
            .map(|r| r.split('.').map(|p| p.parse().unwrap()).collect())
            .collect();
        assert!(parsed.windows(2).all(|w| w[0] < w[1]), "releases sorted");
        assert!(Release::parse("0.18.4").unwrap() < Release::parse("0.19.5").unwrap());
        assert_eq!(Release::parse(" v0.17.1 ").unwrap().as_str(), "0.17.1");
    }

    #[test]
    fn an_unknown_release_names_the_range() {
        for bad in ["0.13.2", "0.20.0", "latest", "", "0.19"] {
            let e = Release::parse(bad).unwrap_err().to_string();
            assert!(e.contains("0.14.4") && e.contains("0.19.8"), "{e}");
        }
    }
}
