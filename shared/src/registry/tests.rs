use super::*;

#[test]
fn registry_loads_every_key_of_keys_tsv() {
    let reg = registry();
    assert!(reg.keys().len() >= 522);
    assert!(reg.get("zero_optimization.stage").is_some());
    assert!(reg.explain("bfloat16.enabled").is_some());
}

#[test]
fn suggestions_find_near_misses() {
    let reg = registry();
    assert_eq!(
        reg.suggest("", "train_batch_sise").map(|s| s.name()),
        Some("train_batch_size")
    );
    assert_eq!(
        reg.suggest("zero_optimization", "stag").map(|s| s.name()),
        Some("stage")
    );
    assert!(reg.suggest("", "completely_unrelated_thing").is_none());
}

/// The validator's registry (each key parsed from build.rs's trimmed text when first asked for)
/// holds exactly what the described one does, less the texts: the same keys in the same order,
/// each with the same release facts (merged by build.rs), and the same optimizer families.
#[test]
fn the_lazy_registry_equals_the_described_one_without_texts() {
    let (rules, full) = (registry(), described());
    assert_eq!(rules.keys().len(), full.keys().len());
    let mut with_facts = 0;
    for (r, f) in rules.keys().zip(full.keys()) {
        let mut f = f.clone();
        f.doc = Doc::default();
        f.source = None;
        f.notes = None;
        assert_eq!(r, &f, "{}", r.path);
        assert!(rules.get(&r.path).is_some_and(|k| std::ptr::eq(k, r)));
        with_facts += usize::from(r.since.is_some() || r.until.is_some() || !r.defaults.is_empty());
    }
    // releases.json's facts are in: keys new since 0.14.4, gone before 0.19.8, defaults changed.
    assert!(with_facts > 200, "{with_facts} keys with release facts");
    assert!(full.keys().filter(|k| !k.doc.en.is_empty()).count() > 500);
    assert_eq!(
        rules.optimizers.keys().collect::<Vec<_>>(),
        full.optimizers.keys().collect::<Vec<_>>()
    );
}
