//! The Run dialog of the editor: run the version being edited on a runner, with the built-in
//! GPT workload (a size), a rehearsal of the user's own model (a catalog model or its
//! config.json, LoRA if asked: `model_picker`) or a script on the runner host, a number of GPUs
//! and steps. It starts
//! from the version's context (its GPUs); picking a runner takes that runner's GPUs. Where the
//! config's batch sizes do not fit that many GPUs it offers to fit them (old → new shown, the
//! global batch kept where it can be; `fit_to_runner`). A config with errors for that many GPUs
//! is refused with its diagnostics; otherwise the job page opens.
//!
//! Before Run it says whether the job fits the runner's memory (`shared::memory`, the same
//! estimate the server checks): the predicted peak beside the device, and when it does not fit,
//! one click to save and run a version that does (a smaller micro batch keeping the global
//! batch, or the cheapest stage or offload), or "run anyway" (`force`).
//!
//! It judges the saved version in the context it is saved for, which is what runs, never the
//! editor's unsaved text.

use crate::api;
use crate::components::model_picker::{ModelChoice, ModelFacts, ModelPicker};
use crate::i18n::{t, use_lang};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{JobCreate, Runner, Workload, BUILTIN_SIZES};
use ds_studio_shared::i18n::Text;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;

/// The request the dialog sends, from its fields (pure, so it is tested natively).
#[allow(clippy::too_many_arguments)]
pub fn job_request(
    template_id: i64,
    version: i64,
    workload: &str,
    entrypoint: &str,
    args: &str,
    gpus: &str,
    max_steps: &str,
    runner: &str,
    fit: bool,
    rehearsed: Option<Result<ds_studio_shared::memory::UserModel, Text>>,
) -> Result<JobCreate, Text> {
    let gpus: u32 = gpus
        .trim()
        .parse()
        .ok()
        .filter(|g| (1..=64).contains(g))
        .ok_or_else(|| {
            Text::new(
                "GPUs: a whole number from 1 to 64",
                "GPU 数：1 到 64 之间的整数",
            )
        })?;
    // The server's own bound (a larger number is not "not a number": said as a range).
    let max_steps: u32 = max_steps
        .trim()
        .parse()
        .ok()
        .filter(|s| (1..=10_000_000).contains(s))
        .ok_or_else(|| {
            Text::new(
                "Steps: a whole number from 1 to 10,000,000",
                "步数：1 到 10,000,000 之间的整数",
            )
        })?;
    let workload = if workload == "model" {
        let model = rehearsed.unwrap_or_else(|| {
            Err(Text::new(
                "Model: pick one of the catalog or paste its config.json",
                "模型：从模型目录中选择，或粘贴其 config.json",
            ))
        })?;
        model.resolve().map_err(|e| e.text())?;
        Workload::rehearsal(model)
    } else if workload == "script" {
        if entrypoint.trim().is_empty() {
            return Err(Text::new(
                "Script: the path of a training script on the runner host",
                "脚本：运行器主机上训练脚本的路径",
            ));
        }
        Workload {
            entrypoint: Some(entrypoint.trim().to_string()),
            args: args.split_whitespace().map(str::to_string).collect(),
            ..Workload::default()
        }
    } else {
        Workload::builtin_gpt(workload)
    };
    Ok(JobCreate {
        template_id,
        version: Some(version),
        workload,
        gpus: Some(gpus),
        nodes: None,
        runner: (!runner.is_empty()).then(|| runner.to_string()),
        max_steps: Some(max_steps),
        env: None,
        secret_env: None,
        time_limit_s: None,
        stall_timeout_s: None,
        fit_to_runner: fit.then_some(true),
        force: None,
        name: None,
        note: None,
        tags: None,
    })
}

