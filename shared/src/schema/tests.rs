use super::*;
use crate::i18n::Lang;

/// The subschema of the key at `path` (dotted), through the `if`/`then` an object shares with
/// other types (`zero_optimization` is also a legacy boolean).
fn key<'a>(schema: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(schema, |v, k| {
        v["properties"].get(k).unwrap_or_else(|| {
            v["allOf"]
                .as_array()
                .and_then(|all| all.iter().find_map(|r| r["then"]["properties"].get(k)))
                .unwrap_or(&Value::Null)
        })
    })
}

fn opts(release: &str, launcher: Launcher, lang: Lang) -> Options {
    Options {
        release: Release::parse(release).unwrap(),
        launcher,
        lang,
        editor_keywords: true,
    }
}

#[test]
fn schema_matches_committed_snapshot() {
    let committed = include_str!("../../schema/deepspeed.schema.json");
    assert!(
        committed == schema_text(),
        "the JSON Schema changed: run `cargo xtask codegen` and commit shared/schema/deepspeed.schema.json"
    );
}

#[test]
fn each_release_has_its_own_keys_and_defaults() {
    let old = schema_for(Release::parse("0.17.4").unwrap());
    let old = old.as_value();
    let new = schema();
    let new = new.as_value();
    // zenflow arrived in 0.17.5; `amp` works in 0.17.4 and is removed in 0.19.8.
    // zenflow is named as a key of a later release, refused (zero_optimization is closed).
    assert!(key(old, "zero_optimization.zenflow")["errorMessage"]
        .as_str()
        .is_some_and(|m| m.contains("arrived in DeepSpeed 0.17.5: DeepSpeed 0.17.4 rejects it")));
    assert!(key(old, "zero_optimization.zenflow")["properties"].is_null());
    assert!(key(new, "zero_optimization.zenflow").is_object());
    assert!(old["properties"]["amp"].get("not").is_none());
    assert_eq!(new["properties"]["amp"]["not"], json!({}));
    assert!(new["properties"]["amp"]["errorMessage"]
        .as_str()
        .is_some_and(|m| m.contains("0.19.8") && m.contains("torch_autocast")));
    assert_eq!(
        new["properties"]["amp"]["deprecationMessage"],
        json!("removed in DeepSpeed 0.19.8")
    );
    // gradient_clipping's default changed in 0.19.3; fp16 became strict in 0.17.1.
    assert_eq!(
        old["properties"]["gradient_clipping"]["default"],
        json!(0.0)
    );
    assert_eq!(
        new["properties"]["gradient_clipping"]["default"],
        json!(1.0)
    );
    let lax = schema_for(Release::parse("0.16.9").unwrap());
    // Before 0.17.1 fp16 ignores unknown keys: a warning, not a refusal.
    assert!(
        lax.as_value()["properties"]["fp16"]["additionalProperties"]["deprecationMessage"]
            .is_string()
    );
    // A closed section refuses unknown keys; an open one (the top level) warns on them.
    assert_eq!(
        new["properties"]["fp16"]["additionalProperties"],
        json!(false)
    );
    assert!(new["additionalProperties"]["deprecationMessage"]
        .as_str()
        .unwrap()
        .contains("ignores it"));
    assert!(old["title"].as_str().unwrap().contains("0.17.4"));
}

#[test]
fn integer_keys_take_what_pydantic_takes_and_lax_keys_only_warn() {
    let s = schema_with(&Options::default());
    let stage = key(&s, "zero_optimization.stage");
    // One enum (editors merge enum alternatives and drop their message): the numbers, the
    // same as strings, and "auto" (dropped by pydantic, with a warning of its own).
    let check = &stage["allOf"][0];
    assert_eq!(
        check["enum"],
        json!([0, 1, 2, 3, "0", "1", "2", "3", "auto"]),
        "{stage}"
    );
    assert_eq!(
        check["errorMessage"],
        json!(words::refused(
            described().get("zero_optimization.stage").unwrap(),
            Lang::En
        ))
    );
    assert!(stage["allOf"][1]["then"]["deprecationMessage"]
        .as_str()
        .unwrap()
        .contains("silently drops it"));
    // A lax key's mismatch is a warning: `if` the value fits, `else` a deprecationMessage.
    let tbs = &s["properties"]["train_batch_size"];
    let lax = tbs["allOf"][0].as_object().unwrap();
    assert!(lax["else"]["deprecationMessage"].is_string());
    assert!(lax["if"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["multipleOf"] == json!(1)));
    // ...and "auto" there is refused under the plain launcher, taken under the HF Trainer.
    assert!(tbs["allOf"][1]["errorMessage"]
        .as_str()
        .unwrap()
        .contains("only the HF Trainer"));
    let hf = schema_with(&opts("0.19.8", Launcher::HfTrainer, Lang::En));
    let tbs = &hf["properties"]["train_batch_size"];
    assert!(tbs.get("allOf").is_none(), "{tbs}");
    assert!(tbs["if"]["anyOf"]
        .as_array()
        .unwrap()
        .contains(&json!({"const": "auto"})));
}

