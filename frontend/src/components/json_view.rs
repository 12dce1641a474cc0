//! The JSON text of a config with a gutter: line numbers and a marker on every line that has a
//! diagnostic (its message as the marker's title). Also how the editor takes the user to the
//! place of a diagnostic: the line in the text, or the field in the form.

use crate::components::import_export::on_drop;
use crate::i18n::use_lang;
use ds_studio_shared::document::split_pointer;
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::{Diagnostic, Severity};
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Line height of the text and the gutter in pixels (the stylesheet uses the same).
pub const LINE_PX: f64 = 20.0;

/// `"1\n2\n…\nn"` for a text of `n` lines.
pub fn line_numbers(lines: usize) -> String {
    let mut out = String::with_capacity(lines * 4);
    for i in 1..=lines.max(1) {
        if i > 1 {
            out.push('\n');
        }
        out.push_str(&i.to_string());
    }
    out
}

/// One marker per line that has diagnostics: the worst severity and the messages (in `lang`).
pub fn markers(diags: &[Diagnostic], lang: Lang) -> Vec<(usize, Severity, String)> {
    let mut out: Vec<(usize, Severity, String)> = Vec::new();
    for d in diags {
        let Some(line) = d.line else { continue };
        match out.iter_mut().find(|m| m.0 == line) {
            Some(m) => {
                if d.severity == Severity::Error {
                    m.1 = Severity::Error;
                } else if d.severity == Severity::Warning && m.1 == Severity::Info {
                    m.1 = Severity::Warning;
                }
                m.2.push('\n');
                m.2.push_str(d.message.get(lang));
            }
            None => out.push((line, d.severity, d.message.get(lang).to_string())),
        }
    }
    out.sort_by_key(|m| m.0);
    out
}

/// The UTF-16 range of 1-based `line` in `text` (what a textarea's selection counts in).
pub fn line_range_utf16(text: &str, line: usize) -> (u32, u32) {
    let mut start = 0u32;
    for (i, l) in text.split('\n').enumerate() {
        let len = l.encode_utf16().count() as u32;
        if i + 1 == line.max(1) {
            return (start, start + len);
        }
        start += len + 1;
    }
    (start, start)
}

/// The form field that shows `pointer`, or the nearest one above it: `field-zero_optimization-stage`.
pub fn field_id_candidates(pointer: &str) -> Vec<String> {
    let tokens = split_pointer(pointer);
    (1..=tokens.len())
        .rev()
        .map(|n| format!("field-{}", tokens[..n].join("-")))
        .collect()
}

/// Selects the line of a diagnostic in the text and scrolls it into view.
pub fn reveal_line(text: &str, line: usize) {
    let Some(el) = document()
        .get_element_by_id("config")
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    else {
        return;
    };
    let (start, end) = line_range_utf16(text, line);
    let _ = el.focus();
    let _ = el.set_selection_range(start, end);
    let top = (line.max(1) - 1) as f64 * LINE_PX - el.client_height() as f64 / 2.0;
    el.set_scroll_top(top.max(0.0) as i32);
}

/// Focuses the form field of a diagnostic (or its nearest ancestor's), opening its section.
/// `false` when the form has no field for it.
pub fn reveal_field(pointer: &str) -> bool {
    let doc = document();
    for id in field_id_candidates(pointer) {
        if let Some(el) = doc.get_element_by_id(&id) {
            if let Ok(Some(section)) = el.closest("details") {
                let _ = section.set_attribute("open", "");
            }
            el.scroll_into_view();
            if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
                let _ = h.focus();
            }
            return true;
        }
    }
    false
}

#[component]
pub fn JsonText(
    text: RwSignal<String>,
    #[prop(into)] diagnostics: Signal<Vec<Diagnostic>>,
    #[prop(into)] hidden: Signal<bool>,
    io_status: RwSignal<Option<String>>,
    #[prop(into)] label: Signal<String>,
    /// Not editable yet (the version is still loading: what was typed would be overwritten).
    #[prop(optional, into)]
    loading: Signal<bool>,
    /// Not editable at all (the caller's role cannot save).
    #[prop(optional, into)]
    read_only: Signal<bool>,
) -> impl IntoView {
    let lines = Memo::new(move |_| text.with(|t| t.matches('\n').count() + 1));
    let numbers = Memo::new(move |_| line_numbers(lines.get()));
    let lang = use_lang();
    let marks = Memo::new(move |_| {
        let l = lang.get();
        diagnostics.with(|d| markers(d, l))
    });
    let gutter = NodeRef::<html::Div>::new();
    view! {
        <div class="json-view" style:display=move || if hidden.get() { "none" } else { "" }>
            <div class="gutter" node_ref=gutter aria-hidden="true">
                <pre class="line-numbers">{move || numbers.get()}</pre>
                <For each=move || marks.get() key=|m| m.clone() let:m>
                    <span class=format!("marker {}", m.1.as_str()) data-line=m.0
                        style:top=format!("{}px", (m.0 - 1) as f64 * LINE_PX + 8.0) title=m.2.clone()>"●"</span>
                </For>
            </div>
            <textarea id="config" spellcheck="false" wrap="off" prop:value=move || text.get()
                prop:readOnly=move || loading.get() || read_only.get() aria-busy=move || loading.get().to_string()
                aria-label=move || label.get()
                on:scroll=move |ev| {
                    if let (Some(g), Some(t)) = (gutter.get(), ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())) {
                        g.set_scroll_top(t.scroll_top());
                    }
                }
                on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
                on:drop=move |ev: leptos::ev::DragEvent| {
                    if read_only.get_untracked() {
                        ev.prevent_default();
                    } else {
                        on_drop(ev, text, io_status)
                    }
                }
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ds_studio_shared::i18n::Text;

    fn diag(line: usize, severity: Severity, msg: &str) -> Diagnostic {
        let mut d = Diagnostic::new(severity, "x", "/a", Text::new(msg, msg));
        d.line = Some(line);
        d
    }

    #[test]
    fn numbers_every_line() {
        assert_eq!(line_numbers(3), "1\n2\n3");
        assert_eq!(line_numbers(0), "1");
    }

    #[test]
    fn one_marker_per_line_with_the_worst_severity() {
        let m = markers(
            &[
                diag(4, Severity::Warning, "w"),
                diag(2, Severity::Info, "i"),
                diag(4, Severity::Error, "e"),
            ],
            Lang::En,
        );
        assert_eq!(m.len(), 2);
        assert_eq!(m[0], (2, Severity::Info, "i".to_string()));
        assert_eq!(m[1], (4, Severity::Error, "w\ne".to_string()));
    }

    #[test]
    fn line_ranges_count_utf16_units() {
        let text = "{\n  \"名\": 1,\n  \"b\": 2\n}";
        assert_eq!(line_range_utf16(text, 1), (0, 1));
        // "名" is one UTF-16 unit (three UTF-8 bytes).
        assert_eq!(line_range_utf16(text, 2), (2, 11));
        assert_eq!(line_range_utf16(text, 3), (12, 20));
    }

    #[test]
    fn fields_are_looked_up_from_the_key_upwards() {
        assert_eq!(
            field_id_candidates("/zero_optimization/offload_param/device"),
            vec![
                "field-zero_optimization-offload_param-device",
                "field-zero_optimization-offload_param",
                "field-zero_optimization",
            ]
        );
    }
}
