//! `/jobs/:id`: one job, live. Its SSE stream (`/api/v1/jobs/{id}/events`) feeds the charts
//! (loss, learning rate, samples/s, memory, per-step timings) and the log tail as events
//! arrive; the browser's EventSource resumes after the last event id by itself when the
//! connection drops. A summary panel (state, elapsed time that ticks, runner, release, world,
//! final and best loss, samples/s, peak memory) heads it; an empty chart says why; Cancel asks
//! first; the tab's title names the job's state.

use crate::api;
use crate::clock::js_sys_now;
use crate::components::chart::{LineChart, NamedSeries};
use crate::i18n::t;
use crate::pages::jobs::{duration, state_class};
use ds_studio_shared::api::{Job, LogLine};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;
use std::collections::BTreeMap;

/// Log lines kept on screen.
#[cfg(target_arch = "wasm32")]
const LOG_TAIL: usize = 400;

type Series = BTreeMap<String, Vec<(i64, f64)>>;

/// The charts: a title, what x counts, and which series (by exact name or prefix) go on it.
const CHARTS: &[(&str, &str, &[&str])] = &[
    ("job.loss", "samples", &["Train/Samples/train_loss"]),
    ("job.lr", "samples", &["Train/Samples/lr"]),
    ("job.throughput", "steps", &["samples_per_sec"]),
    (
        "job.memory",
        "s",
        &["process/rss_mb", "gpu0/mem_used_mb", "gpu1/mem_used_mb"],
    ),
    (
        "job.timings",
        "samples",
        &["Train/Samples/elapsed_time_ms_"],
    ),
];

/// The per-GPU memory ds-studio estimates for a built-in job: model states for the config's
/// ZeRO stage and offload (DeepSpeed's own estimator, ported in `shared::estimate`), plus
/// activations when the micro batch is known. In MB, with the table row it used.
pub fn estimate_mb(job: &Job, config: &serde_json::Value) -> Option<(f64, Option<f64>, String)> {
    use ds_studio_shared::estimate::{activations, table, ModelShape};
    let size = ds_studio_shared::api::GptSize::of(job.workload.size.as_deref()?)?;
    job.workload.builtin.as_ref()?;
    let zero = &config["zero_optimization"];
    let stage = zero["stage"].as_u64().unwrap_or(0) as u8;
    let off = |k: &str| matches!(zero[k]["device"].as_str(), Some("cpu" | "nvme"));
    let offload = match (off("offload_optimizer"), off("offload_param")) {
        (true, true) => "optimizer+params",
        (true, false) => "optimizer",
        _ => "none",
    };
    let shape = ModelShape {
        params: size.params(),
        largest_layer_params: None,
        gpus_per_node: job.gpus as u64,
        nodes: job.nodes as u64,
        hidden_size: Some(size.d_model),
        layers: Some(size.layers),
        heads: Some(size.heads),
        seq_len: Some(size.seq),
        micro_batch: config["train_micro_batch_size_per_gpu"].as_u64(),
        activation_checkpointing: false,
    };
    let rows = table(&shape);
    let row = rows
        .iter()
        .find(|r| r.stage == stage && r.offload == offload)
        .or_else(|| rows.iter().find(|r| r.stage == stage))?;
    let mb = |b: u64| b as f64 / 1048576.0;
    Some((
        mb(row.gpu_bytes),
        activations(&shape).map(|a| mb(a.bytes)),
        format!("ZeRO {} · offload {}", row.stage, row.offload),
    ))
}

/// The measured peak in MB: the workload's own report, else DeepSpeed's max allocated.
pub fn measured_peak_mb(series: &Series) -> Option<f64> {
    ds_studio_shared::api::run_summary(series).peak_memory_mb
}

/// The series of `series` a chart shows: exact names, or every name under a prefix ending in `_`.
pub fn pick(series: &Series, wanted: &[&str]) -> NamedSeries {
    let mut out = Vec::new();
    for w in wanted {
        if w.ends_with('_') {
            for (name, pts) in series.range(w.to_string()..) {
                if !name.starts_with(w) {
                    break;
                }
                out.push((name[w.len()..].to_string(), pts.clone()));
            }
        } else if let Some(pts) = series.get(*w) {
            out.push((w.rsplit('/').next().unwrap_or(w).to_string(), pts.clone()));
        }
    }
    out
}

