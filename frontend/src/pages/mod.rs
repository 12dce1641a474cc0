//! One component per route.

pub mod editor;
pub mod signin;
pub mod templates;
pub mod validate;
