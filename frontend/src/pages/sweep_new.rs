//! `/templates/:id/sweep`: start a sweep over a template's head. The grid is written one key
//! per line (`train_micro_batch_size_per_gpu=4,8,16`), and every point is planned in the
//! browser as the server will plan it (`shared::sweep::expand`, the same validator and memory
//! model): its predicted peak and, for a point that will not run, why, before anything is
//! queued. Below, the template's earlier sweeps.

use crate::api;
use crate::components::model_picker::{ModelChoice, ModelFacts, ModelPicker};
use crate::i18n::{t, tr, use_lang};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    job_context, Runner, SweepCreate, SweepState, Version, Workload, BUILTIN_SIZES,
};
use ds_studio_shared::memory::{human_bytes, runner_capacity};
use ds_studio_shared::sweep::{expand, parse_axis, Axis, Point};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_params_map};

/// The grid a new sweep starts from: the micro batch against the ZeRO stage.
pub const DEFAULT_GRID: &str =
    "train_micro_batch_size_per_gpu=4,8,16,32\nzero_optimization.stage=0,1,2,3";

/// The grid's lines as axes (blank lines and `#` comments skipped), or the first line's error
/// in `lang`.
pub fn parse_grid(text: &str, lang: ds_studio_shared::i18n::Lang) -> Result<Vec<Axis>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| parse_axis(l).map_err(|e| e.0.get(lang).to_string()))
        .collect()
}

/// The points the server will plan for this request: the base config in the job's context,
/// pruned against the largest memory among `runners` (the chosen ones, else the online ones).
pub fn plan(
    base: &Version,
    grid: &[Axis],
    workload: &Workload,
    keep: bool,
    chosen: &[String],
    runners: &[Runner],
    lang: ds_studio_shared::i18n::Lang,
) -> Result<Vec<Point>, String> {
    let ctx = job_context(&base.context, workload, 1, 1, 20);
    let model = workload.model_spec(ctx.launcher.fills_auto());
    let targets: Vec<&Runner> = runners
        .iter()
        .filter(|r| {
            if chosen.is_empty() {
                r.online
            } else {
                chosen.contains(&r.name)
            }
        })
        .collect();
    let caps: Vec<_> = targets
        .iter()
        .map(|r| r.devices.as_ref().and_then(|d| runner_capacity(d, 1)))
        .collect();
    // A runner whose memory is unknown could take any point: nothing is pruned for memory.
    let cap = if caps.iter().any(Option::is_none) {
        None
    } else {
        caps.into_iter().flatten().max_by_key(|c| c.bytes_per_rank)
    };
    let memory = model.as_ref().map(|m| (m, cap.as_ref()));
    expand(&base.config_text, &ctx, 1, grid, keep, memory).map_err(|e| e.0.get(lang).to_string())
}

