//! `/jobs/:id`: one job, live. What is stored is read first, downsampled in the database to the
//! charts' width and up to the job's `last_seq` (`/metrics?max_points=&until=`, the log's tail
//! with `/logs?tail=&until=`); then its SSE stream (`/api/v1/jobs/{id}/events?after=last_seq`)
//! feeds the charts (loss, learning rate, samples/s, memory, per-step timings; points batched
//! four times a second) and the log as events arrive; the browser's EventSource resumes after
//! the last event id by itself when the connection drops. A summary panel (state, elapsed time
//! that ticks, runner, release, world, final and best loss, samples/s, peak memory) heads it,
//! then the run's name, note and tags, Run again, an opt-in desktop notification; the charts
//! read by hover, by samples or steps, smoothed; an empty chart says why; Cancel asks first; the
//! tab's title names the job's state.

use crate::api;
use crate::clock::js_sys_now;
use crate::components::chart::{ChartControls, LineChart, NamedSeries};
use crate::i18n::t;
use crate::job_helpers::{duration, duration_in, launcher_name, run_again, state_class};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{FailureReason, Job, LogLine};
use ds_studio_shared::memory::{estimate, human_bytes, Estimate};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;
use std::collections::BTreeMap;

/// Log lines kept on screen.
const LOG_TAIL: usize = 400;

type Series = BTreeMap<String, Vec<(i64, f64)>>;

/// The charts: a title, what x counts in the series (`samples`, `steps`, or `s` of wall
/// time), and which series (by exact name or prefix) go on it.
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

/// Points per series a page asks the server for (about the charts' width in device pixels);
/// a series the live stream grows past [`KEEP_POINTS`] is thinned back to this in the browser.
pub const CHART_POINTS: usize = 1000;
pub const KEEP_POINTS: usize = 4000;

/// The global batch of the config as run: `train_batch_size`, else micro batch × gradient
/// accumulation × world size.
pub fn global_batch(config: &serde_json::Value, job: &Job) -> Option<i64> {
    let int = |v: &serde_json::Value| v.as_i64().or_else(|| v.as_str()?.parse().ok());
    int(&config["train_batch_size"])
        .filter(|b| *b > 0)
        .or_else(|| {
            let micro = int(&config["train_micro_batch_size_per_gpu"]).or(job.facts.micro_batch)?;
            let gas = int(&config["gradient_accumulation_steps"]).unwrap_or(1);
            Some(micro * gas * (job.gpus * job.nodes) as i64).filter(|b| *b > 0)
        })
}

/// `points` (x in `native` units) on an x axis counting `axis` (`steps` or `samples`), with
/// `batch` samples per step; wall time and unknown batches stay as they are. Answers the
/// points and the unit they are in.
pub fn on_axis(
    points: Vec<(i64, f64)>,
    native: &'static str,
    axis: &'static str,
    batch: Option<i64>,
) -> (Vec<(i64, f64)>, &'static str) {
    match (native, axis, batch) {
        ("samples", "steps", Some(b)) => (
            points
                .into_iter()
                .map(|(x, v)| ((x + b / 2) / b, v))
                .collect(),
            "steps",
        ),
        ("steps", "samples", Some(b)) => (
            points.into_iter().map(|(x, v)| (x * b, v)).collect(),
            "samples",
        ),
        _ => (points, native),
    }
}

/// Thins `points` to `max` as the server does: first and last kept, the inner points averaged
/// in `max - 2` buckets (x the bucket's last).
pub fn thin(points: &[(i64, f64)], max: usize) -> Vec<(i64, f64)> {
    let n = points.len();
    if n <= max || max < 3 {
        return points.to_vec();
    }
    let inner = max - 2;
    let mut out = Vec::with_capacity(max);
    out.push(points[0]);
    let mut bucket: Option<(usize, i64, f64, usize)> = None;
    for (k, p) in points[1..n - 1].iter().enumerate() {
        let b = k * inner / (n - 2);
        match &mut bucket {
            Some((id, x, sum, count)) if *id == b => {
                *x = p.0;
                *sum += p.1;
                *count += 1;
            }
            _ => {
                if let Some((_, x, sum, count)) = bucket.take() {
                    out.push((x, sum / count as f64));
                }
                bucket = Some((b, p.0, p.1, 1));
            }
        }
    }
    if let Some((_, x, sum, count)) = bucket {
        out.push((x, sum / count as f64));
    }
    out.push(points[n - 1]);
    out
}

/// What the out-of-memory panel learns about a job that ran out of memory: the runner's
/// capacity and the configs that would fit it, from the job's own version.
#[derive(Clone, Debug, PartialEq)]
struct OomFacts {
    capacity: Option<ds_studio_shared::memory::Capacity>,
    suggestions: Vec<ds_studio_shared::memory::Suggestion>,
    version: Option<ds_studio_shared::api::Version>,
}

