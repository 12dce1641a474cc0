//! ds-studio's web UI. For now one page: paste a config, see DeepSpeed's verdict and every
//! diagnostic, computed in the browser by the shared validator on each keystroke. The full
//! editor comes later (see the issues).

mod app;

use wasm_bindgen::prelude::wasm_bindgen;

/// Entry point called by the generated JS glue.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
