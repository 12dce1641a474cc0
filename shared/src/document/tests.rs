use super::*;
use serde_json::json;

#[test]
fn json_round_trips_byte_for_byte() {
    let text =
        "{\n  \"train_batch_size\": 5e8,\n  \"a\" : [1, 2.50, -0],\n  \"b\": {\"c\": null}\n}\n";
    let doc = Document::parse(text);
    assert!(doc.is_ok(), "{:?}", doc.errors());
    assert_eq!(doc.format(), Format::Json);
    assert_eq!(doc.text(), text);
    let n = doc.get("/train_batch_size").unwrap().as_number().unwrap();
    assert_eq!(n.raw, "5e8");
    assert!(!n.is_int);
    assert_eq!(n.value, 5e8);
}

#[test]
fn hjson_features_parse() {
    let text = "# comment\n{\n  // line\n  train_batch_size: 8\n  mode: fixed words here\n  'q': 'single',\n  /* block */ \"x\": [1, 2,],\n}\n";
    let doc = Document::parse(text);
    assert!(doc.is_ok(), "{:?}", doc.errors());
    assert_eq!(doc.format(), Format::Hjson);
    assert_eq!(
        doc.to_value().unwrap(),
        json!({"train_batch_size": 8, "mode": "fixed words here", "q": "single", "x": [1, 2]})
    );
}

#[test]
fn quoteless_value_keeps_commas_like_hjson() {
    let doc = Document::parse("{\n a: hello, b: 1\n}");
    assert_eq!(doc.to_value().unwrap(), json!({"a": "hello, b: 1"}));
}

#[test]
fn braceless_root() {
    let doc = Document::parse("a: 1\nb: two\n");
    assert_eq!(doc.to_value().unwrap(), json!({"a": 1, "b": "two"}));
}

#[test]
fn duplicate_keys_are_errors_with_position() {
    let doc = Document::parse("{\n  \"a\": 1,\n  \"b\": {\"c\": 1, \"c\": 2},\n  \"a\": 2\n}");
    assert_eq!(doc.errors().len(), 2);
    assert_eq!((doc.errors()[0].line, doc.errors()[0].column), (3, 17));
    assert!(doc.errors()[0].message.contains("duplicate key \"c\""));
    assert_eq!(doc.errors()[1].line, 4);
}

#[test]
fn syntax_errors_have_line_and_column() {
    let doc = Document::parse("{\n  \"a\": 1,\n  \"b\": }\n");
    assert!(!doc.is_ok());
    let e = &doc.errors()[0];
    assert_eq!((e.line, e.column), (3, 8));
    let doc = Document::parse("");
    assert!(doc.root().is_none());
    assert!(!doc.errors().is_empty());
    let doc = Document::parse("{\"a\": True}");
    // hjson reads `True` as a quoteless string until the end of the line, so the brace is lost.
    assert!(!doc.is_ok());
}

#[test]
fn set_existing_value_changes_only_that_value() {
    let text = "{\n  // keep me\n  \"zero_optimization\": {\"stage\": 2, \"reduce_bucket_size\": 5e8},\n  \"x\": 1\n}\n";
    let doc = Document::parse(text);
    let edited = doc.set("/zero_optimization/stage", &json!(3)).unwrap();
    assert_eq!(edited.text(), text.replace("\"stage\": 2", "\"stage\": 3"));
}

#[test]
fn set_missing_inserts_member_with_matching_indent() {
    let text = "{\n    \"a\": 1,\n    \"b\": {\n        \"c\": 2\n    }\n}";
    let doc = Document::parse(text);
    let edited = doc.set("/b/d", &json!(true)).unwrap();
    assert_eq!(
        edited.text(),
        "{\n    \"a\": 1,\n    \"b\": {\n        \"c\": 2,\n        \"d\": true\n    }\n}"
    );
    let edited = doc.set("/z/y", &json!(1)).unwrap();
    assert_eq!(edited.to_value().unwrap()["z"], json!({"y": 1}));
    assert!(edited
        .text()
        .starts_with("{\n    \"a\": 1,\n    \"b\": {\n        \"c\": 2\n    },"));
}

