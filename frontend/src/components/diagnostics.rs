//! The verdict badge and the list of diagnostics of one config.
//! Rows are keyed by their content, not their position, so a new diagnostic renders one row and
//! the others stay as they are.

use crate::i18n::{t, use_lang};
use ds_studio_shared::{Diagnostic, Severity, Verdict};
use leptos::prelude::*;

#[component]
pub fn VerdictBadge(
    #[prop(into)] verdict: Signal<Verdict>,
    /// The DeepSpeed release the verdict is for (named in the badge).
    #[prop(into)]
    release: Signal<ds_studio_shared::Release>,
    /// Under the HF launchers the verdict is HF's and DeepSpeed's together, and says so.
    #[prop(optional, into)]
    launcher: Option<Signal<ds_studio_shared::Launcher>>,
) -> impl IntoView {
    let lang = crate::i18n::use_lang();
    let who = move || {
        let ds = format!("DeepSpeed {}", release.get().as_str());
        match launcher.map(|l| l.get()) {
            Some(ds_studio_shared::Launcher::HfTrainer) => format!("HF Trainer + {ds}"),
            Some(ds_studio_shared::Launcher::Accelerate) => format!("Accelerate + {ds}"),
            _ => ds,
        }
    };
    view! {
        <div id="verdict" role="status" data-release=move || release.get().to_string()
            class=move || if verdict.get() == Verdict::Accepted { "verdict ok" } else { "verdict bad" }>
            {move || {
                let key = if verdict.get() == Verdict::Accepted { "verdict.accept" } else { "verdict.reject" };
                crate::i18n::tr(key, lang.get()).replace("DeepSpeed {release}", &who())
            }}
        </div>
    }
}

/// What identifies a row: code, path, line, column, English message, occurrence.
pub type RowKey = (String, String, usize, usize, String, usize);

/// The tooltip of the key a diagnostic points at (what it means, its default), when the
/// registry knows it: the same text as the form's, on every page that lists diagnostics.
fn key_tip(pointer: &str) -> Option<impl IntoView> {
    let tokens = ds_studio_shared::document::split_pointer(pointer);
    let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let spec = ds_studio_shared::registry::registry().resolve(&refs)?;
    let lang = use_lang();
    // The full docs are fetched when a tooltip is first shown, not with the list.
    let docs = use_context::<crate::key_docs::KeyDocs>();
    let docs_loaded = docs.map(|d| d.0);
    let about = t("tip.about");
    let path = spec.path.clone();
    Some(view! {
        <crate::components::tip::Tip on_show=Callback::new(move |_| if let Some(d) = docs { d.ensure() })
            text=Signal::derive(move || { if let Some(l) = docs_loaded { l.track() } crate::components::form::tooltip(spec, lang.get(), ds_studio_shared::Release::newest()) })
            label=Signal::derive(move || format!("{} {}", about(), path)) />
    })
}

/// One change of a fix: `key: old → new`, each side as written (or "not set" / "removed").
fn change_view(c: &ds_studio_shared::fix::Change) -> impl IntoView {
    let old = c.old.clone();
    let new = c.new.clone();
    view! {
        <li class="change">
            {if c.key.is_empty() { view! { <span class="muted">{t("fix.text")}</span> }.into_any() } else { view! { <code>{c.key.clone()}</code> }.into_any() }}
            ": "
            {match old { Some(v) => view! { <code class="old">{v}</code> }.into_any(), None => view! { <span class="muted old">{t("fix.absent")}</span> }.into_any() }}
            " → "
            {match new { Some(v) => view! { <code class="new">{v}</code> }.into_any(), None => view! { <span class="muted new">{t("fix.removed")}</span> }.into_any() }}
            {c.becomes.clone().map(|b| {
                let key = if b.default { "fix.becomes_default" } else { "fix.becomes" };
                let lang = use_lang();
                view! {
                    <span class="becomes">{move || crate::i18n::tr(key, lang.get()).replace("{value}", &b.value).replace("{from}", &b.from)}</span>
                }
            })}
        </li>
    }
}

