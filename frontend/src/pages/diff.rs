//! `/templates/:id/diff/:from/:to`: what changed between two versions: the verdict of each,
//! what changed in the context they were saved for (launcher, GPUs, parallelism, release,
//! trainer arguments), the semantic changes, the line diff of the canonical texts, and the
//! diagnostics introduced and resolved; with links back to the template and both versions.

use crate::api;
use crate::i18n::{t, use_lang};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::Document;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

#[component]
pub fn DiffPage() -> impl IntoView {
    let params = use_params_map();
    let lang = use_lang();
    let diff = api::fetched(move || {
        let (id, from, to) = params.with(|p| {
            (
                p.get("id").unwrap_or_default(),
                p.get("from").unwrap_or_default(),
                p.get("to").unwrap_or_default(),
            )
        });
        ep::DiffVersions::url([&id])
            .query("from", from)
            .query("to", to)
    });
    // The two texts, so that a changed value is shown as written (`5e8`, not `500000000.0`).
    let text_of = move |side: &'static str| {
        let version = api::fetched(move || {
            let (id, n) = params.with(|p| {
                (
                    p.get("id").unwrap_or_default(),
                    p.get(side).unwrap_or_default(),
                )
            });
            ep::GetVersion::url([&id, &n])
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
        (text, release, version)
    };
    let ((from_text, from_release, from_version), (to_text, to_release, to_version)) =
        (text_of("from"), text_of("to"));
    // Each side's verdict, and what changed in the context the versions were saved for.
    let verdicts = Memo::new(move |_| match (from_version.get(), to_version.get()) {
        (Some(Ok(a)), Some(Ok(b))) => Some((a.version, a.verdict, b.version, b.verdict)),
        _ => None,
    });
    let context_changes = Memo::new(move |_| match (from_version.get(), to_version.get()) {
        (Some(Ok(a)), Some(Ok(b))) => context_changes(&a.context, &b.context),
        _ => Vec::new(),
    });
    let ids = move || {
        params.with(|p| {
            (
                p.get("id").unwrap_or_default(),
                p.get("from").unwrap_or_default(),
                p.get("to").unwrap_or_default(),
            )
        })
    };
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
                        {move || {
                            let (id, from, to) = ids();
                            view! {
                                <p id="diff-links">
                                    <A href=format!("/templates/{id}")>{t("diff.back")}</A>" · "
                                    <A href=format!("/templates/{id}/v/{from}")>{format!("v{from}")}</A>" · "
                                    <A href=format!("/templates/{id}/v/{to}")>{format!("v{to}")}</A>
                                </p>
                            }
                        }}
                        {move || verdicts.get().map(|(a, va, b, vb)| view! {
                            <p id="diff-verdicts">
                                <span class=if va == ds_studio_shared::Verdict::Accepted { "ok" } else { "bad" }>{format!("v{a} ")}{crate::i18n::verdict_label(va)}</span>
                                " → "
                                <span class=if vb == ds_studio_shared::Verdict::Accepted { "ok" } else { "bad" }>{format!("v{b} ")}{crate::i18n::verdict_label(vb)}</span>
                            </p>
                        })}
                        {move || (!context_changes.with(Vec::is_empty)).then(|| view! {
                            <h3>{t("diff.context")}</h3>
                            <ul id="diff-context">
                                {context_changes.get().into_iter().map(|(what, a, b)| view! {
                                    <li><strong>{t(what)}</strong>" "<code>{a}</code>" → "<code>{b}</code></li>
                                }).collect_view()}
                            </ul>
                        })}
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

/// What differs between two versions' contexts: (the i18n key of what, before, after).
pub fn context_changes(
    a: &ds_studio_shared::Context,
    b: &ds_studio_shared::Context,
) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    let mut differ = |what: &'static str, x: String, y: String| {
        if x != y {
            out.push((what, x, y));
        }
    };
    differ(
        "context.launcher",
        a.launcher.as_str().into(),
        b.launcher.as_str().into(),
    );
    differ(
        "diff.gpus",
        a.world_size.to_string(),
        b.world_size.to_string(),
    );
    differ(
        "diff.tp",
        a.tensor_parallel.to_string(),
        b.tensor_parallel.to_string(),
    );
    differ(
        "diff.pp",
        a.pipeline_parallel.to_string(),
        b.pipeline_parallel.to_string(),
    );
    differ(
        "diff.sp",
        a.sequence_parallel.to_string(),
        b.sequence_parallel.to_string(),
    );
    let args = |c: &ds_studio_shared::Context| {
        c.trainer
            .as_ref()
            .map(|t| serde_json::to_string(t).unwrap_or_default())
            .unwrap_or_else(|| "-".into())
    };
    differ("diff.trainer_args", args(a), args(b));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_changes_name_what_moved() {
        let a = ds_studio_shared::Context::with_world_size(8);
        let mut b = a.clone();
        assert!(context_changes(&a, &b).is_empty());
        b.launcher = ds_studio_shared::Launcher::HfTrainer;
        b.world_size = 16;
        let got = context_changes(&a, &b);
        assert_eq!(
            got,
            vec![
                (
                    "context.launcher",
                    "deepspeed".to_string(),
                    "hf-trainer".to_string()
                ),
                ("diff.gpus", "8".to_string(), "16".to_string()),
            ]
        );
    }
}
