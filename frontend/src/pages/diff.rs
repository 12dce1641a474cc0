//! `/templates/:id/diff/:from/:to`: what changed between two versions: the semantic changes,
//! the line diff of the canonical texts, and the diagnostics introduced and resolved.

use crate::api;
use crate::i18n::{t, use_lang};
use ds_studio_shared::api::Diff;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

#[component]
pub fn DiffPage() -> impl IntoView {
    let params = use_params_map();
    let lang = use_lang();
    let diff = api::fetched::<Diff>(move || {
        let (id, from, to) = params.with(|p| {
            (
                p.get("id").unwrap_or_default(),
                p.get("from").unwrap_or_default(),
                p.get("to").unwrap_or_default(),
            )
        });
        format!("/api/v1/templates/{id}/diff?from={from}&to={to}")
    });
    view! {

            {move || diff.get().map(|r| match r {
                Err(e) => {
                    let (id, from, to) = params.with_untracked(|p| (p.get("id").unwrap_or_default(), p.get("from").unwrap_or_default(), p.get("to").unwrap_or_default()));
                    crate::components::states::error_view(e, format!("{} {id} · v{from} → v{to}", crate::i18n::t("state.template")()))
                }
                Ok(d) => view! {
                    <section class="card" id="diff">
                        <h2>{format!("{} v{} → {} v{}", d.from.template_name, d.from.version, d.to.template_name, d.to.version)}</h2>
                        <h3>{t("diff.changes")}</h3>
                        <ul id="changes">
                            {d.changes.into_iter().map(|c| {
                                let class = format!("change {}", c.op);
                                view! {
                                    <li class=class data-path=c.path.clone()>
                                        <code>{c.path.clone()}</code>" "
                                        <span class="old">{c.old.map(|v| v.to_string()).unwrap_or_default()}</span>
                                        " → "
                                        <span class="new">{c.new.map(|v| v.to_string()).unwrap_or_default()}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                        <h3>{t("diff.introduced")}</h3>
                        {d.diagnostics_introduced.is_empty().then(|| view! { <p class="muted" id="introduced-none">{t("diff.none")}</p> })}
                        <ul id="introduced">
                            {d.diagnostics_introduced.into_iter().map(|x| {
                                let msg = x.message.clone();
                                view! { <li data-code=x.code.clone()><code>{x.code.clone()}</code>" "{move || msg.get(lang.get()).to_string()}</li> }
                            }).collect_view()}
                        </ul>
                        <h3>{t("diff.resolved")}</h3>
                        {d.diagnostics_resolved.is_empty().then(|| view! { <p class="muted" id="resolved-none">{t("diff.none")}</p> })}
                        <ul id="resolved">
                            {d.diagnostics_resolved.into_iter().map(|x| {
                                let msg = x.message.clone();
                                view! { <li data-code=x.code.clone()><code>{x.code.clone()}</code>" "{move || msg.get(lang.get()).to_string()}</li> }
                            }).collect_view()}
                        </ul>
                        <h3>{t("diff.text")}</h3>
                        <pre id="text-diff" class="code">
                            {d.text_diff.lines().map(|l| {
                                let class = if l.starts_with('+') && !l.starts_with("+++") { "add" }
                                    else if l.starts_with('-') && !l.starts_with("---") { "del" } else { "ctx" };
                                view! { <span class=class>{format!("{l}\n")}</span> }
                            }).collect_view()}
                        </pre>
                    </section>
                }.into_any(),
            }).unwrap_or_else(api::loading)}

    }
}
