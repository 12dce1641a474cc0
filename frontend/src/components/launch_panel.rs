//! "Launch commands": the lines that start this config on the context's nodes × GPUs with
//! DeepSpeed's launcher (and its hostfile), torchrun, and accelerate launch with its YAML
//! (`shared::launch`, as `ds-studio launch-command` prints them), each with a copy button.

use crate::i18n::t;
use ds_studio_shared::document::Document;
use ds_studio_shared::launch::{commands, tool_command, LaunchCommands, LaunchPlan};
use ds_studio_shared::{Context, Launcher};
use leptos::prelude::*;

/// The commands for a context: nodes × GPUs per node from `nodes` and the world size; the HF
/// launchers take the config as `--deepspeed FILE`.
pub fn for_context(doc: &Document, ctx: &Context, nodes: u32, script: &str) -> LaunchCommands {
    let nodes = nodes.max(1);
    let plan = LaunchPlan {
        nodes,
        gpus_per_node: (ctx.world_size.max(1) / nodes).max(1),
        script: if script.trim().is_empty() {
            "train.py".into()
        } else {
            script.trim().to_string()
        },
        config_flag: if ctx.launcher == Launcher::Deepspeed {
            "--deepspeed_config"
        } else {
            "--deepspeed"
        }
        .into(),
        ..LaunchPlan::default()
    };
    commands(&plan, &doc.to_value().unwrap_or_default())
}

/// The tool the last imported training file came from (LLaMA-Factory, axolotl), provided by
/// the editor: the trainer-argument bar sets it on import and the panel adds that tool's own
/// launch line.
#[derive(Clone, Copy)]
pub struct ImportedFrom(pub RwSignal<Option<String>>);

#[component]
pub fn LaunchPanel(
    doc: Memo<Document>,
    context: RwSignal<Context>,
    nodes: RwSignal<u32>,
) -> impl IntoView {
    let script = RwSignal::new("train.py".to_string());
    let cmds = Memo::new(move |_| {
        doc.with(|d| for_context(d, &context.get(), nodes.get(), &script.get()))
    });
    let imported = use_context::<ImportedFrom>().map(|i| i.0);
    let tool = Memo::new(move |_| {
        let source = imported.and_then(|i| i.get())?;
        let c = context.get();
        let n = nodes.get().max(1);
        let line = tool_command(
            &source,
            n,
            (c.world_size.max(1) / n).max(1),
            "node-0",
            29500,
            "train.yaml",
        )?;
        Some((source, line))
    });
    let copied = RwSignal::new(None::<&'static str>);
    let block = move |id: &'static str, title: &'static str, text: Signal<String>| {
        let copy = move |_| {
            #[cfg(target_arch = "wasm32")]
            {
                let value = text.get_untracked();
                leptos::task::spawn_local(async move {
                    if crate::components::import_export::browser::copy(&value)
                        .await
                        .is_ok()
                    {
                        copied.set(Some(id));
                    }
                });
            }
        };
        view! {
            <div class="launch-block">
                <div class="toolbar"><strong>{t(title)}</strong>
                    <button type="button" class="copy" data-for=id on:click=copy>
                        {move || if copied.get() == Some(id) { t("launch.copied")() } else { t("launch.copy")() }}
                    </button>
                </div>
                <pre id=id class="log">{move || text.get()}</pre>
            </div>
        }
    };
    view! {
        <details id="launch-panel" class="card">
            <summary>{t("launch.title")}</summary>
            <p class="muted">{t("launch.note")}</p>
            <label>{t("launch.script")}
                <input id="launch-script" prop:value=move || script.get() on:input=move |ev| script.set(event_target_value(&ev)) />
            </label>
            {move || cmds.with(|c| c.hostfile.is_some()).then(|| block("launch-hostfile", "launch.hostfile", Signal::derive(move || cmds.get().hostfile.unwrap_or_default())))}
            {move || tool.get().map(|(source, _)| view! {
                <p class="muted" id="launch-tool-note">{t(if source == "axolotl" { "launch.axolotl_note" } else { "launch.llamafactory_note" })}</p>
                {block("launch-tool", if source == "axolotl" { "launch.axolotl" } else { "launch.llamafactory" }, Signal::derive(move || tool.get().map(|(_, l)| l).unwrap_or_default()))}
            })}
            {block("launch-deepspeed", "launch.deepspeed", Signal::derive(move || cmds.get().deepspeed))}
            {block("launch-torchrun", "launch.torchrun", Signal::derive(move || cmds.get().torchrun))}
            {block("launch-accelerate-yaml", "launch.accelerate_yaml", Signal::derive(move || cmds.get().accelerate_yaml))}
            {block("launch-accelerate", "launch.accelerate", Signal::derive(move || cmds.get().accelerate))}
            {block("launch-sbatch", "launch.sbatch", Signal::derive(move || cmds.get().sbatch))}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_gives_the_shape_and_the_flag() {
        let doc = Document::parse(r#"{"train_batch_size": 16}"#);
        let ctx = Context {
            world_size: 16,
            ..Context::default()
        };
        let c = for_context(&doc, &ctx, 2, "");
        assert!(
            c.deepspeed.contains("--num_nodes 2 --num_gpus 8"),
            "{}",
            c.deepspeed
        );
        assert!(c
            .deepspeed
            .ends_with("train.py --deepspeed_config ds_config.json"));
        let hf = Context {
            launcher: Launcher::HfTrainer,
            ..Context::default()
        };
        let c = for_context(&doc, &hf, 1, "run_clm.py");
        assert_eq!(
            c.deepspeed,
            "deepspeed --num_gpus 1 run_clm.py --deepspeed ds_config.json"
        );
    }
}
