// Starts the Leptos app (a file rather than an inline script, so the Content-Security-Policy
// can forbid inline scripts).
import init from "/pkg/ds_studio_frontend.js";
init({ module_or_path: "/pkg/ds_studio_frontend_bg.wasm" });
