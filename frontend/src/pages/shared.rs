//! `/shared/:token`: a version opened through a read-only share link, without an account.

use crate::api;
use crate::components::diagnostics::{DiagnosticList, VerdictBadge};
use crate::i18n::t;
use ds_studio_shared::api::SharedView;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

#[component]
pub fn SharedPage() -> impl IntoView {
    let params = use_params_map();
    let view_res = api::fetched::<SharedView>(move || {
        let token = params.with(|p| p.get("token").unwrap_or_default());
        format!("/api/v1/shared/{token}")
    });
    view! {

            {move || view_res.get().map(|r| match r {
                Err(e) => view! { <p class="error card" role="alert">{e.message}</p> }.into_any(),
                Ok(s) => {
                    let diags = s.version.diagnostics.clone();
                    let verdict = s.version.verdict;
                    let release = s.version.context.release().unwrap_or_default();
                    view! {
                        <div class="two-columns" id="shared">
                            <section class="card">
                                <h2 id="shared-title">{format!("{} @ v{}", s.template_name, s.version.version)}</h2>
                                <p class="muted">{t("shared.readonly")}" · "{s.team_name.clone()}" · "{s.version.author.clone()}" · "{s.version.created_at.clone()}
                                    {s.expires_at.map(|e| format!(" · {e}"))}</p>
                                <p>{s.description.clone()}</p>
                                <pre id="shared-config" class="code">{s.version.config_text.clone()}</pre>
                            </section>
                            <section class="results">
                                <VerdictBadge verdict=Signal::derive(move || verdict) release=Signal::derive(move || release) />
                                <DiagnosticList diagnostics=Signal::derive(move || diags.clone()) />
                            </section>
                        </div>
                    }.into_any()
                }
            }).unwrap_or_else(api::loading)}

    }
}
