//! The API's one table of endpoints: each is a type that names its method, its path and the
//! types of its request and response body ([`Endpoint`]). The server routes by it
//! (`backend/server/src/api/typed.rs`: a handler whose body or answer is another type does not
//! compile), the OpenAPI document is built from [`ENDPOINTS`], and the browser and
//! `ds-studio-client` call through [`Url`], so a path or a type that drifts fails to compile.
//!
//! Query parameters stay strings (`Url::query`); their schemas are the OpenAPI builder's.
//!
//! ```
//! use ds_studio_shared::api::endpoints::GetVersion;
//! assert_eq!(GetVersion::url([&7, &"head"]).as_str(), "/api/v1/templates/7/versions/head");
//! ```
//!
//! A path given too few (or too many) parameters does not build:
//!
//! ```compile_fail
//! use ds_studio_shared::api::endpoints::GetVersion;
//! let _ = GetVersion::url([&7]);
//! ```

use super::{
    ApiToken, CatalogModel, ClaimedJob, Diff, EstimateRequest, EstimateResponse, EventAck,
    EventBatch, ForkRequest, Heartbeat, HeartbeatReply, Job, JobCreate, JobStateUpdate, LogLine,
    LoginRequest, Me, Member, MemberAdd, MemberPut, MetricSeries, Page, ReleasesResponse,
    RunLabels, Runner, RunnerRegister, RunnerToken, RunnerTokenCreate, RunnerTokenCreated,
    SessionState, Share, ShareCreate, ShareCreated, SharedView, SigninLink, SigninLinkCreate,
    Sweep, SweepCreate, SweepSaveBest, Team, TeamCreate, TeamUpdate, Template, TemplateCreate,
    TemplateUpdate, TokenCreate, TokenCreated, TrainerArgsImport, User, UserCreate, UserUpdate,
    ValidateRequest, ValidateResponse, Version, VersionCreate, VersionSummary,
};
use crate::launcher::imported::Imported;
use serde::de::{DeserializeOwned, Deserializer, IgnoredAny};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Display;
use std::marker::PhantomData;

/// An HTTP method of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    /// Lower case, as OpenAPI writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Post => "post",
            Method::Put => "put",
            Method::Patch => "patch",
            Method::Delete => "delete",
        }
    }
}

/// One endpoint: its method, its path (`{name}` for each path parameter, as axum and OpenAPI
/// write them) and the types of its JSON bodies.
pub trait Endpoint: Sized {
    const METHOD: Method;
    const PATH: &'static str;
    /// The request body ([`NoBody`] when there is none).
    type Request: Serialize + DeserializeOwned;
    /// The success answer's body ([`NoBody`] for 204, [`EventStream`] for SSE).
    type Response: Serialize + DeserializeOwned;
}

/// `E`'s path with its parameters filled in, in order (each percent-encoded). Giving more or
/// fewer values than the path has parameters fails to build. Each endpoint type has it as
/// `GetJob::url([&id])`.
pub fn url<E: Endpoint, const N: usize>(args: [&dyn Display; N]) -> Url<E> {
    const {
        assert!(
            placeholders(E::PATH) == N,
            "wrong number of path parameters"
        )
    };
    let mut path = String::with_capacity(E::PATH.len() + 8);
    let mut args = args.iter();
    let mut rest = E::PATH;
    while let Some(open) = rest.find('{') {
        path.push_str(&rest[..open]);
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
        if let Some(a) = args.next() {
            path.push_str(&super::encode_query_value(&a.to_string()));
        }
        rest = &rest[close..];
    }
    path.push_str(rest);
    Url {
        path,
        has_query: false,
        endpoint: PhantomData,
    }
}

/// How many `{name}` parameters a path has.
pub const fn placeholders(path: &str) -> usize {
    let bytes = path.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'{' {
            n += 1;
        }
        i += 1;
    }
    n
}

