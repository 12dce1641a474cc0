//! The UI's own logic compiled to WebAssembly and run by `wasm-bindgen-test-runner` (in Node):
//! the same code the browser runs, on the same target, so that a difference between native
//! and wasm32 (float formatting, UTF-16 offsets, usize width) shows here. `cargo xtask test`
//! runs it with `cargo test -p ds-studio-frontend --target wasm32-unknown-unknown --test wasm`.
#![cfg(target_arch = "wasm32")]

use ds_studio_frontend::components::diagnostics::keyed;
use ds_studio_frontend::components::form::{map_rows, member_literal, param_tip};
use ds_studio_frontend::components::json_view::{
    field_id_candidates, line_numbers, line_range_utf16, markers,
};
use ds_studio_frontend::components::memory_panel::{bars, Inputs};
use ds_studio_frontend::i18n::{tr, STRINGS};
use ds_studio_shared::i18n::{Lang, Text};
use ds_studio_shared::registry::registry;
use ds_studio_shared::{validate, Context, Diagnostic, Document, Severity};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn every_ui_string_has_both_languages() {
    for (key, en, zh) in STRINGS {
        assert!(!en.is_empty() && !zh.is_empty(), "{key}");
        assert_eq!(tr(key, Lang::Zh), *zh);
    }
}

#[wasm_bindgen_test]
fn diagnostics_rows_are_keyed_by_content_not_position() {
    let doc = Document::parse(r#"{"train_batch_size": 0, "zero_optimizaton": {}}"#);
    let diags = validate(&doc, &Context::default());
    let keys: Vec<_> = keyed(&diags).into_iter().map(|(k, _)| k).collect();
    // One more diagnostic in front leaves the keys of the others as they were (an error: the
    // list puts errors first, so it stays in front).
    let mut more = vec![Diagnostic::new(
        Severity::Error,
        "x",
        "/x",
        Text::new("first", "first"),
    )];
    more.extend(diags.clone());
    let shifted: Vec<_> = keyed(&more).into_iter().map(|(k, _)| k).collect();
    assert_eq!(&shifted[1..], &keys[..]);
    let unique: std::collections::HashSet<_> = shifted.iter().collect();
    assert_eq!(unique.len(), shifted.len());
}

#[wasm_bindgen_test]
fn the_gutter_numbers_lines_and_marks_problems_in_utf16() {
    assert_eq!(line_numbers(4), "1\n2\n3\n4");
    let text = "{\n  \"名字\": 1,\n  \"zero_optimizaton\": {}\n}";
    let doc = Document::parse(text);
    let diags = validate(&doc, &Context::default());
    let m = markers(&diags, Lang::En);
    let typo = diags
        .iter()
        .find(|d| d.path == "/zero_optimizaton")
        .expect("a diagnostic for the misspelled key");
    assert_eq!(typo.line, Some(3));
    // The marker of line 3 carries that diagnostic, at least as severe.
    assert!(
        m.iter().any(|(line, sev, msg)| *line == 3
            && *sev <= typo.severity
            && msg.contains(&typo.message.en)),
        "{m:?}"
    );
    assert_eq!(line_range_utf16(text, 2), (2, 12));
    assert_eq!(
        field_id_candidates("/zero_optimization/stage")[0],
        "field-zero_optimization-stage"
    );
}

#[wasm_bindgen_test]
fn maps_follow_the_optimizer_type() {
    let adamw = registry().optimizer("AdamW").unwrap();
    let known: Vec<String> = adamw.params.keys().cloned().collect();
    let rows = map_rows(&known, &["lr".into(), "momentum".into()]);
    assert!(rows.contains(&("momentum".into(), false)));
    assert!(rows.contains(&("lr".into(), true)));
    // The browser build has no parameter descriptions compiled in (they come with the key
    // docs); type and default are there.
    let tip = param_tip(Some(adamw), "optimizers.adamw", "lr", false);
    assert!(
        tip.contains("Type: float") && tip.contains("Default: 0.001"),
        "{tip}"
    );
    assert!(param_tip(Some(adamw), "optimizers.adamw", "momentum", true).contains("未知"));
    assert_eq!(member_literal("5e8").as_deref(), Some("5e8"));
}

#[wasm_bindgen_test]
fn memory_bars_mark_the_config_and_what_does_not_fit() {
    let doc = Document::parse(
        r#"{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}}"#,
    );
    let ctx = Context {
        world_size: 8,
        gpu_memory_gib: Some(40.0),
        ..Context::default()
    };
    let inputs = Inputs {
        params: 7_000_000_000,
        hidden_size: Some(4096),
        layers: Some(32),
        heads: Some(32),
        seq_len: Some(2048),
        vocab: Some(32000),
        checkpointing: true,
        nodes: 1,
        user: None,
    };
    let chart = bars(&inputs, &doc, &ctx);
    let list = chart.bars.clone();
    assert_eq!(list.len(), 7);
    assert!(!chart.assumed_shape);
    let current: Vec<_> = list.iter().filter(|b| b.current).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].label, "ZeRO-2");
    // ZeRO-0 holds 14 bytes per parameter (98 GB) at least: over 40 GiB.
    assert_eq!(list[0].fits, Some(false));
    assert!(list[0].gpu_bytes >= 98_000_000_000);
    // Partitioning over 8 GPUs: ZeRO-3 holds less than ZeRO-2, which holds less than ZeRO-0.
    assert!(list[4].gpu_bytes < list[2].gpu_bytes && list[2].gpu_bytes < list[0].gpu_bytes);
    // Tensor parallelism of 2 halves the model states each rank holds.
    let tp2 = Context {
        tensor_parallel: 2,
        ..ctx.clone()
    };
    let halved = bars(&inputs, &doc, &tp2).bars;
    assert!(halved[0].gpu_bytes < list[0].gpu_bytes * 6 / 10);
    // Every bar is the sum of its parts at its peak.
    for b in &list {
        assert_eq!(
            b.parts.iter().map(|(_, v)| v).sum::<u64>(),
            b.gpu_bytes,
            "{}",
            b.label
        );
    }
    let part = |b: &ds_studio_frontend::components::memory_panel::Bar,
                p: ds_studio_shared::memory::Part| {
        b.parts.iter().find(|(q, _)| *q == p).map(|(_, v)| *v)
    };
    assert_eq!(
        part(&list[0], ds_studio_shared::memory::Part::Buckets),
        None
    );
    assert!(part(&list[4], ds_studio_shared::memory::Part::GatheredParameters).is_some());
    assert!(chart.costlier.is_empty(), "{:?}", chart.costlier);
    // On one GPU ZeRO-3 costs more than ZeRO-0 (it gathers what it partitions over one GPU),
    // and the panel says why.
    let one = bars(
        &inputs,
        &doc,
        &Context {
            world_size: 1,
            ..ctx.clone()
        },
    );
    let z3 = one
        .costlier
        .iter()
        .find(|c| c.stage == 3)
        .expect("ZeRO-3 explained");
    assert_eq!(z3.than, 0);
    let said =
        ds_studio_frontend::components::memory_panel::explain(z3, ds_studio_shared::i18n::Lang::En);
    assert!(
        said.contains("ZeRO-3") && said.contains("with 1 GPU") && said.contains("gathered"),
        "{said}"
    );
    // A bare parameter count gets a GPT-like shape, said.
    let custom = bars(
        &Inputs {
            hidden_size: None,
            layers: None,
            heads: None,
            vocab: None,
            ..inputs.clone()
        },
        &doc,
        &ctx,
    );
    assert!(custom.assumed_shape);
}
