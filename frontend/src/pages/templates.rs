//! `/templates`: the team's templates (search by name, filter by tag and team) and "new
//! template", empty or from a preset of the gallery (ZeRO 0-3, Infinity, tuned configs), each
//! asking for a name first (the preset's title, numbered when the team already has it).

use crate::api;
use crate::i18n::t;
use crate::i18n::use_lang;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{encode_query_value, TemplateCreate};
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::presets::presets;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

const NEW_CONFIG: &str =
    "{\n  \"train_batch_size\": 8,\n  \"zero_optimization\": {\"stage\": 2}\n}\n";

/// Focuses the name field of the open preset form once it is shown.
fn focus_preset_name() {
    #[cfg(target_arch = "wasm32")]
    request_animation_frame(|| {
        use wasm_bindgen::JsCast;
        if let Some(el) = document()
            .query_selector(".preset-form .preset-name")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            let _ = el.focus();
            el.select();
        }
    });
}

#[component]
pub fn TemplatesPage() -> impl IntoView {
    let (query, set_query) = signal(String::new());
    // The tag filter lives in the URL (`/templates?tag=zero3`): a link or a reload keeps it.
    let query_map = leptos_router::hooks::use_query_map();
    let (tag, set_tag) = signal(
        query_map
            .with_untracked(|q| q.get("tag"))
            .unwrap_or_default(),
    );
    let navigate_tag = use_navigate();
    Effect::new(move |first: Option<()>| {
        let tg = tag.get();
        if first.is_some() {
            let url = if tg.is_empty() {
                "/templates".to_string()
            } else {
                format!("/templates?tag={}", encode_query_value(&tg))
            };
            navigate_tag(
                &url,
                leptos_router::NavigateOptions {
                    replace: true,
                    scroll: false,
                    ..Default::default()
                },
            );
        }
    });
    let (team, set_team) = signal(String::new());
    let teams = api::fetched(|| ep::ListTeams::url([]));
    let lang = use_lang();
    let (new_name, set_new_name) = signal(String::new());
    let (error, set_error) = signal(None::<String>);
    // The preset whose name form is open, the name it proposes, and why it was refused (said
    // in the card, where the name was typed).
    let preset_open = RwSignal::new(None::<String>);
    let preset_name = RwSignal::new(String::new());
    let preset_error = RwSignal::new(None::<String>);
    let list = api::fetched(move || {
        let (q, tg, tm) = (query.get(), tag.get(), team.get());
        let some = |v: String| (!v.is_empty()).then_some(v);
        ep::ListTemplates::url([])
            .query("limit", 200)
            .query("q", q)
            .query_opt("tag", some(tg))
            .query_opt("team_id", some(tm))
    });
    let navigate = use_navigate();
    // The team a new template goes to (a select only for someone in several teams).
    let target_team = RwSignal::new(None::<i64>);
    // A new template, empty or from a preset (named after the preset unless a name is typed).
    // One creation at a time: a double click made two requests, and the second answered a
    // page already left ("reactive value already disposed").
    let creating = RwSignal::new(false);
    let create_from = move |name: String, config: String, message: Option<String>, world: u32| {
        if creating.get_untracked() {
            return;
        }
        creating.set(true);
        let req = TemplateCreate {
            name,
            description: None,
            tags: None,
            team_id: target_team.get_untracked(),
            config: None,
            config_text: Some(config),
            message,
            context: Some(ds_studio_shared::Context::with_world_size(world)),
        };
        let navigate = navigate.clone();
        spawn_local(async move {
            match api::call(ep::CreateTemplate::url([]), &req).await {
                Ok(t) => navigate(&format!("/templates/{}", t.id), Default::default()),
                Err(e) => {
                    creating.try_set(false);
                    if preset_open.try_get_untracked().flatten().is_some() {
                        preset_error.try_set(Some(e.message));
                    } else {
                        set_error.try_set(Some(e.message));
                    }
                }
            }
        });
    };
    // Someone in no team, or only a viewer, cannot create templates: they get what to do
    // instead (ask an administrator), not a form the server refuses.
    let session = expect_context::<crate::session::Session>();
    let no_team = move || {
        session
            .0
            .with(|m| m.as_ref().is_some_and(|m| m.teams.is_empty()))
    };
    let can_create = move || {
        session.0.with(|m| {
            m.as_ref().is_some_and(|m| {
                m.user.is_admin && !m.teams.is_empty()
                    || m.teams.iter().any(|t| {
                        t.role
                            .is_some_and(|r| r >= ds_studio_shared::api::Role::Editor)
                    })
            })
        })
    };
    let is_admin = move || {
        session
            .0
            .with(|m| m.as_ref().is_some_and(|m| m.user.is_admin))
    };
    let create_empty = create_from.clone();
    let use_label = t("presets.use");
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        create_empty(new_name.get_untracked(), NEW_CONFIG.into(), None, 1);
    };
    view! {
        {move || no_team().then(|| view! {
            <section class="card" id="no-team">
                <h2>{t("team.no_team_title")}</h2>
                <p>{move || if is_admin() { t("team.none_admin")() } else { t("team.none")() }}</p>
                {move || is_admin().then(|| view! { <p><A href="/team" attr:class="button">{t("nav.team")}</A></p> })}
            </section>
        })}
        <section class="card" style:display=move || if no_team() { "none" } else { "" }>
            <h2>{t("templates.title")}</h2>
            <div class="toolbar">
                <input id="search" type="search" placeholder=t("templates.search") aria-label=t("templates.search")
                    on:input=move |ev| set_query.set(event_target_value(&ev)) />
                <input id="tag-filter" placeholder=t("templates.tag") aria-label=t("templates.tag") prop:value=move || tag.get()
                    on:input=move |ev| set_tag.set(event_target_value(&ev)) />
                <select id="team-filter" aria-label=t("templates.team") on:change=move |ev| set_team.set(event_target_value(&ev))>
                    <option value="">{t("templates.all_teams")}</option>
                    {move || teams.get().and_then(|r| r.ok()).unwrap_or_default().into_iter().map(|tm| view! {
                        <option value=tm.id.to_string()>{tm.name}</option>
                    }).collect_view()}
                </select>
                <form id="new-template" on:submit=create style:display=move || if can_create() { "" } else { "none" }>
                    <input id="new-name" placeholder=t("templates.name") aria-label=t("templates.name") required maxlength="120"
                        on:input=move |ev| set_new_name.set(event_target_value(&ev)) />
                    <crate::components::team_pick::TeamPick chosen=target_team id="new-template-team" />
                    <button type="submit" disabled=move || creating.get()>{t("templates.new")}</button>
                </form>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}

                {move || list.get().map(|r| match r {
                    Err(e) => view! { <p class="error" role="alert">{e.message}</p> }.into_any(),
                    Ok(page) if page.items.is_empty() => {
                        let filtered = !query.get_untracked().is_empty() || !tag.get_untracked().is_empty() || !team.get_untracked().is_empty();
                        view! { <p id="templates-empty">{t(if filtered { "templates.none_match" } else { "templates.empty" })}</p> }.into_any()
                    }
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
                                            {tp.tags.iter().map(|g| {
                                                let g2 = g.clone();
                                                view! { <button type="button" class="tag link" on:click=move |_| set_tag.set(g2.clone())>{g.clone()}</button> }
                                            }).collect_view()}
                                            {(!tp.description.is_empty()).then(|| view! { <div class="muted description">{tp.description.clone()}</div> })}</td>
                                        <td>{tp.team_name.clone()}</td>
                                        <td class=if tp.head_verdict == ds_studio_shared::Verdict::Accepted { "ok" } else { "bad" }>
                                            {format!("v{} · ", tp.head_version)}{crate::i18n::verdict_label(tp.head_verdict)}</td>
                                        <td><crate::components::states::When at=tp.updated_at.clone() /></td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any(),
                }).unwrap_or_else(api::loading)}

        </section>
        <section class="card" id="presets" style:display=move || if can_create() { "" } else { "none" }>
            <h2>{t("presets.title")}</h2>
            <p class="muted">{t("presets.hint")}</p>
            <div class="gallery">
                {presets().into_iter().map(|p| {
                    let create = create_from.clone();
                    let (title_en, title_zh) = (p.title_en.clone(), p.title_zh.clone());
                    let (desc_en, desc_zh) = (p.description_en.clone(), p.description_zh.clone());
                    let config = p.config.clone();
                    let id = p.id.clone();
                    let (id_open, id_shown) = (id.clone(), id.clone());
                    let (aria_en, aria_zh) = (p.title_en.clone(), p.title_zh.clone());
                    let title = move || if lang.get_untracked() == Lang::Zh { p.title_zh.clone() } else { p.title_en.clone() };
                    view! {
                        <article class="preset" data-preset=p.id.clone()>
                            <h3>{move || if lang.get() == Lang::Zh { title_zh.clone() } else { title_en.clone() }}</h3>
                            <p>{move || if lang.get() == Lang::Zh { desc_zh.clone() } else { desc_en.clone() }}</p>
                            <button class="use-preset" aria-expanded=move || (preset_open.get().as_deref() == Some(id_shown.as_str())).to_string()
                                aria-label=move || format!("{} {}", use_label(), if lang.get() == Lang::Zh { aria_zh.clone() } else { aria_en.clone() })
                                on:click=move |_| {
                                    // Ask for a name: the preset's title, numbered when the team has it.
                                    let title = title();
                                    preset_name.set(title.clone());
                                    preset_error.set(None);
                                    preset_open.set(Some(id_open.clone()));
                                    spawn_local(async move {
                                        let url = ep::ListTemplates::url([]).query("limit", 200).query("q", &title);
                                        if let Ok(page) = api::fetch(url).await {
                                            let free = ds_studio_shared::api::free_name(&title, |n| page.items.iter().any(|t| t.name == n));
                                            preset_name.set(free);
                                        }
                                        focus_preset_name();
                                    });
                                }>{t("presets.use")}</button>
                            {move || (preset_open.get().as_deref() == Some(id.as_str())).then(|| {
                                let create = create.clone();
                                let config = config.clone();
                                let id = id.clone();
                                view! {
                                    <form class="preset-form" on:submit=move |ev: leptos::ev::SubmitEvent| {
                                        ev.prevent_default();
                                        // Presets are made for 8 GPUs: the template starts in that context.
                                        create(preset_name.get_untracked(), config.clone(), Some(crate::i18n::tr("presets.message", lang.get_untracked()).replace("{id}", &id)), 8);
                                    } on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { preset_open.set(None) }>
                                        <label>{t("presets.name")}" "
                                            <input class="preset-name" required maxlength="120" prop:value=move || preset_name.get()
                                                on:input=move |ev| preset_name.set(event_target_value(&ev)) /></label>
                                        <crate::components::team_pick::TeamPick chosen=target_team id="preset-team" />
                                        <button type="submit" class="create-preset" disabled=move || creating.get()>{t("presets.create")}</button>
                                        <button type="button" on:click=move |_| preset_open.set(None)>{t("fix.cancel")}</button>
                                        {move || preset_error.get().map(|e| view! { <p class="error preset-error" role="alert">{e}</p> })}
                                    </form>
                                }
                            })}
                        </article>
                    }
                }).collect_view()}
            </div>
        </section>
    }
}
