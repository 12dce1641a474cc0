//! The memory panel: model size (a preset such as 7B, or a parameter count) and the activation
//! inputs; per-GPU memory of the current config beside ZeRO stages 0-3 and their offload
//! what-ifs, as bars, against the GPU memory of the context bar.
//!
//! The figures come from `shared::estimate` (DeepSpeed's own estimators for model states, the
//! Korthikanti formula for activations).

use crate::i18n::t;
use ds_studio_shared::document::Document;
use ds_studio_shared::effective::effective;
use ds_studio_shared::estimate::{
    activations_tp, config_choice, format_count, parse_count, table, ModelShape, MODEL_PRESETS,
};
use ds_studio_shared::Context;
use leptos::prelude::*;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// One bar of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub stage: u8,
    pub offload: &'static str,
    pub gpu_bytes: u64,
    /// CPU memory per node (pinned buffers and offloaded states of the node's ranks).
    pub cpu_bytes: u64,
    pub current: bool,
    /// `Some(false)` when it exceeds the GPU memory given in the context bar.
    pub fits: Option<bool>,
}

/// What the panel needs besides the config: the model and the split of the cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    pub params: u64,
    pub hidden_size: Option<u64>,
    pub layers: Option<u64>,
    pub heads: Option<u64>,
    pub seq_len: Option<u64>,
    pub checkpointing: bool,
    pub nodes: u32,
}

/// The bars for a config in a context: model states per line of the table, plus the same
/// activation memory on every line (it does not depend on the ZeRO stage). Tensor and pipeline
/// parallelism divide the parameters; ZeRO partitions each model-parallel slice over the
/// remaining ranks (data parallel × sequence parallel: DeepSpeed-Ulysses partitions over both).
/// The micro batch is the one DeepSpeed derives for the context when the config leaves it out.
pub fn bars(inputs: &Inputs, doc: &Document, ctx: &Context) -> (Vec<Bar>, Option<u64>) {
    let tp = ctx.tensor_parallel.max(1) as u64;
    let mp = tp * ctx.pipeline_parallel.max(1) as u64;
    let world = ctx.world_size.max(1) as u64;
    let partition = (world / mp).max(1);
    let nodes = (inputs.nodes.max(1) as u64).min(partition);
    let micro = doc
        .root()
        .filter(|r| r.is_object())
        .and_then(|root| {
            effective(root, ctx)
                .into_iter()
                .find(|e| e.path == "train_micro_batch_size_per_gpu")
                .and_then(|e| e.value.as_f64())
        })
        .filter(|v| *v >= 1.0)
        .map(|v| v as u64)
        .unwrap_or(1);
    let shape = ModelShape {
        params: (inputs.params / mp).max(1),
        largest_layer_params: None,
        gpus_per_node: (partition / nodes).max(1),
        nodes,
        hidden_size: inputs.hidden_size,
        layers: inputs.layers,
        heads: inputs.heads,
        seq_len: inputs.seq_len,
        micro_batch: Some(micro),
        activation_checkpointing: inputs.checkpointing,
    };
    let act = activations_tp(&shape, tp).map(|a| a.bytes);
    // CPU figures are per node: DeepSpeed's estimators count the node's GPUs.
    let cpu_rows = table(&ModelShape {
        gpus_per_node: (world / nodes).max(1),
        ..shape.clone()
    });
    let (stage, offload) = config_choice(doc);
    let limit = ctx.gpu_memory_gib.map(|g| (g * GIB) as u64);
    let list = table(&shape)
        .into_iter()
        .zip(cpu_rows)
        .map(|(r, c)| {
            let gpu = r.gpu_bytes + act.unwrap_or(0);
            Bar {
                stage: r.stage,
                offload: r.offload,
                label: if r.offload == "none" {
                    format!("ZeRO-{}", r.stage)
                } else {
                    format!("ZeRO-{} + offload {}", r.stage, r.offload)
                },
                gpu_bytes: gpu,
                cpu_bytes: c.cpu_bytes,
                current: r.stage == stage && r.offload == offload,
                fits: limit.map(|l| gpu <= l),
            }
        })
        .collect();
    (list, act)
}

fn gib(b: u64) -> String {
    format!("{:.1} GiB", b as f64 / GIB)
}

