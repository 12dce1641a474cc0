//! The context a config is judged in (nodes × GPUs per node, tensor/pipeline/sequence parallel
//! sizes, launcher, DeepSpeed release, GPU memory, the HF Trainer's arguments) and the batch triple as DeepSpeed derives
//! it, with the arithmetic shown.

use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::document::Document;
use ds_studio_shared::effective::effective;
use ds_studio_shared::{Context, Launcher, Release};
use leptos::prelude::*;

fn number(v: Option<&serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::Number(n)) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        Some(other) => other.to_string(),
        None => "?".into(),
    }
}

/// GPU memory in GiB as typed (`80`, `79.6`); empty or not a positive number: unknown.
pub fn parse_gib(input: &str) -> Option<f64> {
    input
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|g| g.is_finite() && *g > 0.0)
}

/// `nodes` is the editor's: the memory panel needs the split of the world size too.
#[component]
pub fn ContextBar(
    context: RwSignal<Context>,
    doc: Memo<Document>,
    nodes: RwSignal<u32>,
    /// Set to (before, after) when the user picks another release.
    #[prop(optional)]
    release_change: Option<RwSignal<Option<(Release, Release)>>>,
) -> impl IntoView {
    let per_node = RwSignal::new(context.get_untracked().world_size.max(1));
    // Keep the per-node count in step when a version with another world size is loaded.
    // (The node count stays when it divides the new world size: an import sets it first.)
    Effect::new(move |_| {
        let ws = context.get().world_size.max(1);
        let n = nodes.get_untracked().max(1);
        if n * per_node.get_untracked() != ws {
            if ws.is_multiple_of(n) {
                per_node.set(ws / n);
            } else {
                nodes.set(1);
                per_node.set(ws);
            }
        }
    });
    let set_world = move || {
        let ws = (nodes.get_untracked() * per_node.get_untracked()).max(1);
        context.update(|c| c.world_size = ws);
    };
    let num = |ev: &leptos::ev::Event| event_target_value(ev).parse::<u32>().unwrap_or(1).max(1);
    // While typing: only a whole number ≥ 1 counts at once (an emptied field is left alone
    // until it loses focus, when `num` makes it 1), so the checks follow each keystroke.
    // The value is applied only when it reads back as typed ("08" or "8." wait for the blur),
    // so the field never rewrites what is being typed.
    let typed = |ev: &leptos::ev::Event| {
        let text = event_target_value(ev);
        text.trim()
            .parse::<u32>()
            .ok()
            .filter(|v| *v >= 1 && v.to_string() == text)
    };
    let lang = crate::i18n::use_lang();
    let triple = Memo::new(move |_| {
        let ctx = context.get();
        doc.with(|doc| {
            // Text that does not parse has no batch sizes to derive: say so, not nothing.
            let unparsed =
                || Some(crate::i18n::tr("context.triple_unparsed", lang.get()).to_string());
            let Some(root) = doc.root().filter(|r| doc.is_ok() && r.is_object()) else {
                return unparsed();
            };
            let entries = effective(root, &ctx);
            let get = |k: &str| {
                entries
                    .iter()
                    .find(|e| e.path == k)
                    .map(|e| e.value.clone())
            };
            let dp = ctx.data_parallel_size();
            let (tb, m, g) = (
                get("train_batch_size"),
                get("train_micro_batch_size_per_gpu"),
                get("gradient_accumulation_steps"),
            );
            // "≠" when the three are numbers that do not multiply out (the batch error says so).
            let f = |v: &Option<serde_json::Value>| v.as_ref().and_then(|v| v.as_f64());
            let differs = match (f(&tb), f(&m), f(&g)) {
                (Some(tb), Some(m), Some(g)) => (tb - m * g * dp).abs() > 1e-9,
                _ => false,
            };
            Some(
                crate::i18n::tr("context.triple", lang.get())
                    .replace("{tb}", &number(tb.as_ref()))
                    .replace("{op}", if differs { "≠" } else { "=" })
                    .replace("{m}", &number(m.as_ref()))
                    .replace("{g}", &number(g.as_ref()))
                    .replace("{dp}", &dp.to_string()),
            )
        })
    });
    view! {
        <div class="context" id="context-bar">
            <label>{t("context.nodes")}
                <input id="ctx-nodes" type="number" min="1" prop:value=move || nodes.get().to_string()
                    on:input=move |ev| if let Some(v) = typed(&ev) { nodes.set(v); set_world(); }
                    on:change=move |ev| { nodes.set(num(&ev)); set_world(); } />
            </label>
            <label>{t("context.gpus_per_node")}
                <input id="ctx-gpus" type="number" min="1" prop:value=move || per_node.get().to_string()
                    on:input=move |ev| if let Some(v) = typed(&ev) { per_node.set(v); set_world(); }
                    on:change=move |ev| { per_node.set(num(&ev)); set_world(); } />
            </label>
            <label title=t("context.tp_long")>"TP"<input id="ctx-tp" type="number" min="1" prop:value=move || context.get().tensor_parallel.to_string()
                on:input=move |ev| if let Some(v) = typed(&ev) { context.update(|c| c.tensor_parallel = v); }
                on:change=move |ev| { let v = num(&ev); context.update(|c| c.tensor_parallel = v); } /></label>
            <label title=t("context.pp_long")>"PP"<input id="ctx-pp" type="number" min="1" prop:value=move || context.get().pipeline_parallel.to_string()
                on:input=move |ev| if let Some(v) = typed(&ev) { context.update(|c| c.pipeline_parallel = v); }
                on:change=move |ev| { let v = num(&ev); context.update(|c| c.pipeline_parallel = v); } /></label>
            <label title=t("context.sp_long")>"SP"<input id="ctx-sp" type="number" min="1" prop:value=move || context.get().sequence_parallel.to_string()
                on:input=move |ev| if let Some(v) = typed(&ev) { context.update(|c| c.sequence_parallel = v); }
                on:change=move |ev| { let v = num(&ev); context.update(|c| c.sequence_parallel = v); } /></label>
            <label>{t("context.launcher")}
                <select id="ctx-launcher" prop:value=move || context.get().launcher.as_str().to_string()
                    on:change=move |ev| { let l = event_target_value(&ev).parse::<Launcher>().unwrap_or_default(); context.update(|c| c.launcher = l); }>
                    <option value="deepspeed">"deepspeed"</option>
                    <option value="hf-trainer">"hf-trainer"</option>
                    <option value="accelerate">"accelerate"</option>
                </select>
            </label>
            <ReleaseSelect id="ctx-release" context release_change=release_change.unwrap_or_else(|| RwSignal::new(None)) />
            <label>{t("context.gpu_memory")}
                <input id="ctx-gpu-mem" type="number" min="1" step="any" placeholder=t("context.gpu_mem_unset")
                    prop:value=move || context.get().gpu_memory_gib.map(|g| g.to_string()).unwrap_or_default()
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        if let Some(g) = parse_gib(&text).filter(|g| g.to_string() == text) {
                            context.update(|c| c.gpu_memory_gib = Some(g));
                        }
                    }
                    on:change=move |ev| { let g = parse_gib(&event_target_value(&ev)); context.update(|c| c.gpu_memory_gib = g); } />
            </label>
        </div>
        <crate::components::trainer_args::TrainerArgsBar context nodes />
        <p id="batch-triple" class="muted">{move || triple.get().unwrap_or_default()}
            " · "
            // The same context for the editor on the user's machine (VS Code's json.schemas).
            <a id="ctx-schema" target="_blank" rel="noopener" title=t("context.schema_long")
                href=move || schema_url(&context.get(), crate::i18n::use_lang().get())>{t("context.schema")}</a>
        </p>
    }
}

