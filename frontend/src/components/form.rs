//! The config as a form: one collapsible section per top-level part of the schema, a widget per
//! key by its type, a tooltip on every key (description, default, allowed values, deprecation),
//! the diagnostics of a key shown at its field, search-to-key and "only what is set".
//!
//! Everything comes from the shared registry, so a key added there appears here. The form and
//! the JSON text are one state: a field reads its value from the parsed text and an edit
//! rewrites only that value in the text (numbers keep their spelling).
//!
//! Key-value maps get their own widget ([`MemberMap`]): `optimizer.params` and
//! `scheduler.params` list the parameters of the chosen type (from `shared/data/optimizers.json`)
//! plus any other member the config has, and named groups (`curriculum_metrics.<metric>`; the
//! compression `different_groups` too, but DeepSpeed 0.19.8 rejects `compression_training`, so
//! the form has no section for it) list their members with add and remove. Keys the launcher
//! fills in (`AUTO_KEYS`, HF Trainer and Accelerate only) get an "auto" switch.

use crate::components::tip::Tip;
use crate::i18n::{t, use_lang};
use ds_studio_shared::document::{pointer_join, Document, Kind, Node};
use ds_studio_shared::i18n::{Lang, Text};
use ds_studio_shared::registry::{registry, KeySpec, ParamFamily, Ty};
use ds_studio_shared::{Diagnostic, Release, AUTO_KEYS};
use leptos::prelude::*;

/// A key is shown as a field when it is not deprecated, an alias or a name-dependent
/// placeholder (`<name>`); fields the chosen release does not read are hidden (see `Field`).
fn shown(k: &KeySpec) -> bool {
    !k.deprecated && k.alias_of.is_none() && !k.path.contains('<')
}

fn pointer_of(path: &str) -> String {
    path.split('.')
        .fold(String::new(), |p, t| pointer_join(&p, t))
}

/// The value of a node as the user wrote it.
fn raw_value(n: &Node, text: &str) -> String {
    match &n.kind {
        Kind::String(s) => s.clone(),
        Kind::Number(num) => num.raw.clone(),
        Kind::Bool(b) => b.to_string(),
        Kind::Null => "null".into(),
        _ => one_line(text.get(n.span.clone()).unwrap_or_default()),
    }
}

/// A list or object as written, on one line for an input: each line break and the indentation
/// after it become one space, or nothing next to a bracket. JSON strings cannot hold a raw line
/// break, so no string changes.
pub fn one_line(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\n' && c != '\r' {
            out.push(c);
            continue;
        }
        while chars.peek().is_some_and(|n| n.is_whitespace()) {
            chars.next();
        }
        let trimmed = out.trim_end_matches([' ', '\t']).len();
        out.truncate(trimmed);
        let after_open = out.ends_with(['[', '{']);
        let before_close = chars.peek().is_some_and(|n| *n == ']' || *n == '}');
        if !after_open && !before_close && !out.is_empty() && chars.peek().is_some() {
            out.push(' ');
        }
    }
    out
}

/// The tooltip of a key in one language, for one DeepSpeed release: its default there, and the
/// releases it holds for.
pub fn tooltip(k: &KeySpec, lang: Lang, release: Release) -> String {
    let zh = lang == Lang::Zh;
    let doc = crate::key_docs::get(&k.path).unwrap_or(&k.doc);
    let mut out = if zh { doc.zh.clone() } else { doc.en.clone() };
    if let Some(d) = k.default_text_at(release) {
        out.push_str(&format!(
            "\n{} ({release}): {}",
            if zh { "默认值" } else { "Default" },
            ds_studio_shared::registry::plain::plain_default(&d, zh)
        ));
    }
    if let Some(history) = k.default_history() {
        out.push_str(&format!(
            "\n{}: {history}",
            if zh {
                "默认值的变化"
            } else {
                "Default by release"
            }
        ));
    }
    if let Some(since) = k.since {
        out.push_str(&if zh {
            format!("\n自 DeepSpeed {since} 起可用")
        } else {
            format!("\nSince DeepSpeed {since}")
        });
    }
    if let Some(gone) = k.removed_in.or(k.until) {
        out.push_str(&if zh {
            format!("\n已在 DeepSpeed {gone} 中移除")
        } else {
            format!("\nRemoved in DeepSpeed {gone}")
        });
    }
    if !k.r#enum.is_empty() {
        out.push_str(&format!(
            "\n{}: {}",
            if zh { "可选值" } else { "Allowed" },
            k.r#enum.join(", ")
        ));
    } else if let Some(a) = ds_studio_shared::registry::plain::allowed_at(k, release, zh) {
        out.push_str(&format!("\n{}: {a}", if zh { "取值" } else { "Allowed" }));
    }
    if k.path.contains("stage3") || k.path.contains("offload_param") {
        out.push_str(if zh {
            "\n仅在 ZeRO-3 生效"
        } else {
            "\nApplies with ZeRO stage 3 only"
        });
    }
    out
}

/// Whether `s` is a JSON number (what DeepSpeed's readers take; the spelling is kept).
fn is_json_number(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('+')
        && s.parse::<f64>().is_ok()
        && serde_json::from_str::<serde_json::Number>(s).is_ok()
}

