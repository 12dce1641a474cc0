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
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = "ds-studio.toml";

/// The keys a `ds-studio.toml` may hold.
const KEYS: [&str; 8] = [
    "deepspeed",
    "launcher",
    "world_size",
    "tensor_parallel",
    "pipeline_parallel",
    "sequence_parallel",
    "trainer_args",
    "lang",
];

/// The context for one config, and where it came from.
pub struct Found {
    pub context: Context,
    pub lang: Option<Lang>,
    /// The `ds-studio.toml` read, if any.
    pub from: Option<PathBuf>,
    /// What in that file could not be used (each such key keeps its default; the rest counts).
    pub problems: Vec<String>,
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
        problems: Vec::new(),
    };
    let Some(file) = file else { return found };
    match read_bounded(&file) {
        Ok(text) => {
            let (context, lang, problems) = read(&text);
            found.context = context;
            found.lang = lang;
            found.problems = problems
                .into_iter()
                .map(|p| format!("{}: {p}", file.display()))
                .collect();
        }
        Err(e) => found.problems.push(format!("{}: {e}", file.display())),
    }
    found
}

/// Largest `ds-studio.toml` read (a real one is a few lines).
pub const MAX_TOML_BYTES: u64 = 64 << 10;
/// Most problems reported of one `ds-studio.toml` (then how many more).
pub const MAX_PROBLEMS: usize = 20;

/// The file's text, refused past [`MAX_TOML_BYTES`] (read up to one byte more, whatever it is).
fn read_bounded(file: &Path) -> std::io::Result<String> {
    crate::bounded_read::text(
        std::fs::File::open(file)?,
        MAX_TOML_BYTES,
        ": ds-studio.toml holds a few settings; not read",
    )
}

/// The context a `ds-studio.toml` text describes, and every problem in it (a bad key keeps its
/// default, the others still count).
pub fn read(text: &str) -> (Context, Option<Lang>, Vec<String>) {
    let mut ctx = Context::default();
    let mut problems = Vec::new();
    let table: toml::Table = match toml::from_str(text) {
        Ok(t) => t,
        Err(e) => {
            let at = e
                .span()
                .map(|s| format!(" at line {}", text[..s.start].matches('\n').count() + 1))
                .unwrap_or_default();
            problems.push(format!("not TOML{at}: {}", e.message()));
            return (ctx, None, problems);
        }
    };
    let unknown = table.keys().filter(|k| !KEYS.contains(&k.as_str())).count();
    for key in table
        .keys()
        .filter(|k| !KEYS.contains(&k.as_str()))
        .take(MAX_PROBLEMS)
    {
        let hint = KEYS
            .iter()
            .max_by(|a, b| strsim::jaro_winkler(key, a).total_cmp(&strsim::jaro_winkler(key, b)))
            .filter(|k| strsim::jaro_winkler(key, k) > 0.8)
            .map(|k| format!("; did you mean `{k}`?"))
            .unwrap_or_default();
        problems.push(format!(
            "unknown key `{key}`{hint} (keys: {})",
            KEYS.join(", ")
        ));
    }
    if unknown > MAX_PROBLEMS {
        problems.push(format!(
            "{} more unknown keys not listed",
            unknown - MAX_PROBLEMS
        ));
    }
    let string = |key: &str, problems: &mut Vec<String>| -> Option<String> {
        match table.get(key)? {
            toml::Value::String(s) => Some(s.clone()),
            other => {
                problems.push(format!("{key} must be a string, found {other}"));
                None
            }
        }
    };
    if let Some(r) = string("deepspeed", &mut problems) {
        match Release::parse(&r) {
            Ok(_) => ctx.deepspeed_version = r,
            Err(_) if r == "auto" => problems.push("deepspeed = \"auto\" works on the command line only (it asks the Python on PATH); name the release here, e.g. \"0.18.4\"".into()),
            Err(e) => problems.push(format!("deepspeed: {e}")),
        }
    }
    if let Some(l) = string("launcher", &mut problems) {
        match l.parse::<Launcher>() {
            Ok(l) => ctx.launcher = l,
            Err(e) => problems.push(format!("launcher: {e}")),
        }
    }
    let count = |key: &str, problems: &mut Vec<String>| -> u32 {
        match table.get(key) {
            None => 1,
            Some(toml::Value::Integer(n)) if (1..=1_000_000).contains(n) => *n as u32,
            Some(other) => {
                problems.push(format!(
                    "{key} must be a whole number from 1, found {other}"
                ));
                1
            }
        }
    };
    ctx.world_size = count("world_size", &mut problems);
    ctx.tensor_parallel = count("tensor_parallel", &mut problems);
    ctx.pipeline_parallel = count("pipeline_parallel", &mut problems);
    ctx.sequence_parallel = count("sequence_parallel", &mut problems);
    if let Some(t) = string("trainer_args", &mut problems) {
        match TrainerArgs::parse_pairs(&t) {
            Ok(args) => {
                ctx.trainer = Some(args);
                if !table.contains_key("launcher") {
                    ctx.launcher = Launcher::HfTrainer;
                }
            }
            Err(e) => problems.push(format!("trainer_args: {e}")),
        }
    }
    let lang = match string("lang", &mut problems).map(|l| l.parse::<Lang>()) {
        Some(Ok(l)) => Some(l),
        Some(Err(e)) => {
            problems.push(format!("lang: {e}"));
            None
        }
        None => None,
    };
    (ctx, lang, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_context_and_names_what_is_wrong() {
        let (ctx, lang, problems) = read(
            "deepspeed = \"0.18.4\"\nlauncher = \"accelerate\"\nworld_size = 8\nlang = \"zh\"\n",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(ctx.deepspeed_version, "0.18.4");
        assert_eq!(ctx.launcher, Launcher::Accelerate);
        assert_eq!(ctx.world_size, 8);
        assert_eq!(lang, Some(Lang::Zh));
        let (ctx, _, _) = read("trainer_args = \"per_device_train_batch_size=4\"");
        assert_eq!(ctx.launcher, Launcher::HfTrainer);
        // Every mistake is named, and the good keys still count.
        let (ctx, lang, problems) = read(
            "deepspeed = \"0.18.4\"\nlauncher = \"torchrun\"\nworld_sise = 8\nworld_size = 0\ntensor_parallel = \"2\"\ntrainer_args = \"nope\"\nlang = \"fr\"\n",
        );
        assert_eq!(ctx.deepspeed_version, "0.18.4");
        assert_eq!(lang, None);
        let all = problems.join("\n");
        for word in [
            "torchrun",
            "did you mean `world_size`",
            "world_size must be a whole number from 1",
            "tensor_parallel must be",
            "key=value",
            "fr",
        ] {
            assert!(all.contains(word), "{word}: {all}");
        }
        let (_, _, p) = read("deepspeed = \"auto\"");
        assert!(p[0].contains("command line only"), "{p:?}");
        let (_, _, p) = read("deepspeed = ");
        assert!(p[0].starts_with("not TOML at line 1"), "{p:?}");
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
        assert!(found.problems.iter().any(|p| p.contains("launcher")));
        assert_eq!(
            found.context.world_size, 1,
            "the nearest file counts, not its parent"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
