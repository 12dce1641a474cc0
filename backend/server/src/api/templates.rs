//! Templates and their immutable versions: create, list (search by name and tag), rename,
//! delete, save a version on a base (409 with the head when someone saved meanwhile), read a
//! version (with an ETag), diff any two versions (also across templates), fork.

use super::auth::Caller;
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, ApiQuery, JsonOrDefault, CONFIG_LIMIT};
use super::paging::{page_bounds, PageQuery};
use crate::api::access;
use crate::state::AppState;
use crate::store::templates::{CheckedConfig, NewTemplate, TemplateFilter};
use crate::store::StoreError;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use ds_studio_shared::api::{
    config_text_of, Diff, ForkRequest, Page, Role, Template, TemplateCreate, TemplateUpdate,
    Version, VersionCreate, VersionRef, VersionSummary,
};
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::{diff, Context};
use serde::Deserialize;
use serde_json::Value;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/templates", get(list).post(create))
        .route("/templates/{id}", get(show).patch(update).delete(remove))
        .route("/templates/{id}/versions", get(versions).post(save_version))
        .route("/templates/{id}/versions/{n}", get(version))
        .route("/templates/{id}/diff", get(diff_versions))
        .route("/templates/{id}/fork", post(fork))
}

/// Validates a config given as a JSON value or as text, in `context`.
pub fn check_config(
    config: Option<&Value>,
    text: Option<&str>,
    context: Context,
) -> Result<CheckedConfig, ApiError> {
    if config.is_some_and(|c| !c.is_object()) {
        return Err(ApiError::Unprocessable(
            "`config` must be a JSON object; send anything else as `config_text`".into(),
        ));
    }
    let text = config_text_of(config, text).map_err(ApiError::Unprocessable)?;
    if text.len() > CONFIG_LIMIT {
        return Err(ApiError::PayloadTooLarge(format!(
            "the config is {} bytes; the limit is {CONFIG_LIMIT} bytes (1 MiB)",
            text.len()
        )));
    }
    if context.world_size == 0 {
        return Err(ApiError::Unprocessable(
            "context.world_size must be at least 1".into(),
        ));
    }
    for (name, n) in [
        ("tensor_parallel", context.tensor_parallel),
        ("pipeline_parallel", context.pipeline_parallel),
        ("sequence_parallel", context.sequence_parallel),
    ] {
        if n == 0 {
            return Err(ApiError::Unprocessable(format!(
                "context.{name} must be at least 1 (1: not used)"
            )));
        }
    }
    let release = context
        .release()
        .map_err(|e| ApiError::Unprocessable(format!("context.deepspeed_version: {e}")))?;
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
) -> Result<CheckedConfig, ApiError> {
    s.limits
        .cpu(move || check_config(config.as_ref(), text.as_deref(), context))
        .await?
}

/// Longest template description and version message, in characters.
pub const MAX_DESCRIPTION: usize = 4000;
pub const MAX_MESSAGE: usize = 1000;

pub(super) fn check_length(what: &str, text: &str, max: usize) -> Result<(), ApiError> {
    if text.chars().count() > max {
        return Err(ApiError::Unprocessable(format!(
            "{what} is {} characters; the limit is {max}",
            text.chars().count()
        )));
    }
    Ok(())
}

/// Most tag entries a request may carry before duplicates are removed (at most
/// [`MAX_TEMPLATE_TAGS`] remain).
pub const MAX_TAG_ENTRIES: usize = 100;
/// Tags a template may have.
pub const MAX_TEMPLATE_TAGS: usize = 20;

