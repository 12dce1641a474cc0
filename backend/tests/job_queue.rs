//! The job queue's story on SQLite and PostgreSQL alike: submit, claim (a race of many runners
//! claiming at once: no job goes to two), events stored once per sequence number, cancel,
//! state updates only from the owning runner, and the reaper marking a silent runner's jobs lost.

mod common;

use ds_studio::store::jobs::{JobEvent, JobFilter, NewJob};
use ds_studio::store::templates::{CheckedConfig, NewTemplate};
use ds_studio::store::{now_ms, Store, StoreError};
use ds_studio_shared::api::{
    Heartbeat, JobState, JobStateUpdate, RunnerEvent, RunnerRegister, Workload,
};
use ds_studio_shared::validate::{validate_text, verdict};
use ds_studio_shared::Context;
use std::collections::HashSet;

fn new_job(template_id: i64, user: i64, runner: Option<&str>) -> NewJob {
    NewJob {
        template_id,
        version: 1,
        created_by: user,
        workload: Workload::builtin_gpt("tiny"),
        gpus: 1,
        nodes: 1,
        max_steps: 20,
        env: Default::default(),
        secret_env: Default::default(),
        time_limit_s: None,
        runner_requested: runner.map(str::to_string),
        fit: None,
    }
}

fn register(name: &str) -> RunnerRegister {
    RunnerRegister {
        name: name.into(),
        hostname: "host".into(),
        backend: "local".into(),
        gpus: vec![],
        python: "python3".into(),
        version: "test".into(),
        deepspeed: String::new(),
    }
}

