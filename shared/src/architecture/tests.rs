use super::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> Architecture {
    let path = format!("{FIXTURES}/models/{name}.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Architecture::from_config_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every config of `tests/fixtures/models` counts exactly what transformers' own model built
/// from it on the meta device has (`tools/models/count_params.py` wrote the counts; `cargo
/// xtask test` runs it again against the engine's transformers).
#[test]
fn every_family_counts_what_transformers_builds() {
    let text = std::fs::read_to_string(format!("{FIXTURES}/model_params.json")).unwrap();
    let counts: serde_json::Value = serde_json::from_str(&text).unwrap();
    let counts = counts["params"].as_object().unwrap();
    let mut families = std::collections::BTreeSet::new();
    for (name, want) in counts {
        let arch = fixture(name);
        families.insert(arch.family.model_type());
        assert_eq!(
            arch.params().total(),
            want.as_u64().unwrap(),
            "{name}: {:?}",
            arch.params()
        );
    }
    assert_eq!(
        families.len(),
        Family::ALL.len(),
        "a config for every family"
    );
    let configs = std::fs::read_dir(format!("{FIXTURES}/models"))
        .unwrap()
        .count();
    assert_eq!(
        configs,
        counts.len(),
        "every config has its transformers count"
    );
}

/// The counts the model cards publish, independent of the fixture.
#[test]
fn published_counts() {
    for (name, params) in [
        ("llama-3.1-8b", 8_030_261_248),
        ("llama-3.2-1b", 1_235_814_400),
        ("mistral-7b-v0.3", 7_248_023_552),
        ("qwen2.5-7b", 7_615_616_512),
        ("gpt2-xl", 1_557_611_200),
        ("mixtral-8x7b", 46_702_792_704),
    ] {
        assert_eq!(fixture(name).params().total(), params, "{name}");
    }
}

#[test]
fn experts_count_every_expert_but_a_token_goes_through_few() {
    let mixtral = fixture("mixtral-8x7b");
    // Mixtral's card: 46.7B parameters, 12.9B used per token.
    let active = mixtral.active_params();
    assert!(
        (12_800_000_000..13_000_000_000).contains(&active),
        "{active}"
    );
    let qwen3 = fixture("qwen3-30b-a3b");
    let (total, active) = (qwen3.params().total(), qwen3.active_params());
    assert!((30_000_000_000..31_000_000_000).contains(&total), "{total}");
    assert!((3_000_000_000..3_500_000_000).contains(&active), "{active}");
    // Dense models use everything.
    let llama = fixture("llama-3.1-8b");
    assert_eq!(llama.active_params(), llama.params().total());
    // A dense layer listed in mlp_only_layers and a sparse step of 2: layers 1 and 5 sparse.
    assert_eq!(
        fixture("tiny-qwen2-moe-steps")
            .experts
            .map(|e| e.sparse_layers),
        Some(2)
    );
}

#[test]
fn defaults_are_transformers_where_config_json_is_silent() {
    let q = fixture("tiny-qwen3-default-head-dim");
    assert_eq!((q.head_dim, q.qk_norm), (128, true));
    let m = fixture("tiny-mistral-default-head-dim");
    assert_eq!(m.head_dim, 16);
    let g = fixture("gemma-2b");
    assert!(g.tied_embeddings && g.params().lm_head == 0);
    let l = fixture("llama-1.36b-h200");
    assert_eq!(
        (l.kv_heads, l.head_dim, l.tied_embeddings),
        (16, 128, false)
    );
    let gpt = fixture("gpt2-xl");
    assert_eq!((gpt.intermediate, gpt.learned_positions), (6400, 1024));
    let multimodal = fixture("tiny-gemma3-multimodal");
    assert_eq!((multimodal.family, multimodal.hidden), (Family::Gemma3, 64));
}

fn error(json: &str) -> ArchitectureError {
    Architecture::from_config_json(json).unwrap_err()
}

#[test]
fn a_config_that_is_not_a_model_says_what_is_wrong() {
    let e = error(r#"{"model_type": "bert", "hidden_size": 768}"#);
    assert!(
        e.to_string().contains("\"bert\"") && e.to_string().contains("llama"),
        "{e}"
    );
    assert!(e.text().zh.contains("不支持"));
    // A near miss names the type meant.
    for typo in ["qwen2.5", "Qwen-2", "lama"] {
        let e = error(&format!(r#"{{"model_type": "{typo}"}}"#));
        assert!(e.to_string().contains("did you mean"), "{typo}: {e}");
        assert!(e.text().zh.contains("是否想写"), "{typo}");
    }
    let e = error(r#"{"model_type": "llama", "num_hidden_layers": 2}"#);
    assert_eq!(
        e,
        ArchitectureError::Missing {
            family: "llama",
            field: "hidden_size"
        }
    );
    assert!(e.text().zh.contains("hidden_size"));
    assert_eq!(
        error(r#"{"hidden_size": 8}"#),
        ArchitectureError::NoModelType
    );
    assert!(matches!(error("[1, 2]"), ArchitectureError::NotAnObject(_)));
    assert!(matches!(error("{"), ArchitectureError::NotAnObject(_)));
    let base = r#""model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 100, "intermediate_size": 128"#;
    let e = error(&format!(
        r#"{{{base}, "num_attention_heads": 4, "num_key_value_heads": 3}}"#
    ));
    assert!(e.to_string().contains("num_key_value_heads"), "{e}");
    let e = error(&format!(r#"{{{base}, "num_attention_heads": "4"}}"#));
    assert!(e.to_string().contains("num_attention_heads") && e.to_string().contains("\"4\""));
    let e = error(&format!(
        r#"{{{base}, "num_attention_heads": 4, "tie_word_embeddings": "yes"}}"#
    ));
    assert!(e.to_string().contains("true or false"), "{e}");
    // Sizes past any real model are refused, so that no product of them overflows.
    let e = error(
        r#"{"model_type": "llama", "hidden_size": 18446744073709551615, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128}"#,
    );
    assert!(e.to_string().contains("hidden_size"), "{e}");
    let e = error(r#"{"model_type": "gemma3"}"#);
    assert!(e.to_string().contains("text_config"), "{e}");
    let e = error(
        r#"{"model_type": "mixtral", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128, "num_local_experts": 2, "num_experts_per_tok": 3}"#,
    );
    assert!(e.to_string().contains("num_experts_per_tok"), "{e}");
    // A hostile model_type is quoted short.
    let long = "x".repeat(10_000);
    let e = error(&format!(r#"{{"model_type": "{long}"}}"#));
    assert!(e.to_string().len() < 400, "{}", e.to_string().len());
}

/// The largest sizes allowed still count without overflow.
#[test]
fn the_largest_allowed_sizes_do_not_overflow() {
    let json = r#"{"model_type": "qwen2_moe", "hidden_size": 65536, "num_hidden_layers": 1024, "num_attention_heads": 4096, "head_dim": 4096, "vocab_size": 4194304, "intermediate_size": 1048576, "moe_intermediate_size": 1048576, "shared_expert_intermediate_size": 1048576, "num_experts": 1024, "num_experts_per_tok": 1024}"#;
    let arch = Architecture::from_config_json(json).unwrap();
    assert!(arch.params().total() > 1 << 57);
}
