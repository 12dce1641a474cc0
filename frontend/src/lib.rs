//! ds-studio's web UI (Leptos, client-side rendered): the validation page, sign-in, the
//! template list and the template editor with live validation, versions and conflict handling.
//! The shared validator runs in the browser on each keystroke; the server is reached only
//! through `/api/v1` (see `api`).

mod api;
mod app;
mod clock;
pub mod components;
mod draft;
pub mod help;
pub mod history;
pub mod i18n;
mod job_helpers;
pub mod key_docs;
pub mod notify;
mod pages;
pub mod server_text;
pub mod session;

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(inline_js = "export function has_dom() { return typeof document !== 'undefined'; }")]
extern "C" {
    fn has_dom() -> bool;
}

/// Entry point called by the generated JS glue (does nothing outside a browser, e.g. in the
/// Node benchmark).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    if has_dom() {
        // index.html's "Loading…" line, there until the app starts.
        if let Some(boot) = leptos::prelude::document().get_element_by_id("boot-loading") {
            boot.remove();
        }
        leptos::mount::mount_to_body(app::App);
    }
}

/// Validates one config for a DeepSpeed release (`""`: the newest) and returns the number of
/// diagnostics (used by `cargo xtask bench` to time the validator in WASM under Node).
#[wasm_bindgen]
pub fn validate_for_bench(text: &str, world_size: u32, release: &str) -> usize {
    let ctx = ds_studio_shared::Context {
        deepspeed_version: release.to_string(),
        ..ds_studio_shared::Context::with_world_size(world_size)
    };
    ds_studio_shared::validate::validate_text(text, &ctx)
        .1
        .len()
}
