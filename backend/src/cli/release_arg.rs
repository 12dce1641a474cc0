//! `--deepspeed X.Y.Z|auto`: the DeepSpeed release a command judges configs for.
//!
//! A release outside 0.14.4 – 0.19.8 is a usage error (exit 2) that lists the range; `auto`
//! asks the Python on PATH (`import deepspeed`) which release it has.

use ds_studio_shared::Release;
use std::process::Command;

/// clap's value parser for `--deepspeed`.
pub fn parse(text: &str) -> Result<Release, String> {
    if text.trim() == "auto" {
        return detect("python3");
    }
    Release::parse(text).map_err(|e| e.to_string())
}

/// The release `python` imports (`deepspeed.__version__`, a local `+...` suffix dropped).
pub fn detect(python: &str) -> Result<Release, String> {
    let out = Command::new(python)
        .args(["-c", "import deepspeed; print(deepspeed.__version__)"])
        .env("DS_ACCELERATOR", "cpu")
        .output()
        .map_err(|e| format!("--deepspeed auto: cannot run {python}: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!(
            "--deepspeed auto: `{python} -c 'import deepspeed'` failed ({last}); give the release, e.g. --deepspeed 0.18.4"
        ));
    }
    let version = String::from_utf8_lossy(&out.stdout);
    // Import banners go to stdout too: the version is the last line.
    let version = version
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let plain = version.trim().split('+').next().unwrap_or("");
    Release::parse(plain)
        .map_err(|e| format!("--deepspeed auto: {python} has DeepSpeed {plain}: {e}"))
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
            e.contains("--deepspeed auto") && e.contains("cannot run"),
            "{e}"
        );
    }
}
