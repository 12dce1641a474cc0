//! `/`: paste a config, see DeepSpeed's verdict and every diagnostic (no account needed);
//! signed in with a team to write to, keep it as a template ([`SaveAsTemplate`]).

use crate::components::context_bar::ReleaseSelect;
use crate::components::diagnostics::{DiagnosticList, VerdictBadge};
use crate::components::upgrade_panel::UpgradePanel;
use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::{Context, Launcher};
use leptos::prelude::*;
use leptos::task::spawn_local;

const SAMPLE: &str = r#"{
  // paste your ds_config.json here (comments and trailing commas are fine)
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}},
  "bf16": {"enabled": true},
}
"#;

/// The sample with its comment in Chinese (the rest is the config).
fn sample(lang: ds_studio_shared::i18n::Lang) -> String {
    match lang {
        ds_studio_shared::i18n::Lang::Zh => SAMPLE.replace(
            "// paste your ds_config.json here (comments and trailing commas are fine)",
            "// 在这里粘贴您的 ds_config.json（可以有注释和末尾逗号）",
        ),
        ds_studio_shared::i18n::Lang::En => SAMPLE.to_string(),
    }
}

#[component]
pub fn ValidatePage() -> impl IntoView {
    let text = RwSignal::new(sample(crate::i18n::use_lang().get_untracked()));
    let set_text = text.write_only();
    // Ctrl+Z / Ctrl+Shift+Z over typing and fixes, as in the editor.
    let _undo = crate::history::Undo::attach(text);
    let (world, set_world) = signal(8u32);
    let (launcher, set_launcher) = signal(Launcher::Deepspeed);
    // The world-size field holds something that is not a whole number ≥ 1 (said, the last
    // good value kept).
    let world_error = RwSignal::new(false);
    let lang = crate::i18n::use_lang();
    // Only the release is read from it (the picker is shared with the editor).
    let release_ctx = RwSignal::new(Context::default());
    let release_change =
        RwSignal::new(None::<(ds_studio_shared::Release, ds_studio_shared::Release)>);
    let result = Memo::new(move |_| {
        let ctx = Context {
            world_size: world.get().max(1),
            launcher: launcher.get(),
            deepspeed_version: release_ctx.with(|c| c.deepspeed_version.clone()),
            ..Context::default()
        };
        let (_, diags) = validate_text(&text.get(), &ctx);
        (verdict(&diags), diags)
    });
    view! {
        <div class="two-columns">
            <section class="editor">
                <div class="context">
                    <label>{t("context.world")}
                        // As the editor's context bar: a whole number ≥ 1 counts at once, the
                        // field is never rewritten while typed (an emptied field waits for the
                        // blur); anything else is said, not turned into 1.
                        <input id="world-size" type="number" min="1" prop:value=move || world.get().to_string()
                            aria-invalid=move || world_error.get().to_string()
                            on:input=move |ev| {
                                let text = event_target_value(&ev);
                                match text.trim().parse::<u32>().ok().filter(|v| *v >= 1) {
                                    Some(v) if v.to_string() == text => { set_world.set(v); world_error.set(false); }
                                    Some(_) => world_error.set(false),
                                    None => world_error.set(!text.trim().is_empty()),
                                }
                            }
                            on:change=move |ev| {
                                let text = event_target_value(&ev);
                                match text.trim().parse::<u32>().ok().filter(|v| *v >= 1) {
                                    Some(v) => { set_world.set(v); world_error.set(false); }
                                    None => world_error.set(true),
                                }
                            } />
                    </label>
                    <label>{t("context.launcher")}
                        <select id="launcher" on:change=move |ev| set_launcher.set(event_target_value(&ev).parse().unwrap_or_default())>
                            <option value="deepspeed" selected=move || launcher.get() == Launcher::Deepspeed>"deepspeed"</option>
                            <option value="hf-trainer" selected=move || launcher.get() == Launcher::HfTrainer>"hf-trainer"</option>
                            <option value="accelerate" selected=move || launcher.get() == Launcher::Accelerate>"accelerate"</option>
                        </select>
                    </label>
                    <ReleaseSelect id="release" context=release_ctx release_change />
                </div>
                {move || world_error.get().then(|| view! {
                    <p class="error" id="world-size-error" role="alert">{move || crate::i18n::tr("context.world_invalid", lang.get()).replace("{n}", &world.get().to_string())}</p>
                })}
                <UpgradePanel text context=release_ctx release_change />
                <SaveAsTemplate text context=Signal::derive(move || Context {
                    world_size: world.get().max(1),
                    launcher: launcher.get(),
                    deepspeed_version: release_ctx.with(|c| c.deepspeed_version.clone()),
                    ..Context::default()
                }) />
                <textarea id="config" data-undo-scope spellcheck="false" aria-label=t("validate.config_label") prop:value=move || text.get()
                    on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
            </section>
            <section class="results">
                <VerdictBadge verdict=Signal::derive(move || result.get().0)
                    release=Signal::derive(move || release_ctx.with(|c| c.release().unwrap_or_default()))
                    launcher=Signal::derive(move || launcher.get()) />
                // A click (or Enter) on a diagnostic selects its line in the text.
                <DiagnosticList diagnostics=Signal::derive(move || result.get().1) text=text
                    on_select=Callback::new(move |d: ds_studio_shared::Diagnostic| {
                        #[cfg(target_arch = "wasm32")]
                        crate::components::json_view::reveal_line(&text.get_untracked(), d.line.unwrap_or(1));
                        let _ = d;
                    })
                    on_switch_launcher=Callback::new(move |_| set_launcher.set(Launcher::HfTrainer)) />
            </section>
        </div>
    }
}

