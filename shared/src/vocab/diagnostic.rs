//! What the validator reports.

use crate::i18n::Text;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// DeepSpeed's verdict on a config, as we predict it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Accepted,
    Rejected,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Rejected => "rejected",
        }
    }
}

/// One finding: severity, stable code, JSON pointer, bilingual message, optional fix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable, kebab-case identifier (each documented in `vocab::codes`, the book's codes page).
    pub code: String,
    /// JSON pointer to the offending value (or to the nearest parent for a missing key).
    pub path: String,
    pub message: Text,
    /// A JSON patch (RFC 6902) that fixes the problem, when there is an obvious one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Object>>))]
    pub fix: Option<serde_json::Value>,
    /// A fix on the text itself, where no JSON patch can say it (drop a comment or a trailing
    /// comma, quote a key): edits by byte offset into the validated text, not overlapping,
    /// applied together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_fix: Option<Vec<TextEdit>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl Diagnostic {
    /// A diagnostic; a message over [`crate::i18n::MAX_MESSAGE`] bytes is cut there.
    pub fn new(severity: Severity, code: &str, path: &str, message: Text) -> Diagnostic {
        let message = Text {
            en: crate::i18n::bounded(message.en),
            zh: crate::i18n::bounded(message.zh),
        };
        Diagnostic {
            severity,
            code: code.into(),
            path: path.into(),
            message,
            fix: None,
            text_fix: None,
            line: None,
            column: None,
        }
    }
    pub fn error(code: &str, path: &str, message: Text) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, path, message)
    }
    pub fn warning(code: &str, path: &str, message: Text) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, path, message)
    }
    pub fn info(code: &str, path: &str, message: Text) -> Diagnostic {
        Diagnostic::new(Severity::Info, code, path, message)
    }
    pub fn with_fix(mut self, patch: serde_json::Value) -> Diagnostic {
        self.fix = Some(patch);
        self
    }
}

/// Replace the bytes `start..end` of the text with `text` (an insertion when they are equal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TextEdit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// Applies a diagnostic's text fix to the text it was found in; `None` when an edit does not
/// fit the text (it changed since) or the edits overlap.
pub fn apply_text_fix(text: &str, edits: &[TextEdit]) -> Option<String> {
    let mut edits: Vec<&TextEdit> = edits.iter().collect();
    edits.sort_by_key(|e| e.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.start < at
            || e.end < e.start
            || !text.is_char_boundary(e.start)
            || !text.is_char_boundary(e.end)
            || e.end > text.len()
        {
            return None;
        }
        out.push_str(&text[at..e.start]);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(&text[at..]);
    Some(out)
}
