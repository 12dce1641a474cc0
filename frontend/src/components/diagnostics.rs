//! The verdict badge and the list of diagnostics of one config.

use crate::i18n::{t, use_lang};
use ds_studio_shared::{Diagnostic, Severity, Verdict};
use leptos::prelude::*;

#[component]
pub fn VerdictBadge(#[prop(into)] verdict: Signal<Verdict>) -> impl IntoView {
    let accept = t("verdict.accept");
    let reject = t("verdict.reject");
    view! {
        <div id="verdict" class=move || if verdict.get() == Verdict::Accepted { "verdict ok" } else { "verdict bad" }>
            {move || if verdict.get() == Verdict::Accepted { accept() } else { reject() }}
        </div>
    }
}

/// The list; with `text`, each diagnostic that carries a fix gets a button that applies it (the
/// JSON patch) to the text.
#[component]
pub fn DiagnosticList(
    #[prop(into)] diagnostics: Signal<Vec<Diagnostic>>,
    #[prop(optional)] text: Option<RwSignal<String>>,
) -> impl IntoView {
    let lang = use_lang();
    let fix_label = t("diag.fix");
    view! {
        <ul id="diagnostics">
            <For each=move || diagnostics.get().into_iter().enumerate() key=|(i, d)| (*i, d.code.clone(), d.path.clone()) let:item>
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
                            {d.fix.clone().zip(text).map(|(fix, text)| view! {
                                <button class="fix" on:click=move |_| {
                                    let doc = ds_studio_shared::Document::parse(&text.get_untracked());
                                    if let Ok(fixed) = doc.apply_patch(&fix) {
                                        text.set(fixed.text().to_string());
                                    }
                                }>{fix_label}</button>
                            })}
                        </li>
                    }
                }
            </For>
        </ul>
    }
}