/// A job that ran out of memory, explained: the estimate beside the runner's memory, in both
/// languages, and "make a version that fits" (the largest micro batch keeping the global batch,
/// or the cheapest stage or offload), saved on the template's head.
#[component]
fn OutOfMemory(job: RwSignal<Option<Job>>, estimate: RwSignal<Option<Estimate>>) -> impl IntoView {
    let facts = RwSignal::new(None::<OomFacts>);
    let status = RwSignal::new(None::<Result<String, String>>);
    let busy = RwSignal::new(false);
    Effect::new(move |_| {
        let Some(j) = job
            .get()
            .filter(|j| j.reason == Some(FailureReason::OutOfMemory))
        else {
            return;
        };
        if facts.with_untracked(Option::is_some) {
            return;
        }
        spawn_local(async move {
            let runners = api::fetch(ep::ListRunners::url([]))
                .await
                .unwrap_or_default();
            let capacity = runners
                .iter()
                .find(|r| Some(&r.name) == j.runner.as_ref())
                .and_then(|r| r.devices.as_ref())
                .and_then(|d| ds_studio_shared::memory::runner_capacity(d, j.gpus));
            let version = api::fetch(ep::GetVersion::url([&j.template_id, &j.version]))
                .await
                .ok();
            let hf = j
                .facts
                .launcher
                .parse::<ds_studio_shared::validate::Launcher>()
                .is_ok_and(|l| l.fills_auto());
            let suggestions = match (&capacity, &version) {
                (Some(cap), Some(v)) if j.workload.runs_our_scripts() => {
                    let ctx = j.context(&v.context);
                    j.workload
                        .model_spec(hf)
                        .map(|m| {
                            ds_studio_shared::memory::suggest(
                                &v.config_text,
                                &ctx,
                                j.nodes,
                                &m,
                                cap,
                            )
                        })
                        .unwrap_or_default()
                }
                _ => Vec::new(),
            };
            facts.set(Some(OomFacts {
                capacity,
                suggestions,
                version,
            }));
        });
    });
    let save = move |s: ds_studio_shared::memory::Suggestion| {
        let Some(j) = job.get_untracked() else { return };
        let Some(v) = facts.with_untracked(|f| f.as_ref().and_then(|f| f.version.clone())) else {
            return;
        };
        busy.set(true);
        spawn_local(async move {
            let head = api::fetch(ep::GetTemplate::url([&j.template_id]))
                .await
                .map(|t| t.head_version);
            let body = ds_studio_shared::api::VersionCreate {
                config: None,
                config_text: Some(s.config_text.clone()),
                message: format!(
                    "fitted after job {} ran out of memory: {}",
                    j.id, s.summary.en
                ),
                base_version: head.unwrap_or(v.version),
                // Under the HF launchers a smaller micro batch is a training argument.
                context: Some(s.context(&v.context)),
            };
            let saved: Result<ds_studio_shared::api::Version, _> =
                api::call(ep::SaveVersion::url([&j.template_id]), &body).await;
            busy.set(false);
            status.set(Some(match saved {
                Ok(v) => Ok(v.version.to_string()),
                Err(e) => Err(e.message),
            }));
        });
    };
    move || {
        let j = job.get()?;
        (j.reason == Some(FailureReason::OutOfMemory)).then(|| {
            let lang = crate::i18n::use_lang();
            let e = estimate.get();
            let f = facts.get();
            let said = move || {
                let l = lang.get();
                let need = e.as_ref().map(|e| human_bytes(e.gpu_peak_bytes));
                let cap = f.as_ref().and_then(|f| f.capacity.clone());
                let key = match &cap {
                    _ if need.is_none() => "oom.script",
                    Some(c) if c.host => "oom.host",
                    Some(_) => "oom.gpu",
                    None => "oom.unknown_device",
                };
                let text = crate::i18n::tr(key, l)
                    .replace("{need}", need.as_deref().unwrap_or("—"))
                    .replace("{device}", cap.as_ref().map(|c| c.device.as_str()).unwrap_or(""))
                    .replace("{has}", &cap.as_ref().map(|c| human_bytes(c.bytes_per_rank)).unwrap_or_default());
                match (&cap, key) {
                    (Some(c), "oom.script") => format!(
                        "{text}{}{}",
                        if l == ds_studio_shared::i18n::Lang::Zh { "" } else { " " },
                        crate::i18n::tr("oom.device", l)
                            .replace("{device}", &c.device)
                            .replace("{has}", &human_bytes(c.bytes_per_rank))
                    ),
                    _ => text,
                }
            };
            let suggestions = facts.with(|f| f.as_ref().map(|f| f.suggestions.clone()).unwrap_or_default());
            // "Nothing fits" only where something was tried: the built-in workload or a
            // rehearsal on a runner that said what memory it has.
            let known = facts.with(|f| f.as_ref().is_some_and(|f| f.capacity.is_some()))
                && j.workload.runs_our_scripts();
            view! {
                <div id="out-of-memory" class="card warning" role="alert">
                    <strong>{t("oom.title")}</strong>
                    <p>{said}</p>
                    {(known && suggestions.is_empty()).then(|| view! { <p>{t("oom.none_fits")}</p> })}
                    <ul class="oom-fits">
                        {suggestions.into_iter().map(|s| {
                            let label = s.summary.clone();
                            let pick = s.clone();
                            view! {
                                <li>
                                    <button type="button" class="oom-fit" data-kind=format!("{:?}", s.kind)
                                        disabled=move || busy.get()
                                        on:click=move |_| save(pick.clone())>{t("oom.fit")}</button>
                                    " "{move || label.get(lang.get()).to_string()}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    {move || status.get().map(|r| match r {
                        Ok(n) => {
                            let href = job.with(|j| j.as_ref().map(|j| format!("/templates/{}", j.template_id))).unwrap_or_default();
                            view! { <p role="status">{move || crate::i18n::tr("oom.saved", lang.get()).replace("{n}", &n)}" "<A href=href attr:id="oom-saved">{t("oom.open_editor")}</A></p> }.into_any()
                        }
                        Err(m) => view! { <p class="error">{m}</p> }.into_any(),
                    })}
                </div>
            }
        })
    }
}

/// The peak memory ds-studio predicts for a job of the built-in workload or a rehearsal
/// (`shared::memory`, the model every figure of the studio comes from), for the config as it
/// was launched.
pub fn estimate_of(job: &Job, config: &serde_json::Value) -> Option<Estimate> {
    let hf = job
        .facts
        .launcher
        .parse::<ds_studio_shared::validate::Launcher>()
        .is_ok_and(|l| l.fills_auto());
    let model = job.workload.model_spec(hf)?;
    let ctx = ds_studio_shared::Context {
        world_size: job.gpus.max(1) * job.nodes.max(1),
        ..Default::default()
    };
    let doc = ds_studio_shared::Document::from_value(config);
    let setup = ds_studio_shared::memory::setup_from_config(&doc, &ctx, job.nodes).ok()?;
    Some(estimate(&model, &setup))
}

/// "33.6 GiB (at the end of the forward pass, with the loss)" in `lang`.
pub fn estimate_line(e: &Estimate, lang: ds_studio_shared::i18n::Lang) -> String {
    let at = e.phase.label();
    match lang {
        ds_studio_shared::i18n::Lang::Zh => {
            format!("{}（出现在{}）", human_bytes(e.gpu_peak_bytes), at.zh)
        }
        _ => format!("{} (at {})", human_bytes(e.gpu_peak_bytes), at.en),
    }
}

/// How far the estimate is from the measured peak: `+4%`.
pub fn estimate_error(e: &Estimate, measured_mb: f64) -> Option<String> {
    (measured_mb > 0.0).then(|| {
        let ratio = e.gpu_peak_bytes as f64 / 1048576.0 / measured_mb - 1.0;
        format!("{:+.0}%", ratio * 100.0)
    })
}

/// The measured peak in MB: the workload's own report, else DeepSpeed's max allocated.
/// The highest sample the memory chart draws (rank 0's resident memory on a CPU, GPU 0's
/// memory in use on a GPU), in MiB.
fn drawn_memory_max(series: &Series) -> Option<f64> {
    ["gpu0/mem_used_mb", "process/rss_mb"]
        .iter()
        .find_map(|k| series.get(*k).filter(|p| !p.is_empty()))
        .map(|p| p.iter().map(|x| x.1).fold(0.0, f64::max))
}

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

/// Follows the job's SSE stream after sequence number `after`: states at once, log lines
/// into the tail, metric points into `pending` (the page moves them onto the charts a few
/// times a second, in one update).
#[cfg(target_arch = "wasm32")]
fn open_stream(
    id: i64,
    after: i64,
    job: RwSignal<Option<Job>>,
    pending: StoredValue<Vec<ds_studio_shared::api::MetricPoint>>,
    logs: RwSignal<Vec<LogLine>>,
    command: RwSignal<Option<String>>,
) -> Option<web_sys::EventSource> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let url = ep::JobEvents::url([&id]).query("after", after);
    let es = web_sys::EventSource::new(url.as_str()).ok()?;
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
            pending.update_value(|p| p.push(m));
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
    // Viewers see the run; only editors are offered what changes it.
    let writes = crate::components::team_pick::may_write(move || {
        job.with(|j| j.as_ref().map(|j| j.team_id))
    });
    let series = RwSignal::new(Series::new());
    let logs = RwSignal::new(Vec::<LogLine>::new());
    let error = RwSignal::new(None::<String>);
    // The command the runner launched (from its log).
    let command = RwSignal::new(None::<String>);
    // The log's search box; the whole log as a file (every page of it, not only the tail).
    let search = RwSignal::new(String::new());
    let estimate = RwSignal::new(None::<Estimate>);
    // The job could not be read (unknown id, another team's): a not-found page instead.
    let missing = RwSignal::new(None::<crate::api::ApiError>);
    // The charts' x axis (`samples` or `steps`) and smoothing weight.
    let axis = RwSignal::new("samples");
    let smoothing = RwSignal::new(0.0f64);
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
    let notify_on = RwSignal::new(crate::notify::wanted());
    notify_when_it_ends(job, series, notify_on);
    // The tab names the job and its state (seen from another tab when it ends).
    Effect::new(move |_| {
        if let Some(j) = job.get() {
            let title = format!(
                "{} {} · {} — ds-studio",
                t("job.title")(),
                j.id,
                crate::i18n::job_state(j.state.as_str())()
            );
            #[cfg(target_arch = "wasm32")]
            leptos::prelude::document().set_title(&title);
            let _ = title;
        }
    });
    // The page's job id, and its live stream (closed when the page or the job changes).
    let id_now = Memo::new(move |_| id());
    #[cfg(target_arch = "wasm32")]
    let stream = StoredValue::new_local(None::<web_sys::EventSource>);
    // Metric points from the stream wait here and go onto the charts in one update, four
    // times a second (one redraw per batch, not per point).
    let pending = StoredValue::new(Vec::<ds_studio_shared::api::MetricPoint>::new());
    let flusher = set_interval_with_handle(
        move || {
            let batch = pending.try_update_value(std::mem::take).unwrap_or_default();
            if batch.is_empty() {
                return;
            }
            series.update(|s| {
                for m in batch {
                    s.entry(m.name).or_default().push((m.step, m.value));
                }
                for pts in s.values_mut() {
                    if pts.len() > KEEP_POINTS {
                        *pts = thin(pts, CHART_POINTS);
                    }
                }
            });
        },
        std::time::Duration::from_millis(250),
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = flusher {
            h.clear();
        }
    });
    Effect::new(move |_| {
        let jid = id_now.get();
        estimate.set(None);
        missing.set(None);
        search.set(String::new());
        series.set(Series::new());
        logs.set(Vec::new());
        command.set(None);
        pending.set_value(Vec::new());
        #[cfg(target_arch = "wasm32")]
        if let Some(old) = stream.try_update_value(|s| s.take()).flatten() {
            old.close();
        }
        spawn_local(async move {
            let j = match api::fetch(ep::GetJob::url([&jid])).await {
                Ok(j) => j,
                Err(e) => {
                    missing.set(Some(e));
                    return;
                }
            };
            // What is stored up to the job's last event, downsampled in the database to the
            // charts' width; the log's tail; the stream after it: nothing twice, nothing lost.
            let until = j.last_seq;
            let as_run = match &j.fit {
                Some(f) => ds_studio_shared::document::Document::parse(&f.config_text).to_value(),
                None => api::fetch(ep::GetVersion::url([&j.template_id, &j.version]))
                    .await
                    .ok()
                    .map(|v| v.config),
            };
            if let Some(c) = as_run.map(|c| as_launched(c, &j)) {
                if j.workload.runs_our_scripts() {
                    estimate.set(estimate_of(&j, &c));
                }
                config.set(c);
            }
            job.set(Some(j));
            let metrics = api::fetch(
                ep::JobMetrics::url([&jid])
                    .query("max_points", CHART_POINTS)
                    .query("until", until),
            )
            .await;
            match metrics {
                Ok(list) => series.update(|s| {
                    for m in list {
                        let pts = s.entry(m.name).or_default();
                        // Points the stream already brought (none yet, normally) stay after.
                        let mut stored = m.points;
                        stored.append(pts);
                        *pts = stored;
                    }
                }),
                Err(e) => error.set(Some(e.message)),
            }
            let tail = api::fetch(
                ep::JobLogs::url([&jid])
                    .query("tail", LOG_TAIL)
                    .query("until", until),
            )
            .await;
            // The runner's launch line is among the first lines of a log.
            let head = api::fetch(ep::JobLogs::url([&jid]).query("limit", 50)).await;
            if let Some(c) = head.ok().and_then(|h| h.iter().find_map(launch_command_of)) {
                command.set(Some(c));
            }
            if let Ok(lines) = tail {
                logs.update(|v| {
                    let mut t = lines;
                    t.append(v);
                    *v = t;
                });
            }
            // Only the page's current job gets a stream (the id may have changed meanwhile).
            #[cfg(target_arch = "wasm32")]
            if id_now.try_get_untracked() == Some(jid) {
                if let Some(old) = stream.try_update_value(|s| s.take()).flatten() {
                    old.close();
                }
                let es = open_stream(jid, until, job, pending, logs, command);
                stream.set_value(es);
            }
        });
    });
    on_cleanup(move || {
        #[cfg(target_arch = "wasm32")]
        if let Some(es) = stream.try_update_value(|s| s.take()).flatten() {
            es.close();
        }
    });
    view! {
        <Show when=move || missing.with(Option::is_none)
            fallback=move || missing.get().map(|e| crate::components::states::error_view(e, format!("{} {}", t("state.job")(), params.with(|p| p.get("id").unwrap_or_default()))))>
        <section class="card job">
            {move || job.get().map(|j| {
                let live = !j.state.is_terminal();
                let lang = crate::i18n::use_lang();
                view! {
                    <h2>{t("job.title")}" "{j.id}" "
                        {(!j.name.is_empty()).then(|| view! { <span id="job-name-title">{format!("“{}” ", j.name)}</span> })}
                        <span id="job-state" class=state_class(j.state)>{crate::i18n::job_state(j.state.as_str())}</span>
                    </h2>
                    <p>
                        <A href=format!("/templates/{}/v/{}", j.template_id, j.version) attr:id="job-config">{format!("{}@{}", j.template_name, j.version)}</A>
                        {format!(" · {} · {} · {}×{} · {} ", j.workload.label(), launcher_name(&j.facts.launcher), j.nodes, j.gpus, j.runner.clone().unwrap_or_else(|| "—".into()))}
                        // A point of a sweep links back to it (its tag `sweep:ID`).
                        {j.tags.iter().find_map(|t| t.strip_prefix("sweep:")?.parse::<i64>().ok()).map(|sid| view! {
                            " · "<A href=format!("/sweeps/{sid}") attr:id="job-sweep">{move || format!("{} {sid}", t("sweep.title")())}</A>
                        })}
                    </p>
                    <SummaryPanel job=j.clone() series now estimate />
                    // While the run is live the charts matter: the set-up (command, fit,
                    // preflight) folds away so they stay in view; a finished run shows it open.
                    <details id="job-details" prop:open=!live>
                    <summary>{t("job.details")}</summary>
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
                    {(!j.filled.is_empty() || j.handed_config.is_some()).then(|| view! { <HandedPanel job=j.clone() /> })}
                    {j.preflight.as_ref().and_then(|p| p.deepspeed_version.clone()).map(|v| view! { <p id="job-deepspeed">{format!("DeepSpeed {v}")}</p> })}
                    {j.preflight.as_ref().and_then(|p| p.report.clone()).map(|r| view! { <p class="muted" id="preflight">{r}</p> })}
                    </details>
                    {j.message.clone().map(|m| view! { <p id="job-message" class=if j.state == ds_studio_shared::api::JobState::Failed { "error" } else { "muted" }>{move || crate::server_text::job_message(&m, lang.get())}</p> })}
                    <div class="toolbar">
                        {(live && writes.get()).then(|| view! { <button id="cancel-job" on:click=move |_| cancel_job(id(), job, error) disabled=j.cancel_requested>{t("job.cancel")}</button> })}
                        {(live && j.cancel_requested).then(|| view! { <span id="job-cancelling" class="muted" role="status">{t("job.cancelling")}</span> })}
                        {live.then(|| view! { <NotifyToggle notify_on /> })}
                        {(!live && writes.get()).then(|| {
                            let again_job = j.clone();
                            let navigate = leptos_router::hooks::use_navigate();
                            view! { <button id="run-again" type="button" on:click=move |_| {
                                let n = navigate.clone();
                                run_again(&again_job, error, move |to| n(to, Default::default()));
                            }>{t("jobs.again")}</button> }
                        })}
                    </div>
                }
            })}
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <LabelsPanel job />
            <OutOfMemory job estimate />
            <crate::components::failure_card::FailureCard job />
            <EstimateLine job estimate series />
            <ChartControls axis smoothing />
            <Charts job config series axis smoothing />
            <MemoryPeakNote series />
            <JobLog jid=Signal::derive(id) logs search error />
        </section>
        </Show>
    }
}

/// The whole log as a file (every page of it, not only the tail on screen).
fn download_log(jid: i64, error: RwSignal<Option<String>>) {
    spawn_local(async move {
        let mut text = String::new();
        let mut after = 0;
        loop {
            match api::fetch(
                ep::JobLogs::url([&jid])
                    .query("after", after)
                    .query("limit", 10000),
            )
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
}

/// Cancels job `jid` once the user confirms (stopping a run loses its progress).
fn cancel_job(jid: i64, job: RwSignal<Option<Job>>, error: RwSignal<Option<String>>) {
    // Stopping a run loses its progress: ask first.
    let sure = leptos::prelude::window()
        .confirm_with_message(t("job.cancel_confirm")())
        .unwrap_or(false);
    if !sure {
        return;
    }
    spawn_local(async move {
        match api::fetch(ep::CancelJob::url([&jid])).await {
            Ok(j) => job.set(Some(j)),
            Err(e) => error.set(Some(e.message)),
        }
    });
}

/// A desktop notification when the job this page follows ends, if `notify_on`.
fn notify_when_it_ends(
    job: RwSignal<Option<Job>>,
    series: RwSignal<Series>,
    notify_on: RwSignal<bool>,
) {
    Effect::new(move |was_live: Option<Option<(i64, bool)>>| {
        let now_state = job.with(|j| j.as_ref().map(|j| (j.id, !j.state.is_terminal())));
        if let (Some(Some((id0, true))), Some((id1, false))) = (was_live, now_state) {
            if id0 == id1 && notify_on.get_untracked() {
                if let Some(j) = job.get_untracked() {
                    let figures = j
                        .summary
                        .clone()
                        .unwrap_or_else(|| series.with_untracked(super::job_summary::summary));
                    let (title, body) =
                        crate::notify::ending_line(&j, &figures, &duration(&j, js_sys_now()));
                    crate::notify::show(&title, &body);
                }
            }
        }
        now_state
    });
}

/// "Notify me when it ends" (opt-in, remembered in this browser).
#[component]
fn NotifyToggle(notify_on: RwSignal<bool>) -> impl IntoView {
    let notify_error = RwSignal::new(None::<String>);
    let toggle_notify = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        notify_error.set(None);
        crate::notify::set_wanted(on, move |r| match r {
            Ok(v) => notify_on.set(v),
            Err(e) => {
                notify_on.set(false);
                notify_error.set(Some(e));
            }
        });
    };
    view! {
        <label class="notify check"><input type="checkbox" id="notify-end" prop:checked=move || notify_on.get() on:change=toggle_notify />
            " "{t("job.notify")}</label>
        {move || notify_error.get().map(|e| view! { <span class="muted" role="status">{e}</span> })}
    }
}

/// The memory estimate of the built-in workload beside the peak measured, and its parts.
#[component]
fn EstimateLine(
    job: RwSignal<Option<Job>>,
    estimate: RwSignal<Option<Estimate>>,
    series: RwSignal<Series>,
) -> impl IntoView {
    {
        move || {
            estimate.get().map(|e| {
        let ran_on_cpu = move || job.with(|j| j.as_ref().and_then(|j| j.preflight.as_ref()?.accelerator.clone()).is_some_and(|a| a == "cpu"));
        let measured = series.with(measured_peak_mb);
        let lang = crate::i18n::use_lang();
        let line = e.clone();
        let parts = e.gpu_parts.clone();
        view! {
            <div id="memory-estimate">
                <p>
                    <strong>{t("job.estimate")}</strong>
                    {move || format!(" {}", estimate_line(&line, lang.get()))}
                    " · "<strong>{t("job.measured")}</strong>
                    {measured.map(|m| format!(" {}", human_bytes((m * 1048576.0) as u64))).unwrap_or_else(|| " —".into())}
                    // On a CPU the measured figure is the process's memory, not the
                    // GPU bytes the estimate counts: no percentage between them.
                    {measured.filter(|_| !ran_on_cpu()).and_then(|m| estimate_error(&e, m)).map(|d| view! { " "<span class="muted" id="estimate-error">{move || format!("({} {d})", t("job.estimate_vs")())}</span> })}
                    <span class="muted">" "{t("job.measured_note")}</span>
                </p>
                <details id="estimate-parts">
                    <summary>{t("job.estimate_parts")}</summary>
                    <ul>
                        {parts.into_iter().map(|p| view! {
                            <li data-part=format!("{:?}", p.part)>{human_bytes(p.bytes)}" "{move || p.part.label().get(lang.get()).to_string()}</li>
                        }).collect_view()}
                    </ul>
                </details>
            </div>
        }
    })
        }
    }
}

/// The run's charts, on the chosen x axis, smoothed.
#[component]
fn Charts(
    job: RwSignal<Option<Job>>,
    config: RwSignal<serde_json::Value>,
    series: RwSignal<Series>,
    axis: RwSignal<&'static str>,
    smoothing: RwSignal<f64>,
) -> impl IntoView {
    view! {
        <div class="charts">
            {CHARTS.iter().map(|(title, native, wanted)| {
                let wanted: &'static [&'static str] = wanted;
                let native: &'static str = native;
                let batch = Memo::new(move |_| job.with(|j| j.as_ref().and_then(|j| config.with(|c| global_batch(c, j)))));
                let drawn = Memo::new(move |_| {
                    let (a, b) = (axis.get(), batch.get());
                    series.with(|s| {
                        let mut unit = native;
                        let out: NamedSeries = pick(s, wanted).into_iter().map(|(name, pts)| {
                            let (p, u) = on_axis(pts, native, a, b);
                            unit = u;
                            (name, p)
                        }).collect();
                        (out, unit)
                    })
                });
                let live = Signal::derive(move || job.with(|j| j.as_ref().is_some_and(|j| !j.state.is_terminal())));
                let x_end = Signal::derive(move || {
                    let steps = job.with(|j| j.as_ref().map(|j| j.max_steps as f64))?;
                    match drawn.with(|d| d.1) {
                        "steps" => Some(steps),
                        "samples" => batch.get().map(|b| steps * b as f64),
                        _ => None,
                    }
                });
                view! {
                    <LineChart key=title title=Signal::derive(t(title))
                        x_label=Signal::derive(move || t(crate::components::chart::unit_key(drawn.with(|d| d.1)))().to_string())
                        series=Signal::derive(move || drawn.with(|d| d.0.clone()))
                        smoothing=smoothing live x_end
                        empty=Signal::derive(move || {
                            let zh = crate::i18n::use_lang().get() == ds_studio_shared::i18n::Lang::Zh;
                            job.get().and_then(|j| config.with(|c| super::job_summary::empty_reason(title, c, &j)))
                                .map(|(en, cn)| if zh { cn } else { en })
                        }) />
                }
            }).collect_view()}
        </div>
    }
}

/// The memory chart draws samples a few seconds apart; the peak the run reports is the
/// process's (or DeepSpeed's) own maximum, which can fall between them: said when it does.
#[component]
fn MemoryPeakNote(series: RwSignal<Series>) -> impl IntoView {
    {
        move || {
            let peak = series.with(measured_peak_mb)?;
            let drawn = series.with(drawn_memory_max)?;
            (peak > drawn * 1.02).then(|| view! {
            <p class="muted small" id="memory-peak-note">{move || t("job.memory_peak_note")()
                .replace("{peak}", &human_bytes((peak * 1048576.0) as u64))
                .replace("{drawn}", &human_bytes((drawn * 1048576.0) as u64))}</p>
        })
        }
    }
}

/// The log: its tail, followed as lines arrive; a search; the whole log as a file.
#[component]
fn JobLog(
    jid: Signal<i64>,
    logs: RwSignal<Vec<LogLine>>,
    search: RwSignal<String>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    // The log follows its tail: scrolled to the end whenever lines arrive.
    let log_ref = NodeRef::<leptos::html::Pre>::new();
    Effect::new(move |_| {
        logs.track();
        if let Some(el) = log_ref.get() {
            el.set_scroll_top(el.scroll_height());
        }
    });
    view! {
        <h3>{t("job.log")}</h3>
        <div class="toolbar">
            <input id="log-search" type="search" placeholder=t("job.log_search") aria-label=t("job.log_search")
                prop:value=move || search.get() on:input=move |ev| search.set(event_target_value(&ev)) />
            <span id="log-count" class="muted">{move || logs.with(|v| {
                let shown = matching(v, &search.get()).len();
                format!("{shown} / {}", v.len())
            })}</span>
            <button id="log-download" type="button" on:click=move |_| download_log(jid.get_untracked(), error)>{t("job.log_download")}</button>
        </div>
        // Focusable, so the log scrolls from the keyboard too.
        <pre id="job-log" class="log" node_ref=log_ref tabindex="0" aria-label=t("job.log")>
            {move || logs.with(|v| matching(v, &search.get()).iter().map(|l| format!("{}\n", l.text)).collect::<String>())}
        </pre>
    }
}

/// What people write on a run: its name, note and tags, saved with `PATCH /jobs/{id}`. Built
/// once per page: the fields are filled when a job is first shown (or another job is), never
/// while someone types, whatever state changes arrive meanwhile.
#[component]
fn LabelsPanel(job: RwSignal<Option<Job>>) -> impl IntoView {
    let writes = crate::components::team_pick::may_write(move || {
        job.with(|j| j.as_ref().map(|j| j.team_id))
    });
    let name = RwSignal::new(String::new());
    let note = RwSignal::new(String::new());
    let tags = RwSignal::new(String::new());
    let status = RwSignal::new(None::<Result<(), String>>);
    let shown = Memo::new(move |_| job.with(|j| j.as_ref().map(|j| j.id)));
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if shown.get().is_some() {
            job.with_untracked(|j| {
                if let Some(j) = j {
                    name.set(j.name.clone());
                    note.set(j.note.clone());
                    tags.set(j.tags.join(", "));
                    open.set(!j.name.is_empty() || !j.note.is_empty() || !j.tags.is_empty());
                    status.set(None);
                }
            });
        }
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(id) = shown.get_untracked() else {
            return;
        };
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
            match api::call(ep::LabelJob::url([&id]), &labels).await {
                Ok(j) => {
                    status.set(Some(Ok(())));
                    job.set(Some(j));
                }
                Err(e) => status.set(Some(Err(e.message))),
            }
        });
    };
    view! {
        <Show when=move || shown.get().is_some()>
        <details class="labels" id="job-labels" prop:open=move || open.get()>
            <summary>{t("job.labels")}</summary>
            <form on:submit=save class="labels-form">
                <label>{t("job.name")}" "<input id="job-name" type="text" maxlength="120" prop:readOnly=move || !writes.get() prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) /></label>
                <label>{t("job.tags")}" "<input id="job-tags" type="text" placeholder="baseline, zero3" prop:readOnly=move || !writes.get() prop:value=move || tags.get() on:input=move |ev| tags.set(event_target_value(&ev)) /></label>
                <label class="wide">{t("job.note")}" "<textarea id="job-note" rows="2" maxlength="4000" prop:readOnly=move || !writes.get() prop:value=move || note.get() on:input=move |ev| note.set(event_target_value(&ev))></textarea></label>
                {move || writes.get().then(|| view! { <button type="submit" id="save-labels">{t("job.save_labels")}</button> })}
                {move || status.get().map(|s| match s {
                    Ok(()) => view! { <span class="muted" id="labels-status" role="status">{t("job.saved")}</span> }.into_any(),
                    Err(e) => view! { <span class="error" id="labels-status" role="alert">{e}</span> }.into_any(),
                })}
            </form>
        </details>
        </Show>
    }
}

