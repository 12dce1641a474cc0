//! Checking a config: the one place a config sent to the studio (to validate, to save as a
//! version, to fork, a sweep's best point) is bounded, its context checked, and judged. The
//! judging parses the whole config, so callers on the async workers use
//! [`check_config_blocking`], which runs it on the blocking pool behind a validation slot
//! ([`Limits::cpu`](crate::limits::Limits::cpu)).

use super::DomainError;
use crate::state::AppState;
use crate::store::templates::CheckedConfig;
use ds_studio_shared::api::config_text_of;
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::Context;
use serde_json::Value;

/// Largest config the studio takes (1 MiB), as text.
pub const MAX_CONFIG_BYTES: usize = 1024 * 1024;

/// Validates a config given as a JSON value or as text, in `context`.
pub fn check_config(
    config: Option<&Value>,
    text: Option<&str>,
    context: Context,
) -> Result<CheckedConfig, DomainError> {
    if config.is_some_and(|c| !c.is_object()) {
        return Err(DomainError::Invalid(
            "`config` must be a JSON object; send anything else as `config_text`".into(),
        ));
    }
    let text = config_text_of(config, text).map_err(DomainError::Invalid)?;
    if text.len() > MAX_CONFIG_BYTES {
        return Err(DomainError::TooLarge(format!(
            "the config is {} bytes; the limit is {MAX_CONFIG_BYTES} bytes (1 MiB)",
            text.len()
        )));
    }
    if context.world_size == 0 {
        return Err(DomainError::Invalid(
            "context.world_size must be at least 1".into(),
        ));
    }
    for (name, n) in [
        ("tensor_parallel", context.tensor_parallel),
        ("pipeline_parallel", context.pipeline_parallel),
        ("sequence_parallel", context.sequence_parallel),
    ] {
        if n == 0 {
            return Err(DomainError::Invalid(format!(
                "context.{name} must be at least 1 (1: not used)"
            )));
        }
    }
    let release = context
        .release()
        .map_err(|e| DomainError::Invalid(format!("context.deepspeed_version: {e}")))?;
    let context = Context {
        deepspeed_version: release.to_string(),
        ..context
    };
    let (_, diagnostics) = validate_text(&text, &context);
    Ok(CheckedConfig {
        verdict: verdict(&diagnostics),
        text,
        context,
        diagnostics,
    })
}

/// [`check_config`] on the blocking pool behind a validation slot ([`Limits::cpu`]).
///
/// [`Limits::cpu`]: crate::limits::Limits::cpu
pub async fn check_config_blocking(
    s: &AppState,
    config: Option<Value>,
    text: Option<String>,
    context: Context,
) -> Result<CheckedConfig, DomainError> {
    s.limits
        .cpu(move || check_config(config.as_ref(), text.as_deref(), context))
        .await?
}
