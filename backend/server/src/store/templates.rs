//! Templates, their immutable versions, and read-only share links.
//!
//! Saving a version is a compare-and-set on `templates.head_version` followed by the insert, in
//! one transaction: of many concurrent saves on the same base exactly one wins, the others get
//! [`StoreError::VersionConflict`] with the head, and no number is skipped or taken twice.

use super::{now_ms, opt_time, page, rfc3339, Result, Store, StoreError};
use crate::secrets::{hash_token, random_token, token_prefix};
use ds_studio_shared::api::{Page, Share, Template, TemplateUpdate, Version, VersionSummary};
use ds_studio_shared::{Diagnostic, Severity, Verdict};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

/// Versions already read, by (template id, number). Versions are immutable, so an entry never
/// goes stale except for the denormalised template name, which callers that show it take from
/// the template row; deleting or renaming a template drops its entries here.
#[derive(Debug, Default)]
pub struct VersionCache {
    inner: std::sync::Mutex<CacheInner>,
}

#[derive(Debug, Default)]
struct CacheInner {
    map: std::collections::HashMap<(i64, i64), std::sync::Arc<CachedVersion>>,
    /// Approximate bytes held: config text and diagnostics, twice (parsed and JSON).
    bytes: usize,
}

/// A version kept in memory, with its JSON encoding made on first use.
#[derive(Debug)]
pub struct CachedVersion {
    pub version: Version,
    json: std::sync::OnceLock<Vec<u8>>,
}

impl CachedVersion {
    /// The version as JSON (encoded once).
    pub fn json(&self) -> &[u8] {
        self.json
            .get_or_init(|| serde_json::to_vec(&self.version).unwrap_or_default())
    }

    /// What it costs to keep: the text and diagnostics as stored and as JSON.
    fn weight(&self) -> usize {
        let v = &self.version;
        let diags: usize = v
            .diagnostics
            .iter()
            .map(|d| 96 + d.path.len() + d.message.en.len() + d.message.zh.len())
            .sum();
        2 * (v.config_text.len() + diags + v.message.len()) + 512
    }
}

/// Bytes the cache may hold before it starts over (versions are immutable, so dropping them
/// only costs a re-read).
pub const VERSION_CACHE_BYTES: usize = 64 * 1024 * 1024;

impl VersionCache {
    fn get(&self, key: (i64, i64)) -> Option<std::sync::Arc<CachedVersion>> {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map
            .get(&key)
            .cloned()
    }
    fn put(&self, key: (i64, i64), v: std::sync::Arc<CachedVersion>) {
        let w = v.weight();
        if w > VERSION_CACHE_BYTES / 8 {
            return; // one version never crowds out the rest
        }
        let mut c = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if c.bytes + w > VERSION_CACHE_BYTES {
            c.map.clear();
            c.bytes = 0;
        }
        if let Some(old) = c.map.insert(key, v) {
            c.bytes = c.bytes.saturating_sub(old.weight());
        }
        c.bytes += w;
    }
    fn forget_template(&self, template_id: i64) {
        let mut c = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut freed = 0;
        c.map.retain(|k, v| {
            let keep = k.0 != template_id;
            if !keep {
                freed += v.weight();
            }
            keep
        });
        c.bytes = c.bytes.saturating_sub(freed);
    }

    /// Bytes held now (approximately).
    pub fn bytes(&self) -> usize {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }
}

/// A config checked by the validator, ready to be stored as a version.
#[derive(Debug, Clone)]
pub struct CheckedConfig {
    pub text: String,
    /// The context it was validated in (world size, launcher, ...).
    pub context: ds_studio_shared::Context,
    pub diagnostics: Vec<Diagnostic>,
    pub verdict: Verdict,
}

/// What a new template needs.
#[derive(Debug, Clone)]
pub struct NewTemplate<'a> {
    pub team_id: i64,
    pub author_id: i64,
    pub name: &'a str,
    pub description: &'a str,
    pub tags: &'a [String],
    pub message: &'a str,
    pub config: &'a CheckedConfig,
}

/// Filters of the template list.
#[derive(Debug, Clone, Default)]
pub struct TemplateFilter {
    /// Only templates of teams this user belongs to (`None`: every team).
    pub visible_to: Option<i64>,
    pub team_id: Option<i64>,
    /// Case-insensitive substring of the name.
    pub query: Option<String>,
    pub tag: Option<String>,
}