/// With "Any runner": a warning when no online runner has `gpus` devices (a CPU runner counts
/// as one), naming the largest; the job would start that many processes wherever it lands.
pub fn capacity_warning(
    gpus: u32,
    runners: &[ds_studio_shared::api::Runner],
    lang: ds_studio_shared::i18n::Lang,
) -> Option<String> {
    let online: Vec<_> = runners.iter().filter(|r| r.online).collect();
    let largest = online.iter().max_by_key(|r| r.device_count())?;
    let has = largest.device_count();
    (has < gpus).then(|| {
        let what = largest.devices_summary().get(lang).to_string();
        if lang == ds_studio_shared::i18n::Lang::Zh {
            format!("没有在线运行器有 {gpus} 个 GPU：最大的是 {}（{what}），任务会在其上启动 {gpus} 个进程。选择一个运行器即可把配置适配到它的 GPU 数。", largest.name)
        } else {
            format!("No online runner has {gpus} GPUs: the largest is {} ({what}), where the job would start {gpus} processes. Pick a runner to fit the config to its GPUs.", largest.name)
        }
    })
}

/// What fitting the config to `gpus` GPUs would change (in the user's language), or why it
/// cannot; `None` when it already fits.
pub fn fit_preview(
    text: &str,
    context: &ds_studio_shared::Context,
    gpus: u32,
    lang: ds_studio_shared::i18n::Lang,
) -> Option<Result<String, String>> {
    let to = ds_studio_shared::Context {
        world_size: gpus.max(1),
        ..context.clone()
    };
    match ds_studio_shared::fit::fit(text, context, &to) {
        Ok(f) if f.changes.is_empty() => None,
        Ok(f) => Some(Ok(f.summary.get(lang).to_string())),
        Err(e) => Some(Err(e.0.get(lang).to_string())),
    }
}

/// What the dialog says about memory before Run.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryPreview {
    /// "Estimated peak 33.6 GiB per GPU · NVIDIA H200 · 139.8 GiB gives 132.8 GiB".
    pub line: String,
    pub fits: bool,
    pub suggestions: Vec<ds_studio_shared::memory::Suggestion>,
}

/// The memory preview of `text` run in `context` on `gpus` GPUs with `workload` (the built-in
/// one or a rehearsal), against the runner named (else the online runner with the most memory
/// per rank). `None` for a script of one's own, or when no runner says what memory it has.
pub fn memory_preview(
    text: &str,
    context: &ds_studio_shared::Context,
    gpus: u32,
    workload: &Workload,
    runner: &str,
    runners: &[Runner],
    lang: ds_studio_shared::i18n::Lang,
) -> Option<MemoryPreview> {
    use ds_studio_shared::memory::{human_bytes, runner_capacity};
    let model = workload.model_spec(context.launcher.fills_auto())?;
    let ctx = ds_studio_shared::api::job_context(context, workload, gpus, 1, 20);
    let doc = ds_studio_shared::Document::parse(text);
    let setup = ds_studio_shared::memory::setup_from_config(&doc, &ctx, 1).ok()?;
    let cap = runners
        .iter()
        .filter(|r| {
            if runner.is_empty() {
                r.online
            } else {
                r.name == runner
            }
        })
        .filter_map(|r| runner_capacity(r.devices.as_ref()?, gpus))
        .max_by_key(|c| c.bytes_per_rank)?;
    // The server's own check: the same estimate, capacity and suggestions.
    let (e, fits, suggestions) =
        match ds_studio_shared::memory::check(text, &ctx, 1, &model, &setup, &cap, None) {
            Ok(e) => (e, true, Vec::new()),
            Err(d) => (d.estimate, false, d.suggestions),
        };
    let zh = lang == ds_studio_shared::i18n::Lang::Zh;
    // On a CPU runner the figure is the peak plus the rank's share of the host side, said so
    // it reads beside the per-GPU peak the job page and the sweep show.
    let words = cap.need_words(&e, gpus);
    let mut line = if zh {
        format!(
            "估算峰值：{}（{}）· {} 可用 {}",
            words.zh,
            e.phase.label().zh,
            cap.device,
            human_bytes(cap.bytes_per_rank)
        )
    } else {
        format!(
            "Estimated peak: {} (at {}) · {} gives {}",
            words.en,
            e.phase.label().en,
            cap.device,
            human_bytes(cap.bytes_per_rank)
        )
    };
    // On a GPU runner the CPU side (each rank's model, offloaded states) needs the host too.
    if let Some((host_need, host)) = cap.host_short(&e) {
        line.push_str(&if zh {
            format!(
                " · 每个节点需要 {} CPU 内存，主机可用 {}",
                human_bytes(host_need),
                human_bytes(host)
            )
        } else {
            format!(
                " · {} of CPU memory per node, the host gives {}",
                human_bytes(host_need),
                human_bytes(host)
            )
        });
    }
    Some(MemoryPreview {
        line,
        fits,
        suggestions,
    })
}

