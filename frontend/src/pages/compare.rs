//! `/jobs/compare/:ids` (`1,2,3`): several runs side by side. A summary table (state, world,
//! final and best loss, median samples/s, peak memory, duration; each run linked), what differs
//! between the configs they ran (the fitted config where a job was fitted, else its version's;
//! each run against the first), and one chart each for loss, learning rate and throughput, from
//! their stored metrics (downsampled to 500 points per series).

use crate::api;
use crate::components::chart::{ChartControls, LineChart, NamedSeries};
use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Change, Job, MetricSeries};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;

/// The job ids of the path, in order, without repeats (at most 8).
pub fn parse_ids(s: &str) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for id in s.split(',').filter_map(|x| x.trim().parse().ok()) {
        if !out.contains(&id) && out.len() < 8 {
            out.push(id);
        }
    }
    out
}

/// One chart's series: the metric `name` of every run, labelled `#id template@version` (and
/// the run's name), on an x axis counting `axis` (each run converted with its own global batch,
/// so runs with different batches line up by step or by samples). Answers the unit x is in.
pub fn runs_of(
    runs: &[(Job, Vec<MetricSeries>)],
    configs: &[serde_json::Value],
    name: &str,
    native: &'static str,
    axis: &'static str,
) -> (NamedSeries, &'static str) {
    let mut unit = native;
    let series = runs
        .iter()
        .enumerate()
        .filter_map(|(i, (j, series))| {
            let s = series.iter().find(|s| s.name == name)?;
            let batch = configs.get(i).and_then(|c| super::job::global_batch(c, j));
            let (points, u) = super::job::on_axis(s.points.clone(), native, axis, batch);
            unit = u;
            let label = if j.name.is_empty() {
                format!("#{} {}@{}", j.id, j.template_name, j.version)
            } else {
                format!("#{} {}", j.id, j.name)
            };
            Some((label, points))
        })
        .collect();
    (series, unit)
}

/// What each run's config differs in from the first run's (semantic: key order ignored).
pub fn config_changes(configs: &[serde_json::Value]) -> Vec<Vec<Change>> {
    let Some(first) = configs.first() else {
        return Vec::new();
    };
    configs
        .iter()
        .skip(1)
        .map(|c| ds_studio_shared::diff::semantic(first, c))
        .collect()
}

/// A change as one line: `/optimizer/params/lr: 0.001 → 0.002`.
pub fn change_line(c: &Change) -> String {
    let show =
        |v: &Option<serde_json::Value>| v.as_ref().map_or("—".to_string(), |v| v.to_string());
    format!("{}: {} → {}", c.path, show(&c.old), show(&c.new))
}

/// The figures of a run for the summary table: the server's (from every point) once it
/// ended, else from its stored (downsampled) series.
fn figures(job: &Job, series: &[MetricSeries]) -> ds_studio_shared::api::RunSummary {
    if let Some(s) = job.summary.clone().filter(|_| job.state.is_terminal()) {
        return s;
    }
    let map: std::collections::BTreeMap<String, Vec<(i64, f64)>> = series
        .iter()
        .map(|s| (s.name.clone(), s.points.clone()))
        .collect();
    ds_studio_shared::api::run_summary(&map)
}

const CHARTS: &[(&str, &str, &str)] = &[
    ("job.loss", "samples", "Train/Samples/train_loss"),
    ("job.lr", "samples", "Train/Samples/lr"),
    ("job.throughput", "steps", "samples_per_sec"),
];

/// One run's config changes against the first run's, under a heading.
#[component]
fn DiffPair(head: String, changes: Vec<Change>) -> impl IntoView {
    view! {
        <div class="diff-pair">
            <h4>{head}</h4>
            {if changes.is_empty() {
                view! { <p class="muted">{t("compare.same")}</p> }.into_any()
            } else {
                view! { <ul>{changes.iter().map(|c| view! { <li><code>{change_line(c)}</code></li> }).collect_view()}</ul> }.into_any()
            }}
        </div>
    }
}