const TEMPLATE_SELECT: &str = "SELECT t.id, t.team_id, tm.name AS team_name, t.name, \
    t.description, t.tags, t.head_version, v.verdict, u.name AS created_by, t.created_at, \
    t.updated_at, t.forked_from, t.forked_version, \
    CASE WHEN src.id IS NULL THEN NULL ELSE t.forked_name END AS forked_name \
    FROM templates t JOIN teams tm ON tm.id = t.team_id \
    JOIN users u ON u.id = t.created_by \
    LEFT JOIN versions v ON v.template_id = t.id AND v.number = t.head_version \
    LEFT JOIN templates src ON src.id = t.forked_from";

fn verdict_of(s: Option<String>) -> Verdict {
    if s.as_deref() == Some("rejected") {
        Verdict::Rejected
    } else {
        Verdict::Accepted
    }
}

fn template_of(row: &AnyRow) -> Result<Template> {
    Ok(Template {
        id: row.try_get("id")?,
        team_id: row.try_get("team_id")?,
        team_name: row.try_get("team_name")?,
        name: row.try_get("name")?,
        description: row.try_get("description")?,
        tags: serde_json::from_str(&row.try_get::<String, _>("tags")?).unwrap_or_default(),
        head_version: row.try_get("head_version")?,
        head_verdict: verdict_of(row.try_get("verdict")?),
        created_by: row.try_get("created_by")?,
        created_at: rfc3339(row.try_get("created_at")?),
        updated_at: rfc3339(row.try_get("updated_at")?),
        forked_from: match (
            row.try_get::<Option<i64>, _>("forked_from")?,
            row.try_get::<Option<i64>, _>("forked_version")?,
        ) {
            (Some(template_id), Some(version)) => Some(ds_studio_shared::api::ForkOrigin {
                template_id,
                version,
                name: row.try_get("forked_name")?,
            }),
            _ => None,
        },
    })
}

/// Configs up to this size are parsed on the calling task (tens of microseconds); larger ones on
/// the blocking pool.
const PARSE_INLINE_BYTES: usize = 16 << 10;

fn version_of(row: &AnyRow) -> Result<Version> {
    let text: String = row.try_get("config_text")?;
    let doc = ds_studio_shared::Document::parse(&text);
    let config = if doc.is_ok() {
        doc.to_value().unwrap_or_default()
    } else {
        serde_json::Value::Null
    };
    Ok(Version {
        template_id: row.try_get("template_id")?,
        template_name: row.try_get("template_name")?,
        version: row.try_get("number")?,
        config_text: text,
        config,
        context: serde_json::from_str(&row.try_get::<String, _>("context")?).unwrap_or_default(),
        diagnostics: serde_json::from_str(&row.try_get::<String, _>("diagnostics")?)
            .unwrap_or_default(),
        verdict: verdict_of(row.try_get("verdict")?),
        author: row.try_get("author")?,
        message: row.try_get("message")?,
        created_at: rfc3339(row.try_get("created_at")?),
    })
}

fn share_of(row: &AnyRow) -> Result<Share> {
    Ok(Share {
        id: row.try_get("id")?,
        template_id: row.try_get("template_id")?,
        version: row.try_get("number")?,
        prefix: row.try_get("prefix")?,
        created_by: row.try_get("created_by")?,
        created_at: rfc3339(row.try_get("created_at")?),
        expires_at: opt_time(row, "expires_at"),
        revoked: row.try_get::<Option<i64>, _>("revoked_at")?.is_some(),
    })
}

fn count(diags: &[Diagnostic], s: Severity) -> i64 {
    diags.iter().filter(|d| d.severity == s).count() as i64
}

fn name_conflict(e: sqlx::Error, name: &str) -> StoreError {
    match StoreError::from(e) {
        StoreError::Conflict(_) => {
            StoreError::Conflict(format!("the team already has a template named `{name}`"))
        }
        other => other,
    }
}