/// With exactly one online runner, it is the one picked (and its GPUs taken), not "Any".
fn pick_the_only_runner(
    runners: RwSignal<Option<Result<Vec<Runner>, api::ApiError>>>,
    runner: RwSignal<String>,
    gpus: RwSignal<String>,
) {
    Effect::new(move |_| {
        let Some(Ok(list)) = runners.get() else {
            return;
        };
        let online: Vec<&Runner> = list.iter().filter(|r| r.online).collect();
        if let [only] = online.as_slice() {
            // Also on each opening (the list is fetched again then): the GPUs follow the
            // runner picked, not the version's count the opening started from.
            let picked = runner.get_untracked();
            if picked.is_empty() || picked == only.name {
                runner.set(only.name.clone());
                gpus.set(only.device_count().to_string());
            }
        }
    });
}

/// "Run the fitted version": the suggestion `s` saved as the version after `version`, with
/// `context` (under the HF launchers a smaller micro batch is a training argument).
fn fitted_version(
    s: &ds_studio_shared::memory::Suggestion,
    version: i64,
    context: ds_studio_shared::Context,
) -> ds_studio_shared::api::VersionCreate {
    ds_studio_shared::api::VersionCreate {
        config: None,
        config_text: Some(s.config_text.clone()),
        message: format!("fitted to the runner's memory: {}", s.summary.en),
        base_version: version,
        // Under the HF launchers a smaller micro batch is a training argument.
        context: Some(ds_studio_shared::Context {
            trainer: s.trainer.clone().or_else(|| context.trainer.clone()),
            ..context.clone()
        }),
    }
}

/// A refused submission in words: the message (the memory refusal pointing at the box above,
/// whose figures and fixes say it better than the API), and each diagnostic as `path: message`.
fn refusal(e: api::ApiError, lang: ds_studio_shared::i18n::Lang) -> (String, Vec<String>) {
    let mut problems = Vec::new();
    if let Some(d) = e.details.as_ref().and_then(|d| d["diagnostics"].as_array()) {
        problems = d
            .iter()
            .map(|x| {
                let msg = if lang == ds_studio_shared::i18n::Lang::Zh {
                    &x["message"]["zh"]
                } else {
                    &x["message"]["en"]
                };
                format!(
                    "{}: {}",
                    x["path"].as_str().unwrap_or(""),
                    msg.as_str().unwrap_or("")
                )
            })
            .collect();
    }
    // The refusal's figures and fixes are the memory box's, above: said in
    // words, not the API's.
    let message = if e.code == "does_not_fit" {
        // "Save and run a version that fits (above)" only when one is above.
        let offered = e
            .details
            .as_ref()
            .and_then(|d| d["suggestions"].as_array())
            .is_some_and(|s| !s.is_empty());
        let key = if offered {
            "run.refused_memory"
        } else {
            "run.refused_memory_none"
        };
        crate::i18n::tr(key, lang).to_string()
    } else {
        e.message
    };
    (message, problems)
}

