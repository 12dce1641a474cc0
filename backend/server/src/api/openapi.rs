//! The OpenAPI 3.1 document at `/api/openapi.json` and a vendored Swagger UI at `/api/docs`.
//!
//! The operations are one table ([`OPERATIONS`]) next to the schemas derived from the shared
//! API types (`utoipa::ToSchema`), so the handlers stay three-line glue. A test checks that
//! every operation in the table is a route the router answers, so the two cannot drift apart.

use crate::state::AppState;
use axum::Router;
use ds_studio_shared::api as t;
use std::sync::OnceLock;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, ObjectBuilder, Ref, SchemaFormat, Type};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, OpenApiBuilder, PathItem,
    PathsBuilder, RefOr, Required, ResponseBuilder, Schema, SecurityRequirement,
};

pub fn router() -> Router<AppState> {
    let ui = utoipa_swagger_ui::SwaggerUi::new("/api/docs")
        .config(utoipa_swagger_ui::Config::from("/api/openapi.json"));
    Router::new()
        .route(
            "/api/openapi.json",
            axum::routing::get(|| async { axum::Json(document()) }),
        )
        .merge(Router::<AppState>::from(ui))
}

/// What an operation answers on success.
#[derive(Clone, Copy)]
pub enum Body {
    None,
    /// A component schema by name.
    One(&'static str),
    /// A `Page` of a component.
    Page(&'static str),
    /// An array of a component.
    List(&'static str),
    /// Any JSON object.
    Object,
}

/// One row of the API table.
pub struct Operation {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub tag: &'static str,
    /// Needs a signed-in caller (cookie or bearer token).
    pub auth: bool,
    pub request: Body,
    pub status: u16,
    pub response: Body,
    /// Query parameters (name, description).
    pub query: &'static [(&'static str, &'static str)],
}

const PAGE: &[(&str, &str)] = &[
    ("offset", "items to skip (default 0)"),
    ("limit", "items per page, 1-200 (default 50)"),
];

macro_rules! op {
    ($m:literal $p:literal $tag:literal $auth:literal $req:expr => $status:literal $resp:expr, $q:expr, $sum:literal) => {
        Operation {
            method: $m,
            path: $p,
            summary: $sum,
            tag: $tag,
            auth: $auth,
            request: $req,
            status: $status,
            response: $resp,
            query: $q,
        }
    };
}

use Body::{List, None as NoBody, Object, One, Page};

#[rustfmt::skip]
pub const OPERATIONS: &[Operation] = &[
    op!("post" "/api/v1/validate" "config" false One("ValidateRequest") => 200 One("ValidateResponse"), &[], "Validate a config as a DeepSpeed release (context.deepspeed_version, 0.14.4-0.19.8, default 0.19.8) would, with warnings and hints"),
    op!("get" "/api/v1/schema" "config" false NoBody => 200 Object, &[], "The JSON Schema of DeepSpeed configs (the newest release)"),
    op!("get" "/api/v1/schema/{release}" "config" false NoBody => 200 Object, &[("launcher", "deepspeed (default), hf-trainer or accelerate: where \"auto\" is taken"), ("lang", "en (default) or zh: descriptions and messages"), ("keywords", "editor (default: with VS Code's markdownDescription, deprecationMessage, errorMessage) or standard")], "The JSON Schema of one DeepSpeed release (`0.18.4` or `0.18.4.json`; usable as `$schema` in an editor)"),
    op!("get" "/api/v1/deepspeed/releases" "config" false NoBody => 200 One("ReleasesResponse"), &[], "The DeepSpeed releases ds-studio judges configs for, with the keys each adds, removes and re-defaults"),
    op!("post" "/api/v1/trainer-args/import" "config" false One("TrainerArgsImport") => 200 One("Imported"), &[], "Read the HF Trainer's arguments (and launcher, world size, DeepSpeed config path) from a LLaMA-Factory or axolotl YAML, an accelerate config YAML or a command line"),
    op!("post" "/api/v1/auth/login" "auth" false One("LoginRequest") => 200 One("Me"), &[], "Sign in with a password; sets the session cookie"),
    op!("post" "/api/v1/auth/logout" "auth" true NoBody => 204 NoBody, &[], "Sign out (ends the session)"),
    op!("get" "/api/v1/auth/me" "auth" true NoBody => 200 One("Me"), &[], "Who is signed in, their teams and the CSRF token"),
    op!("get" "/api/v1/auth/session" "auth" false NoBody => 200 One("SessionState"), &[], "Who is signed in: the same as /auth/me, or no `me` when nobody is (200 either way)"),
    op!("get" "/api/v1/users" "users" true NoBody => 200 Page("User"), PAGE, "List users"),
    op!("post" "/api/v1/users" "users" true One("UserCreate") => 201 One("User"), &[], "Create a user (server admins)"),
    op!("get" "/api/v1/users/{id}" "users" true NoBody => 200 One("User"), &[], "A user"),
    op!("patch" "/api/v1/users/{id}" "users" true One("UserUpdate") => 200 One("User"), &[], "Change a user (oneself, or any as server admin)"),
    op!("post" "/api/v1/users/{id}/signin-link" "users" true One("SigninLinkCreate") => 201 One("SigninLink"), &[], "A one-time sign-in link for a user, valid 24 hours (server admins); `reset_password` also removes their password and ends their sessions"),
    op!("get" "/api/v1/users/{id}/tokens" "tokens" true NoBody => 200 List("ApiToken"), &[], "A user's API tokens"),
    op!("post" "/api/v1/users/{id}/tokens" "tokens" true One("TokenCreate") => 201 One("TokenCreated"), &[], "Create an API token for a user (shown once)"),
    op!("get" "/api/v1/teams" "teams" true NoBody => 200 List("Team"), &[], "The caller's teams"),
    op!("post" "/api/v1/teams" "teams" true One("TeamCreate") => 201 One("Team"), &[], "Create a team (the caller becomes its admin)"),
    op!("get" "/api/v1/teams/{id}" "teams" true NoBody => 200 One("Team"), &[], "A team"),
    op!("patch" "/api/v1/teams/{id}" "teams" true One("TeamUpdate") => 200 One("Team"), &[], "Rename a team (team admins)"),
    op!("delete" "/api/v1/teams/{id}" "teams" true NoBody => 204 NoBody, &[], "Delete a team and its templates (team admins)"),
    op!("get" "/api/v1/teams/{id}/members" "teams" true NoBody => 200 List("Member"), &[], "Members of a team"),
    op!("post" "/api/v1/teams/{id}/members" "teams" true One("MemberAdd") => 200 List("Member"), &[], "Add a member by user name, or change their role (team admins; the last admin is not demoted)"),
    op!("put" "/api/v1/teams/{id}/members/{user_id}" "teams" true One("MemberPut") => 200 List("Member"), &[], "Add a member or change their role (team admins)"),
    op!("delete" "/api/v1/teams/{id}/members/{user_id}" "teams" true NoBody => 204 NoBody, &[], "Remove a member (team admins)"),
    op!("get" "/api/v1/tokens" "tokens" true NoBody => 200 List("ApiToken"), &[], "The caller's API tokens"),
    op!("post" "/api/v1/tokens" "tokens" true One("TokenCreate") => 201 One("TokenCreated"), &[], "Create an API token (shown once)"),
    op!("delete" "/api/v1/tokens/{id}" "tokens" true NoBody => 204 NoBody, &[], "Revoke an API token"),
    op!("get" "/api/v1/templates" "templates" true NoBody => 200 Page("Template"), &[("q", "substring of the name"), ("tag", "only templates with this tag"), ("team_id", "only this team"), ("offset", "items to skip"), ("limit", "items per page, 1-200")], "List and search templates"),
    op!("post" "/api/v1/templates" "templates" true One("TemplateCreate") => 201 One("Template"), &[], "Create a template with its version 1"),
    op!("get" "/api/v1/templates/{id}" "templates" true NoBody => 200 One("Template"), &[], "A template"),
    op!("patch" "/api/v1/templates/{id}" "templates" true One("TemplateUpdate") => 200 One("Template"), &[], "Rename, describe or tag a template (editors)"),
    op!("delete" "/api/v1/templates/{id}" "templates" true NoBody => 204 NoBody, &[], "Delete a template and all its versions (team admins)"),
    op!("get" "/api/v1/templates/{id}/versions" "versions" true NoBody => 200 Page("VersionSummary"), PAGE, "Versions of a template, newest first"),
    op!("post" "/api/v1/templates/{id}/versions" "versions" true One("VersionCreate") => 201 One("Version"), &[], "Save a new version on a base version (409 with the head when it is stale)"),
    op!("get" "/api/v1/templates/{id}/versions/{n}" "versions" true NoBody => 200 One("Version"), &[], "One immutable version (`n` may be `head`), with an ETag"),
    op!("get" "/api/v1/templates/{id}/diff" "versions" true NoBody => 200 One("Diff"), &[("from", "version (number or head)"), ("to", "version (number or head)"), ("to_template", "template of `to`, when it is another template")], "Semantic, text and validation diff of two versions"),
    op!("post" "/api/v1/templates/{id}/fork" "templates" true One("ForkRequest") => 201 One("Template"), &[], "Fork a version into a new template"),
    op!("post" "/api/v1/templates/{id}/share" "sharing" true One("ShareCreate") => 201 One("ShareCreated"), &[], "Create a read-only share link (token shown once)"),
    op!("get" "/api/v1/templates/{id}/shares" "sharing" true NoBody => 200 List("Share"), &[], "Share links of a template"),
    op!("delete" "/api/v1/templates/{id}/shares/{share_id}" "sharing" true NoBody => 204 NoBody, &[], "Revoke a share link"),
    op!("get" "/api/v1/shared/{token}" "sharing" false NoBody => 200 One("SharedView"), &[], "Open a share link (no account needed)"),
    op!("post" "/api/v1/shared/{token}/fork" "sharing" true One("ForkRequest") => 201 One("Template"), &[], "Fork the version a share link opens into your team (signed in; the link is the permission to read it)"),
    op!("post" "/api/v1/jobs" "jobs" true One("JobCreate") => 201 One("Job"), &[], "Run a pinned template version (422 config_rejected with diagnostics when it has errors for the job's world size)"),
    op!("get" "/api/v1/jobs" "jobs" true NoBody => 200 Page("Job"), &[("template_id", "only jobs of this template"), ("state", "queued, running, succeeded, failed, cancelled or lost; comma-separated for any of several"), ("runner", "only jobs this runner claimed"), ("deepspeed", "only jobs run with this DeepSpeed release"), ("world", "world size (nodes x GPUs)"), ("zero_stage", "0-3"), ("precision", "bf16, fp16 or fp32"), ("offload", "none, any, cpu or nvme"), ("micro_batch", "micro batch per GPU"), ("tag", "only runs with this tag"), ("q", "words in the run's name or note or its template's name"), ("sort", "id, name, state, template, runner, deepspeed, world, zero_stage, precision, offload, micro_batch, duration, final_loss, samples_per_sec or peak_memory_mb; a leading - sorts descending (default -id); missing values last"), ("offset", "items to skip"), ("limit", "items per page, 1-200")], "The runs table: jobs filtered and sorted on the server (unknown filters are a 400)"),
    op!("get" "/api/v1/jobs/{id}" "jobs" true NoBody => 200 One("Job"), &[], "A job: state, timings, runner, exit code, preflight, facts and figures"),
    op!("patch" "/api/v1/jobs/{id}" "jobs" true One("RunLabels") => 200 One("Job"), &[], "Name, note or tag a run (editors of its team)"),
    op!("post" "/api/v1/jobs/{id}/cancel" "jobs" true NoBody => 200 One("Job"), &[], "Cancel a job (a running one stops within seconds; 409 when it already ended)"),
    op!("get" "/api/v1/jobs/{id}/metrics" "jobs" true NoBody => 200 List("MetricSeries"), &[("name", "only this series"), ("max_points", "downsample each series in the database to at most this many points (3-100000): first and last kept, the rest averaged in buckets; ask for about the chart's width in pixels"), ("until", "only points stored up to this sequence number (read up to a job's last_seq, then follow /events?after=last_seq)")], "A job's metric series"),
    op!("get" "/api/v1/jobs/{id}/logs" "jobs" true NoBody => 200 List("LogLine"), &[("after", "only lines after this sequence number"), ("limit", "lines, 1-10000 (default 1000)"), ("tail", "the last N lines instead (1-10000)"), ("until", "with tail: the last lines stored up to this sequence number")], "A job's log lines"),
    op!("get" "/api/v1/jobs/{id}/events" "jobs" true NoBody => 200 NoBody, &[("after", "resume after this sequence number (or send Last-Event-ID)")], "Live events (SSE): `state` (a Job), `metric` (a MetricPoint), `log` (a LogLine); ids are sequence numbers"),
    op!("post" "/api/v1/sweeps" "sweeps" true One("SweepCreate") => 201 One("Sweep"), &[], "Start a sweep: a grid over config keys, each point checked by the validator and the memory model (pruned with its reason) and the rest queued as jobs tagged `sweep`, spread over the runners given (422 when no point can run)"),
    op!("get" "/api/v1/sweeps" "sweeps" true NoBody => 200 List("Sweep"), &[("template_id", "only sweeps of this template")], "The newest sweeps the caller can see (at most 100; points without their configs)"),
    op!("get" "/api/v1/sweeps/{id}" "sweeps" true NoBody => 200 One("Sweep"), &[], "A sweep: every point with its state, estimate, throughput, measured peak and reason; the ranking by samples/s and the best point"),
    op!("post" "/api/v1/sweeps/{id}/cancel" "sweeps" true NoBody => 200 One("Sweep"), &[], "Cancel a sweep: every point that has not ended is cancelled (409 when it already ended)"),
    op!("get" "/api/v1/sweeps/{id}/events" "sweeps" true NoBody => 200 NoBody, &[], "Live sweep (SSE): `sweep` events (a Sweep), one now and one each time a point changes state or reports throughput; the stream ends after the sweep ends"),
    op!("post" "/api/v1/sweeps/{id}/save-best" "sweeps" true One("SweepSaveBest") => 201 One("Version"), &[], "Save the fastest point's config as a new version (merged into the head when the template moved on; 409 when nothing succeeded yet or a key conflicts)"),
    op!("get" "/api/v1/runners" "runners" true NoBody => 200 List("Runner"), &[], "Runners and whether they are online"),
    op!("get" "/api/v1/runner-tokens" "runners" true NoBody => 200 List("RunnerToken"), &[], "Runner tokens (server admins)"),
    op!("post" "/api/v1/runner-tokens" "runners" true One("RunnerTokenCreate") => 201 One("RunnerTokenCreated"), &[], "Create a runner token for one runner name, optionally one team's jobs only (server admins; the token is shown once)"),
    op!("delete" "/api/v1/runner-tokens/{id}" "runners" true NoBody => 200 One("RunnerToken"), &[], "Revoke a runner token (server admins)"),
    op!("post" "/api/v1/runners" "runners" true One("RunnerRegister") => 201 One("Runner"), &[], "Register a runner (runner token for that name; the same name reuses its record)"),
    op!("post" "/api/v1/runners/{id}/heartbeat" "runners" true One("Heartbeat") => 200 One("HeartbeatReply"), &[], "A runner's heartbeat; answers the jobs it must stop"),
    op!("post" "/api/v1/runners/{id}/claim" "runners" true NoBody => 200 One("ClaimedJob"), &[("wait_s", "seconds to wait for a job, 0-60 (204 when none came)")], "Claim the oldest queued job this runner can run (long poll)"),
    op!("post" "/api/v1/runners/{id}/jobs/{job}/events" "runners" true One("EventBatch") => 200 One("EventAck"), &[], "Store a batch of a job's events (duplicates by sequence number are dropped)"),
    op!("post" "/api/v1/runners/{id}/jobs/{job}/state" "runners" true One("JobStateUpdate") => 200 One("Job"), &[], "Report a job's preflight or final state"),
];

fn schema_ref(b: Body) -> Option<RefOr<Schema>> {
    let r = |n: &str| RefOr::Ref(Ref::from_schema_name(n));
    Some(match b {
        Body::None => return None,
        Body::One(n) => r(n),
        Body::Object => ObjectBuilder::new().build().into(),
        Body::List(n) => ArrayBuilder::new().items(r(n)).build().into(),
        Body::Page(n) => r(&format!("{n}Page")),
    })
}

/// The schema of one page of `item`s (named `{item}Page` in the components).
fn page_schema(item: &str) -> Schema {
    let r = |n: &str| RefOr::Ref(Ref::from_schema_name(n));
    ObjectBuilder::new()
        .description(Some(format!(
            "One page of {item}s; `next_offset` is absent on the last page."
        )))
        .property("items", ArrayBuilder::new().items(r(item)))
        .required("items")
        .property("total", ObjectBuilder::new().schema_type(Type::Integer))
        .required("total")
        .property("offset", ObjectBuilder::new().schema_type(Type::Integer))
        .required("offset")
        .property("limit", ObjectBuilder::new().schema_type(Type::Integer))
        .required("limit")
        .property(
            "next_offset",
            ObjectBuilder::new().schema_type(Type::Integer),
        )
        .build()
        .into()
}

/// The schema of a path or query parameter of the operation at `path`, typed as the server
/// parses it. Every name must be here: an undeclared one panics (the document test builds the
/// whole table).
fn param_schema(path: &str, name: &str) -> ObjectBuilder {
    let int = || {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
    };
    let range = |min: i64, max: Option<i64>| {
        int()
            .minimum(Some(min as f64))
            .maximum(max.map(|m| m as f64))
    };
    let string = || ObjectBuilder::new().schema_type(Type::String);
    let one_of = |values: &[&str]| string().enum_values(Some(values.to_vec()));
    let logs = path.ends_with("/logs");
    match name {
        // Path ids, and the integer filters the server reads as whole numbers.
        "id" | "user_id" | "share_id" | "job" | "to_template" | "team_id" => range(1, None),
        "template_id" | "world" | "micro_batch" => int(),
        "offset" => range(0, None),
        "limit" if logs => range(1, Some(super::jobs::MAX_LOG_LINES)),
        "limit" => range(1, Some(super::paging::MAX_LIMIT)),
        "tail" => range(1, Some(super::jobs::MAX_LOG_LINES)),
        "after" | "until" => range(0, None),
        "wait_s" => range(0, Some(super::runners::MAX_WAIT_S as i64)),
        "max_points" => range(3, Some(100_000)),
        "zero_stage" => range(0, Some(3)),
        "n" | "from" | "to" => string().pattern(Some("^([0-9]{1,18}|head|latest)$")),
        "token" | "tag" | "name" | "runner" => string(),
        "q" => string().max_length(Some(ds_studio_shared::api::MAX_QUERY_TEXT)),
        "deepspeed" => string().pattern(Some(r"^[0-9]+\.[0-9]+\.[0-9]+$")),
        "launcher" => one_of(&["deepspeed", "hf-trainer", "accelerate"]),
        "lang" => one_of(&["en", "zh"]),
        "keywords" => one_of(&["editor", "standard"]),
        "precision" => one_of(ds_studio_shared::api::PRECISIONS),
        "offload" => one_of(&["none", "any", "cpu", "nvme"]),
        // A pattern, not an enum: generated clients name `-final_loss` `VALUE_25`.
        "sort" => string().pattern(Some(format!(
            "^-?({})$",
            ds_studio_shared::api::SORT_KEYS.join("|")
        ))),
        "release" => string().pattern(Some(r"^0\.1[4-9]\.[0-9]{1,2}(\.json)?$")),
        "state" => {
            let one = "(queued|running|succeeded|failed|cancelled|lost)";
            string().pattern(Some(format!("^{one}(,{one})*$")))
        }
        other => panic!("the OpenAPI table names parameter `{other}` of {path} without a schema"),
    }
}

fn json(schema: RefOr<Schema>) -> utoipa::openapi::Content {
    ContentBuilder::new().schema(Some(schema)).build()
}

fn method(m: &str) -> HttpMethod {
    match m {
        "get" => HttpMethod::Get,
        "post" => HttpMethod::Post,
        "put" => HttpMethod::Put,
        "patch" => HttpMethod::Patch,
        _ => HttpMethod::Delete,
    }
}

fn build() -> OpenApi {
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("ds-studio API")
                .version(env!("CARGO_PKG_VERSION"))
                .license(Some(
                    utoipa::openapi::LicenseBuilder::new()
                        .name(env!("CARGO_PKG_LICENSE"))
                        .identifier(Some(env!("CARGO_PKG_LICENSE")))
                        .build(),
                ))
                .description(Some(
                    "DeepSpeed config studio: validation, templates with immutable versions, \
                     diffs and share links, jobs on runners with the real DeepSpeed engine and \
                     live metrics (SSE). Every error answers `{\"error\": {\"code\", \
                     \"message\"}}`.",
                ))
                .build(),
        )
        .servers(Some(vec![utoipa::openapi::Server::new("/")]))
        .paths(paths())
        .components(Some(components()))
        .build()
}

/// Every operation of [`OPERATIONS`], grouped by path.
fn paths() -> utoipa::openapi::Paths {
    let mut items: Vec<(&str, PathItem)> = Vec::new();
    for o in OPERATIONS {
        let op = operation(o);
        match items.iter_mut().find(|(p, _)| *p == o.path) {
            Some((_, item)) => {
                item.merge_operations(PathItem::new(method(o.method), op));
            }
            None => items.push((o.path, PathItem::new(method(o.method), op))),
        }
    }
    items
        .into_iter()
        .fold(PathsBuilder::new(), |paths, (p, item)| paths.path(p, item))
        .build()
}

/// One operation: its parameters, body, answers (success, each 4xx it can give, `default`)
/// and security.
fn operation(o: &Operation) -> utoipa::openapi::path::Operation {
    let mut b = OperationBuilder::new()
        .summary(Some(o.summary))
        .tag(o.tag)
        .operation_id(Some(operation_id(o)));
    for seg in o.path.split('/').filter(|s| s.starts_with('{')) {
        let name = seg.trim_matches(['{', '}']);
        b = b.parameter(
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .schema(Some(param_schema(o.path, name))),
        );
    }
    for (name, desc) in o.query {
        let required = matches!((o.path.ends_with("/diff"), *name), (true, "from" | "to"));
        b = b.parameter(
            ParameterBuilder::new()
                .name(*name)
                .description(Some(*desc))
                .parameter_in(ParameterIn::Query)
                .required(if required {
                    Required::True
                } else {
                    Required::False
                })
                .schema(Some(param_schema(o.path, name))),
        );
    }
    if let Some(s) = schema_ref(o.request) {
        let optional = matches!(
            o.request,
            Body::One("ForkRequest" | "ShareCreate" | "SweepSaveBest")
        );
        b = b.request_body(Some(
            RequestBodyBuilder::new()
                .content("application/json", json(s))
                .required(Some(if optional {
                    Required::False
                } else {
                    Required::True
                }))
                .build(),
        ));
    }
    let mut ok = ResponseBuilder::new().description(o.summary);
    if let Some(s) = schema_ref(o.response) {
        ok = ok.content("application/json", json(s));
    }
    if o.path.ends_with("/versions/{n}") || o.path.ends_with("/schema/{release}") {
        ok = ok.header(
            "ETag",
            utoipa::openapi::HeaderBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .description(Some(
                    "Send it back as If-None-Match to get a 304 while unchanged",
                ))
                .build(),
        );
    }
    if o.path.ends_with("/events") && o.method == "get" {
        ok = ok.content(
            "text/event-stream",
            ContentBuilder::new()
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .build(),
        );
    }
    b = b.response(o.status.to_string(), ok.build());
    for code in error_statuses(o) {
        b = b.response(code, RefOr::Ref(Ref::from_response_name("Error")));
    }
    b = b.response("default", RefOr::Ref(Ref::from_response_name("Error")));
    if o.path.ends_with("/claim") {
        b = b.response(
            "204",
            ResponseBuilder::new()
                .description("No job came within wait_s")
                .build(),
        );
    }
    if o.path.ends_with("/versions/{n}") || o.path.ends_with("/schema/{release}") {
        b = b.parameter(
            ParameterBuilder::new()
                .name("If-None-Match")
                .parameter_in(ParameterIn::Header)
                .required(Required::False)
                .description(Some(
                    "An ETag from an earlier answer (or `*`): 304 when it still matches",
                ))
                .schema(Some(ObjectBuilder::new().schema_type(Type::String))),
        );
        b = b.response(
            "304",
            ResponseBuilder::new()
                .description("Not modified (If-None-Match matched the ETag)")
                .build(),
        );
    }
    b = if o.auth {
        b.security(SecurityRequirement::new("bearer", Vec::<String>::new()))
            .security(SecurityRequirement::new("session", Vec::<String>::new()))
    } else {
        // Public: said, not left to a default.
        b.securities(Some(Vec::<SecurityRequirement>::new()))
    };
    b.build()
}

/// The schemas of every listed type (with those they refer to), the pages, the `Error`
/// response and the security schemes.
fn components() -> utoipa::openapi::Components {
    let mut components = ComponentsBuilder::new();
    macro_rules! schemas {
        ($($t:ty),* $(,)?) => { $( components = with_dependencies::<$t>(components); )* };
    }
    schemas!(
        t::ErrorBody,
        t::ErrorDetails,
        t::User,
        t::UserCreate,
        t::UserUpdate,
        t::SigninLinkCreate,
        t::SigninLink,
        t::LoginRequest,
        t::Me,
        t::SessionState,
        t::Team,
        t::TeamCreate,
        t::TeamUpdate,
        t::MemberAdd,
        t::Member,
        t::MemberPut,
        t::TokenCreate,
        t::ApiToken,
        t::TokenCreated,
        t::TemplateCreate,
        t::TemplateUpdate,
        t::Template,
        t::VersionCreate,
        t::VersionSummary,
        t::Version,
        t::Diff,
        t::ShareCreate,
        t::Share,
        t::ShareCreated,
        t::ForkRequest,
        t::ValidateRequest,
        t::ValidateResponse,
        t::ReleasesResponse,
        t::TrainerArgsImport,
        ds_studio_shared::launcher::import::Imported,
        t::SharedView,
        t::JobCreate,
        t::Job,
        t::RunLabels,
        t::MetricPoint,
        t::LogLine,
        t::MetricSeries,
        t::RunnerRegister,
        t::Runner,
        t::RunnerTokenCreate,
        t::RunnerToken,
        t::RunnerTokenCreated,
        t::Heartbeat,
        t::HeartbeatReply,
        t::ClaimedJob,
        t::RunnerEvent,
        t::EventBatch,
        t::EventAck,
        t::JobStateUpdate,
        t::SweepCreate,
        t::Sweep,
        t::SweepSaveBest,
    );
    for o in OPERATIONS {
        if let Body::Page(item) = o.response {
            components = components.schema(format!("{item}Page"), page_schema(item));
        }
    }
    components
        .response(
            "Error",
            ResponseBuilder::new()
                .description(
                    "An error: `{\"error\": {\"code\", \"message\", \"details\"?}}`. `code` is \
                     stable (`bad_request`, `unauthorized`, `forbidden`, `not_found`, `conflict`, \
                     `version_conflict`, `config_rejected`, `invalid_body`, `payload_too_large`, \
                     `unsupported_media_type`, `too_many_requests`, `limit_reached`, `busy`, \
                     `internal`); `details` comes with `version_conflict` (the head) and \
                     `config_rejected` (the diagnostics). 429 and 503 carry `Retry-After`.",
                )
                .content(
                    "application/json",
                    json(RefOr::Ref(Ref::from_schema_name("ErrorBody"))),
                )
                .build(),
        )
        .security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        )
        .security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                super::auth::SESSION_COOKIE,
                "Browser session; writes also need the X-CSRF-Token header",
            ))),
        )
        .build()
}

