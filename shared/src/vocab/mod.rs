//! The validation vocabulary: where a config runs ([`Context`], the [`Launcher`] and the
//! training arguments it is given, [`args`]) and what is said about it ([`Diagnostic`],
//! [`Verdict`], the [`TextEdit`] a fix makes).
//!
//! It sits below both the validator (`validate`) and the launchers (`launcher`), which speak
//! it to each other; it imports neither. `validate` and `launcher` re-export these names where
//! they always were (`validate::Context`, `launcher::TrainerArgs`).

pub mod args;
pub mod codes;
mod context;
mod diagnostic;

pub use args::{ArgError, TrainerArgs};
pub use context::{Context, Launcher, AUTO_KEYS};
pub use diagnostic::{apply_text_fix, Diagnostic, Severity, TextEdit, Verdict};
