//! Sweeps through the REST API against a real server (SQLite), the runner's side played over
//! the runner protocol: the grid pruned by the validator and the memory model, points queued as
//! labelled jobs on the runners that fit them, the ranking as points finish, the early stop,
//! cancel, "save the best", and the bad requests. The real engine runs a sweep in
//! `backend/cli/tests/jobs_engine.rs`.

mod common;

use common::Api;
use ds_studio_server::store::accounts::CredentialKind;
use ds_studio_shared::api::Role;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const ADMIN: &str = "admin-token-for-tests-0123456789";
const GIB: u64 = 1 << 30;

/// Plays a runner: claims the next job, reports it running, sends `samples` readings of
/// samples/s (and a peak), and ends it in `end` unless it is `None`.
struct FakeRunner<'a> {
    api: &'a Api,
    token: String,
    id: i64,
}

impl FakeRunner<'_> {
    async fn claim(&self) -> Value {
        let (s, c) = self
            .api
            .call(
                Method::POST,
                &format!("/api/v1/runners/{}/claim", self.id),
                Some(&self.token),
                None,
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{c}");
        let job = c["job"]["id"].as_i64().unwrap();
        let (s, j) = self
            .api
            .call(
                Method::POST,
                &format!("/api/v1/runners/{}/jobs/{job}/state", self.id),
                Some(&self.token),
                Some(json!({"state": "running", "preflight": {"ok": true, "accelerator": "cuda"}})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        c
    }

    async fn report(&self, job: i64, from_seq: i64, samples: &[f64]) {
        let events: Vec<Value> = samples
            .iter()
            .enumerate()
            .map(|(i, v)| {
                json!({"kind": "metric", "seq": from_seq + i as i64, "ts": 1, "name": "samples_per_sec",
                       "step": i as i64 + 1, "value": v})
            })
            .collect();
        let (s, a) = self
            .api
            .call(
                Method::POST,
                &format!("/api/v1/runners/{}/jobs/{job}/events", self.id),
                Some(&self.token),
                Some(json!({ "events": events })),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{a}");
    }

    async fn end(&self, job: i64, state: &str, message: Option<&str>) -> Value {
        let mut body = json!({"state": state, "exit_code": if state == "succeeded" {0} else {1}});
        if let Some(m) = message {
            body["message"] = json!(m);
        }
        let (s, j) = self
            .api
            .call(
                Method::POST,
                &format!("/api/v1/runners/{}/jobs/{job}/state", self.id),
                Some(&self.token),
                Some(body),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        j
    }
}

#[tokio::test]
async fn a_sweep_is_pruned_queued_ranked_stopped_early_cancelled_and_its_best_saved() {
    let (api, store) = Api::start(ADMIN).await;
    let team = store.create_team("tuning").await.unwrap().id;
    let lin = store.create_user("lin", "lin", None, false).await.unwrap();
    store.put_member(team, lin.id, Role::Editor).await.unwrap();
    let (lin_tok, _) = store
        .create_credential(lin.id, CredentialKind::ApiToken, "t", None)
        .await
        .unwrap();
    let viewer = store.create_user("wu", "wu", None, false).await.unwrap();
    store
        .put_member(team, viewer.id, Role::Viewer)
        .await
        .unwrap();
    let (wu_tok, _) = store
        .create_credential(viewer.id, CredentialKind::ApiToken, "t", None)
        .await
        .unwrap();
    let lin = Some(lin_tok.as_str());
    let h200 = json!({"gpus": [{"index": 0, "name": "NVIDIA H200", "memory_bytes": 150_110_011_392u64}],
                      "cpu_cores": 16, "host_memory_bytes": 128 * GIB});
    let (token, runner_id) = api.register_runner_in(ADMIN, team, "h200", h200).await;
    let (_, _) = api
        .register_runner_in(
            ADMIN,
            team,
            "laptop",
            json!({"gpus": [], "cpu_cores": 2, "host_memory_bytes": 8 * GIB}),
        )
        .await;
    let base = "{\n  // the preset-like xl run\n  \"train_micro_batch_size_per_gpu\": 8,\n  \"gradient_accumulation_steps\": 16,\n  \"bf16\": {\"enabled\": true},\n  \"optimizer\": {\"type\": \"AdamW\", \"params\": {\"lr\": 3e-4, \"torch_adam\": true}},\n  \"zero_optimization\": {\"stage\": 2, \"overlap_comm\": true}\n}\n";
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            lin,
            Some(json!({"name": "xl", "team_id": team, "config_text": base})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let tid = t["id"].as_i64().unwrap();
    let grid = json!([
        {"key": "train_micro_batch_size_per_gpu", "values": [4, 8, 16, 64, 3]},
        {"key": "zero_optimization.stage", "values": [0, 3]}
    ]);
    let request = json!({"template_id": tid, "workload": {"builtin": "gpt", "size": "xl"},
        "grid": grid, "keep_global_batch": true, "max_steps": 5, "runners": ["h200", "laptop"],
        "name": "xl micro × stage"});

    // A viewer may look but not start one.
    let (s, e) = api
        .call(
            Method::POST,
            "/api/v1/sweeps",
            Some(&wu_tok),
            Some(request.clone()),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");

    let (s, sweep) = api
        .call(Method::POST, "/api/v1/sweeps", lin, Some(request.clone()))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{sweep}");
    let id = sweep["id"].as_i64().unwrap();
    assert_eq!(sweep["state"], "running");
    let points = sweep["points"].as_array().unwrap();
    assert_eq!(points.len(), 10);
    let mut queued = Vec::new();
    for p in points {
        let micro = p["values"]["train_micro_batch_size_per_gpu"]
            .as_u64()
            .unwrap();
        let reason = p["reason"]["en"].as_str().unwrap_or("");
        match micro {
            3 => {
                assert_eq!(p["state"], "pruned", "{p}");
                assert!(reason.contains("does not divide"), "{p}");
                assert!(p["job"].is_null());
            }
            64 => {
                assert_eq!(p["state"], "pruned", "{p}");
                assert!(reason.starts_with("does not fit"), "{p}");
                assert!(p["reason"]["zh"].as_str().unwrap().starts_with("放不下"));
            }
            _ => {
                assert_eq!(p["state"], "queued", "{p}");
                // xl fits only the H200: the laptop gets none of them.
                assert_eq!(p["runner"], "h200", "{p}");
                assert!(p["estimate_bytes"].as_u64().unwrap() > 10 * GIB, "{p}");
                queued.push((p["index"].as_u64().unwrap(), p["job"].as_i64().unwrap()));
            }
        }
    }
    assert_eq!(queued.len(), 6);
    // Each point is a job labelled with the sweep, running the point's config.
    let (_, job) = api
        .call(
            Method::GET,
            &format!("/api/v1/jobs/{}", queued[0].1),
            lin,
            None,
        )
        .await;
    assert!(
        job["tags"]
            .as_array()
            .unwrap()
            .contains(&json!(format!("sweep:{id}"))),
        "{job}"
    );
    assert!(
        job["name"]
            .as_str()
            .unwrap()
            .contains("train_micro_batch_size_per_gpu=4"),
        "{job}"
    );
    let fit = &job["fit"];
    assert!(fit["config_text"]
        .as_str()
        .unwrap()
        .contains("// the preset-like xl run"));
    assert_eq!(
        fit["summary"]["en"]
            .as_str()
            .unwrap()
            .split(':')
            .next()
            .unwrap(),
        "point 1 of 10 of a sweep"
    );
    let (_, runs) = api
        .call(
            Method::GET,
            &format!("/api/v1/jobs?tag=sweep:{id}"),
            lin,
            None,
        )
        .await;
    assert_eq!(runs["total"], 6, "{runs}");

    let runner = FakeRunner {
        api: &api,
        token,
        id: runner_id,
    };
    // The first point runs at 40 samples/s and succeeds.
    let c = runner.claim().await;
    let first = c["job"]["id"].as_i64().unwrap();
    assert_eq!(first, queued[0].1, "points run in grid order");
    assert!(c["config_text"]
        .as_str()
        .unwrap()
        .contains("\"train_micro_batch_size_per_gpu\": 4"));
    assert!(c["config_text"]
        .as_str()
        .unwrap()
        .contains("\"gradient_accumulation_steps\": 32"));
    runner.report(first, 1, &[39.0, 40.0, 41.0]).await;
    // Its measured peak (the workload's own report), against the estimate.
    let (s, a) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{runner_id}/jobs/{first}/events"),
            Some(&runner.token),
            Some(json!({"events": [{"kind": "metric", "seq": 4, "ts": 1, "name": "result/peak_memory_mb", "step": 5, "value": 30000.0}]})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    runner.end(first, "succeeded", None).await;
    // The second runs out of memory: its reason says so, and the sweep goes on.
    let second = runner.claim().await["job"]["id"].as_i64().unwrap();
    runner
        .end(
            second,
            "failed",
            Some("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"),
        )
        .await;
    // The third is far slower than the best so far: it is stopped early.
    let third = runner.claim().await["job"]["id"].as_i64().unwrap();
    runner.report(third, 1, &[5.0, 6.0]).await;
    let (_, j) = api
        .call(Method::GET, &format!("/api/v1/jobs/{third}"), lin, None)
        .await;
    assert_eq!(
        j["cancel_requested"], false,
        "two readings are not enough: {j}"
    );
    runner.report(third, 3, &[5.5]).await;
    let (_, j) = api
        .call(Method::GET, &format!("/api/v1/jobs/{third}"), lin, None)
        .await;
    assert_eq!(j["cancel_requested"], true, "{j}");
    runner.end(third, "cancelled", Some("cancelled")).await;
    // The fourth is the fastest.
    let fourth = runner.claim().await["job"]["id"].as_i64().unwrap();
    runner.report(fourth, 1, &[60.0, 61.0, 59.0]).await;
    runner.end(fourth, "succeeded", None).await;

    let (s, now) = api
        .call(
            Method::GET,
            &format!("/api/v1/sweeps/{id}"),
            Some(&wu_tok),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{now}");
    let point_of = |job: i64| {
        now["points"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["job"] == job)
            .cloned()
            .unwrap()
    };
    assert_eq!(point_of(first)["state"], "succeeded");
    assert_eq!(point_of(first)["samples_per_sec"], 40.0);
    assert!(point_of(first)["tokens_per_sec"].as_f64().unwrap() > 40.0);
    let estimate = point_of(first)["estimate_bytes"].as_f64().unwrap();
    let error = point_of(first)["estimate_error_pct"].as_f64().unwrap();
    assert!(
        (error - (30000.0 * 1048576.0 - estimate) / estimate * 100.0).abs() < 1e-6,
        "{}",
        point_of(first)
    );
    assert_eq!(point_of(second)["state"], "failed");
    assert!(point_of(second)["reason"]["en"]
        .as_str()
        .unwrap()
        .starts_with("out of memory"));
    assert_eq!(point_of(third)["state"], "cancelled");
    assert!(
        point_of(third)["reason"]["en"]
            .as_str()
            .unwrap()
            .starts_with("stopped early: 5.5 samples/s"),
        "{}",
        point_of(third)
    );
    assert_eq!(point_of(fourth)["state"], "succeeded");
    let best = now["best"].as_u64().unwrap();
    assert_eq!(now["points"][best as usize]["job"], fourth);
    assert_eq!(now["ranking"].as_array().unwrap().len(), 2);
    assert_eq!(now["state"], "running");

    // Cancelling stops the rest; the sweep says it was cancelled, and only once.
    let (s, e) = api
        .call(
            Method::POST,
            &format!("/api/v1/sweeps/{id}/cancel"),
            Some(&wu_tok),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    let (s, cancelled) = api
        .call(
            Method::POST,
            &format!("/api/v1/sweeps/{id}/cancel"),
            lin,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["state"], "cancelled");
    let left: Vec<&Value> = cancelled["points"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["state"] == "cancelled")
        .collect();
    assert_eq!(left.len(), 3, "the stopped one and the two still queued");
    assert!(left
        .iter()
        .any(|p| p["reason"]["en"] == "cancelled with the sweep"));
    let (s, e) = api
        .call(
            Method::POST,
            &format!("/api/v1/sweeps/{id}/cancel"),
            lin,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");

    // The best saved as a new version: the point's keys changed, comments kept.
    let (s, v) = api
        .call(
            Method::POST,
            &format!("/api/v1/sweeps/{id}/save-best"),
            lin,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["version"], 2);
    let best_values = &now["points"][best as usize]["values"];
    assert_eq!(
        v["config"]["train_micro_batch_size_per_gpu"],
        best_values["train_micro_batch_size_per_gpu"]
    );
    assert_eq!(
        v["config"]["zero_optimization"]["stage"],
        best_values["zero_optimization.stage"]
    );
    assert!(v["config_text"]
        .as_str()
        .unwrap()
        .contains("// the preset-like xl run"));
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("sweep {id}'s best:")),
        "{v}"
    );
    // Saving it again would make an identical version: refused, named.
    let (s, e) = api
        .call(
            Method::POST,
            &format!("/api/v1/sweeps/{id}/save-best"),
            lin,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("nothing to save"),
        "{e}"
    );

    // Listed for the template, configs left out.
    let (s, list) = api
        .call(
            Method::GET,
            &format!("/api/v1/sweeps?template_id={tid}"),
            lin,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{list}");
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert!(list[0]["points"][0].get("config_text").is_none());

    // The live stream of an ended sweep: one `sweep` event, then the end.
    let resp = api
        .req(Method::GET, &format!("/api/v1/sweeps/{id}/events"), lin)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let body = tokio::time::timeout(std::time::Duration::from_secs(5), resp.text())
        .await
        .expect("the stream of an ended sweep ends")
        .unwrap();
    assert_eq!(body.matches("event: sweep").count(), 1, "{body}");
}

#[tokio::test]
async fn bad_sweeps_are_refused_and_name_the_problem() {
    let (api, store) = Api::start(ADMIN).await;
    let team = store.create_team("t").await.unwrap().id;
    let other = store.create_team("other").await.unwrap().id;
    let a = Some(ADMIN);
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            a,
            Some(json!({"name": "b", "team_id": team, "config": {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let tid = t["id"].as_i64().unwrap();
    let (_, _) = api
        .register_runner_in(
            ADMIN,
            other,
            "elsewhere",
            json!({"gpus": [], "cpu_cores": 2, "host_memory_bytes": 8 * GIB}),
        )
        .await;
    let sweep = |extra: Value| {
        let mut body = json!({"template_id": tid, "workload": {"builtin": "gpt", "size": "tiny"},
            "grid": [{"key": "train_micro_batch_size_per_gpu", "values": [1, 2]}]});
        for (k, v) in extra.as_object().cloned().unwrap_or_default() {
            body[k] = v;
        }
        let api = &api;
        async move {
            api.call(Method::POST, "/api/v1/sweeps", a, Some(body))
                .await
        }
    };
    let cases: Vec<(Value, StatusCode, &str)> = vec![
        (
            json!({"grid": []}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "a grid varies 1 to 8 keys",
        ),
        (
            json!({"grid": [{"key": "a.b", "values": []}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "has no values",
        ),
        (
            json!({"grid": [{"key": "../x", "values": [1]}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a dotted config key",
        ),
        (
            json!({"grid": [
                {"key": "a", "values": (0..10).collect::<Vec<_>>()},
                {"key": "b", "values": (0..10).collect::<Vec<_>>()},
                {"key": "c", "values": (0..10).collect::<Vec<_>>()}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "more than 256 points",
        ),
        (
            json!({"runners": ["elsewhere"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no runner named `elsewhere`",
        ),
        (
            json!({"grid": [{"key": "zero_optimisation.stage", "values": [0, 1]}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "did you mean `zero_optimization.stage`?",
        ),
        (
            json!({"grid": [{"key": "zero_optimization.stage", "values": [0]}, {"key": "zero_optimization.stage", "values": [1]}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "given twice",
        ),
        (
            json!({"template_id": 999}),
            StatusCode::NOT_FOUND,
            "template 999",
        ),
        (
            json!({"max_steps": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "max_steps 0",
        ),
        (
            json!({"grid": [{"key": "zero_optimization.stage", "values": [7, 9]}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no point of the grid can run",
        ),
        (
            json!({"grid": "micro=1,2"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "grid",
        ),
        (
            json!({"surprise": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "surprise",
        ),
        (
            json!({"name": "x".repeat(500)}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most 120 characters",
        ),
    ];
    for (extra, status, says) in cases {
        let (s, e) = sweep(extra.clone()).await;
        assert_eq!(s, status, "{extra} → {e}");
        let msg = e["error"]["message"].as_str().unwrap_or_default();
        assert!(msg.contains(says), "{extra} → {msg}");
    }
    // In Chinese.
    let (s, e) = api
        .call(
            Method::POST,
            "/api/v1/sweeps?lang=zh",
            a,
            Some(json!({"template_id": tid, "workload": {"builtin": "gpt"}, "grid": []})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(e["error"]["message"], "网格须变化 1 到 8 个键");
    // Unknown sweeps, and sweeps of a team one is not in.
    let (s, _) = api
        .call(Method::GET, "/api/v1/sweeps/424242", a, None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, ok) = sweep(json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{ok}");
    let outsider = store.create_user("o", "o", None, false).await.unwrap();
    let (otok, _) = store
        .create_credential(outsider.id, CredentialKind::ApiToken, "t", None)
        .await
        .unwrap();
    let (s, _) = api
        .call(
            Method::GET,
            &format!("/api/v1/sweeps/{}", ok["id"]),
            Some(&otok),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, list) = api
        .call(Method::GET, "/api/v1/sweeps", Some(&otok), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(list, json!([]));
    // Nothing succeeded yet: nothing to save.
    let (s, e) = api
        .call(
            Method::POST,
            &format!("/api/v1/sweeps/{}/save-best", ok["id"]),
            a,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
}

/// Issue 49: under the HF Trainer a sweep of the micro batch changes the trainer's
/// `per_device_train_batch_size` (and, keeping the global batch, its accumulation), its jobs run
/// with those arguments, the config keeps `"auto"`, and saving the best keeps both.
#[tokio::test]
async fn an_hf_trainer_sweep_varies_the_trainer_arguments_and_saves_them() {
    let (api, store) = Api::start(ADMIN).await;
    let team = store.create_team("hf").await.unwrap().id;
    let admin = Some(ADMIN);
    let (token, runner_id) = api
        .register_runner_in(
            ADMIN,
            team,
            "box",
            json!({"gpus": [], "cpu_cores": 16, "host_memory_bytes": 64 * GIB}),
        )
        .await;
    let base = "{\n  \"train_micro_batch_size_per_gpu\": \"auto\",\n  \"gradient_accumulation_steps\": \"auto\",\n  \"bf16\": {\"enabled\": \"auto\"},\n  \"zero_optimization\": {\"stage\": 2}\n}\n";
    let context = json!({"launcher": "hf-trainer",
        "trainer": {"per_device_train_batch_size": 2, "gradient_accumulation_steps": 4, "learning_rate": 2e-5}});
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            admin,
            Some(json!({"name": "hf", "team_id": team, "config_text": base, "context": context})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let tid = t["id"].as_i64().unwrap();
    let (s, sweep) = api
        .call(
            Method::POST,
            "/api/v1/sweeps",
            admin,
            Some(
                json!({"template_id": tid, "workload": {"builtin": "gpt", "size": "tiny"},
                "grid": [{"key": "train_micro_batch_size_per_gpu", "values": [1, 2, 4, 8]}],
                "keep_global_batch": true, "max_steps": 5}),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{sweep}");
    let id = sweep["id"].as_i64().unwrap();
    let points = sweep["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    for p in points {
        assert_eq!(p["state"], "queued", "every point runs: {p}");
    }
    let runner = FakeRunner {
        api: &api,
        token,
        id: runner_id,
    };
    // Each point's job: the trainer's arguments changed, the config as saved ("auto" kept).
    for _ in 0..4 {
        let claimed = runner.claim().await;
        let job = claimed["job"]["id"].as_i64().unwrap();
        let (s, j) = api
            .call(Method::GET, &format!("/api/v1/jobs/{job}"), admin, None)
            .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        let micro = j["trainer"]["per_device_train_batch_size"]
            .as_u64()
            .unwrap();
        assert_eq!(
            j["trainer"]["gradient_accumulation_steps"]
                .as_u64()
                .unwrap()
                * micro,
            8,
            "the global batch kept: {j}"
        );
        assert_eq!(j["trainer"]["learning_rate"], 2e-5, "{j}");
        assert!(
            j["fit"]["config_text"]
                .as_str()
                .unwrap()
                .contains("\"train_micro_batch_size_per_gpu\": \"auto\""),
            "{j}"
        );
        // The runner gets the same arguments.
        assert_eq!(claimed["job"]["trainer"], j["trainer"], "{claimed}");
        // Micro 4 is the fastest.
        let speed = if micro == 4 {
            200.0
        } else {
            100.0 + micro as f64
        };
        runner.report(job, 1, &[speed, speed, speed]).await;
        runner.end(job, "succeeded", None).await;
    }
    let (s, v) = api
        .call(
            Method::POST,
            &format!("/api/v1/sweeps/{id}/save-best"),
            admin,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["config_text"], base, "the config keeps \"auto\": {v}");
    assert_eq!(
        v["context"]["trainer"]["per_device_train_batch_size"], 4,
        "{v}"
    );
    assert_eq!(
        v["context"]["trainer"]["gradient_accumulation_steps"], 2,
        "{v}"
    );
    assert_eq!(v["context"]["trainer"]["learning_rate"], 2e-5, "{v}");
    assert!(
        v["context"]["trainer"].get("max_steps").is_none(),
        "the job's own steps are not the template's: {v}"
    );

    // Trainer arguments by name; under DeepSpeed's launcher they are named as such.
    let (s, by_name) = api
        .call(
            Method::POST,
            "/api/v1/sweeps",
            admin,
            Some(
                json!({"template_id": tid, "workload": {"builtin": "gpt", "size": "tiny"},
                "grid": [{"key": "learning_rate", "values": [1e-5, 3e-5]}], "max_steps": 5}),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{by_name}");
    let (s, t2) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            admin,
            Some(json!({"name": "plain", "team_id": team, "config": {"train_batch_size": 8}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t2}");
    let (s, e) = api
        .call(
            Method::POST,
            "/api/v1/sweeps",
            admin,
            Some(
                json!({"template_id": t2["id"], "workload": {"builtin": "gpt", "size": "tiny"},
                "grid": [{"key": "learning_rate", "values": [1e-5, 3e-5]}], "max_steps": 5}),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap_or(&e.to_string())
            .contains("training argument"),
        "{e}"
    );
}
