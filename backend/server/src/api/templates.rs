//! Templates and their immutable versions: create, list (search by name and tag), rename,
//! delete, save a version on a base (409 with the head when someone saved meanwhile), read a
//! version (with an ETag), diff any two versions (also across templates), fork.

use super::auth::Caller;
use super::error::ApiError;
use super::json::{ApiJson, ApiPath, ApiQuery, JsonOrDefault};
use super::paging::{page_bounds, PageQuery};
use super::typed::{At, Reply};
use crate::api::access;
use crate::domain::config_check::check_config_blocking;
use crate::domain::templates::{
    check_length, check_template_name, fork_version, MAX_DESCRIPTION, MAX_MESSAGE,
};
use crate::state::AppState;
use crate::store::templates::{NewTemplate, TemplateFilter};
use crate::store::StoreError;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::Router;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    Diff, ForkRequest, Page, Role, Template, TemplateCreate, TemplateUpdate, Version,
    VersionCreate, VersionRef, VersionSummary,
};
use ds_studio_shared::diff;
use serde::Deserialize;

pub fn router() -> Router<AppState> {
    Router::new()
        .at(ep::ListTemplates, list)
        .at(ep::CreateTemplate, create)
        .at(ep::GetTemplate, show)
        .at(ep::UpdateTemplate, update)
        .at(ep::DeleteTemplate, remove)
        .at(ep::ListVersions, versions)
        .at(ep::SaveVersion, save_version)
        .at(ep::GetVersion, version)
        .at(ep::DiffVersions, diff_versions)
        .at(ep::ForkTemplate, fork)
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
    let team_id = access::target_team(&s.store, &c, req.team_id).await?;
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
) -> Result<Reply<Version>, ApiError> {
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
        return Ok(Reply::empty(
            StatusCode::NOT_MODIFIED,
            [(header::ETAG, etag)],
        ));
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
    Ok(Reply::serialized(
        [(header::ETAG, etag), (header::CACHE_CONTROL, cache.into())],
        body,
    ))
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
    let team_id = access::target_team(&s.store, &c, req.team_id).await?;
    let new = fork_version(&s, c.user.id, &t, n, team_id, req.name).await?;
    Ok((StatusCode::CREATED, ApiJson(new)))
}