/// The runner to run on ("Any", or one of the team's, with its devices, release and state);
/// picking one takes its GPUs (a CPU runner counts as one).
#[component]
fn RunnerSelect(
    runners: RwSignal<Option<Result<Vec<Runner>, api::ApiError>>>,
    runner: RwSignal<String>,
    gpus: RwSignal<String>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
    <label>{t("run.runner")}
        <select id="run-runner" prop:value=move || runner.get() on:change=move |ev| {
            let name = event_target_value(&ev);
            // A runner's own GPUs (a CPU runner counts as one).
            if let Some(r) = runners.get_untracked().and_then(|r| r.ok()).unwrap_or_default().into_iter().find(|r| r.name == name) {
                gpus.set(r.device_count().to_string());
            }
            runner.set(name);
        }>
            <option value="">{t("run.any_runner")}</option>
            {move || runners.get().and_then(|r| r.ok()).unwrap_or_default().into_iter().map(|r| {
                let release = if r.deepspeed.is_empty() { String::new() } else { format!(", DeepSpeed {}", r.deepspeed) };
                let devices = r.devices_summary().get(lang.get()).to_string();
                let state = crate::i18n::tr(if r.online { "run.online" } else { "run.offline" }, lang.get());
                let label = format!("{} ({}, {devices}{release}, {state})", r.name, r.backend);
                let selected = runner.get_untracked() == r.name;
                view! { <option value=r.name.clone() selected=selected>{label}</option> }
            }).collect_view()}
        </select>
    </label>
    }
}

/// Whether the job fits the runner's memory; when it does not, the versions that do (each
/// saved and run with one click) and "run anyway".
#[component]
fn MemoryBox(
    memory: Memo<Option<MemoryPreview>>,
    force: RwSignal<bool>,
    run_fitted: Callback<ds_studio_shared::memory::Suggestion>,
) -> impl IntoView {
    let lang = use_lang();
    {
        move || {
            memory.get().map(|m| {
    let class = if m.fits { "card" } else { "card warning" };
    let fits = m.fits;
    view! {
        <div id="run-memory" class=class data-fits=fits.to_string()>
            <p id="run-memory-line">{m.line.clone()}" "
                <strong>{t(if fits { "run.memory_fits" } else { "run.memory_over" })}</strong></p>
            {(!fits).then(|| view! {
                <ul class="run-memory-fits">
                    {m.suggestions.clone().into_iter().map(|s| {
                        let label = s.summary.get(lang.get()).to_string();
                        view! {
                            <li><button type="button" class="run-fitted" data-kind=format!("{:?}", s.kind)
                                on:click=move |_| run_fitted.run(s.clone())>{t("run.run_fitted")}</button>" "{label}</li>
                        }
                    }).collect_view()}
                </ul>
                {m.suggestions.is_empty().then(|| view! { <p>{t("oom.none_fits")}</p> })}
                <label class="check"><input id="run-force" type="checkbox" prop:checked=move || force.get()
                    on:change=move |ev| force.set(event_target_checked(&ev)) />" "{t("run.force")}</label>
            })}
        </div>
    }
})
        }
    }
}

