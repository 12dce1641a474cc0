//! One component per route.

pub mod diff;
pub mod editor;
pub mod shared;
pub mod signin;
pub mod templates;
pub mod validate;