#[component]
pub fn NewSweepPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| {
        params.with(|p| p.get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0))
    });
    let lang = use_lang();
    let navigate = use_navigate();
    let template = api::fetched(move || ep::GetTemplate::url([&id.get()]));
    let head = api::fetched(move || ep::GetVersion::url([&id.get(), &"head"]));
    let runners = api::fetched(|| ep::ListRunners::url([]));
    let earlier = api::fetched(move || ep::ListSweeps::url([]).query("template_id", id.get()));
    let grid_text = RwSignal::new(DEFAULT_GRID.to_string());
    let size = RwSignal::new("tiny".to_string());
    // "model": a rehearsal of the user's own model, picked below.
    let yours = ModelChoice::new("qwen2.5-0.5b", 512);
    let workload = move || match size.get().as_str() {
        "model" => yours
            .user_model()
            .ok()
            .filter(|m| m.resolve().is_ok())
            .map(Workload::rehearsal),
        s => Some(Workload::builtin_gpt(s)),
    };
    let steps = RwSignal::new("20".to_string());
    let keep = RwSignal::new(true);
    let early = RwSignal::new(true);
    let name = RwSignal::new(String::new());
    let chosen = RwSignal::new(Vec::<String>::new());
    let error = RwSignal::new(None::<String>);
    let starting = RwSignal::new(false);
    // Only the team's editors start sweeps: a viewer gets the earlier sweeps and a word why.
    let writes = crate::components::team_pick::may_write(move || {
        template.with(|t| t.as_ref().and_then(|t| t.as_ref().ok()).map(|t| t.team_id))
    });
    let runner_list = move || {
        runners
            .with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).cloned())
            .unwrap_or_default()
    };
    // The plan, recomputed as the grid or the choices change.
    let planned = Memo::new(move |_| {
        let l = lang.get();
        let grid = parse_grid(&grid_text.get(), l)?;
        let base = head
            .with(|h| h.as_ref().and_then(|h| h.as_ref().ok()).cloned())
            .ok_or_else(String::new)?;
        let chosen_workload = workload().ok_or_else(String::new)?;
        plan(
            &base,
            &grid,
            &chosen_workload,
            keep.get(),
            &chosen.get(),
            &runner_list(),
            l,
        )
    });
    let runnable = move || {
        planned.with(|p| {
            p.as_ref()
                .map(|p| p.iter().filter(|x| x.pruned.is_none()).count())
                .unwrap_or(0)
        })
    };
    let start = move |_| {
        let l = lang.get_untracked();
        let grid = match parse_grid(&grid_text.get_untracked(), l) {
            Ok(g) => g,
            Err(e) => {
                error.set(Some(e));
                return;
            }
        };
        let Ok(max_steps) = steps.get_untracked().trim().parse::<u32>() else {
            error.set(Some(tr("sweep.bad_steps", l).to_string()));
            return;
        };
        let Some(workload) = workload() else {
            error.set(Some(tr("sweep.bad_model", l).to_string()));
            return;
        };
        let req = SweepCreate {
            template_id: id.get_untracked(),
            version: head
                .with_untracked(|h| h.as_ref().and_then(|h| h.as_ref().ok()).map(|v| v.version)),
            workload,
            grid,
            keep_global_batch: Some(keep.get_untracked()),
            max_steps: Some(max_steps),
            gpus: None,
            nodes: None,
            runners: Some(chosen.get_untracked()).filter(|c| !c.is_empty()),
            early_stop: Some(early.get_untracked()),
            name: Some(name.get_untracked()).filter(|n| !n.trim().is_empty()),
        };
        starting.set(true);
        error.set(None);
        let navigate = navigate.clone();
        spawn_local(async move {
            match api::call(ep::CreateSweep::url([]), &req).await {
                Ok(s) => navigate(&format!("/sweeps/{}", s.id), Default::default()),
                Err(e) => {
                    error.set(Some(e.message));
                    starting.set(false);
                }
            }
        });
    };
    view! {
        <section class="card sweep-new">
            <h2 id="sweep-new-title">{move || {
                let l = lang.get();
                let tname = template.with(|t| t.as_ref().and_then(|t| t.as_ref().ok()).map(|t| t.name.clone())).unwrap_or_default();
                let v = head.with(|h| h.as_ref().and_then(|h| h.as_ref().ok()).map(|v| v.version)).unwrap_or(0);
                tr("sweep.new_title", l).replace("{template}", &tname).replace("{v}", &v.to_string())
            }}</h2>
            <p class="muted">{t("sweep.new_intro")}</p>
            {move || template.with(|t| match t { Some(Err(e)) => Some(view! { <p class="error" role="alert">{e.message.clone()}</p> }), _ => None })}
            <Show when=move || writes.get() fallback=move || view! { <p class="notice" id="sweep-viewer">{t("sweep.viewer")}</p> }>
            <div class="sweep-form">
                <label for="sweep-grid">{t("sweep.grid")}</label>
                <textarea id="sweep-grid" rows="4" spellcheck="false" prop:value=move || grid_text.get()
                    on:input=move |ev| grid_text.set(event_target_value(&ev))></textarea>
                <p class="muted small">{t("sweep.grid_help")}" "{t("sweep.steps_help")}</p>
                <div class="toolbar">
                    <label>{t("sweep.size")}" "
                        <select id="sweep-size" on:change=move |ev| size.set(event_target_value(&ev))>
                            {BUILTIN_SIZES.iter().map(|s| view! { <option value=*s selected=move || size.get() == *s>{format!("gpt/{s}")}</option> }).collect_view()}
                            <option value="model" selected=move || size.get() == "model">{t("run.rehearsal")}</option>
                        </select></label>
                    <label>{t("sweep.steps")}" "
                        <input id="sweep-steps" type="number" min="1" max="10000000" prop:value=move || steps.get()
                            on:input=move |ev| steps.set(event_target_value(&ev)) /></label>
                    <label><input id="sweep-keep" type="checkbox" prop:checked=move || keep.get()
                        on:change=move |ev| keep.set(event_target_checked(&ev)) />" "{t("sweep.keep")}</label>
                    <label><input id="sweep-early" type="checkbox" prop:checked=move || early.get()
                        on:change=move |ev| early.set(event_target_checked(&ev)) />" "{t("sweep.early_stop")}</label>
                    <label>{t("sweep.name")}" "
                        <input id="sweep-name" maxlength="120" prop:value=move || name.get()
                            on:input=move |ev| name.set(event_target_value(&ev)) /></label>
                </div>
                <Show when=move || size.get() == "model">
                    <ModelPicker choice=yours id="sweep" />
                    <ModelFacts choice=yours id="sweep" />
                </Show>
                <fieldset class="toolbar" id="sweep-runners">
                    <legend>{t("sweep.runners_pick")}</legend>
                    {move || runner_list().into_iter().filter(|r| r.online).map(|r| {
                        let n = r.name.clone();
                        let n2 = r.name.clone();
                        let devices = r.devices.as_ref().map(|d| d.summary().get(lang.get()).to_string()).unwrap_or_default();
                        view! { <label><input type="checkbox" prop:checked=move || chosen.with(|c| c.contains(&n))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                let n = n2.clone();
                                chosen.update(|c| { c.retain(|x| *x != n); if on { c.push(n); } });
                            } />" "{r.name.clone()}" "<span class="muted">{devices}</span></label> }
                    }).collect_view()}
                    <span class="muted small">{t("sweep.runners_help")}</span>
                </fieldset>
            </div>
            {move || planned.with(|p| match p {
                Err(e) if !e.is_empty() => Some(view! { <p class="error" role="alert" id="sweep-grid-error">{e.clone()}</p> }.into_any()),
                Ok(points) => Some(view! { <PlanTable points=points.clone() /> }.into_any()),
                _ => None,
            })}
            {move || error.get().map(|e| view! { <p class="error" role="alert" id="sweep-start-error">{e}</p> })}
            <div class="toolbar">
                <button id="sweep-start" class="primary" disabled=move || starting.get() || runnable() == 0 on:click=start.clone()>
                    {move || tr("sweep.start", lang.get()).replace("{n}", &runnable().to_string())}</button>
            </div>
            </Show>
            {move || earlier.with(|e| e.as_ref().and_then(|e| e.as_ref().ok()).cloned()).filter(|e| !e.is_empty()).map(|list| {
                let l = lang.get();
                view! {
                    <h3>{tr("sweep.earlier", l)}</h3>
                    <ul id="sweep-earlier">
                        {list.into_iter().map(|s| {
                            let state = match s.state {
                                SweepState::Running => tr("state.running", l),
                                SweepState::Finished => tr("sweep.finished", l),
                                SweepState::Cancelled => tr("state.cancelled", l),
                            };
                            let best = s.best_point().map(|b| format!(" · {} {} ({:.1} {})", tr("sweep.best", l), b.label(), b.samples_per_sec.unwrap_or(0.0), tr("sweep.samples_unit", l))).unwrap_or_default();
                            view! { <li><A href=format!("/sweeps/{}", s.id)>{format!("#{} {}", s.id, s.name)}</A>" · "{state}{best}</li> }
                        }).collect_view()}
                    </ul>
                }
            })}
        </section>
    }
}