/// A key that names a diagnostic by what it says, not by where it sits in the list, so that a
/// keystroke adding one diagnostic re-renders that one row, not every row below it.
/// `occurrence` tells apart identical diagnostics.
pub fn row_key(d: &Diagnostic, occurrence: usize) -> RowKey {
    (
        d.code.clone(),
        d.path.clone(),
        d.line.unwrap_or(0),
        d.column.unwrap_or(0),
        match &d.fix {
            Some(fix) => format!("{} {fix}", d.message.en),
            None => d.message.en.clone(),
        },
        occurrence,
    )
}

/// The diagnostics with their row keys, errors first, then warnings, then hints (each in
/// the validator's order).
pub fn keyed(diags: &[Diagnostic]) -> Vec<(RowKey, Diagnostic)> {
    let mut out: Vec<(RowKey, Diagnostic)> = Vec::with_capacity(diags.len());
    for d in diags {
        let occurrence = out
            .iter()
            .filter(|(_, o)| o.code == d.code && o.path == d.path && o.message.en == d.message.en)
            .count();
        out.push((row_key(d, occurrence), d.clone()));
    }
    out.sort_by_key(|(_, d)| rank(d.severity));
    out
}

fn rank(s: Severity) -> u8 {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

/// A code repeated this many times or more is shown as one row (its first) with the count,
/// until the group is opened.
pub const GROUP_AT: usize = 3;

/// What the list shows: the rows of the severities shown, each code repeated at least
/// [`GROUP_AT`] times at one severity folded into its first row with how many it stands for,
/// unless `open` names the code.
pub fn shown_rows(
    rows: &[(RowKey, Diagnostic)],
    hidden: &[Severity],
    open: &[String],
) -> Vec<(RowKey, Diagnostic, usize)> {
    // Folded per code and severity: a group never hides a row of another severity.
    let count = |code: &str, sev: Severity| {
        rows.iter()
            .filter(|(_, d)| d.code == code && d.severity == sev)
            .count()
    };
    let mut out = Vec::new();
    let mut folded: Vec<(&str, Severity)> = Vec::new();
    for (k, d) in rows {
        if hidden.contains(&d.severity) {
            continue;
        }
        let n = count(&d.code, d.severity);
        if n >= GROUP_AT && !open.contains(&d.code) {
            if folded.contains(&(d.code.as_str(), d.severity)) {
                continue;
            }
            folded.push((&d.code, d.severity));
            out.push((k.clone(), d.clone(), n));
        } else {
            out.push((k.clone(), d.clone(), 1));
        }
    }
    out
}

/// The list; with `text`, each diagnostic that carries a fix shows what it changes (old → new,
/// `shared::fix::preview`) and a button that applies it (the JSON patch, or the text edits of a
/// fix such as "drop the comment"), and "Apply all fixes" lists then applies the fixes that
/// touch different keys; with `on_select`, clicking a diagnostic (or Enter on it) calls it, so
/// the page can take the user to the field. Each key named has its tooltip.
#[component]
pub fn DiagnosticList(
    #[prop(into)] diagnostics: Signal<Vec<Diagnostic>>,
    #[prop(optional)] text: Option<RwSignal<String>>,
    #[prop(optional, into)] on_select: Option<Callback<Diagnostic>>,
    /// Offered on `auto` values left for a launcher under the plain launcher: switch to the HF
    /// Trainer, which fills them.
    #[prop(optional, into)]
    on_switch_launcher: Option<Callback<()>>,
    /// The text may not be changed (a viewer's editor): fixes are shown, not offered.
    #[prop(optional, into)]
    read_only: Signal<bool>,
) -> impl IntoView {
    let lang = use_lang();
    let fix_label = t("diag.fix");
    let hidden = RwSignal::new(Vec::<Severity>::new());
    let open = RwSignal::new(Vec::<String>::new());
    let rows = Memo::new(move |_| diagnostics.with(|d| keyed(d)));
    // "Apply all": the fixes that touch different keys, in the order shown (errors' first).
    let all = Memo::new(move |_| {
        rows.with(|r| {
            let list: Vec<Diagnostic> = r.iter().map(|(_, d)| d.clone()).collect();
            let chosen = ds_studio_shared::fix::compatible(&list);
            (list, chosen)
        })
    });
    let confirm_all = RwSignal::new(false);
    // How many fixes the last click applied (said with how to undo them).
    let applied = RwSignal::new(None::<usize>);
    // The text the last fix left: any other change (typing, a paste) retires the note.
    let applied_text = RwSignal::new(None::<String>);
    if let Some(text) = text {
        Effect::new(move |_| {
            let now = text.get();
            if applied_text.with_untracked(|a| a.as_deref() != Some(now.as_str())) {
                applied.set(None);
            }
        });
    }
    let count = move |s: Severity| rows.with(|r| r.iter().filter(|(_, d)| d.severity == s).count());
    let filter_button = move |s: Severity, id: &'static str, key: &'static str| {
        view! {
            <button type="button" id=id class="sev-filter"
                aria-pressed=move || (!hidden.with(|h| h.contains(&s))).to_string()
                on:click=move |_| hidden.update(|h| if let Some(i) = h.iter().position(|x| *x == s) { h.remove(i); } else { h.push(s); })>
                {t(key)}" "{move || count(s)}
            </button>
        }
    };
    view! {
        <div class="toolbar diag-filters" role="group" aria-label=t("diag.filter")>
            {filter_button(Severity::Error, "diag-filter-error", "diag.errors")}
            {filter_button(Severity::Warning, "diag-filter-warning", "diag.warnings")}
            {filter_button(Severity::Info, "diag-filter-info", "diag.hints")}
        </div>
        {move || text.filter(|_| !read_only.get() && all.with(|(_, c)| c.len() >= 2)).map(|text| view! {
            <div class="toolbar apply-all">
                <button type="button" id="apply-all-fixes" aria-expanded=move || confirm_all.get().to_string()
                    on:click=move |_| confirm_all.update(|o| *o = !*o)>
                    {t("fix.apply_all")}" ("{move || all.with(|(_, c)| c.len())}")"</button>
            </div>
            {move || confirm_all.get().then(|| view! {
                <div id="apply-all-preview" class="card" role="dialog" aria-label=t("fix.apply_all")>
                    <p>{t("fix.apply_all_help")}</p>
                    <ul class="fix-preview">
                        {move || all.with(|(list, chosen)| text.with(|t| chosen.iter()
                            .flat_map(|&i| ds_studio_shared::fix::preview(t, &list[i]))
                            .collect::<Vec<_>>()))
                            .iter().map(change_view).collect_view()}
                    </ul>
                    <button type="button" id="apply-all-confirm" on:click=move |_| {
                        let done = all.with_untracked(|(list, _)| text.with_untracked(|t| ds_studio_shared::fix::apply_all(t, list)));
                        let n = done.applied.len();
                        applied_text.set(Some(done.text.clone()));
                        text.set(done.text);
                        confirm_all.set(false);
                        applied.set(Some(n));
                    }>{t("fix.apply_these")}</button>
                    " "<button type="button" on:click=move |_| confirm_all.set(false)>{t("fix.cancel")}</button>
                </div>
            })}
        })}
        {move || applied.get().map(|n| view! {
            <p id="fix-status" class="ok" role="status">{move || crate::i18n::tr("fix.applied", lang.get()).replace("{n}", &n.to_string())}</p>
        })}
        <ul id="diagnostics" aria-label=t("diag.list")>
            <For each=move || rows.with(|r| hidden.with(|h| open.with(|o| shown_rows(r, h, o)))) key=|(k, _, n)| (k.clone(), *n) let:item>
                {
                    let (_, d, group) = item;
                    let group_code = d.code.clone();
                    let group_view = (group > 1).then(|| {
                        let code = group_code.clone();
                        let switch = (d.code == "auto-unresolved").then_some(on_switch_launcher).flatten();
                        view! {
                            <div class="group">
                                <span class="group-count">{format!("{group} × ")}<code>{group_code.clone()}</code></span>
                                <button type="button" class="group-toggle link" on:click=move |ev| {
                                    ev.stop_propagation();
                                    let c = code.clone();
                                    open.update(|o| o.push(c));
                                }>{t("diag.show_all")}</button>
                                {switch.map(|cb| view! {
                                    <button type="button" class="switch-launcher" on:click=move |ev| { ev.stop_propagation(); cb.run(()); }>{t("diag.switch_hf")}</button>
                                })}
                            </div>
                        }
                    });
                    let class = match d.severity { Severity::Error => "diag error", Severity::Warning => "diag warning", Severity::Info => "diag info" };
                    let where_ = format!("{}:{}", d.line.unwrap_or(1), d.column.unwrap_or(1));
                    let msg = d.message.clone();
                    let selected = d.clone();
                    let select = move || if let Some(cb) = on_select { cb.run(selected.clone()) };
                    let select_key = select.clone();
                    view! {
                        <li class=class data-code=d.code.clone() data-path=d.path.clone() data-group=group
                            tabindex=on_select.map(|_| "0")
                            on:click=move |_| select()
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| if on_select.is_some() && (ev.key() == "Enter" || ev.key() == " ") { ev.prevent_default(); select_key() }>
                            <span class="sev">{t(match d.severity { Severity::Error => "sev.error", Severity::Warning => "sev.warning", Severity::Info => "sev.info" })}</span>
                            <a class="code-link" href={let c = d.code.clone(); move || crate::help::code_link(&c, lang.get())} target="_blank" rel="noopener"
                                title=t("diag.code_help") on:click=|ev: leptos::ev::MouseEvent| ev.stop_propagation()><code class="code">{d.code.clone()}</code></a>
                            <span class="pos">{where_}</span>
                            <span class="path-cell"><code class="path">{d.path.clone()}</code>{key_tip(&d.path)}</span>
                            <span class="msg">{move || msg.get(lang.get()).to_string()}</span>
                            {group_view}
                            {text.filter(|_| d.fix.is_some() || d.text_fix.is_some()).map(|text| {
                                let for_preview = d.clone();
                                let for_apply = d.clone();
                                view! {
                                    <ul class="fix-preview" aria-label=t("fix.changes")>
                                        {move || text.with(|t| ds_studio_shared::fix::preview(t, &for_preview)).iter().map(change_view).collect_view()}
                                    </ul>
                                    <button class="fix" prop:hidden=move || read_only.get() on:click=move |ev| {
                                        ev.stop_propagation();
                                        let fixed = text.with_untracked(|t| ds_studio_shared::fix::apply(t, &for_apply));
                                        if let Some(fixed) = fixed {
                                            applied_text.set(Some(fixed.clone()));
                                            text.set(fixed);
                                            applied.set(Some(1));
                                        }
                                    }>{fix_label}</button>
                                }
                            })}
                        </li>
                    }
                }
            </For>
        </ul>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ds_studio_shared::i18n::Text;

    fn d(sev: Severity, code: &str, path: &str) -> Diagnostic {
        Diagnostic::new(
            sev,
            code,
            path,
            Text::new(format!("{code} at {path}"), "zh"),
        )
    }

    #[test]
    fn errors_come_first_and_repeated_codes_fold() {
        let list = vec![
            d(Severity::Warning, "auto-unresolved", "/a"),
            d(Severity::Info, "hint", "/h"),
            d(Severity::Warning, "auto-unresolved", "/b"),
            d(Severity::Error, "batch", "/train_batch_size"),
            d(Severity::Warning, "auto-unresolved", "/c"),
            d(Severity::Warning, "unknown-key", "/x"),
        ];
        let rows = keyed(&list);
        let order: Vec<&str> = rows.iter().map(|(_, d)| d.code.as_str()).collect();
        assert_eq!(
            order,
            [
                "batch",
                "auto-unresolved",
                "auto-unresolved",
                "auto-unresolved",
                "unknown-key",
                "hint"
            ]
        );
        let shown = shown_rows(&rows, &[], &[]);
        let folded: Vec<(&str, usize)> = shown
            .iter()
            .map(|(_, d, n)| (d.code.as_str(), *n))
            .collect();
        assert_eq!(
            folded,
            [
                ("batch", 1),
                ("auto-unresolved", 3),
                ("unknown-key", 1),
                ("hint", 1)
            ]
        );
        // Opened: every row again; warnings hidden: only the error and the hint.
        assert_eq!(shown_rows(&rows, &[], &["auto-unresolved".into()]).len(), 6);
        let hidden_warnings = shown_rows(&rows, &[Severity::Warning], &[]);
        let only: Vec<&str> = hidden_warnings
            .iter()
            .map(|(_, d, _)| d.code.as_str())
            .collect();
        assert_eq!(only, ["batch", "hint"]);
    }
}
