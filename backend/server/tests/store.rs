//! The store's story, told once and run on SQLite and on PostgreSQL alike; plus the
//! concurrency test (many saves on the same base: exactly one wins each round).

mod common;

use ds_studio_server::store::accounts::CredentialKind;
use ds_studio_server::store::templates::{CheckedConfig, NewTemplate, TemplateFilter};
use ds_studio_server::store::{now_ms, Store, StoreError};
use ds_studio_shared::api::{Role, TemplateUpdate};
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::Context;

fn checked(text: &str) -> CheckedConfig {
    let ctx = Context::default();
    let (_, d) = validate_text(text, &ctx);
    CheckedConfig {
        text: text.into(),
        context: ctx,
        verdict: verdict(&d),
        diagnostics: d,
    }
}

async fn story(store: &Store) {
    // Accounts.
    assert_eq!(store.user_count().await.unwrap(), 0);
    let ana = store
        .create_user("ana", "Ana", Some("hash"), true)
        .await
        .unwrap();
    let bo = store.create_user("bo", "Bo", None, false).await.unwrap();
    assert!(ana.is_admin && ana.has_password && !bo.has_password);
    match store.create_user("ana", "again", None, false).await {
        Err(StoreError::Conflict(m)) => assert!(m.contains("ana"), "{m}"),
        other => panic!("duplicate user: {other:?}"),
    }
    assert_eq!(store.first_admin().await.unwrap().id, ana.id);
    let bo2 = store
        .update_user(bo.id, Some("Bo B."), Some("h2"), None)
        .await
        .unwrap();
    assert_eq!(bo2.display_name, "Bo B.");
    assert!(bo2.has_password);
    assert_eq!(store.users(0, 1).await.unwrap().next_offset, Some(1));

    let team = store.create_team("ml").await.unwrap();
    assert!(matches!(
        store.create_team("ml").await,
        Err(StoreError::Conflict(_))
    ));
    store
        .put_member(team.id, bo.id, Role::Viewer)
        .await
        .unwrap();
    store
        .put_member(team.id, bo.id, Role::Editor)
        .await
        .unwrap();
    assert_eq!(
        store.role_in(team.id, bo.id).await.unwrap(),
        Some(Role::Editor)
    );
    assert_eq!(store.role_in(team.id, ana.id).await.unwrap(), None);
    assert_eq!(store.teams_of(bo.id, false).await.unwrap().len(), 1);
    assert!(store.teams_of(ana.id, false).await.unwrap().is_empty());
    assert_eq!(store.teams_of(ana.id, true).await.unwrap().len(), 1);
    assert!(matches!(
        store.put_member(team.id, 9999, Role::Viewer).await,
        Err(StoreError::NotFound(_))
    ));

    // Credentials: found by token, never stored in clear, revocable, expiring.
    let (tok, info) = store
        .create_credential(bo.id, CredentialKind::ApiToken, "ci", None)
        .await
        .unwrap();
    assert!(tok.starts_with("dss_") && tok.starts_with(&info.prefix));
    let c = store.credential(&tok).await.unwrap().unwrap();
    assert_eq!(c.user.id, bo.id);
    store.touch_credential(&c).await.unwrap();
    assert!(store.api_tokens(bo.id).await.unwrap()[0]
        .last_used_at
        .is_some());
    assert!(store.credential("dss_nope").await.unwrap().is_none());
    store.revoke_credential(info.id, bo.id).await.unwrap();
    assert!(store.credential(&tok).await.unwrap().is_none());
    assert!(matches!(
        store.revoke_credential(info.id, ana.id).await,
        Err(StoreError::NotFound(_))
    ));
    let (old, _) = store
        .create_credential(bo.id, CredentialKind::ApiToken, "old", Some(now_ms() - 1))
        .await
        .unwrap();
    assert!(store.credential(&old).await.unwrap().is_none());
    let (once, rec) = store
        .create_credential(bo.id, CredentialKind::Signin, "link", None)
        .await
        .unwrap();
    let c = store.credential(&once).await.unwrap().unwrap();
    assert_eq!(c.kind, CredentialKind::Signin);
    assert!(store.consume_credential(rec.id).await.unwrap());
    assert!(!store.consume_credential(rec.id).await.unwrap());

    // Templates and versions: text kept byte for byte.
    let v1 = "{\n  // ZeRO-2\n  train_batch_size: 8,\n  \"steps_per_print\": 5e2,\n}\n";
    let tags = vec!["zero2".to_string(), "7b".to_string()];
    let t = store
        .create_template(NewTemplate {
            team_id: team.id,
            author_id: bo.id,
            name: "llama-7b",
            description: "7B on 8 GPUs",
            tags: &tags,
            message: "first",
            config: &checked(v1),
        })
        .await
        .unwrap();
    assert_eq!((t.head_version, t.team_name.as_str()), (1, "ml"));
    let again = store
        .create_template(NewTemplate {
            team_id: team.id,
            author_id: bo.id,
            name: "llama-7b",
            description: "",
            tags: &[],
            message: "dup",
            config: &checked("{}"),
        })
        .await;
    assert!(matches!(again, Err(StoreError::Conflict(_))));
    let got = store.version(t.id, 1).await.unwrap();
    assert_eq!(got.config_text, v1);
    assert_eq!(got.config["steps_per_print"], 500.0);
    assert_eq!(got.author, "bo");

    let v2 = store
        .save_version(
            t.id,
            1,
            bo.id,
            "bigger",
            &checked(r#"{"train_batch_size": 0}"#),
        )
        .await
        .unwrap();
    assert_eq!(v2.version, 2);
    assert_eq!(v2.verdict, ds_studio_shared::Verdict::Rejected);
    match store
        .save_version(t.id, 1, ana.id, "stale", &checked("{}"))
        .await
    {
        Err(StoreError::VersionConflict { base: 1, head: 2 }) => {}
        other => panic!("stale save: {other:?}"),
    }
    let list = store.versions(t.id, 0, 10).await.unwrap();
    assert_eq!(list.total, 2);
    assert_eq!(list.items[0].version, 2);
    assert_eq!(list.items[0].errors, 1);
    assert!(matches!(
        store.version(t.id, 3).await,
        Err(StoreError::NotFound(_))
    ));

    // Listing and search.
    let all = TemplateFilter::default();
    assert_eq!(store.templates(&all, 0, 10).await.unwrap().total, 1);
    let by_name = TemplateFilter {
        query: Some("LLAMA".into()),
        ..Default::default()
    };
    assert_eq!(store.templates(&by_name, 0, 10).await.unwrap().total, 1);
    let by_tag = TemplateFilter {
        tag: Some("7b".into()),
        ..Default::default()
    };
    assert_eq!(store.templates(&by_tag, 0, 10).await.unwrap().total, 1);
    let other_tag = TemplateFilter {
        tag: Some("7".into()),
        ..Default::default()
    };
    assert_eq!(store.templates(&other_tag, 0, 10).await.unwrap().total, 0);
    let visible_to_ana = TemplateFilter {
        visible_to: Some(ana.id),
        ..Default::default()
    };
    assert_eq!(
        store.templates(&visible_to_ana, 0, 10).await.unwrap().total,
        0
    );
    let renamed = store
        .update_template(
            t.id,
            &TemplateUpdate {
                name: Some("llama2-7b".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (renamed.name.as_str(), renamed.description.as_str()),
        ("llama2-7b", "7B on 8 GPUs")
    );
    assert_eq!(renamed.head_verdict, ds_studio_shared::Verdict::Rejected);
    // Versions read before the rename (and kept in memory) show the new name.
    assert_eq!(
        store.version(t.id, 1).await.unwrap().template_name,
        "llama2-7b"
    );

    // Share links.
    let (stok, share) = store.create_share(t.id, 1, bo.id, None).await.unwrap();
    assert!(stok.len() >= 4 + 32, "at least 128 random bits");
    assert_eq!(
        store.share_by_token(&stok).await.unwrap().unwrap().id,
        share.id
    );
    store.revoke_share(t.id, share.id).await.unwrap();
    assert!(store.share_by_token(&stok).await.unwrap().is_none());
    let (expired, _) = store
        .create_share(t.id, 1, bo.id, Some(now_ms() - 1000))
        .await
        .unwrap();
    assert!(store.share_by_token(&expired).await.unwrap().is_none());
    assert_eq!(store.shares(t.id).await.unwrap().len(), 2);

    // Deleting a template takes its versions and links with it; nothing else.
    store.delete_template(t.id).await.unwrap();
    assert!(matches!(
        store.template(t.id).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.delete_template(t.id).await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(store.members(team.id).await.unwrap().len(), 1);
}

/// `writers` saves race on the same base in each of `rounds` rounds.
async fn concurrent_saves(store: &Store, writers: usize, rounds: i64) {
    let u = store
        .create_user("racer", "Racer", None, false)
        .await
        .unwrap();
    let team = store.create_team("race").await.unwrap();
    let t = store
        .create_template(NewTemplate {
            team_id: team.id,
            author_id: u.id,
            name: "contended",
            description: "",
            tags: &[],
            message: "v1",
            config: &checked("{}"),
        })
        .await
        .unwrap();
    for round in 1..=rounds {
        let mut tasks = Vec::new();
        for w in 0..writers {
            let s = store.clone();
            tasks.push(tokio::spawn(async move {
                let text = format!("{{\"train_batch_size\": {}}}", w + 1);
                s.save_version(t.id, round, u.id, &format!("writer {w}"), &checked(&text))
                    .await
            }));
        }
        let mut wins = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok(v) => {
                    assert_eq!(v.version, round + 1);
                    wins += 1;
                }
                Err(StoreError::VersionConflict { base, head }) => {
                    assert_eq!((base, head), (round, round + 1))
                }
                Err(e) => panic!("round {round}: unexpected {e}"),
            }
        }
        assert_eq!(wins, 1, "round {round}: exactly one save wins");
    }
    let versions = store.versions(t.id, 0, 200).await.unwrap();
    let numbers: Vec<i64> = versions.items.iter().rev().map(|v| v.version).collect();
    assert_eq!(numbers, (1..=rounds + 1).collect::<Vec<_>>());
    assert_eq!(store.template(t.id).await.unwrap().head_version, rounds + 1);
}

/// Sign-in attempt windows: counted per key, refused past the limit with the seconds left,
/// reset on success, a new window once the old one ended, old windows forgotten; attempts made
/// at the same moment (as replicas would) are all counted.
async fn attempt_windows(store: &Store) {
    for i in 0..3 {
        assert_eq!(
            store
                .count_attempt("signin", "alice", 3, 60_000)
                .await
                .unwrap(),
            Ok(()),
            "attempt {i}"
        );
    }
    let wait = store
        .count_attempt("signin", "alice", 3, 60_000)
        .await
        .unwrap()
        .unwrap_err();
    assert!((59..=60).contains(&wait), "{wait}");
    // Another key and another scope are counted apart.
    assert_eq!(
        store
            .count_attempt("signin", "bob", 3, 60_000)
            .await
            .unwrap(),
        Ok(())
    );
    assert_eq!(
        store
            .count_attempt("other", "alice", 3, 60_000)
            .await
            .unwrap(),
        Ok(())
    );
    store.reset_attempts("signin", "alice").await.unwrap();
    assert_eq!(
        store
            .count_attempt("signin", "alice", 3, 60_000)
            .await
            .unwrap(),
        Ok(())
    );
    // A window of 0 ms has always ended: each attempt starts a new one.
    for _ in 0..5 {
        assert_eq!(
            store.count_attempt("signin", "carol", 1, 0).await.unwrap(),
            Ok(())
        );
    }
    // Twenty attempts at once: exactly ten pass.
    let results = futures_util::future::join_all(
        (0..20).map(|_| store.count_attempt("signin", "dave", 10, 60_000)),
    )
    .await;
    let passed = results.iter().filter(|r| matches!(r, Ok(Ok(())))).count();
    assert_eq!(passed, 10, "{results:?}");
    // Windows started over an hour ago are forgotten; current ones stay.
    sqlx::query("UPDATE attempt_windows SET started_at = started_at - 7200000 WHERE key = 'bob'")
        .execute(store.pool())
        .await
        .unwrap();
    assert_eq!(store.forget_old_attempts().await.unwrap(), 1);
    assert!(store
        .count_attempt("signin", "dave", 10, 60_000)
        .await
        .unwrap()
        .is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn story_on_sqlite() {
    let store = common::sqlite_store().await;
    story(&store).await;
    concurrent_saves(&store, 16, 8).await;
    attempt_windows(&store).await;
    // Migrations are idempotent.
    store.migrate().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn story_on_postgres() {
    let (store, name) = common::postgres_store().await;
    story(&store).await;
    concurrent_saves(&store, 16, 8).await;
    attempt_windows(&store).await;
    store.migrate().await.unwrap();
    common::drop_postgres(store, &name).await;
}
