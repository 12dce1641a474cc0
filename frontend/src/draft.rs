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
