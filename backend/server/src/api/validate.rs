//! `POST /api/v1/validate` (the same validator the browser runs), `GET /api/v1/schema` (the
//! newest release's JSON Schema), `GET /api/v1/schema/{release}.json` (one release's, usable as
//! `$schema` in an editor), `GET /api/v1/deepspeed/releases` and `POST
//! /api/v1/trainer-args/import` (an HF training file's arguments, for the context). None needs an account;
//! anonymous validation and imports are rate-limited per client address (one window), and both
//! run through `Limits::cpu`.

use super::auth::MaybeCaller;
use super::client_ip::ClientIp;
use super::error::ApiError;
use super::json::{ApiJson, ApiQuery};
use super::typed::{At, Reply};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    ReleasesResponse, TrainerArgsImport, ValidateRequest, ValidateResponse,
};
use ds_studio_shared::launcher::import::Imported;
use ds_studio_shared::Release;

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::ValidateConfig, validate_handler)
        .at(ep::GetSchema, || async {
            Ok::<_, ApiError>(ApiJson(ds_studio_shared::schema::schema().to_value()))
        })
        .at(ep::GetReleaseSchema, schema_of_release)
        .at(ep::ListReleases, || async {
            Ok::<_, ApiError>(ApiJson(ReleasesResponse::current()))
        })
        .at(ep::ImportTrainerArgs, import_trainer_args)
}

/// Reads the HF Trainer's arguments from a training file: bounded (1 MiB, 64 levels, 100,000
/// values with aliases counted), on the blocking pool behind the validation slots, and
/// limited per client address for anonymous callers like `/validate`.
async fn import_trainer_args(
    State(s): State<AppState>,
    caller: MaybeCaller,
    ip: ClientIp,
    ApiJson(req): ApiJson<TrainerArgsImport>,
) -> Result<ApiJson<Imported>, ApiError> {
    if caller.0.is_none() {
        s.limits
            .validate_ips
            .hit(&ip.key())
            .map_err(ApiError::TooManyRequests)?;
    }
    s.limits
        .cpu(move || ds_studio_shared::launcher::import::import(&req.text))
        .await?
        .map(ApiJson)
        .map_err(|e| ApiError::Unprocessable(e.0))
}

/// The variant of `GET /schema/{release}.json`: `?launcher=hf-trainer&lang=zh&keywords=standard`.
#[derive(serde::Deserialize)]
pub(crate) struct SchemaQuery {
    launcher: Option<String>,
    lang: Option<String>,
    keywords: Option<String>,
}

/// `GET /schema/0.18.4.json` (or `/schema/0.18.4`): the JSON Schema of one release, for the
/// launcher and language asked for; a bad release or option names the problem. Each variant
/// never changes within a server version: it carries an ETag (`If-None-Match` answers 304
/// without any work) and the last [`SCHEMA_CACHE`] variants asked for are kept, so a flood of
/// requests costs a lookup, not 8 ms of CPU each.
async fn schema_of_release(
    Path(release): Path<String>,
    ApiQuery(q): ApiQuery<SchemaQuery>,
    headers: HeaderMap,
) -> Result<Reply<serde_json::Value>, ApiError> {
    let name = release.strip_suffix(".json").unwrap_or(&release);
    let release = Release::parse(name).map_err(|e| ApiError::NotFound(e.to_string()))?;
    let launcher: ds_studio_shared::Launcher = q
        .launcher
        .as_deref()
        .unwrap_or("deepspeed")
        .parse()
        .map_err(ApiError::BadRequest)?;
    let lang: ds_studio_shared::i18n::Lang = q
        .lang
        .as_deref()
        .unwrap_or("en")
        .parse()
        .map_err(ApiError::BadRequest)?;
    let editor_keywords = match q.keywords.as_deref() {
        None | Some("editor") => true,
        Some("standard") => false,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "unknown keywords '{other}' (use editor or standard)"
            )))
        }
    };
    let key = format!(
        "{release}-{}-{}-{}",
        launcher.as_str(),
        if lang == ds_studio_shared::i18n::Lang::Zh {
            "zh"
        } else {
            "en"
        },
        if editor_keywords {
            "editor"
        } else {
            "standard"
        }
    );
    let etag = format!("\"schema-{}-{key}\"", env!("CARGO_PKG_VERSION"));
    let headers_out = |etag: &str| {
        [
            (header::ETAG, etag.to_string()),
            (header::CACHE_CONTROL, "public, max-age=86400".to_string()),
        ]
    };
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        // RFC 9110: `*` matches any current representation, and the comparison is weak
        // (a `W/` prefix does not matter).
        .is_some_and(|v| {
            v.split(',').any(|e| {
                let e = e.trim();
                e == "*" || e.strip_prefix("W/").unwrap_or(e) == etag
            })
        })
    {
        return Ok(Reply::empty(StatusCode::NOT_MODIFIED, headers_out(&etag)));
    }
    let body = match cached_schema(&key) {
        Some(b) => b,
        None => {
            let opts = ds_studio_shared::schema::Options {
                release,
                launcher,
                lang,
                editor_keywords,
            };
            // About 5 ms of generation: off the async workers.
            let bytes = tokio::task::spawn_blocking(move || {
                serde_json::to_vec(&ds_studio_shared::schema::schema_with(&opts))
            })
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .map_err(|e| ApiError::Internal(e.to_string()))?;
            let bytes = std::sync::Arc::new(bytes);
            keep_schema(key, bytes.clone());
            bytes
        }
    };
    Ok(Reply::serialized(headers_out(&etag), body.as_ref().clone()))
}

/// Schema variants kept in memory (each about 625 KB).
pub const SCHEMA_CACHE: usize = 16;

type SchemaCache = std::sync::Mutex<Vec<(String, std::sync::Arc<Vec<u8>>)>>;

fn schema_cache() -> &'static SchemaCache {
    static CACHE: std::sync::OnceLock<SchemaCache> = std::sync::OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// A kept variant, moved to the front (most recently used).
fn cached_schema(key: &str) -> Option<std::sync::Arc<Vec<u8>>> {
    let mut c = schema_cache().lock().unwrap_or_else(|e| e.into_inner());
    let at = c.iter().position(|(k, _)| k == key)?;
    let hit = c.remove(at);
    let bytes = hit.1.clone();
    c.insert(0, hit);
    Some(bytes)
}

/// Keeps a variant, dropping the least recently used past [`SCHEMA_CACHE`].
fn keep_schema(key: String, bytes: std::sync::Arc<Vec<u8>>) {
    let mut c = schema_cache().lock().unwrap_or_else(|e| e.into_inner());
    c.retain(|(k, _)| *k != key);
    c.insert(0, (key, bytes));
    c.truncate(SCHEMA_CACHE);
}

/// Anyone may validate; anonymous callers are limited per client address, and validation runs
/// on the blocking pool behind the server's validation slots.
pub(crate) async fn validate_handler(
    State(s): State<AppState>,
    caller: MaybeCaller,
    ip: ClientIp,
    ApiJson(req): ApiJson<ValidateRequest>,
) -> Result<ApiJson<ValidateResponse>, ApiError> {
    if caller.0.is_none() {
        s.limits
            .validate_ips
            .hit(&ip.key())
            .map_err(ApiError::TooManyRequests)?;
    }
    let checked = crate::domain::config_check::check_config_blocking(
        &s,
        req.config,
        req.config_text,
        req.context.unwrap_or_default(),
    )
    .await?;
    Ok(ApiJson(ValidateResponse {
        verdict: checked.verdict,
        diagnostics: checked.diagnostics,
    }))
}
