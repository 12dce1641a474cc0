//! The schema's texts in the chosen language: descriptions (plain and Markdown), the messages
//! editors show when a value is refused (`errorMessage`) or only warned about
//! (`deprecationMessage`, which VS Code reports as a warning), and what `"auto"` means for the
//! launcher.

use crate::i18n::{Lang, Text};
use crate::registry::{described, KeySpec, Mode, Ty};
use crate::release::Release;
use crate::Launcher;

/// English or Chinese, as chosen.
pub(super) fn pick(lang: Lang, en: impl Into<String>, zh: impl Into<String>) -> String {
    Text::new(en, zh).get(lang).to_string()
}

/// "an integer", "a number or null", "0, 1, 2 or 3" ... for a key's message.
pub(super) fn expected(spec: &KeySpec, lang: Lang) -> String {
    if !spec.r#enum.is_empty() && !spec.accepts(Ty::Array) {
        return pick(
            lang,
            format!("one of {}", spec.r#enum.join(", ")),
            format!("{} 之一", spec.r#enum.join("、")),
        );
    }
    let words: Vec<String> = spec
        .types
        .iter()
        .filter_map(|t| {
            let (en, zh) = match t {
                Ty::Int => ("an integer", "整数"),
                Ty::Float | Ty::Number => ("a number", "数字"),
                Ty::Bool => ("a boolean", "布尔值"),
                Ty::String => ("a string", "字符串"),
                Ty::Object => ("an object", "对象"),
                Ty::Array => ("a list", "列表"),
                Ty::Auto => ("\"auto\"", "\"auto\""),
                Ty::Any => return None,
            };
            Some(pick(lang, en, zh))
        })
        .collect();
    let or = pick(lang, " or ", " 或 ");
    words.join(&or)
}

/// The message of a value a strict key refuses.
pub(super) fn refused(spec: &KeySpec, lang: Lang) -> String {
    let (en_why, zh_why) = if let Some(step) = &spec.fails_at_step {
        (
            format!("training fails at the first step with {step}"),
            format!("训练第一步就会失败（{step}）"),
        )
    } else if let Some(start) = &spec.fails_at_start {
        (
            format!("DeepSpeed parses it, then fails when the engine starts with {start}"),
            format!("DeepSpeed 解析时接受，但启动引擎时会失败（{start}）"),
        )
    } else {
        (
            "DeepSpeed's pydantic check refuses this value".to_string(),
            "DeepSpeed 的 pydantic 校验会拒绝这个值".to_string(),
        )
    };
    pick(
        lang,
        format!(
            "`{}` must be {}: {en_why}",
            spec.path,
            expected(spec, Lang::En)
        ),
        format!(
            "`{}` 必须是 {}：{zh_why}",
            spec.path,
            expected(spec, Lang::Zh)
        ),
    )
}

/// The warning on a key an open section does not know (DeepSpeed ignores it); editors show it
/// on the key itself.
/// A key the release does not have but another does: when it arrived or was last read, and
/// what this release does with it (a closed section refuses it, an open one ignores it).
pub(super) fn not_in_release(spec: &KeySpec, release: Release, closed: bool, lang: Lang) -> String {
    let path = &spec.path;
    let (does_en, does_zh) = if closed {
        ("rejects it", "会拒绝它")
    } else {
        ("silently ignores it", "会静默忽略它")
    };
    match (spec.since, spec.until) {
        (Some(since), _) if release < since => pick(
            lang,
            format!("`{path}` arrived in DeepSpeed {since}: DeepSpeed {release} {does_en}"),
            format!("`{path}` 自 DeepSpeed {since} 起才有：DeepSpeed {release} {does_zh}"),
        ),
        (_, Some(until)) => {
            let last = until.previous().map(|r| r.to_string()).unwrap_or_default();
            pick(
                lang,
                format!("`{path}` is not read from DeepSpeed {until} on (the last release that reads it is {last}): DeepSpeed {release} {does_en}"),
                format!("DeepSpeed {until} 起不再读取 `{path}`（最后读取它的版本是 {last}）：DeepSpeed {release} {does_zh}"),
            )
        }
        _ => unknown_key(path.rsplit_once('.').map_or("", |(p, _)| p), lang),
    }
}

pub(super) fn unknown_key(path: &str, lang: Lang) -> String {
    if path.is_empty() {
        pick(
            lang,
            "DeepSpeed reads no top-level key by this name: it ignores it silently (a typo?)",
            "DeepSpeed 不读取这个顶层键，会静默忽略（拼写错误？）",
        )
    } else {
        pick(
            lang,
            format!(
                "DeepSpeed reads no key by this name in `{path}`: it ignores it silently (a typo?)"
            ),
            format!("DeepSpeed 不读取 `{path}` 中的这个键，会静默忽略（拼写错误？）"),
        )
    }
}

/// The short warning on a removed key (the error beside it says why and what instead).
pub(super) fn removed_short(spec: &KeySpec, lang: Lang) -> String {
    let since = spec.removed_in.unwrap_or_else(Release::newest);
    pick(
        lang,
        format!("removed in DeepSpeed {since}"),
        format!("已在 DeepSpeed {since} 中移除"),
    )
}

/// The warning on a value of another type where DeepSpeed reads the key with `dict.get`.
pub(super) fn lax_mismatch(spec: &KeySpec, lang: Lang) -> String {
    pick(
        lang,
        format!(
            "`{}` should be {}: DeepSpeed reads it with dict.get and does not check it, so a value of another type goes through as it is",
            spec.path,
            expected(spec, Lang::En)
        ),
        format!(
            "`{}` 应为 {}：DeepSpeed 用 dict.get 读取且不检查类型，其他类型的值会原样传下去",
            spec.path,
            expected(spec, Lang::Zh)
        ),
    )
}

/// What `"auto"` means at `path` for a launcher.
pub(super) enum Auto {
    /// Taken: DeepSpeed's own `"auto"`, or a launcher that fills it.
    Taken,
    /// Accepted, with a warning.
    Warned(String),
    /// Refused, with why.
    Refused(String),
}

/// The batch keys: DeepSpeed's arithmetic fails on a string.
const BATCH: [&str; 3] = [
    "train_batch_size",
    "train_micro_batch_size_per_gpu",
    "gradient_accumulation_steps",
];

/// Where the HF Trainer or Accelerate fill `"auto"` (`trainer_config_process`,
/// `trainer_config_finalize`, and accelerate's own defaults in `_prepare_deepspeed`). Plain
/// Accelerate fills neither the Adam betas nor eps.
pub(super) fn hf_fills(launcher: Launcher, path: &str) -> bool {
    if launcher == Launcher::Accelerate
        && matches!(path, "optimizer.params.betas" | "optimizer.params.eps")
    {
        return false;
    }
    crate::AUTO_KEYS.contains(&path)
        || path == "zero_optimization.stage3_gather_16bit_weights_on_model_save"
}

/// How the launcher treats `"auto"` at `path` (a key read `mode`).
pub(super) fn auto(launcher: Launcher, path: &str, mode: Mode, lang: Lang) -> Auto {
    if launcher.fills_auto() {
        if hf_fills(launcher, path) {
            return Auto::Taken;
        }
        let who = match launcher {
            Launcher::Accelerate => ("Accelerate", "Accelerate"),
            _ => ("the HF Trainer", "HF Trainer"),
        };
        return Auto::Refused(pick(
            lang,
            format!("`{path}` is \"auto\" but {} does not fill this key and refuses it: \"`{path}` not found in kwargs. Please specify `{path}` without `auto`\"; write the value", who.0),
            format!("`{path}` 为 \"auto\"，但 {} 不填充这个键并会报错（\"`{path}` not found in kwargs\"）；请写出具体的值", who.1),
        ));
    }
    if BATCH.contains(&path) {
        return Auto::Refused(pick(
            lang,
            format!("`{path}` is \"auto\": only the HF Trainer and Accelerate fill it in; the plain deepspeed launcher passes the string on and DeepSpeed's batch arithmetic fails (choose launcher hf-trainer, or write the number)"),
            format!("`{path}` 为 \"auto\"：只有 HF Trainer/Accelerate 会替换它；直接用 deepspeed 启动时 DeepSpeed 的 batch 计算会出错（请选择 hf-trainer 启动器，或写出数值）"),
        ));
    }
    Auto::Warned(if mode == Mode::Strict {
        pick(
            lang,
            format!("`{path}` is \"auto\": only the HF Trainer and Accelerate fill it in; under the plain deepspeed launcher DeepSpeed silently drops it and uses the default"),
            format!("`{path}` 为 \"auto\"：只有 HF Trainer/Accelerate 会替换它；直接用 deepspeed 启动时会被静默丢弃并使用默认值"),
        )
    } else {
        pick(
            lang,
            format!("`{path}` is \"auto\": only the HF Trainer and Accelerate fill it in; under the plain deepspeed launcher DeepSpeed gets the string \"auto\" and fails when it uses it"),
            format!("`{path}` 为 \"auto\"：只有 HF Trainer/Accelerate 会替换它；直接用 deepspeed 启动时 DeepSpeed 拿到字符串 \"auto\"，使用时会出错"),
        )
    })
}

/// A key the release rejects whatever its value.
pub(super) fn removed(spec: &KeySpec, release: Release, why: &str, lang: Lang) -> String {
    let since = spec.removed_in.unwrap_or_else(Release::newest);
    let last = since.previous().map(|r| r.to_string()).unwrap_or_default();
    pick(
        lang,
        format!("`{}` was removed in DeepSpeed {since} (the last release with it is {last}); DeepSpeed {release} refuses it: {why}", spec.path),
        format!("`{}` 已在 DeepSpeed {since} 中移除（最后支持它的版本是 {last}）；DeepSpeed {release} 会拒绝它：{why}", spec.path),
    )
}

/// A deprecated key, with its replacement when it has one.
pub(super) fn deprecated(spec: &KeySpec, lang: Lang) -> String {
    match &spec.replaced_by {
        Some(r) => pick(
            lang,
            format!("`{}` is deprecated: use `{r}`", spec.path),
            format!("`{}` 已弃用：请改用 `{r}`", spec.path),
        ),
        None => pick(
            lang,
            format!("`{}` is deprecated", spec.path),
            format!("`{}` 已弃用", spec.path),
        ),
    }
}

/// The key's documentation as plain text.
pub(super) fn description(spec: &KeySpec, lang: Lang) -> String {
    let doc = match lang {
        Lang::Zh if !spec.doc.zh.is_empty() => &spec.doc.zh,
        _ => &spec.doc.en,
    };
    if doc.is_empty() {
        spec.notes.clone().unwrap_or_default()
    } else {
        doc.clone()
    }
}

/// The hover: the documentation, then the facts for this release and launcher.
pub(super) fn markdown(spec: &KeySpec, release: Release, launcher: Launcher, lang: Lang) -> String {
    let mut out = format!("**`{}`**\n\n{}", spec.path, description(spec, lang));
    let mut facts: Vec<String> = Vec::new();
    if let Some(d) = spec.default_text_at(release) {
        facts.push(pick(
            lang,
            format!("Default: `{d}`"),
            format!("默认值：`{d}`"),
        ));
    }
    if let Some(a) = crate::registry::plain::allowed_at(spec, release, false) {
        let zh = crate::registry::plain::allowed_at(spec, release, true).unwrap_or_default();
        facts.push(pick(lang, format!("Allowed: {a}"), format!("取值：{zh}")));
    }
    if let Some(since) = spec.since {
        facts.push(pick(
            lang,
            format!("Since DeepSpeed {since}"),
            format!("自 DeepSpeed {since} 起"),
        ));
    }
    if let Some(r) = spec
        .removed_in
        .or(spec.removed.as_ref().map(|_| Release::newest()))
    {
        facts.push(pick(
            lang,
            format!("Removed in DeepSpeed {r}"),
            format!("已在 DeepSpeed {r} 中移除"),
        ));
    }
    facts.push(if described().mode(spec, release) == Mode::Strict {
        pick(
            lang,
            format!("DeepSpeed {release} checks it with pydantic"),
            format!("DeepSpeed {release} 用 pydantic 校验"),
        )
    } else if spec.fails_at_start.is_some() {
        pick(
            lang,
            format!(
                "DeepSpeed {release} reads it with dict.get and checks it when the engine starts"
            ),
            format!("DeepSpeed {release} 用 dict.get 读取，启动引擎时校验"),
        )
    } else {
        pick(
            lang,
            format!("DeepSpeed {release} reads it with dict.get (unchecked)"),
            format!("DeepSpeed {release} 用 dict.get 读取（不校验）"),
        )
    });
    if launcher.fills_auto() && hf_fills(launcher, &spec.path) {
        facts.push(pick(
            lang,
            format!(
                "`\"auto\"`: filled by {}",
                launcher_name(launcher, Lang::En)
            ),
            format!("`\"auto\"`：由 {} 填充", launcher_name(launcher, Lang::Zh)),
        ));
    }
    if !facts.is_empty() {
        out.push_str("\n\n");
        out.push_str(&facts.join("  \n"));
    }
    out
}

pub(super) fn launcher_name(launcher: Launcher, lang: Lang) -> String {
    match launcher {
        Launcher::Deepspeed => pick(lang, "the deepspeed launcher", "deepspeed 启动器"),
        Launcher::HfTrainer => pick(lang, "the HF Trainer", "HF Trainer"),
        Launcher::Accelerate => pick(lang, "Accelerate", "Accelerate"),
    }
}