/// Tags: trimmed, empty ones dropped, duplicates removed; each 1-40 characters, at most 20.
/// The list's length is checked before any per-tag work, and duplicates are found with a set.
fn normalise_tags(tags: Vec<String>) -> Result<Vec<String>, ApiError> {
    if tags.len() > MAX_TAG_ENTRIES {
        return Err(ApiError::Unprocessable(format!(
            "{} tags given; a template may have at most {MAX_TEMPLATE_TAGS}",
            tags.len()
        )));
    }
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<String> = Vec::new();
    for t in tags {
        let t = t.trim().to_string();
        if t.is_empty() || seen.contains(&t) {
            continue;
        }
        if t.chars().count() > 40 || t.chars().any(char::is_control) {
            return Err(ApiError::Unprocessable(format!(
                "tag `{}` must be at most 40 characters without control characters",
                t.chars().take(40).collect::<String>().escape_debug()
            )));
        }
        if let Some(c) = t
            .chars()
            .find(|c| ds_studio_shared::api::is_hidden_char(*c))
        {
            return Err(ApiError::Unprocessable(format!(
                "tag `{}` contains the invisible or bidirectional character U+{:04X}, which can make a name read differently from what it holds",
                t.chars().take(40).collect::<String>().escape_debug(),
                c as u32
            )));
        }
        seen.insert(t.clone());
        out.push(t);
    }
    if out.len() > MAX_TEMPLATE_TAGS {
        return Err(ApiError::Unprocessable(format!(
            "{} tags given; a template may have at most {MAX_TEMPLATE_TAGS}",
            out.len()
        )));
    }
    Ok(out)
}

fn check_template_name(name: &str) -> Result<(), ApiError> {
    // A long name is named by its start, not repeated in full.
    let shown = || {
        let s: String = if name.chars().count() > 40 {
            format!("{}…", name.chars().take(40).collect::<String>())
        } else {
            name.to_string()
        };
        s.escape_debug().to_string()
    };
    let why = if name.trim().is_empty() {
        "a template needs a name (not only spaces)".to_string()
    } else if name.chars().count() > 120 {
        format!(
            "template name `{}` has {} characters; at most 120",
            shown(),
            name.chars().count()
        )
    } else if name.contains('/') {
        format!(
            "template name `{}` contains `/`, which names cannot hold",
            shown()
        )
    } else if name.chars().any(char::is_control) {
        format!("template name `{}` contains a control character", shown())
    } else if let Some(c) = name
        .chars()
        .find(|c| ds_studio_shared::api::is_hidden_char(*c))
    {
        format!(
            "template name `{}` contains the invisible or bidirectional character U+{:04X}, which can make a name read differently from what it holds",
            shown(),
            c as u32
        )
    } else {
        return Ok(());
    };
    Err(ApiError::Unprocessable(why))
}

/// The team a new template goes to: the one named, or the caller's only team.
async fn target_team(s: &AppState, c: &Caller, team_id: Option<i64>) -> Result<i64, ApiError> {
    let id =
        match team_id {
            Some(id) => id,
            None => {
                let teams = s.store.teams_of(c.user.id, false).await?;
                match teams.as_slice() {
                    [t] => t.id,
                    [] => return Err(ApiError::Unprocessable(
                        "you belong to no team: create one (POST /api/v1/teams) or give team_id"
                            .into(),
                    )),
                    many => {
                        return Err(ApiError::Unprocessable(format!(
                            "you belong to {} teams: give team_id",
                            many.len()
                        )))
                    }
                }
            }
        };
    access::require_team(&s.store, c, id, Role::Editor).await?;
    Ok(id)
}

#[derive(Deserialize)]
struct ListQuery {
    q: Option<String>,
    tag: Option<String>,
    team_id: Option<i64>,
    offset: Option<i64>,
    limit: Option<i64>,
}