/// The job at a glance: state, elapsed time (ticking while live), runner, release, world,
/// final and best loss, median samples/s, peak memory beside the estimate.
#[component]
fn SummaryPanel(
    job: Job,
    series: RwSignal<Series>,
    now: RwSignal<f64>,
    estimate: RwSignal<Option<Estimate>>,
) -> impl IntoView {
    // An ended job's figures come from the server, read from every point (the charts hold
    // the downsampled series); a live job's from what has arrived so far.
    let stored = job.summary.clone().filter(|_| job.state.is_terminal());
    let figures = Memo::new(move |_| {
        stored
            .clone()
            .unwrap_or_else(|| series.with(super::job_summary::summary))
    });
    let peak = Memo::new(move |_| figures.get().peak_memory_mb);
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
            <div><dt>{t("job.s_state")}</dt><dd class=state_class(job.state)>{crate::i18n::job_state(job.state.as_str())}</dd></div>
            <div><dt>{t("job.s_elapsed")}</dt><dd id="job-elapsed">{move || duration_in(&j, now.get(), crate::i18n::use_lang().get())}</dd></div>
            <div><dt>{t("job.s_submitted")}</dt><dd id="job-submitted"><crate::components::states::When at=job.created_at.clone() /></dd></div>
            {job.finished_at.clone().map(|at| view! { <div><dt>{t("job.s_finished")}</dt><dd id="job-finished"><crate::components::states::When at=at /></dd></div> })}
            <div><dt>{t("job.s_runner")}</dt><dd>{job.runner.clone().unwrap_or_else(|| "—".into())}</dd></div>
            <div><dt>{t("job.launcher")}</dt><dd id="job-launcher">{launcher_name(&job.facts.launcher)}</dd></div>
            <div><dt>"DeepSpeed"</dt><dd>{release}</dd></div>
            <div><dt>{t("job.s_world")}</dt><dd>{format!("{} × {}", job.nodes, job.gpus)}</dd></div>
            <div><dt>{t(if job.state.is_terminal() { "job.s_final_loss" } else { "job.s_latest_loss" })}</dt><dd id="job-final-loss">{
                // A loss that became NaN is said so, not its last finite value.
                let diverged = job.reason == Some(FailureReason::NonFiniteLoss);
                move || if diverged { "NaN".to_string() } else { num(figures.get().final_loss, 4) }
            }</dd></div>
            <div><dt>{t("job.s_best_loss")}</dt><dd>{move || num(figures.get().best_loss, 4)}</dd></div>
            // DeepSpeed's own samples/s, the median of what it printed; where it printed none
            // (a run shorter than steps_per_print), the workload's figure for the whole run.
            <div><dt>{move || if series.with(|s| s.get("samples_per_sec").is_some_and(|p| !p.is_empty())) || figures.get().median_samples_per_sec.is_none() { t("job.s_samples")() } else { t("job.s_samples_run")() }}</dt>
                <dd id="job-samples">{move || num(figures.get().median_samples_per_sec, 1)}</dd></div>
            <div><dt>{t("job.s_peak")}</dt><dd id="job-peak">{move || {
                // What was measured: the process's resident memory on a CPU (torch included),
                // DeepSpeed's max allocated on a GPU; the estimate is per GPU for the config.
                let what = if on_cpu { t("job.s_rss")() } else { t("job.s_gpu_alloc")() };
                let est = estimate.get().map(|e| e.gpu_peak_bytes as f64 / 1048576.0);
                match (peak.get(), est) {
                    // On a CPU there is no GPU: the per-GPU estimate does not compare.
                    // MiB as the estimate and the measured peak above are said.
                    (Some(p), Some(e)) if !on_cpu => format!("{} {what} ({} {})", human_bytes((p * 1048576.0) as u64), t("job.s_estimated")(), human_bytes((e * 1048576.0) as u64)),
                    (Some(p), _) => format!("{} {what}", human_bytes((p * 1048576.0) as u64)),
                    _ => "—".into(),
                }
            }}</dd></div>
            // A rehearsal's own figures: what it trains, tokens/s, the model's TFLOP/s.
            {move || {
                let last = |name: &str| series.with(|s| s.get(name).and_then(|p| p.last()).map(|p| p.1));
                let tiles = [
                    ("result/trainable_params", "job.s_trainable", "job-trainable"),
                    ("result/tokens_per_sec", "job.s_tokens", "job-tokens"),
                    ("result/model_tflops", "job.s_tflops", "job-tflops"),
                ];
                tiles.into_iter().filter_map(|(name, label, id)| {
                    let v = last(name)?;
                    let shown = match name {
                        "result/trainable_params" => ds_studio_shared::estimate::format_count(v as u64),
                        "result/model_tflops" => format!("{v:.3}"),
                        _ => format!("{v:.0}"),
                    };
                    Some(view! { <div><dt>{t(label)}</dt><dd id=id>{shown}</dd></div> })
                }).collect_view()
            }}
        </dl>
    }
}