#[component]
pub fn RunDialog(
    #[prop(into)] template_id: Signal<i64>,
    #[prop(into)] version: Signal<i64>,
    #[prop(into)] dirty: Signal<bool>,
    /// The saved version's config and the context it is saved for: what runs, so what the
    /// dialog judges (unsaved edits are not part of a run; the GPUs start from its world size).
    #[prop(into)]
    text: Signal<String>,
    #[prop(into)] context: Signal<ds_studio_shared::Context>,
    open: RwSignal<bool>,
) -> impl IntoView {
    let lang = use_lang();
    let runners = api::fetched(move || {
        open.get();
        ep::ListRunners::url([])
    });
    let workload = RwSignal::new("tiny".to_string());
    let yours = ModelChoice::new("qwen2.5-0.5b", 512);
    let rehearsed = move || (workload.get_untracked() == "model").then(|| yours.user_model());
    let entrypoint = RwSignal::new(String::new());
    let args = RwSignal::new(String::new());
    let gpus = RwSignal::new("1".to_string());
    let steps = RwSignal::new("20".to_string());
    let runner = RwSignal::new(String::new());
    let fit = RwSignal::new(true);
    // Opening the dialog starts from the version's GPUs.
    Effect::new(move |_| {
        if open.get() {
            gpus.set(context.get_untracked().world_size.max(1).to_string());
        }
    });
    pick_the_only_runner(runners, runner, gpus);
    // Under an HF launcher the batch is the trainer arguments': there is nothing to fit.
    let preview = Memo::new(move |_| {
        let g: u32 = gpus.get().trim().parse().unwrap_or(1);
        let ctx = context.get();
        (!ctx.launcher.fills_auto())
            .then(|| fit_preview(&text.get(), &ctx, g, lang.get()))
            .flatten()
    });
    // The memory check, on the config as it will run (fitted to the GPUs when asked).
    let force = RwSignal::new(false);
    let memory = Memo::new(move |_| {
        let chosen = match workload.get().as_str() {
            "script" => return None,
            "model" => Workload::rehearsal(yours.user_model().ok()?),
            size => Workload::builtin_gpt(size),
        };
        let g: u32 = gpus
            .get()
            .trim()
            .parse()
            .ok()
            .filter(|g| (1..=64).contains(g))?;
        let ctx = context.get();
        let saved = text.get();
        let as_run = match (fit.get(), preview.get()) {
            (true, Some(Ok(_))) => {
                let to = ds_studio_shared::Context {
                    world_size: g,
                    ..ctx.clone()
                };
                ds_studio_shared::fit::fit(&saved, &ctx, &to)
                    .map(|f| f.config_text)
                    .unwrap_or(saved)
            }
            _ => saved,
        };
        let list = runners.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).cloned())?;
        memory_preview(&as_run, &ctx, g, &chosen, &runner.get(), &list, lang.get())
    });
    let error = RwSignal::new(None::<String>);
    let problems = RwSignal::new(Vec::<String>::new());
    let navigate = use_navigate();
    let navigate_fitted = navigate.clone();
    // "Run the fitted version": save the suggestion as a new version, then run that.
    let run_fitted = move |s: ds_studio_shared::memory::Suggestion| {
        problems.set(Vec::new());
        let req = job_request(
            template_id.get_untracked(),
            version.get_untracked(),
            &workload.get_untracked(),
            &entrypoint.get_untracked(),
            &args.get_untracked(),
            &gpus.get_untracked(),
            &steps.get_untracked(),
            &runner.get_untracked(),
            false,
            rehearsed(),
        );
        let mut req = match req {
            Ok(r) => r,
            Err(e) => {
                error.set(Some(e.get(lang.get_untracked()).to_string()));
                return;
            }
        };
        let body = fitted_version(&s, version.get_untracked(), context.get_untracked());
        let tid = template_id.get_untracked();
        let navigate = navigate_fitted.clone();
        spawn_local(async move {
            let saved = api::call(ep::SaveVersion::url([&tid]), &body).await;
            let v = match saved {
                Ok(v) => v,
                Err(e) => {
                    error.set(Some(e.message));
                    return;
                }
            };
            req.version = Some(v.version);
            match api::call(ep::SubmitJob::url([]), &req).await {
                Ok(j) => {
                    open.set(false);
                    navigate(&format!("/jobs/{}", j.id), Default::default());
                }
                Err(e) => error.set(Some(e.message)),
            }
        });
    };
    let run_fitted = Callback::new(run_fitted);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problems.set(Vec::new());
        let req = match job_request(
            template_id.get_untracked(),
            version.get_untracked(),
            &workload.get_untracked(),
            &entrypoint.get_untracked(),
            &args.get_untracked(),
            &gpus.get_untracked(),
            &steps.get_untracked(),
            &runner.get_untracked(),
            fit.get_untracked() && matches!(preview.get_untracked(), Some(Ok(_))),
            rehearsed(),
        ) {
            Ok(r) => r,
            Err(e) => {
                error.set(Some(e.get(lang.get_untracked()).to_string()));
                return;
            }
        };
        let req = JobCreate {
            force: force.get_untracked().then_some(true),
            ..req
        };
        let navigate = navigate.clone();
        spawn_local(async move {
            match api::call(ep::SubmitJob::url([]), &req).await {
                Ok(j) => {
                    open.set(false);
                    navigate(&format!("/jobs/{}", j.id), Default::default());
                }
                Err(e) => {
                    let (message, listed) = refusal(e, lang.get_untracked());
                    problems.set(listed);
                    error.set(Some(message));
                }
            }
        });
    };
    // Another workload or runner is another question: an old refusal does not stand.
    Effect::new(move |_| {
        workload.track();
        runner.track();
        gpus.track();
        error.set(None);
        problems.set(Vec::new());
    });
    // A modal `<dialog>`: the page behind it is inert while it is open, the focus stays in it,
    // and Escape closes it (the browser's own `cancel`).
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    Effect::new(move |_| {
        let want = open.get();
        if let Some(d) = dialog.get() {
            if want && !d.open() {
                let _ = d.show_modal();
            } else if !want && d.open() {
                d.close();
            }
        }
    });
    view! {
        <dialog node_ref=dialog class="modal" aria-labelledby="run-title" on:close=move |_| open.set(false)>
        <Show when=move || open.get()>
            <form id="run-dialog" class="card dialog" on:submit=submit.clone()>
                <h3 id="run-title">{t("run.title")}" v"{move || version.get()}</h3>
                {move || dirty.get().then(|| view! { <p class="warning">{t("run.unsaved")}</p> })}
                // The job runs under the version's launcher: said before Run.
                {move || {
                    let key = match context.get().launcher {
                        ds_studio_shared::validate::Launcher::HfTrainer => "run.launcher_hf",
                        ds_studio_shared::validate::Launcher::Accelerate => "run.launcher_accelerate",
                        ds_studio_shared::validate::Launcher::Deepspeed => "run.launcher_deepspeed",
                    };
                    view! { <p class="muted" id="run-launcher">{t(key)}</p> }
                }}
                <label>{t("run.workload")}
                    <select id="run-workload" on:change=move |ev| workload.set(event_target_value(&ev))>
                        {BUILTIN_SIZES.iter().map(|s| view! { <option value=*s selected=*s == "tiny">{format!("GPT · {s}")}</option> }).collect_view()}
                        <option value="model">{t("run.rehearsal")}</option>
                        <option value="script">{t("run.script")}</option>
                    </select>
                </label>
                <Show when=move || workload.get() == "model">
                    <ModelPicker choice=yours id="run" />
                    <ModelFacts choice=yours id="run" />
                </Show>
                <Show when=move || workload.get() == "script">
                    <label>{t("run.entrypoint")}<input id="run-entrypoint" placeholder="train.py"
                        on:input=move |ev| entrypoint.set(event_target_value(&ev)) /></label>
                    <label>{t("run.args")}<input id="run-args" on:input=move |ev| args.set(event_target_value(&ev)) /></label>
                </Show>
                <label>{t("run.gpus")}<input id="run-gpus" type="number" min="1" max="64" prop:value=move || gpus.get()
                    on:input=move |ev| gpus.set(event_target_value(&ev)) /></label>
                <label>{t("run.steps")}<input id="run-steps" type="number" min="1" prop:value=move || steps.get()
                    on:input=move |ev| steps.set(event_target_value(&ev)) /></label>
                <RunnerSelect runners runner gpus />
                {move || {
                    let g: u32 = gpus.get().trim().parse().unwrap_or(1);
                    runner.with(String::is_empty).then(|| {
                        runners.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).and_then(|list| capacity_warning(g, list, lang.get())))
                    }).flatten().map(|w| view! { <p id="run-capacity" class="warning">{w}</p> })
                }}
                {move || preview.get().map(|p| match p {
                    Ok(summary) => view! {
                        <div id="run-fit-box" class="card">
                            <p class="warning">{t("run.fit_needed")}</p>
                            <label class="check"><input id="run-fit" type="checkbox" prop:checked=move || fit.get()
                                on:change=move |ev| fit.set(event_target_checked(&ev)) />" "{t("run.fit")}</label>
                            <p id="run-fit-preview" class="muted">{summary}</p>
                        </div>
                    }.into_any(),
                    Err(why) => view! { <p id="run-fit-preview" class="muted">{why}</p> }.into_any(),
                })}
                <MemoryBox memory force run_fitted />
                <div class="toolbar">
                    <button id="run-submit" type="submit">{t("run.submit")}</button>
                    <button id="run-close" type="button" on:click=move |_| open.set(false)>{t("run.close")}</button>
                </div>
                {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <ul id="run-problems">{move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
            </form>
        </Show>
        </dialog>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_runner_warns_when_none_is_big_enough() {
        let runner = |name: &str, gpus: usize, online: bool| -> ds_studio_shared::api::Runner {
            serde_json::from_value(serde_json::json!({
                "id": 1, "name": name, "hostname": "h", "backend": "local",
                "gpus": (0..gpus).collect::<Vec<_>>(), "python": "p", "version": "v",
                "online": online, "last_seen": "x", "running": []
            }))
            .unwrap()
        };
        let en = ds_studio_shared::i18n::Lang::En;
        let local = [runner("local", 0, true), runner("big", 8, false)];
        let w = capacity_warning(8, &local, en).unwrap();
        assert!(
            w.starts_with("No online runner has 8 GPUs: the largest is local (CPU)"),
            "{w}"
        );
        assert_eq!(capacity_warning(1, &local, en), None);
        let gpu = [runner("a", 4, true), runner("b", 8, true)];
        assert_eq!(capacity_warning(8, &gpu, en), None);
        assert!(capacity_warning(16, &gpu, en)
            .unwrap()
            .contains("b (8 GPU)"));
        assert_eq!(
            capacity_warning(8, &[], en),
            None,
            "no runner known: nothing to say"
        );
        // A runner that reported its devices is named by them.
        let mut h200 = runner("gpu-box", 1, true);
        h200.devices = Some(ds_studio_shared::api::RunnerDevices {
            gpus: vec![ds_studio_shared::api::GpuDevice {
                index: 0,
                name: "NVIDIA H200".into(),
                memory_bytes: 150_110_011_392,
                compute_capability: Some("9.0".into()),
            }],
            cpu_cores: 16,
            host_memory_bytes: 128 << 30,
            landlock_abi: None,
            job_writable: Vec::new(),
        });
        let w = capacity_warning(2, &[h200], en).unwrap();
        assert!(
            w.contains("the largest is gpu-box (1 × NVIDIA H200 · 139.8 GiB)"),
            "{w}"
        );
    }

    #[test]
    fn the_memory_preview_says_whether_it_fits_and_what_would() {
        let h200: Runner = serde_json::from_value(serde_json::json!({
            "id": 1, "name": "gpu-box", "hostname": "h", "backend": "local", "gpus": [0],
            "python": "p", "version": "v", "online": true, "last_seen": "x", "running": [],
            "devices": {"gpus": [{"index": 0, "name": "NVIDIA H200", "memory_bytes": 150_110_011_392u64}],
                        "cpu_cores": 16, "host_memory_bytes": 137_438_953_472u64}
        }))
        .unwrap();
        let ctx = ds_studio_shared::Context::default();
        let big = r#"{"train_micro_batch_size_per_gpu": 96, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}}}"#;
        let en = ds_studio_shared::i18n::Lang::En;
        let xl = Workload::builtin_gpt("xl");
        let script = Workload {
            entrypoint: Some("train.py".into()),
            ..Workload::default()
        };
        let p = memory_preview(big, &ctx, 1, &xl, "", std::slice::from_ref(&h200), en).unwrap();
        assert!(!p.fits);
        assert!(
            p.line.contains("NVIDIA H200 · 139.8 GiB gives"),
            "{}",
            p.line
        );
        assert!(p
            .suggestions
            .iter()
            .any(|s| s.kind == ds_studio_shared::memory::SuggestionKind::MicroBatch));
        let zh = memory_preview(
            big,
            &ctx,
            1,
            &xl,
            "gpu-box",
            std::slice::from_ref(&h200),
            ds_studio_shared::i18n::Lang::Zh,
        )
        .unwrap();
        assert!(zh.line.starts_with("估算峰值：每张 GPU"), "{}", zh.line);
        let small = r#"{"train_micro_batch_size_per_gpu": 8, "bf16": {"enabled": true}}"#;
        let ok = memory_preview(
            small,
            &ctx,
            1,
            &xl,
            "gpu-box",
            std::slice::from_ref(&h200),
            en,
        )
        .unwrap();
        assert!(ok.fits && ok.suggestions.is_empty());
        // A script of one's own, or a runner that says nothing of its memory: nothing to say.
        assert!(
            memory_preview(small, &ctx, 1, &script, "", std::slice::from_ref(&h200), en).is_none()
        );
        let mut old = h200.clone();
        old.devices = None;
        assert!(memory_preview(small, &ctx, 1, &xl, "", &[old], en).is_none());
    }

    #[test]
    fn the_preview_says_what_fitting_changes() {
        let ctx = ds_studio_shared::Context {
            world_size: 8,
            ..Default::default()
        };
        let text = r#"{"train_batch_size": 128, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4}"#;
        let p = fit_preview(text, &ctx, 1, ds_studio_shared::i18n::Lang::En)
            .unwrap()
            .unwrap();
        assert!(p.contains("gradient_accumulation_steps 4 → 32"), "{p}");
        assert!(fit_preview(text, &ctx, 8, ds_studio_shared::i18n::Lang::En).is_none());
        let zh = fit_preview(text, &ctx, 1, ds_studio_shared::i18n::Lang::Zh)
            .unwrap()
            .unwrap();
        assert!(zh.contains("保持全局 batch 128"), "{zh}");
    }

    #[test]
    fn the_dialog_builds_a_job_request_or_names_the_bad_field() {
        let r = job_request(3, 2, "small", "", "", "2", "50", "", false, None).unwrap();
        assert_eq!(r.workload, Workload::builtin_gpt("small"));
        assert_eq!(
            (r.gpus, r.max_steps, r.version),
            (Some(2), Some(50), Some(2))
        );
        assert_eq!(r.runner, None);
        let s = job_request(
            3,
            2,
            "script",
            " train.py ",
            "--epochs 1",
            "1",
            "20",
            "gpu-a",
            true,
            None,
        )
        .unwrap();
        assert_eq!(s.workload.entrypoint.as_deref(), Some("train.py"));
        assert_eq!(s.workload.args, vec!["--epochs", "1"]);
        assert_eq!(s.runner.as_deref(), Some("gpu-a"));
        assert_eq!(s.fit_to_runner, Some(true));
        assert!(
            job_request(3, 2, "tiny", "", "", "0", "20", "", false, None)
                .unwrap_err()
                .en
                .starts_with("GPUs")
        );
        assert!(
            job_request(3, 2, "script", "", "", "1", "20", "", false, None)
                .unwrap_err()
                .en
                .starts_with("Script")
        );
        let steps = job_request(3, 2, "tiny", "", "", "1", "x", "", false, None).unwrap_err();
        assert!(
            steps.en.starts_with("Steps") && steps.zh.starts_with("步数"),
            "{steps:?}"
        );
        // Too large is said as the range the server takes, not as "not a number".
        let big = job_request(3, 2, "tiny", "", "", "1", "99999999", "", false, None).unwrap_err();
        assert!(big.en.contains("10,000,000"), "{big:?}");
        // A rehearsal: the model is checked before anything is sent.
        let model = ds_studio_shared::memory::UserModel::named("qwen2.5-0.5b");
        let r = job_request(
            3,
            2,
            "model",
            "",
            "",
            "1",
            "5",
            "",
            false,
            Some(Ok(model.clone())),
        )
        .unwrap();
        assert_eq!(r.workload, Workload::rehearsal(model));
        let unknown = ds_studio_shared::memory::UserModel::named("qwen9");
        let e = job_request(
            3,
            2,
            "model",
            "",
            "",
            "1",
            "5",
            "",
            false,
            Some(Ok(unknown)),
        )
        .unwrap_err();
        assert!(e.en.contains("qwen9") && e.zh.contains("qwen9"), "{e:?}");
        assert!(
            job_request(3, 2, "model", "", "", "1", "5", "", false, None)
                .unwrap_err()
                .en
                .starts_with("Model")
        );
    }
}
