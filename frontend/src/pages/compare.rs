//! `/jobs/compare/:ids` (`1,2,3`): several runs on one chart each for loss, learning rate and
//! throughput, from their stored metrics (downsampled to 500 points per series).

use crate::api;
use crate::components::chart::{LineChart, NamedSeries};
use crate::i18n::t;
use ds_studio_shared::api::{Job, MetricSeries};
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

/// One chart's series: the metric `name` of every run, labelled `#id template@version`.
pub fn runs_of(runs: &[(Job, Vec<MetricSeries>)], name: &str) -> NamedSeries {
    runs.iter()
        .filter_map(|(j, series)| {
            let s = series.iter().find(|s| s.name == name)?;
            Some((
                format!("#{} {}@{}", j.id, j.template_name, j.version),
                s.points.clone(),
            ))
        })
        .collect()
}

const CHARTS: &[(&str, &str, &str)] = &[
    ("job.loss", "samples", "Train/Samples/train_loss"),
    ("job.lr", "samples", "Train/Samples/lr"),
    ("job.throughput", "steps", "samples_per_sec"),
];

#[component]
pub fn CompareJobsPage() -> impl IntoView {
    let params = use_params_map();
    let runs = RwSignal::new(Vec::<(Job, Vec<MetricSeries>)>::new());
    let error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let ids = parse_ids(&params.with(|p| p.get("ids").unwrap_or_default()));
        runs.set(Vec::new());
        spawn_local(async move {
            let mut out = Vec::new();
            for id in ids {
                let job = api::get::<Job>(&format!("/api/v1/jobs/{id}")).await;
                let metrics = api::get::<Vec<MetricSeries>>(&format!(
                    "/api/v1/jobs/{id}/metrics?max_points=500"
                ))
                .await;
                match (job, metrics) {
                    (Ok(j), Ok(m)) => out.push((j, m)),
                    (Err(e), _) | (_, Err(e)) => {
                        error.set(Some(format!("job {id}: {}", e.message)))
                    }
                }
            }
            runs.set(out);
        });
    });
    view! {
        <section class="card">
            <h2>{t("compare.title")}</h2>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <div class="charts">
                {CHARTS.iter().map(|(title, x, name)| {
                    let name: &'static str = name;
                    view! {
                        <LineChart key=title title=Signal::derive(t(title)) x_label=x
                            series=Signal::derive(move || runs.with(|r| runs_of(r, name))) />
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
        let s = runs_of(&runs, "Train/Samples/lr");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].0, "#1 t@1");
        assert_eq!(s[1].1, vec![(8, 0.3)]);
    }
}
