//! Pieces shared by the pages.

pub mod chart;
pub mod context_bar;
pub mod diagnostics;
pub mod effective_panel;
pub mod form;
pub mod import_export;
pub mod json_view;
pub mod launch_panel;
pub mod memory_panel;
pub mod run_dialog;
pub mod states;
pub mod team_pick;
pub mod template_details;
pub mod tip;
pub mod trainer_args;
pub mod upgrade_panel;
