//! The memory panel: model size (a preset such as 7B, or a parameter count) and the activation
//! inputs; per-GPU memory of the current config beside ZeRO stages 0-3 and their offload
//! what-ifs, as bars, against the GPU memory of the context bar.
//!
//! The figures come from `shared::estimate` (DeepSpeed's own estimators for model states, the
//! Korthikanti formula for activations). Each bar is the sum of its parts (model states by
//! `estimate::parts`, the communication buckets from the config's bucket sizes, activations);
//! a table lists them, and a stage that costs more than a lower one says why
//! (`estimate::costlier`).

use crate::i18n::t;
use ds_studio_shared::document::Document;
use ds_studio_shared::effective::effective;
use ds_studio_shared::estimate::{
    activations_tp, bucket_bytes, config_choice, costlier, format_count, parse_count, parts, table,
    Costlier, ModelShape, Part, MODEL_PRESETS,
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
    /// What `gpu_bytes` is made of (model states, buckets, activations).
    pub parts: Vec<(Part, u64)>,
}

/// The bars and what the panel says about them.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub bars: Vec<Bar>,
    pub activations: Option<u64>,
    /// Each stage that costs more than a lower one, and why.
    pub costlier: Vec<Costlier>,
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
pub fn bars(inputs: &Inputs, doc: &Document, ctx: &Context) -> Chart {
    let tp = ctx.tensor_parallel.max(1) as u64;
    let mp = tp * ctx.pipeline_parallel.max(1) as u64;
    let world = ctx.world_size.max(1) as u64;
    let partition = (world / mp).max(1);
    let nodes = (inputs.nodes.max(1) as u64).min(partition);
    let entries = doc
        .root()
        .filter(|r| r.is_object())
        .map(|root| effective(root, ctx))
        .unwrap_or_default();
    let value = |path: &str| {
        entries
            .iter()
            .find(|e| e.path == path)
            .and_then(|e| e.value.as_f64())
    };
    let micro = value("train_micro_batch_size_per_gpu")
        .filter(|v| *v >= 1.0)
        .map(|v| v as u64)
        .unwrap_or(1);
    // Bucket sizes in elements: the config's, else DeepSpeed's defaults.
    let elements = |path: &str, default: f64| value(path).unwrap_or(default).max(0.0) as u64;
    let (reduce, allgather, prefetch) = (
        elements("zero_optimization.reduce_bucket_size", 5e8),
        elements("zero_optimization.allgather_bucket_size", 5e8),
        elements("zero_optimization.stage3_prefetch_bucket_size", 5e7),
    );
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
    let list: Vec<Bar> = table(&shape)
        .into_iter()
        .zip(cpu_rows)
        .map(|(r, c)| {
            let mut made_of = parts(&r, &shape);
            made_of.push((
                Part::Buckets,
                bucket_bytes(r.stage, reduce, allgather, prefetch),
            ));
            if let Some(a) = act {
                made_of.push((Part::Activations, a));
            }
            made_of.retain(|(_, b)| *b > 0);
            let gpu: u64 = made_of.iter().map(|(_, b)| b).sum();
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
                // Text that does not parse is no config: no line is marked as it.
                current: doc.is_ok() && r.stage == stage && r.offload == offload,
                fits: limit.map(|l| gpu <= l),
                parts: made_of,
            }
        })
        .collect();
    let lines: Vec<(u8, Vec<(Part, u64)>)> = list
        .iter()
        .filter(|b| b.offload == "none")
        .map(|b| (b.stage, b.parts.clone()))
        .collect();
    Chart {
        costlier: costlier(&lines, shape.gpus_per_node * shape.nodes),
        bars: list,
        activations: act,
    }
}

/// The i18n key naming a part.
pub fn part_key(p: Part) -> &'static str {
    match p {
        Part::Parameters => "memory.part.parameters",
        Part::Gradients => "memory.part.gradients",
        Part::OptimizerStates => "memory.part.optimizer",
        Part::GradientsAndOptimizer => "memory.part.grads_optimizer",
        Part::PartitionedStates => "memory.part.partitioned",
        Part::GatheredLayer => "memory.part.gathered",
        Part::Buckets => "memory.part.buckets",
        Part::Activations => "memory.part.activations",
    }
}

/// Why a stage costs more than a lower one, in `lang`: the GPUs it partitions over and each
/// part that grew.
pub fn explain(c: &Costlier, lang: ds_studio_shared::i18n::Lang) -> String {
    let tr = |k| crate::i18n::tr(k, lang);
    let grew: Vec<String> = c
        .grew
        .iter()
        .map(|(p, b)| format!("{} +{}", tr(part_key(*p)), gib(*b)))
        .collect();
    tr("memory.why")
        .replace("{stage}", &c.stage.to_string())
        .replace("{extra}", &gib(c.extra_bytes))
        .replace("{than}", &c.than.to_string())
        .replace("{gpus}", &c.gpus.to_string())
        .replace("{saved}", &gib(c.saved_bytes))
        .replace("{added}", &gib(c.grew.iter().map(|(_, b)| b).sum::<u64>()))
        .replace(
            "{parts}",
            &grew.join(if lang == ds_studio_shared::i18n::Lang::Zh {
                "；"
            } else {
                "; "
            }),
        )
}

