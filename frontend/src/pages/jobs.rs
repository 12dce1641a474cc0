//! `/jobs`: every job the caller can see, newest first, refreshed while any is queued or
//! running.

use crate::api;
use crate::clock::js_sys_now;
use crate::i18n::t;
use ds_studio_shared::api::{Job, JobState, Page};
use leptos::prelude::*;
use leptos_router::components::A;

/// `12 s`, `3 min 4 s`: how long a job ran (or has been running).
pub fn duration(job: &Job, now_ms: f64) -> String {
    let parse = |s: &Option<String>| s.as_deref().and_then(parse_ms);
    let Some(start) = parse(&job.started_at) else {
        return "—".into();
    };
    let end = parse(&job.finished_at).unwrap_or(now_ms);
    ds_studio_shared::api::human_duration(((end - start) / 1000.0).max(0.0).round() as i64)
}

/// Milliseconds of an RFC 3339 UTC time as the server writes it (`2026-11-21T21:46:51.712Z`).
pub fn parse_ms(s: &str) -> Option<f64> {
    let (date, time) = s.trim_end_matches('Z').split_once('T')?;
    let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut tp = time.split(':');
    let (h, mi) = (
        tp.next()?.parse::<i64>().ok()?,
        tp.next()?.parse::<i64>().ok()?,
    );
    let sec: f64 = tp.next()?.parse().ok()?;
    // Days since 1970-01-01 (proleptic Gregorian), Howard Hinnant's algorithm.
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146097 + doe - 719468;
    Some(((days * 86400 + h * 3600 + mi * 60) as f64 + sec) * 1000.0)
}

pub fn state_class(s: JobState) -> &'static str {
    match s {
        JobState::Succeeded => "state ok",
        JobState::Failed | JobState::Lost => "state bad",
        JobState::Cancelled => "state muted",
        JobState::Queued | JobState::Running => "state live",
    }
}

#[component]
pub fn JobsPage() -> impl IntoView {
    let tick = RwSignal::new(0u32);
    let selected = RwSignal::new(Vec::<i64>::new());
    let jobs = api::fetched::<Page<Job>>(move || {
        tick.get();
        "/api/v1/jobs?limit=100".to_string()
    });
    // Poll while something is live.
    let handle = set_interval_with_handle(
        move || {
            let live = jobs.with_untracked(|r| {
                r.as_ref()
                    .and_then(|r| r.as_ref().ok())
                    .is_some_and(|p| p.items.iter().any(|j| !j.state.is_terminal()))
            });
            if live {
                tick.update(|t| *t += 1);
            }
        },
        std::time::Duration::from_secs(3),
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = handle {
            h.clear();
        }
    });
    view! {
        <section class="card">
            <h2>{t("jobs.title")}</h2>
            <div class="toolbar">
                <A href=move || format!("/jobs/compare/{}", selected.with(|s| s.iter().map(i64::to_string).collect::<Vec<_>>().join(",")))
                    attr:id="compare-jobs" attr:aria-disabled=move || selected.with(Vec::is_empty).to_string()>{t("jobs.compare")}</A>
            </div>

                {move || jobs.get().map(|r| match r {
                    Err(e) => view! { <p class="error" role="alert">{e.message}</p> }.into_any(),
                    Ok(p) if p.items.is_empty() => view! { <p>{t("jobs.empty")}</p> }.into_any(),
                    Ok(p) => {
                        let now = js_sys_now();
                        view! {
                            <table id="jobs">
                                <thead><tr>
                                    <th></th><th>"#"</th><th>{t("jobs.state")}</th><th>{t("jobs.config")}</th>
                                    <th>{t("jobs.workload")}</th><th>{t("jobs.runner")}</th><th>{t("jobs.duration")}</th>
                                </tr></thead>
                                <tbody>
                                    {p.items.into_iter().map(|j| view! {
                                        <tr data-id=j.id>
                                            <td><input type="checkbox" class="pick" aria-label=format!("compare job {}", j.id)
                                                prop:checked=move || selected.with(|s| s.contains(&j.id))
                                                on:change=move |_| selected.update(|s| if let Some(i) = s.iter().position(|x| *x == j.id) { s.remove(i); } else { s.push(j.id); }) /></td>
                                            <td><A href=format!("/jobs/{}", j.id)>{j.id}</A></td>
                                            <td><span class=state_class(j.state)>{j.state.as_str()}</span></td>
                                            <td><A href=format!("/templates/{}/v/{}", j.template_id, j.version)>{format!("{}@{}", j.template_name, j.version)}</A></td>
                                            <td>{format!("{} · {}×{}", j.workload.label(), j.nodes, j.gpus)}</td>
                                            <td>{j.runner.clone().unwrap_or_else(|| "—".into())}</td>
                                            <td>{duration(&j, now)}</td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        }.into_any()
                    }
                }).unwrap_or_else(api::loading)}

        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_times_parse_and_durations_read_well() {
        assert_eq!(parse_ms("1970-01-01T00:00:01.5Z"), Some(1500.0));
        assert_eq!(
            parse_ms("2026-11-21T21:46:51.712Z"),
            Some(1_795_297_611_712.0)
        );
        let mut j: Job = serde_json::from_value(serde_json::json!({
            "id": 1, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
            "state": "succeeded", "workload": {"builtin": "gpt"}, "gpus": 1, "nodes": 1,
            "max_steps": 20, "created_by": "a", "created_at": "2026-11-21T21:46:51.712Z",
            "started_at": "2026-11-21T21:46:51.714Z", "finished_at": "2026-11-21T21:47:54.481Z",
            "last_seq": 3, "cancel_requested": false
        }))
        .unwrap();
        assert_eq!(duration(&j, 0.0), "1 min 3 s");
        j.started_at = None;
        assert_eq!(duration(&j, 0.0), "—");
    }
}