/// A URL of one endpoint (path and query), made only by [`url`]: a client that takes a
/// `Url<E>` sends `E::Request` and decodes `E::Response`.
#[derive(Debug, Clone, PartialEq)]
pub struct Url<E> {
    path: String,
    has_query: bool,
    endpoint: PhantomData<fn() -> E>,
}

impl<E> Url<E> {
    /// Adds `key=value` to the query, the value percent-encoded.
    pub fn query(mut self, key: &str, value: impl Display) -> Self {
        self.path.push(if self.has_query { '&' } else { '?' });
        self.path.push_str(key);
        self.path.push('=');
        self.path
            .push_str(&super::encode_query_value(&value.to_string()));
        self.has_query = true;
        self
    }

    /// Adds `key=value` when there is a value.
    pub fn query_opt(self, key: &str, value: Option<impl Display>) -> Self {
        match value {
            Some(v) => self.query(key, v),
            None => self,
        }
    }

    /// Adds a query string that is already encoded (`a=1&b=2`; nothing when empty).
    pub fn encoded_query(mut self, query: &str) -> Self {
        let query = query.trim_start_matches(['?', '&']);
        if !query.is_empty() {
            self.path.push(if self.has_query { '&' } else { '?' });
            self.path.push_str(query);
            self.has_query = true;
        }
        self
    }

    pub fn as_str(&self) -> &str {
        &self.path
    }
}

impl<E> Display for Url<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)
    }
}

/// The body of a request that has none, or of a 204 answer: sent as `{}`, and anything (an
/// empty body read as `null` included) reads as it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoBody;

/// The answer of a live-events endpoint (`text/event-stream`), read with an event source, not
/// as JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventStream;

macro_rules! no_json {
    ($($t:ident),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_map(Some(0))?.end()
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                IgnoredAny::deserialize(d).map(|_| $t)
            }
        }
    )*};
}
no_json!(NoBody, EventStream);

/// One row of [`ENDPOINTS`]: what the OpenAPI document says of an endpoint.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    /// The endpoint type's name (`GetJob`).
    pub name: &'static str,
    pub method: Method,
    pub path: &'static str,
    pub tag: &'static str,
    /// Needs a signed-in caller (cookie or bearer token).
    pub auth: bool,
    /// The request and response types as written in the table (`Page<Template>`, `NoBody`).
    pub request: &'static str,
    pub status: u16,
    pub response: &'static str,
    /// Query parameters (name, description).
    pub query: &'static [(&'static str, &'static str)],
    pub summary: &'static str,
}

/// The paging parameters of a list.
pub const PAGE: &[(&str, &str)] = &[
    ("offset", "items to skip (default 0)"),
    ("limit", "items per page, 1-200 (default 50)"),
];

macro_rules! endpoints {
    ($($name:ident: $m:ident $p:literal $tag:literal $auth:literal $req:ty => $status:literal $resp:ty, $q:expr, $sum:literal;)*) => {
        $(
            #[doc = $sum]
            #[derive(Debug, Clone, Copy)]
            pub struct $name;
            impl Endpoint for $name {
                const METHOD: Method = Method::$m;
                const PATH: &'static str = $p;
                type Request = $req;
                type Response = $resp;
            }
            impl $name {
                /// This endpoint's URL, its path parameters filled in order (see [`url`]).
                pub fn url<const N: usize>(args: [&dyn Display; N]) -> Url<Self> {
                    url(args)
                }
            }
        )*
        /// Every endpoint of the API, in the OpenAPI document's order.
        pub const ENDPOINTS: &[Operation] = &[$(Operation {
            name: stringify!($name),
            method: Method::$m,
            path: $p,
            tag: $tag,
            auth: $auth,
            request: stringify!($req),
            status: $status,
            response: stringify!($resp),
            query: $q,
            summary: $sum,
        }),*];
    };
}

