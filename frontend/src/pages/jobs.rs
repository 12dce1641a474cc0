//! `/jobs`: the runs table: every job the caller can see, sorted, filtered and paged on the
//! server by the `RunsQuery` in the page's URL, refreshed while any is queued or running; and
//! "Run again" (`job_helpers::run_again`, also on the job page).

use crate::api;
use crate::clock::js_sys_now;
use crate::i18n::t;
use crate::job_helpers::{duration_in, launcher_name, run_again, state_class};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Job, JobState, RunsQuery};
use leptos::prelude::*;
use leptos_router::components::A;

/// The offload column in the current language (`none` → 无).
pub fn offload_label(offload: &str, lang: ds_studio_shared::i18n::Lang) -> String {
    use ds_studio_shared::i18n::Lang;
    match (offload, lang) {
        ("", _) => "—".into(),
        ("none", Lang::Zh) => "无".into(),
        // `optimizer:cpu param:nvme` → `优化器→cpu 参数→nvme` (the devices are DeepSpeed's words).
        (o, Lang::Zh) => o
            .split(' ')
            .map(|part| match part.split_once(':') {
                Some(("optimizer", device)) => format!("优化器→{device}"),
                Some(("param", device)) => format!("参数→{device}"),
                _ => part.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" "),
        (o, Lang::En) => o.to_string(),
    }
}

/// The query of `pairs` without the pairs it cannot take, and why each was left out.
pub fn lenient_query(pairs: &[(String, String)]) -> (RunsQuery, Vec<String>) {
    let mut kept: Vec<(&str, &str)> = Vec::new();
    let mut problems = Vec::new();
    for (k, v) in pairs {
        let mut trial = kept.clone();
        trial.push((k.as_str(), v.as_str()));
        match RunsQuery::parse(trial.iter().copied()) {
            Ok(_) => kept = trial,
            Err(e) => problems.push(e),
        }
    }
    (
        RunsQuery::parse(kept.iter().copied()).unwrap_or_default(),
        problems,
    )
}

/// The runs table's columns: sort key (`None`: not sortable), i18n key of the heading.
const COLUMNS: &[(Option<&str>, &str)] = &[
    (Some("id"), "jobs.id"),
    (Some("name"), "jobs.name"),
    (Some("state"), "jobs.state"),
    (Some("template"), "jobs.config"),
    (Some("runner"), "jobs.runner"),
    (Some("launcher"), "jobs.launcher"),
    (Some("deepspeed"), "jobs.release"),
    (Some("world"), "jobs.world"),
    (Some("zero_stage"), "jobs.zero"),
    (Some("precision"), "jobs.precision"),
    (Some("offload"), "jobs.offload"),
    (Some("micro_batch"), "jobs.micro"),
    (Some("duration"), "jobs.duration"),
    (Some("final_loss"), "jobs.final_loss"),
    (Some("samples_per_sec"), "jobs.samples"),
    (Some("peak_memory_mb"), "jobs.peak"),
];

/// The sort a heading's click asks for: ascending first, then descending, for the same column.
pub fn next_sort(current: Option<&str>, key: &str) -> String {
    match current {
        Some(c) if c == key => format!("-{key}"),
        _ => key.to_string(),
    }
}

/// `/jobs`: the runs table. Its filters, sort order and page live in the URL (the same query
/// the API reads), so a view can be shared; sorting, filtering and paging happen on the server.
/// It refreshes while any run on the page is queued or running.
#[component]
pub fn JobsPage() -> impl IntoView {
    use leptos_router::hooks::{use_navigate, use_query_map};
    let query_map = use_query_map();
    // The URL's query as the runs table reads it (a bad one is said, and nothing is listed).
    // The URL's query as the runs table reads it: what is wrong in it (an unknown filter, a bad
    // value, say from a link with a tracking parameter) is left out and said, the rest applies.
    let parsed = Memo::new(move |_| {
        query_map.with(|m| {
            let pairs: Vec<(String, String)> = m
                .clone()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            lenient_query(&pairs)
        })
    });
    let query = Memo::new(move |_| parsed.with(|p| Ok::<RunsQuery, String>(p.0.clone())));
    let ignored = Memo::new(move |_| parsed.with(|p| p.1.clone()));
    let tick = RwSignal::new(0u32);
    let selected = RwSignal::new(Vec::<i64>::new());
    let error = RwSignal::new(None::<String>);
    let jobs = api::fetched(move || {
        tick.get();
        ep::ListJobs::url([]).encoded_query(&query.get().unwrap_or_default().to_query_string())
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
    let navigate = use_navigate();
    let nav = StoredValue::new(move |q: RunsQuery| {
        let qs = q.to_query_string();
        navigate(
            &if qs.is_empty() {
                "/jobs".to_string()
            } else {
                format!("/jobs?{qs}")
            },
            leptos_router::NavigateOptions {
                replace: true,
                ..Default::default()
            },
        );
    });
    // Changes the query (back to the first page) and puts it in the URL.
    let set = move |f: Box<dyn FnOnce(&mut RunsQuery)>| {
        let mut q = query.get_untracked().unwrap_or_default();
        f(&mut q);
        q.offset = None;
        nav.with_value(|n| n(q));
    };
    let text_filter = move |name: &'static str| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev);
            let v = v.trim().to_string();
            set(Box::new(move |q| {
                let val = (!v.is_empty()).then_some(v);
                match name {
                    "q" => q.q = val,
                    "tag" => q.tag = val,
                    "deepspeed" => q.deepspeed = val,
                    "runner" => q.runner = val,
                    "launcher" => q.launcher = val,
                    "world" => q.world = val.and_then(|v| v.parse().ok()),
                    "micro_batch" => q.micro_batch = val.and_then(|v| v.parse().ok()),
                    "state" => {
                        q.states = val.and_then(|v| JobState::parse(&v)).into_iter().collect()
                    }
                    "zero_stage" => q.zero_stage = val.and_then(|v| v.parse().ok()),
                    "precision" => q.precision = val,
                    "offload" => q.offload = val,
                    _ => {}
                }
            }));
        }
    };
    let current = move || query.get().unwrap_or_default();
    // Typed filters apply once typing pauses (selects at once).
    let pending = StoredValue::new(None::<leptos::prelude::TimeoutHandle>);
    let typed_filter = move |name: &'static str| {
        move |ev: leptos::ev::Event| {
            if let Some(h) = pending.get_value() {
                h.clear();
            }
            let apply = text_filter(name);
            let handle =
                set_timeout_with_handle(move || apply(ev), std::time::Duration::from_millis(400))
                    .ok();
            pending.set_value(handle);
        }
    };
    let go_page = move |delta: i64| {
        let mut q = query.get_untracked().unwrap_or_default();
        let limit = q.limit.unwrap_or(50);
        q.offset = Some((q.offset.unwrap_or(0) + delta * limit).max(0));
        nav.with_value(|n| n(q));
    };
    let state_value = move || {
        current()
            .states
            .first()
            .map(|s| s.as_str().to_string())
            .unwrap_or_default()
    };
    // "Run again" only where the user may run jobs (editor of the run's team).
    let session = expect_context::<crate::session::Session>();
    let writes_in = move |team: i64| {
        session.0.with(|m| {
            m.as_ref()
                .and_then(|m| crate::components::team_pick::role_in(m, team))
                .is_some_and(|r| r >= ds_studio_shared::api::Role::Editor)
        })
    };
    let again_nav = use_navigate();
    let again = StoredValue::new(move |j: Job| {
        let n = again_nav.clone();
        run_again(&j, error, move |to| n(to, Default::default()));
    });
    let on_sort = Callback::new(move |next: String| set(Box::new(move |q| q.sort = Some(next))));
    let on_tag = Callback::new(move |tag: String| set(Box::new(move |q| q.tag = Some(tag))));
    let on_again = Callback::new(move |j: Job| again.with_value(|a| a(j)));
    view! {
        <section class="card">
            <h2>{t("jobs.title")}</h2>
            <form class="filters" id="run-filters" on:submit=|ev| ev.prevent_default()>
                <label>{t("jobs.search")}" "
                    <input type="search" id="filter-q" prop:value=move || current().q.unwrap_or_default() on:input=typed_filter("q") /></label>
                <label>{t("jobs.state")}" "
                    <select id="filter-state" prop:value=state_value on:change=text_filter("state")>
                        <option value="">{t("jobs.any")}</option>
                        {["queued", "running", "succeeded", "failed", "cancelled", "lost"].into_iter().map(|s| view! {
                            <option value=s selected=move || state_value() == s>{crate::i18n::job_state(s)}</option>
                        }).collect_view()}
                    </select></label>
                <label>{t("jobs.launcher")}" "
                    <select id="filter-launcher" on:change=text_filter("launcher")>
                        <option value="">{t("jobs.any")}</option>
                        {["deepspeed", "hf-trainer", "accelerate"].into_iter().map(|l| view! {
                            <option value=l selected=move || current().launcher.as_deref() == Some(l)>{launcher_name(l)}</option>
                        }).collect_view()}
                    </select></label>
                <label>"ZeRO "
                    <select id="filter-zero" on:change=text_filter("zero_stage")>
                        <option value="">{t("jobs.any")}</option>
                        {["0", "1", "2", "3"].into_iter().map(|z| view! {
                            <option value=z selected=move || current().zero_stage.map(|s| s.to_string()).as_deref() == Some(z)>{z}</option>
                        }).collect_view()}
                    </select></label>
                <label>{t("jobs.precision")}" "
                    <select id="filter-precision" on:change=text_filter("precision")>
                        <option value="">{t("jobs.any")}</option>
                        {ds_studio_shared::api::PRECISIONS.iter().map(|p| view! {
                            <option value=*p selected=move || current().precision.as_deref() == Some(*p)>{*p}</option>
                        }).collect_view()}
                    </select></label>
                <label>{t("jobs.offload")}" "
                    <select id="filter-offload" on:change=text_filter("offload")>
                        <option value="">{t("jobs.any")}</option>
                        {[("none", "jobs.offload_none"), ("any", "jobs.offload_any"), ("cpu", "jobs.offload_cpu"), ("nvme", "jobs.offload_nvme")].into_iter().map(|(v, k)| view! {
                            <option value=v selected=move || current().offload.as_deref() == Some(v)>{t(k)}</option>
                        }).collect_view()}
                    </select></label>
                <label>{t("jobs.world")}" "
                    <input type="number" min="1" id="filter-world" class="narrow" prop:value=move || current().world.map(|w| w.to_string()).unwrap_or_default() on:input=typed_filter("world") /></label>
                <label>{t("jobs.micro")}" "
                    <input type="number" min="1" id="filter-micro" class="narrow" prop:value=move || current().micro_batch.map(|w| w.to_string()).unwrap_or_default() on:input=typed_filter("micro_batch") /></label>
                <label>{t("jobs.release")}" "
                    <input type="text" id="filter-release" class="narrow" placeholder="0.19.8" prop:value=move || current().deepspeed.unwrap_or_default() on:input=typed_filter("deepspeed") /></label>
                <label>{t("jobs.tag")}" "
                    <input type="text" id="filter-tag" class="narrow" prop:value=move || current().tag.unwrap_or_default() on:input=typed_filter("tag") /></label>
                <A href="/jobs" attr:id="filter-clear">{t("jobs.clear_filters")}</A>
            </form>
            <div class="toolbar">
                <A href=move || format!("/jobs/compare/{}", selected.with(|s| s.iter().map(i64::to_string).collect::<Vec<_>>().join(",")))
                    attr:id="compare-jobs" attr:aria-disabled=move || selected.with(Vec::is_empty).to_string()>{t("jobs.compare")}</A>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || {
                let problems = ignored.get();
                (!problems.is_empty()).then(|| view! {
                    <div class="notice" id="runs-query-problems" role="status">
                        <strong>{t("jobs.ignored")}</strong>
                        <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                    </div>
                })
            }}
                {move || jobs.get().map(|r| match r {
                    Err(e) => view! { <p class="error" role="alert" id="runs-error">{e.message}</p> }.into_any(),
                    Ok(p) if p.items.is_empty() && p.total == 0 && current() == RunsQuery::default() => view! { <p>{t("jobs.empty")}</p> }.into_any(),
                    Ok(p) => {
                        let now = js_sys_now();
                        let sort = current().sort.clone();
                        let (first, last) = (p.offset + 1, p.offset + p.items.len() as i64);
                        let more = last < p.total;
                        let slow = slow_runs(&p.items);
                        let offset = p.offset;
                        view! {
                            <div class="table-scroll">
                            <table id="jobs" class="runs">
                                <RunsHead sort=sort.clone() on_sort />
                                <tbody>
                                    {p.items.into_iter().map(|j| {
                                        let slow = slow.iter().find(|s| s.0 == j.id).map(|&(_, n, median)| (n, median));
                                        let may_again = writes_in(j.team_id);
                                        view! { <RunRow j now slow selected on_tag may_again on_again /> }
                                    }).collect_view()}
                                </tbody>
                            </table>
                            </div>
                            <nav class="pager" aria-label=t("jobs.pages")>
                                <button type="button" id="page-prev" disabled=offset == 0 on:click=move |_| go_page(-1)>{t("jobs.prev")}</button>
                                <span id="page-info">{if p.total == 0 { t("jobs.no_match")().to_string() } else { format!("{first}–{last} / {}", p.total) }}</span>
                                <button type="button" id="page-next" disabled=!more on:click=move |_| go_page(1)>{t("jobs.next")}</button>
                            </nav>
                        }.into_any()
                    }
                }).unwrap_or_else(api::loading)}

        </section>
    }
}

