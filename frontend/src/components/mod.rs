//! Pieces shared by the pages.

pub mod chart;
pub mod context_bar;
pub mod diagnostics;
pub mod effective_panel;
pub mod failure_card;
pub mod form;
pub mod import_export;
pub mod json_view;
pub mod launch_panel;
pub mod memory_panel;
pub mod model_picker;
pub mod run_dialog;
pub mod states;
pub mod team_pick;
pub mod template_details;
pub mod tip;
pub mod trainer_args;
pub mod upgrade_panel;

use leptos::prelude::*;

/// Scrolls the element `id` into view once it is rendered: what a click on the fixed action bar
/// opens (the fork form, a share link, a conflict, an error) lands at the end of the editor,
/// often below the window. `top`: its top edge at the top (a tall card), else its bottom edge
/// at the bottom; `scroll-margin` in the stylesheet keeps it clear of the bar.
pub fn reveal(id: &'static str, top: bool) {
    request_animation_frame(move || {
        if let Some(el) = document().get_element_by_id(id) {
            el.scroll_into_view_with_bool(top);
        }
    });
}
