//! The descriptions of the config keys (en + zh) for the form's tooltips. They are not compiled
//! into the WASM (62 KB gzipped of text the first screen does not need): the server serves
//! them at `/pkg/key-docs.json` from its own registry (`backend/server/src/app.rs`) and the UI
//! fetches them once, when a form is first shown. Until it arrives (or if it cannot be fetched) a tooltip shows the default,
//! allowed values and stage notes without the description.

use ds_studio_shared::registry::Doc;
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Where the server serves the descriptions.
pub const URL: &str = "/pkg/key-docs.json";

static DOCS: OnceLock<HashMap<String, Doc>> = OnceLock::new();

/// The description of a registry path, once loaded.
pub fn get(path: &str) -> Option<&'static Doc> {
    DOCS.get()?.get(path)
}

/// Stores the descriptions (the first call wins). `false` when `json` is not a map of docs.
pub fn install(json: &str) -> bool {
    match serde_json::from_str::<HashMap<String, Doc>>(json) {
        Ok(map) => {
            let _ = DOCS.set(map);
            true
        }
        Err(_) => false,
    }
}

/// Whether the descriptions have arrived, as a signal tooltips can depend on; the first call
/// starts the fetch.
#[derive(Clone, Copy)]
pub struct KeyDocs(pub RwSignal<bool>);

impl KeyDocs {
    /// The app's instance (provided at the root), fetching the file the first time.
    pub fn use_loaded() -> RwSignal<bool> {
        let docs = expect_context::<KeyDocs>();
        docs.ensure();
        docs.0
    }

    /// Starts fetching the file unless it is here or on its way (for a tooltip that fetches
    /// the full docs only when first opened).
    pub fn ensure(self) {
        let docs = self;
        if !docs.0.get_untracked() && DOCS.get().is_none() {
            #[cfg(target_arch = "wasm32")]
            {
                static STARTED: std::sync::atomic::AtomicBool =
                    std::sync::atomic::AtomicBool::new(false);
                if !STARTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
                    let loaded = docs.0;
                    leptos::task::spawn_local(async move {
                        if let Ok(resp) = gloo_net::http::Request::get(URL).send().await {
                            if let Ok(text) = resp.text().await {
                                if install(&text) {
                                    loaded.set(true);
                                }
                            }
                        }
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_installed_from_the_merged_file() {
        assert!(!install("[1, 2]"));
        assert!(install(
            r#"{"train_batch_size": {"en": "Global batch", "zh": "全局批大小"}}"#
        ));
        assert_eq!(get("train_batch_size").unwrap().zh, "全局批大小");
        assert!(get("nope").is_none());
    }
}
