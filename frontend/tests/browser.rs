//! UI components mounted in a real browser (headless Debian chromium through chromedriver, run
//! by `wasm-bindgen-test-runner`): what they put in the DOM and how they update it when their
//! signals change. `cargo xtask test` runs it with
//! `cargo test -p ds-studio-frontend --target wasm32-unknown-unknown --test browser`.
#![cfg(target_arch = "wasm32")]

use ds_studio_frontend::components::diagnostics::DiagnosticList;
use ds_studio_frontend::components::json_view::JsonText;
use ds_studio_frontend::i18n::Language;
use ds_studio_shared::i18n::{Lang, Text};
use ds_studio_shared::{validate, Context, Diagnostic, Document, Severity};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element in the page to mount a component into.
fn host() -> web_sys::HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let el = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&el).unwrap();
    el.dyn_into().unwrap()
}

/// Until the browser has run the next task (Leptos updates the DOM in microtasks before it).
async fn next_task() {
    let p = web_sys::js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
}

fn diag(code: &str, path: &str, msg: &str) -> Diagnostic {
    Diagnostic::new(Severity::Error, code, path, Text::new(msg, msg))
}

#[wasm_bindgen_test]
async fn a_new_diagnostic_adds_one_row_and_keeps_the_others() {
    let el = host();
    let diags = RwSignal::new(vec![diag("a", "/a", "first"), diag("b", "/b", "second")]);
    let handle = leptos::mount::mount_to(el.clone(), move || {
        provide_context(Language(RwSignal::new(Lang::En)));
        view! { <DiagnosticList diagnostics=diags /> }
    });
    next_task().await;
    let rows = el.query_selector_all("li.diag").unwrap();
    assert_eq!(rows.length(), 2);
    let second = rows.item(1).unwrap();

    // One more in front: the row of "second" is the same DOM node, moved, not rebuilt.
    diags.update(|d| d.insert(0, diag("z", "/z", "new")));
    next_task().await;
    let rows = el.query_selector_all("li.diag").unwrap();
    assert_eq!(rows.length(), 3);
    assert!(rows.item(2).unwrap().is_same_node(Some(&second)));
    assert_eq!(
        rows.item(0)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.get_attribute("data-code"))
            .as_deref(),
        Some("z")
    );
    drop(handle);
}

#[wasm_bindgen_test]
async fn the_gutter_follows_the_text_and_its_diagnostics() {
    let el = host();
    let text = RwSignal::new("{\n  \"train_batch_size\": 8\n}".to_string());
    let diags =
        Memo::new(move |_| text.with(|t| validate(&Document::parse(t), &Context::default())));
    let status = RwSignal::new(None::<String>);
    let handle = leptos::mount::mount_to(el.clone(), move || {
        provide_context(Language(RwSignal::new(Lang::En)));
        view! { <JsonText text diagnostics=diags hidden=Signal::derive(|| false) io_status=status label=Signal::derive(|| "JSON".to_string()) /> }
    });
    next_task().await;
    let numbers = el.query_selector(".line-numbers").unwrap().unwrap();
    assert_eq!(numbers.text_content().as_deref(), Some("1\n2\n3"));
    assert_eq!(el.query_selector_all(".marker.error").unwrap().length(), 0);

    // A misspelled key on a new line 3: one more line number, an error marker on line 3.
    text.set("{\n  \"train_batch_size\": 8,\n  \"zero_optimizaton\": {}\n}".into());
    next_task().await;
    assert_eq!(numbers.text_content().as_deref(), Some("1\n2\n3\n4"));
    let marker = el
        .query_selector(".marker[data-line=\"3\"]")
        .unwrap()
        .expect("a marker on line 3");
    assert!(marker
        .get_attribute("title")
        .unwrap_or_default()
        .contains("zero_optimizaton"));
    // Typing in the textarea writes the signal.
    let area: web_sys::HtmlTextAreaElement = el
        .query_selector("textarea")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    area.set_value("{}");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    area.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    next_task().await;
    assert_eq!(text.get_untracked(), "{}");
    drop(handle);
}