/// The runs table's header: each column sorts by itself (again: the other way).
#[component]
fn RunsHead(sort: Option<String>, on_sort: Callback<String>) -> impl IntoView {
    view! {
        <thead><tr>
            <th></th>
            {COLUMNS.iter().map(|(key, label)| {
                // A column the API does not sort by is a plain heading.
                let Some(key) = *key else {
                    return view! { <th>{t(label)}</th> }.into_any();
                };
                let (is, desc) = match sort.as_deref() {
                    Some(s) if s == key => (true, false),
                    Some(s) if s.strip_prefix('-') == Some(key) => (true, true),
                    None if key == "id" => (true, true),
                    _ => (false, false),
                };
                let aria = if !is { "none" } else if desc { "descending" } else { "ascending" };
                let arrow = if !is { "" } else if desc { " ▼" } else { " ▲" };
                let next = next_sort(sort.as_deref(), key);
                view! {
                    <th aria-sort=aria data-sort=key>
                        <button type="button" class="link sort" on:click=move |_| on_sort.run(next.clone())>{t(label)}{arrow}</button>
                    </th>
                }.into_any()
            }).collect_view()}
            <th></th>
        </tr></thead>
    }
}

/// One run of the table: picked for comparison, its labels (a tag filters by it), state,
/// config, runner, facts and figures, a slow mark, and Run again where the user may.
#[component]
fn RunRow(
    j: Job,
    now: f64,
    /// Far slower than the others of its kind: their count and median samples/s.
    slow: Option<(usize, f64)>,
    selected: RwSignal<Vec<i64>>,
    on_tag: Callback<String>,
    may_again: bool,
    on_again: Callback<Job>,
) -> impl IntoView {
    let again_job = j.clone();
    let fig = j.summary.clone().unwrap_or_default();
    let num = |v: Option<f64>, d: usize| v.map_or_else(|| "—".to_string(), |v| format!("{v:.d$}"));
    let dash = |s: &str| {
        if s.is_empty() {
            "—".to_string()
        } else {
            s.to_string()
        }
    };
    view! {
    <tr data-id=j.id>
        <td><input type="checkbox" class="pick" aria-label=format!("{} {}", t("jobs.pick")(), j.id)
            prop:checked=move || selected.with(|s| s.contains(&j.id))
            on:change=move |_| selected.update(|s| if let Some(i) = s.iter().position(|x| *x == j.id) { s.remove(i); } else { s.push(j.id); }) /></td>
        <td><A href=format!("/jobs/{}", j.id)>{j.id}</A></td>
        <td class="run-name">{dash(&j.name)}
            {j.tags.iter().map(|tag| {
                let tg = tag.clone();
                view! { <button type="button" class="tag link" on:click=move |_| { let tg = tg.clone(); on_tag.run(tg); }>{tag.clone()}</button> }
            }).collect_view()}
        </td>
        <td><span class=state_class(j.state)>{crate::i18n::job_state(j.state.as_str())}</span>
            <div class="muted submitted"><crate::components::states::When at=j.created_at.clone() />" · "<span class="submitter">{j.created_by.clone()}</span></div></td>
        // The config, and under it what ran it: the built-in size, a rehearsed model, a script.
        <td class="tpl"><A href=format!("/templates/{}/v/{}", j.template_id, j.version) attr:title=format!("{}@{}", j.template_name, j.version)>{format!("{}@{}", j.template_name, j.version)}</A>
            <div class="muted workload" title=format!("{}: {}", t("jobs.model")(), j.workload.label())>{j.workload.label()}</div></td>
        <td>{j.runner.clone().unwrap_or_else(|| "—".into())}</td>
        <td class="launcher">{launcher_name(&j.facts.launcher)}</td>
        <td>{dash(&j.facts.deepspeed)}</td>
        <td class="num">{format!("{}×{}", j.nodes, j.gpus)}</td>
        <td class="num">{j.facts.zero_stage.map_or_else(|| "—".to_string(), |z| z.to_string())}</td>
        <td>{dash(&j.facts.precision)}</td>
        <td>{offload_label(&j.facts.offload, crate::i18n::use_lang().get())}</td>
        <td class="num">{j.facts.micro_batch.map_or_else(|| "—".to_string(), |m| m.to_string())}</td>
        <td class="num">{duration_in(&j, now, crate::i18n::use_lang().get())}</td>
        <td class="num final-loss">{if j.reason == Some(ds_studio_shared::api::FailureReason::NonFiniteLoss) { "NaN".to_string() } else { num(fig.final_loss, 4) }}</td>
        <td class="num">{num(fig.median_samples_per_sec, 1)}
            {slow.map(|(n, median)| {
                let lang = crate::i18n::use_lang().get();
                let why = crate::i18n::tr("jobs.slow", lang).replace("{n}", &n.to_string()).replace("{median}", &format!("{median:.1}"));
                view! { " "<span class="slow-mark" tabindex="0" role="note" title=why.clone() aria-label=why>"⚠"</span> }
            })}</td>
        <td class="num">{fig.peak_memory_mb.map_or_else(|| "—".to_string(), |m| ds_studio_shared::memory::human_bytes((m * 1048576.0) as u64))}</td>
        <td>{may_again.then(|| view! { <button type="button" class="again" on:click=move |_| on_again.run(again_job.clone())>{t("jobs.again")}</button> })}</td>
    </tr>
    }
}

