//! `ds-studio explain KEY [--lang zh] [--deepspeed X.Y.Z]`: a key's documentation, with its
//! default and strictness in that release and the releases it holds for.

use ds_studio_shared::i18n::Lang;
use ds_studio_shared::registry::described;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Dotted key path, e.g. `zero_optimization.offload_param.device`.
    pub key: String,
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
    /// The DeepSpeed release (0.14.4 – 0.19.8) or `auto`.
    #[arg(long = "deepspeed", value_name = "X.Y.Z|auto", default_value = "0.19.8", value_parser = super::release_arg::parse)]
    pub release: ds_studio_shared::Release,
}

pub fn run(args: Args) -> i32 {
    let reg = described();
    let Some(spec) = reg.explain(&args.key) else {
        let (parent, leaf) = args.key.rsplit_once('.').unwrap_or(("", &args.key));
        match reg.suggest(parent, leaf) {
            Some(s) => eprintln!(
                "ds-studio: unknown key '{}'; did you mean '{}'?",
                args.key, s.path
            ),
            None => eprintln!("ds-studio: unknown key '{}'", args.key),
        }
        return 2;
    };
    let lang: Lang = args.lang.parse().unwrap_or_default();
    let doc = if lang == Lang::Zh {
        &spec.doc.zh
    } else {
        &spec.doc.en
    };
    println!("{}", spec.path);
    println!("  {doc}");
    let types: Vec<String> = spec
        .types
        .iter()
        .map(|t| format!("{t:?}").to_lowercase())
        .collect();
    println!(
        "  type:    {}{}",
        types.join(" | "),
        if spec.nullable { " | null" } else { "" }
    );
    let release = args.release;
    if let Some(d) = spec.default_text_at(release) {
        println!("  default: {d} (DeepSpeed {release})");
    }
    if let Some(history) = spec.default_history() {
        println!("  default by release: {history}");
    }
    if let Some(a) = ds_studio_shared::registry::plain::allowed_at(spec, release, false) {
        println!("  allowed: {a}");
    }
    println!(
        "  checked: {}",
        if reg.mode(spec, release) == ds_studio_shared::registry::Mode::Strict {
            "strictly (pydantic: unknown keys and wrong types are rejected)"
        } else {
            "loosely (read with dict.get)"
        }
    );
    if let Some(r) = &spec.replaced_by {
        println!("  deprecated: use {r}");
    }
    if let Some(since) = spec.since {
        println!("  since:   DeepSpeed {since}");
    }
    if let (Some(until), None) = (spec.until, spec.removed_in) {
        println!("  dropped: in DeepSpeed {until} (silently ignored from then on)");
    }
    if let (Some(from), Some(r)) = (spec.removed_in, &spec.removed) {
        println!("  removed: in DeepSpeed {from}: {r}");
    }
    if !spec.known_in(release) {
        println!("  note:    DeepSpeed {release} does not read this key");
    }
    if let Some(s) = &spec.source {
        println!("  source:  {s}");
    }
    0
}
