//! `ds-studio-shared`: the DeepSpeed training-config model used by the browser (WASM) and the
//! server alike. It depends on no runtime or I/O crate, so it builds for
//! `wasm32-unknown-unknown`.
//!
//! - [`document`]: lossless hjson/JSON parsing and text-splicing edits.
//! - [`registry`]: every key DeepSpeed reads, with types, defaults, docs in English and Chinese.
//! - [`release`]: the DeepSpeed releases a config can be judged for (0.14.4 – 0.19.8).
//! - [`schema`]: the JSON Schema generated from the registry.
//! - [`launcher`]: what the HF Trainer and Accelerate do to a config before DeepSpeed sees it.
//! - [`validate`]: diagnostics (errors = what DeepSpeed rejects, warnings, hints).
//! - [`effective`]: the effective config with provenance of every value.
//! - [`estimate`]: per-GPU memory estimates for ZeRO 0-3.
//! - [`architecture`]: a user's own model read from its Hugging Face config.json, and its
//!   parameters part by part.
//! - [`presets`]: starting-point configs.
//! - [`api`]: request and response types of the REST API.
//! - [`upgrade`]: what changes for a config between two DeepSpeed releases, with fixes.
//! - [`fix`]: what a diagnostic's fix changes (old → new), and applying every fix that cannot collide.
//! - [`diff`]: semantic, text and validation differences between two configs.

pub mod api;
pub mod architecture;
pub mod builtin_gpt;
pub mod devices;
pub mod diff;
pub mod document;
pub mod effective;
pub mod estimate;
pub mod fit;
pub mod fix;
pub mod i18n;
pub mod job_files;
pub mod launch;
pub mod launcher;
pub mod memory;
pub mod merge;
pub mod presets;
pub mod registry;
pub mod release;
pub mod schema;
pub mod sweep;
pub mod trainer_edits;
pub mod upgrade;
pub mod validate;
pub mod vocab;

pub use document::Document;
pub use release::Release;
pub use validate::{
    validate, verdict, Context, Diagnostic, Launcher, Severity, Verdict, AUTO_KEYS,
};
