//! Unsaved editor changes kept in this browser (`localStorage`, `ds-studio.draft.<template>`),
//! so that a reload, a closed tab or a link followed by mistake loses nothing: the editor offers
//! them back on the next visit (restore or discard). Saving, or editing back to the saved text,
//! removes the draft.

use ds_studio_shared::Context;
use serde::{Deserialize, Serialize};

/// What the editor held that its version did not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    /// The version the changes were made on (a save goes through the conflict check from it).
    pub base_version: i64,
    pub text: String,
    pub context: Context,
    /// When it was last written (`2026-11-24 22:15:03`, UTC).
    pub saved_at: String,
}

fn key(template: i64) -> String {
    format!("ds-studio.draft.{template}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The draft kept for `template`, if any (one that no longer reads is dropped).
pub fn load(template: i64) -> Option<Draft> {
    let s = storage()?;
    let raw = s.get_item(&key(template)).ok()??;
    let draft = serde_json::from_str(&raw).ok();
    if draft.is_none() {
        let _ = s.remove_item(&key(template));
    }
    draft
}

/// Keeps `draft` for `template` (a full storage is ignored: the editor still holds the text).
pub fn store(template: i64, draft: &Draft) {
    if let (Some(s), Ok(json)) = (storage(), serde_json::to_string(draft)) {
        let _ = s.set_item(&key(template), &json);
    }
}

pub fn clear(template: i64) {
    if let Some(s) = storage() {
        let _ = s.remove_item(&key(template));
    }
}

/// What a draft changes against the saved version: the JSON pointers of its changes (at most
/// `max`, with how many more), whether the context differs, or `None` when the kept text does
/// not parse.
pub fn changes(
    draft: &Draft,
    saved: &serde_json::Value,
    saved_context: &Context,
    max: usize,
) -> Option<(Vec<String>, usize, bool)> {
    let kept = ds_studio_shared::Document::parse(&draft.text).to_value()?;
    let all = ds_studio_shared::diff::semantic(saved, &kept);
    let paths: Vec<String> = all
        .iter()
        .take(max)
        .map(|c| {
            if c.path.is_empty() {
                "/".to_string()
            } else {
                c.path.clone()
            }
        })
        .collect();
    Some((
        paths,
        all.len().saturating_sub(max),
        draft.context != *saved_context,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_names_the_keys_it_changes() {
        let draft = Draft {
            base_version: 1,
            text: r#"{"train_batch_size": 16, "zero_optimization": {"stage": 3}, "a": 1, "b": 2}"#
                .into(),
            context: Context::default(),
            saved_at: "2026-11-25 01:00:00".into(),
        };
        let saved = serde_json::json!({"train_batch_size": 8, "zero_optimization": {"stage": 2}});
        let (paths, more, context) = changes(&draft, &saved, &Context::default(), 2).unwrap();
        assert_eq!(paths, vec!["/train_batch_size", "/zero_optimization/stage"]);
        assert_eq!(more, 2);
        assert!(!context);
        let other = Context {
            world_size: 8,
            ..Context::default()
        };
        assert!(changes(&draft, &saved, &other, 5).unwrap().2);
        let broken = Draft {
            text: "{".into(),
            ..draft
        };
        assert!(changes(&broken, &saved, &Context::default(), 5).is_none());
    }
}
