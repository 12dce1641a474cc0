//! The OpenAPI 3.1 document at `/api/openapi.json` and a vendored Swagger UI at `/api/docs`.
//!
//! The operations come from the shared endpoint table (`ds_studio_shared::api::endpoints`,
//! which the routers route by), their bodies from the schemas the shared API types derive
//! (`utoipa::ToSchema`). A test checks that every operation is a route the router answers and
//! that every type the table names has its schema here.

use crate::state::AppState;
use axum::Router;
use ds_studio_shared::api as t;
use ds_studio_shared::api::endpoints::{Method, Operation, ENDPOINTS};
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

/// What an operation answers on success, read from the type the endpoint table names.
#[derive(Clone, Copy)]
enum Body {
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

use Body::{List, None as NoBody, Object, One, Page};

/// The body a type of the table stands for (`Page<Template>`, `Vec<Member>`, `NoBody`,
/// `EventStream`, `Value`, `Job`), as `stringify!` wrote it.
fn body(ty: &'static str) -> Body {
    let inner = |outer: &str| {
        ty.strip_prefix(outer)
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('<'))
            .and_then(|r| r.strip_suffix('>'))
            .map(str::trim)
    };
    if let Some(item) = inner("Page") {
        Page(item)
    } else if let Some(item) = inner("Vec") {
        List(item)
    } else if let Some(item) = inner("Option") {
        // `null` is the bodiless answer the operation documents beside (204).
        body(item)
    } else {
        match ty.trim() {
            "NoBody" | "EventStream" => NoBody,
            "Value" => Object,
            name => One(name),
        }
    }
}

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

fn method(m: Method) -> HttpMethod {
    match m {
        Method::Get => HttpMethod::Get,
        Method::Post => HttpMethod::Post,
        Method::Put => HttpMethod::Put,
        Method::Patch => HttpMethod::Patch,
        Method::Delete => HttpMethod::Delete,
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

/// Every operation of [`ENDPOINTS`], grouped by path.
fn paths() -> utoipa::openapi::Paths {
    let mut items: Vec<(&str, PathItem)> = Vec::new();
    for o in ENDPOINTS {
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
    if let Some(s) = schema_ref(body(o.request)) {
        let optional = matches!(o.request, "ForkRequest" | "ShareCreate" | "SweepSaveBest");
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
    if let Some(s) = schema_ref(body(o.response)) {
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
    if o.response == "EventStream" {
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
        t::CatalogModel,
        t::EstimateRequest,
        t::EstimateResponse,
    );
    for o in ENDPOINTS {
        if let Body::Page(item) = body(o.response) {
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
    format!(
        "{}_{}",
        o.method.as_str(),
        segments.join("_").replace('-', "_")
    )
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
    let writes = o.method != Method::Get;
    if writes && o.auth {
        out.push("409");
    }
    if !matches!(body(o.request), Body::None) {
        out.extend(["413", "415", "422"]);
    } else if o.path == "/api/v1/jobs" && o.method == Method::Post {
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
        for o in ENDPOINTS {
            let op = &doc["paths"][o.path][o.method.as_str()];
            let security = op["security"].as_array().expect("security said");
            assert_eq!(security.is_empty(), !o.auth, "{}", o.name);
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|k| k.starts_with('4')),
                "{} has no 4xx",
                o.name
            );
            // An id names the operation in generated clients: readable, unique.
            let id = op["operationId"].as_str().unwrap();
            assert!(
                id.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !id.contains("__"),
                "{id}"
            );
        }
        let ids: std::collections::HashSet<&str> = ENDPOINTS
            .iter()
            .map(|o| {
                doc["paths"][o.path][o.method.as_str()]["operationId"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        assert_eq!(ids.len(), ENDPOINTS.len());
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
