//! The memory panel: the model (a preset such as 7B, a parameter count, or the user's own
//! model from the catalog or its config.json, with LoRA: `model_picker`) and sequence
//! length; the predicted peak per GPU of the current config beside ZeRO stages 0-3 and their
//! offload what-ifs, as bars, against the GPU memory of the context bar.
//!
//! Every figure is `shared::memory::estimate`, the model measured on a GPU (the same one the job
//! page, the Run dialog and the pre-launch fit use). Each bar is its peak's parts; a table lists
//! them, and a stage that costs more than a lower one says why (`memory::costlier`).

use crate::components::model_picker::{ModelChoice, ModelFacts, ModelPicker};
use crate::i18n::t;
use ds_studio_shared::document::Document;
use ds_studio_shared::estimate::{format_count, model_presets, parse_count, MODEL_PRESETS};
use ds_studio_shared::memory::{
    costlier, estimate, setup_from_config, Costlier, ModelSpec, OptimizerKind, Part, Phase,
    Precision, Setup,
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
    /// The predicted peak per GPU.
    pub gpu_bytes: u64,
    /// CPU memory per node (the model built on the host, offloaded states).
    pub cpu_bytes: u64,
    pub current: bool,
    /// `Some(false)` when it exceeds the GPU memory given in the context bar.
    pub fits: Option<bool>,
    /// What `gpu_bytes` is made of at the peak.
    pub parts: Vec<(Part, u64)>,
    /// When in the step the peak happens.
    pub phase: Phase,
}

/// The bars and what the panel says about them.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub bars: Vec<Bar>,
    /// The activations of this config's line (the bars' activations differ only by line).
    pub activations: Option<u64>,
    /// Each stage that costs more than a lower one, and why.
    pub costlier: Vec<Costlier>,
    /// The model the bars are for (its shape assumed from the count when not a preset).
    pub model: ModelSpec,
    /// The shape was assumed from the parameter count.
    pub assumed_shape: bool,
    /// Why the config gives no setup of its own (not an object, a micro batch that is no
    /// positive whole number): the bars are then DeepSpeed's defaults, and none is "this config".
    pub setup_error: Option<ds_studio_shared::i18n::Text>,
}

/// What the panel needs besides the config: the model and the split of the cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    pub params: u64,
    pub hidden_size: Option<u64>,
    pub layers: Option<u64>,
    pub heads: Option<u64>,
    pub seq_len: Option<u64>,
    pub vocab: Option<u64>,
    pub checkpointing: bool,
    pub nodes: u32,
    /// The user's own model, in place of the count and shape above.
    pub user: Option<ds_studio_shared::memory::UserModel>,
}

/// The ZeRO lines the panel draws: stage, offload optimizer, offload parameters.
const LINES: [(u8, bool, bool); 7] = [
    (0, false, false),
    (1, false, false),
    (2, false, false),
    (2, true, false),
    (3, false, false),
    (3, true, false),
    (3, true, true),
];

/// The model of `inputs`: a preset's shape, or for a bare count a GPT-like one (32 layers, the
/// width from 12·L·h² ≈ the count).
fn model_of(inputs: &Inputs) -> (ModelSpec, bool) {
    if let Some(spec) = inputs
        .user
        .as_ref()
        .and_then(|u| u.resolve().ok())
        .map(|r| r.spec)
    {
        return (spec, false);
    }
    let assumed = inputs.hidden_size.is_none() || inputs.layers.is_none();
    let mut m = ModelSpec::gpt_like(
        inputs.params,
        inputs.layers,
        inputs.hidden_size,
        inputs.heads,
        inputs.seq_len,
        inputs.vocab,
    );
    m.seq_len = m.seq_len.max(1);
    m.vocab = m.vocab.max(1);
    (m, assumed)
}

