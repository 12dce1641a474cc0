//! Request and response types of the REST API (`/api/v1`), shared by the server, the CLI client
//! and the browser so that every side decodes the same shapes.
//!
//! Times are RFC 3339 strings in UTC. Ids are integers. With the `openapi` feature each type
//! also describes itself for the OpenAPI document.

pub mod endpoints;
mod estimates;
mod failures;
mod job_env;
mod jobs;
mod runs;
mod sweeps;
pub use crate::architecture::catalog::CatalogModel;
pub use crate::builtin_gpt::{GptSize, BUILTIN_SIZES};
pub use crate::devices::{GpuDevice, RunnerDevices};
pub use endpoints::{Endpoint, EventStream, NoBody, Url};
pub use estimates::*;
pub use failures::*;
pub use job_env::*;
pub use jobs::*;
pub use runs::*;
pub use sweeps::*;

use crate::validate::{Context, Diagnostic, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// The one error envelope: `{"error": {"code", "message", "details"?}}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ErrorDetail {
    /// Stable machine-readable code (`not_found`, `conflict`, `version_conflict`, ...).
    pub code: String,
    /// Human-readable explanation naming the problem.
    pub message: String,
    /// Extra data for two codes: `version_conflict` carries the head to merge into
    /// ([`VersionConflictDetails`]), `config_rejected` the diagnostics that stop the job
    /// ([`ConfigRejectedDetails`]), `does_not_fit` the estimate, the capacity and configs that
    /// fit ([`crate::memory::DoesNotFit`]). Absent for every other code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<ErrorDetails>))]
    pub details: Option<Value>,
}

/// The `details` of an error, by its code (see [`ErrorDetail::details`]).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(untagged)]
pub enum ErrorDetails {
    VersionConflict(Box<VersionConflictDetails>),
    ConfigRejected(ConfigRejectedDetails),
    DoesNotFit(Box<crate::memory::DoesNotFit>),
}

/// `details` of a `version_conflict` (409): the head that was saved meanwhile.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VersionConflictDetails {
    pub head_version: i64,
    pub head: Version,
}

/// `details` of a `config_rejected` (422): the errors for the job's world size, and the
/// release (and runner whose release it is) they were judged for.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ConfigRejectedDetails {
    pub diagnostics: Vec<Diagnostic>,
    pub deepspeed: String,
    pub runner: Option<String>,
}

/// One page of a list. `next_offset` is absent on the last page.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: i64,
    pub offset: i64,
    pub limit: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<i64>,
}

/// A member's role in a team: viewers read, editors also save and share, admins also manage
/// members and delete templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Viewer,
    Editor,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Editor => "editor",
            Role::Admin => "admin",
        }
    }
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "viewer" => Some(Role::Viewer),
            "editor" => Some(Role::Editor),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct User {
    pub id: i64,
    pub name: String,
    pub display_name: String,
    /// A server administrator (every team, every user).
    pub is_admin: bool,
    pub has_password: bool,
    /// A disabled user cannot sign in, and their sessions, tokens and links stop working
    /// (nothing of theirs is deleted; a server administrator enables them again).
    #[serde(default)]
    pub disabled: bool,
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct UserCreate {
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9._@-]+$")
    )]
    pub name: String,
    #[serde(default)]
    pub display_name: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 8))]
    pub password: Option<String>,
    #[serde(default)]
    pub is_admin: bool,
    /// Also add the new user to this team (with `role`, default editor): one step instead of
    /// two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct UserUpdate {
    #[serde(default)]
    pub display_name: Option<String>,
    /// A new password (at least 8 characters).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 8))]
    pub password: Option<String>,
    /// The current password: needed to change your own password once you have one (a server
    /// administrator resetting someone else's does not need it). Your other sessions end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_password: Option<String>,
    /// Only a server administrator may change this.
    #[serde(default)]
    pub is_admin: Option<bool>,
    /// Only a server administrator may change this, and not for themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled: Option<bool>,
}

/// `POST /users/{id}/signin-link`: a one-time sign-in link for a user (a server administrator
/// hands it over: an invitation, or a way back in for someone who forgot their password).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SigninLinkCreate {
    /// Also remove the user's password and end their sessions (a reset: the link is then the
    /// only way in, and the user sets a new password after using it).
    #[serde(default)]
    pub reset_password: bool,
}

/// A one-time sign-in link: valid once, for 24 hours.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct SigninLink {
    pub url: String,
    pub expires_at: String,
}

