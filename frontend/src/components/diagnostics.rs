//! The verdict badge and the list of diagnostics of one config.

use crate::i18n::{t, use_lang};
use ds_studio_shared::{Diagnostic, Severity, Verdict};
use leptos::prelude::*;

#[component]
pub fn VerdictBadge(
    #[prop(into)] verdict: Signal<Verdict>,
    /// The DeepSpeed release the verdict is for (named in the badge).
    #[prop(into)]
    release: Signal<ds_studio_shared::Release>,
    /// Under the HF launchers the verdict is HF's and DeepSpeed's together, and says so.
    #[prop(optional, into)]
    launcher: Option<Signal<ds_studio_shared::Launcher>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let who = move || {
        let ds = format!("DeepSpeed {}", release.get().as_str());
        match launcher.map(|l| l.get()) {
            Some(ds_studio_shared::Launcher::HfTrainer) => format!("HF Trainer + {ds}"),
            Some(ds_studio_shared::Launcher::Accelerate) => format!("Accelerate + {ds}"),
            _ => ds,
        }
    };
    view! {
        <div id="verdict" role="status" data-release=move || release.get().to_string()
            class=move || if verdict.get() == Verdict::Accepted { "verdict ok" } else { "verdict bad" }>
            {move || {
                let key = if verdict.get() == Verdict::Accepted { "verdict.accept" } else { "verdict.reject" };
                crate::i18n::tr(key, lang.get()).replace("DeepSpeed {release}", &who())
            }}
        </div>
    }
}

/// What identifies a row: code, path, line, column, English message, occurrence.
pub type RowKey = (String, String, usize, usize, String, usize);

/// A key that names a diagnostic by what it says, not by where it sits in the list, so that a
/// keystroke adding one diagnostic re-renders that one row, not every row below it.
/// `occurrence` tells apart identical diagnostics.
pub fn row_key(d: &Diagnostic, occurrence: usize) -> RowKey {
    (
        d.code.clone(),
        d.path.clone(),
        d.line.unwrap_or(0),
        d.column.unwrap_or(0),
        d.message.en.clone(),
        occurrence,
    )
}

/// The diagnostics with their row keys.
pub fn keyed(diags: &[Diagnostic]) -> Vec<(RowKey, Diagnostic)> {
    let mut out: Vec<(RowKey, Diagnostic)> = Vec::with_capacity(diags.len());
    for d in diags {
        let occurrence = out
            .iter()
            .filter(|(k, _)| k.0 == d.code && k.1 == d.path && k.4 == d.message.en)
            .count();
        out.push((row_key(d, occurrence), d.clone()));
    }
    out
}

/// The list; with `text`, each diagnostic that carries a fix gets a button that applies it (the
/// JSON patch, or the text edits of a fix such as "drop the comment") to the text; with `on_select`, clicking a diagnostic (or Enter on it) calls it,
/// so the page can take the user to the field.
#[component]
pub fn DiagnosticList(
    #[prop(into)] diagnostics: Signal<Vec<Diagnostic>>,
    #[prop(optional)] text: Option<RwSignal<String>>,
    #[prop(optional, into)] on_select: Option<Callback<Diagnostic>>,
) -> impl IntoView {
    let lang = use_lang();
    let fix_label = t("diag.fix");
    view! {
        <ul id="diagnostics" aria-label=t("diag.list")>
            <For each=move || diagnostics.with(|d| keyed(d)) key=|(k, _)| k.clone() let:item>
                {
                    let (_, d) = item;
                    let class = match d.severity { Severity::Error => "diag error", Severity::Warning => "diag warning", Severity::Info => "diag info" };
                    let where_ = format!("{}:{}", d.line.unwrap_or(1), d.column.unwrap_or(1));
                    let msg = d.message.clone();
                    let selected = d.clone();
                    let select = move || if let Some(cb) = on_select { cb.run(selected.clone()) };
                    let select_key = select.clone();
                    view! {
                        <li class=class data-code=d.code.clone() data-path=d.path.clone()
                            tabindex=on_select.map(|_| "0")
                            on:click=move |_| select()
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| if on_select.is_some() && (ev.key() == "Enter" || ev.key() == " ") { ev.prevent_default(); select_key() }>
                            <span class="sev">{t(match d.severity { Severity::Error => "sev.error", Severity::Warning => "sev.warning", Severity::Info => "sev.info" })}</span>
                            <code class="code">{d.code.clone()}</code>
                            <span class="pos">{where_}</span>
                            <code class="path">{d.path.clone()}</code>
                            <span class="msg">{move || msg.get(lang.get()).to_string()}</span>
                            {d.fix.clone().zip(text).map(|(fix, text)| view! {
                                <button class="fix" on:click=move |ev| {
                                    ev.stop_propagation();
                                    let doc = ds_studio_shared::Document::parse(&text.get_untracked());
                                    if let Ok(fixed) = doc.apply_patch(&fix) {
                                        text.set(fixed.text().to_string());
                                    }
                                }>{fix_label}</button>
                            })}
                            {d.text_fix.clone().zip(text).map(|(edits, text)| view! {
                                <button class="fix" on:click=move |ev| {
                                    ev.stop_propagation();
                                    let fixed = text.with_untracked(|t| ds_studio_shared::validate::apply_text_fix(t, &edits));
                                    if let Some(fixed) = fixed {
                                        text.set(fixed);
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