#[test]
fn insert_after_quoteless_value_uses_newline() {
    let doc = Document::parse("{\n  a: some words\n}");
    let edited = doc.set("/b", &json!(2)).unwrap();
    assert!(edited.is_ok());
    assert_eq!(
        edited.to_value().unwrap(),
        json!({"a": "some words", "b": 2})
    );
}

#[test]
fn remove_member_keeps_neighbours() {
    let text = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}";
    let doc = Document::parse(text);
    assert_eq!(
        doc.remove("/b").unwrap().text(),
        "{\n  \"a\": 1,\n  \"c\": 3\n}"
    );
    assert_eq!(
        doc.remove("/c").unwrap().text(),
        "{\n  \"a\": 1,\n  \"b\": 2\n}"
    );
    let one_line = Document::parse("{\"a\": 1, \"b\": 2}");
    assert_eq!(one_line.remove("/a").unwrap().text(), "{\"b\": 2}");
    assert_eq!(one_line.remove("/b").unwrap().text(), "{\"a\": 1}");
}

#[test]
fn move_within_object_renames_in_place() {
    let doc =
        Document::parse("{\n  \"zero_optimization\": {\"cpu_offload\": true, \"stage\": 2}\n}");
    let patch = json!([{"op": "move", "from": "/zero_optimization/cpu_offload", "path": "/zero_optimization/offload_x"}]);
    let edited = doc.apply_patch(&patch).unwrap();
    assert_eq!(
        edited.text(),
        "{\n  \"zero_optimization\": {\"offload_x\": true, \"stage\": 2}\n}"
    );
}

#[test]
fn canonical_keeps_comments_numbers_and_order() {
    let doc = Document::parse("{b: 5e8, # why\n a: [1,2], c: {}}");
    let out = doc.canonical().unwrap();
    assert_eq!(
        out,
        "{\n  \"b\": 5e8,\n  # why\n  \"a\": [1, 2],\n  \"c\": {}\n}\n"
    );
    let again = Document::parse(&out);
    assert_eq!(again.to_value(), doc.to_value());
}

mod props {
    use super::super::*;
    use proptest::prelude::*;

    fn arb_json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i32>().prop_map(serde_json::Value::from),
            "[a-z ]{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                prop::collection::vec(("[a-z_]{1,6}", inner), 0..5).prop_map(|kv| {
                    let mut m = serde_json::Map::new();
                    for (k, v) in kv {
                        m.insert(k, v);
                    }
                    serde_json::Value::Object(m)
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn parse_is_lossless(v in arb_json()) {
            let obj = serde_json::json!({"root": v});
            for text in [serde_json::to_string(&obj).unwrap(), serde_json::to_string_pretty(&obj).unwrap()] {
                let doc = Document::parse(&text);
                prop_assert!(doc.is_ok());
                prop_assert_eq!(doc.text(), text.as_str());
                prop_assert_eq!(doc.to_value().unwrap(), obj.clone());
                let canon = Document::parse(&doc.canonical().unwrap());
                prop_assert_eq!(canon.to_value().unwrap(), obj.clone());
            }
        }

        #[test]
        fn set_then_get_and_untouched_siblings(v in arb_json(), n in any::<i32>()) {
            let obj = serde_json::json!({"keep": v.clone(), "edit": 1});
            let text = serde_json::to_string_pretty(&obj).unwrap();
            let doc = Document::parse(&text);
            let edited = doc.set("/edit", &serde_json::json!(n)).unwrap();
            prop_assert_eq!(edited.to_value().unwrap(), serde_json::json!({"keep": v, "edit": n}));
            let removed = edited.remove("/edit").unwrap();
            prop_assert!(removed.is_ok());
            prop_assert_eq!(removed.to_value().unwrap()["keep"].clone(), obj["keep"].clone());
        }
    }
}

