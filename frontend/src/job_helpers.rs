//! What the runs table, the job page, compare and sweeps all say of a job: how long it ran
//! ([`duration`]), the CSS class of its state ([`state_class`]), its launcher's name
//! ([`launcher_name`]), and "Run again" ([`run_again`]).

use crate::api;
use crate::clock::parse_ms;
use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Job, JobState};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// `12 s`, `3 min 4 s`: how long a job ran (or has been running).
pub fn duration(job: &Job, now_ms: f64) -> String {
    duration_in(job, now_ms, ds_studio_shared::i18n::Lang::En)
}

/// [`duration`] in `lang` (`3 分 4 秒`).
pub fn duration_in(job: &Job, now_ms: f64, lang: ds_studio_shared::i18n::Lang) -> String {
    let parse = |s: &Option<String>| s.as_deref().and_then(parse_ms);
    let Some(start) = parse(&job.started_at) else {
        return "—".into();
    };
    let end = parse(&job.finished_at).unwrap_or(now_ms);
    let secs = ((end - start) / 1000.0).max(0.0).round() as i64;
    if lang == ds_studio_shared::i18n::Lang::Zh {
        ds_studio_shared::api::human_duration_zh(secs)
    } else {
        ds_studio_shared::api::human_duration(secs)
    }
}

/// The CSS class of a state: done well, done badly, stopped, or live.
pub fn state_class(s: JobState) -> &'static str {
    match s {
        JobState::Succeeded => "state ok",
        JobState::Failed | JobState::Lost => "state bad",
        JobState::Cancelled => "state muted",
        JobState::Queued | JobState::Running => "state live",
    }
}

/// "Run again": submits `job`'s version once more with its settings (asking for the values
/// of its secret variables, which the server forgets when a job ends) and opens the new job.
pub fn run_again(job: &Job, error: RwSignal<Option<String>>, navigate: impl Fn(&str) + 'static) {
    let (mut req, secrets) = ds_studio_shared::api::run_again(job);
    let mut values = std::collections::BTreeMap::new();
    for name in secrets {
        let asked = leptos::prelude::window()
            .prompt_with_message(&format!("{} {name}", t("jobs.secret_value")()))
            .ok()
            .flatten();
        match asked {
            Some(v) => {
                values.insert(name, v);
            }
            None => return,
        }
    }
    req.secret_env = (!values.is_empty()).then_some(values);
    spawn_local(async move {
        match api::call(ep::SubmitJob::url([]), &req).await {
            Ok(j) => navigate(&format!("/jobs/{}", j.id)),
            Err(e) => error.set(Some(e.message)),
        }
    });
}

/// A launcher's name as people say it.
pub fn launcher_name(launcher: &str) -> String {
    match launcher {
        "hf-trainer" => "HF Trainer".into(),
        "accelerate" => "Accelerate".into(),
        "" | "deepspeed" => "deepspeed".into(),
        other => other.into(),
    }
}
