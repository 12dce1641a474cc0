//! `/templates/:id/v/:n`: the permalink of one immutable version (`template@version`), read-only,
//! for team members: the text exactly as saved, its verdict and diagnostics, its message and
//! author, and links to the editor and to the diff with the previous version. Jobs link here.

use crate::api;
use crate::components::diagnostics::{DiagnosticList, VerdictBadge};
use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

#[component]
pub fn VersionPage() -> impl IntoView {
    let params = use_params_map();
    let lang = crate::i18n::use_lang();
    let ids = move || {
        params.with(|p| {
            (
                p.get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0),
                p.get("n").unwrap_or_default(),
            )
        })
    };
    let version = api::fetched(move || {
        let (id, n) = ids();
        ep::GetVersion::url([&id, &n])
    });
    view! {

            {move || version.get().map(|r| match r {
                Err(e) => {
                    let (id, n) = ids();
                    crate::components::states::error_view(e, t("state.version_of_template")().replace("{n}", &n.to_string()).replace("{id}", &id.to_string()))
                }
                Ok(v) => {
                    let diags = v.diagnostics.clone();
                    let verdict = v.verdict;
                    let release = v.context.release().unwrap_or_default();
                    // The verdict is HF's and DeepSpeed's together under an HF launcher (an
                    // error such as `launcher-mismatch` is HF's): the badge names both.
                    let launcher = v.context.launcher;
                    let tid = v.template_id;
                    view! {
                        <div class="two-columns" id="version-page">
                            <section class="card">
                                <h2 id="version-title">{format!("{}@{}", v.template_name, v.version)}</h2>
                                <p class="muted">{t("version.permalink")}" · "{v.author.clone()}" · "<crate::components::states::When at=v.created_at.clone() />" · "{let m = v.message.clone(); move || crate::server_text::version_message(&m, lang.get())}</p>
                                <p>
                                    <A href=format!("/templates/{tid}") attr:id="version-edit">{t("version.open_editor")}</A>
                                    {(v.version > 1).then(|| view! {
                                        " · "<A href=format!("/templates/{tid}/diff/{}/{}", v.version - 1, v.version)>{t("editor.diff_prev")}</A>
                                    })}
                                </p>
                                <pre id="version-config" class="code">{v.config_text.clone()}</pre>
                            </section>
                            <section class="results">
                                <VerdictBadge verdict=Signal::derive(move || verdict) release=Signal::derive(move || release)
                                    launcher=Signal::derive(move || launcher) />
                                <DiagnosticList diagnostics=Signal::derive(move || diags.clone()) />
                            </section>
                        </div>
                    }.into_any()
                }
            }).unwrap_or_else(api::loading)}
    }
}
