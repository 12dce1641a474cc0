//! One component per route.

pub mod compare;
pub mod diff;
pub mod editor;
pub mod job;
pub mod job_summary;
pub mod jobs;
pub mod settings;
pub mod shared;
pub mod signin;
pub mod sweep;
pub mod sweep_new;
pub mod team;
pub mod templates;
pub mod validate;
pub mod version;
