//! What the server writes in English and the UI shows in its language: how a job ended, and
//! the messages the server gives versions it makes itself. The runner and the server write them
//! in English (the API and the CLI show them as written); in 中文 the job page, the history and
//! the version page show them through this catalogue: the fixed words are translated, what a
//! message quotes (DeepSpeed's own error, a path, an exit code, a name) is kept as written.

use ds_studio_shared::i18n::Lang;

/// `(English, Chinese)`: a pattern matches at the start of a message; `{}` stands for a number
/// (or, before a literal, anything up to it). What follows the match is kept, with its leading
/// `": "` written `"："`.
const PATTERNS: &[(&str, &str)] = &[
    (
        "DeepSpeed rejected the config in preflight: ",
        "预检时 DeepSpeed 拒绝了该配置：",
    ),
    ("preflight failed: ", "预检失败："),
    ("the preflight took longer than {} s", "预检耗时超过 {} 秒"),
    (
        "the training process exited with code {}",
        "训练进程以退出码 {} 结束",
    ),
    (
        "stopped at its time limit of {} s",
        "已达到 {} 秒的时间上限，任务被停止",
    ),
    ("cancelled by a user", "已被用户取消"),
    ("cancelled before it started", "在开始之前已被取消"),
    (
        "stopped because its runner shut down",
        "运行器已关闭，任务随之停止",
    ),
    (
        "its runner stopped sending heartbeats",
        "运行器已停止发送心跳",
    ),
];

/// Suffixes translated wherever they appear at the end.
const SUFFIXES: &[(&str, &str)] = &[(" (refused by the runner)", "（被运行器拒绝）")];

/// `message` as the UI shows it in `lang`.
pub fn job_message(message: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return message.to_string();
    }
    let (body, suffix) = SUFFIXES
        .iter()
        .find_map(|(en, zh)| message.strip_suffix(en).map(|b| (b, *zh)))
        .unwrap_or((message, ""));
    let translated = PATTERNS
        .iter()
        .find_map(|(en, zh)| matched(body, en).map(|(hole, rest)| (zh.replace("{}", hole), rest)));
    match translated {
        Some((head, rest)) => {
            let rest = rest
                .strip_prefix(": ")
                .map_or_else(|| rest.to_string(), |r| format!("：{r}"));
            format!("{head}{rest}{suffix}")
        }
        None => format!("{body}{suffix}"),
    }
}

/// The message of a version the server made itself ("created", "forked from NAME@N (team T)")
/// in `lang`; a message a person wrote is shown as written.
pub fn version_message(message: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return message.to_string();
    }
    if message == "created" {
        return "已创建".into();
    }
    if let Some(id) = message.strip_prefix("from preset ") {
        return format!("来自预设 {id}");
    }
    if let Some(rest) = message.strip_prefix("forked from ") {
        if let Some((what, team)) = rest.rsplit_once(" (team ") {
            if let Some(team) = team.strip_suffix(')') {
                return format!("复刻自 {what}（团队 {team}）");
            }
        }
    }
    message.to_string()
}

/// Matches `pattern` at the start of `text`: the text of its `{}` (if any) and the rest.
fn matched<'a>(text: &'a str, pattern: &str) -> Option<(&'a str, &'a str)> {
    match pattern.split_once("{}") {
        None => text.strip_prefix(pattern).map(|rest| ("", rest)),
        Some((pre, post)) => {
            let after = text.strip_prefix(pre)?;
            let len = after
                .find(|c: char| !c.is_ascii_digit() && c != '-')
                .unwrap_or(after.len());
            if len == 0 {
                return None;
            }
            let (hole, rest) = after.split_at(len);
            Some((hole, rest.strip_prefix(post)?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_words_are_translated_and_quotes_kept() {
        let zh = |m: &str| job_message(m, Lang::Zh);
        assert_eq!(
            zh("DeepSpeed rejected the config in preflight: ValueError: bad stage"),
            "预检时 DeepSpeed 拒绝了该配置：ValueError: bad stage"
        );
        assert_eq!(
            zh("the training process exited with code 1: RuntimeError: CUDA out of memory"),
            "训练进程以退出码 1 结束：RuntimeError: CUDA out of memory"
        );
        assert_eq!(
            zh("the training process exited with code -9"),
            "训练进程以退出码 -9 结束"
        );
        assert_eq!(
            zh("stopped at its time limit of 600 s"),
            "已达到 600 秒的时间上限，任务被停止"
        );
        assert_eq!(zh("cancelled by a user"), "已被用户取消");
        assert_eq!(
            zh("script outside the allowed directories (refused by the runner)"),
            "script outside the allowed directories（被运行器拒绝）"
        );
        // English is left alone, and a message nobody catalogued is shown as written.
        assert_eq!(
            job_message("cancelled by a user", Lang::En),
            "cancelled by a user"
        );
        assert_eq!(zh("something new"), "something new");
    }

    #[test]
    fn versions_the_server_made_are_said_in_chinese() {
        assert_eq!(version_message("created", Lang::Zh), "已创建");
        assert_eq!(
            version_message("forked from llama (fork 2)@3 (team default)", Lang::Zh),
            "复刻自 llama (fork 2)@3（团队 default）"
        );
        assert_eq!(version_message("bigger batch", Lang::Zh), "bigger batch");
        assert_eq!(version_message("created", Lang::En), "created");
    }

    /// Every pattern is a message the backend writes: renaming one there fails here.
    #[test]
    fn every_pattern_is_written_by_the_backend() {
        let sources = [
            include_str!("../../backend/runner/src/job.rs"),
            include_str!("../../backend/server/src/store/jobs.rs"),
        ]
        .concat();
        let templates = [
            include_str!("../../backend/server/src/api/templates.rs"),
            include_str!("../../backend/server/src/domain/templates.rs"),
        ]
        .concat();
        assert!(templates.contains(r#"unwrap_or("created")"#));
        assert!(templates.contains(r#"format!("forked from {}@{} (team {})""#));
        for (en, _) in PATTERNS.iter().chain(SUFFIXES) {
            let head = en.split("{}").next().unwrap_or(en);
            assert!(
                sources.contains(head),
                "no backend message starts with {en:?}"
            );
        }
    }
}
