//! `POST /api/v1/validate`, `/healthz` and the schema through `app(state)` with
//! `tower::ServiceExt::oneshot` (no socket).

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use ds_studio_server::{app, AppState};
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

/// The tooltip texts the UI fetches: every key and optimizer parameter in both languages, from
/// the server's registry (no build step writes them), and a 304 for a browser that has them.
#[tokio::test]
async fn the_tooltip_texts_come_from_the_server_with_an_etag() {
    let res = app(state().await)
        .oneshot(
            Request::get("/pkg/key-docs.json")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/json");
    let etag = res.headers()["etag"].clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let docs: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let stage = &docs["zero_optimization.stage"];
    assert!(stage["en"].as_str().unwrap().contains("ZeRO"), "{stage}");
    assert!(!stage["zh"].as_str().unwrap().is_empty());
    let lr = &docs["param:optimizers.adam.lr"];
    assert!(!lr["en"].as_str().unwrap_or_default().is_empty(), "{lr}");
    // 789 on 2026-11-28: every key and every optimizer and scheduler parameter.
    assert!(docs.as_object().unwrap().len() >= 789);
    let again = app(state().await)
        .oneshot(
            Request::get("/pkg/key-docs.json")
                .header("if-none-match", etag)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
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

fn post_validate(body: serde_json::Value) -> Request<Body> {
    Request::post("/api/v1/validate")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

#[tokio::test]
async fn validation_follows_the_release_in_the_context() {
    let amp = "{\"train_batch_size\": 8, \"amp\": {\"enabled\": true, \"opt_level\": \"O1\"}}";
    let (status, v) = call(post_validate(
        serde_json::json!({"config_text": amp, "context": {"deepspeed_version": "0.18.4"}}),
    ))
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "accepted", "{v}");
    let (_, v) = call(post_validate(serde_json::json!({"config_text": amp}))).await;
    assert_eq!(v["verdict"], "rejected");
    assert_eq!(v["diagnostics"][0]["code"], "removed-key");
    assert!(v["diagnostics"][0]["message"]["en"]
        .as_str()
        .unwrap()
        .contains("removed in DeepSpeed 0.19.8"));
    // An unknown release is a clear 422, not a guess.
    let (status, v) = call(post_validate(
        serde_json::json!({"config_text": amp, "context": {"deepspeed_version": "0.13.1"}}),
    ))
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("deepspeed_version") && msg.contains("0.14.4") && msg.contains("0.19.8"),
        "{msg}"
    );
}

#[tokio::test]
async fn releases_and_a_schema_per_release() {
    let (status, v) = call(
        Request::get("/api/v1/deepspeed/releases")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["default"], "0.19.8");
    let list = v["releases"].as_array().unwrap();
    assert_eq!(list.len(), 43);
    assert_eq!(list[0]["version"], "0.14.4");
    let r175 = list.iter().find(|r| r["version"] == "0.17.5").unwrap();
    assert!(
        r175["added"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k == "zero_optimization.zenflow"),
        "{r175}"
    );
    let r193 = list.iter().find(|r| r["version"] == "0.19.3").unwrap();
    assert!(r193["defaults_changed"]
        .as_array()
        .unwrap()
        .iter()
        .any(|k| k == "gradient_clipping"));
    let (status, s) = call(
        Request::get("/api/v1/schema/0.17.4.json")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        s["title"],
        "DeepSpeed training config (0.17.4, the deepspeed launcher)"
    );
    // zenflow is not a key of 0.17.4: named with the release it arrived in.
    assert!(s.to_string().contains(
        "`zero_optimization.zenflow` arrived in DeepSpeed 0.17.5: DeepSpeed 0.17.4 rejects it"
    ));
    assert_eq!(s["properties"]["gradient_clipping"]["default"], 0.0);
    // The HF Trainer's variant in Chinese, and the one without VS Code's keywords.
    let (status, zh) = call(
        Request::get("/api/v1/schema/0.19.8.json?launcher=hf-trainer&lang=zh")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        zh["title"], "DeepSpeed 训练配置（0.19.8，HF Trainer）",
        "{}",
        zh["title"]
    );
    let tbs = zh["properties"]["train_batch_size"].to_string();
    assert!(tbs.contains(r#"{"const":"auto"}"#), "{tbs}");
    let (_, standard) = call(
        Request::get("/api/v1/schema/0.19.8?keywords=standard")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert!(!standard.to_string().contains("markdownDescription"));
    // A bad option names the problem.
    for (q, word) in [
        ("launcher=torchrun", "torchrun"),
        ("lang=fr", "fr"),
        ("keywords=all", "all"),
        ("launcher=deepspeed&launcher=deepspeed", "launcher"),
    ] {
        let (status, e) = call(
            Request::get(format!("/api/v1/schema/0.19.8.json?{q}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{q}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains(word),
            "{e}"
        );
    }
    let (status, e) = call(
        Request::get("/api/v1/schema/0.20.0.json")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(e["error"]["message"].as_str().unwrap().contains("0.14.4"));
}

/// Under the HF Trainer the file is read with json.load and compared with the trainer
/// arguments of the context; an unknown trainer argument is a 422 naming it.
#[tokio::test]
async fn validation_under_the_hf_trainer_uses_its_arguments() {
    let text = "{\n  // ZeRO-2\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"zero_optimization\": {\"stage\": 2}\n}";
    let (status, v) = call(post_validate(serde_json::json!({
        "config_text": text,
        "context": {"launcher": "hf-trainer", "trainer": {"per_device_train_batch_size": 2}}
    })))
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "rejected");
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"not-json"), "{codes:?}");
    assert!(codes.contains(&"launcher-mismatch"), "{codes:?}");
    let comment = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "not-json")
        .unwrap();
    assert_eq!(comment["text_fix"][0]["text"], "", "{comment}");
    // The same config without the comment, for the matching micro batch: accepted.
    let (_, v) = call(post_validate(serde_json::json!({
        "config_text": text.replace("  // ZeRO-2\n", ""),
        "context": {"launcher": "hf-trainer", "trainer": {"per_device_train_batch_size": 4}}
    })))
    .await;
    assert_eq!(v["verdict"], "accepted", "{v}");
    let (status, v) = call(post_validate(serde_json::json!({
        "config_text": "{}",
        "context": {"launcher": "hf-trainer", "trainer": {"per_device_batch": 4}}
    })))
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("per_device_batch"),
        "{v}"
    );
}

#[tokio::test]
async fn trainer_arguments_import_from_a_training_file() {
    let import = |text: &str| {
        Request::post("/api/v1/trainer-args/import")
            .header("content-type", "application/json")
            .body(Body::from(serde_json::json!({ "text": text }).to_string()))
            .unwrap()
    };
    let (status, v) = call(import(
        "stage: sft\nfinetuning_type: lora\ndeepspeed: examples/deepspeed/ds_z3_config.json\nper_device_train_batch_size: 2\ngradient_accumulation_steps: 8\nbf16: true\n",
    ))
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["source"], "llama-factory");
    assert_eq!(v["launcher"], "hf-trainer");
    assert_eq!(v["trainer"]["per_device_train_batch_size"], 2);
    assert_eq!(
        v["deepspeed_config"],
        "examples/deepspeed/ds_z3_config.json"
    );
    let (status, v) = call(import("key: [unclosed")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("YAML error at line"),
        "{v}"
    );
}