/// Adds `T`'s schema and every schema it refers to, so that no `$ref` of the document dangles.
fn with_dependencies<T: utoipa::ToSchema>(c: ComponentsBuilder) -> ComponentsBuilder {
    let mut deps = Vec::new();
    T::schemas(&mut deps);
    deps.into_iter()
        .fold(c.schema(T::name(), T::schema()), |c, (name, schema)| {
            c.schema(name, schema)
        })
}

/// `get_templates_id_versions` for `GET /api/v1/templates/{id}/versions`: the method and the
/// path's segments (what generated clients name their functions after).
fn operation_id(o: &Operation) -> String {
    let segments: Vec<&str> = o
        .path
        .trim_start_matches("/api/v1/")
        .trim_start_matches("/api/")
        .split('/')
        .map(|seg| seg.trim_matches(['{', '}']))
        .filter(|seg| !seg.is_empty())
        .collect();
    format!("{}_{}", o.method, segments.join("_").replace('-', "_"))
}

/// The 4xx answers an operation can give, beside its success and `default` (5xx).
fn error_statuses(o: &Operation) -> Vec<&'static str> {
    let mut out = vec!["400"];
    if o.auth {
        out.extend(["401", "403"]);
    }
    if o.path.contains('{') {
        out.push("404");
    }
    let writes = o.method != "get";
    if writes && o.auth {
        out.push("409");
    }
    if !matches!(o.request, Body::None) {
        out.extend(["413", "415", "422"]);
    } else if o.path == "/api/v1/jobs" && o.method == "post" {
        out.push("422");
    }
    // Rate limits: anonymous validation and import, sign-in attempts, open streams, runners.
    if !o.auth || o.path.ends_with("/events") || o.path.starts_with("/api/v1/runners/") {
        out.push("429");
    }
    out
}