/// The config DeepSpeed ran: under an HF launcher the dict it handed over (once the job
/// reported it), else the saved config with the values the launcher was predicted to fill.
pub fn as_launched(mut config: serde_json::Value, job: &Job) -> serde_json::Value {
    if let Some(h) = &job.handed_config {
        return h.clone();
    }
    for f in &job.filled {
        let mut at = &mut config;
        let parts: Vec<&str> = f.path.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            if !at.is_object() {
                break;
            }
            if i + 1 == parts.len() {
                at[*part] = f.value.clone();
            } else {
                at = &mut at[*part];
            }
        }
    }
    config
}

/// Where a filled value came from, in `lang`: argument names and HF's own names (`DummyOptim`,
/// `--mixed_precision bf16`) as they are, the validator model's phrases in Chinese.
pub fn filled_from(from: &str, lang: ds_studio_shared::i18n::Lang) -> String {
    if lang != ds_studio_shared::i18n::Lang::Zh {
        return from.to_string();
    }
    const PHRASES: &[(&str, &str)] = &[
        (
            "accelerate: float('inf'), which silences DeepSpeed's own log",
            "accelerate 设为 float('inf')，DeepSpeed 自己的日志因此不再打印",
        ),
        (
            "train_batch_size (calculated)",
            "train_batch_size（由 micro batch × 累积 × world size 算出）",
        ),
        (
            "micro batch × accumulation × world size",
            "micro batch × 梯度累积 × world size",
        ),
        (
            "the Accelerator's gradient_accumulation_steps",
            "Accelerator 的 gradient_accumulation_steps",
        ),
        ("the dataloader's batch_size", "dataloader 的 batch_size"),
        ("accelerate default", "accelerate 默认值"),
        ("accelerate (absent: 1)", "accelerate（未设置时为 1）"),
        ("the optimizer's lr", "优化器的 lr"),
        ("the Trainer's own optimizer", "Trainer 自己的优化器"),
        ("the script's steps / processes", "脚本的步数 / 进程数"),
        ("DummyScheduler (max(1, 0))", "DummyScheduler（max(1, 0)）"),
        ("0", "固定为 0"),
    ];
    if let Some((_, zh)) = PHRASES.iter().find(|(en, _)| *en == from) {
        return zh.to_string();
    }
    // `hidden_size²`, `0.9 × hidden_size²`, `10 × hidden_size`, with ", hidden_size unknown: 4096
    // assumed" when the model's width was not given.
    if from.contains("hidden_size") {
        return from
            .replace(", hidden_size unknown: ", "，hidden_size 未知：假定为 ")
            .replace(" assumed", "");
    }
    from.to_string()
}