async fn list(
    State(s): State<AppState>,
    c: Caller,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<ApiJson<Page<Template>>, ApiError> {
    let (offset, limit) = page_bounds(q.offset, q.limit)?;
    if q.team_id.is_some_and(|t| t < 1) {
        return Err(ApiError::BadRequest("team_id must be 1 or more".into()));
    }
    let max = ds_studio_shared::api::MAX_QUERY_TEXT;
    if q.q.as_deref().is_some_and(|q| q.chars().count() > max) {
        return Err(ApiError::BadRequest(format!(
            "q must be at most {max} characters"
        )));
    }
    let filter = TemplateFilter {
        visible_to: (!c.user.is_admin).then_some(c.user.id),
        team_id: q.team_id,
        query: q.q,
        tag: q.tag,
    };
    Ok(ApiJson(s.store.templates(&filter, offset, limit).await?))
}

async fn create(
    State(s): State<AppState>,
    c: Caller,
    ApiJson(req): ApiJson<TemplateCreate>,
) -> Result<(StatusCode, ApiJson<Template>), ApiError> {
    check_template_name(&req.name)?;
    let tags = normalise_tags(req.tags.unwrap_or_default())?;
    check_length(
        "description",
        req.description.as_deref().unwrap_or(""),
        MAX_DESCRIPTION,
    )?;
    check_length("message", req.message.as_deref().unwrap_or(""), MAX_MESSAGE)?;
    let checked = check_config_blocking(
        &s,
        req.config.clone(),
        req.config_text.clone(),
        req.context.clone().unwrap_or_default(),
    )
    .await?;
    let team_id = target_team(&s, &c, req.team_id).await?;
    let t = s
        .store
        .create_template(NewTemplate {
            team_id,
            author_id: c.user.id,
            name: &req.name,
            description: req.description.as_deref().unwrap_or(""),
            tags: &tags,
            message: req.message.as_deref().unwrap_or("created"),
            config: &checked,
        })
        .await?;
    Ok((StatusCode::CREATED, ApiJson(t)))
}

async fn show(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<Template>, ApiError> {
    Ok(ApiJson(
        access::template(&s.store, &c, id, Role::Viewer).await?,
    ))
}

async fn update(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(mut req): ApiJson<TemplateUpdate>,
) -> Result<ApiJson<Template>, ApiError> {
    access::template(&s.store, &c, id, Role::Editor).await?;
    if let Some(n) = &req.name {
        check_template_name(n)?;
    }
    if let Some(t) = req.tags.take() {
        req.tags = Some(normalise_tags(t)?);
    }
    if let Some(d) = &req.description {
        check_length("description", d, MAX_DESCRIPTION)?;
    }
    Ok(ApiJson(s.store.update_template(id, &req).await?))
}

async fn remove(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    access::template(&s.store, &c, id, Role::Admin).await?;
    s.store.delete_template(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn versions(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<ApiJson<Page<VersionSummary>>, ApiError> {
    access::template(&s.store, &c, id, Role::Viewer).await?;
    let (offset, limit) = page_bounds(q.offset, q.limit)?;
    Ok(ApiJson(s.store.versions(id, offset, limit).await?))
}

async fn save_version(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<VersionCreate>,
) -> Result<(StatusCode, ApiJson<Version>), ApiError> {
    let t = access::template(&s.store, &c, id, Role::Editor).await?;
    if req.base_version < 1 || req.base_version > t.head_version {
        return Err(ApiError::Conflict(format!(
            "base_version {} does not exist (head is {})",
            req.base_version, t.head_version
        )));
    }
    let context = match req.context {
        Some(ctx) => ctx,
        None => s.store.version(id, req.base_version).await?.context,
    };
    let checked =
        check_config_blocking(&s, req.config.clone(), req.config_text.clone(), context).await?;
    check_length("message", &req.message, MAX_MESSAGE)?;
    let message = if req.message.trim().is_empty() {
        "saved"
    } else {
        req.message.as_str()
    };
    match s
        .store
        .save_version(id, req.base_version, c.user.id, message, &checked)
        .await
    {
        Ok(v) => Ok((StatusCode::CREATED, ApiJson(v))),
        Err(StoreError::VersionConflict { base, head }) => Err(ApiError::VersionConflict {
            base,
            head,
            current: Box::new(s.store.version(id, head).await?),
        }),
        Err(e) => Err(e.into()),
    }
}

/// `n` is a number or `head`.
fn version_number(t: &Template, n: &str) -> Result<i64, ApiError> {
    if n == "head" || n == "latest" {
        return Ok(t.head_version);
    }
    n.parse::<i64>()
        .map_err(|_| ApiError::BadRequest(format!("version `{n}` is not a number or `head`")))
}

async fn version(
    State(s): State<AppState>,
    c: Caller,
    ApiPath((id, n)): ApiPath<(i64, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let t = access::template(&s.store, &c, id, Role::Viewer).await?;
    // `head` moves with every save: such answers must be revalidated; a numbered version never
    // changes and may be cached for good.
    let cache = if n.parse::<i64>().is_ok() {
        "private, max-age=31536000, immutable"
    } else {
        "private, no-cache"
    };
    let n = version_number(&t, &n)?;
    // Versions never change, so the ETag names the version itself.
    let etag = format!("\"t{id}-v{n}\"");
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim() == etag))
    {
        return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response());
    }
    let cached = s.store.version_shared(id, n).await?;
    // The stored JSON is reused unless the template was renamed by another server meanwhile.
    let body = if cached.version.template_name == t.name {
        cached.json().to_vec()
    } else {
        let mut v = cached.version.clone();
        v.template_name = t.name;
        serde_json::to_vec(&v).map_err(|e| ApiError::Internal(e.to_string()))?
    };
    Ok((
        [
            (header::ETAG, etag),
            (header::CACHE_CONTROL, cache.into()),
            (header::CONTENT_TYPE, "application/json".into()),
        ],
        body,
    )
        .into_response())
}

#[derive(Deserialize)]
struct DiffQuery {
    from: String,
    to: String,
    to_template: Option<i64>,
}

async fn diff_versions(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<DiffQuery>,
) -> Result<ApiJson<Diff>, ApiError> {
    let t1 = access::template(&s.store, &c, id, Role::Viewer).await?;
    let t2 = match q.to_template {
        Some(other) if other != id => access::template(&s.store, &c, other, Role::Viewer).await?,
        _ => t1.clone(),
    };
    let a = s
        .store
        .version(t1.id, version_number(&t1, &q.from)?)
        .await?;
    let b = s.store.version(t2.id, version_number(&t2, &q.to)?).await?;
    // Two 1 MiB configs take a while to diff: off the async workers.
    Ok(ApiJson(s.limits.cpu(move || diff_of(&a, &b)).await?))
}

/// The full difference between two stored versions.
pub fn diff_of(a: &Version, b: &Version) -> Diff {
    let name = |v: &Version| format!("{}@{}", v.template_name, v.version);
    let (introduced, resolved) = diff::diagnostics_delta(&a.diagnostics, &b.diagnostics);
    Diff {
        from: VersionRef {
            template_id: a.template_id,
            template_name: a.template_name.clone(),
            version: a.version,
        },
        to: VersionRef {
            template_id: b.template_id,
            template_name: b.template_name.clone(),
            version: b.version,
        },
        changes: diff::semantic(&a.config, &b.config),
        text_diff: diff::text(&a.config_text, &b.config_text, &name(a), &name(b)),
        diagnostics_introduced: introduced,
        diagnostics_resolved: resolved,
    }
}

async fn fork(
    State(s): State<AppState>,
    c: Caller,
    ApiPath(id): ApiPath<i64>,
    JsonOrDefault(req): JsonOrDefault<ForkRequest>,
) -> Result<(StatusCode, ApiJson<Template>), ApiError> {
    let t = access::template(&s.store, &c, id, Role::Viewer).await?;
    let n = req.version.unwrap_or(t.head_version);
    let new = fork_version(&s, &c, &t, n, req).await?;
    Ok((StatusCode::CREATED, ApiJson(new)))
}

/// Version `n` of `t` as a new template in the caller's team (`req.team_id`, or their only
/// team), named as asked or `NAME (fork N)`, with its own history starting there and a record
/// of where it came from. Shared by `POST /templates/{id}/fork` and the share link's fork,
/// whose callers have checked they may read `t`.
pub(super) async fn fork_version(
    s: &AppState,
    c: &Caller,
    t: &Template,
    n: i64,
    req: ForkRequest,
) -> Result<Template, ApiError> {
    let id = t.id;
    let v = s.store.version(id, n).await?;
    let team_id = target_team(s, c, req.team_id).await?;
    let name = match req.name.map(|n| n.trim().to_string()) {
        Some(n) if !n.is_empty() => n,
        // No name given: the first free `NAME (fork N)` in the target team.
        _ => s.store.free_fork_name(team_id, &t.name).await?,
    };
    check_template_name(&name)?;
    let checked =
        check_config_blocking(s, None, Some(v.config_text.clone()), v.context.clone()).await?;
    let message = format!("forked from {}@{} (team {})", t.name, n, t.team_name);
    let new = s
        .store
        .create_template(NewTemplate {
            team_id,
            author_id: c.user.id,
            name: &name,
            description: &t.description,
            tags: &t.tags,
            message: &message,
            config: &checked,
        })
        .await?;
    Ok(s.store.set_fork_origin(new.id, t.id, n, &t.name).await?)
}
