//! The config as a form: one collapsible section per top-level part of the schema, a widget per
//! key by its type, a tooltip on every key (description, default, allowed values, deprecation),
//! the diagnostics of a key shown at its field, search-to-key and "only what is set".
//!
//! Everything comes from the shared registry, so a key added there appears here. The form and
//! the JSON text are one state: a field reads its value from the parsed text and an edit
//! rewrites only that value in the text (numbers keep their spelling).

use crate::i18n::{t, use_lang};
use ds_studio_shared::document::{pointer_join, Document, Kind, Node};
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::registry::{registry, KeySpec, Ty};
use ds_studio_shared::Diagnostic;
use leptos::prelude::*;

/// A key is shown as a field when it is current (not removed, deprecated or an alias) and not
/// a name-dependent placeholder (`<name>`).
fn shown(k: &KeySpec) -> bool {
    k.removed.is_none() && !k.deprecated && k.alias_of.is_none() && !k.path.contains('<')
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
        _ => text.get(n.span.clone()).unwrap_or_default().to_string(),
    }
}

/// The tooltip of a key in one language.
pub fn tooltip(k: &KeySpec, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let mut out = if zh {
        k.doc.zh.clone()
    } else {
        k.doc.en.clone()
    };
    if let Some(d) = k
        .default_text
        .clone()
        .or_else(|| k.default.as_ref().map(|v| v.to_string()))
    {
        out.push_str(&format!("\n{}: {d}", if zh { "默认值" } else { "Default" }));
    }
    if !k.r#enum.is_empty() {
        out.push_str(&format!(
            "\n{}: {}",
            if zh { "可选值" } else { "Allowed" },
            k.r#enum.join(", ")
        ));
    } else if let Some(a) = &k.allowed_text {
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

/// Turns what the user typed into a JSON literal for the key (`None`: remove the key).
fn literal_for(k: &KeySpec, input: &str) -> Option<String> {
    let s = input.trim();
    if s.is_empty() {
        return None;
    }
    let numeric = k
        .types
        .iter()
        .any(|t| matches!(t, Ty::Int | Ty::Float | Ty::Number));
    if serde_json::from_str::<serde_json::Value>(s).is_ok()
        && (numeric || s.starts_with(['[', '{']) || s == "true" || s == "false" || s == "null")
    {
        return Some(s.to_string());
    }
    Some(serde_json::Value::from(s).to_string())
}

#[component]
pub fn ConfigForm(
    text: RwSignal<String>,
    #[prop(into)] diagnostics: Signal<Vec<Diagnostic>>,
) -> impl IntoView {
    let doc = Memo::new(move |_| Document::parse(&text.get()));
    let query = RwSignal::new(String::new());
    let only_set = RwSignal::new(false);
    let reg = registry();
    let sections: Vec<&'static KeySpec> = reg.children_of("").filter(|k| shown(k)).collect();
    let (objects, scalars): (Vec<_>, Vec<_>) = sections.into_iter().partition(|k| k.is_object());

    view! {
        <div id="form" class="config-form">
            <div class="toolbar">
                <input id="key-search" type="search" placeholder=t("form.search")
                    on:input=move |ev| query.set(event_target_value(&ev)) />
                <label><input id="only-set" type="checkbox" on:change=move |ev| only_set.set(event_target_checked(&ev)) />
                    {t("form.only_set")}</label>
            </div>
            <Section title="general".into() keys=scalars doc text diagnostics query only_set />
            {objects.into_iter().map(|k| {
                let keys: Vec<&'static KeySpec> = descendants(k);
                view! { <Section title=k.path.clone() keys doc text diagnostics query only_set /> }
            }).collect_view()}
        </div>
    }
}

/// Every shown scalar key under `k` (nested objects flattened, `offload_param.device` style).
fn descendants(k: &'static KeySpec) -> Vec<&'static KeySpec> {
    let reg = registry();
    let mut out = Vec::new();
    let mut stack = vec![k.path.as_str()];
    while let Some(p) = stack.pop() {
        for c in reg.children_of(p).filter(|c| shown(c)) {
            if c.is_object() && reg.children_of(&c.path).next().is_some() {
                stack.push(&c.path);
            } else {
                out.push(c);
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[component]
fn Section(
    title: String,
    keys: Vec<&'static KeySpec>,
    doc: Memo<Document>,
    text: RwSignal<String>,
    diagnostics: Signal<Vec<Diagnostic>>,
    query: RwSignal<String>,
    only_set: RwSignal<bool>,
) -> impl IntoView {
    let paths: Vec<String> = keys.iter().map(|k| k.path.clone()).collect();
    let paths_for_count = paths.clone();
    let set_count = Memo::new(move |_| {
        let d = doc.get();
        paths_for_count
            .iter()
            .filter(|p| d.get(&pointer_of(p)).is_some())
            .count()
    });
    let matches = Memo::new(move |_| {
        let q = query.get().to_lowercase();
        !q.is_empty() && paths.iter().any(|p| p.to_lowercase().contains(&q))
    });
    let id = format!("section-{}", title.replace('.', "-"));
    let open = move || matches.get() || set_count.get() != 0;
    view! {
        <details class="form-section" id=id prop:open=open>
            <summary>{title.clone()}" "<span class="muted">{move || format!("({} set)", set_count.get())}</span></summary>
            {keys.into_iter().map(|k| view! { <Field spec=k doc text diagnostics query only_set /> }).collect_view()}
        </details>
    }
}

#[component]
fn Field(
    spec: &'static KeySpec,
    doc: Memo<Document>,
    text: RwSignal<String>,
    diagnostics: Signal<Vec<Diagnostic>>,
    query: RwSignal<String>,
    only_set: RwSignal<bool>,
) -> impl IntoView {
    let lang = use_lang();
    let pointer = pointer_of(&spec.path);
    let ptr = pointer.clone();
    let value = Memo::new(move |_| doc.with(|d| d.get(&ptr).map(|n| raw_value(n, d.text()))));
    let ptr = pointer.clone();
    let errors = Memo::new(move |_| {
        diagnostics.with(|ds| {
            ds.iter()
                .filter(|d| d.path == ptr)
                .map(|d| (d.severity.as_str(), d.code.clone(), d.message.clone()))
                .collect::<Vec<_>>()
        })
    });
    let path_lc = spec.path.to_lowercase();
    let hidden = move || {
        let q = query.get().to_lowercase();
        (!q.is_empty() && !path_lc.contains(&q)) || (only_set.get() && value.get().is_none())
    };
    let ptr = pointer.clone();
    let commit = move |input: String| {
        let d = doc.get_untracked();
        let next = match literal_for(spec, &input) {
            Some(lit) => d.set_raw(&ptr, &lit),
            None if d.get(&ptr).is_some() => d.remove(&ptr),
            None => return,
        };
        if let Ok(n) = next {
            text.set(n.text().to_string());
        }
    };
    let field_id = format!("field-{}", spec.path.replace('.', "-"));
    let widget = if spec.types == [Ty::Bool] || !spec.r#enum.is_empty() {
        let options: Vec<String> = if spec.r#enum.is_empty() {
            vec!["true".into(), "false".into()]
        } else {
            spec.r#enum.clone()
        };
        let commit = commit.clone();
        view! {
            <select id=field_id.clone() on:change=move |ev| commit(event_target_value(&ev))
                prop:value=move || value.get().unwrap_or_default()>
                <option value="">"—"</option>
                {options.into_iter().map(|o| view! { <option value=o.clone()>{o.clone()}</option> }).collect_view()}
            </select>
        }.into_any()
    } else {
        let placeholder = spec
            .default_text
            .clone()
            .or_else(|| spec.default.as_ref().map(|v| v.to_string()))
            .unwrap_or_default();
        view! {
            <input id=field_id.clone() placeholder=placeholder prop:value=move || value.get().unwrap_or_default()
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
            <label for=field_id.clone() title=move || tooltip(spec, lang.get())>{rel}" "<span class="info" aria-hidden="true">"ⓘ"</span></label>
            {widget}
            <div class="field-errors">
                {move || errors.get().into_iter().map(|(sev, code, msg)| view! {
                    <p class=format!("field-error {sev}") data-code=code>{msg.get(lang.get()).to_string()}</p>
                }).collect_view()}
            </div>
        </div>
    }
}