/// The bars for a config in a context: the config's own setup (micro batch, precision, buckets,
/// optimizer) on each ZeRO line. Tensor and pipeline parallelism divide the parameters; ZeRO
/// partitions each model-parallel slice over the remaining ranks.
pub fn bars(inputs: &Inputs, doc: &Document, ctx: &Context) -> Chart {
    let (model, assumed_shape) = model_of(inputs);
    let world = ctx.world_size.max(1) as u64;
    let nodes = (inputs.nodes.max(1) as u64).min(world);
    let parsed = setup_from_config(doc, ctx, nodes as u32);
    let setup_error = parsed.as_ref().err().map(|e| e.0.clone());
    let base = parsed.unwrap_or(Setup {
        stage: 0,
        offload_optimizer: false,
        offload_params: false,
        precision: Precision::Bf16,
        micro_batch: 1,
        gradient_accumulation: 1,
        gpus_per_node: (world / nodes).max(1),
        nodes,
        tensor_parallel: ctx.tensor_parallel.max(1) as u64,
        pipeline_parallel: ctx.pipeline_parallel.max(1) as u64,
        reduce_bucket: 500_000_000,
        prefetch_bucket: 50_000_000,
        overlap_comm: false,
        optimizer: OptimizerKind::TorchAdam,
        activation_checkpointing: false,
    });
    // The box is a what-if on top of the config: a config with an `activation_checkpointing`
    // section checkpoints anyway.
    let base = Setup {
        activation_checkpointing: base.activation_checkpointing || inputs.checkpointing,
        ..base
    };
    let mine = (base.stage, base.offload_optimizer, base.offload_params);
    // A config on no drawn line (ZeRO-1 with offload) is marked on its stage's plain line.
    let current_line = if LINES.contains(&mine) {
        mine
    } else {
        (base.stage, false, false)
    };
    let limit = ctx.gpu_memory_gib.map(|g| (g * GIB) as u64);
    let list: Vec<Bar> = LINES
        .iter()
        .map(|&(stage, opt, par)| {
            let setup = Setup {
                stage,
                offload_optimizer: opt,
                offload_params: par,
                // Another stage's line takes DeepSpeed's default for overlap_comm.
                overlap_comm: if stage == base.stage {
                    base.overlap_comm
                } else {
                    stage == 3
                },
                optimizer: if opt && !base.offload_optimizer {
                    OptimizerKind::FusedAdam
                } else {
                    base.optimizer
                },
                ..base.clone()
            };
            let e = estimate(&model, &setup);
            let offload = match (opt, par) {
                (false, _) => "none",
                (true, false) => "optimizer",
                (true, true) => "optimizer+params",
            };
            Bar {
                stage,
                offload,
                label: if offload == "none" {
                    format!("ZeRO-{stage}")
                } else {
                    format!("ZeRO-{stage} + offload {offload}")
                },
                gpu_bytes: e.gpu_peak_bytes,
                cpu_bytes: e.cpu_peak_bytes,
                // Text that does not parse, or is no config object, is marked as no line.
                current: doc.is_ok() && setup_error.is_none() && (stage, opt, par) == current_line,
                fits: limit.map(|l| e.gpu_peak_bytes <= l),
                parts: e.gpu_parts.iter().map(|p| (p.part, p.bytes)).collect(),
                phase: e.phase,
            }
        })
        .collect();
    let lines: Vec<(u8, Vec<(Part, u64)>)> = list
        .iter()
        .filter(|b| b.offload == "none")
        .map(|b| (b.stage, b.parts.clone()))
        .collect();
    let activations = list
        .iter()
        .find(|b| b.current)
        .or(list.first())
        .and_then(|b| b.parts.iter().find(|(p, _)| *p == Part::Activations))
        .map(|(_, v)| *v);
    Chart {
        costlier: costlier(&lines, base.partitions()),
        bars: list,
        activations,
        model,
        assumed_shape,
        setup_error,
    }
}

/// A part's name in `lang`.
pub fn part_name(p: Part, lang: ds_studio_shared::i18n::Lang) -> String {
    p.label().get(lang).to_string()
}