/// `PATCH /teams/{id}`: a new name.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TeamUpdate {
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9._@-]+$")
    )]
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct LoginRequest {
    /// At most 64 bytes.
    #[cfg_attr(feature = "openapi", schema(max_length = 64))]
    pub username: String,
    /// At most 1024 bytes.
    #[cfg_attr(feature = "openapi", schema(max_length = 1024))]
    pub password: String,
}

/// Who is signed in, in which teams, and the CSRF token that cookie-authenticated writes must
/// send back in the `X-CSRF-Token` header.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Me {
    pub user: User,
    pub teams: Vec<Team>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csrf_token: Option<String>,
}

/// `GET /api/v1/auth/session`: who is signed in (`me` left out: nobody).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct SessionState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub me: Option<Me>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Team {
    pub id: i64,
    pub name: String,
    pub created_at: String,
    /// The caller's role in this team (absent for a server admin who is not a member).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TeamCreate {
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9._@-]+$")
    )]
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Member {
    pub user_id: i64,
    pub user_name: String,
    pub role: Role,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MemberPut {
    pub role: Role,
}

/// `POST /teams/{id}/members`: a user, by name, and their role.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MemberAdd {
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 64))]
    pub user: String,
    pub role: Role,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct TokenCreate {
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 100, pattern = "\\S")
    )]
    pub name: String,
    /// RFC 3339 time after which the token stops working.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(format = DateTime, pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"))]
    pub expires_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ApiToken {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    /// The first characters of the token, to recognise it (the token itself is never stored).
    pub prefix: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used_at: Option<String>,
    pub revoked: bool,
}

/// A new token: `token` is shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct TokenCreated {
    pub token: String,
    #[serde(flatten)]
    pub info: ApiToken,
}

// ---------------------------------------------------------------------------------------------
// Templates and versions
// ---------------------------------------------------------------------------------------------

/// `POST /api/v1/templates`: a new template with its version 1. The config is given as exactly
/// one of `config` (a JSON object) and `config_text` (JSON or hjson, kept byte for byte); both
/// or neither is a 400.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct TemplateCreate {
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 120,
            pattern = "^[^/\\x00-\\x1f\\x7f-\\x9f]*[^/\\s\\x00-\\x1f\\x7f-\\x9f][^/\\x00-\\x1f\\x7f-\\x9f]*$"
        )
    )]
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = tags_schema))]
    pub tags: Option<Vec<String>>,
    /// The team that owns it; defaults to the caller's only team when there is one.
    #[serde(default)]
    pub team_id: Option<i64>,
    /// The config as a JSON value (stored as pretty JSON).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub config: Option<Value>,
    /// The config as text, kept byte for byte (JSON or hjson).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub config_text: Option<String>,
    /// Message of version 1 (default "created").
    #[serde(default)]
    pub message: Option<String>,
    /// Validation context (world size, launcher, ...); default world size 1, `deepspeed`.
    #[serde(default, deserialize_with = "object_or_null")]
    pub context: Option<Context>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct TemplateUpdate {
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 120,
            pattern = "^[^/\\x00-\\x1f\\x7f-\\x9f]*[^/\\s\\x00-\\x1f\\x7f-\\x9f][^/\\x00-\\x1f\\x7f-\\x9f]*$"
        )
    )]
    pub name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = tags_schema))]
    pub tags: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Template {
    pub id: i64,
    pub team_id: i64,
    pub team_name: String,
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
    pub head_version: i64,
    pub head_verdict: Verdict,
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
    /// The template and version it was forked from (its own history starts there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkOrigin>,
}

/// Where a fork came from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ForkOrigin {
    pub template_id: i64,
    pub version: i64,
    /// The source's name when the fork was made (`None`: the source was deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Longest template name, in characters.
pub const MAX_TEMPLATE_NAME_CHARS: usize = 120;

/// A template's name without the ` (fork)` / ` (fork N)` its forks are given, so a fork of a
/// fork is named after the original.
pub fn fork_base_name(name: &str) -> &str {
    let trimmed = name.trim_end();
    if let Some(rest) = trimmed.strip_suffix(')') {
        if let Some(i) = rest.rfind(" (fork") {
            let tail = &rest[i + " (fork".len()..];
            if tail.is_empty() || (tail.starts_with(' ') && tail[1..].parse::<u32>().is_ok()) {
                return fork_base_name(&trimmed[..i]);
            }
        }
    }
    trimmed
}

