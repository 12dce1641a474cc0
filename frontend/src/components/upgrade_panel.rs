//! "What changes if we move to another DeepSpeed release": shown when the release picker
//! changes (from the release before to the one picked) or asked for ("What changes in
//! 0.19.8?"), with the changes of `ds_studio_shared::upgrade` and one button that applies the
//! fixes as text edits (comments and spelling kept).

use crate::i18n::{t, tr, use_lang};
use ds_studio_shared::document::Document;
use ds_studio_shared::upgrade::{apply, upgrade, ChangeKind, Upgrade};
use ds_studio_shared::{Context, Release};
use leptos::prelude::*;

fn kind_key(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Rejected => "upgrade.kind.rejected",
        ChangeKind::Removed => "upgrade.kind.removed",
        ChangeKind::Renamed => "upgrade.kind.renamed",
        ChangeKind::Ignored => "upgrade.kind.ignored",
        ChangeKind::Default => "upgrade.kind.default",
        ChangeKind::Resolved => "upgrade.kind.resolved",
    }
}

#[component]
pub fn UpgradePanel(
    text: RwSignal<String>,
    context: RwSignal<Context>,
    /// (before, after) when the user picked another release (see `ContextBar`).
    release_change: RwSignal<Option<(Release, Release)>>,
) -> impl IntoView {
    let lang = use_lang();
    // The move asked about; the report follows the text while it is shown (replacing the text
    // must not leave the old config's changes listed).
    let pair = RwSignal::new(None::<(Release, Release)>);
    let report = Signal::derive(move || {
        let (from, to) = pair.get()?;
        let doc = text.with(|t| Document::parse(t));
        Some::<Upgrade>(upgrade(&doc, &context.get_untracked(), from, to))
    });
    let keep_defaults = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(change) = release_change.get().filter(|(f, t)| f != t) {
            pair.set(Some(change));
        }
    });
    let ask_newest = move |_| {
        let from = context.with_untracked(|c| c.release().unwrap_or_default());
        pair.set(Some((from, Release::newest())));
    };
    let fill = |key: &'static str, from: Release, to: Release, lang| {
        tr(key, lang)
            .replace("{from}", from.as_str())
            .replace("{to}", to.as_str())
    };
    view! {
        <Show when=move || context.with(|c| c.release().is_ok_and(|r| r != Release::newest())) && report.with(Option::is_none)>
            <button id="what-changes" class="link" on:click=ask_newest>
                {move || fill("upgrade.what_changes", Release::newest(), Release::newest(), lang.get())}
            </button>
        </Show>
        {move || report.get().map(|up| {
            let (from, to) = (up.from, up.to);
            let fixable = up.changes.iter().any(|c| c.fix.is_some() && c.kind != ChangeKind::Ignored);
            let changes = up.changes.clone();
            let remaining = up.errors_after_fixes;
            // Picking an older release says what that release does differently, not how to
            // move to it.
            let title = if to < from { "upgrade.title_older" } else { "upgrade.title" };
            view! {
                <div id="upgrade-panel" class="card" role="region" aria-label=move || fill(title, from, to, lang.get())>
                    <strong>{move || fill(title, from, to, lang.get())}</strong>
                    {changes.is_empty().then(|| view! { <p class="muted">{t("upgrade.none")}</p> })}
                    <ul id="upgrade-changes">
                        {changes.into_iter().map(|c| {
                            let message = c.message.clone();
                            view! {
                                <li data-kind=c.kind.as_str() data-path=c.path.clone()>
                                    <span class=format!("badge {}", c.kind.as_str())>{t(kind_key(c.kind))}</span>" "
                                    <code>{if c.path.is_empty() { "/".to_string() } else { c.path.clone() }}</code>" "
                                    {move || message.get(lang.get()).to_string()}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    {(remaining > 0).then(|| view! {
                        <p class="warning">{move || tr("upgrade.remaining", lang.get()).replace("{n}", &remaining.to_string())}</p>
                    })}
                    <div class="toolbar">
                        {fixable.then(|| {
                            let up = up.clone();
                            view! {
                                <label class="check"><input id="upgrade-keep-defaults" type="checkbox" prop:checked=move || keep_defaults.get()
                                    on:change=move |ev| keep_defaults.set(event_target_checked(&ev)) />
                                    {t("upgrade.keep_defaults")}</label>
                                <button id="upgrade-apply" on:click=move |_| {
                                    let doc = Document::parse(&text.get_untracked());
                                    let fixed = apply(&doc, &up.changes, keep_defaults.get_untracked());
                                    text.set(fixed.text().to_string());
                                    // The fixes are for `to`: judge the config for it from now on.
                                    if context.with_untracked(|c| c.release().ok() != Some(up.to)) {
                                        context.update(|c| c.deepspeed_version = up.to.to_string());
                                    }
                                    pair.set(None);
                                }>{t("upgrade.apply")}</button>
                            }
                        })}
                        <button id="upgrade-dismiss" on:click=move |_| pair.set(None)>{t("upgrade.dismiss")}</button>
                    </div>
                </div>
            }
        })}
    }
}