/// The log lines that hold `query` (any case); all of them for an empty query.
pub fn matching<'a>(lines: &'a [LogLine], query: &str) -> Vec<&'a LogLine> {
    let q = query.trim().to_lowercase();
    lines
        .iter()
        .filter(|l| q.is_empty() || l.text.to_lowercase().contains(&q))
        .collect()
}

/// The command a job ran, from the runner's `launch: ...` log line.
pub fn launch_command_of(line: &LogLine) -> Option<String> {
    (line.stream == "runner")
        .then(|| line.text.strip_prefix("launch: "))
        .flatten()
        .map(str::to_string)
}

#[cfg(target_arch = "wasm32")]
fn open_stream(
    id: i64,
    job: RwSignal<Option<Job>>,
    series: RwSignal<Series>,
    logs: RwSignal<Vec<LogLine>>,
    command: RwSignal<Option<String>>,
) -> Option<web_sys::EventSource> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let es = web_sys::EventSource::new(&format!("/api/v1/jobs/{id}/events")).ok()?;
    let data = |ev: &web_sys::Event| -> Option<String> {
        ev.dyn_ref::<web_sys::MessageEvent>()?.data().as_string()
    };
    let es2 = es.clone();
    let on_state = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        if let Some(j) = data(&ev).and_then(|d| serde_json::from_str::<Job>(&d).ok()) {
            if j.state.is_terminal() {
                es2.close();
            }
            job.set(Some(j));
        }
    });
    let on_metric = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        if let Some(m) = data(&ev)
            .and_then(|d| serde_json::from_str::<ds_studio_shared::api::MetricPoint>(&d).ok())
        {
            series.update(|s| s.entry(m.name).or_default().push((m.step, m.value)));
        }
    });
    let on_log = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        if let Some(l) = data(&ev).and_then(|d| serde_json::from_str::<LogLine>(&d).ok()) {
            // Kept apart: the log shows only its tail.
            if let Some(c) = launch_command_of(&l) {
                command.set(Some(c));
            }
            logs.update(|v| {
                v.push(l);
                if v.len() > LOG_TAIL {
                    v.drain(..v.len() - LOG_TAIL);
                }
            });
        }
    });
    for (name, cb) in [
        ("state", &on_state),
        ("metric", &on_metric),
        ("log", &on_log),
    ] {
        let _ = es.add_event_listener_with_callback(name, cb.as_ref().unchecked_ref());
    }
    // The listeners live as long as the page's stream.
    on_state.forget();
    on_metric.forget();
    on_log.forget();
    Some(es)
}