/// Runs on the page far slower than the others of the same config, workload, runner and
/// world: each such run's id with the others' count and median samples/s. A runner's first run
/// also builds DeepSpeed's ops and warms its caches (7 samples/s beside 126 for the same
/// config), which the table otherwise shows with nothing to say why.
pub fn slow_runs(jobs: &[Job]) -> Vec<(i64, usize, f64)> {
    let key = |j: &Job| {
        (
            j.template_id,
            j.version,
            j.workload.label(),
            j.runner.clone(),
            j.nodes,
            j.gpus,
        )
    };
    let sps = |j: &Job| {
        (j.state == ds_studio_shared::api::JobState::Succeeded)
            .then(|| j.summary.as_ref()?.median_samples_per_sec)
            .flatten()
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let mut out = Vec::new();
    for j in jobs {
        let Some(mine) = sps(j) else { continue };
        let mut others: Vec<f64> = jobs
            .iter()
            .filter(|o| o.id != j.id && key(o) == key(j))
            .filter_map(sps)
            .collect();
        if others.is_empty() {
            continue;
        }
        others.sort_by(f64::total_cmp);
        let median = others[others.len() / 2];
        if mine < median / 2.0 {
            out.push((j.id, others.len(), median));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::parse_ms;
    use crate::job_helpers::duration;

    #[test]
    fn a_run_far_slower_than_its_twins_is_marked() {
        let job = |id: i64, runner: &str, sps: Option<f64>, state: &str| -> Job {
            serde_json::from_value(serde_json::json!({
                "id": id, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
                "state": state, "workload": {"builtin": "gpt", "size": "tiny"}, "gpus": 1, "nodes": 1,
                "max_steps": 20, "created_by": "a", "created_at": "2026-11-21T21:46:51.712Z",
                "last_seq": 3, "cancel_requested": false, "runner": runner,
                "summary": {"median_samples_per_sec": sps}
            }))
            .unwrap()
        };
        let jobs = [
            job(1, "local", Some(7.2), "succeeded"),
            job(2, "local", Some(125.6), "succeeded"),
            job(3, "local", Some(124.0), "succeeded"),
            // Another runner is another comparison; a failed run is not one.
            job(4, "gpu", Some(3.0), "succeeded"),
            job(5, "local", Some(1.0), "failed"),
        ];
        assert_eq!(slow_runs(&jobs), vec![(1, 2, 125.6)]);
        // Alone, nothing to compare with.
        assert!(slow_runs(&jobs[..1]).is_empty());
    }

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
        assert_eq!(
            duration_in(&j, 0.0, ds_studio_shared::i18n::Lang::Zh),
            "1 分 3 秒"
        );
        assert_eq!(
            offload_label("none", ds_studio_shared::i18n::Lang::Zh),
            "无"
        );
        assert_eq!(
            offload_label("optimizer:cpu param:nvme", ds_studio_shared::i18n::Lang::Zh),
            "优化器→cpu 参数→nvme"
        );
        assert_eq!(
            offload_label("optimizer:cpu", ds_studio_shared::i18n::Lang::En),
            "optimizer:cpu"
        );
        j.started_at = None;
        assert_eq!(duration(&j, 0.0), "—");
    }

    #[test]
    fn a_bad_pair_in_the_url_is_left_out_and_said() {
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let (q, problems) = lenient_query(&pairs(&[
            ("sort", "loss"),
            ("zero_stage", "1"),
            ("utm_source", "mail"),
            ("tag", "base"),
        ]));
        assert_eq!(q.zero_stage, Some(1));
        assert_eq!(q.tag.as_deref(), Some("base"));
        assert_eq!(q.sort, None);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("sort `loss`"));
        assert!(problems[1].contains("`utm_source` is not a filter"));
        let (q, problems) = lenient_query(&pairs(&[("state", "failed")]));
        assert!(problems.is_empty());
        assert_eq!(q.states.len(), 1);
    }

    #[test]
    fn a_heading_sorts_ascending_then_descending() {
        assert_eq!(next_sort(None, "final_loss"), "final_loss");
        assert_eq!(next_sort(Some("final_loss"), "final_loss"), "-final_loss");
        assert_eq!(next_sort(Some("-final_loss"), "final_loss"), "final_loss");
        assert_eq!(next_sort(Some("world"), "final_loss"), "final_loss");
        // Every sortable column is one the API sorts by.
        for (key, _) in COLUMNS {
            if let Some(k) = key {
                assert!(ds_studio_shared::api::SORT_KEYS.contains(k), "{k}");
            }
        }
    }
}
