//! The effective config beside the editor: every value the config leaves to someone else —
//! derived by DeepSpeed (the batch triple), filled by the launcher (under the HF Trainer and
//! Accelerate: each `"auto"` with the argument it came from) — and, on request, every default.
//! The same entries as `ds-studio effective` (`shared::effective`).

use crate::i18n::t;
use ds_studio_shared::document::Document;
use ds_studio_shared::effective::{effective, Entry, Provenance};
use ds_studio_shared::Context;
use leptos::prelude::*;

/// The entries the panel lists: what the user did not write, defaults only when asked.
pub fn shown(entries: Vec<Entry>, defaults: bool) -> Vec<Entry> {
    entries
        .into_iter()
        .filter(|e| match e.provenance {
            Provenance::User => false,
            Provenance::Default => defaults,
            Provenance::Derived | Provenance::Auto => true,
        })
        .collect()
}

#[component]
pub fn EffectivePanel(doc: Memo<Document>, context: RwSignal<Context>) -> impl IntoView {
    let defaults = RwSignal::new(false);
    let rows = Memo::new(move |_| {
        let ctx = context.get();
        doc.with(|doc| match doc.root() {
            Some(root) if root.is_object() => shown(effective(root, &ctx), defaults.get()),
            _ => Vec::new(),
        })
    });
    let label = move |p: Provenance| match p {
        Provenance::Auto => t("effective.auto"),
        Provenance::Derived => t("effective.derived"),
        Provenance::Default => t("effective.default"),
        Provenance::User => t("effective.user"),
    };
    view! {
        <details id="effective-panel" class="card">
            <summary>{t("effective.title")}</summary>
            <p class="muted">{t("effective.help")}</p>
            <label class="check"><input type="checkbox" id="effective-defaults" prop:checked=move || defaults.get()
                on:change=move |ev| defaults.set(event_target_checked(&ev)) />" "{t("effective.show_defaults")}</label>
            <table class="effective">
                <tbody>
                    {move || rows.get().into_iter().map(|e| {
                        let from = e.from.clone().unwrap_or_default();
                        view! {
                            <tr data-path=e.path.clone() data-provenance=format!("{:?}", e.provenance).to_lowercase()>
                                <td><code>{e.path.clone()}</code></td>
                                <td><code>{e.value.to_string()}</code></td>
                                <td class="muted">{label(e.provenance)}</td>
                                <td class="muted">{from}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </details>
    }
}
