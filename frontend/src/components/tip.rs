//! Tooltips everyone can read: an ⓘ button beside the thing it explains, whose text shows on
//! hover, on keyboard focus and on tap (a click toggles it; Escape or leaving hides it), tied to
//! the button by `aria-describedby` so screen readers read it too. Replaces `title`
//! attributes, which keyboard and touch users never see.

use leptos::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// An id no other tooltip on the page has.
fn fresh_id() -> String {
    format!("tip-{}", NEXT.fetch_add(1, Ordering::Relaxed))
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
    let shown = move || {
        if let Some(cb) = on_show {
            cb.run(())
        }
    };
    let id = fresh_id();
    let open = RwSignal::new(false);
    // Escape hides it even while the button keeps the focus.
    let dismissed = RwSignal::new(false);
    view! {
        <span class="tip" class:open=move || open.get() class:dismissed=move || dismissed.get()
            on:mouseenter=move |_| shown() on:mouseleave=move |_| open.set(false)>
            <button type="button" class="info" aria-label=move || label.get() aria-describedby=id.clone()
                aria-expanded=move || open.get().to_string()
                on:click=move |ev| { ev.prevent_default(); ev.stop_propagation(); dismissed.set(false); shown(); open.update(|o| *o = !*o); }
                on:focus=move |_| { dismissed.set(false); shown(); }
                on:blur=move |_| open.set(false)
                on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { ev.stop_propagation(); open.set(false); dismissed.set(true); }>
                "ⓘ"</button>
            <span role="tooltip" id=id class="tip-body">{move || text.get()}</span>
        </span>
    }
}
