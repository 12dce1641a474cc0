//! `/templates/:id/diff/:from/:to`: what changed between two versions: the semantic changes,
//! the line diff of the canonical texts, and the diagnostics introduced and resolved.

use crate::api;
use crate::i18n::{t, use_lang};
use ds_studio_shared::api::{Diff, Version};
use ds_studio_shared::Document;
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
    // The two texts, so that a changed value is shown as written (`5e8`, not `500000000.0`).
    let text_of = move |side: &'static str| {
        let version = api::fetched::<Version>(move || {
            let (id, n) = params.with(|p| {
                (
                    p.get("id").unwrap_or_default(),
                    p.get(side).unwrap_or_default(),
                )
            });
            format!("/api/v1/templates/{id}/versions/{n}")
        });
        let text = Memo::new(move |_| {
            version.with(|v| match v {
                Some(Ok(v)) => Some(v.config_text.clone()),
                _ => None,
            })
        });
        let release = Memo::new(move |_| {
            version.with(|v| match v {
                Some(Ok(v)) => v.context.release().ok(),
                _ => None,
            })
        });
        (text, release)
    };
    let ((from_text, from_release), (to_text, to_release)) = (text_of("from"), text_of("to"));
    // Each version is judged for the DeepSpeed release saved with it: a change of release
    // is a change too, and explains diagnostics introduced or resolved.
    let release_change = move || match (from_release.get(), to_release.get()) {
        (Some(a), Some(b)) if a != b => Some((a, b)),
        _ => None,
    };
    view! {

            {move || diff.get().map(|r| match r {
                Err(e) => {
                    let (id, from, to) = params.with_untracked(|p| (p.get("id").unwrap_or_default(), p.get("from").unwrap_or_default(), p.get("to").unwrap_or_default()));
                    crate::components::states::error_view(e, format!("{} {id} · v{from} → v{to}", crate::i18n::t("state.template")()))
                }
                Ok(d) => view! {
                    <section class="card" id="diff">
                        <h2>{format!("{} v{} → {} v{}", d.from.template_name, d.from.version, d.to.template_name, d.to.version)}</h2>
                        {move || release_change().map(|(a, b)| view! {
                            <p id="diff-release">{move || crate::i18n::tr("diff.release", lang.get()).replace("{from}", a.as_str()).replace("{to}", b.as_str())}</p>
                        })}
                        <h3>{t("diff.changes")}</h3>
                        <ul id="changes">
                            {d.changes.into_iter().map(|c| {
                                let class = format!("change {}", c.op);
                                view! {
                                    <li class=class data-path=c.path.clone()>
                                        <code>{c.path.clone()}</code>" "
                                        <span class="old">{spelled(from_text, c.path.clone(), c.old)}</span>
                                        " → "
                                        <span class="new">{spelled(to_text, c.path.clone(), c.new)}</span>
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

/// A changed value as its version's text writes it (the API's change carries the parsed value;
/// shown until the text has arrived, or where the text has no literal at `pointer`).
fn spelled(
    text: Memo<Option<String>>,
    pointer: String,
    value: Option<serde_json::Value>,
) -> impl Fn() -> String {
    let parsed = value.map(|v| v.to_string()).unwrap_or_default();
    move || {
        text.with(|t| {
            let t = t.as_deref()?;
            let doc = Document::parse(t);
            let node = doc.get(&pointer)?;
            t.get(node.span.clone()).map(str::to_string)
        })
        .unwrap_or_else(|| parsed.clone())
    }
}
