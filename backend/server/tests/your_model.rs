//! Issue 51 through the REST API against a real server (SQLite): the model catalog, and
//! `POST /api/v1/estimate` for a catalog model and a pasted config.json, fully fine-tuned and
//! with LoRA, held against a GPU size and the caller's runners; the bad requests named.

mod common;

use common::Api;
use reqwest::{Method, StatusCode};
use serde_json::json;

const ADMIN: &str = "admin-token-for-tests-0123456789";
const GIB: u64 = 1 << 30;

#[tokio::test]
async fn the_catalog_is_listed_and_searched_without_an_account() {
    let (api, _store) = Api::start(ADMIN).await;
    let (s, all) = api.call(Method::GET, "/api/v1/models", None, None).await;
    assert_eq!(s, StatusCode::OK, "{all}");
    let all = all.as_array().unwrap();
    assert!(all.len() >= 40, "{}", all.len());
    let llama = all.iter().find(|m| m["name"] == "llama-3.1-8b").unwrap();
    assert_eq!(llama["params"], 8_030_261_248u64);
    assert_eq!(llama["config"]["num_key_value_heads"], 8);
    let (s, found) = api
        .call(Method::GET, "/api/v1/models?q=qwen%207b", None, None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(found.as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found[0]["name"], "qwen2.5-7b");
}

#[tokio::test]
async fn an_estimate_reads_the_model_and_holds_it_against_a_gpu_and_the_runners() {
    let (api, store) = Api::start(ADMIN).await;
    let team = store.create_team("lab").await.unwrap().id;
    let h200 = json!({"gpus": [{"index": 0, "name": "NVIDIA H200", "memory_bytes": 150_110_011_392u64}],
                      "cpu_cores": 16, "host_memory_bytes": 512 * GIB});
    let _ = api.register_runner_in(ADMIN, team, "h200", h200).await;
    let config = json!({"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 4,
        "bf16": {"enabled": true}, "zero_optimization": {"stage": 2},
        "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}});
    // Full fine-tuning of Qwen2.5-7B on one GPU: 16 bytes per parameter do not fit 80 GB.
    let full = json!({"config": config, "model": {"name": "qwen2.5-7b", "seq_len": 4096},
                      "gpu_memory_bytes": 80 * GIB});
    let (s, v) = api
        .call(Method::POST, "/api/v1/estimate", Some(ADMIN), Some(full))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["model"]["params"], 7_615_616_512u64);
    assert_eq!(v["model"]["trainable_params"], 7_615_616_512u64);
    assert_eq!(v["model"]["architecture"]["family"], "qwen2");
    assert!(
        v["estimate"]["gpu_peak_bytes"].as_u64().unwrap() > 100 * GIB,
        "{v}"
    );
    assert_eq!(v["gpu"]["fits"], false);
    assert!(
        v["gpu"]["does_not_fit"]["suggestions"].is_array(),
        "a refusal says what would fit: {v}"
    );
    // The runner it can use is judged too, by name.
    assert_eq!(v["runners"][0]["runner"], "h200", "{v}");
    // With LoRA the base is frozen: a fraction trains, and it fits the 80 GB GPU.
    let lora = json!({"config": config, "model": {"name": "Qwen/Qwen2.5-7B", "seq_len": 4096,
                      "lora": {"rank": 16, "targets": ["q_proj", "v_proj"]}},
                      "gpu_memory_bytes": 80 * GIB});
    let (s, v) = api
        .call(Method::POST, "/api/v1/estimate", None, Some(lora))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let trainable = v["model"]["trainable_params"].as_u64().unwrap();
    // r·(in + out) on q (3584 → 3584) and v (3584 → 512) of 28 layers.
    assert_eq!(trainable, 16 * ((3584 + 3584) + (3584 + 512)) * 28);
    assert_eq!(v["model"]["params"], 7_615_616_512u64, "the model's own");
    assert_eq!(v["model"]["adapter_params"], trainable);
    assert_eq!(v["gpu"]["fits"], true, "{v}");
    assert_eq!(
        v["runners"],
        json!([]),
        "an anonymous caller sees no runners"
    );
    // A pasted config.json works like a name.
    let pasted = json!({"config": config, "model": {"config": {"model_type": "llama",
        "hidden_size": 2048, "intermediate_size": 5632, "num_hidden_layers": 24,
        "num_attention_heads": 16, "vocab_size": 32000}, "seq_len": 1024}});
    let (s, v) = api
        .call(Method::POST, "/api/v1/estimate", Some(ADMIN), Some(pasted))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["model"]["params"], 1_364_297_728u64);
    assert!(v["model"].get("name").is_none());
}

#[tokio::test]
async fn a_bad_estimate_request_is_named() {
    let (api, _store) = Api::start(ADMIN).await;
    let config = json!({"train_micro_batch_size_per_gpu": 1});
    for (model, words) in [
        (json!({"name": "qwen2.5-8b"}), "did you mean \"qwen2.5-"),
        (json!({}), "catalog name"),
        (
            json!({"name": "gpt2", "config": {"model_type": "gpt2"}}),
            "not both",
        ),
        (json!({"config": {"model_type": "bert"}}), "bert"),
        (json!({"config": {"model_type": "llama"}}), "hidden_size"),
        (
            json!({"name": "gpt2", "lora": {"rank": 8, "targets": ["q_proj"]}}),
            "c_attn",
        ),
        (json!({"name": "gpt2", "lora": {"rank": 0}}), "rank"),
        (json!({"name": "gpt2", "seq_len": 0}), "sequence length"),
    ] {
        let body = json!({"config": config, "model": model});
        let (s, v) = api
            .call(Method::POST, "/api/v1/estimate", Some(ADMIN), Some(body))
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{model}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{model}: {message}");
    }
    for (body, words) in [
        (
            json!({"config": [1], "model": {"name": "gpt2"}}),
            "JSON object",
        ),
        (
            json!({"config": config, "model": {"name": "gpt2"}, "gpus_per_node": 0}),
            "gpus_per_node",
        ),
        (
            json!({"config": config, "model": {"name": "gpt2"}, "gpu_memory_bytes": 0}),
            "gpu_memory_bytes",
        ),
        (
            json!({"config": config, "model": {"name": "gpt2"}, "gpu": 1}),
            "gpu",
        ),
    ] {
        let (s, v) = api
            .call(
                Method::POST,
                "/api/v1/estimate",
                Some(ADMIN),
                Some(body.clone()),
            )
            .await;
        assert!(s.is_client_error(), "{body}: {s} {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{body}: {message}");
    }
}