/// Why a stage costs more than a lower one, in `lang`: the GPUs it partitions over and each
/// part that grew.
pub fn explain(c: &Costlier, lang: ds_studio_shared::i18n::Lang) -> String {
    let tr = |k| crate::i18n::tr(k, lang);
    let grew: Vec<String> = c
        .grew
        .iter()
        .map(|(p, b)| format!("{} +{}", part_name(*p, lang), gib(*b)))
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
const ALL_PARTS: [Part; 9] = [
    Part::Parameters,
    Part::OptimizerStates,
    Part::AccumulatedGradients,
    Part::Gradients,
    Part::GatheredParameters,
    Part::Buckets,
    Part::Activations,
    Part::Logits,
    Part::OptimizerStep,
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
    // Off: the config decides (its `activation_checkpointing` section), as the job will run.
    let checkpointing = RwSignal::new(false);
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
    let presets = model_presets();
    let listed = presets.clone();
    let chosen = presets.clone();
    let yours = ModelChoice::new("llama-3.1-8b", 4096);
    let is_yours = move || preset.get() == "yours";
    let inputs = Memo::new(move |_| {
        if is_yours() {
            let user = yours.user_model().ok()?;
            user.resolve().ok()?;
            return Some(Inputs {
                params: 0,
                hidden_size: None,
                layers: None,
                heads: None,
                vocab: None,
                seq_len: None,
                checkpointing: checkpointing.get(),
                nodes: nodes.get(),
                user: Some(user),
            });
        }
        let p = presets.iter().find(|p| p.name == preset.get()).copied();
        let text = params_text.get();
        Some(Inputs {
            // A preset's own count, exactly (the field shows it rounded).
            params: match p {
                Some(p) if format_count(p.params) == text => p.params,
                _ => parse_count(&text)?,
            },
            hidden_size: p.map(|p| p.hidden_size),
            layers: p.map(|p| p.layers),
            heads: p.map(|p| p.heads),
            vocab: p.map(|p| p.vocab),
            seq_len: Some(seq_len.get()),
            checkpointing: checkpointing.get(),
            nodes: nodes.get(),
            user: None,
        })
    });
    let chart = Memo::new(move |_| {
        let i = inputs.get()?;
        let ctx = context.get();
        Some(doc.with(|d| bars(&i, d, &ctx)))
    });
    let choose_preset = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(p) = chosen.iter().find(|p| p.name == name) {
            params_text.set(format_count(p.params));
            if let Some(s) = p.seq_len {
                seq_len.set(s);
            }
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
                        {listed.iter().map(|p| { let name = p.name; view! { <option value=name selected=move || preset.get() == name>{name}</option> } }).collect_view()}
                        <option value="custom" selected=move || preset.get() == "custom">{t("memory.custom")}</option>
                        <option value="yours" selected=move || preset.get() == "yours">{t("memory.yours")}</option>
                    </select>
                </label>
                <Show when=move || !is_yours()>
                <label>{t("memory.params")}
                    <input id="mem-params" prop:value=move || params_text.get()
                        aria-invalid=move || inputs.get().is_none().to_string()
                        on:input=move |ev| { params_text.set(event_target_value(&ev)); preset.set("custom".into()); } />
                </label>
                <label>{t("memory.seq_len")}
                    <input id="mem-seq" type="number" min="1" prop:value=move || seq_len.get().to_string()
                        on:change=move |ev| seq_len.set(event_target_value(&ev).parse::<u64>().unwrap_or(2048).max(1)) />
                </label>
                </Show>
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
            <Show when=is_yours>
                <ModelPicker choice=yours id="mem" />
                <ModelFacts choice=yours id="mem" />
            </Show>
            // Text that does not parse: no figures that would read as this config's.
            {move || (!doc.with(Document::is_ok)).then(|| view! { <p id="memory-unparsed" class="muted">{t("memory.unparsed")}</p> })}
            {move || match chart.get() {
                _ if !doc.with(Document::is_ok) => ().into_any(),
                // The picker says what is wrong with the user's model (ModelFacts).
                None if is_yours() => ().into_any(),
                None => view! { <p class="error" role="alert">{t("memory.bad_params")}</p> }.into_any(),
                Some(Chart { bars: list, activations: act, costlier: why, assumed_shape, setup_error, .. }) => {
                    let shown: Vec<Bar> = list.iter().filter(|b| b.offload == "none" || b.current).cloned().collect();
                    // This config offloads more to each node's CPU memory than it has.
                    let cpu_short = list.iter().find(|b| b.current).and_then(|b| {
                        let ram = cpu_ram.get()?;
                        (b.offload != "none" && b.cpu_bytes > ram).then_some((b.cpu_bytes, ram))
                    });
                    let max = list.iter().map(|b| b.gpu_bytes).max().unwrap_or(1).max(1);
                    view! {
                        {setup_error.map(|e| view! { <p id="memory-setup-error" class="warning">{move || format!("{} · {}", e.get(lang.get()), crate::i18n::tr("memory.defaults", lang.get()))}</p> })}
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
                                    <tr data-part="phase"><th>{t("memory.peak_at")}</th>
                                        {shown.iter().map(|b| { let ph = b.phase; view! { <td>{move || ph.short().get(lang.get()).to_string()}</td> } }).collect_view()}
                                    </tr>
                                    {ALL_PARTS.iter().filter(|p| shown.iter().any(|b| b.parts.iter().any(|(q, _)| q == *p))).map(|p| {
                                        let p = *p;
                                        view! {
                                            <tr data-part=format!("{p:?}")><th>{move || part_name(p, lang.get())}</th>
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
                        <p class="muted" id="memory-note">{move || match (act, assumed_shape) {
                            (Some(a), false) => format!("{} {} · {}", act_label(), gib(a), note()),
                            (Some(a), true) => format!("{} {} · {} · {}", act_label(), gib(a), no_shape(), note()),
                            (None, _) => note().to_string(),
                        }}</p>
                    }.into_any()
                }
            }}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The panel's "built-in xl" is the model a job of size xl trains: its bar for the config's
    /// line is the job page's and the Run dialog's estimate, to the byte.
    #[test]
    fn a_built_in_preset_matches_the_jobs_estimate() {
        let p = model_presets()
            .into_iter()
            .find(|p| p.name == "built-in xl")
            .unwrap();
        let inputs = Inputs {
            params: p.params,
            hidden_size: Some(p.hidden_size),
            layers: Some(p.layers),
            heads: Some(p.heads),
            seq_len: p.seq_len,
            vocab: Some(p.vocab),
            checkpointing: false,
            nodes: 1,
            user: None,
        };
        let text = r#"{"train_micro_batch_size_per_gpu": 8, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}},
            "zero_optimization": {"stage": 2, "overlap_comm": true}}"#;
        let doc = Document::parse(text);
        let ctx = Context::default();
        let chart = bars(&inputs, &doc, &ctx);
        let mine = chart.bars.iter().find(|b| b.current).unwrap();
        let setup = setup_from_config(&doc, &ctx, 1).unwrap();
        let job = estimate(&ModelSpec::builtin("xl", false).unwrap(), &setup);
        assert_eq!(mine.gpu_bytes, job.gpu_peak_bytes);
        assert!(!chart.assumed_shape);
    }
}