#[test]
fn patterns_are_ecmascript_and_no_extension_keyword_is_left() {
    /// Every keyword of every subschema (not the key names of `properties`).
    fn walk(v: &Value, names: bool, out: &mut Vec<String>) {
        match v {
            Value::Object(m) if names => m.values().for_each(|s| walk(s, false, out)),
            Value::Object(m) => {
                for (k, child) in m {
                    if k.starts_with("x-") {
                        out.push(k.clone());
                    }
                    match k.as_str() {
                        "pattern" => {
                            let p = child.as_str().unwrap();
                            assert!(!p.contains("(?"), "not ECMAScript: {p}");
                        }
                        "type" => assert!(child.is_string(), "a union type: {child}"),
                        "enum" | "const" | "default" | "examples" => continue,
                        _ => {}
                    }
                    walk(child, k == "properties", out);
                }
            }
            Value::Array(a) => a.iter().for_each(|i| walk(i, false, out)),
            _ => {}
        }
    }
    for release in ["0.14.4", "0.17.0", "0.19.8"] {
        let mut found = Vec::new();
        walk(
            &schema_with(&opts(release, Launcher::Accelerate, Lang::Zh)),
            false,
            &mut found,
        );
        assert!(found.is_empty(), "{found:?}");
    }
    let plain = schema_with(&Options {
        editor_keywords: false,
        ..Options::default()
    });
    let text = plain.to_string();
    for k in EDITOR_KEYWORDS {
        assert!(!text.contains(&format!("\"{k}\"")), "{k} left");
    }
}

#[test]
fn chinese_variant_describes_every_key_in_chinese() {
    let zh = schema_with(&opts("0.19.8", Launcher::Deepspeed, Lang::Zh));
    let stage = key(&zh, "zero_optimization.stage");
    assert_eq!(
        stage["description"],
        json!(described().get("zero_optimization.stage").unwrap().doc.zh)
    );
    assert!(stage["markdownDescription"]
        .as_str()
        .unwrap()
        .contains("默认值"));
    for k in described().keys() {
        assert!(
            !k.doc.en.is_empty() && !k.doc.zh.is_empty(),
            "no docs for {}",
            k.path
        );
    }
}

#[test]
fn optimizer_types_match_any_case_and_removed_ones_are_refused() {
    let s = schema_with(&Options::default());
    let rules = s["properties"]["optimizer"]["allOf"].as_array().unwrap();
    let adam = rules
        .iter()
        .find(|r| r["if"]["properties"]["type"]["pattern"] == json!("^([Aa][Dd][Aa][Mm])$"))
        .expect("adam's rule");
    assert!(adam["then"]["properties"]["params"]["properties"]["betas"].is_object());
    let onebit = rules
        .iter()
        .find(|r| {
            r["if"]["properties"]["type"]["pattern"]
                == json!("^([Oo][Nn][Ee][Bb][Ii][Tt][Aa][Dd][Aa][Mm])$")
        })
        .expect("onebitadam's rule");
    assert_eq!(onebit["then"]["properties"]["type"]["not"], json!({}));
    let old = schema_with(&opts("0.19.5", Launcher::Deepspeed, Lang::En));
    let old_rules = old["properties"]["optimizer"]["allOf"].as_array().unwrap();
    assert!(old_rules
        .iter()
        .all(|r| r["then"]["properties"]["type"].is_null()));
}
