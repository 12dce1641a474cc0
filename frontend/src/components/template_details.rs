//! The editor's "name, description and tags" panel: rename, describe and tag a template, or
//! delete it after a confirmation that says what goes with it (its versions, share links and
//! runs). The server refuses to delete a template while one of its jobs is queued or running.

use crate::api;
use crate::i18n::{t, tr, use_lang};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Template, TemplateUpdate};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Tags as typed ("a, b,,c ") → `["a", "b", "c"]`.
pub fn parse_tags(typed: &str) -> Vec<String> {
    typed
        .split([',', '，'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

#[component]
pub fn TemplateDetails(
    template: RwSignal<Option<Template>>,
    /// Called once the template is deleted.
    #[prop(into)]
    on_deleted: Callback<()>,
) -> impl IntoView {
    let lang = use_lang();
    let session = expect_context::<crate::session::Session>();
    // The caller's role in the template's team: deleting needs admin, renaming, describing and
    // tagging editor; others are told who can, instead of a control that fails.
    let role = move || {
        let team = template.with(|t| t.as_ref().map(|t| t.team_id))?;
        session
            .0
            .with(|me| crate::components::team_pick::role_in(me.as_ref()?, team))
    };
    let may_delete = move || role() == Some(ds_studio_shared::api::Role::Admin);
    let may_edit = move || role().is_some_and(|r| r >= ds_studio_shared::api::Role::Editor);
    let name = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let tags = RwSignal::new(String::new());
    let status = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    // The confirmation, with what the delete takes along: (versions, share links, runs).
    let confirm = RwSignal::new(None::<(i64, usize, i64)>);
    Effect::new(move |_| {
        if let Some(tp) = template.get() {
            name.set(tp.name.clone());
            description.set(tp.description.clone());
            tags.set(tp.tags.join(", "));
        }
    });
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(id) = template.get_untracked().map(|t| t.id) else {
            return;
        };
        let req = TemplateUpdate {
            name: Some(name.get_untracked().trim().to_string()),
            description: Some(description.get_untracked()),
            tags: Some(parse_tags(&tags.get_untracked())),
        };
        spawn_local(async move {
            match api::call(ep::UpdateTemplate::url([&id]), &req).await {
                Ok(tp) => {
                    template.set(Some(tp));
                    error.set(None);
                    status.set(Some(tr("details.saved", lang.get_untracked()).to_string()));
                }
                Err(e) => {
                    status.set(None);
                    error.set(Some(e.message));
                }
            }
        });
    };
    let ask = move |_| {
        let Some(tp) = template.get_untracked() else {
            return;
        };
        spawn_local(async move {
            let shares = api::fetch(ep::ListShares::url([&tp.id]))
                .await
                .map(|s| s.iter().filter(|s| !s.revoked).count())
                .unwrap_or(0);
            let runs = api::fetch(
                ep::ListJobs::url([])
                    .query("template_id", tp.id)
                    .query("limit", 1),
            )
            .await
            .map(|p| p.total)
            .unwrap_or(0);
            confirm.set(Some((tp.head_version, shares, runs)));
        });
    };
    let delete = move |_| {
        let Some(id) = template.get_untracked().map(|t| t.id) else {
            return;
        };
        spawn_local(async move {
            match api::fetch(ep::DeleteTemplate::url([&id])).await {
                Ok(_) => on_deleted.run(()),
                Err(e) => {
                    confirm.set(None);
                    error.set(Some(e.message));
                }
            }
        });
    };
    view! {
        <details id="template-details" class="card">
            <summary>{t("details.title")}</summary>
            <form id="details-form" on:submit=save>
                <fieldset class="plain" prop:disabled=move || !may_edit()>
                <label>{t("details.name")}
                    <input id="tpl-name" required maxlength="120" prop:value=move || name.get()
                        on:input=move |ev| name.set(event_target_value(&ev)) /></label>
                <label>{t("details.description")}
                    <textarea id="tpl-description" rows="2" prop:value=move || description.get()
                        on:input=move |ev| description.set(event_target_value(&ev))></textarea></label>
                <label>{t("details.tags")}
                    <input id="tpl-tags" placeholder=t("details.tags_hint") prop:value=move || tags.get()
                        on:input=move |ev| tags.set(event_target_value(&ev)) /></label>
                </fieldset>
                <div class="toolbar">
                    <button type="submit" id="tpl-save" prop:hidden=move || !may_edit()>{t("details.save")}</button>
                    {move || status.get().map(|s| view! { <span id="details-status" class="ok" role="status">{s}</span> })}
                    {move || if may_delete() {
                        view! { <button type="button" id="tpl-delete" class="danger" on:click=ask>{t("details.delete")}</button> }.into_any()
                    } else {
                        view! { <span id="delete-admins-only" class="muted">{t("details.admins_delete")}</span> }.into_any()
                    }}
                </div>
            </form>
            {move || error.get().map(|e| view! { <p id="details-error" class="error" role="alert">{e}</p> })}
            {move || confirm.get().map(|(versions, shares, runs)| {
                let what = tr("details.delete_what", lang.get())
                    .replace("{name}", &template.get().map(|t| t.name).unwrap_or_default())
                    .replace("{versions}", &versions.to_string())
                    .replace("{shares}", &shares.to_string())
                    .replace("{runs}", &runs.to_string());
                view! {
                    <div id="delete-confirm" class="card conflict" role="alertdialog" aria-labelledby="delete-what"
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { confirm.set(None) }>
                        <p id="delete-what">{what}</p>
                        <button type="button" id="tpl-delete-confirm" class="danger" on:click=delete>{t("details.delete_confirm")}</button>
                        " "<button type="button" id="tpl-delete-cancel" autofocus on:click=move |_| confirm.set(None)>{t("fix.cancel")}</button>
                    </div>
                }
            })}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_split_on_either_comma_and_trimmed() {
        assert_eq!(
            parse_tags(" llama, zero3,,，中文 "),
            ["llama", "zero3", "中文"]
        );
        assert!(parse_tags(" , ").is_empty());
    }
}