async fn story(store: &Store) {
    let u = store.create_user("jo", "Jo", None, false).await.unwrap();
    let team = store.create_team("jobs").await.unwrap();
    let text = "{\"train_batch_size\": 8}";
    let ctx = Context::default();
    let (_, d) = validate_text(text, &ctx);
    let t = store
        .create_template(NewTemplate {
            team_id: team.id,
            author_id: u.id,
            name: "run-me",
            description: "",
            tags: &[],
            message: "v1",
            config: &CheckedConfig {
                text: text.into(),
                context: ctx,
                verdict: verdict(&d),
                diagnostics: d,
            },
        })
        .await
        .unwrap();

    // Runners: registering a name again reuses its record.
    let mut runners = Vec::new();
    for i in 0..6 {
        runners.push(
            store
                .register_runner(&register(&format!("r{i}")), None)
                .await
                .unwrap(),
        );
    }
    let again = store.register_runner(&register("r0"), None).await.unwrap();
    assert_eq!(again.id, runners[0].id);

    // 30 jobs, 6 runners claiming as fast as they can: every job exactly once.
    let mut ids = Vec::new();
    for _ in 0..30 {
        ids.push(
            store
                .create_job(&new_job(t.id, u.id, None))
                .await
                .unwrap()
                .id,
        );
    }
    let mut tasks = Vec::new();
    for r in &runners {
        let s = store.clone();
        let r = r.clone();
        tasks.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            while let Some(j) = s.claim_job(&r).await.unwrap() {
                assert_eq!(j.state, JobState::Running);
                assert_eq!(j.runner.as_deref(), Some(r.name.as_str()));
                mine.push(j.id);
            }
            mine
        }));
    }
    let mut claimed = Vec::new();
    for task in tasks {
        claimed.extend(task.await.unwrap());
    }
    assert_eq!(claimed.len(), 30, "every job claimed once: {claimed:?}");
    let unique: HashSet<i64> = claimed.iter().copied().collect();
    assert_eq!(unique, ids.iter().copied().collect::<HashSet<_>>());

    // A job for a named runner goes only to that runner.
    let pinned = store
        .create_job(&new_job(t.id, u.id, Some("r3")))
        .await
        .unwrap();
    assert!(store.claim_job(&runners[0]).await.unwrap().is_none());
    let got = store.claim_job(&runners[3]).await.unwrap().unwrap();
    assert_eq!(got.id, pinned.id);

    // Events: stored once per seq; a resent batch is dropped; last_seq follows.
    let ev = |seq: i64| RunnerEvent::Metric {
        seq,
        ts: now_ms(),
        name: "Train/Samples/lr".into(),
        step: seq * 8,
        value: 0.001,
    };
    let (first, last) = store
        .insert_events(pinned.id, &[ev(1), ev(2), ev(3)])
        .await
        .unwrap();
    assert_eq!(last, 3);
    assert_eq!(first.len(), 3);
    let log = RunnerEvent::Log {
        seq: 4,
        ts: now_ms(),
        stream: "stdout".into(),
        text: "hello".into(),
    };
    let (second, _) = store
        .insert_events(pinned.id, &[ev(2), ev(3), log.clone()])
        .await
        .unwrap();
    assert_eq!(second.len(), 1, "only seq 4 is new: {second:?}");
    assert!(matches!(&second[0], JobEvent::Log(l) if l.text == "hello" && l.seq == 4));
    assert_eq!(store.job(pinned.id).await.unwrap().last_seq, 4);
    let after2 = store.events_after(pinned.id, 2, None, 100).await.unwrap();
    assert_eq!(
        after2.iter().map(JobEvent::seq).collect::<Vec<_>>(),
        vec![3, 4]
    );
    let logs = store
        .events_after(pinned.id, 0, Some("log"), 100)
        .await
        .unwrap();
    assert_eq!(logs.len(), 1);
    // A big batch, then values that must keep their type through the JSON round trip:
    // whole floats, big steps, unicode and escapes in text.
    let many: Vec<RunnerEvent> = (5..=1304).map(ev).collect();
    let (big, last) = store.insert_events(pinned.id, &many).await.unwrap();
    assert_eq!((big.len(), last), (1300, 1304));
    assert_eq!(
        store
            .metric_points(pinned.id, None, None)
            .await
            .unwrap()
            .len(),
        1303
    );
    // Downsampled in the database: 1303 points (steps 8..=10424, all 0.001) to 12, the ends
    // kept, steps rising, each series' total reported.
    let small = store
        .metric_points(pinned.id, Some("Train/Samples/lr"), Some(12))
        .await
        .unwrap();
    assert_eq!(small.len(), 12, "{small:?}");
    assert_eq!(small[0].1, 8);
    assert_eq!(small[11].1, 1304 * 8);
    assert!(small.windows(2).all(|w| w[0].1 < w[1].1), "{small:?}");
    assert!(small
        .iter()
        .all(|p| (p.2 - 0.001).abs() < 1e-12 && p.3 == 1303));
    // A ramp 1..=1000 on a job of its own: 998 inner points in 10 buckets (inner point i goes
    // to bucket i * 10 / 998), the first averaging points 2..=101.
    let ramp_job = store
        .create_job(&new_job(t.id, u.id, Some("nobody-claims")))
        .await
        .unwrap();
    let ramp: Vec<RunnerEvent> = (1..=1000)
        .map(|i| RunnerEvent::Metric {
            seq: i,
            ts: 1,
            name: "ramp".into(),
            step: i * 4,
            value: i as f64,
        })
        .collect();
    store.insert_events(ramp_job.id, &ramp).await.unwrap();
    let d = store
        .metric_points(ramp_job.id, None, Some(12))
        .await
        .unwrap();
    assert_eq!(d.len(), 12, "{d:?}");
    assert_eq!((d[0].1, d[0].2), (4, 1.0));
    assert_eq!((d[11].1, d[11].2), (4000, 1000.0));
    assert_eq!((d[1].1, d[1].2), (404, 51.5), "{d:?}");
    let text = "损失 \"quoted\" \\ tab\t";
    let odd = [
        RunnerEvent::Metric {
            seq: 1305,
            ts: 1,
            name: "x".into(),
            step: 1 << 40,
            value: 1.0,
        },
        RunnerEvent::Log {
            seq: 1306,
            ts: 2,
            stream: "stderr".into(),
            text: text.into(),
        },
    ];
    store.insert_events(pinned.id, &odd).await.unwrap();
    let back = store.events_after(pinned.id, 1304, None, 10).await.unwrap();
    assert!(
        matches!(&back[0], JobEvent::Metric(m) if m.step == 1 << 40 && m.value == 1.0),
        "{back:?}"
    );
    assert!(
        matches!(&back[1], JobEvent::Log(l) if l.text == text),
        "{back:?}"
    );

    // Only the owner updates state; cancel reaches the runner through the heartbeat.
    let upd = JobStateUpdate {
        state: JobState::Succeeded,
        exit_code: Some(0),
        message: None,
        preflight: None,
    };
    let other = store.update_job_state(pinned.id, runners[0].id, &upd).await;
    assert!(matches!(other, Err(StoreError::Conflict(_))), "{other:?}");
    store.cancel_job(pinned.id).await.unwrap();
    let hb = Heartbeat {
        running: vec![pinned.id],
    };
    assert_eq!(
        store.heartbeat(runners[3].id, &hb).await.unwrap(),
        vec![pinned.id]
    );
    let done = store
        .update_job_state(
            pinned.id,
            runners[3].id,
            &JobStateUpdate {
                state: JobState::Cancelled,
                exit_code: Some(143),
                message: Some("cancelled by a user".into()),
                preflight: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(done.state, JobState::Cancelled);
    assert!(done.finished_at.is_some());
    // An ended job cannot be cancelled or ended again.
    assert!(matches!(
        store.cancel_job(pinned.id).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        store.update_job_state(pinned.id, runners[3].id, &upd).await,
        Err(StoreError::Conflict(_))
    ));
    // A queued job is cancelled at once.
    let q = store
        .create_job(&new_job(t.id, u.id, Some("nobody")))
        .await
        .unwrap();
    assert_eq!(
        store.cancel_job(q.id).await.unwrap().state,
        JobState::Cancelled
    );

    // The reaper: runners not seen since the cutoff lose their running jobs.
    let running_before = store
        .jobs(
            &JobFilter {
                state: Some(JobState::Running),
                ..Default::default()
            },
            0,
            200,
        )
        .await
        .unwrap();
    assert_eq!(running_before.total, 30);
    store
        .heartbeat(runners[1].id, &Heartbeat::default())
        .await
        .unwrap();
    let lost = store.reap_lost(now_ms() + 1).await.unwrap();
    assert_eq!(lost.len(), 30);
    let j = store.job(lost[0]).await.unwrap();
    assert_eq!(j.state, JobState::Lost);
    assert!(j.message.unwrap().contains("heartbeats"));
    assert!(store.reap_lost(now_ms() + 1).await.unwrap().is_empty());

    // Lists: by state and by template, newest first, visible to team members only.
    let all = store.jobs(&JobFilter::default(), 0, 10).await.unwrap();
    assert_eq!(all.total, 33, "32 of the story and the ramp job");
    assert!(all.items.windows(2).all(|w| w[0].id > w[1].id));
    let outsider = store.create_user("out", "Out", None, false).await.unwrap();
    let none = store
        .jobs(
            &JobFilter {
                visible_to: Some(outsider.id),
                ..Default::default()
            },
            0,
            10,
        )
        .await
        .unwrap();
    assert_eq!(none.total, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn job_queue_on_sqlite() {
    let store = common::sqlite_store().await;
    story(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn job_queue_on_postgres() {
    let (store, name) = common::postgres_store().await;
    story(&store).await;
    common::drop_postgres(store, &name).await;
}
