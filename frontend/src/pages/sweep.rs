//! `/sweeps/:id`: one sweep, live. Every point of the grid in a table (its values, state,
//! predicted and measured peak, samples/s, tokens/s, model TFLOP/s, its job and why it did not
//! run or finish), ranked by samples/s as points finish; a chart of samples/s against the micro
//! batch, one line per ZeRO stage (or per the other keys); Cancel; and "Save the best as a new
//! version" with what it changes against the base version first. Follows
//! `GET /api/v1/sweeps/{id}/events` (one `sweep` event per change) until the sweep ends.

use crate::api;
use crate::components::chart::{LineChart, NamedSeries};
use crate::i18n::{t, tr, use_lang};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{value_word, PointState, Sweep, SweepPoint, SweepState, Version};
use ds_studio_shared::memory::human_bytes;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

const MICRO: &str = "train_micro_batch_size_per_gpu";

/// The chart's series: samples/s of the succeeded points against the micro batch, one line per
/// combination of the other keys (`stage=2`), when the grid varies the micro batch.
pub fn throughput_series(sweep: &Sweep) -> NamedSeries {
    if !sweep.grid.iter().any(|a| a.key == MICRO) {
        return Vec::new();
    }
    let mut lines: Vec<(String, Vec<(i64, f64)>)> = Vec::new();
    for p in &sweep.points {
        let (Some(sps), Some(micro)) = (
            p.samples_per_sec
                .filter(|_| p.state == PointState::Succeeded),
            p.values.get(MICRO).and_then(|v| v.as_i64()),
        ) else {
            continue;
        };
        let label = p
            .values
            .iter()
            .filter(|(k, _)| k.as_str() != MICRO)
            .map(|(k, v)| format!("{}={}", k.rsplit('.').next().unwrap_or(k), value_word(v)))
            .collect::<Vec<_>>()
            .join(" ");
        let label = if label.is_empty() {
            "samples/s".to_string()
        } else {
            label
        };
        match lines.iter_mut().find(|(l, _)| *l == label) {
            Some((_, pts)) => pts.push((micro, sps)),
            None => lines.push((label, vec![(micro, sps)])),
        }
    }
    for (_, pts) in &mut lines {
        pts.sort_by_key(|p| p.0);
    }
    lines
}

fn state_key(s: PointState) -> &'static str {
    match s {
        PointState::Queued => "state.queued",
        PointState::Running => "state.running",
        PointState::Succeeded => "state.succeeded",
        PointState::Failed => "state.failed",
        PointState::Pruned => "sweep.pruned",
        PointState::Cancelled => "state.cancelled",
    }
}

fn sweep_state_key(s: SweepState) -> &'static str {
    match s {
        SweepState::Running => "state.running",
        SweepState::Finished => "sweep.finished",
        SweepState::Cancelled => "state.cancelled",
    }
}

fn figure(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "—".into(), |v| format!("{v:.digits$}"))
}

#[cfg(target_arch = "wasm32")]
fn open_stream(id: i64, sweep: RwSignal<Option<Sweep>>) -> Option<web_sys::EventSource> {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let es = web_sys::EventSource::new(ep::SweepEvents::url([&id]).as_str()).ok()?;
    let es2 = es.clone();
    let on_sweep = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let data = ev
            .dyn_ref::<web_sys::MessageEvent>()
            .and_then(|m| m.data().as_string());
        if let Some(s) = data.and_then(|d| serde_json::from_str::<Sweep>(&d).ok()) {
            if s.state != SweepState::Running {
                es2.close();
            }
            sweep.set(Some(s));
        }
    });
    let _ = es.add_event_listener_with_callback("sweep", on_sweep.as_ref().unchecked_ref());
    on_sweep.forget();
    Some(es)
}

