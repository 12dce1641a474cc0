//! Cross-key rules, one module per area. Each names the DeepSpeed rule it mirrors
//! (`rules.md` numbering) and uses DeepSpeed's own message as the English text.

mod auto;
pub(crate) mod batch;
mod elasticity;
mod engine_start;
mod hints;
mod precision;
mod sections;
mod warnings;
mod zenflow;
pub(crate) mod zero;

use super::{Diagnostic, View};

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    sections::run(view, out);
    // With elasticity enabled (before 0.19.8) DeepSpeed computes the batch triple itself.
    if !elasticity::run(view, out) {
        batch::run(view, out);
    }
    precision::run(view, out);
    zero::run(view, out);
    zenflow::run(view, out);
    engine_start::run(view, out);
    auto::run(view, out);
    warnings::run(view, out);
    hints::run(view, out);
}

/// `/a/b` from `a.b`.
pub(crate) fn ptr(dotted: &str) -> String {
    let mut out = String::with_capacity(dotted.len() + 1);
    for t in dotted.split('.') {
        out.push('/');
        out.push_str(&crate::document::escape_token(t));
    }
    out
}
