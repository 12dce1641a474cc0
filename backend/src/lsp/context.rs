//! Where a config will run, for the language server: `ds-studio.toml`, the nearest one found
//! upward from the file, read again at each check (so an edit to it counts at once):
//!
//! ```toml
//! deepspeed = "0.18.4"        # the release to judge for (default: the newest)
//! launcher = "hf-trainer"     # deepspeed (default), hf-trainer or accelerate
//! world_size = 8              # total GPUs (default 1); also tensor_parallel, pipeline_parallel,
//!                             # sequence_parallel
//! trainer_args = "per_device_train_batch_size=4,bf16=true"
//! lang = "zh"                 # messages and hovers (default: the editor's locale)
//! ```

use ds_studio_shared::i18n::Lang;
use ds_studio_shared::launcher::TrainerArgs;
use ds_studio_shared::{Context, Launcher, Release};
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = "ds-studio.toml";

/// The file's keys (unknown ones are refused: a typo must not pass for a default).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    deepspeed: Option<String>,
    launcher: Option<String>,
    world_size: Option<u32>,
    tensor_parallel: Option<u32>,
    pipeline_parallel: Option<u32>,
    sequence_parallel: Option<u32>,
    trainer_args: Option<String>,
    lang: Option<String>,
}

/// The context for one config, and where it came from.
pub struct Found {
    pub context: Context,
    pub lang: Option<Lang>,
    /// The `ds-studio.toml` read, if any.
    pub from: Option<PathBuf>,
    /// Why that file could not be used (the defaults apply then).
    pub problem: Option<String>,
}

/// The context of the config at `path` (none for an unsaved buffer: the defaults).
pub fn find(path: Option<&Path>) -> Found {
    let file = path.and_then(|p| {
        p.ancestors()
            .skip(1)
            .map(|d| d.join(FILE_NAME))
            .find(|f| f.is_file())
    });
    let mut found = Found {
        context: Context::default(),
        lang: None,
        from: file.clone(),
        problem: None,
    };
    let Some(file) = file else { return found };
    match std::fs::read_to_string(&file)
        .map_err(|e| e.to_string())
        .and_then(|t| read(&t))
    {
        Ok((context, lang)) => {
            found.context = context;
            found.lang = lang;
        }
        Err(e) => found.problem = Some(format!("{}: {e}", file.display())),
    }
    found
}

/// The context a `ds-studio.toml` text describes.
fn read(text: &str) -> Result<(Context, Option<Lang>), String> {
    let f: File = toml::from_str(text).map_err(|e| {
        // "invalid type: string "8", expected u32 at line 1: world_size = "8""
        match e.span() {
            Some(span) => {
                let line = text[..span.start].matches('\n').count() + 1;
                let src = text.lines().nth(line - 1).unwrap_or("").trim();
                format!("{} at line {line}: {src}", e.message())
            }
            None => e.message().to_string(),
        }
    })?;
    let mut ctx = Context::default();
    if let Some(r) = &f.deepspeed {
        Release::parse(r).map_err(|e| format!("deepspeed: {e}"))?;
        ctx.deepspeed_version = r.clone();
    }
    if let Some(l) = &f.launcher {
        ctx.launcher = l
            .parse::<Launcher>()
            .map_err(|e| format!("launcher: {e}"))?;
    }
    for (field, value) in [
        ("world_size", f.world_size),
        ("tensor_parallel", f.tensor_parallel),
        ("pipeline_parallel", f.pipeline_parallel),
        ("sequence_parallel", f.sequence_parallel),
    ] {
        if value == Some(0) {
            return Err(format!("{field} must be at least 1"));
        }
    }
    ctx.world_size = f.world_size.unwrap_or(1);
    ctx.tensor_parallel = f.tensor_parallel.unwrap_or(1);
    ctx.pipeline_parallel = f.pipeline_parallel.unwrap_or(1);
    ctx.sequence_parallel = f.sequence_parallel.unwrap_or(1);
    if let Some(t) = &f.trainer_args {
        ctx.trainer = Some(TrainerArgs::parse_pairs(t).map_err(|e| format!("trainer_args: {e}"))?);
        if f.launcher.is_none() {
            ctx.launcher = Launcher::HfTrainer;
        }
    }
    let lang = match &f.lang {
        Some(l) => Some(l.parse::<Lang>().map_err(|e| format!("lang: {e}"))?),
        None => None,
    };
    Ok((ctx, lang))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_context_and_names_what_is_wrong() {
        let (ctx, lang) = read(
            "deepspeed = \"0.18.4\"\nlauncher = \"accelerate\"\nworld_size = 8\nlang = \"zh\"\n",
        )
        .unwrap();
        assert_eq!(ctx.deepspeed_version, "0.18.4");
        assert_eq!(ctx.launcher, Launcher::Accelerate);
        assert_eq!(ctx.world_size, 8);
        assert_eq!(lang, Some(Lang::Zh));
        let (ctx, _) = read("trainer_args = \"per_device_train_batch_size=4\"").unwrap();
        assert_eq!(ctx.launcher, Launcher::HfTrainer);
        for (bad, word) in [
            ("deepspeed = \"0.13.0\"", "0.14.4"),
            ("launcher = \"torchrun\"", "torchrun"),
            ("world_sise = 8", "world_sise"),
            ("world_size = 0", "at least 1"),
            ("world_size = \"8\"", "line 1: world_size"),
            ("trainer_args = \"nope\"", "key=value"),
            ("lang = \"fr\"", "fr"),
        ] {
            let e = read(bad).unwrap_err();
            assert!(e.contains(word), "{bad}: {e}");
        }
    }

    #[test]
    fn the_nearest_file_upward_counts() {
        let dir = std::env::temp_dir().join(format!("ds-lsp-ctx-{}", std::process::id()));
        let deep = dir.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(dir.join(FILE_NAME), "world_size = 4\n").unwrap();
        let found = find(Some(&deep.join("ds_config.json")));
        assert_eq!(found.context.world_size, 4);
        assert_eq!(found.from.as_deref(), Some(dir.join(FILE_NAME).as_path()));
        std::fs::write(deep.join(FILE_NAME), "launcher = 3\n").unwrap();
        let found = find(Some(&deep.join("ds_config.json")));
        assert!(found.problem.is_some_and(|p| p.contains("launcher")));
        assert_eq!(found.context.world_size, 1, "a broken file: the defaults");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