/// The first name of `NAME (fork)`, `NAME (fork 2)`, ... (after [`fork_base_name`]) that
/// `taken` says is free; the server and the editor's fork form share it.
pub fn free_fork_name(source: &str, taken: impl Fn(&str) -> bool) -> Option<String> {
    // The base is cut so that `BASE (fork 1000)` still fits a template name's 120 characters.
    let base = fork_base_name(source);
    let keep = MAX_TEMPLATE_NAME_CHARS - " (fork 1000)".len();
    let base = match base.char_indices().nth(keep) {
        Some((at, _)) => base[..at].trim_end(),
        None => base,
    };
    (1..=1000)
        .map(|n| {
            if n == 1 {
                format!("{base} (fork)")
            } else {
                format!("{base} (fork {n})")
            }
        })
        .find(|name| !taken(name))
}

/// The first of `NAME`, `NAME (2)`, `NAME (3)`, ... that `taken` says is free: the name a
/// template made from a preset is offered.
pub fn free_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    let name = name.trim();
    (1..=1000)
        .map(|n| {
            if n == 1 {
                name.to_string()
            } else {
                format!("{name} ({n})")
            }
        })
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| name.to_string())
}

/// `POST /api/v1/templates/{id}/versions`: a new version on `base_version`. The config is given
/// as exactly one of `config` (a JSON object) and `config_text` (JSON or hjson, kept byte for
/// byte); both or neither is a 400.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VersionCreate {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub config: Option<Value>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub config_text: Option<String>,
    #[serde(default)]
    pub message: String,
    /// The version this edit started from; must be the current head or the answer is 409.
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub base_version: i64,
    /// Validation context; default: the context of the base version.
    #[serde(default, deserialize_with = "object_or_null")]
    pub context: Option<Context>,
}

/// A version in a list (without the config itself).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VersionSummary {
    pub version: i64,
    pub author: String,
    pub message: String,
    pub created_at: String,
    pub verdict: Verdict,
    pub errors: i64,
    pub warnings: i64,
}

/// One immutable version: the text exactly as saved, its parsed value and its diagnostics.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Version {
    pub template_id: i64,
    pub template_name: String,
    pub version: i64,
    pub config_text: String,
    /// The config as JSON (`null` when the text does not parse; any JSON value otherwise,
    /// an object for every config DeepSpeed could read).
    #[cfg_attr(feature = "openapi", schema(value_type = Value))]
    pub config: Value,
    /// The context the diagnostics were computed in.
    pub context: Context,
    pub diagnostics: Vec<Diagnostic>,
    pub verdict: Verdict,
    pub author: String,
    pub message: String,
    pub created_at: String,
}

/// A semantic change between two configs at JSON-pointer level.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Change {
    /// `add`, `remove` or `replace`.
    pub op: String,
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Value))]
    pub old: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Value))]
    pub new: Option<Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VersionRef {
    pub template_id: i64,
    pub template_name: String,
    pub version: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Diff {
    pub from: VersionRef,
    pub to: VersionRef,
    pub changes: Vec<Change>,
    /// Unified diff of the canonical texts.
    pub text_diff: String,
    pub diagnostics_introduced: Vec<Diagnostic>,
    pub diagnostics_resolved: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ShareCreate {
    /// The version to share; default: the head at the time of sharing.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub version: Option<i64>,
    /// RFC 3339 expiry; default: never.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(format = DateTime, pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"))]
    pub expires_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Share {
    pub id: i64,
    pub template_id: i64,
    pub version: i64,
    pub prefix: String,
    pub created_by: String,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    pub revoked: bool,
}

/// A new read-only link: `token` and `url` are shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ShareCreated {
    pub token: String,
    /// Page that opens the shared version without an account.
    pub url: String,
    /// The same version through the API.
    pub api_url: String,
    #[serde(flatten)]
    pub share: Share,
}

/// What a share link shows: the template's name and description, and the version.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct SharedView {
    pub template_name: String,
    pub description: String,
    pub tags: Vec<String>,
    pub team_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    pub version: Version,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ForkRequest {
    /// Team of the new template; default: the caller's only team.
    #[serde(default)]
    pub team_id: Option<i64>,
    /// Name of the new template; default: "<name> (fork)".
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 120,
            pattern = "^[^/\\x00-\\x1f\\x7f-\\x9f]*[^/\\s\\x00-\\x1f\\x7f-\\x9f][^/\\x00-\\x1f\\x7f-\\x9f]*$"
        )
    )]
    pub name: Option<String>,
    /// Version to fork; default: the head.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub version: Option<i64>,
}