#[component]
fn PlanTable(points: Vec<Point>) -> impl IntoView {
    let lang = use_lang();
    let keys: Vec<String> = points
        .first()
        .map(|p| p.values.iter().map(|(k, _)| k.clone()).collect())
        .unwrap_or_default();
    let heads = keys
        .iter()
        .map(|k| view! { <th title=k.clone()><code>{k.rsplit('.').next().unwrap_or(k).to_string()}</code></th> })
        .collect_view();
    let runs = points.iter().filter(|p| p.pruned.is_none()).count();
    let total = points.len();
    let rows = points
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let cells = p
                .values
                .iter()
                .map(|(_, v)| view! { <td>{ds_studio_shared::api::value_word(v)}</td> })
                .collect_view();
            let peak = p.estimate.as_ref().map(|e| human_bytes(e.gpu_peak_bytes)).unwrap_or_else(|| "—".into());
            let changes = p
                .changes
                .iter()
                .map(|c| {
                    // A key the base does not write reads "—", not `null`.
                    let word = |v: &serde_json::Value| if v.is_null() { "—".to_string() } else { ds_studio_shared::api::value_word(v) };
                    format!("{}: {} → {}", c.key.rsplit('.').next().unwrap_or(&c.key), word(&c.from), word(&c.to))
                })
                .collect::<Vec<_>>()
                .join(", ");
            let pruned = p.pruned.clone();
            let class = if pruned.is_some() { "point pruned" } else { "point planned" };
            view! {
                <tr class=class>
                    <td>{i + 1}</td>{cells}<td class="changes">{changes}</td><td>{peak}</td>
                    <td>{move || match &pruned {
                        Some(r) => {
                            let l = lang.get();
                            let sep = if l == ds_studio_shared::i18n::Lang::Zh { "：" } else { ": " };
                            format!("{}{sep}{}", tr("sweep.pruned", l), r.get(l))
                        }
                        None => tr("sweep.will_run", lang.get()).to_string(),
                    }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p id="sweep-plan-summary" role="status">{move || tr("sweep.plan_summary", lang.get()).replace("{runs}", &runs.to_string()).replace("{total}", &total.to_string())}</p>
        <div class="table-scroll">
            <table id="sweep-plan" class="runs">
                <thead><tr><th>"#"</th>{heads}<th>{t("sweep.changes")}</th><th>{t("sweep.estimate")}</th><th>{t("sweep.plan_state")}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_grid_parses_and_bad_lines_are_named() {
        let g = parse_grid(DEFAULT_GRID, ds_studio_shared::i18n::Lang::En).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[1].values.len(), 4);
        let e = parse_grid("stage", ds_studio_shared::i18n::Lang::Zh).unwrap_err();
        assert!(e.contains("KEY=V1,V2"), "{e}");
    }
}