#[component]
pub fn SweepPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| {
        params.with(|p| p.get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0))
    });
    let lang = use_lang();
    let sweep = RwSignal::new(None::<Sweep>);
    // Cancel and Save the best are for the team's editors; viewers see the sweep.
    let writes = crate::components::team_pick::may_write(move || {
        sweep.with(|s| s.as_ref().map(|s| s.team_id))
    });
    let missing = RwSignal::new(None::<api::ApiError>);
    let error = RwSignal::new(None::<String>);
    let base = RwSignal::new(None::<Version>);
    let preview = RwSignal::new(false);
    let saved = RwSignal::new(None::<Version>);
    #[cfg(target_arch = "wasm32")]
    let stream = StoredValue::new_local(None::<web_sys::EventSource>);
    Effect::new(move |_| {
        let sid = id.get();
        sweep.set(None);
        missing.set(None);
        saved.set(None);
        preview.set(false);
        #[cfg(target_arch = "wasm32")]
        if let Some(old) = stream.try_update_value(|s| s.take()).flatten() {
            old.close();
        }
        spawn_local(async move {
            match api::fetch(ep::GetSweep::url([&sid])).await {
                Ok(s) => {
                    let running = s.state == SweepState::Running;
                    let (tid, v) = (s.template_id, s.version);
                    sweep.set(Some(s));
                    #[cfg(target_arch = "wasm32")]
                    if running {
                        let es = open_stream(sid, sweep);
                        stream.set_value(es);
                    }
                    #[cfg(not(target_arch = "wasm32"))]
                    let _ = running;
                    if let Ok(ver) = api::fetch(ep::GetVersion::url([&tid, &v])).await {
                        base.set(Some(ver));
                    }
                }
                Err(e) => missing.set(Some(e)),
            }
        });
    });
    on_cleanup(move || {
        #[cfg(target_arch = "wasm32")]
        if let Some(old) = stream.try_update_value(|s| s.take()).flatten() {
            old.close();
        }
    });
    let cancel = move |_| {
        let sid = id.get_untracked();
        let asked = tr("sweep.cancel_confirm", lang.get_untracked());
        if !leptos::prelude::window()
            .confirm_with_message(asked)
            .unwrap_or(false)
        {
            return;
        }
        spawn_local(async move {
            match api::fetch(ep::CancelSweep::url([&sid])).await {
                Ok(s) => sweep.set(Some(s)),
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    let save_best = move |_| {
        let sid = id.get_untracked();
        spawn_local(async move {
            match api::call(ep::SaveBest::url([&sid]), &Default::default()).await {
                Ok(v) => {
                    saved.set(Some(v));
                    preview.set(false);
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    // What saving the best changes against the base version.
    let best_changes = Memo::new(move |_| {
        let s = sweep.get()?;
        let best = s.best_point()?.config_text.clone()?;
        let base = base.get()?;
        let new = ds_studio_shared::Document::parse(&best).to_value()?;
        Some(ds_studio_shared::diff::semantic(&base.config, &new))
    });
    // Under the HF launchers what the best point changes in the training arguments (its
    // config keeps "auto"): `per_device_train_batch_size: 2 → 4`.
    let best_trainer_changes = Memo::new(move |_| {
        let s = sweep.get()?;
        let best = s.best_point()?;
        let base = base.get()?;
        let values: Vec<(String, serde_json::Value)> = best
            .values
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        ds_studio_shared::trainer_edits::split_edits(&base.config, &base.context, &values)
            .ok()
            .map(|(_, _, changes)| changes)
    });
    view! {
        <section class="card sweep-page">
            {move || missing.get().map(|e| view! { <p class="error" role="alert" id="sweep-missing">{e.message}</p> })}
            {move || sweep.get().map(|s| {
                let l = lang.get();
                let colon = if l == ds_studio_shared::i18n::Lang::Zh { "：" } else { ": " };
                let title = if s.name.is_empty() {
                    format!("{} {}", tr("sweep.title", l), s.id)
                } else {
                    format!("{} {}{colon}{}", tr("sweep.title", l), s.id, s.name)
                };
                let runs = s.points.iter().filter(|p| p.job.is_some()).count();
                let meta = tr("sweep.meta", l)
                    .replace("{points}", &s.points.len().to_string())
                    .replace("{runs}", &runs.to_string())
                    .replace("{workload}", &s.workload.label())
                    .replace("{steps}", &s.max_steps.to_string());
                let runners = if s.runners.is_empty() { tr("sweep.any_runner", l).to_string() } else { s.runners.join(", ") };
                view! {
                    <h2 id="sweep-title">{title}" "<span id="sweep-state" class=format!("state {}", s.state.as_str())>{tr(sweep_state_key(s.state), l)}</span></h2>
                    <p class="muted" id="sweep-meta">
                        <A href=format!("/templates/{}", s.template_id)>{s.template_name.clone()}</A>
                        " · "{tr("sweep.base_version", l)}" "{s.version}" · "{meta}" · "{tr("sweep.runners", l)}" "{runners}
                        {s.keep_global_batch.then(|| format!(" · {}", tr("sweep.keeps_batch", l)))}
                        {s.early_stop.then(|| format!(" · {}", tr("sweep.early_stop_on", l)))}
                    </p>
                }
            })}
            {move || error.get().map(|e| view! { <p class="error" role="alert" id="sweep-error">{e}</p> })}
            {move || sweep.get().map(|s| {
                let l = lang.get();
                let best = s.best_point().cloned();
                view! {
                    <div class="toolbar">
                        {(s.state == SweepState::Running && writes.get()).then(|| view! {
                            <button id="sweep-cancel" on:click=cancel>{tr("sweep.cancel", l)}</button>
                        })}
                        {best.clone().filter(|_| writes.get()).map(|_| view! {
                            <button id="sweep-save-best" on:click=move |_| preview.update(|p| *p = !*p)>{tr("sweep.save_best", l)}</button>
                        })}
                    </div>
                    {best.map(|b| {
                        let key = if s.state == SweepState::Running { "sweep.best_so_far" } else { "sweep.best_line" };
                        let line = tr(key, l)
                            .replace("{n}", &(b.index + 1).to_string())
                            .replace("{values}", &b.label())
                            .replace("{sps}", &figure(b.samples_per_sec, 1));
                        view! { <p id="sweep-best" class="ok" role="status">{line}" "
                            {b.job.map(|j| view! { <A href=format!("/jobs/{j}")>{format!("{} #{j}", tr("sweep.job_word", l))}</A> })}</p> }
                    })}
                    {(s.best.is_none() && s.state != SweepState::Running).then(|| view! {
                        <p id="sweep-none" class="notice">{tr("sweep.none_succeeded", l)}</p>
                    })}
                }
            })}
            {move || preview.get().then(|| {
                let l = lang.get();
                let changes = best_changes.get().unwrap_or_default();
                view! {
                    <div id="save-best-preview" class="card inset">
                        <p>{tr("sweep.save_best_changes", l)}</p>
                        <ul id="save-best-changes">
                            {changes.iter().map(|c| view! { <li><code>{super::compare::change_line(c)}</code></li> }).collect_view()}
                            {best_trainer_changes.get().unwrap_or_default().into_iter().map(|c| view! {
                                <li class="trainer-change"><code>{format!("{}: {} → {}", c.key, ds_studio_shared::api::value_word(&c.from), ds_studio_shared::api::value_word(&c.to))}</code></li>
                            }).collect_view()}
                        </ul>
                        // Under the HF launchers the point may change the training arguments
                        // (the config keeps "auto"): its values are said too.
                        {move || sweep.with(|s| s.as_ref().and_then(|s| s.best_point().map(|b| b.label()))).map(|label| view! {
                            <p class="muted" id="save-best-values">{tr("sweep.save_best_values", l)}" "<code>{label}</code></p>
                        })}
                        <button id="save-best-confirm" on:click=save_best>{tr("sweep.save_best_confirm", l)}</button>
                    </div>
                }
            })}
            {move || saved.get().map(|v| {
                let l = lang.get();
                view! { <p id="save-best-done" class="ok" role="status">{tr("sweep.saved", l).replace("{v}", &v.version.to_string())}" "
                    <A href=format!("/templates/{}", v.template_id)>{tr("sweep.open_editor", l)}</A></p> }
            })}
            {move || sweep.with(|s| s.as_ref().map(throughput_series)).filter(|s| !s.is_empty()).map(|series| {
                // The one line of a sweep without other keys is named in the user's language.
                let unit = tr("sweep.samples_unit", lang.get());
                let series: crate::components::chart::NamedSeries = series
                    .into_iter()
                    .map(|(name, pts)| (if name == "samples/s" { unit.to_string() } else { name }, pts))
                    .collect();
                view! {
                    <div class="charts">
                        <LineChart key="sweep-throughput" title=Signal::derive(t("sweep.chart_title"))
                            x_label=Signal::derive(move || t("sweep.chart_x")().to_string())
                            series=Signal::derive(move || series.clone()) />
                    </div>
                }
            })}
            {move || sweep.get().map(|s| view! { <PointsTable sweep=s /> })}
        </section>
    }
}

#[component]
fn PointsTable(sweep: Sweep) -> impl IntoView {
    let lang = use_lang();
    let keys: Vec<String> = sweep.grid.iter().map(|a| a.key.clone()).collect();
    let rank_of = |p: &SweepPoint| {
        sweep
            .ranking
            .iter()
            .position(|i| *i == p.index)
            .map(|r| r + 1)
    };
    let mut order: Vec<(Option<usize>, SweepPoint)> = sweep
        .points
        .iter()
        .map(|p| (rank_of(p), p.clone()))
        .collect();
    // Ranked points first (fastest first), then the rest in grid order.
    order.sort_by_key(|(r, p)| (r.unwrap_or(usize::MAX), p.index));
    let rows = order
        .into_iter()
        .map(|(rank, p)| {
            let state = p.state;
            let cells = keys
                .iter()
                .map(|k| view! { <td>{p.values.get(k).map(value_word).unwrap_or_default()}</td> })
                .collect_view();
            let error_pct = p.estimate_error_pct.map(|e| format!("{e:+.1}%"));
            let measured = p.peak_memory_mb.map(|m| human_bytes((m * 1048576.0) as u64));
            let reason = p.reason.clone();
            view! {
                <tr class=format!("point {}", p.state.as_str()) data-index=p.index.to_string()>
                    <td>{rank.map(|r| r.to_string()).unwrap_or_default()}</td>
                    <td>{p.index + 1}</td>
                    {cells}
                    <td class=format!("state {}", state.as_str())>{move || tr(state_key(state), lang.get())}</td>
                    <td>{p.estimate_bytes.map(human_bytes).unwrap_or_else(|| "—".into())}</td>
                    <td>{measured.unwrap_or_else(|| "—".into())}{error_pct.map(|e| format!(" ({e})"))}</td>
                    <td class="num">{figure(p.samples_per_sec, 1)}</td>
                    <td class="num">{figure(p.tokens_per_sec, 0)}</td>
                    <td class="num">{p.model_tflops.map_or_else(|| "—".into(), |f| if f < 1.0 { format!("{f:.3}") } else { format!("{f:.1}") })}</td>
                    <td>{p.job.map(|j| view! { <A href=format!("/jobs/{j}")>{format!("#{j}")}</A> })}</td>
                    <td class="reason">{move || reason.as_ref().map(|r| r.get(lang.get()).to_string())}</td>
                </tr>
            }
        })
        .collect_view();
    let key_heads = keys
        .iter()
        .map(|k| view! { <th title=k.clone()><code>{k.rsplit('.').next().unwrap_or(k).to_string()}</code></th> })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table id="sweep-points" class="runs">
                <thead><tr>
                    <th>{t("sweep.rank")}</th><th>"#"</th>{key_heads}
                    <th>{t("sweep.state")}</th><th title=t("sweep.memory_note")>{t("sweep.estimate")}</th><th title=t("sweep.memory_note")>{t("sweep.measured")}</th>
                    <th>{t("sweep.samples")}</th><th>{t("sweep.tokens")}</th><th>{t("sweep.tflops")}</th>
                    <th>{t("sweep.job")}</th><th>{t("sweep.reason")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        // The two memory columns count different things on a CPU: said once, under them.
        <p class="muted small" id="sweep-memory-note">{t("sweep.memory_note")}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_draws_one_line_per_stage_against_the_micro_batch() {
        let sweep: Sweep = serde_json::from_value(serde_json::json!({
            "id": 1, "name": "", "template_id": 1, "template_name": "t", "team_id": 1,
            "version": 1, "state": "running", "workload": {"builtin": "gpt", "size": "tiny"},
            "gpus": 1, "nodes": 1, "max_steps": 3, "keep_global_batch": true, "early_stop": true,
            "created_by": "a", "created_at": "x", "ranking": [], "best": null,
            "grid": [{"key": MICRO, "values": [2, 4]}, {"key": "zero_optimization.stage", "values": [0, 2]}],
            "points": [
                {"index": 0, "values": {MICRO: 2, "zero_optimization.stage": 0}, "state": "succeeded", "job": 1, "samples_per_sec": 10.0},
                {"index": 1, "values": {MICRO: 2, "zero_optimization.stage": 2}, "state": "failed", "job": 2},
                {"index": 2, "values": {MICRO: 4, "zero_optimization.stage": 0}, "state": "succeeded", "job": 3, "samples_per_sec": 15.0},
                {"index": 3, "values": {MICRO: 4, "zero_optimization.stage": 2}, "state": "running", "job": 4, "samples_per_sec": 3.0}
            ]
        }))
        .unwrap();
        let lines = throughput_series(&sweep);
        assert_eq!(
            lines,
            vec![("stage=0".to_string(), vec![(2, 10.0), (4, 15.0)])]
        );
    }
}
