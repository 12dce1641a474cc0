use super::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// A model of the catalog, else a config of `tests/fixtures/models` (tiny ones with each
/// family's quirks, and shapes measured on a GPU).
fn fixture(name: &str) -> Architecture {
    if let Some(m) = catalog::find(name) {
        return m.architecture().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let path = format!("{FIXTURES}/models/{name}.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Architecture::from_config_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every model of the catalog and every config of `tests/fixtures/models` counts exactly what
/// transformers' own model built from it on the meta device has (`tools/models/count_params.py`
/// wrote the counts; `cargo xtask test` runs it again against the engine's transformers).
#[test]
fn every_family_counts_what_transformers_builds() {
    let mut families = std::collections::BTreeSet::new();
    assert!(catalog::catalog().len() >= 40, "the catalog reads");
    for m in catalog::catalog() {
        let arch = m
            .architecture()
            .unwrap_or_else(|e| panic!("{}: {e}", m.name));
        families.insert(arch.family.model_type());
        assert_eq!(
            arch.params().total(),
            m.params,
            "{}: {:?}",
            m.name,
            arch.params()
        );
    }
    let text = std::fs::read_to_string(format!("{FIXTURES}/model_params.json")).unwrap();
    let counts: serde_json::Value = serde_json::from_str(&text).unwrap();
    let counts = counts["params"].as_object().unwrap();
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
        "a model for every family"
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
fn the_catalog_finds_a_model_by_its_name_or_its_hub_repository() {
    for name in [
        "qwen2.5-7b",
        "Qwen/Qwen2.5-7B",
        "qwen2.5-7B",
        " QWEN2.5-7B ",
    ] {
        assert_eq!(
            catalog::find(name).map(|m| m.name.as_str()),
            Some("qwen2.5-7b"),
            "{name}"
        );
    }
    assert!(catalog::find("qwen2.5-8b").is_none());
    for variant in [
        "meta-llama/Meta-Llama-3.1-8B",
        "meta-llama/Llama-3.1-8B-Instruct",
        "Meta-Llama-3.1-8B-Instruct",
    ] {
        assert_eq!(
            catalog::find(variant).map(|m| m.name.as_str()),
            Some("llama-3.1-8b"),
            "{variant}"
        );
    }
    assert_eq!(
        catalog::find("Qwen/Qwen2.5-7B-Instruct").map(|m| m.name.as_str()),
        Some("qwen2.5-7b")
    );
    assert!(catalog::near("Meta-Llama-3.1-7B").contains(&"llama-3.1-8b"));
    assert!(catalog::near("qwen2.5-8b").contains(&"qwen2.5-7b"));
    assert!(catalog::near("an entirely different thing").is_empty());
    let found: Vec<&str> = catalog::search("qwen 7b")
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(found, ["qwen2.5-7b"]);
    let found: Vec<&str> = catalog::search("llama3 8b")
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(found, ["llama-3.1-8b"]);
    assert!(catalog::search("no such model").is_empty());
    assert_eq!(catalog::search("").len(), catalog::catalog().len());
    // Names are unique, lower case, and no name is another's Hub repository.
    let mut names = std::collections::BTreeSet::new();
    for m in catalog::catalog() {
        assert_eq!(m.name, m.name.to_ascii_lowercase());
        assert!(names.insert(m.name.clone()), "{} twice", m.name);
        assert!(m.hub.contains('/'), "{}", m.hub);
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
    // Without num_key_value_heads, MixtralConfig's own 8, not the 16 attention heads.
    assert_eq!(fixture("tiny-mixtral-default-kv").kv_heads, 8);
    let e = Architecture::from_config_json(
        r#"{"model_type": "qwen2", "hidden_size": 768, "num_hidden_layers": 2,
            "num_attention_heads": 12, "intermediate_size": 64, "vocab_size": 100}"#,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("num_key_value_heads") && e.to_string().contains("32"),
        "Qwen2Config's default 32 does not divide 12 heads: {e}"
    );
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
        r#"{"model_type": "mixtral", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 100, "intermediate_size": 128, "num_local_experts": 2, "num_experts_per_tok": 3}"#,
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
    let lora = super::lora::Lora::new(super::lora::MAX_RANK, "");
    assert!(arch.lora_params(&lora).unwrap() > 1 << 45);
    let moe = json.replace("qwen2_moe", "qwen3_moe");
    let arch = Architecture::from_config_json(&moe).unwrap();
    assert!(arch.lora_params(&lora).unwrap() > 1 << 50, "no overflow");
}

/// The adapters LoRA adds equal what peft adds to transformers' model, for every target set
/// `tools/models/count_params.py --lora` tried that names modules of the model; a set naming
/// a module the model lacks is an error naming it and the modules there are.
#[test]
fn lora_adds_what_peft_adds() {
    use super::lora::{Lora, LoraError};
    let text = std::fs::read_to_string(format!("{FIXTURES}/model_lora_params.json")).unwrap();
    let counted: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (mut equal, mut refused) = (0, 0);
    for case in counted["cases"].as_array().unwrap() {
        let arch = fixture(case["model"].as_str().unwrap());
        let targets = case["targets"].as_str().unwrap();
        let lora = Lora::new(case["rank"].as_u64().unwrap(), targets);
        let names: Vec<&str> = arch
            .linear_modules()
            .iter()
            .filter(|m| m.by_name)
            .map(|m| m.name)
            .collect();
        let every_target_exists =
            targets == "all-linear" || targets.split(',').all(|t| names.contains(&t));
        match arch.lora_params(&lora) {
            Ok(n) => {
                assert!(every_target_exists, "{case}");
                assert_eq!(n, case["params"].as_u64().unwrap(), "{case}");
                equal += 1;
            }
            Err(LoraError::NoSuchModule { unknown, available }) => {
                assert!(!every_target_exists, "{case}");
                assert!(unknown.iter().all(|u| !available.contains(&u.as_str())));
                refused += 1;
            }
            Err(e) => panic!("{case}: {e}"),
        }
    }
    assert!(
        equal >= 24 && refused >= 8,
        "{equal} equal, {refused} refused"
    );
    let e = fixture("tiny-gpt2-inner")
        .lora_params(&Lora::new(8, "q_proj"))
        .unwrap_err();
    assert!(e.to_string().contains("c_attn"), "{e}");
    assert!(e.text().zh.contains("c_attn"));
    assert!(matches!(
        fixture("gpt2").lora_params(&Lora::new(0, "")),
        Err(LoraError::Rank(0))
    ));
}
