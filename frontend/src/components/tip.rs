//! Tooltips everyone can read: an ⓘ button beside the thing it explains, whose text shows on
//! hover, on keyboard focus and on tap (a tap or click toggles it; Escape, blur or leaving
//! hides it), tied to the button by `aria-describedby` so screen readers read it too, with
//! `aria-expanded` saying whether it shows. Replaces `title` attributes, which keyboard and
//! touch users never see. The text shown is a copy mounted on `<body>` (a `Portal`), placed in
//! the window (`position: fixed`, kept inside the viewport), so neither a scrolling or contained
//! form section nor the window's edge cuts it; the text in place (hidden) is what
//! `aria-describedby` names.

use leptos::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// An id no other tooltip on the page has.
fn fresh_id() -> String {
    format!("tip-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Widest a tooltip gets (px), as in the style sheet.
const WIDTH: f64 = 448.0;

/// Where the text goes for a button at `(left, top, bottom)` in a `vw` × `vh` window: below
/// the button, or above it near the bottom edge; never past the left or right edge.
pub fn placement(left: f64, top: f64, bottom: f64, vw: f64, vh: f64) -> String {
    let x = left.min(vw - WIDTH.min(vw - 16.0) - 8.0).max(8.0);
    if bottom > vh - 180.0 {
        format!("left:{x:.0}px;bottom:{:.0}px", (vh - top + 4.0).max(0.0))
    } else {
        format!("left:{x:.0}px;top:{:.0}px", bottom + 4.0)
    }
}

#[component]
pub fn Tip(
    /// What the tooltip says (line breaks are kept).
    #[prop(into)]
    text: Signal<String>,
    /// What the button is called for screen readers ("About zero_optimization.stage").
    #[prop(into)]
    label: Signal<String>,
    /// Called when it is first shown (to fetch what it says in full).
    #[prop(optional)]
    on_show: Option<Callback<()>>,
) -> impl IntoView {
    let id = fresh_id();
    let text_id = id.clone();
    // Copy, for the closures of the portal.
    let portal_id = StoredValue::new(id.clone());
    // Opened by a click, a tap or keyboard focus; shown while hovered too.
    let open = RwSignal::new(false);
    let hovered = RwSignal::new(false);
    let style = RwSignal::new(String::new());
    // When the focus came, so that the click of the same tap does not close it again.
    let focused_at = StoredValue::new(f64::NEG_INFINITY);
    let button = NodeRef::<leptos::html::Button>::new();
    let shown = move || open.get() || hovered.get();
    let place = move || {
        if let Some(cb) = on_show {
            cb.run(());
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(b) = button.get_untracked() {
            let r = b.get_bounding_client_rect();
            let w = window();
            let vw = w
                .inner_width()
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(1280.0);
            let vh = w
                .inner_height()
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(800.0);
            style.set(placement(r.left(), r.top(), r.bottom(), vw, vh));
        }
    };
    view! {
        <span class="tip" class:shown=shown
            on:mouseenter=move |_| { place(); hovered.set(true); }
            on:mouseleave=move |_| hovered.set(false)>
            <button type="button" class="info" node_ref=button aria-label=move || label.get() aria-describedby=id.clone()
                aria-expanded=move || shown().to_string()
                on:click=move |ev| {
                    ev.prevent_default();
                    ev.stop_propagation();
                    if crate::clock::js_sys_now() - focused_at.get_value() > 400.0 {
                        place();
                        open.update(|o| *o = !*o);
                    }
                }
                on:focus=move |_| { focused_at.set_value(crate::clock::js_sys_now()); place(); open.set(true); }
                on:blur=move |_| { open.set(false); hovered.set(false); }
                on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { ev.stop_propagation(); open.set(false); hovered.set(false); }>
                "ⓘ"</button>
            <span role="tooltip" id=text_id class="tip-text">{move || text.get()}</span>
            <Show when=shown>
                <leptos::portal::Portal>
                    <div class="tip-body" data-tip=portal_id.get_value() aria-hidden="true" style=move || style.get()>{move || text.get()}</div>
                </leptos::portal::Portal>
            </Show>
        </span>
    }
}

#[cfg(test)]
mod tests {
    use super::placement;

    #[test]
    fn the_text_stays_in_the_window() {
        // Near the right edge: pulled left so that its full width fits.
        assert_eq!(
            placement(1200.0, 100.0, 120.0, 1280.0, 800.0),
            "left:824px;top:124px"
        );
        // Near the bottom: above the button.
        assert_eq!(
            placement(100.0, 700.0, 720.0, 1280.0, 800.0),
            "left:100px;bottom:104px"
        );
        // A narrow window: never past the left edge.
        assert_eq!(
            placement(10.0, 10.0, 30.0, 300.0, 800.0),
            "left:8px;top:34px"
        );
    }
}
