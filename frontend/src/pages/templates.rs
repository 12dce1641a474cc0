//! `/templates`: the team's templates (search by name, filter by tag) and "new template".

use crate::api;
use crate::i18n::t;
use ds_studio_shared::api::{encode_query_value, Page, Template, TemplateCreate};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

const NEW_CONFIG: &str =
    "{\n  \"train_batch_size\": 8,\n  \"zero_optimization\": {\"stage\": 2}\n}\n";

#[component]
pub fn TemplatesPage() -> impl IntoView {
    let (query, set_query) = signal(String::new());
    let (tag, set_tag) = signal(String::new());
    let (new_name, set_new_name) = signal(String::new());
    let (error, set_error) = signal(None::<String>);
    let list = LocalResource::new(move || {
        let (q, tg) = (query.get(), tag.get());
        async move {
            let mut path = format!("/api/v1/templates?limit=200&q={}", encode_query_value(&q));
            if !tg.is_empty() {
                path.push_str(&format!("&tag={}", encode_query_value(&tg)));
            }
            api::get::<Page<Template>>(&path).await
        }
    });
    let navigate = use_navigate();
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let req = TemplateCreate {
            name: new_name.get_untracked(),
            description: None,
            tags: None,
            team_id: None,
            config: None,
            config_text: Some(NEW_CONFIG.into()),
            message: None,
            context: None,
        };
        let navigate = navigate.clone();
        spawn_local(async move {
            match api::post::<_, Template>("/api/v1/templates", &req).await {
                Ok(t) => navigate(&format!("/templates/{}", t.id), Default::default()),
                Err(e) => set_error.set(Some(e.message)),
            }
        });
    };
    view! {
        <section class="card">
            <h2>{t("templates.title")}</h2>
            <div class="toolbar">
                <input id="search" type="search" placeholder=t("templates.search")
                    on:input=move |ev| set_query.set(event_target_value(&ev)) />
                <input id="tag-filter" placeholder=t("templates.tag")
                    on:input=move |ev| set_tag.set(event_target_value(&ev)) />
                <form id="new-template" on:submit=create>
                    <input id="new-name" placeholder=t("templates.name") required
                        on:input=move |ev| set_new_name.set(event_target_value(&ev)) />
                    <button type="submit">{t("templates.new")}</button>
                </form>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <Suspense fallback=move || view! { <p>{t("loading")}</p> }>
                {move || list.get().map(|r| match r {
                    Err(e) => view! { <p class="error" role="alert">{e.message}</p> }.into_any(),
                    Ok(page) if page.items.is_empty() => view! { <p>{t("templates.empty")}</p> }.into_any(),
                    Ok(page) => view! {
                        <table id="templates">
                            <thead><tr>
                                <th>{t("templates.name")}</th><th>{t("templates.team")}</th>
                                <th>{t("templates.head")}</th><th>{t("templates.updated")}</th>
                            </tr></thead>
                            <tbody>
                                {page.items.into_iter().map(|tp| view! {
                                    <tr data-id=tp.id>
                                        <td><A href=format!("/templates/{}", tp.id)>{tp.name.clone()}</A>
                                            {tp.tags.iter().map(|g| view! { <span class="tag">{g.clone()}</span> }).collect_view()}</td>
                                        <td>{tp.team_name.clone()}</td>
                                        <td class=if tp.head_verdict == ds_studio_shared::Verdict::Accepted { "ok" } else { "bad" }>
                                            {format!("v{} · {}", tp.head_version, tp.head_verdict.as_str())}</td>
                                        <td>{tp.updated_at.clone()}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any(),
                })}
            </Suspense>
        </section>
    }
}
