//! Import and export of the config in the editor: a file chosen or dropped on the text replaces
//! it (hjson with comments and trailing commas is fine; it is kept as written), and the current
//! config is downloaded or copied as canonical JSON: comments dropped, key order, unknown keys
//! and number spellings kept (`Document::canonical_json`).

use crate::i18n::t;
use ds_studio_shared::Document;
use leptos::prelude::*;

/// What an export writes: canonical JSON when the text parses, else the text as it is (nothing
/// is lost by exporting a config that has a syntax error).
pub fn export_text(text: &str) -> String {
    let doc = Document::parse(text);
    if doc.is_ok() {
        doc.canonical_json().unwrap_or_else(|| text.to_string())
    } else {
        text.to_string()
    }
}

/// A file name for the download: the template's name, made safe, with `.json`.
pub fn file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    let safe = safe.trim_matches('-');
    format!("{}.json", if safe.is_empty() { "ds_config" } else { safe })
}

#[cfg(target_arch = "wasm32")]
pub(crate) mod browser {
    use wasm_bindgen::JsCast;

    use leptos::prelude::*;

    /// Replaces the config with a file's text (chosen or dropped) and says so in `status`.
    pub fn load(file: web_sys::File, text: RwSignal<String>, status: RwSignal<Option<String>>) {
        let fname = file.name();
        leptos::task::spawn_local(async move {
            match read(file).await {
                Ok(s) => {
                    text.set(s);
                    status.set(Some(format!("{fname} ✓")));
                }
                Err(e) => status.set(Some(e)),
            }
        });
    }

    /// Reads a file's text.
    pub async fn read(file: web_sys::File) -> Result<String, String> {
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .map_err(|e| format!("cannot read the file: {e:?}"))?;
        text.as_string()
            .ok_or_else(|| "the file is not text".into())
    }

    /// Offers `text` as a download named `name`.
    pub fn download(name: &str, text: &str) -> Result<(), String> {
        download_as(name, text, "application/json")
    }

    /// Offers `text` as a download named `name` of the MIME type `mime`.
    pub fn download_as(name: &str, text: &str, mime: &str) -> Result<(), String> {
        let err = |e: wasm_bindgen::JsValue| format!("cannot export: {e:?}");
        let parts = web_sys::js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
        let opts = web_sys::BlobPropertyBag::new();
        opts.set_type(mime);
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(err)?;
        let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or("no document")?;
        let a: web_sys::HtmlAnchorElement = document
            .create_element("a")
            .map_err(err)?
            .dyn_into()
            .map_err(|_| "not an anchor".to_string())?;
        a.set_href(&url);
        a.set_download(name);
        a.click();
        let _ = web_sys::Url::revoke_object_url(&url);
        Ok(())
    }

    pub async fn copy(text: &str) -> Result<(), String> {
        let clipboard = web_sys::window()
            .ok_or("no window")?
            .navigator()
            .clipboard();
        wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
            .await
            .map(|_| ())
            .map_err(|e| format!("cannot copy: {e:?}"))
    }
}

/// The import/export buttons, and a drop zone over `text`'s editor.
#[component]
pub fn ImportExport(
    text: RwSignal<String>,
    #[prop(into)] name: Signal<String>,
    /// What happened last (imported, copied, an error), for the user.
    status: RwSignal<Option<String>>,
    /// The text cannot be changed (a viewer): no import is offered, only download and copy.
    #[prop(optional, into)]
    read_only: Option<Signal<bool>>,
) -> impl IntoView {
    let read_only = move || read_only.is_some_and(|r| r.get());
    #[cfg(target_arch = "wasm32")]
    let on_file = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
        if let Some(file) = input
            .as_ref()
            .and_then(|i| i.files())
            .and_then(|f| f.get(0))
        {
            browser::load(file, text, status);
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    let on_file = move |_ev: leptos::ev::Event| {};
    let download = move |_| {
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = browser::download(
            &file_name(&name.get_untracked()),
            &export_text(&text.get_untracked()),
        ) {
            status.set(Some(e));
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (name, status, text);
    };
    // Read the language here: contexts are not reachable from inside a spawned task.
    let copied = t("io.copied");
    let copy = move |_| {
        #[cfg(target_arch = "wasm32")]
        leptos::task::spawn_local(async move {
            match browser::copy(&export_text(&text.get_untracked())).await {
                Ok(()) => status.set(Some(copied().to_string())),
                Err(e) => status.set(Some(e)),
            }
        });
        #[cfg(not(target_arch = "wasm32"))]
        let _ = copied;
    };
    view! {
        <div class="toolbar io">
            <Show when=move || !read_only()>
                <label class="button" for="import-file">{t("io.import")}</label>
                <input id="import-file" type="file" accept=".json,.hjson,.txt,application/json" class="visually-hidden" on:change=on_file />
            </Show>
            <button id="export-download" on:click=download>{t("io.download")}</button>
            <button id="export-copy" on:click=copy>{t("io.copy")}</button>
            {move || status.get().map(|s| view! { <span id="io-status" class="muted">{s}</span> })}
        </div>
    }
}

/// Handles a file dropped on the editor: its text replaces the config.
pub fn on_drop(
    ev: leptos::ev::DragEvent,
    text: RwSignal<String>,
    status: RwSignal<Option<String>>,
) {
    ev.prevent_default();
    #[cfg(target_arch = "wasm32")]
    if let Some(file) = ev
        .data_transfer()
        .and_then(|d| d.files())
        .and_then(|f| f.get(0))
    {
        browser::load(file, text, status);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (text, status);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_are_canonical_json_without_comments_and_lose_nothing() {
        let text = "{\n  // tuned for 8 GPUs\n  \"train_batch_size\": 32,\n  \"my_key\": {\"x\": 5e8,},\n  \"zero_optimization\": {\"stage\": 2}, # trailing\n}";
        let out = export_text(text);
        assert!(!out.contains("//") && !out.contains('#'), "{out}");
        assert!(out.contains("5e8"), "{out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["train_batch_size", "my_key", "zero_optimization"]);
        // A text that does not parse is exported as it is.
        assert_eq!(export_text("{ oops"), "{ oops");
        assert_eq!(file_name("llama 7b/z3"), "llama-7b-z3.json");
        assert_eq!(file_name("///"), "ds_config.json");
    }
}

/// A button that copies `text` and says so.
#[component]
pub fn CopyButton(text: String) -> impl IntoView {
    let copied = RwSignal::new(false);
    let copy = move |_| {
        #[cfg(target_arch = "wasm32")]
        {
            let text = text.clone();
            leptos::task::spawn_local(async move {
                if crate::components::import_export::browser::copy(&text)
                    .await
                    .is_ok()
                {
                    copied.set(true);
                }
            });
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = &text;
    };
    view! {
        <button type="button" class="copy" on:click=copy>
            {move || if copied.get() { crate::i18n::t("users.copied")() } else { crate::i18n::t("settings.copy")() }}
        </button>
    }
}
