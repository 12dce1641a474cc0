//! The HF Trainer's arguments in the context (shown under the `hf-trainer` and `accelerate`
//! launchers): typed, or imported from a training file the user already has (LLaMA-Factory or
//! axolotl YAML, `accelerate config` YAML, a command line), read by the server's importer
//! (`POST /api/v1/trainer-args/import`, the CLI's `--trainer-args-file` reader).

use crate::i18n::{t, use_lang};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::i18n::{Lang, Text};
use ds_studio_shared::launcher::imported::Imported;
use ds_studio_shared::launcher::TrainerArgs;
use ds_studio_shared::Context;
use leptos::prelude::*;

/// The arguments offered as fields: (TrainingArguments name, i18n label key, placeholder = the
/// Trainer's default).
const FIELDS: &[(&str, &str, &str)] = &[
    ("per_device_train_batch_size", "trainer.mbs", "8"),
    ("gradient_accumulation_steps", "trainer.gas", "1"),
    ("learning_rate", "trainer.lr", "5e-05"),
    ("weight_decay", "trainer.wd", "0.0"),
    ("adam_beta1", "trainer.beta1", "0.9"),
    ("adam_beta2", "trainer.beta2", "0.999"),
    ("adam_epsilon", "trainer.eps", "1e-08"),
    ("max_grad_norm", "trainer.clip", "1.0"),
    ("warmup_steps", "trainer.warmup", "0"),
    ("max_steps", "trainer.max_steps", "-1"),
    ("num_train_epochs", "trainer.epochs", "3"),
    ("train_samples", "trainer.samples", "?"),
];

