//! Pieces shared by the pages.

pub mod diagnostics;
pub mod form;
