//! `--deepspeed X.Y.Z|auto`: the DeepSpeed release a command judges configs for.
//!
//! A release outside 0.14.4 – 0.19.8 is a usage error (exit 2) that lists the range; `auto`
//! asks the Python on PATH (`import deepspeed`) which release it has.

use ds_studio_shared::Release;

/// clap's value parser for `--deepspeed`.
pub fn parse(text: &str) -> Result<Release, String> {
    if text.trim() == "auto" {
        return detect("python3");
    }
    Release::parse(text).map_err(|e| e.to_string())
}

/// The release `python` imports (the runner asks the same way, `engine::deepspeed_version`).
pub fn detect(python: &str) -> Result<Release, String> {
    let version = ds_studio_runner::engine::deepspeed_version(std::path::Path::new(python))
        .ok_or_else(|| {
            format!("`auto`: `{python} -c 'import deepspeed'` failed; give the release instead, e.g. 0.18.4")
        })?;
    Release::parse(&version).map_err(|e| format!("`auto`: {python} has DeepSpeed {version}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_parse_and_others_name_the_range() {
        assert_eq!(parse("0.18.4").unwrap().as_str(), "0.18.4");
        let e = parse("0.13.0").unwrap_err();
        assert!(e.contains("0.14.4") && e.contains("0.19.8"), "{e}");
    }

    #[test]
    fn auto_without_deepspeed_says_how_to_fix_it() {
        let e = detect("/nonexistent/python3").unwrap_err();
        assert!(
            e.contains("`auto`") && e.contains("failed") && e.contains("e.g. 0.18.4"),
            "{e}"
        );
    }
}