#[test]
fn canonical_is_idempotent_with_comments() {
    let doc = Document::parse("{a: 1, // one\n // two\n b: 2 # three\n}");
    let once = doc.canonical().unwrap();
    let twice = Document::parse(&once).canonical().unwrap();
    assert_eq!(once, twice);
    assert_eq!(once.matches("// one").count(), 1);
    assert!(once.contains("# three"));
}

#[test]
fn set_raw_keeps_the_number_as_written_and_inserts_missing_members() {
    let d = Document::parse("{\n  \"zero_optimization\": {\"stage\": 2}\n}\n");
    let d = d
        .set_raw("/zero_optimization/reduce_bucket_size", "5e8")
        .unwrap();
    assert!(d.is_ok(), "{}", d.text());
    assert!(
        d.text().contains("\"reduce_bucket_size\": 5e8"),
        "{}",
        d.text()
    );
    let d = d.set_raw("/zero_optimization/stage", "3").unwrap();
    assert!(d.text().contains("\"stage\": 3"), "{}", d.text());
    assert_eq!(
        d.get("/zero_optimization/reduce_bucket_size")
            .unwrap()
            .as_number()
            .unwrap()
            .raw,
        "5e8"
    );
}

/// Found by `cargo xtask fuzz`: a form feed (whitespace to Rust's `trim`, not to JSON) alone on
/// an array's line made an empty value that did not advance, and the array collected empty
/// values until the process ran out of memory (5 GiB in seconds).
#[test]
fn whitespace_json_does_not_skip_is_an_error_not_an_endless_array() {
    for text in [
        "{\"a\": [1,\n\u{c}\n2]}",
        "{\"a\": [0.5,\r\r\u{c}\r\r\"auto\"\"auto\"]}",
        "{\"a\": \u{c}\n}",
        "{\"a\": [\u{a0}\n]}",
        "[\u{b}\r]",
    ] {
        let doc = Document::parse(text);
        assert!(!doc.is_ok(), "{text:?} parsed");
        assert!(
            doc.errors()
                .iter()
                .any(|e| e.message.contains("where a value should be")),
            "{text:?}: {:?}",
            doc.errors()
        );
    }
    // Those characters inside a value are still part of it.
    let doc = Document::parse("{\n a: x\u{c}y\n}");
    assert_eq!(doc.to_value().unwrap(), json!({"a": "x\u{c}y"}));
}

#[test]
fn a_missing_brace_is_reported_where_it_was_left_out_not_at_the_end() {
    let text = "{\n  \"zero_optimization\": {\n    \"stage\": 2,\n  \"train_batch_size\": 8,\n  \"steps_per_print\": 10\n}\n";
    let doc = Document::parse(text);
    let e = &doc.errors()[0];
    assert_eq!((e.line, e.column), (4, 3), "{e:?}");
    assert!(
        e.message.contains(
            "`zero_optimization` opened on line 2 also takes `train_batch_size` on line 4"
        ) && e.message.contains("missing before line 4"),
        "{e:?}"
    );
    assert!(
        e.zh.as_deref()
            .is_some_and(|zh| zh.contains("很可能在第 4 行之前少了一个 '}'")),
        "{e:?}"
    );
    // Nothing to go on (one line, or members indented deeper): the end, and the opening line.
    let doc = Document::parse("{\"a\": {\"b\": 1}");
    let e = &doc.errors()[0];
    assert!(
        e.message.contains("missing '}'") && e.message.contains("line 1 is never closed"),
        "{e:?}"
    );
    let doc = Document::parse("{\n  \"a\": {\n    \"b\": 1\n  }\n");
    let e = &doc.errors()[0];
    assert_eq!(e.line, 5, "{e:?}");
    assert!(
        e.message.contains("the '{' on line 1 is never closed"),
        "{e:?}"
    );
}