/// What the user typed in a field, as the JSON literal DeepSpeed will read (`Ok(None)`: remove
/// the key), or why it cannot be one, said at the field while the text stays as it was. Numbers
/// keep their spelling (`1e-5`, `5e8`); anything else typed into a number field is refused,
/// never written as a string.
pub fn typed_literal(k: &KeySpec, input: &str) -> Result<Option<String>, Text> {
    let s = input.trim();
    if s.is_empty() {
        return Ok(None);
    }
    let takes = |t: Ty| k.types.contains(&t) || k.types.contains(&Ty::Any);
    if s == "auto" && (takes(Ty::Auto) || AUTO_KEYS.contains(&k.path.as_str())) {
        return Ok(Some("\"auto\"".into()));
    }
    if s == "null" && k.nullable {
        return Ok(Some("null".into()));
    }
    if (s == "true" || s == "false") && takes(Ty::Bool) {
        return Ok(Some(s.into()));
    }
    if s.starts_with(['[', '{']) && (takes(Ty::Array) || takes(Ty::Object)) {
        return match serde_json::from_str::<serde_json::Value>(s) {
            Ok(_) => Ok(Some(s.into())),
            Err(e) => Err(Text::new(
                format!("not valid JSON: {e}"),
                format!("不是有效的 JSON：{e}"),
            )),
        };
    }
    let whole_only = takes(Ty::Int) && !takes(Ty::Float) && !takes(Ty::Number);
    let numeric = takes(Ty::Int) || takes(Ty::Float) || takes(Ty::Number);
    if numeric && is_json_number(s) {
        let v: f64 = s.parse().unwrap_or(f64::NAN);
        if whole_only && v.fract() != 0.0 {
            return Err(Text::new(
                format!("{} takes a whole number, not {s}", k.name()),
                format!("{} 需要整数，而不是 {s}", k.name()),
            ));
        }
        return Ok(Some(s.into()));
    }
    if takes(Ty::String) {
        return Ok(Some(serde_json::Value::from(s).to_string()));
    }
    if numeric {
        let dotted = s.replace(',', ".");
        return Err(if s.contains(',') && is_json_number(&dotted) {
            Text::new(
                format!("“{s}” is not a number: write decimals with a dot ({dotted})"),
                format!("“{s}” 不是数字：小数点请用英文句点（{dotted}）"),
            )
        } else if s.contains('_') && is_json_number(&s.replace('_', "")) {
            let plain = s.replace('_', "");
            Text::new(
                format!("“{s}” is not a JSON number: write it without separators ({plain})"),
                format!("“{s}” 不是 JSON 数字：请去掉分隔符（{plain}）"),
            )
        } else {
            Text::new(
                format!(
                    "“{s}” is not a number; {} takes {}",
                    k.name(),
                    if whole_only {
                        "a whole number"
                    } else {
                        "a number such as 1e-5 or 0.5"
                    }
                ),
                format!(
                    "“{s}” 不是数字；{} 需要{}",
                    k.name(),
                    if whole_only {
                        "整数"
                    } else {
                        "数字，例如 1e-5 或 0.5"
                    }
                ),
            )
        });
    }
    if takes(Ty::Bool) {
        return Err(Text::new(
            format!("{} takes true or false, not “{s}”", k.name()),
            format!("{} 只能是 true 或 false，而不是 “{s}”", k.name()),
        ));
    }
    // Lists and objects that do not start as one.
    Err(Text::new(
        format!("{} takes a JSON list or object, not “{s}”", k.name()),
        format!("{} 需要 JSON 列表或对象，而不是 “{s}”", k.name()),
    ))
}