#[rustfmt::skip]
endpoints! {
    ValidateConfig: Post "/api/v1/validate" "config" false ValidateRequest => 200 ValidateResponse, &[], "Validate a config as a DeepSpeed release (context.deepspeed_version, 0.14.4-0.19.8, default 0.19.8) would, with warnings and hints";
    GetSchema: Get "/api/v1/schema" "config" false NoBody => 200 Value, &[], "The JSON Schema of DeepSpeed configs (the newest release)";
    GetReleaseSchema: Get "/api/v1/schema/{release}" "config" false NoBody => 200 Value, &[("launcher", "deepspeed (default), hf-trainer or accelerate: where \"auto\" is taken"), ("lang", "en (default) or zh: descriptions and messages"), ("keywords", "editor (default: with VS Code's markdownDescription, deprecationMessage, errorMessage) or standard")], "The JSON Schema of one DeepSpeed release (`0.18.4` or `0.18.4.json`; usable as `$schema` in an editor)";
    ListReleases: Get "/api/v1/deepspeed/releases" "config" false NoBody => 200 ReleasesResponse, &[], "The DeepSpeed releases ds-studio judges configs for, with the keys each adds, removes and re-defaults";
    ImportTrainerArgs: Post "/api/v1/trainer-args/import" "config" false TrainerArgsImport => 200 Imported, &[], "Read the HF Trainer's arguments (and launcher, world size, DeepSpeed config path) from a LLaMA-Factory or axolotl YAML, an accelerate config YAML or a command line";
    ListModels: Get "/api/v1/models" "models" false NoBody => 200 Vec<CatalogModel>, &[("q", "only models whose name, title or Hub repository holds every word (\"qwen 7b\")")], "The model catalog: common open models with their config.json facts and parameters (pick one by `name` in an estimate or a rehearsal; any other model is given by its config.json)";
    EstimateMemory: Post "/api/v1/estimate" "models" false EstimateRequest => 200 EstimateResponse, &[], "The predicted peak memory per GPU of a config training a model (a catalog name or a config.json; full fine-tuning or LoRA) on gpus_per_node x nodes, part by part; whether it fits gpu_memory_bytes and each online runner the caller may use, and the configs that would (anonymous callers: no runners, rate-limited)";
    Login: Post "/api/v1/auth/login" "auth" false LoginRequest => 200 Me, &[], "Sign in with a password; sets the session cookie";
    Logout: Post "/api/v1/auth/logout" "auth" true NoBody => 204 NoBody, &[], "Sign out (ends the session)";
    GetMe: Get "/api/v1/auth/me" "auth" true NoBody => 200 Me, &[], "Who is signed in, their teams and the CSRF token";
    GetSession: Get "/api/v1/auth/session" "auth" false NoBody => 200 SessionState, &[], "Who is signed in: the same as /auth/me, or no `me` when nobody is (200 either way)";
    ListUsers: Get "/api/v1/users" "users" true NoBody => 200 Page<User>, PAGE, "List users";
    CreateUser: Post "/api/v1/users" "users" true UserCreate => 201 User, &[], "Create a user (server admins)";
    GetUser: Get "/api/v1/users/{id}" "users" true NoBody => 200 User, &[], "A user";
    UpdateUser: Patch "/api/v1/users/{id}" "users" true UserUpdate => 200 User, &[], "Change a user (oneself, or any as server admin)";
    CreateSigninLink: Post "/api/v1/users/{id}/signin-link" "users" true SigninLinkCreate => 201 SigninLink, &[], "A one-time sign-in link for a user, valid 24 hours (server admins); `reset_password` also removes their password and ends their sessions";
    ListUserTokens: Get "/api/v1/users/{id}/tokens" "tokens" true NoBody => 200 Vec<ApiToken>, &[], "A user's API tokens";
    CreateUserToken: Post "/api/v1/users/{id}/tokens" "tokens" true TokenCreate => 201 TokenCreated, &[], "Create an API token for a user (shown once)";
    ListTeams: Get "/api/v1/teams" "teams" true NoBody => 200 Vec<Team>, &[], "The caller's teams";
    CreateTeam: Post "/api/v1/teams" "teams" true TeamCreate => 201 Team, &[], "Create a team (the caller becomes its admin)";
    GetTeam: Get "/api/v1/teams/{id}" "teams" true NoBody => 200 Team, &[], "A team";
    RenameTeam: Patch "/api/v1/teams/{id}" "teams" true TeamUpdate => 200 Team, &[], "Rename a team (team admins)";
    DeleteTeam: Delete "/api/v1/teams/{id}" "teams" true NoBody => 204 NoBody, &[], "Delete a team and its templates (team admins)";
    ListMembers: Get "/api/v1/teams/{id}/members" "teams" true NoBody => 200 Vec<Member>, &[], "Members of a team";
    AddMember: Post "/api/v1/teams/{id}/members" "teams" true MemberAdd => 200 Vec<Member>, &[], "Add a member by user name, or change their role (team admins; the last admin is not demoted)";
    PutMember: Put "/api/v1/teams/{id}/members/{user_id}" "teams" true MemberPut => 200 Vec<Member>, &[], "Add a member or change their role (team admins)";
    RemoveMember: Delete "/api/v1/teams/{id}/members/{user_id}" "teams" true NoBody => 204 NoBody, &[], "Remove a member (team admins)";
    ListTokens: Get "/api/v1/tokens" "tokens" true NoBody => 200 Vec<ApiToken>, &[], "The caller's API tokens";
    CreateToken: Post "/api/v1/tokens" "tokens" true TokenCreate => 201 TokenCreated, &[], "Create an API token (shown once)";
    RevokeToken: Delete "/api/v1/tokens/{id}" "tokens" true NoBody => 204 NoBody, &[], "Revoke an API token";
    ListTemplates: Get "/api/v1/templates" "templates" true NoBody => 200 Page<Template>, &[("q", "substring of the name"), ("tag", "only templates with this tag"), ("team_id", "only this team"), ("offset", "items to skip"), ("limit", "items per page, 1-200")], "List and search templates";
    CreateTemplate: Post "/api/v1/templates" "templates" true TemplateCreate => 201 Template, &[], "Create a template with its version 1";
    GetTemplate: Get "/api/v1/templates/{id}" "templates" true NoBody => 200 Template, &[], "A template";
    UpdateTemplate: Patch "/api/v1/templates/{id}" "templates" true TemplateUpdate => 200 Template, &[], "Rename, describe or tag a template (editors)";
    DeleteTemplate: Delete "/api/v1/templates/{id}" "templates" true NoBody => 204 NoBody, &[], "Delete a template and all its versions (team admins)";
    ListVersions: Get "/api/v1/templates/{id}/versions" "versions" true NoBody => 200 Page<VersionSummary>, PAGE, "Versions of a template, newest first";
    SaveVersion: Post "/api/v1/templates/{id}/versions" "versions" true VersionCreate => 201 Version, &[], "Save a new version on a base version (409 with the head when it is stale)";
    GetVersion: Get "/api/v1/templates/{id}/versions/{n}" "versions" true NoBody => 200 Version, &[], "One immutable version (`n` may be `head`), with an ETag";
    DiffVersions: Get "/api/v1/templates/{id}/diff" "versions" true NoBody => 200 Diff, &[("from", "version (number or head)"), ("to", "version (number or head)"), ("to_template", "template of `to`, when it is another template")], "Semantic, text and validation diff of two versions";
    ForkTemplate: Post "/api/v1/templates/{id}/fork" "templates" true ForkRequest => 201 Template, &[], "Fork a version into a new template";
    CreateShare: Post "/api/v1/templates/{id}/share" "sharing" true ShareCreate => 201 ShareCreated, &[], "Create a read-only share link (token shown once)";
    ListShares: Get "/api/v1/templates/{id}/shares" "sharing" true NoBody => 200 Vec<Share>, &[], "Share links of a template";
    RevokeShare: Delete "/api/v1/templates/{id}/shares/{share_id}" "sharing" true NoBody => 204 NoBody, &[], "Revoke a share link";
    OpenShared: Get "/api/v1/shared/{token}" "sharing" false NoBody => 200 SharedView, &[], "Open a share link (no account needed)";
    ForkShared: Post "/api/v1/shared/{token}/fork" "sharing" true ForkRequest => 201 Template, &[], "Fork the version a share link opens into your team (signed in; the link is the permission to read it)";
    SubmitJob: Post "/api/v1/jobs" "jobs" true JobCreate => 201 Job, &[], "Run a pinned template version (422 config_rejected with diagnostics when it has errors for the job's world size)";
    ListJobs: Get "/api/v1/jobs" "jobs" true NoBody => 200 Page<Job>, &[("template_id", "only jobs of this template"), ("state", "queued, running, succeeded, failed, cancelled or lost; comma-separated for any of several"), ("runner", "only jobs this runner claimed"), ("deepspeed", "only jobs run with this DeepSpeed release"), ("world", "world size (nodes x GPUs)"), ("zero_stage", "0-3"), ("precision", "bf16, fp16 or fp32"), ("offload", "none, any, cpu or nvme"), ("micro_batch", "micro batch per GPU"), ("tag", "only runs with this tag"), ("q", "words in the run's name or note or its template's name"), ("sort", "id, name, state, template, runner, deepspeed, world, zero_stage, precision, offload, micro_batch, duration, final_loss, samples_per_sec or peak_memory_mb; a leading - sorts descending (default -id); missing values last"), ("offset", "items to skip"), ("limit", "items per page, 1-200")], "The runs table: jobs filtered and sorted on the server (unknown filters are a 400)";
    GetJob: Get "/api/v1/jobs/{id}" "jobs" true NoBody => 200 Job, &[], "A job: state, timings, runner, exit code, preflight, facts and figures";
    LabelJob: Patch "/api/v1/jobs/{id}" "jobs" true RunLabels => 200 Job, &[], "Name, note or tag a run (editors of its team)";
    CancelJob: Post "/api/v1/jobs/{id}/cancel" "jobs" true NoBody => 200 Job, &[], "Cancel a job (a running one stops within seconds; 409 when it already ended)";
    JobMetrics: Get "/api/v1/jobs/{id}/metrics" "jobs" true NoBody => 200 Vec<MetricSeries>, &[("name", "only this series"), ("max_points", "downsample each series in the database to at most this many points (3-100000): first and last kept, the rest averaged in buckets; ask for about the chart's width in pixels"), ("until", "only points stored up to this sequence number (read up to a job's last_seq, then follow /events?after=last_seq)")], "A job's metric series";
    JobLogs: Get "/api/v1/jobs/{id}/logs" "jobs" true NoBody => 200 Vec<LogLine>, &[("after", "only lines after this sequence number"), ("limit", "lines, 1-10000 (default 1000)"), ("tail", "the last N lines instead (1-10000)"), ("until", "with tail: the last lines stored up to this sequence number")], "A job's log lines";
    JobEvents: Get "/api/v1/jobs/{id}/events" "jobs" true NoBody => 200 EventStream, &[("after", "resume after this sequence number (or send Last-Event-ID)")], "Live events (SSE): `state` (a Job), `metric` (a MetricPoint), `log` (a LogLine); ids are sequence numbers";
    CreateSweep: Post "/api/v1/sweeps" "sweeps" true SweepCreate => 201 Sweep, &[], "Start a sweep: a grid over config keys, each point checked by the validator and the memory model (pruned with its reason) and the rest queued as jobs tagged `sweep`, spread over the runners given (422 when no point can run)";
    ListSweeps: Get "/api/v1/sweeps" "sweeps" true NoBody => 200 Vec<Sweep>, &[("template_id", "only sweeps of this template")], "The newest sweeps the caller can see (at most 100; points without their configs)";
    GetSweep: Get "/api/v1/sweeps/{id}" "sweeps" true NoBody => 200 Sweep, &[], "A sweep: every point with its state, estimate, throughput, measured peak and reason; the ranking by samples/s and the best point";
    CancelSweep: Post "/api/v1/sweeps/{id}/cancel" "sweeps" true NoBody => 200 Sweep, &[], "Cancel a sweep: every point that has not ended is cancelled (409 when it already ended)";
    SweepEvents: Get "/api/v1/sweeps/{id}/events" "sweeps" true NoBody => 200 EventStream, &[], "Live sweep (SSE): `sweep` events (a Sweep), one now and one each time a point changes state or reports throughput; the stream ends after the sweep ends";
    SaveBest: Post "/api/v1/sweeps/{id}/save-best" "sweeps" true SweepSaveBest => 201 Version, &[], "Save the fastest point's config as a new version (merged into the head when the template moved on; 409 when nothing succeeded yet or a key conflicts)";
    ListRunners: Get "/api/v1/runners" "runners" true NoBody => 200 Vec<Runner>, &[], "Runners and whether they are online";
    ListRunnerTokens: Get "/api/v1/runner-tokens" "runners" true NoBody => 200 Vec<RunnerToken>, &[], "Runner tokens (server admins)";
    CreateRunnerToken: Post "/api/v1/runner-tokens" "runners" true RunnerTokenCreate => 201 RunnerTokenCreated, &[], "Create a runner token for one runner name, optionally one team's jobs only (server admins; the token is shown once)";
    RevokeRunnerToken: Delete "/api/v1/runner-tokens/{id}" "runners" true NoBody => 200 RunnerToken, &[], "Revoke a runner token (server admins)";
    RegisterRunner: Post "/api/v1/runners" "runners" true RunnerRegister => 201 Runner, &[], "Register a runner (runner token for that name; the same name reuses its record)";
    SendHeartbeat: Post "/api/v1/runners/{id}/heartbeat" "runners" true Heartbeat => 200 HeartbeatReply, &[], "A runner's heartbeat; answers the jobs it must stop";
    ClaimJob: Post "/api/v1/runners/{id}/claim" "runners" true NoBody => 200 Option<ClaimedJob>, &[("wait_s", "seconds to wait for a job, 0-60 (204 when none came)")], "Claim the oldest queued job this runner can run (long poll)";
    PostJobEvents: Post "/api/v1/runners/{id}/jobs/{job}/events" "runners" true EventBatch => 200 EventAck, &[], "Store a batch of a job's events (duplicates by sequence number are dropped)";
    ReportJobState: Post "/api/v1/runners/{id}/jobs/{job}/state" "runners" true JobStateUpdate => 200 Job, &[], "Report a job's preflight or final state";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_fills_its_parameters_in_order_and_encodes_them() {
        let url = GetVersion::url([&7, &"head"]);
        assert_eq!(url.as_str(), "/api/v1/templates/7/versions/head");
        let url = OpenShared::url([&"a/b c"])
            .query("q", "x&y")
            .query("limit", 5);
        assert_eq!(url.as_str(), "/api/v1/shared/a%2Fb%20c?q=x%26y&limit=5");
        assert_eq!(
            ListJobs::url([]).encoded_query("?state=failed").as_str(),
            "/api/v1/jobs?state=failed"
        );
        assert_eq!(ListJobs::url([]).encoded_query("").as_str(), "/api/v1/jobs");
    }

    #[test]
    fn every_endpoint_is_one_method_and_path() {
        let mut seen = std::collections::HashSet::new();
        for e in ENDPOINTS {
            assert!(e.path.starts_with("/api/v1/"), "{}", e.name);
            assert!(
                seen.insert((e.method, e.path)),
                "{} {} twice",
                e.method.as_str(),
                e.path
            );
            let bodiless = matches!(e.method, Method::Get | Method::Delete);
            assert!(
                !bodiless || e.request == "NoBody",
                "{} takes a body",
                e.name
            );
        }
    }

    #[test]
    fn no_body_is_sent_as_an_empty_object_and_reads_anything() {
        assert_eq!(serde_json::to_string(&NoBody).unwrap(), "{}");
        for text in ["null", "{}", "{\"a\": [1]}", "3"] {
            assert_eq!(serde_json::from_str::<NoBody>(text).unwrap(), NoBody);
        }
    }
}