/// "Save as template": the text as written (comments kept) and the context it was judged in,
/// into one of the teams the signed-in user may write to; then the editor opens on it. Absent
/// for someone signed out or with no team to write to.
#[component]
fn SaveAsTemplate(text: RwSignal<String>, context: Signal<Context>) -> impl IntoView {
    let session = expect_context::<crate::session::Session>();
    let can = move || {
        session.0.with(|m| {
            m.as_ref()
                .is_some_and(|m| !crate::components::team_pick::writable_teams(m).is_empty())
        })
    };
    let open = RwSignal::new(false);
    let name = RwSignal::new(String::new());
    let team = RwSignal::new(None::<i64>);
    let error = RwSignal::new(None::<String>);
    let saving = RwSignal::new(false);
    let navigate = leptos_router::hooks::use_navigate();
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if saving.get_untracked() {
            return;
        }
        saving.set(true);
        let req = ds_studio_shared::api::TemplateCreate {
            name: name.get_untracked().trim().to_string(),
            description: None,
            tags: None,
            team_id: team.get_untracked(),
            config: None,
            config_text: Some(text.get_untracked()),
            message: None,
            context: Some(context.get_untracked()),
        };
        let navigate = navigate.clone();
        spawn_local(async move {
            match crate::api::call(ep::CreateTemplate::url([]), &req).await {
                Ok(t) => navigate(&format!("/templates/{}", t.id), Default::default()),
                Err(e) => {
                    saving.try_set(false);
                    error.try_set(Some(e.message));
                }
            }
        });
    };
    move || {
        let save = save.clone();
        can().then(move || {
            view! {
                <div class="toolbar" id="save-as-template-bar">
                    <button type="button" id="save-as-template" aria-expanded=move || open.get().to_string()
                        on:click=move |_| open.update(|o| *o = !*o)>{t("validate.save_as_template")}</button>
                </div>
                {move || { let save = save.clone(); open.get().then(move || view! {
                    <form id="save-as-template-form" class="card toolbar" on:submit=save>
                        <label class="inline">{t("templates.name")}
                            <input id="save-as-template-name" required maxlength="120" autocomplete="off"
                                prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) /></label>
                        <crate::components::team_pick::TeamPick chosen=team id="save-as-template-team" />
                        <button type="submit" disabled=move || saving.get()>{t("templates.create")}</button>
                        <span class="muted">{t("validate.save_hint")}</span>
                        {move || text.with(|t| !ds_studio_shared::document::Document::parse(t).is_ok()).then(|| view! {
                            <p class="warning" id="save-as-template-unparsed">{t("validate.save_unparsed")}</p>
                        })}
                        {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                    </form>
                })}}
            }
        })
    }
}
