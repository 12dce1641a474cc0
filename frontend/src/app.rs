//! The validation page.

use ds_studio_shared::i18n::Lang;
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::{Context, Launcher, Severity, Verdict};
use leptos::prelude::*;

const SAMPLE: &str = r#"{
  // paste your ds_config.json here (comments and trailing commas are fine)
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}},
  "bf16": {"enabled": true},
}
"#;

#[component]
pub fn App() -> impl IntoView {
    let (text, set_text) = signal(SAMPLE.to_string());
    let (world, set_world) = signal(8u32);
    let (launcher, set_launcher) = signal(Launcher::Deepspeed);
    let (lang, set_lang) = signal(Lang::En);
    let result = Memo::new(move |_| {
        let ctx = Context {
            world_size: world.get().max(1),
            launcher: launcher.get(),
            ..Context::default()
        };
        let (_, diags) = validate_text(&text.get(), &ctx);
        (verdict(&diags), diags)
    });
    let zh = move || lang.get() == Lang::Zh;
    view! {
        <header>
            <h1>"ds-studio"</h1>
            <span class="subtitle">{move || if zh() { "DeepSpeed 配置校验" } else { "DeepSpeed config validation" }}</span>
            <button id="lang" on:click=move |_| set_lang.update(|l| *l = if *l == Lang::En { Lang::Zh } else { Lang::En })>
                {move || if zh() { "English" } else { "中文" }}
            </button>
        </header>
        <main>
            <section class="editor">
                <div class="context">
                    <label>{move || if zh() { "GPU 总数" } else { "World size" }}
                        <input id="world-size" type="number" min="1" prop:value=move || world.get().to_string()
                            on:input=move |ev| set_world.set(event_target_value(&ev).parse().unwrap_or(1)) />
                    </label>
                    <label>{move || if zh() { "启动方式" } else { "Launcher" }}
                        <select id="launcher" on:change=move |ev| set_launcher.set(event_target_value(&ev).parse().unwrap_or_default())>
                            <option value="deepspeed">"deepspeed"</option>
                            <option value="hf-trainer">"hf-trainer"</option>
                            <option value="accelerate">"accelerate"</option>
                        </select>
                    </label>
                </div>
                <textarea id="config" spellcheck="false" prop:value=move || text.get()
                    on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
            </section>
            <section class="results">
                <div id="verdict" class=move || if result.get().0 == Verdict::Accepted { "verdict ok" } else { "verdict bad" }>
                    {move || match (result.get().0, zh()) {
                        (Verdict::Accepted, false) => "DeepSpeed 0.19.8 would accept this config",
                        (Verdict::Rejected, false) => "DeepSpeed 0.19.8 would reject this config",
                        (Verdict::Accepted, true) => "DeepSpeed 0.19.8 会接受此配置",
                        (Verdict::Rejected, true) => "DeepSpeed 0.19.8 会拒绝此配置",
                    }}
                </div>
                <ul id="diagnostics">
                    <For each=move || result.get().1.into_iter().enumerate() key=|(i, d)| (*i, d.code.clone(), d.path.clone()) let:item>
                        {
                            let (_, d) = item;
                            let class = match d.severity { Severity::Error => "diag error", Severity::Warning => "diag warning", Severity::Info => "diag info" };
                            let where_ = format!("{}:{}", d.line.unwrap_or(1), d.column.unwrap_or(1));
                            let msg = d.message.clone();
                            view! {
                                <li class=class data-code=d.code.clone()>
                                    <span class="sev">{d.severity.as_str()}</span>
                                    <code class="code">{d.code.clone()}</code>
                                    <span class="pos">{where_}</span>
                                    <code class="path">{d.path.clone()}</code>
                                    <span class="msg">{move || msg.get(lang.get()).to_string()}</span>
                                </li>
                            }
                        }
                    </For>
                </ul>
            </section>
        </main>
    }
}
