//! `POST /api/v1/validate`, `/healthz` and the schema through `app(state)` with
//! `tower::ServiceExt::oneshot` (no socket).

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use ds_studio::server::{app, AppState};
use http_body_util::BodyExt;
use tower::ServiceExt;

async fn state() -> AppState {
    AppState::new(
        common::sqlite_store().await,
        std::env::temp_dir(),
        "http://127.0.0.1:8080",
    )
}

async fn call(req: Request<Body>) -> (StatusCode, serde_json::Value) {
    let res = app(state().await).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    )
}

#[tokio::test]
async fn validate_endpoint_returns_verdict_and_diagnostics() {
    let body = serde_json::json!({"text": "{\"train_batch_size\": 8, \"zero_optimization\": {\"stag\": 1}}", "context": {"world_size": 8}});
    let (status, v) = call(
        Request::post("/api/v1/validate")
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["verdict"], "rejected");
    assert_eq!(v["diagnostics"][0]["code"], "unknown-key");
}

#[tokio::test]
async fn malformed_body_gets_the_error_envelope() {
    let (status, v) = call(
        Request::post("/api/v1/validate")
            .header("content-type", "application/json")
            .body(Body::from("{oops"))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_request");
    let (status, v) = call(
        Request::post("/api/v1/validate")
            .header("content-type", "application/json")
            .body(Body::from("{\"txt\": 1}"))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("config_text"));
}

#[tokio::test]
async fn healthz_and_schema() {
    let res = app(state().await)
        .oneshot(Request::get("/healthz").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let (status, v) = call(Request::get("/api/v1/schema").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(v["properties"]["zero_optimization"].is_object());
}

/// Swagger UI's "Try it out" sends the schema's example: for `/validate` it must be a request
/// the server accepts (it used to hold both `config` and `config_text`, a 422).
#[tokio::test]
async fn the_documented_validate_example_is_accepted() {
    let (status, doc) = call(
        Request::get("/api/openapi.json")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let example = doc["components"]["schemas"]["ValidateRequest"]["example"].clone();
    assert!(
        example.is_object(),
        "no example: {}",
        doc["components"]["schemas"]["ValidateRequest"]
    );
    let (status, v) = call(
        Request::post("/api/v1/validate")
            .header("content-type", "application/json")
            .body(Body::from(example.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "accepted", "{v}");
}