/// The value of one argument as the field shows it (empty: the default).
fn shown(args: &Option<TrainerArgs>, name: &str) -> String {
    let v = serde_json::to_value(args.clone().unwrap_or_default()).unwrap_or_default();
    match v.get(name) {
        Some(serde_json::Value::Number(n)) => n.to_string(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}

/// Sets or clears (empty text) one argument; the error names a refused value.
fn update(context: RwSignal<Context>, name: &str, text: &str) -> Result<(), String> {
    let mut args = context.with_untracked(|c| c.trainer.clone().unwrap_or_default());
    if text.trim().is_empty() {
        let mut v = serde_json::to_value(&args).unwrap_or_default();
        if let Some(m) = v.as_object_mut() {
            m.remove(name);
        }
        args = serde_json::from_value(v).unwrap_or_default();
    } else {
        args.set(name, text).map_err(|e| e.0)?;
    }
    let empty = args == TrainerArgs::default();
    context.update(|c| c.trainer = (!empty).then_some(args));
    Ok(())
}

#[component]
pub fn TrainerArgsBar(context: RwSignal<Context>, nodes: RwSignal<u32>) -> impl IntoView {
    let lang = use_lang();
    let error = RwSignal::new(None::<String>);
    let import_open = RwSignal::new(false);
    let import_text = RwSignal::new(String::new());
    let import_notes = RwSignal::new(Vec::<Text>::new());
    let precision = move || {
        context.with(|c| {
            let a = c.trainer.clone().unwrap_or_default();
            if a.bf16 == Some(true) {
                "bf16"
            } else if a.fp16 == Some(true) {
                "fp16"
            } else {
                "no"
            }
        })
    };
    let imported_from = use_context::<crate::components::launch_panel::ImportedFrom>();
    let apply = move |got: Result<Imported, String>| match got {
        Ok(got) => {
            if let Some(i) = imported_from {
                i.0.set(Some(got.source.as_str().to_string()));
            }
            let imported = |l| crate::i18n::tr("trainer.imported", l);
            let (title, title_zh) = (got.source.title(), got.source.title_zh());
            let mut notes = vec![Text::new(
                format!("{} {title}", imported(Lang::En)),
                format!("{}{title_zh}", imported(Lang::Zh)),
            )];
            if let Some(ds) = &got.deepspeed_config {
                notes.push(Text::new(
                    format!("DeepSpeed config named there: {ds}"),
                    format!("其中指定的 DeepSpeed 配置：{ds}"),
                ));
            }
            notes.extend(got.notes.iter().cloned());
            if let Some(w) = got.world_size {
                let n = got
                    .nodes
                    .filter(|n| *n > 0 && w.is_multiple_of(*n))
                    .unwrap_or(1)
                    .max(1);
                // The cluster shape changes with the file: said, with what it was.
                let (was_nodes, was_world) = (
                    nodes.get_untracked(),
                    context.with_untracked(|c| c.world_size),
                );
                if (was_nodes, was_world) != (n, w.max(1)) {
                    let per = |world: u32, nodes: u32| world / nodes.max(1);
                    notes.push(Text::new(
                        format!(
                            "the cluster comes from the file: {n} node(s) × {} GPU(s) (was {was_nodes} × {})",
                            per(w.max(1), n),
                            per(was_world, was_nodes)
                        ),
                        format!(
                            "集群规模取自文件：{n} 个节点 × 每节点 {} 张 GPU（原为 {was_nodes} × {}）",
                            per(w.max(1), n),
                            per(was_world, was_nodes)
                        ),
                    ));
                }
                nodes.set(n);
            }
            // Only the node count given (`NNODES=2 … llamafactory-cli train`): the nodes change,
            // each keeping its GPUs, and that is said.
            let nodes_only = got
                .nodes
                .filter(|n| got.world_size.is_none() && *n >= 1 && *n != nodes.get_untracked());
            if let Some(n) = nodes_only {
                let per = (context.with_untracked(|c| c.world_size) / nodes.get_untracked().max(1))
                    .max(1);
                notes.push(Text::new(
                    format!("the file gives {n} node(s): {n} × {per} GPU(s) (GPUs per node kept)"),
                    format!("文件给出 {n} 个节点：{n} × 每节点 {per} 张 GPU（每节点 GPU 数不变）"),
                ));
                nodes.set(n);
                context.update(|c| c.world_size = n.saturating_mul(per));
            }
            context.update(|c| {
                c.launcher = got.launcher;
                c.trainer = Some(got.trainer.clone());
                if let Some(w) = got.world_size {
                    c.world_size = w.max(1);
                }
            });
            import_notes.set(notes);
            error.set(None);
            import_open.set(false);
        }
        Err(e) => {
            import_notes.set(Vec::new());
            error.set(Some(e));
        }
    };
    let do_import = move || {
        let text = import_text.get_untracked();
        leptos::task::spawn_local(async move {
            let body = ds_studio_shared::api::TrainerArgsImport { text };
            let got: Result<Imported, String> =
                crate::api::call(ep::ImportTrainerArgs::url([]), &body)
                    .await
                    .map_err(|e| e.message);
            apply(got);
        });
    };
    view! {
        <Show when=move || context.with(|c| c.launcher.fills_auto())>
            <div class="context trainer-args" id="trainer-args" role="group" aria-label=t("trainer.title")>
                <span class="muted" title=t("trainer.help")>{t("trainer.title")}</span>
                {FIELDS.iter().map(|&(name, label, placeholder)| view! {
                    <label title=name>{t(label)}
                        <input class="trainer-arg" data-arg=name type="text" inputmode="decimal" size="7" placeholder=placeholder
                            prop:value=move || context.with(|c| shown(&c.trainer, name))
                            on:change=move |ev| error.set(update(context, name, &event_target_value(&ev)).err()) />
                    </label>
                }).collect_view()}
                <label>{t("trainer.precision")}
                    <select id="trainer-precision" prop:value=precision
                        on:change=move |ev| error.set(update(context, "mixed_precision", &event_target_value(&ev)).err())>
                        <option value="no">"fp32"</option>
                        <option value="bf16">"bf16"</option>
                        <option value="fp16">"fp16"</option>
                    </select>
                </label>
                <button id="trainer-import" aria-expanded=move || import_open.get().to_string() on:click=move |_| {
                    import_open.update(|o| *o = !*o);
                    // Its apply button must not open under the sticky save bar.
                    if import_open.get_untracked() {
                        super::reveal("trainer-import-panel", false);
                    }
                }>{t("trainer.import")}</button>
            </div>
            <Show when=move || import_open.get()>
                <div class="import-args" id="trainer-import-panel">
                    <label for="trainer-import-text">{t("trainer.import_help")}</label>
                    <textarea id="trainer-import-text" rows="8" spellcheck="false"
                        placeholder="per_device_train_batch_size: 4\ngradient_accumulation_steps: 8\nlearning_rate: 2.0e-5\nbf16: true\ndeepspeed: ds_z3_config.json"
                        prop:value=move || import_text.get()
                        on:input=move |ev| import_text.set(event_target_value(&ev))></textarea>
                    <div class="toolbar">
                        // The browser's own file button speaks the browser's language, not the
                        // page's: a styled label stands for it.
                        <label class="button" for="trainer-import-file">{t("trainer.import_choose")}</label>
                        <input type="file" id="trainer-import-file" class="visually-hidden" accept=".yaml,.yml,.sh,.txt"
                            on:change=move |ev| read_file(ev, import_text) />
                        <button id="trainer-import-apply" on:click=move |_| do_import()>{t("trainer.import_apply")}</button>
                    </div>
                </div>
            </Show>
            <Show when=move || error.get().is_some()>
                <p class="error" id="trainer-args-error" role="alert">{move || error.get().unwrap_or_default()}</p>
            </Show>
            <Show when=move || !import_notes.get().is_empty()>
                <ul class="muted" id="trainer-import-notes">
                    {move || import_notes.get().into_iter().map(|n| view! { <li>{n.get(lang.get()).to_string()}</li> }).collect_view()}
                </ul>
            </Show>
        </Show>
    }
}

/// Reads the picked file into the import box.
fn read_file(ev: leptos::ev::Event, into: RwSignal<String>) {
    use wasm_bindgen::JsCast;
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return;
    };
    let Some(file) = input.files().and_then(|f| f.get(0)) else {
        return;
    };
    let promise = file.text();
    leptos::task::spawn_local(async move {
        if let Ok(text) = wasm_bindgen_futures::JsFuture::from(promise).await {
            into.set(text.as_string().unwrap_or_default());
        }
    });
}