/// `POST /api/v1/validate`: the config as exactly one of `config` (any JSON value) and
/// `config_text` (JSON or hjson, as written); both or neither is a 400.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(example = json!({
        "config": {"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1,
                   "zero_optimization": {"stage": 2}},
        "context": {"world_size": 8}
    }))
)]
pub struct ValidateRequest {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub config: Option<Value>,
    #[serde(
        default,
        alias = "text",
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub config_text: Option<String>,
    #[serde(default, deserialize_with = "object_or_null")]
    pub context: Option<Context>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ValidateResponse {
    pub verdict: Verdict,
    pub diagnostics: Vec<Diagnostic>,
}

/// One DeepSpeed release ds-studio judges configs for.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ReleaseInfo {
    /// `0.18.4`.
    pub version: String,
    /// Keys that arrive in this release (dotted paths).
    pub added: Vec<String>,
    /// Keys this release removes or stops reading.
    pub removed: Vec<String>,
    /// Keys whose default changes in this release.
    pub defaults_changed: Vec<String>,
}

/// `GET /api/v1/deepspeed/releases`: every release, oldest first, and the default.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ReleasesResponse {
    pub releases: Vec<ReleaseInfo>,
    /// The release a context without `deepspeed_version` is judged for (the newest).
    pub default: String,
}

impl ReleasesResponse {
    /// The list, from the registry.
    pub fn current() -> ReleasesResponse {
        let reg = crate::registry::registry();
        let releases = crate::release::Release::all()
            .map(|r| {
                let mut info = ReleaseInfo {
                    version: r.to_string(),
                    added: Vec::new(),
                    removed: Vec::new(),
                    defaults_changed: Vec::new(),
                };
                for k in reg.keys() {
                    if k.since == Some(r) && !k.path.contains('<') {
                        info.added.push(k.path.clone());
                    }
                    if (k.until == Some(r) || k.removed_in == Some(r)) && !k.path.contains('<') {
                        info.removed.push(k.path.clone());
                    }
                    if r != crate::release::Release::OLDEST
                        && k.defaults.iter().any(|(from, _)| *from == r)
                    {
                        info.defaults_changed.push(k.path.clone());
                    }
                }
                info
            })
            .collect();
        ReleasesResponse {
            releases,
            default: crate::release::Release::newest().to_string(),
        }
    }
}

/// Tags: at most 20 strings of 1-40 characters (blank ones are dropped).
#[cfg(feature = "openapi")]
fn tags_schema() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(40))
                .pattern(Some("^[^\\x00-\\x1f\\x7f-\\x9f]*$")),
        )
        .max_items(Some(20))
        .build()
}

/// A field that may be left out but, when given, is not `null` (`config`, `config_text`:
/// exactly one of the two is given, and a `null` would make that ambiguous).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    let v = Value::deserialize(d)?;
    if v.is_null() {
        return Err(serde::de::Error::custom(
            "must not be null (leave the field out instead)",
        ));
    }
    T::deserialize(v)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// An optional object field: `null` or left out is `None`; anything but an object is refused
/// (serde would otherwise read an array into a struct's fields).
pub(crate) fn object_or_null<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v @ Value::Object(_) => T::deserialize(v)
            .map(Some)
            .map_err(serde::de::Error::custom),
        other => Err(serde::de::Error::custom(format!(
            "must be an object, found {}",
            match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "a boolean",
            }
        ))),
    }
}