/// What a field shows: its value as written and its diagnostics (severity, code, message).
#[derive(Clone, Copy)]
struct FieldState {
    value: RwSignal<Option<String>>,
    errors: RwSignal<Vec<(&'static str, String, Text)>>,
}

impl FieldState {
    fn new() -> FieldState {
        FieldState {
            value: RwSignal::new(None),
            errors: RwSignal::new(Vec::new()),
        }
    }
}

/// Sets each field's value from the document, notifying only the fields that changed.
fn sync_values(states: &[(String, FieldState)], d: &Document) {
    for (ptr, s) in states {
        let v = d.get(ptr).map(|n| raw_value(n, d.text()));
        if s.value.with_untracked(|old| *old != v) {
            s.value.set(v);
        }
    }
}

/// Sets each field's diagnostics, notifying only the fields whose diagnostics changed.
fn sync_errors(states: &[(String, FieldState)], ds: &[Diagnostic]) {
    for (ptr, s) in states {
        let e: Vec<(&'static str, String, Text)> = ds
            .iter()
            .filter(|d| d.path == *ptr)
            .map(|d| (d.severity.as_str(), d.code.clone(), d.message.clone()))
            .collect();
        if s.errors.with_untracked(|old| *old != e) {
            s.errors.set(e);
        }
    }
}

#[component]
pub fn ConfigForm(
    text: RwSignal<String>,
    doc: Memo<Document>,
    #[prop(into)] diagnostics: Signal<Vec<Diagnostic>>,
    /// The launcher fills `"auto"` values (HF Trainer, Accelerate).
    #[prop(into)]
    fills_auto: Signal<bool>,
    /// The DeepSpeed release the config is judged for: fields it does not read are hidden.
    #[prop(into)]
    release: Signal<Release>,
    /// Shown, not edited (a shared version): fields cannot change, tooltips still open.
    #[prop(optional)]
    readonly: bool,
) -> impl IntoView {
    provide_context(ReadOnly(readonly));
    let lang = use_lang();
    let query = RwSignal::new(String::new());
    // A read-only form (a shared version) shows what the config sets, unless asked for all.
    let only_set = RwSignal::new(readonly);
    let reg = registry();
    let sections: Vec<&'static KeySpec> = reg.children_of("").filter(|k| shown(k)).collect();
    let (objects, scalars): (Vec<_>, Vec<_>) = sections.into_iter().partition(|k| k.is_object());
    let mut parts: Vec<(String, Vec<&'static KeySpec>, Vec<String>)> =
        vec![("general".into(), scalars, vec![])];
    parts.extend(objects.into_iter().map(|k| {
        let (keys, maps) = descendants(k);
        (k.path.clone(), keys, maps)
    }));
    // One value signal and one diagnostics signal per field, kept in step by two effects: a
    // keystroke wakes only the fields whose value or diagnostics changed, not all 300.
    let states: Vec<(String, FieldState)> = parts
        .iter()
        .flat_map(|(_, keys, _)| keys.iter())
        .map(|k| (pointer_of(&k.path), FieldState::new()))
        .collect();
    let states = std::sync::Arc::new(states);
    let st = states.clone();
    Effect::new(move |_| doc.with(|d| sync_values(&st, d)));
    let st = states.clone();
    Effect::new(move |_| diagnostics.with(|ds| sync_errors(&st, ds)));
    doc.with_untracked(|d| sync_values(&states, d));
    diagnostics.with_untracked(|ds| sync_errors(&states, ds));
    let state_of = move |path: &str| {
        let ptr = pointer_of(path);
        states
            .iter()
            .find(|(p, _)| *p == ptr)
            .map(|(_, s)| *s)
            .expect("a state per field")
    };

    view! {
        <div id="form" class="config-form">
            <div class="toolbar">
                <input id="key-search" type="search" placeholder=t("form.search") aria-label=t("form.search")
                    on:input=move |ev| query.set(event_target_value(&ev)) />
                <label class="check"><input id="only-set" type="checkbox" prop:checked=move || only_set.get() on:change=move |ev| only_set.set(event_target_checked(&ev)) />
                    {t("form.only_set")}</label>
            </div>
            // Text that does not parse cannot take an edit: say so, and lock the fields until it
            // is fixed (an edit would otherwise be dropped without a word).
            {move || doc.with(|d| d.errors().first().map(|e| (e.line, e.column, e.message.clone()))).map(|(line, column, message)| view! {
                <p id="form-broken" class="error card" role="alert">
                    {move || crate::i18n::tr("form.broken", lang.get())
                        .replace("{line}", &line.to_string())
                        .replace("{column}", &column.to_string())
                        .replace("{message}", &message)}
                </p>
            })}
            <fieldset class="form-fields" prop:disabled=move || doc.with(|d| !d.errors().is_empty())>
            {parts.into_iter().map(|(title, keys, maps)| {
                let keys: Vec<(&'static KeySpec, FieldState)> = keys.into_iter().map(|k| (k, state_of(&k.path))).collect();
                view! { <Section title keys maps doc text diagnostics query only_set fills_auto release /> }
            }).collect_view()}
            </fieldset>
        </div>
    }
}

/// The registry paths under `k` shown as fields (nested objects flattened,
/// `offload_param.device` style) and the maps under it: `optimizer.params`,
/// `scheduler.params` and every object whose members are named by the user (`<name>` in the
/// registry), such as `compression_training.weight_quantization.different_groups`.
fn descendants(k: &'static KeySpec) -> (Vec<&'static KeySpec>, Vec<String>) {
    let reg = registry();
    let prefix = format!("{}.", k.path);
    let under: Vec<&'static KeySpec> = reg.keys().filter(|c| c.path.starts_with(&prefix)).collect();
    let mut maps: Vec<String> = Vec::new();
    for c in &under {
        let map = if c.path == "optimizer.params" || c.path == "scheduler.params" {
            Some(c.path.clone())
        } else {
            c.path.find(".<").map(|i| c.path[..i].to_string())
        };
        if let Some(m) = map.filter(|m| !maps.contains(m)) {
            maps.push(m);
        }
    }
    // Objects with keys of their own below them are flattened into those keys.
    let parents: std::collections::HashSet<&str> = under
        .iter()
        .flat_map(|c| c.path.match_indices('.').map(|(i, _)| &c.path[..i]))
        .collect();
    let in_map = |p: &str| {
        maps.iter().any(|m| {
            p == m
                || p.strip_prefix(m.as_str())
                    .is_some_and(|r| r.starts_with('.'))
        })
    };
    let mut out: Vec<&'static KeySpec> = under
        .into_iter()
        .filter(|c| {
            shown(c) && !in_map(&c.path) && !(c.is_object() && parents.contains(c.path.as_str()))
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    maps.sort();
    (out, maps)
}

/// Whether the form around a field is read-only (provided by [`ConfigForm`]).
#[derive(Clone, Copy)]
struct ReadOnly(bool);

fn read_only() -> bool {
    use_context::<ReadOnly>().is_some_and(|r| r.0)
}

#[component]
#[allow(clippy::too_many_arguments)]
fn Section(
    title: String,
    keys: Vec<(&'static KeySpec, FieldState)>,
    maps: Vec<String>,
    doc: Memo<Document>,
    text: RwSignal<String>,
    diagnostics: Signal<Vec<Diagnostic>>,
    query: RwSignal<String>,
    only_set: RwSignal<bool>,
    fills_auto: Signal<bool>,
    release: Signal<Release>,
) -> impl IntoView {
    let section_spec = registry().get(&title);
    let lang = use_lang();
    let paths: Vec<String> = keys
        .iter()
        .map(|(k, _)| k.path.clone())
        .chain(maps.iter().cloned())
        .collect();
    let field_states: Vec<FieldState> = keys.iter().map(|(_, s)| *s).collect();
    let map_pointers: Vec<String> = maps.iter().map(|m| pointer_of(m)).collect();
    let maps_set = Memo::new(move |_| {
        if map_pointers.is_empty() {
            return 0;
        }
        doc.with(|d| map_pointers.iter().filter(|p| d.get(p).is_some()).count())
    });
    let set_count = Memo::new(move |_| {
        field_states
            .iter()
            .filter(|s| s.value.with(|v| v.is_some()))
            .count()
            + maps_set.get()
    });
    // A search matches a key's path, or a member a map has or its family knows (the
    // optimizer's `weight_decay`).
    let map_paths = maps.clone();
    let matches = Memo::new(move |_| {
        let q = query.get().to_lowercase();
        if q.is_empty() {
            return false;
        }
        paths.iter().any(|p| p.to_lowercase().contains(&q))
            || doc.with(|d| {
                map_paths.iter().any(|m| {
                    let has = |k: &str| k.to_lowercase().contains(&q);
                    d.get(&pointer_of(m))
                        .is_some_and(|n| n.members().iter().any(|mm| has(&mm.key)))
                        || family_of(m, d).is_some_and(|(_, f)| f.params.keys().any(|k| has(k)))
                })
            })
    });
    let id = format!("section-{}", title.replace('.', "-"));
    // While searching, only the sections with a match are open (and shown).
    let open = move || {
        if query.with(String::is_empty) {
            set_count.get() != 0
        } else {
            matches.get()
        }
    };
    // A section the release does not read is hidden unless the config sets it.
    let absent =
        move || section_spec.is_some_and(|s| !s.known_in(release.get())) && set_count.get() == 0;
    // Hidden too when only what is set is shown and it sets nothing, or a key search finds
    // nothing in it.
    let hidden = move || {
        absent()
            || (only_set.get() && set_count.get() == 0)
            || (!query.with(String::is_empty) && !matches.get())
    };
    view! {
        <details class="form-section" id=id prop:open=open style:display=move || if hidden() { "none" } else { "" }>
            <summary>{if title == "general" { view! { <span>{t("form.general")}</span> }.into_any() } else { view! { <span>{title.clone()}</span> }.into_any() }}" "<span class="muted">{move || crate::i18n::tr("form.n_set", lang.get()).replace("{n}", &set_count.get().to_string())}</span></summary>
            {keys.into_iter().map(|(k, state)| view! { <Field spec=k state doc text query only_set fills_auto release /> }).collect_view()}
            {maps.into_iter().map(|path| view! { <MemberMap path doc text diagnostics query only_set fills_auto release /> }).collect_view()}
        </details>
    }
}

#[component]
#[allow(clippy::too_many_arguments)]
fn Field(
    spec: &'static KeySpec,
    state: FieldState,
    doc: Memo<Document>,
    text: RwSignal<String>,
    query: RwSignal<String>,
    only_set: RwSignal<bool>,
    fills_auto: Signal<bool>,
    release: Signal<Release>,
) -> impl IntoView {
    let lang = use_lang();
    let docs_loaded = crate::key_docs::KeyDocs::use_loaded();
    let about = t("tip.about");
    let pointer = pointer_of(&spec.path);
    let value = state.value;
    let errors = state.errors;
    let path_lc = spec.path.to_lowercase();
    let hidden = move || {
        let q = query.get().to_lowercase();
        (!q.is_empty() && !path_lc.contains(&q))
            || (only_set.get() && value.get().is_none())
            || (!spec.known_in(release.get()) && value.get().is_none())
    };
    let ptr = pointer.clone();
    // What was typed while it cannot be written (kept in the field, with why), until the field
    // is changed again or the text gives it another value.
    let draft = RwSignal::new(None::<(String, Text)>);
    Effect::new(move |_| {
        value.track();
        draft.set(None);
    });
    let commit = move |input: String| match typed_literal(spec, &input) {
        Ok(lit) => {
            draft.set(None);
            write_literal(doc, text, &ptr, lit.as_deref());
        }
        Err(why) => draft.set(Some((input, why))),
    };
    let field_id = format!("field-{}", spec.path.replace('.', "-"));
    let ro = read_only();
    let auto_switch = AUTO_KEYS.contains(&spec.path.as_str()).then(|| {
        view! { <AutoSwitch pointer=pointer.clone() id=format!("{field_id}-auto") value doc text fills_auto /> }
    });
    let widget = if spec.types == [Ty::Bool] || !spec.r#enum.is_empty() {
        let options: Vec<String> = if spec.r#enum.is_empty() {
            vec!["true".into(), "false".into()]
        } else {
            spec.r#enum.clone()
        };
        let commit = commit.clone();
        // A value the list does not have (a typo in the text) is shown as it is, marked, not
        // as an empty choice.
        let known = options.clone();
        // "auto" where the launcher fills the key (`bf16.enabled` under the HF Trainer) is a
        // value, not a typo: shown as a choice of its own.
        let auto_ok = AUTO_KEYS.contains(&spec.path.as_str());
        let is_auto = move || {
            auto_ok
                && fills_auto.get()
                && value.with(|v| v.as_deref().map(|v| v.trim_matches('"')) == Some("auto"))
        };
        let other = Memo::new(move |_| {
            value.get().filter(|v| {
                !v.is_empty() && !known.iter().any(|o| o.eq_ignore_ascii_case(v)) && !is_auto()
            })
        });
        view! {
            <select id=field_id.clone() disabled=ro on:change=move |ev| commit(event_target_value(&ev))
                class:invalid=move || other.with(Option::is_some)
                prop:value=move || value.get().unwrap_or_default()>
                <option value="">"—"</option>
                {move || other.get().map(|v| view! { <option value=v.clone() class="invalid">{format!("{v} ✗")}</option> })}
                {move || is_auto().then(|| view! { <option value=value.get().unwrap_or_default()>"auto"</option> })}
                {options.into_iter().map(|o| view! { <option value=o.clone()>{o.clone()}</option> }).collect_view()}
            </select>
        }.into_any()
    } else {
        // The default, in plain words (not Python's `None`/`True`).
        let default = spec
            .default_text
            .clone()
            .or_else(|| spec.default.as_ref().map(|v| v.to_string()))
            .unwrap_or_default();
        let placeholder = move || {
            ds_studio_shared::registry::plain::plain_default(&default, lang.get() == Lang::Zh)
        };
        let numeric = spec
            .types
            .iter()
            .any(|t| matches!(t, Ty::Int | Ty::Float | Ty::Number));
        view! {
            <input id=field_id.clone() placeholder=placeholder readonly=ro
                inputmode=if numeric { "decimal" } else { "text" }
                class:invalid=move || draft.with(Option::is_some)
                aria-invalid=move || draft.with(Option::is_some).to_string()
                prop:value=move || draft.with(|d| d.as_ref().map(|d| d.0.clone())).or_else(|| value.get()).unwrap_or_default()
                on:change=move |ev| commit(event_target_value(&ev)) />
        }.into_any()
    };
    let name = spec.name().to_string();
    let rel = spec
        .path
        .split_once('.')
        .map(|(_, r)| r.to_string())
        .unwrap_or(name);
    view! {
        <div class="field" class:set=move || value.get().is_some() style:display=move || if hidden() { "none" } else { "" }
            data-path=spec.path.clone()>
            <span class="field-name"><label for=field_id.clone()>{rel.clone()}</label>
            <Tip text=Signal::derive(move || { docs_loaded.track(); tooltip(spec, lang.get(), release.get()) })
                label=Signal::derive(move || format!("{} {}", about(), rel)) /></span>
            <span class="widget">{widget}{auto_switch}</span>
            <div class="field-errors">
                {move || draft.get().map(|(_, why)| view! {
                    <p class="field-error error typed" role="alert">{why.get(lang.get()).to_string()}</p>
                })}
                {move || errors.get().into_iter().map(|(sev, code, msg)| view! {
                    <p class=format!("field-error {sev}") data-code=code>{msg.get(lang.get()).to_string()}</p>
                }).collect_view()}
            </div>
        </div>
    }
}

/// Writes a JSON literal at `pointer` (`None`: removes the key); `false` when the text could not
/// take it (it does not parse, or a parent is not an object), and then nothing changes.
fn write_literal(
    doc: Memo<Document>,
    text: RwSignal<String>,
    pointer: &str,
    literal: Option<&str>,
) -> bool {
    let d = doc.get_untracked();
    let next = match literal {
        Some(lit) => d.set_raw(pointer, lit),
        None if d.get(pointer).is_some() => d.remove(pointer),
        None => return true,
    };
    match next {
        Ok(n) => {
            text.set(n.text().to_string());
            true
        }
        Err(_) => false,
    }
}

/// The source text of the value at `pointer` (a literal that can be written back as is).
fn literal_at(d: &Document, pointer: &str) -> Option<String> {
    d.get(pointer)
        .and_then(|n| d.text().get(n.span.clone()))
        .map(str::to_string)
}

/// The "auto" switch of a key the launcher fills in (shown only under the HF Trainer or
/// Accelerate): checking it writes `"auto"`, unchecking puts back the value it replaced (or
/// removes the key when there was none).
#[component]
fn AutoSwitch(
    pointer: String,
    id: String,
    #[prop(into)] value: Signal<Option<String>>,
    doc: Memo<Document>,
    text: RwSignal<String>,
    fills_auto: Signal<bool>,
) -> impl IntoView {
    let replaced = StoredValue::new(None::<String>);
    let title = t("form.auto_title");
    view! {
        <label class="auto" style:display=move || if fills_auto.get() { "" } else { "none" } title=title>
            <input type="checkbox" id=id disabled=read_only() prop:checked=move || value.get().as_deref() == Some("auto")
                on:change=move |ev| {
                    if event_target_checked(&ev) {
                        replaced.set_value(doc.with_untracked(|d| literal_at(d, &pointer)).filter(|l| l != "\"auto\""));
                        write_literal(doc, text, &pointer, Some("\"auto\""));
                    } else {
                        let back = replaced.get_value();
                        write_literal(doc, text, &pointer, back.as_deref());
                    }
                } />
            "auto"
        </label>
    }
}

/// The members a map shows: the known names first (in their order), then the other members of
/// the config (in the config's order). `true` marks a known one.
pub fn map_rows(known: &[String], present: &[String]) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = known.iter().map(|k| (k.clone(), true)).collect();
    out.extend(
        present
            .iter()
            .filter(|p| !known.contains(p))
            .map(|p| (p.clone(), false)),
    );
    out
}

/// The parameter family a `*.params` map follows (the optimizer's or scheduler's type), with
/// the prefix its descriptions have in the key docs (`optimizers.adamw`).
fn family_of(path: &str, d: &Document) -> Option<(String, ParamFamily)> {
    let reg = registry();
    match path {
        "optimizer.params" => {
            let ty = d.get("/optimizer/type")?.as_str()?;
            let lower = ty.to_ascii_lowercase();
            let prefix = if reg.optimizers.contains_key(&lower) {
                format!("optimizers.{lower}")
            } else {
                format!("torch_optimizers.{ty}")
            };
            Some((prefix, reg.optimizer(ty)?.clone()))
        }
        "scheduler.params" => {
            let ty = d.get("/scheduler/type")?.as_str()?;
            Some((format!("schedulers.{ty}"), reg.schedulers.get(ty)?.clone()))
        }
        _ => None,
    }
}

/// The tooltip of a map member: the parameter's description, type and default, or a note that
/// the chosen type does not know it.
pub fn param_tip(family: Option<&ParamFamily>, prefix: &str, name: &str, zh: bool) -> String {
    let Some(ps) = family.and_then(|f| f.params.get(name)) else {
        return if zh {
            "此类型未知的参数：DeepSpeed 会把它原样传给构造函数".into()
        } else {
            "Not a parameter of this type: DeepSpeed passes it to the constructor as is".into()
        };
    };
    // The description: from the fetched key docs in the browser, compiled in elsewhere.
    let doc = crate::key_docs::get(&format!("param:{prefix}.{name}"));
    let mut t = match (doc, zh) {
        (Some(d), true) => d.zh.clone(),
        (Some(d), false) => d.en.clone(),
        (None, true) => ps.zh.clone(),
        (None, false) => ps.en.clone(),
    };
    t.push_str(&format!(
        "\n{}: {}",
        if zh { "类型" } else { "Type" },
        ps.ty
    ));
    if ps.required {
        t.push_str(if zh { "\n必填" } else { "\nRequired" });
    } else if !ps.default.is_null() {
        t.push_str(&format!(
            "\n{}: {}",
            if zh { "默认值" } else { "Default" },
            ps.default
        ));
    }
    t
}

/// A literal for a map member: JSON as typed when it parses (numbers keep their spelling),
/// otherwise a string.
pub fn member_literal(input: &str) -> Option<String> {
    let s = input.trim();
    if s.is_empty() {
        return None;
    }
    if serde_json::from_str::<serde_json::Value>(s).is_ok() {
        Some(s.to_string())
    } else {
        Some(serde_json::Value::from(s).to_string())
    }
}

/// A key-value map: a row per member (known parameters of the chosen type with their
/// tooltips, and whatever else the config has), remove buttons, and a row to add a member.
#[component]
fn MemberMap(
    path: String,
    doc: Memo<Document>,
    text: RwSignal<String>,
    diagnostics: Signal<Vec<Diagnostic>>,
    query: RwSignal<String>,
    only_set: RwSignal<bool>,
    fills_auto: Signal<bool>,
    release: Signal<Release>,
) -> impl IntoView {
    let lang = use_lang();
    let docs_loaded = crate::key_docs::KeyDocs::use_loaded();
    let about = t("tip.about");
    let base = pointer_of(&path);
    let spec = registry().get(&path);
    let family_path = path.clone();
    let family = Memo::new(move |_| doc.with(|d| family_of(&family_path, d)));
    let ptr = base.clone();
    let present = Memo::new(move |_| {
        doc.with(|d| {
            d.get(&ptr)
                .map(|n| {
                    n.members()
                        .iter()
                        .map(|m| m.key.clone())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let rows = Memo::new(move |_| {
        let known: Vec<String> = family
            .get()
            .map(|(_, f)| f.params.keys().cloned().collect())
            .unwrap_or_default();
        // "Only what is set": the parameters the config writes, not the family's whole list.
        let only = only_set.get();
        present.with(|p| {
            let rows = map_rows(&known, p);
            if only {
                rows.into_iter().filter(|(n, _)| p.contains(n)).collect()
            } else {
                rows
            }
        })
    });
    let id_base = format!("field-{}", path.replace('.', "-"));
    let path_lc = path.to_lowercase();
    let hidden = move || {
        let q = query.get().to_lowercase();
        !q.is_empty()
            && !path_lc.contains(&q)
            && !rows.with(|r| r.iter().any(|(n, _)| n.to_lowercase().contains(&q)))
    };
    let write = move |pointer: String, input: String| -> bool {
        write_literal(doc, text, &pointer, member_literal(&input).as_deref())
    };
    let new_name = RwSignal::new(String::new());
    let new_value = RwSignal::new(String::new());
    let add_error = RwSignal::new(false);
    let add_base = base.clone();
    let add = move || {
        let name = new_name.get_untracked().trim().to_string();
        if name.is_empty() {
            return;
        }
        let value = new_value.get_untracked();
        let value = if value.trim().is_empty() {
            "{}".to_string()
        } else {
            value
        };
        // The inputs are cleared only when the member was written (the text may not parse).
        if write(pointer_join(&add_base, &name), value) {
            new_name.set(String::new());
            new_value.set(String::new());
        } else {
            add_error.set(true);
        }
    };
    let add_key = add.clone();
    let id_rows = id_base.clone();
    let input_id_base = id_base.clone();
    let map_path = path.clone();
    let map_label = path.clone();
    let remove_label = t("form.remove");
    let ro = read_only();
    let add_label = t("form.add_member");
    view! {
        <div class="field map" id=id_base.clone() tabindex="-1" data-path=path.clone()
            style:display=move || if hidden() { "none" } else { "" }>
            <span class="field-name map-label">{path.split_once('.').map(|(_, r)| r.to_string()).unwrap_or_else(|| path.clone())}
            <Tip text=Signal::derive(move || { docs_loaded.track(); spec.map(|s| tooltip(s, lang.get(), release.get())).unwrap_or_default() })
                label=Signal::derive({ let p = path.clone(); move || format!("{} {}", about(), p) }) /></span>
            <div class="map-rows">
                <For each=move || rows.get() key=|r| r.clone() let:row>
                    {
                        let (name, known) = row;
                        let pointer = pointer_join(&base, &name);
                        let p = pointer.clone();
                        let value = Memo::new(move |_| doc.with(|d| d.get(&p).map(|n| raw_value(n, d.text()))));
                        let p = pointer.clone();
                        let errors = Memo::new(move |_| diagnostics.with(|ds| {
                            ds.iter().filter(|d| d.path == p).map(|d| d.message.clone()).collect::<Vec<_>>()
                        }));
                        let param = name.clone();
                        let tip = move || {
                            let zh = lang.get() == Lang::Zh;
                            docs_loaded.track();
                            family.with(|f| match f {
                                Some((prefix, f)) => param_tip(Some(f), prefix, &param, zh),
                                None => param_tip(None, "", &param, zh),
                            })
                        };
                        let pname = name.clone();
                        // The default of this parameter for the type chosen now.
                        let placeholder = move || family.with(|f| f.as_ref()
                            .and_then(|(_, f)| f.params.get(&pname))
                            .filter(|ps| !ps.default.is_null())
                            .map(|ps| ps.default.to_string()))
                            .unwrap_or_default();
                        let member_path = format!("{map_path}.{name}");
                        let auto = AUTO_KEYS.contains(&member_path.as_str()).then(|| view! {
                            <AutoSwitch pointer=pointer.clone() id=format!("{input_id_base}-{name}-auto") value doc text fills_auto />
                        });
                        let remove_name = name.clone();
                        let input_id = format!("{}-{}", id_rows, name);
                        let (w1, w2) = (write, write);
                        let (p1, p2) = (pointer.clone(), pointer.clone());
                        view! {
                            <div class="map-row" class:unknown=!known class:set=move || value.get().is_some() data-member=name.clone()>
                                <span class="field-name"><label for=input_id.clone()>{name.clone()}</label>
                                <Tip text=Signal::derive(tip) label=Signal::derive({ let n = name.clone(); move || format!("{} {}", about(), n) }) /></span>
                                <input id=input_id placeholder=placeholder readonly=ro prop:value=move || value.get().unwrap_or_default()
                                    on:change=move |ev| { w1(p1.clone(), event_target_value(&ev)); } />
                                {auto}
                                {move || (value.get().is_some() && !ro).then(|| {
                                    let (w, p) = (w2, p2.clone());
                                    let label = format!("{} {}", remove_label(), remove_name);
                                    view! { <button class="remove" aria-label=label on:click=move |_| { w(p.clone(), String::new()); }>"✕"</button> }
                                })}
                                {move || errors.get().into_iter().map(|m| view! { <p class="field-error error">{m.get(lang.get()).to_string()}</p> }).collect_view()}
                            </div>
                        }
                    }
                </For>
                <div class="map-add" style:display=if ro { "none" } else { "" }>
                    <input class="map-new-name" placeholder=t("form.member_name") aria-label=t("form.member_name") prop:value=move || new_name.get()
                        on:input=move |ev| { new_name.set(event_target_value(&ev)); add_error.set(false); } />
                    <input class="map-new-value" placeholder=t("form.member_value") aria-label=t("form.member_value") prop:value=move || new_value.get()
                        on:input=move |ev| { new_value.set(event_target_value(&ev)); add_error.set(false); }
                        on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Enter" { add_key() } />
                    <button class="map-add-button" aria-label=move || format!("{} {}", add_label(), map_label) on:click=move |_| add()>"+"</button>
                </div>
                {move || add_error.get().then(|| view! { <p class="field-error error" role="alert">{t("form.add_failed")}</p> })}
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(path: &str) -> (Vec<String>, Vec<String>) {
        let k = registry().get(path).expect(path);
        let (fields, maps) = descendants(k);
        (fields.into_iter().map(|f| f.path.clone()).collect(), maps)
    }

    #[test]
    fn typed_fields_write_numbers_as_written_and_refuse_the_rest() {
        let k = |p: &str| registry().get(p).expect(p);
        let ok = |p: &str, input: &str| {
            typed_literal(k(p), input).unwrap_or_else(|e| panic!("{p} {input}: {}", e.en))
        };
        let err = |p: &str, input: &str| typed_literal(k(p), input).expect_err(input).en;
        // Numbers keep their spelling; empty removes the key.
        assert_eq!(ok("gradient_clipping", "1.0"), Some("1.0".into()));
        assert_eq!(ok("gradient_clipping", " 5e-1 "), Some("5e-1".into()));
        assert_eq!(
            ok("zero_optimization.reduce_bucket_size", "5e8"),
            Some("5e8".into())
        );
        assert_eq!(ok("gradient_clipping", ""), None);
        // The issue's "1,0": refused at the field, with the dot it needs; never a string.
        assert!(err("gradient_clipping", "1,0").contains("write decimals with a dot (1.0)"));
        assert!(err("gradient_clipping", "abc").contains("“abc” is not a number"));
        assert!(err("gradient_clipping", "+1").contains("not a number"));
        assert!(err("gradient_clipping", "NaN").contains("not a number"));
        assert!(err("steps_per_print", "1_000").contains("without separators (1000)"));
        assert!(err("steps_per_print", "2.5").contains("takes a whole number, not 2.5"));
        assert_eq!(ok("steps_per_print", "100"), Some("100".into()));
        // "auto" where the launcher fills it; strings stay strings.
        assert_eq!(ok("train_batch_size", "auto"), Some("\"auto\"".into()));
        assert!(err("steps_per_print", "auto").contains("not a number"));
        assert_eq!(
            ok("zero_optimization.offload_optimizer.device", "cpu"),
            Some("\"cpu\"".into())
        );
        // Chinese too.
        let zh = typed_literal(k("gradient_clipping"), "1,0").unwrap_err().zh;
        assert!(zh.contains("小数点请用英文句点（1.0）"), "{zh}");
    }

    #[test]
    fn optimizer_and_scheduler_params_are_maps_not_fields() {
        let (fields, maps) = section("optimizer");
        assert_eq!(maps, vec!["optimizer.params"]);
        assert!(fields.contains(&"optimizer.type".to_string()));
        assert!(!fields.iter().any(|f| f.starts_with("optimizer.params")));
        let (fields, maps) = section("scheduler");
        assert_eq!(maps, vec!["scheduler.params"]);
        assert!(!fields.iter().any(|f| f.starts_with("scheduler.params")));
    }

    #[test]
    fn named_groups_are_maps_and_removed_sections_are_not_offered() {
        let (fields, maps) = section("data_efficiency");
        assert_eq!(
            maps,
            vec!["data_efficiency.data_sampling.curriculum_learning.curriculum_metrics"]
        );
        assert!(fields.contains(&"data_efficiency.data_sampling.num_workers".into()));
        assert!(!fields.iter().any(|f| f.contains('<')));
        // DeepSpeed 0.19.7 removed `compression_training` (0.19.8 rejects it outright): the
        // form keeps its section for the releases that read it and hides it for the others.
        let reg = registry();
        let section = reg.get("compression_training").unwrap();
        assert!(section.removed.is_some());
        assert!(reg
            .children_of("")
            .filter(|k| shown(k))
            .any(|k| k.path == "compression_training"));
        assert!(!section.known_in(Release::newest()));
        assert!(section.known_in(Release::parse("0.18.4").unwrap()));
    }

    #[test]
    fn nested_objects_are_flattened_into_their_keys() {
        let (fields, maps) = section("zero_optimization");
        assert!(maps.is_empty());
        assert!(fields.contains(&"zero_optimization.offload_param.device".into()));
        assert!(!fields.contains(&"zero_optimization.offload_param".into()));
    }

    #[test]
    fn lists_are_shown_on_one_line_without_touching_strings() {
        assert_eq!(
            one_line("[\n        0.8,\n        0.999\n      ]"),
            "[0.8, 0.999]"
        );
        assert_eq!(
            one_line("{\r\n  \"a\": \"x  y\",\r\n  \"b\": [1, 2]\r\n}"),
            "{\"a\": \"x  y\", \"b\": [1, 2]}"
        );
        assert_eq!(one_line("[1, 2]"), "[1, 2]");
    }

    #[test]
    fn a_map_lists_known_names_then_the_others() {
        let known = vec!["lr".to_string(), "betas".to_string()];
        let present = vec!["betas".to_string(), "foo".to_string()];
        assert_eq!(
            map_rows(&known, &present),
            vec![
                ("lr".to_string(), true),
                ("betas".to_string(), true),
                ("foo".to_string(), false)
            ]
        );
    }

    #[test]
    fn member_values_keep_json_and_quote_the_rest() {
        assert_eq!(member_literal("3e-4").as_deref(), Some("3e-4"));
        assert_eq!(
            member_literal("[0.9, 0.95]").as_deref(),
            Some("[0.9, 0.95]")
        );
        assert_eq!(member_literal("linear").as_deref(), Some("\"linear\""));
        assert_eq!(member_literal("  "), None);
    }

    #[test]
    fn the_params_family_follows_the_type() {
        let d = Document::parse(
            r#"{"optimizer": {"type": "AdamW"}, "scheduler": {"type": "WarmupLR"}}"#,
        );
        let (prefix, opt) = family_of("optimizer.params", &d).expect("adamw");
        assert_eq!(prefix, "optimizers.adamw");
        assert!(opt.params.contains_key("lr"));
        let (prefix, sched) = family_of("scheduler.params", &d).expect("WarmupLR");
        assert_eq!(prefix, "schedulers.WarmupLR");
        assert!(sched.params.contains_key("warmup_num_steps"));
        assert!(family_of("optimizer.params", &Document::parse("{}")).is_none());
    }
}