#[component]
pub fn MemoryPanel(
    doc: Memo<Document>,
    context: RwSignal<Context>,
    nodes: RwSignal<u32>,
) -> impl IntoView {
    let preset = RwSignal::new("7B".to_string());
    let params_text = RwSignal::new(format_count(
        MODEL_PRESETS
            .iter()
            .find(|p| p.name == "7B")
            .map_or(7_000_000_000, |p| p.params),
    ));
    let seq_len = RwSignal::new(2048u64);
    let checkpointing = RwSignal::new(true);
    let inputs = Memo::new(move |_| {
        let p = MODEL_PRESETS
            .iter()
            .find(|p| p.name == preset.get())
            .copied();
        Some(Inputs {
            params: parse_count(&params_text.get())?,
            hidden_size: p.map(|p| p.hidden_size),
            layers: p.map(|p| p.layers),
            heads: p.map(|p| p.heads),
            seq_len: Some(seq_len.get()),
            checkpointing: checkpointing.get(),
            nodes: nodes.get(),
        })
    });
    let chart = Memo::new(move |_| {
        let i = inputs.get()?;
        let ctx = context.get();
        Some(doc.with(|d| bars(&i, d, &ctx)))
    });
    let choose_preset = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(p) = MODEL_PRESETS.iter().find(|p| p.name == name) {
            params_text.set(format_count(p.params));
        }
        preset.set(name);
    };
    let act_label = t("memory.activations");
    let off_opt = t("memory.offload_optimizer");
    let off_all = t("memory.offload_all");
    let cpu_label = t("memory.cpu_per_node");
    let note = t("memory.note");
    let no_shape = t("memory.no_shape");
    view! {
        <details id="memory-panel" class="card memory" open>
            <summary>{t("memory.title")}</summary>
            <div class="context">
                <label>{t("memory.model")}
                    <select id="mem-preset" prop:value=move || preset.get() on:change=choose_preset>
                        {MODEL_PRESETS.iter().map(|p| view! { <option value=p.name selected=move || preset.get() == p.name>{p.name}</option> }).collect_view()}
                        <option value="custom" selected=move || preset.get() == "custom">{t("memory.custom")}</option>
                    </select>
                </label>
                <label>{t("memory.params")}
                    <input id="mem-params" prop:value=move || params_text.get()
                        aria-invalid=move || inputs.get().is_none().to_string()
                        on:input=move |ev| { params_text.set(event_target_value(&ev)); preset.set("custom".into()); } />
                </label>
                <label>{t("memory.seq_len")}
                    <input id="mem-seq" type="number" min="1" prop:value=move || seq_len.get().to_string()
                        on:change=move |ev| seq_len.set(event_target_value(&ev).parse::<u64>().unwrap_or(2048).max(1)) />
                </label>
                <label class="check"><input id="mem-ckpt" type="checkbox" prop:checked=move || checkpointing.get()
                    on:change=move |ev| checkpointing.set(event_target_checked(&ev)) />{t("memory.checkpointing")}</label>
            </div>
            {move || match chart.get() {
                None => view! { <p class="error" role="alert">{t("memory.bad_params")}</p> }.into_any(),
                Some((list, act)) => {
                    let max = list.iter().map(|b| b.gpu_bytes).max().unwrap_or(1).max(1);
                    view! {
                        <ul id="memory-bars" class="bars">
                            {list.into_iter().map(|b| {
                                let width = format!("{:.1}%", 100.0 * b.gpu_bytes as f64 / max as f64);
                                let class = match (b.current, b.fits) {
                                    (true, Some(false)) => "bar current over",
                                    (true, _) => "bar current",
                                    (false, Some(false)) => "bar over",
                                    _ => "bar",
                                };
                                view! {
                                    <li class=class data-gpu-bytes=b.gpu_bytes.to_string()>
                                        <span class="bar-label">{format!("ZeRO-{}", b.stage)}
                                            {match b.offload { "optimizer" => Some(off_opt), "optimizer+params" => Some(off_all), _ => None }
                                                .map(|l| view! { " + "{l} })}
                                            {b.current.then(|| view! { " "<strong class="badge">{t("memory.this_config")}</strong> })}</span>
                                        <span class="bar-track"><span class="bar-fill" style:width=width></span></span>
                                        <span class="bar-value">{gib(b.gpu_bytes)}
                                            {(b.cpu_bytes > 0).then(|| view! { " · "{cpu_label}" "{gib(b.cpu_bytes)} })}
                                            {(b.fits == Some(false)).then(|| view! { " "<span class="over-label">{t("memory.does_not_fit")}</span> })}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                        <p class="muted" id="memory-note">{move || match act {
                            Some(a) => format!("{} {} · {}", act_label(), gib(a), note()),
                            None => format!("{} · {}", no_shape(), note()),
                        }}</p>
                    }.into_any()
                }
            }}
        </details>
    }
}
