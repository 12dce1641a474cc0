//! Pieces shared by the pages.

pub mod context_bar;
pub mod diagnostics;
pub mod form;
