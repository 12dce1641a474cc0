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