#[component]
pub fn JobPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0));
    let job = RwSignal::new(None::<Job>);
    let series = RwSignal::new(Series::new());
    let logs = RwSignal::new(Vec::<LogLine>::new());
    let error = RwSignal::new(None::<String>);
    // The command the runner launched (from its log).
    let command = RwSignal::new(None::<String>);
    // The log's search box; the whole log as a file (every page of it, not only the tail).
    let search = RwSignal::new(String::new());
    let download_log = move |_| {
        let jid = id();
        spawn_local(async move {
            let mut text = String::new();
            let mut after = 0;
            loop {
                match api::get::<Vec<LogLine>>(&format!(
                    "/api/v1/jobs/{jid}/logs?after={after}&limit=10000"
                ))
                .await
                {
                    Ok(lines) => {
                        for l in &lines {
                            text.push_str(&l.text);
                            text.push('\n');
                            after = l.seq;
                        }
                        if lines.len() < 10_000 {
                            break;
                        }
                    }
                    Err(e) => {
                        error.set(Some(e.message));
                        return;
                    }
                }
            }
            #[cfg(target_arch = "wasm32")]
            if let Err(e) = crate::components::import_export::browser::download_as(
                &format!("job-{jid}.log"),
                &text,
                "text/plain",
            ) {
                error.set(Some(e));
            }
            let _ = text;
        });
    };
    let estimate = RwSignal::new(None::<(f64, Option<f64>, String)>);
    // The config as run (the fitted one where it was fitted), for the estimate and the charts'
    // empty reasons.
    let config = RwSignal::new(serde_json::Value::Null);
    // Elapsed time ticks while the job is live.
    let now = RwSignal::new(js_sys_now());
    let ticker = set_interval_with_handle(
        move || {
            if job.with_untracked(|j| j.as_ref().is_some_and(|j| !j.state.is_terminal())) {
                now.set(js_sys_now());
            }
        },
        std::time::Duration::from_secs(1),
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = ticker {
            h.clear();
        }
    });
    // The tab names the job and its state (seen from another tab when it ends).
    Effect::new(move |_| {
        if let Some(j) = job.get() {
            let title = format!("Job {} · {} — ds-studio", j.id, j.state.as_str());
            #[cfg(target_arch = "wasm32")]
            leptos::prelude::document().set_title(&title);
            let _ = title;
        }
    });
    // The log follows its tail: scrolled to the end whenever lines arrive.
    let log_ref = NodeRef::<leptos::html::Pre>::new();
    Effect::new(move |_| {
        logs.track();
        if let Some(el) = log_ref.get() {
            el.set_scroll_top(el.scroll_height());
        }
    });
    Effect::new(move |_| {
        let jid = id();
        estimate.set(None);
        series.set(Series::new());
        logs.set(Vec::new());
        spawn_local(async move {
            match api::get::<Job>(&format!("/api/v1/jobs/{jid}")).await {
                Ok(j) => {
                    let as_run = match &j.fit {
                        Some(f) => {
                            ds_studio_shared::document::Document::parse(&f.config_text).to_value()
                        }
                        None => api::get::<ds_studio_shared::api::Version>(&format!(
                            "/api/v1/templates/{}/versions/{}",
                            j.template_id, j.version
                        ))
                        .await
                        .ok()
                        .map(|v| v.config),
                    };
                    if let Some(c) = as_run {
                        if j.workload.builtin.is_some() {
                            estimate.set(estimate_mb(&j, &c));
                        }
                        config.set(c);
                    }
                    job.set(Some(j));
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
        #[cfg(target_arch = "wasm32")]
        {
            let es = open_stream(jid, job, series, logs, command);
            on_cleanup(move || {
                if let Some(es) = es {
                    es.close();
                }
            });
        }
    });
    let cancel = move |_| {
        let jid = id();
        // Stopping a run loses its progress: ask first.
        let sure = leptos::prelude::window()
            .confirm_with_message(t("job.cancel_confirm")())
            .unwrap_or(false);
        if !sure {
            return;
        }
        spawn_local(async move {
            match api::post::<_, Job>(
                &format!("/api/v1/jobs/{jid}/cancel"),
                &serde_json::json!({}),
            )
            .await
            {
                Ok(j) => job.set(Some(j)),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    view! {
        <section class="card job">
            {move || job.get().map(|j| {
                let live = !j.state.is_terminal();
                view! {
                    <h2>{t("job.title")}" "{j.id}" "
                        <span id="job-state" class=state_class(j.state)>{j.state.as_str()}</span>
                    </h2>
                    <p>
                        <A href=format!("/templates/{}/v/{}", j.template_id, j.version) attr:id="job-config">{format!("{}@{}", j.template_name, j.version)}</A>
                        {format!(" · {} · {}×{} · {} ", j.workload.label(), j.nodes, j.gpus, j.runner.clone().unwrap_or_else(|| "—".into()))}
                        <span class="muted">{duration(&j, js_sys_now())}</span>
                    </p>
                    <SummaryPanel job=j.clone() series now estimate />
                    <LabelsPanel job=j.clone() updated=job />
                    {move || command.get().map(|c| view! {
                        <p id="job-command"><strong>{t("job.command")}</strong>" "<code>{c}</code></p>
                    })}
                    {j.fit.clone().map(|f| {
                        let zh = crate::i18n::use_lang().get_untracked() == ds_studio_shared::i18n::Lang::Zh;
                        view! {
                            <details id="job-fit" class="card">
                                <summary>{t("job.fitted")}": "{if zh { f.summary.zh.clone() } else { f.summary.en.clone() }}</summary>
                                <pre class="log">{f.config_text.clone()}</pre>
                            </details>
                        }
                    })}
                    {j.preflight.as_ref().and_then(|p| p.deepspeed_version.clone()).map(|v| view! { <p id="job-deepspeed">{format!("DeepSpeed {v}")}</p> })}
                    {j.preflight.as_ref().and_then(|p| p.report.clone()).map(|r| view! { <p class="muted" id="preflight">{r}</p> })}
                    {j.message.clone().map(|m| view! { <p id="job-message" class=if j.state == ds_studio_shared::api::JobState::Failed { "error" } else { "muted" }>{m}</p> })}
                    <div class="toolbar">
                        {live.then(|| view! { <button id="cancel-job" on:click=cancel>{t("job.cancel")}</button> })}
                        {(!live).then(|| {
                            let again_job = j.clone();
                            let navigate = leptos_router::hooks::use_navigate();
                            view! { <button id="run-again" type="button" on:click=move |_| {
                                let n = navigate.clone();
                                crate::pages::jobs::run_again(&again_job, error, move |to| n(to, Default::default()));
                            }>{t("jobs.again")}</button> }
                        })}
                    </div>
                }
            })}
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || estimate.get().map(|(states, act, row)| {
                let measured = series.with(measured_peak_mb);
                view! {
                    <p id="memory-estimate">
                        <strong>{t("job.estimate")}</strong>
                        {format!(" {states:.1} MB ({row})")}
                        {act.map(|a| format!(" + {a:.1} MB {}", t("job.activations")()))}
                        " · "<strong>{t("job.measured")}</strong>
                        {measured.map(|m| format!(" {m:.1} MB")).unwrap_or_else(|| " —".into())}
                        <span class="muted">" "{t("job.measured_note")}</span>
                    </p>
                }
            })}
            <div class="charts">
                {CHARTS.iter().map(|(title, x, wanted)| {
                    let wanted: &'static [&'static str] = wanted;
                    view! {
                        <LineChart key=title title=Signal::derive(t(title)) x_label=x
                            series=Signal::derive(move || series.with(|s| pick(s, wanted)))
                            empty=Signal::derive(move || {
                                let zh = crate::i18n::use_lang().get() == ds_studio_shared::i18n::Lang::Zh;
                                job.get().and_then(|j| config.with(|c| super::job_summary::empty_reason(title, c, &j)))
                                    .map(|(en, cn)| if zh { cn } else { en })
                            }) />
                    }
                }).collect_view()}
            </div>
            <h3>{t("job.log")}</h3>
            <div class="toolbar">
                <input id="log-search" type="search" placeholder=t("job.log_search") aria-label=t("job.log_search")
                    prop:value=move || search.get() on:input=move |ev| search.set(event_target_value(&ev)) />
                <span id="log-count" class="muted">{move || logs.with(|v| {
                    let shown = matching(v, &search.get()).len();
                    format!("{shown} / {}", v.len())
                })}</span>
                <button id="log-download" type="button" on:click=download_log>{t("job.log_download")}</button>
            </div>
            <pre id="job-log" class="log" node_ref=log_ref>
                {move || logs.with(|v| matching(v, &search.get()).iter().map(|l| format!("{}\n", l.text)).collect::<String>())}
            </pre>
        </section>
    }
}

/// What people write on a run: its name, note and tags, saved with `PATCH /jobs/{id}`.
#[component]
fn LabelsPanel(job: Job, updated: RwSignal<Option<Job>>) -> impl IntoView {
    let name = RwSignal::new(job.name.clone());
    let note = RwSignal::new(job.note.clone());
    let tags = RwSignal::new(job.tags.join(", "));
    let status = RwSignal::new(None::<Result<(), String>>);
    let id = job.id;
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let labels = ds_studio_shared::api::RunLabels {
            name: Some(name.get_untracked()),
            note: Some(note.get_untracked()),
            tags: Some(
                tags.get_untracked()
                    .split(',')
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect(),
            ),
        };
        spawn_local(async move {
            match api::patch::<_, Job>(&format!("/api/v1/jobs/{id}"), &labels).await {
                Ok(j) => {
                    status.set(Some(Ok(())));
                    updated.set(Some(j));
                }
                Err(e) => status.set(Some(Err(e.message))),
            }
        });
    };
    view! {
        <details class="labels" id="job-labels" open=!job.name.is_empty() || !job.note.is_empty() || !job.tags.is_empty()>
            <summary>{t("job.labels")}</summary>
            <form on:submit=save class="labels-form">
                <label>{t("job.name")}" "<input id="job-name" type="text" maxlength="120" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) /></label>
                <label>{t("job.tags")}" "<input id="job-tags" type="text" placeholder="baseline, zero3" prop:value=move || tags.get() on:input=move |ev| tags.set(event_target_value(&ev)) /></label>
                <label class="wide">{t("job.note")}" "<textarea id="job-note" rows="2" maxlength="4000" prop:value=move || note.get() on:input=move |ev| note.set(event_target_value(&ev))></textarea></label>
                <button type="submit" id="save-labels">{t("job.save_labels")}</button>
                {move || status.get().map(|s| match s {
                    Ok(()) => view! { <span class="muted" id="labels-status" role="status">{t("job.saved")}</span> }.into_any(),
                    Err(e) => view! { <span class="error" id="labels-status" role="alert">{e}</span> }.into_any(),
                })}
            </form>
        </details>
    }
}

/// The job at a glance: state, elapsed time (ticking while live), runner, release, world,
/// final and best loss, median samples/s, peak memory beside the estimate.
#[component]
fn SummaryPanel(
    job: Job,
    series: RwSignal<Series>,
    now: RwSignal<f64>,
    estimate: RwSignal<Option<(f64, Option<f64>, String)>>,
) -> impl IntoView {
    let figures = Memo::new(move |_| series.with(super::job_summary::summary));
    let peak = Memo::new(move |_| series.with(measured_peak_mb));
    let release = job
        .preflight
        .as_ref()
        .and_then(|p| p.deepspeed_version.clone())
        .unwrap_or_else(|| "—".into());
    let num = |v: Option<f64>, digits: usize| {
        v.map_or_else(|| "—".to_string(), |v| format!("{v:.digits$}"))
    };
    let j = job.clone();
    let on_cpu = job
        .preflight
        .as_ref()
        .and_then(|p| p.accelerator.as_deref())
        .is_some_and(|a| a == "cpu");
    view! {
        <dl id="job-summary" class="summary">
            <div><dt>{t("job.s_state")}</dt><dd class=state_class(job.state)>{job.state.as_str()}</dd></div>
            <div><dt>{t("job.s_elapsed")}</dt><dd id="job-elapsed">{move || duration(&j, now.get())}</dd></div>
            <div><dt>{t("job.s_runner")}</dt><dd>{job.runner.clone().unwrap_or_else(|| "—".into())}</dd></div>
            <div><dt>"DeepSpeed"</dt><dd>{release}</dd></div>
            <div><dt>{t("job.s_world")}</dt><dd>{format!("{} × {}", job.nodes, job.gpus)}</dd></div>
            <div><dt>{t("job.s_final_loss")}</dt><dd id="job-final-loss">{move || num(figures.get().final_loss, 4)}</dd></div>
            <div><dt>{t("job.s_best_loss")}</dt><dd>{move || num(figures.get().best_loss, 4)}</dd></div>
            <div><dt>{t("job.s_samples")}</dt><dd>{move || num(figures.get().median_samples_per_sec, 1)}</dd></div>
            <div><dt>{t("job.s_peak")}</dt><dd id="job-peak">{move || {
                // What was measured: the process's resident memory on a CPU (torch included),
                // DeepSpeed's max allocated on a GPU; the estimate is per GPU for the config.
                let what = if on_cpu { t("job.s_rss")() } else { t("job.s_gpu_alloc")() };
                let est = estimate.get().map(|(s, a, _)| s + a.unwrap_or(0.0));
                match (peak.get(), est) {
                    (Some(p), Some(e)) => format!("{p:.1} MB {what} ({} {e:.1} MB)", t("job.s_estimated")()),
                    (Some(p), None) => format!("{p:.1} MB {what}"),
                    _ => "—".into(),
                }
            }}</dd></div>
        </dl>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_follows_the_config_and_the_measured_peak_the_report() {
        let job: Job = serde_json::from_value(serde_json::json!({
            "id": 1, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
            "state": "running", "workload": {"builtin": "gpt", "size": "tiny"}, "gpus": 1,
            "nodes": 1, "max_steps": 20, "created_by": "a", "created_at": "x", "last_seq": 0
        }))
        .unwrap();
        let z0 = estimate_mb(
            &job,
            &serde_json::json!({"train_micro_batch_size_per_gpu": 4}),
        )
        .unwrap();
        // 16 bytes per parameter at stage 0: 136,960 × 16 B = 2.09 MB.
        assert!((z0.0 - 136_960.0 * 16.0 / 1048576.0).abs() < 1e-6, "{z0:?}");
        assert!(z0.1.unwrap() > 0.0);
        assert_eq!(z0.2, "ZeRO 0 · offload none");
        let z3 = estimate_mb(
            &job,
            &serde_json::json!({"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}}),
        )
        .unwrap();
        assert_eq!(z3.2, "ZeRO 3 · offload optimizer");
        assert!(z3.0 < z0.0 && z3.1.is_none());
        let mut s = Series::new();
        assert_eq!(measured_peak_mb(&s), None);
        s.insert("max_mem_allocated_gb".into(), vec![(5, 0.5)]);
        assert_eq!(measured_peak_mb(&s), Some(512.0));
        s.insert("result/peak_memory_mb".into(), vec![(20, 666.1)]);
        assert_eq!(measured_peak_mb(&s), Some(666.1));
    }

    #[test]
    fn the_log_search_matches_any_case() {
        let line = |text: &str| LogLine {
            seq: 1,
            stream: "stdout".into(),
            text: text.into(),
            ts: String::new(),
        };
        let lines = vec![
            line("step 5 loss 6.1"),
            line("ds-studio-result {}"),
            line("Step 10"),
        ];
        assert_eq!(matching(&lines, "").len(), 3);
        let hits: Vec<&str> = matching(&lines, " STEP")
            .iter()
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(hits, ["step 5 loss 6.1", "Step 10"]);
        assert!(matching(&lines, "nothing").is_empty());
    }

    #[test]
    fn the_launch_line_gives_the_command() {
        let line = |stream: &str, text: &str| LogLine {
            seq: 1,
            stream: stream.into(),
            text: text.into(),
            ts: String::new(),
        };
        assert_eq!(
            launch_command_of(&line(
                "runner",
                "launch: /py/bin/python gpt_train.py --size tiny"
            )),
            Some("/py/bin/python gpt_train.py --size tiny".into())
        );
        assert_eq!(launch_command_of(&line("stdout", "launch: fake")), None);
        assert_eq!(launch_command_of(&line("runner", "preflight passed")), None);
    }

    #[test]
    fn charts_pick_series_by_name_or_prefix() {
        let mut s = Series::new();
        s.insert("Train/Samples/lr".into(), vec![(8, 0.1)]);
        s.insert(
            "Train/Samples/elapsed_time_ms_forward".into(),
            vec![(8, 1.0)],
        );
        s.insert("Train/Samples/elapsed_time_ms_step".into(), vec![(8, 2.0)]);
        s.insert("Train/Samples/train_loss".into(), vec![(8, 6.0)]);
        let lr = pick(&s, &["Train/Samples/lr"]);
        assert_eq!(lr, vec![("lr".to_string(), vec![(8, 0.1)])]);
        let timings = pick(&s, &["Train/Samples/elapsed_time_ms_"]);
        let names: Vec<&str> = timings.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(names, vec!["forward", "step"]);
        assert!(pick(&s, &["gpu0/mem_used_mb"]).is_empty());
    }
}