/// The parts in the order the table lists them.
const ALL_PARTS: [Part; 8] = [
    Part::Parameters,
    Part::Gradients,
    Part::OptimizerStates,
    Part::GradientsAndOptimizer,
    Part::PartitionedStates,
    Part::GatheredLayer,
    Part::Buckets,
    Part::Activations,
];

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
    // CPU memory per node, for what offloading needs there (empty: not checked).
    let cpu_ram_text = RwSignal::new(String::new());
    let cpu_ram = Memo::new(move |_| {
        cpu_ram_text
            .get()
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|g| g.is_finite() && *g > 0.0)
            .map(|g| (g * GIB) as u64)
    });
    // Typed, and not a positive number: said, and nothing checked against it.
    let cpu_ram_bad =
        move || cpu_ram_text.with(|t| !t.trim().is_empty()) && cpu_ram.get().is_none();
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
    let lang = crate::i18n::use_lang();
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
                <label>{t("memory.cpu_ram")}
                    <input id="mem-cpu-ram" type="number" min="1" step="any" placeholder=t("memory.cpu_ram_placeholder") size="8"
                        prop:value=move || cpu_ram_text.get()
                        aria-invalid=move || cpu_ram_bad().to_string()
                        on:input=move |ev| cpu_ram_text.set(event_target_value(&ev)) />
                </label>
                {move || cpu_ram_bad().then(|| view! { <p class="error" id="mem-cpu-ram-error" role="alert">{t("memory.cpu_ram_invalid")}</p> })}
                <label class="check"><input id="mem-ckpt" type="checkbox" prop:checked=move || checkpointing.get()
                    on:change=move |ev| checkpointing.set(event_target_checked(&ev)) />{t("memory.checkpointing")}</label>
            </div>
            // Text that does not parse: no figures that would read as this config's.
            {move || (!doc.with(Document::is_ok)).then(|| view! { <p id="memory-unparsed" class="muted">{t("memory.unparsed")}</p> })}
            {move || match chart.get() {
                _ if !doc.with(Document::is_ok) => ().into_any(),
                None => view! { <p class="error" role="alert">{t("memory.bad_params")}</p> }.into_any(),
                Some(Chart { bars: list, activations: act, costlier: why }) => {
                    let shown: Vec<Bar> = list.iter().filter(|b| b.offload == "none" || b.current).cloned().collect();
                    // This config offloads more to each node's CPU memory than it has.
                    let cpu_short = list.iter().find(|b| b.current).and_then(|b| {
                        let ram = cpu_ram.get()?;
                        (b.offload != "none" && b.cpu_bytes > ram).then_some((b.cpu_bytes, ram))
                    });
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
                                            {(b.offload != "none" && cpu_ram.get().is_some_and(|r| b.cpu_bytes > r)).then(|| view! { " "<span class="over-label cpu-over">{t("memory.cpu_over")}</span> })}
                                            {(b.fits == Some(false)).then(|| view! { " "<span class="over-label">{t("memory.does_not_fit")}</span> })}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                        {cpu_short.map(|(need, ram)| view! {
                            <p id="memory-cpu-short" class="warning" role="status">{move || crate::i18n::tr("memory.cpu_short", lang.get())
                                .replace("{need}", &gib(need)).replace("{ram}", &gib(ram))}</p>
                        })}
                        {(!why.is_empty()).then(|| view! {
                            <ul id="memory-why" class="why">
                                {why.iter().map(|c| {
                                    let (c, stage) = (c.clone(), c.stage);
                                    view! { <li data-stage=stage>{move || explain(&c, lang.get())}</li> }
                                }).collect_view()}
                            </ul>
                        })}
                        <details id="memory-parts">
                            <summary>{t("memory.parts_title")}</summary>
                            <div class="table-scroll">
                            <table class="mem-parts">
                                <thead><tr><th></th>
                                    {shown.iter().map(|b| view! { <th>{format!("ZeRO-{}", b.stage)}{(b.offload != "none").then_some(" *")}</th> }).collect_view()}
                                </tr></thead>
                                <tbody>
                                    {ALL_PARTS.iter().filter(|p| shown.iter().any(|b| b.parts.iter().any(|(q, _)| q == *p))).map(|p| {
                                        let p = *p;
                                        view! {
                                            <tr data-part=format!("{p:?}")><th>{t(part_key(p))}</th>
                                                {shown.iter().map(|b| view! {
                                                    <td>{b.parts.iter().find(|(q, _)| *q == p).map(|(_, v)| gib(*v)).unwrap_or_else(|| "—".into())}</td>
                                                }).collect_view()}
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                            </div>
                            <p class="muted">{t("memory.parts_note")}</p>
                        </details>
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