/// The JSON Schema of this release, launcher and language, as the server serves it.
pub fn schema_url(ctx: &Context, lang: ds_studio_shared::i18n::Lang) -> String {
    let release = ctx.release().unwrap_or_default();
    let zh = lang == ds_studio_shared::i18n::Lang::Zh;
    ep::GetReleaseSchema::url([&format!("{release}.json")])
        .query("launcher", ctx.launcher.as_str())
        .query_opt("lang", zh.then_some("zh"))
        .to_string()
}

/// The DeepSpeed release picker (newest first), writing `context.deepspeed_version`.
#[component]
pub fn ReleaseSelect(
    id: &'static str,
    context: RwSignal<Context>,
    release_change: RwSignal<Option<(Release, Release)>>,
) -> impl IntoView {
    let newest = Release::newest();
    view! {
        <label title=t("context.release_long")>{t("context.release")}
            <select id=id prop:value=move || context.get().release().unwrap_or_default().to_string()
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    let before = context.with_untracked(|c| c.release().unwrap_or_default());
                    context.update(|c| c.deepspeed_version = v);
                    if let Ok(after) = context.with_untracked(|c| c.release()) {
                        release_change.set(Some((before, after)));
                    }
                }>
                {Release::all().rev().map(|r| view! {
                    <option value=r.to_string()>{r.to_string()}
                        {(r == newest).then(|| view! { " ("{t("context.newest")}")" })}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
