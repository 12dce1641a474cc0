//! The job queue's story on SQLite and PostgreSQL alike: submit, claim (a race of many runners
//! claiming at once: no job goes to two), events stored once per sequence number, cancel,
//! state updates only from the owning runner, the reaper marking a silent runner's jobs lost,
//! and a heartbeat marking lost the jobs a restarted runner no longer reports.

mod common;

use ds_studio_server::store::jobs::{JobEvent, JobFilter, NewJob};
use ds_studio_server::store::templates::{CheckedConfig, NewTemplate};
use ds_studio_server::store::{now_ms, Store, StoreError};
use ds_studio_shared::api::{
    Heartbeat, JobState, JobStateUpdate, RunFacts, RunLabels, RunnerEvent, RunnerRegister,
    RunsQuery, Workload,
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
        stall_timeout_s: None,
        runner_requested: runner.map(str::to_string),
        fit: None,
        trainer: None,
        filled: Vec::new(),
        facts: RunFacts::default(),
        labels: RunLabels::default(),
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
        devices: None,
        deepspeed: String::new(),
    }
}

/// A new user, a new team and a template of `text` judged in `ctx`, authored by that user.
async fn user_and_template(
    store: &Store,
    (user, team, name): (&str, &str, &str),
    text: &str,
    ctx: Context,
) -> (i64, ds_studio_shared::api::Template) {
    let u = store.create_user(user, user, None, false).await.unwrap();
    let team = store.create_team(team).await.unwrap();
    let (_, d) = validate_text(text, &ctx);
    let t = store
        .create_template(NewTemplate {
            team_id: team.id,
            author_id: u.id,
            name,
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
    (u.id, t)
}

async fn story(store: &Store) {
    let (uid, t) = user_and_template(
        store,
        ("jo", "jobs", "run-me"),
        "{\"train_batch_size\": 8}",
        Context::default(),
    )
    .await;

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
    // What a runner runs jobs on is kept with it (and replaced when it registers again).
    let devices = ds_studio_shared::api::RunnerDevices {
        gpus: vec![ds_studio_shared::api::GpuDevice {
            index: 0,
            name: "NVIDIA H200".into(),
            memory_bytes: 150_110_011_392,
            compute_capability: Some("9.0".into()),
        }],
        cpu_cores: 16,
        host_memory_bytes: 128 << 30,
        landlock_abi: Some(7),
        job_writable: Vec::new(),
    };
    let with_gpu = store
        .register_runner(
            &RunnerRegister {
                devices: Some(devices.clone()),
                ..register("r0")
            },
            None,
        )
        .await
        .unwrap();
    assert_eq!(with_gpu.devices.as_ref(), Some(&devices));
    assert_eq!(store.runners().await.unwrap()[0].devices, Some(devices));

    // 30 jobs, 6 runners claiming as fast as they can: every job exactly once.
    let mut ids = Vec::new();
    for _ in 0..30 {
        ids.push(
            store
                .create_job(&new_job(t.id, uid, None))
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
        .create_job(&new_job(t.id, uid, Some("r3")))
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
        .create_job(&new_job(t.id, uid, Some("nobody-claims")))
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
        handed_config: None,
    };
    let other = store.update_job_state(pinned.id, runners[0].id, &upd).await;
    assert!(matches!(other, Err(StoreError::Conflict(_))), "{other:?}");
    store.cancel_job(pinned.id, 20_000).await.unwrap();
    let hb = Heartbeat {
        running: vec![pinned.id],
    };
    assert_eq!(
        store.heartbeat(runners[3].id, &hb).await.unwrap().cancel,
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
                handed_config: Some(
                    serde_json::json!({"train_batch_size": 8, "steps_per_print": "inf"}),
                ),
            },
        )
        .await
        .unwrap();
    assert_eq!(done.state, JobState::Cancelled);
    assert_eq!(
        done.handed_config,
        Some(serde_json::json!({"train_batch_size": 8, "steps_per_print": "inf"}))
    );
    assert!(done.finished_at.is_some());
    // An ended job cannot be cancelled or ended again.
    assert!(matches!(
        store.cancel_job(pinned.id, 20_000).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(matches!(
        store.update_job_state(pinned.id, runners[3].id, &upd).await,
        Err(StoreError::Conflict(_))
    ));
    // A queued job is cancelled at once.
    let q = store
        .create_job(&new_job(t.id, uid, Some("nobody")))
        .await
        .unwrap();
    assert_eq!(
        store.cancel_job(q.id, 20_000).await.unwrap().state,
        JobState::Cancelled
    );

    // The reaper: runners not seen since the cutoff lose their running jobs.
    let running_before = store
        .jobs(
            &JobFilter {
                query: RunsQuery {
                    states: vec![JobState::Running],
                    ..Default::default()
                },
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

    // Deleting the template: refused while one of its jobs is queued (the message names it),
    // then done, its ended jobs with it. The story's other jobs end first.
    let active: Vec<i64> = store
        .jobs(&JobFilter::default(), 0, 200)
        .await
        .unwrap()
        .items
        .iter()
        .filter(|j| j.template_id == t.id && !j.state.is_terminal())
        .map(|j| j.id)
        .collect();
    for id in active {
        sqlx::query("UPDATE jobs SET state = 'failed' WHERE id = $1")
            .bind(id)
            .execute(store.pool())
            .await
            .unwrap();
    }
    let queued = store
        .create_job(&new_job(t.id, uid, Some("nobody")))
        .await
        .unwrap();
    let refused = store.delete_template(t.id).await;
    match &refused {
        Err(StoreError::Conflict(m)) => assert!(m.contains(&format!("job {} ", queued.id)), "{m}"),
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(store.job(queued.id).await.unwrap().state, JobState::Queued);
    store.cancel_job(queued.id, 20_000).await.unwrap();
    store.delete_template(t.id).await.unwrap();
    assert!(matches!(
        store.job(queued.id).await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(
        store
            .jobs(&JobFilter::default(), 0, 10)
            .await
            .unwrap()
            .total,
        0
    );
}

/// The runs table: facts stored at submission, the claiming runner's release, figures written
/// when a job ends (and again when late points arrive), labels, every filter and sort order
/// the list offers, evaluated in SQL, and the backfill of jobs from before the table.
async fn runs_table(store: &Store) {
    let u = store.create_user("ru", "Ru", None, false).await.unwrap();
    let team = store.create_team("runs").await.unwrap();
    let ctx = Context {
        world_size: 2,
        ..Context::default()
    };
    let text = r#"{"train_batch_size": 16, "gradient_accumulation_steps": 2,
        "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}"#;
    let (_, d) = validate_text(text, &ctx);
    let t = store
        .create_template(NewTemplate {
            team_id: team.id,
            author_id: u.id,
            name: "Llama sweep",
            description: "",
            tags: &[],
            message: "v1",
            config: &CheckedConfig {
                text: text.into(),
                context: ctx.clone(),
                verdict: verdict(&d),
                diagnostics: d,
            },
        })
        .await
        .unwrap();
    let mut runner_reg = register("fast-box");
    runner_reg.deepspeed = "0.18.4".into();
    let runner = store.register_runner(&runner_reg, None).await.unwrap();
    // Four runs: ZeRO 2 bf16 on 2 GPUs (facts from the config), ZeRO 3 fp16 with offload on
    // 4, and two fp32 ones on 1 GPU; the names, notes and tags people give them.
    let facts = |zero: u8, precision: &str, offload: &str, micro: i64| RunFacts {
        launcher: "deepspeed".into(),
        deepspeed: "0.19.8".into(),
        zero_stage: Some(zero),
        precision: precision.into(),
        offload: offload.into(),
        micro_batch: Some(micro),
    };
    let from_config = RunFacts::of(text, &ctx);
    assert_eq!(
        (
            from_config.zero_stage,
            from_config.precision.as_str(),
            from_config.micro_batch
        ),
        (Some(2), "bf16", Some(4))
    );
    let specs = [
        (2, from_config.clone(), "baseline", vec!["sweep", "base"]),
        (
            4,
            RunFacts {
                launcher: "hf-trainer".into(),
                ..facts(3, "fp16", "optimizer:cpu", 2)
            },
            "offload 100%_x",
            vec!["sweep"],
        ),
        (1, facts(0, "fp32", "none", 8), "", vec![]),
        (1, facts(0, "fp32", "none", 4), "LR 3e-4", vec!["lr"]),
    ];
    let mut ids = Vec::new();
    for (i, (gpus, facts, name, tags)) in specs.into_iter().enumerate() {
        // The third run waits for a runner that never comes: it stays queued.
        let mut job = new_job(t.id, u.id, (i == 2).then_some("elsewhere"));
        job.gpus = gpus;
        job.facts = facts;
        job.labels = RunLabels {
            name: Some(name.into()),
            note: Some(format!("note of {name}")),
            tags: Some(tags.into_iter().map(String::from).collect()),
        };
        ids.push(store.create_job(&job).await.unwrap().id);
    }
    let first = store.job(ids[0]).await.unwrap();
    assert_eq!(first.name, "baseline");
    assert_eq!(first.tags, vec!["sweep", "base"]);
    assert_eq!(first.facts, from_config);
    assert!(first.summary.is_none(), "no figures before it ends");
    // Claimed by a runner that reports its release: the job ran with that one.
    let claimed = store.claim_job(&runner).await.unwrap().unwrap();
    assert_eq!(claimed.id, ids[0]);
    assert_eq!(claimed.facts.deepspeed, "0.18.4");
    // Each run gets a loss curve and a throughput series, then ends; run 2 stays queued.
    let series = |seq0: i64, final_loss: f64, sps: [f64; 3]| -> Vec<RunnerEvent> {
        let mut out = Vec::new();
        for (i, loss) in [final_loss + 2.0, final_loss - 0.5, final_loss]
            .iter()
            .enumerate()
        {
            out.push(RunnerEvent::Metric {
                seq: seq0 + i as i64,
                ts: 1,
                name: "Train/Samples/train_loss".into(),
                step: (i as i64 + 1) * 16,
                value: *loss,
            });
        }
        for (i, v) in sps.iter().enumerate() {
            out.push(RunnerEvent::Metric {
                seq: seq0 + 3 + i as i64,
                ts: 1,
                name: "samples_per_sec".into(),
                step: i as i64 + 1,
                value: *v,
            });
        }
        out
    };
    let finish = |state: JobState| JobStateUpdate {
        state,
        exit_code: Some(0),
        message: None,
        preflight: None,
        handed_config: None,
    };
    store
        .insert_events(ids[0], &series(1, 2.5, [10.0, 30.0, 20.0]))
        .await
        .unwrap();
    let done = store
        .update_job_state(ids[0], runner.id, &finish(JobState::Succeeded))
        .await
        .unwrap();
    let fig = done.summary.clone().expect("figures once it ended");
    assert_eq!(fig.final_loss, Some(2.5));
    assert_eq!(fig.best_loss, Some(2.0));
    assert_eq!(fig.median_samples_per_sec, Some(20.0));
    for (k, loss) in [(1usize, 1.5), (3, 3.5)] {
        let j = store.claim_job(&runner).await.unwrap().unwrap();
        assert_eq!(j.id, ids[k]);
        store
            .insert_events(ids[k], &series(1, loss, [5.0, 5.0, 5.0]))
            .await
            .unwrap();
        store
            .update_job_state(ids[k], runner.id, &finish(JobState::Failed))
            .await
            .unwrap();
    }
    // Points that arrive after the end (a resent batch) update the figures.
    store
        .insert_events(
            ids[3],
            &[RunnerEvent::Metric {
                seq: 100,
                ts: 1,
                name: "Train/Samples/train_loss".into(),
                step: 64,
                value: 0.25,
            }],
        )
        .await
        .unwrap();
    let late = store.job(ids[3]).await.unwrap().summary.unwrap();
    assert_eq!((late.final_loss, late.best_loss), (Some(0.25), Some(0.25)));

    // The list, filtered and sorted in SQL (only this template's runs).
    let list = |pairs: &[(&str, &str)]| {
        let mut all = vec![("template_id", t.id.to_string())];
        all.extend(pairs.iter().map(|(k, v)| (*k, v.to_string())));
        let q = RunsQuery::parse(all.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
        let store = store.clone();
        async move {
            store
                .jobs(
                    &JobFilter {
                        visible_to: None,
                        query: q,
                    },
                    0,
                    50,
                )
                .await
                .unwrap()
                .items
                .iter()
                .map(|j| j.id)
                .collect::<Vec<i64>>()
        }
    };
    let (a, b, c, d) = (ids[0], ids[1], ids[2], ids[3]);
    assert_eq!(list(&[]).await, vec![d, c, b, a], "newest first by default");
    assert_eq!(list(&[("sort", "id")]).await, vec![a, b, c, d]);
    // Missing figures (the queued run) sort last both ways.
    assert_eq!(list(&[("sort", "final_loss")]).await, vec![d, b, a, c]);
    assert_eq!(list(&[("sort", "-final_loss")]).await, vec![a, b, d, c]);
    assert_eq!(
        list(&[("sort", "-samples_per_sec")]).await,
        vec![a, d, b, c]
    );
    assert_eq!(list(&[("sort", "world")]).await, vec![d, c, a, b]);
    assert_eq!(list(&[("sort", "-micro_batch")]).await, vec![c, d, a, b]);
    assert_eq!(
        list(&[("sort", "name")]).await,
        vec![a, d, b, c],
        "unnamed last"
    );
    assert_eq!(list(&[("sort", "deepspeed")]).await, vec![d, b, a, c]);
    assert_eq!(list(&[("state", "failed")]).await, vec![d, b]);
    assert_eq!(list(&[("state", "failed,queued")]).await, vec![d, c, b]);
    assert_eq!(list(&[("zero_stage", "3")]).await, vec![b]);
    assert_eq!(list(&[("launcher", "hf-trainer")]).await, vec![b]);
    assert_eq!(list(&[("launcher", "deepspeed")]).await, vec![d, c, a]);
    assert_eq!(list(&[("sort", "-launcher")]).await[0], b);
    assert_eq!(store.job(b).await.unwrap().facts.launcher, "hf-trainer");
    assert_eq!(
        list(&[("zero_stage", "0"), ("micro_batch", "8")]).await,
        vec![c]
    );
    assert_eq!(list(&[("precision", "fp32")]).await, vec![d, c]);
    assert_eq!(list(&[("precision", "bf16")]).await, vec![a]);
    assert_eq!(list(&[("offload", "any")]).await, vec![b]);
    assert_eq!(list(&[("offload", "cpu")]).await, vec![b]);
    assert_eq!(list(&[("offload", "nvme")]).await, Vec::<i64>::new());
    assert_eq!(list(&[("offload", "none")]).await, vec![d, c, a]);
    assert_eq!(list(&[("world", "1")]).await, vec![d, c]);
    assert_eq!(list(&[("runner", "fast-box")]).await, vec![d, b, a]);
    assert_eq!(list(&[("deepspeed", "0.18.4")]).await, vec![d, b, a]);
    assert_eq!(list(&[("tag", "sweep")]).await, vec![b, a]);
    assert_eq!(
        list(&[("tag", "swee")]).await,
        Vec::<i64>::new(),
        "whole tags only"
    );
    // Text search: any case, in names, notes and the template's name; LIKE's wildcards are
    // literal.
    assert_eq!(list(&[("q", "lr 3E-4")]).await, vec![d]);
    assert_eq!(list(&[("q", "100%_")]).await, vec![b]);
    assert_eq!(list(&[("q", "%")]).await, vec![b]);
    assert_eq!(list(&[("q", "llama")]).await.len(), 4);
    assert_eq!(list(&[("q", "note of base")]).await, vec![a]);
    // Pages: the total counts every match, the page holds `limit`.
    let page = store
        .jobs(
            &JobFilter {
                visible_to: None,
                query: RunsQuery {
                    template_id: Some(t.id),
                    sort: Some("id".into()),
                    ..Default::default()
                },
            },
            1,
            2,
        )
        .await
        .unwrap();
    assert_eq!(page.total, 4);
    assert_eq!(
        page.items.iter().map(|j| j.id).collect::<Vec<_>>(),
        vec![b, c]
    );

    // Labels: given fields replace, others stay; unknown job: not found.
    let relabelled = store
        .label_job(
            c,
            &RunLabels {
                name: Some("renamed".into()),
                note: None,
                tags: Some(vec!["base".into()]),
            },
        )
        .await
        .unwrap();
    assert_eq!(relabelled.name, "renamed");
    assert_eq!(relabelled.note, "note of ");
    assert_eq!(list(&[("tag", "base")]).await, vec![c, a]);
    assert!(matches!(
        store.label_job(i64::MAX, &RunLabels::default()).await,
        Err(StoreError::NotFound(_))
    ));

    // Jobs from before the table: facts read back from their version, figures from points.
    sqlx_reset(store, d).await;
    let bare = store.job(d).await.unwrap();
    assert!(bare.facts.precision.is_empty() && bare.summary.is_none());
    assert!(store.backfill_runs().await.unwrap() >= 2);
    let filled = store.job(d).await.unwrap();
    // On 1 GPU the version's 16 = micro × 2 × 1 gives 8.
    assert_eq!(
        (
            filled.facts.zero_stage,
            filled.facts.precision.as_str(),
            filled.facts.micro_batch
        ),
        (Some(2), "bf16", Some(8))
    );
    assert_eq!(filled.summary.unwrap().final_loss, Some(0.25));
    assert_eq!(
        store.backfill_runs().await.unwrap(),
        0,
        "nothing left to fill"
    );
}

/// Makes job `id` look as it did before the runs table's migration.
async fn sqlx_reset(store: &Store, id: i64) {
    sqlx::query(
        "UPDATE jobs SET run_precision = '', zero_stage = NULL, micro_batch = NULL, \
         offload = '', summarized = 0, final_loss = NULL WHERE id = $1",
    )
    .bind(id)
    .execute(store.pool())
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn runs_table_on_sqlite() {
    let store = common::sqlite_store().await;
    runs_table(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn runs_table_on_postgres() {
    let (store, name) = common::postgres_store().await;
    runs_table(&store).await;
    common::drop_postgres(store, &name).await;
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

/// A runner that restarted (or the server that restarted with its local runner) heartbeats
/// without its old job: the job becomes `lost` in plain words once its claim is older than the
/// grace, its template can be deleted again; a job of a runner that is gone is cancelled at once.
async fn reconcile(store: &Store) {
    let (uid, t) = user_and_template(
        store,
        ("rc", "reconcile", "reconciled"),
        "{\"train_batch_size\": 8}",
        Context::default(),
    )
    .await;
    let phoenix = store
        .register_runner(&register("phoenix"), None)
        .await
        .unwrap();
    let a = store
        .create_job(&new_job(t.id, uid, Some("phoenix")))
        .await
        .unwrap();
    let b = store
        .create_job(&new_job(t.id, uid, Some("phoenix")))
        .await
        .unwrap();
    assert_eq!(store.claim_job(&phoenix).await.unwrap().unwrap().id, a.id);
    assert_eq!(store.claim_job(&phoenix).await.unwrap().unwrap().id, b.id);
    // Just claimed: a heartbeat without them changes nothing (it may have left before the claim).
    let hb = store
        .heartbeat(phoenix.id, &Heartbeat::default())
        .await
        .unwrap();
    assert!(hb.lost.is_empty() && hb.cancel.is_empty(), "{hb:?}");
    // Claimed long ago (the runner restarted since): the job it does not report is lost.
    sqlx::query("UPDATE jobs SET started_at = $1 WHERE id IN ($2, $3)")
        .bind(now_ms() - 60_000)
        .bind(a.id)
        .bind(b.id)
        .execute(store.pool())
        .await
        .unwrap();
    let hb = store
        .heartbeat(
            phoenix.id,
            &Heartbeat {
                running: vec![b.id],
            },
        )
        .await
        .unwrap();
    assert_eq!(hb.lost, vec![a.id]);
    let lost = store.job(a.id).await.unwrap();
    assert_eq!(lost.state, JobState::Lost);
    let why = lost.message.unwrap();
    assert!(
        why.contains("`phoenix` no longer runs it") && why.contains("restarted"),
        "{why}"
    );
    assert!(lost.finished_at.is_some());
    assert_eq!(store.job(b.id).await.unwrap().state, JobState::Running);
    // The runner goes silent (its last heartbeat 60 s ago): cancelling its job ends it at once.
    sqlx::query("UPDATE runners SET last_seen = $1 WHERE id = $2")
        .bind(now_ms() - 60_000)
        .bind(phoenix.id)
        .execute(store.pool())
        .await
        .unwrap();
    let cancelled = store.cancel_job(b.id, 20_000).await.unwrap();
    assert_eq!(cancelled.state, JobState::Cancelled);
    assert!(cancelled
        .message
        .unwrap()
        .contains("stopped sending heartbeats"));
    // Nothing of the template runs any more: it can be deleted.
    store.delete_template(t.id).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reconcile_on_sqlite() {
    let store = common::sqlite_store().await;
    reconcile(&store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reconcile_on_postgres() {
    let (store, name) = common::postgres_store().await;
    reconcile(&store).await;
    common::drop_postgres(store, &name).await;
}