#[component]
pub fn CompareJobsPage() -> impl IntoView {
    let params = use_params_map();
    let runs = RwSignal::new(Vec::<(Job, Vec<MetricSeries>)>::new());
    // The config each run ran, in the order of `runs`; and its version's, where it was fitted.
    let configs = RwSignal::new(Vec::<serde_json::Value>::new());
    let versions = RwSignal::new(Vec::<serde_json::Value>::new());
    let error = RwSignal::new(None::<String>);
    let axis = RwSignal::new("samples");
    let smoothing = RwSignal::new(0.0f64);
    Effect::new(move |_| {
        let ids = parse_ids(&params.with(|p| p.get("ids").unwrap_or_default()));
        runs.set(Vec::new());
        spawn_local(async move {
            let mut out = Vec::new();
            let mut ran = Vec::new();
            let mut saved = Vec::new();
            for id in ids {
                let job = api::fetch(ep::GetJob::url([&id])).await;
                let metrics = api::fetch(
                    ep::JobMetrics::url([&id]).query("max_points", super::job::CHART_POINTS),
                )
                .await;
                match (job, metrics) {
                    (Ok(j), Ok(m)) => {
                        let version = api::fetch(ep::GetVersion::url([&j.template_id, &j.version]))
                            .await
                            .map(|v| v.config)
                            .unwrap_or_default();
                        let config = match &j.fit {
                            Some(f) => ds_studio_shared::document::Document::parse(&f.config_text)
                                .to_value()
                                .unwrap_or_default(),
                            None => version.clone(),
                        };
                        ran.push(config);
                        saved.push(version);
                        out.push((j, m));
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        error.set(Some(format!("job {id}: {}", e.message)))
                    }
                }
            }
            configs.set(ran);
            versions.set(saved);
            runs.set(out);
        });
    });
    view! {
        <section class="card">
            <h2>{t("compare.title")}</h2>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <div class="table-scroll"><table id="compare-summary" class="table">
                <thead><tr>
                    <th>{t("compare.run")}</th><th>{t("job.s_state")}</th><th>{t("job.s_world")}</th>
                    <th>{t("jobs.release")}</th><th>{t("jobs.zero")}</th><th>{t("jobs.precision")}</th><th>{t("jobs.micro")}</th>
                    <th>{t("job.s_final_loss")}</th><th>{t("job.s_best_loss")}</th>
                    <th>{t("jobs.samples")}</th><th>{t("job.s_peak")}</th><th>{t("compare.duration")}</th>
                </tr></thead>
                <tbody>
                    {move || runs.get().into_iter().map(|(j, series)| {
                        let f = figures(&j, &series);
                        let dash = |s: &str| if s.is_empty() { "—".to_string() } else { s.to_string() };
                        let peak = f.peak_memory_mb;
                        let num = |v: Option<f64>, d: usize| v.map_or_else(|| "—".to_string(), |v| format!("{v:.d$}"));
                        view! {
                            <tr data-job=j.id>
                                <td><a href=format!("/jobs/{}", j.id)>{format!("#{} {}@{}", j.id, j.template_name, j.version)}</a>
                                    {(!j.name.is_empty()).then(|| view! { <span class="muted">{format!(" {}", j.name)}</span> })}</td>
                                <td>{crate::i18n::job_state(j.state.as_str())}</td>
                                <td>{format!("{} × {}", j.nodes, j.gpus)}</td>
                                <td>{dash(&j.facts.deepspeed)}</td>
                                <td>{j.facts.zero_stage.map_or_else(|| "—".to_string(), |z| z.to_string())}</td>
                                <td>{dash(&j.facts.precision)}</td>
                                <td>{j.facts.micro_batch.map_or_else(|| "—".to_string(), |m| m.to_string())}</td>
                                <td class="final-loss">{num(f.final_loss, 4)}</td>
                                <td>{num(f.best_loss, 4)}</td>
                                <td>{num(f.median_samples_per_sec, 1)}</td>
                                <td>{peak.map_or_else(|| "—".to_string(), |p| ds_studio_shared::memory::human_bytes((p * 1048576.0) as u64))}</td>
                                <td>{crate::job_helpers::duration_in(&j, crate::clock::js_sys_now(), crate::i18n::use_lang().get())}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table></div>
            <div id="compare-diff">
                <h3>{t("compare.diff")}</h3>
                {move || {
                    let list = runs.get();
                    let changes = configs.with(|c| config_changes(c));
                    changes.into_iter().enumerate().map(|(i, ch)| {
                        let (first, other) = (&list[0].0, &list[i + 1].0);
                        let head = format!("#{} → #{}", first.id, other.id);
                        view! { <DiffPair head changes=ch /> }
                    }).collect_view()
                }}
            </div>
            // Where a run was fitted, the configs as run differ from their versions: the versions'
            // own diff too.
            {move || {
                let list = runs.get();
                list.iter().any(|(j, _)| j.fit.is_some()).then(|| {
                    let changes = versions.with(|c| config_changes(c));
                    view! {
                        <div id="compare-version-diff">
                            <h3>{t("compare.version_diff")}</h3>
                            {changes.into_iter().enumerate().map(|(i, ch)| {
                                let head = format!("{}@{} → {}@{}", list[0].0.template_name, list[0].0.version, list[i + 1].0.template_name, list[i + 1].0.version);
                                view! { <DiffPair head changes=ch /> }
                            }).collect_view()}
                        </div>
                    }
                })
            }}
            <ChartControls axis smoothing />
            <div class="charts">
                {CHARTS.iter().map(|(title, native, name)| {
                    let name: &'static str = name;
                    let native: &'static str = native;
                    let drawn = Memo::new(move |_| {
                        let a = axis.get();
                        runs.with(|r| configs.with(|c| runs_of(r, c, name, native, a)))
                    });
                    view! {
                        <LineChart key=title title=Signal::derive(t(title))
                            x_label=Signal::derive(move || t(crate::components::chart::unit_key(drawn.with(|d| d.1)))().to_string())
                            series=Signal::derive(move || drawn.with(|d| d.0.clone()))
                            smoothing=smoothing />
                    }
                }).collect_view()}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_and_runs_become_labelled_series() {
        assert_eq!(parse_ids("3, 1,x,3,2"), vec![3, 1, 2]);
        let job = |id: i64| -> Job {
            serde_json::from_value(serde_json::json!({
                "id": id, "template_id": 1, "template_name": "t", "team_id": 1, "version": id,
                "state": "succeeded", "workload": {"builtin": "gpt"}, "gpus": 1, "nodes": 1,
                "max_steps": 20, "created_by": "a", "created_at": "x", "last_seq": 0
            }))
            .unwrap()
        };
        let lr = |v: f64| MetricSeries {
            name: "Train/Samples/lr".into(),
            total: 1,
            points: vec![(8, v)],
        };
        let runs = vec![
            (job(1), vec![lr(0.1)]),
            (job(2), vec![]),
            (job(3), vec![lr(0.3)]),
        ];
        // Configs: each run against the first.
        let configs = vec![
            serde_json::json!({"train_batch_size": 8, "optimizer": {"params": {"lr": 0.001}}}),
            serde_json::json!({"optimizer": {"params": {"lr": 0.002}}, "train_batch_size": 8}),
            serde_json::json!({"train_batch_size": 8, "optimizer": {"params": {"lr": 0.001}}}),
        ];
        let ch = config_changes(&configs);
        assert_eq!(ch.len(), 2);
        assert_eq!(
            ch[0].iter().map(change_line).collect::<Vec<_>>(),
            vec!["/optimizer/params/lr: 0.001 → 0.002"]
        );
        assert!(ch[1].is_empty());
        let (s, unit) = runs_of(&runs, &configs, "Train/Samples/lr", "samples", "samples");
        assert_eq!(unit, "samples");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].0, "#1 t@1");
        assert_eq!(s[1].1, vec![(8, 0.3)]);
        // By steps: each run with its own global batch (8 here: sample 8 is step 1).
        let (s, unit) = runs_of(&runs, &configs, "Train/Samples/lr", "samples", "steps");
        assert_eq!(unit, "steps");
        assert_eq!(s[1].1, vec![(1, 0.3)]);
    }
}