/// The document (built once).
pub fn document() -> &'static serde_json::Value {
    static DOC: OnceLock<serde_json::Value> = OnceLock::new();
    DOC.get_or_init(|| serde_json::to_value(build()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` in `v`, anywhere.
    fn refs(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(r) = m.get("$ref").and_then(|r| r.as_str()) {
                    out.push(r.to_string());
                }
                m.values().for_each(|x| refs(x, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }

    #[test]
    fn every_reference_resolves() {
        let doc = document();
        let mut found = Vec::new();
        refs(doc, &mut found);
        assert!(found.len() > 100, "{}", found.len());
        for r in &found {
            let pointer = r.trim_start_matches('#');
            assert!(doc.pointer(pointer).is_some(), "dangling {r}");
        }
        for name in [
            "Fitted",
            "TextEdit",
            "ForkOrigin",
            "Context",
            "TrainerArgs",
            "FitChange",
        ] {
            assert!(
                doc["components"]["schemas"][name].is_object(),
                "{name} missing"
            );
        }
    }

    #[test]
    fn operations_say_who_may_call_them_and_how_they_fail() {
        let doc = document();
        for o in OPERATIONS {
            let op = &doc["paths"][o.path][o.method];
            let security = op["security"].as_array().expect("security said");
            assert_eq!(security.is_empty(), !o.auth, "{} {}", o.method, o.path);
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|k| k.starts_with('4')),
                "{} {} has no 4xx",
                o.method,
                o.path
            );
            // An id names the operation in generated clients: readable, unique.
            let id = op["operationId"].as_str().unwrap();
            assert!(
                id.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !id.contains("__"),
                "{id}"
            );
        }
        let ids: std::collections::HashSet<&str> = OPERATIONS
            .iter()
            .map(|o| {
                doc["paths"][o.path][o.method]["operationId"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        assert_eq!(ids.len(), OPERATIONS.len());
    }

    #[test]
    fn parameters_are_typed_as_the_server_reads_them() {
        let doc = document();
        let param = |path: &str, name: &str| {
            doc["paths"][path]["get"]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap_or_else(|| panic!("{path} {name}"))["schema"]
                .clone()
        };
        assert_eq!(
            param("/api/v1/jobs", "precision")["enum"],
            serde_json::json!(["bf16", "fp16", "fp32"])
        );
        assert_eq!(param("/api/v1/jobs", "zero_stage")["minimum"], 0.0);
        let sort = param("/api/v1/jobs", "sort")["pattern"].clone();
        assert!(
            sort.as_str().unwrap().starts_with("^-?(id|name|")
                && sort.as_str().unwrap().contains("|final_loss|"),
            "{sort}"
        );
        let one = "(queued|running|succeeded|failed|cancelled|lost)";
        assert_eq!(
            param("/api/v1/jobs", "state")["pattern"],
            format!("^{one}(,{one})*$"),
            "a comma list of states"
        );
        assert_eq!(
            param("/api/v1/jobs/{id}/logs", "limit")["maximum"],
            10_000.0
        );
        assert_eq!(param("/api/v1/jobs", "limit")["maximum"], 200.0);
        assert_eq!(param("/api/v1/jobs", "deepspeed")["type"], "string");
    }
}
