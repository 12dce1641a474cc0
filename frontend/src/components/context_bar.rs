//! The context a config is judged in (nodes × GPUs per node, tensor/pipeline/sequence parallel
//! sizes, launcher) and the batch triple as DeepSpeed derives it, with the arithmetic shown.

use crate::i18n::t;
use ds_studio_shared::document::Document;
use ds_studio_shared::effective::effective;
use ds_studio_shared::{Context, Launcher};
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

#[component]
pub fn ContextBar(context: RwSignal<Context>, #[prop(into)] text: Signal<String>) -> impl IntoView {
    let nodes = RwSignal::new(1u32);
    let per_node = RwSignal::new(context.get_untracked().world_size.max(1));
    // Keep the per-node count in step when a version with another world size is loaded.
    Effect::new(move |_| {
        let ws = context.get().world_size.max(1);
        if nodes.get_untracked() * per_node.get_untracked() != ws {
            nodes.set(1);
            per_node.set(ws);
        }
    });
    let set_world = move || {
        let ws = (nodes.get_untracked() * per_node.get_untracked()).max(1);
        context.update(|c| c.world_size = ws);
    };
    let num = |ev: &leptos::ev::Event| event_target_value(ev).parse::<u32>().unwrap_or(1).max(1);
    let triple = Memo::new(move |_| {
        let doc = Document::parse(&text.get());
        let ctx = context.get();
        let root = doc.root()?;
        if !root.is_object() {
            return None;
        }
        let entries = effective(root, &ctx);
        let get = |k: &str| {
            entries
                .iter()
                .find(|e| e.path == k)
                .map(|e| e.value.clone())
        };
        let dp = ctx.data_parallel_size();
        Some(format!(
            "train_batch_size {} = micro {} × grad_acc {} × data parallel {}",
            number(get("train_batch_size").as_ref()),
            number(get("train_micro_batch_size_per_gpu").as_ref()),
            number(get("gradient_accumulation_steps").as_ref()),
            dp
        ))
    });
    view! {
        <div class="context" id="context-bar">
            <label>{t("context.nodes")}
                <input id="ctx-nodes" type="number" min="1" prop:value=move || nodes.get().to_string()
                    on:change=move |ev| { nodes.set(num(&ev)); set_world(); } />
            </label>
            <label>{t("context.gpus_per_node")}
                <input id="ctx-gpus" type="number" min="1" prop:value=move || per_node.get().to_string()
                    on:change=move |ev| { per_node.set(num(&ev)); set_world(); } />
            </label>
            <label>"TP"<input id="ctx-tp" type="number" min="1" prop:value=move || context.get().tensor_parallel.to_string()
                on:change=move |ev| { let v = num(&ev); context.update(|c| c.tensor_parallel = v); } /></label>
            <label>"PP"<input id="ctx-pp" type="number" min="1" prop:value=move || context.get().pipeline_parallel.to_string()
                on:change=move |ev| { let v = num(&ev); context.update(|c| c.pipeline_parallel = v); } /></label>
            <label>"SP"<input id="ctx-sp" type="number" min="1" prop:value=move || context.get().sequence_parallel.to_string()
                on:change=move |ev| { let v = num(&ev); context.update(|c| c.sequence_parallel = v); } /></label>
            <label>{t("context.launcher")}
                <select id="ctx-launcher" prop:value=move || context.get().launcher.as_str().to_string()
                    on:change=move |ev| { let l = event_target_value(&ev).parse::<Launcher>().unwrap_or_default(); context.update(|c| c.launcher = l); }>
                    <option value="deepspeed">"deepspeed"</option>
                    <option value="hf-trainer">"hf-trainer"</option>
                    <option value="accelerate">"accelerate"</option>
                </select>
            </label>
        </div>
        <p id="batch-triple" class="muted">{move || triple.get().unwrap_or_default()}</p>
    }
}