/// Percent-encodes a query-string value (RFC 3986 unreserved characters kept), for the clients
/// that build `/api/v1/...?q=` URLs (CLI and browser).
pub fn encode_query_value(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The config of a request, as text: `config_text` kept as is, or `config` printed as pretty
/// JSON. Exactly one of the two must be given.
pub fn config_text_of(config: Option<&Value>, text: Option<&str>) -> Result<String, String> {
    match (config, text) {
        (Some(_), Some(_)) => Err("give either `config` or `config_text`, not both".into()),
        (None, None) => Err("missing `config` (a JSON object) or `config_text` (a string)".into()),
        (None, Some(t)) => Ok(t.to_string()),
        (Some(v), None) => {
            serde_json::to_string_pretty(v).map_err(|e| format!("config cannot be printed: {e}"))
        }
    }
}

#[cfg(test)]
mod fork_name_tests {
    use super::*;

    #[test]
    fn forks_are_numbered_after_the_original() {
        assert_eq!(fork_base_name("llama (fork)"), "llama");
        assert_eq!(fork_base_name("llama (fork 3) (fork)"), "llama");
        assert_eq!(fork_base_name("llama (forked)"), "llama (forked)");
        assert_eq!(fork_base_name("llama (fork x)"), "llama (fork x)");
        assert_eq!(fork_base_name("(fork)"), "(fork)");
        let taken = ["llama (fork)", "llama (fork 2)"];
        assert_eq!(
            free_fork_name("llama (fork)", |n| taken.contains(&n)).as_deref(),
            Some("llama (fork 3)")
        );
        assert_eq!(
            free_fork_name("zero3", |_| false).as_deref(),
            Some("zero3 (fork)")
        );
        assert_eq!(free_fork_name("x", |_| true), None);
        // A source name of 120 characters still gets a fork name a template may have.
        let long = "é".repeat(120);
        let name = free_fork_name(&long, |_| false).unwrap();
        assert!(name.chars().count() <= MAX_TEMPLATE_NAME_CHARS, "{name}");
        assert!(name.ends_with(" (fork)"));
        let name = free_fork_name(&long, |n| !n.ends_with("(fork 1000)")).unwrap();
        assert!(name.chars().count() <= MAX_TEMPLATE_NAME_CHARS, "{name}");
    }

    #[test]
    fn a_preset_name_is_numbered_when_taken() {
        let taken = ["ZeRO-2", "ZeRO-2 (2)"];
        assert_eq!(free_name(" ZeRO-2 ", |n| taken.contains(&n)), "ZeRO-2 (3)");
        assert_eq!(free_name("ZeRO-3", |n| taken.contains(&n)), "ZeRO-3");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_built_in_rust_round_trips_through_its_own_rules() {
        // `config` left out is not sent as `null`, which the server refuses.
        let req = TemplateCreate {
            name: "x".into(),
            description: None,
            tags: None,
            team_id: None,
            config: None,
            config_text: Some("{}".into()),
            message: None,
            context: None,
        };
        let json = serde_json::to_value(&req).unwrap();
        assert!(json.get("config").is_none(), "{json}");
        let back: TemplateCreate = serde_json::from_value(json).unwrap();
        assert_eq!(back.config_text.as_deref(), Some("{}"));
        let null: Result<TemplateCreate, _> =
            serde_json::from_value(serde_json::json!({"name": "x", "config": null}));
        assert!(null.unwrap_err().to_string().contains("must not be null"));
        let array: Result<ValidateRequest, _> =
            serde_json::from_value(serde_json::json!({"config": {}, "context": []}));
        assert!(array.unwrap_err().to_string().contains("must be an object"));
    }
}

/// `POST /api/v1/trainer-args/import`: a training file's text (LLaMA-Factory or axolotl YAML,
/// `accelerate config` YAML, or a command line).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TrainerArgsImport {
    /// The file's text (at most 1 MiB).
    #[cfg_attr(
        feature = "openapi",
        schema(
            example = "per_device_train_batch_size: 4\ngradient_accumulation_steps: 8\nlearning_rate: 2.0e-5\nbf16: true\ndeepspeed: ds_z2_config.json\n"
        )
    )]
    pub text: String,
}

/// A bidirectional control (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C): it can make
/// a name read differently from what it holds ("Trojan Source"), so names refuse it.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// A character a name should not hold because it cannot be seen, or changes how the rest reads:
/// a bidirectional control ([`is_bidi_control`]), a zero-width or other format character (U+200B
/// to U+200D, U+2060 to U+2064, U+FEFF, the soft hyphen U+00AD, the interlinear annotation
/// marks U+FFF9 to U+FFFB, the tag characters U+E0000 to U+E007F), a line or paragraph
/// separator (U+2028, U+2029), a Hangul filler (U+115F, U+1160, U+3164, U+FFA0). With them
/// `base` and `base` followed by U+200B are two different names that look the same.
pub fn is_hidden_char(c: char) -> bool {
    is_bidi_control(c)
        || matches!(
            c,
            '\u{200B}'..='\u{200D}'
                | '\u{2060}'..='\u{2064}'
                | '\u{FEFF}'
                | '\u{00AD}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{3164}'
                | '\u{FFA0}'
        )
}