/// Inserts version `number` inside a transaction.
async fn insert_version(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    template_id: i64,
    number: i64,
    author_id: i64,
    message: &str,
    config: &CheckedConfig,
    now: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO versions (template_id, number, author_id, message, config_text, context, \
         diagnostics, verdict, errors, warnings, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(template_id)
    .bind(number)
    .bind(author_id)
    .bind(message)
    .bind(&config.text)
    .bind(serde_json::to_string(&config.context).unwrap_or_else(|_| "{}".into()))
    .bind(serde_json::to_string(&config.diagnostics).unwrap_or_else(|_| "[]".into()))
    .bind(config.verdict.as_str())
    .bind(count(&config.diagnostics, Severity::Error))
    .bind(count(&config.diagnostics, Severity::Warning))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Creates a template with its version 1.
    pub async fn create_template(&self, new: NewTemplate<'_>) -> Result<Template> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "INSERT INTO templates (team_id, name, description, tags, head_version, created_by, \
             created_at, updated_at) VALUES ($1, $2, $3, $4, 1, $5, $6, $6) RETURNING id",
        )
        .bind(new.team_id)
        .bind(new.name)
        .bind(new.description)
        .bind(serde_json::to_string(new.tags).unwrap_or_else(|_| "[]".into()))
        .bind(new.author_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| name_conflict(e, new.name))?;
        let id: i64 = row.try_get("id")?;
        insert_version(&mut tx, id, 1, new.author_id, new.message, new.config, now).await?;
        tx.commit().await?;
        self.template(id).await
    }

    /// Records that template `id` was forked from `version` of template `from`, named `name`
    /// then (the fork keeps that name whatever the source is renamed to later).
    pub async fn set_fork_origin(
        &self,
        id: i64,
        from: i64,
        version: i64,
        name: &str,
    ) -> Result<Template> {
        sqlx::query(
            "UPDATE templates SET forked_from = $1, forked_version = $2, forked_name = $3 \
             WHERE id = $4",
        )
        .bind(from)
        .bind(version)
        .bind(name)
        .bind(id)
        .execute(&self.pool)
        .await?;
        self.template(id).await
    }

    /// A name for a fork of `source` that no template of `team_id` has
    /// ([`ds_studio_shared::api::free_fork_name`]).
    pub async fn free_fork_name(&self, team_id: i64, source: &str) -> Result<String> {
        let base = ds_studio_shared::api::fork_base_name(source);
        let rows = sqlx::query(
            "SELECT name FROM templates WHERE team_id = $1 AND substr(name, 1, $2) = $3",
        )
        .bind(team_id)
        .bind(base.chars().count() as i64)
        .bind(base)
        .fetch_all(&self.pool)
        .await?;
        let names: std::collections::HashSet<String> = rows
            .iter()
            .filter_map(|r| r.try_get::<String, _>("name").ok())
            .collect();
        ds_studio_shared::api::free_fork_name(source, |n| names.contains(n)).ok_or_else(|| {
            StoreError::Conflict(format!(
                "every fork name of `{base}` is taken; give the fork a name"
            ))
        })
    }

    pub async fn template(&self, id: i64) -> Result<Template> {
        let row = sqlx::query(AssertSqlSafe(format!("{TEMPLATE_SELECT} WHERE t.id = $1")))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("template"))?;
        template_of(&row)
    }

    /// Templates matching `filter`, most recently changed first.
    pub async fn templates(
        &self,
        filter: &TemplateFilter,
        offset: i64,
        limit: i64,
    ) -> Result<Page<Template>> {
        let mut conds = Vec::new();
        let mut binds: Vec<Bind> = Vec::new();
        let next = |b: Bind, binds: &mut Vec<Bind>| {
            binds.push(b);
            format!("${}", binds.len())
        };
        if let Some(u) = filter.visible_to {
            let p = next(Bind::Int(u), &mut binds);
            conds.push(format!(
                "t.team_id IN (SELECT team_id FROM memberships WHERE user_id = {p})"
            ));
        }
        if let Some(t) = filter.team_id {
            let p = next(Bind::Int(t), &mut binds);
            conds.push(format!("t.team_id = {p}"));
        }
        if let Some(q) = filter.query.as_deref().filter(|q| !q.is_empty()) {
            let p = next(
                Bind::Text(format!("%{}%", like_escape(&q.to_lowercase()))),
                &mut binds,
            );
            conds.push(format!("LOWER(t.name) LIKE {p} ESCAPE '\\'"));
        }
        if let Some(tag) = filter.tag.as_deref().filter(|t| !t.is_empty()) {
            // Tags are stored as a JSON array: look for the JSON string, quotes included.
            let json = serde_json::Value::from(tag).to_string();
            let p = next(Bind::Text(format!("%{}%", like_escape(&json))), &mut binds);
            conds.push(format!("t.tags LIKE {p} ESCAPE '\\'"));
        }
        let wher = if conds.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", conds.join(" AND "))
        };
        let count_sql = format!("SELECT COUNT(*) AS n FROM templates t{wher}");
        let total: i64 = bind_all(sqlx::query(AssertSqlSafe(count_sql)), &binds)
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        let lim = next(Bind::Int(limit), &mut binds);
        let off = next(Bind::Int(offset), &mut binds);
        let sql = format!(
            "{TEMPLATE_SELECT}{wher} ORDER BY t.updated_at DESC, t.id DESC LIMIT {lim} OFFSET {off}"
        );
        let rows = bind_all(sqlx::query(AssertSqlSafe(sql)), &binds)
            .fetch_all(&self.pool)
            .await?;
        let items = rows.iter().map(template_of).collect::<Result<_>>()?;
        Ok(page(items, total, offset, limit))
    }

    pub async fn update_template(&self, id: i64, upd: &TemplateUpdate) -> Result<Template> {
        let tags = upd
            .tags
            .as_ref()
            .map(|t| serde_json::to_string(t).unwrap_or_else(|_| "[]".into()));
        let done = sqlx::query(
            "UPDATE templates SET name = COALESCE($1, name), \
             description = COALESCE($2, description), tags = COALESCE($3, tags), \
             updated_at = $4 WHERE id = $5",
        )
        .bind(upd.name.as_deref())
        .bind(upd.description.as_deref())
        .bind(tags)
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(|e| name_conflict(e, upd.name.as_deref().unwrap_or("")))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("template"));
        }
        self.versions.forget_template(id);
        self.template(id).await
    }

    pub async fn delete_template(&self, id: i64) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        // A job still queued or running would report to a template that is gone: refused, and
        // the message says which job to cancel first.
        let active: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(id) FROM jobs WHERE template_id = $1 \
             AND state NOT IN ('succeeded', 'failed', 'cancelled', 'lost')",
        )
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        if let Some(job) = active {
            return Err(StoreError::Conflict(format!(
                "job {job} of this template is still queued or running: cancel it (or wait for it to end) before deleting the template"
            )));
        }
        // Explicit deletes: SQLite enforces ON DELETE CASCADE only with foreign_keys on. The
        // template's ended jobs (and their metrics and logs) go with it, as the UI says.
        for sql in [
            "DELETE FROM shares WHERE template_id = $1",
            "DELETE FROM versions WHERE template_id = $1",
        ] {
            sqlx::query(sql).bind(id).execute(&mut *tx).await?;
        }
        let done = sqlx::query("DELETE FROM templates WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("template"));
        }
        tx.commit().await?;
        self.versions.forget_template(id);
        Ok(())
    }

    /// Saves version `base + 1` if `base` is still the head.
    pub async fn save_version(
        &self,
        template_id: i64,
        base: i64,
        author_id: i64,
        message: &str,
        config: &CheckedConfig,
    ) -> Result<Version> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let moved = sqlx::query(
            "UPDATE templates SET head_version = $1, updated_at = $2 \
             WHERE id = $3 AND head_version = $4",
        )
        .bind(base + 1)
        .bind(now)
        .bind(template_id)
        .bind(base)
        .execute(&mut *tx)
        .await?;
        if moved.rows_affected() == 0 {
            tx.rollback().await?;
            let head = self.template(template_id).await?.head_version;
            return Err(StoreError::VersionConflict { base, head });
        }
        insert_version(
            &mut tx,
            template_id,
            base + 1,
            author_id,
            message,
            config,
            now,
        )
        .await?;
        tx.commit().await?;
        self.version(template_id, base + 1).await
    }

    pub async fn version(&self, template_id: i64, number: i64) -> Result<Version> {
        Ok(self
            .version_shared(template_id, number)
            .await?
            .version
            .clone())
    }

    /// The version, from memory when it was read before.
    pub async fn version_shared(
        &self,
        template_id: i64,
        number: i64,
    ) -> Result<std::sync::Arc<CachedVersion>> {
        if let Some(v) = self.versions.get((template_id, number)) {
            return Ok(v);
        }
        let v = std::sync::Arc::new(CachedVersion {
            version: self.version_from_db(template_id, number).await?,
            json: Default::default(),
        });
        self.versions.put((template_id, number), v.clone());
        Ok(v)
    }

    async fn version_from_db(&self, template_id: i64, number: i64) -> Result<Version> {
        let row = sqlx::query(
            "SELECT v.template_id, t.name AS template_name, v.number, v.config_text, \
             v.context, v.diagnostics, v.verdict, u.name AS author, v.message, v.created_at \
             FROM versions v JOIN templates t ON t.id = v.template_id \
             JOIN users u ON u.id = v.author_id WHERE v.template_id = $1 AND v.number = $2",
        )
        .bind(template_id)
        .bind(number)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("version"))?;
        // Parsing a config near the 1 MiB limit takes a few hundred milliseconds: not on an
        // async worker, where it would stall `/healthz`, heartbeats and every stream.
        if row
            .try_get::<String, _>("config_text")
            .is_ok_and(|t| t.len() > PARSE_INLINE_BYTES)
        {
            return tokio::task::spawn_blocking(move || version_of(&row))
                .await
                .map_err(|e| {
                    StoreError::Background(format!("reading a stored version failed: {e}"))
                })?;
        }
        version_of(&row)
    }

    /// Versions of a template, newest first.
    pub async fn versions(
        &self,
        template_id: i64,
        offset: i64,
        limit: i64,
    ) -> Result<Page<VersionSummary>> {
        let total: i64 = sqlx::query("SELECT COUNT(*) AS n FROM versions WHERE template_id = $1")
            .bind(template_id)
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        let rows = sqlx::query(
            "SELECT v.number, u.name AS author, v.message, v.created_at, v.verdict, v.errors, \
             v.warnings FROM versions v JOIN users u ON u.id = v.author_id \
             WHERE v.template_id = $1 ORDER BY v.number DESC LIMIT $2 OFFSET $3",
        )
        .bind(template_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        let items = rows
            .iter()
            .map(|r| {
                Ok(VersionSummary {
                    version: r.try_get("number")?,
                    author: r.try_get("author")?,
                    message: r.try_get("message")?,
                    created_at: rfc3339(r.try_get("created_at")?),
                    verdict: verdict_of(r.try_get("verdict")?),
                    errors: r.try_get("errors")?,
                    warnings: r.try_get("warnings")?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(page(items, total, offset, limit))
    }

    // --- share links ---------------------------------------------------------------------

    /// Creates a read-only link to version `number`; returns the token (shown once).
    pub async fn create_share(
        &self,
        template_id: i64,
        number: i64,
        created_by: i64,
        expires_at: Option<i64>,
    ) -> Result<(String, Share)> {
        let token = random_token("shr_");
        let row = sqlx::query(
            "INSERT INTO shares (template_id, number, token_hash, prefix, created_by, created_at, \
             expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(template_id)
        .bind(number)
        .bind(hash_token(&token))
        .bind(token_prefix(&token))
        .bind(created_by)
        .bind(now_ms())
        .bind(expires_at)
        .fetch_one(&self.pool)
        .await?;
        let share = self.share(row.try_get("id")?).await?;
        Ok((token, share))
    }

    const SHARE_SELECT: &'static str = "SELECT s.id, s.template_id, s.number, s.prefix, \
        u.name AS created_by, s.created_at, s.expires_at, s.revoked_at FROM shares s \
        JOIN users u ON u.id = s.created_by";

    pub async fn share(&self, id: i64) -> Result<Share> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "{} WHERE s.id = $1",
            Self::SHARE_SELECT
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("share link"))?;
        share_of(&row)
    }

    pub async fn shares(&self, template_id: i64) -> Result<Vec<Share>> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "{} WHERE s.template_id = $1 ORDER BY s.id DESC",
            Self::SHARE_SELECT
        )))
        .bind(template_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(share_of).collect()
    }

    pub async fn revoke_share(&self, template_id: i64, share_id: i64) -> Result<()> {
        let done = sqlx::query(
            "UPDATE shares SET revoked_at = COALESCE(revoked_at, $1) \
             WHERE id = $2 AND template_id = $3",
        )
        .bind(now_ms())
        .bind(share_id)
        .bind(template_id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound("share link"));
        }
        Ok(())
    }

    /// The live share (not revoked, not expired) holding `token`.
    pub async fn share_by_token(&self, token: &str) -> Result<Option<Share>> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "{} WHERE s.token_hash = $1",
            Self::SHARE_SELECT
        )))
        .bind(hash_token(token))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let share = share_of(&row)?;
        let expired = row
            .try_get::<Option<i64>, _>("expires_at")?
            .is_some_and(|e| e <= now_ms());
        Ok((!share.revoked && !expired).then_some(share))
    }
}

/// Escapes LIKE's wildcards (`%`, `_`) and the escape character itself.
fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// A bind parameter of a query built at run time.
enum Bind {
    Int(i64),
    Text(String),
}

fn bind_all<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    binds: &'q [Bind],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    for b in binds {
        q = match b {
            Bind::Int(i) => q.bind(*i),
            Bind::Text(s) => q.bind(s.as_str()),
        };
    }
    q
}
