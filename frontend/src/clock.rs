//! The browser's clock, for durations and for names made by a click (outside a browser, in
//! native tests, a fixed value).

/// Milliseconds since the epoch, from the browser's clock (0 outside a browser).
pub fn js_sys_now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

/// The browser's time as `2026-11-22 01:50:12` (UTC), to tell apart names made by a click
/// (a fork, a template from a preset).
pub fn now_label() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let iso: String = web_sys::js_sys::Date::new_0().to_iso_string().into();
        iso.get(..19).unwrap_or(&iso).replace('T', " ")
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        String::from("now")
    }
}