/// One filled value: the key, what the validator predicted HF would write and from which
/// argument, and what DeepSpeed received there (when the job has reported it).
pub fn filled_rows(job: &Job) -> Vec<(String, String, String, Option<String>)> {
    job.filled
        .iter()
        .map(|f| {
            let got = job.handed_config.as_ref().map(|h| {
                f.received(h)
                    .map_or_else(|| "—".to_string(), |v| v.to_string())
            });
            (f.path.clone(), f.value.to_string(), f.from.clone(), got)
        })
        .collect()
}

/// What the HF launcher filled in the config (predicted at submission, beside what DeepSpeed
/// received) and the whole dict it handed to `deepspeed.initialize`.
#[component]
fn HandedPanel(job: Job) -> impl IntoView {
    let rows = filled_rows(&job);
    let handed = job
        .handed_config
        .as_ref()
        .map(|h| serde_json::to_string_pretty(h).unwrap_or_default());
    view! {
        <details id="job-handed" class="card" open>
            <summary>{t("job.filled")}" · "{launcher_name(&job.facts.launcher)}</summary>
            <table id="job-filled" class="compact">
                <thead><tr><th>{t("job.filled_key")}</th><th>{t("job.filled_value")}</th><th>{t("job.filled_from")}</th><th>{t("job.filled_got")}</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(path, value, from, got)| {
                        let same = got.as_deref().is_none_or(|g| g == value);
                        view! {
                            <tr class=if same { "" } else { "warning" }>
                                <td><code>{path}</code></td><td><code>{value}</code></td><td>{move || filled_from(&from, crate::i18n::use_lang().get())}</td>
                                <td>{got.map_or_else(|| "…".to_string(), |g| if same { format!("✓ {g}") } else { format!("≠ {g}") })}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            {match handed {
                Some(h) => view! { <details id="job-handed-dict"><summary>{t("job.handed")}</summary><pre class="log">{h}</pre></details> }.into_any(),
                None => view! { <p class="muted">{t("job.handed_pending")}</p> }.into_any(),
            }}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_follows_the_config_and_the_measured_peak_the_report() {
        let job = |size: &str, launcher: &str| -> Job {
            serde_json::from_value(serde_json::json!({
                "id": 1, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
                "state": "running", "workload": {"builtin": "gpt", "size": size}, "gpus": 1,
                "nodes": 1, "max_steps": 20, "created_by": "a", "created_at": "x", "last_seq": 0,
                "facts": {"launcher": launcher}
            }))
            .unwrap()
        };
        // The measured xl ZeRO-2 micro 8 run: 32,972 MiB on an H200.
        let z2 = serde_json::json!({"train_micro_batch_size_per_gpu": 8, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}},
            "zero_optimization": {"stage": 2, "overlap_comm": true}});
        let e = estimate_of(&job("xl", "deepspeed"), &z2).unwrap();
        let off = estimate_error(&e, 32971.7).unwrap();
        assert_eq!(off, "+2%");
        assert!(estimate_line(&e, ds_studio_shared::i18n::Lang::Zh).contains("出现在前向传播结束"));
        // transformers' GPT-2 under the HF Trainer keeps more activations.
        let hf = estimate_of(&job("xl", "hf-trainer"), &z2).unwrap();
        assert!(hf.gpu_peak_bytes > e.gpu_peak_bytes);
        // Offloading the optimizer leaves no optimizer states on the GPU.
        let off = estimate_of(
            &job("tiny", "deepspeed"),
            &serde_json::json!({"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}),
        )
        .unwrap();
        assert_eq!(
            off.gpu_part(ds_studio_shared::memory::Part::OptimizerStates),
            0
        );
        // A script of the user's own: no estimate.
        let mut own = job("tiny", "deepspeed");
        own.workload.builtin = None;
        assert!(estimate_of(&own, &z2).is_none());
        let mut s = Series::new();
        assert_eq!(measured_peak_mb(&s), None);
        s.insert("max_mem_allocated_gb".into(), vec![(5, 0.5)]);
        assert_eq!(measured_peak_mb(&s), Some(512.0));
        s.insert("result/peak_memory_mb".into(), vec![(20, 666.1)]);
        assert_eq!(measured_peak_mb(&s), Some(666.1));
    }

    #[test]
    fn filled_values_are_set_beside_what_deepspeed_received() {
        let mut job: Job = serde_json::from_value(serde_json::json!({
            "id": 1, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
            "state": "succeeded", "workload": {"builtin": "gpt", "size": "tiny"}, "gpus": 1,
            "nodes": 1, "max_steps": 20, "created_by": "a", "created_at": "x", "last_seq": 0,
            "facts": {"launcher": "hf-trainer"},
            "filled": [
                {"path": "train_micro_batch_size_per_gpu", "value": 4, "from": "per_device_train_batch_size"},
                {"path": "optimizer.params.lr", "value": 0.001, "from": "learning_rate"}
            ]
        }))
        .unwrap();
        let rows = filled_rows(&job);
        assert_eq!(rows[0].3, None, "not reported yet");
        job.handed_config = Some(serde_json::json!({
            "train_micro_batch_size_per_gpu": 4, "optimizer": {"params": {"lr": 0.002}}
        }));
        let rows = filled_rows(&job);
        assert_eq!(rows[0].3.as_deref(), Some("4"));
        assert_eq!(rows[1].1, "0.001");
        assert_eq!(
            rows[1].3.as_deref(),
            Some("0.002"),
            "a different value is shown as it is"
        );
        assert_eq!(launcher_name(&job.facts.launcher), "HF Trainer");
        // The sources in Chinese: the model's phrases translated, names kept.
        use ds_studio_shared::i18n::Lang;
        assert_eq!(
            filled_from("the dataloader's batch_size", Lang::Zh),
            "dataloader 的 batch_size"
        );
        assert_eq!(filled_from("learning_rate", Lang::Zh), "learning_rate");
        assert_eq!(
            filled_from("hidden_size², hidden_size unknown: 4096 assumed", Lang::Zh),
            "hidden_size²，hidden_size 未知：假定为 4096"
        );
        assert_eq!(
            filled_from("the dataloader's batch_size", Lang::En),
            "the dataloader's batch_size"
        );
        // The config as run: the handed dict once reported; before, the saved one filled in.
        let saved = serde_json::json!({"train_micro_batch_size_per_gpu": "auto", "optimizer": {"params": {"lr": "auto"}}});
        assert_eq!(
            as_launched(saved.clone(), &job),
            job.handed_config.clone().unwrap()
        );
        job.handed_config = None;
        let filled = as_launched(saved, &job);
        assert_eq!(filled["train_micro_batch_size_per_gpu"], 4);
        assert_eq!(filled["optimizer"]["params"]["lr"], 0.001);
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
    fn axes_convert_between_steps_and_samples() {
        let j: Job = serde_json::from_value(serde_json::json!({
            "id": 1, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
            "state": "running", "workload": {"builtin": "gpt"}, "gpus": 2, "nodes": 1,
            "max_steps": 20, "created_by": "a", "created_at": "2026-11-21T21:46:51.712Z",
            "last_seq": 3, "facts": {"micro_batch": 4}
        }))
        .unwrap();
        let c = serde_json::json!({"train_batch_size": 16});
        assert_eq!(global_batch(&c, &j), Some(16));
        // Derived: micro 4 (from the config, else the job's facts) × GAS 3 × 2 GPUs.
        assert_eq!(
            global_batch(&serde_json::json!({"gradient_accumulation_steps": 3}), &j),
            Some(24)
        );
        assert_eq!(
            global_batch(&serde_json::json!({"train_batch_size": "auto"}), &j),
            Some(8)
        );
        let samples = vec![(16, 1.0), (32, 2.0)];
        assert_eq!(
            on_axis(samples.clone(), "samples", "steps", Some(16)),
            (vec![(1, 1.0), (2, 2.0)], "steps")
        );
        assert_eq!(
            on_axis(samples.clone(), "samples", "samples", Some(16)),
            (samples.clone(), "samples")
        );
        assert_eq!(
            on_axis(vec![(3, 5.0)], "steps", "samples", Some(16)),
            (vec![(48, 5.0)], "samples")
        );
        // Unknown batch or wall time: left as they are.
        assert_eq!(
            on_axis(samples.clone(), "samples", "steps", None),
            (samples, "samples")
        );
        assert_eq!(
            on_axis(vec![(7, 1.0)], "s", "steps", Some(16)),
            (vec![(7, 1.0)], "s")
        );
    }

    #[test]
    fn thinning_keeps_the_ends_and_averages_buckets() {
        let ramp: Vec<(i64, f64)> = (1..=1000).map(|i| (i * 4, i as f64)).collect();
        let t = thin(&ramp, 12);
        assert_eq!(t.len(), 12);
        assert_eq!(t[0], (4, 1.0));
        assert_eq!(t[11], (4000, 1000.0));
        // The same first bucket as the server's (steps 8..=404, values 2..=101).
        assert_eq!(t[1], (404, 51.5));
        assert!(t.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(thin(&ramp[..5], 12), ramp[..5].to_vec());
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
