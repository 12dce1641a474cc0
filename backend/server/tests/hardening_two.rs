//! Hardening II against a real server (SQLite, real HTTP on loopback): the trainer-file
//! importer, tag lists, HF "auto" processing, CPU-bound handlers off the async workers, fork
//! origins, names with bidirectional controls, the schema cache and resumed streams. Each test
//! reproduces a finding of the second attacker-minded review (issue 28).

mod common;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const ADMIN: &str = "admin-token-for-hardening-two-0123456789";

async fn start() -> common::Api {
    common::Api::start(ADMIN).await.0
}

/// A training YAML nested `depth` levels deep in block sequences (`k:\n  - - - … x`).
fn deep_yaml(depth: usize) -> String {
    format!("k:\n  {}x\n", "- ".repeat(depth))
}

/// "Billion laughs": 9 levels of 10 aliases each (10^9 copies of `x` if expanded).
fn laughs() -> String {
    let mut text = String::from("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..=9 {
        let refs = vec![format!("*l{}", i - 1); 10].join(",");
        text.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_or_aliased_yaml_is_refused_and_the_server_lives() {
    let api = start().await;
    for (text, expect) in [
        (deep_yaml(5_000), "nested more than 64 levels"),
        (deep_yaml(100_000), "nested more than 64 levels"),
        (laughs(), "expands to more than 100000 values"),
    ] {
        let started = Instant::now();
        let (s, b) = api
            .call(
                Method::POST,
                "/api/v1/trainer-args/import",
                Some(ADMIN),
                Some(json!({ "text": text })),
            )
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
        let msg = b["error"]["message"].as_str().unwrap();
        assert!(msg.contains(expect), "{msg}");
        assert!(msg.contains("line "), "positioned: {msg}");
        eprintln!("{} bytes refused in {:?}", text.len(), started.elapsed());
        let (h, _) = api.call(Method::GET, "/healthz", None, None).await;
        assert_eq!(h, StatusCode::OK);
    }
    // A real file with a merge key and a foreign tag: imported, and both said.
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/trainer-args/import",
            None,
            Some(json!({ "text": "defaults: &d\n  learning_rate: 2.0e-5\n  per_device_train_batch_size: 4\n<<: *d\nbf16: !!bool true\nrun_name: !custom x\ndeepspeed: ds.json\n" })),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["trainer"]["per_device_train_batch_size"], 4);
    let notes = b["notes"].to_string();
    assert!(notes.contains("merge keys"), "{notes}");
    assert!(notes.contains("!custom"), "{notes}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imported_counts_out_of_range_are_refused_not_clamped() {
    let api = start().await;
    for (text, expect) in [
        (
            "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 99999999999999\n",
            "num_processes is 99999999999999",
        ),
        (
            "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_machines: -2\n",
            "num_machines is -2",
        ),
        (
            "torchrun --nproc_per_node 65536 --nnodes 65536 train.py --deepspeed ds.json",
            "ranks: at most",
        ),
    ] {
        let (s, b) = api
            .call(
                Method::POST,
                "/api/v1/trainer-args/import",
                Some(ADMIN),
                Some(json!({ "text": text })),
            )
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{text}: {b}");
        let msg = b["error"]["message"].as_str().unwrap();
        assert!(msg.contains(expect), "{msg}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_imports_are_limited_per_client() {
    let api = start().await;
    let mut limited = None;
    for i in 0..130 {
        let (s, _) = api
            .call(
                Method::POST,
                "/api/v1/trainer-args/import",
                None,
                Some(json!({ "text": "learning_rate: 1.0e-5\n" })),
            )
            .await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(i);
            break;
        }
        assert_eq!(s, StatusCode::OK);
    }
    assert_eq!(limited, Some(120), "the 121st anonymous call is refused");
    // Signed in: not limited per address.
    let (s, _) = api
        .call(
            Method::POST,
            "/api/v1/trainer-args/import",
            Some(ADMIN),
            Some(json!({ "text": "learning_rate: 1.0e-5\n" })),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_tag_lists_are_refused_before_any_per_tag_work() {
    let api = start().await;
    let tags: Vec<String> = (0..100_000).map(|i| format!("t{i}")).collect();
    let started = Instant::now();
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "tags", "config": {"train_batch_size": 8}, "tags": tags})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(b["error"]["message"]
        .as_str()
        .unwrap()
        .contains("100000 tags given; a template may have at most 20"));
    eprintln!("100,000 template tags refused in {:?}", started.elapsed());
    // Duplicates still collapse: 30 entries of 2 tags are 2 tags.
    let dup: Vec<&str> = (0..30)
        .map(|i| if i % 2 == 0 { "a" } else { "b" })
        .collect();
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "tags", "config": {"train_batch_size": 8}, "tags": dup})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    assert_eq!(t["tags"], json!(["a", "b"]));
    let id = t["id"].as_i64().unwrap();
    let (s, b) = api
        .call(
            Method::PATCH,
            &format!("/api/v1/templates/{id}"),
            Some(ADMIN),
            Some(json!({ "tags": tags })),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    // Run tags: refused at submission by count.
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({"template_id": id, "workload": {"builtin": "gpt"}, "tags": tags})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap()
            .contains("100000 tags given; a run may have at most 16"),
        "{b}"
    );
}

/// 50,000 `"auto"` values HF cannot fill (about 1 MiB).
fn many_autos() -> String {
    let body: Vec<String> = (0..50_000).map(|i| format!("\"k{i}\": \"auto\"")).collect();
    format!(
        "{{\"train_batch_size\": \"auto\", \"zero_optimization\": {{{}}}}}",
        body.join(", ")
    )
}

fn hf() -> Value {
    json!({"launcher": "hf-trainer", "trainer": {"per_device_train_batch_size": 4}})
}

/// Sends `n` copies of a request at once and, while they run, asks `/healthz`: its slowest
/// answer. A handler doing its CPU work on the async workers starves `/healthz` for seconds.
async fn healthz_while(
    api: &common::Api,
    n: usize,
    m: Method,
    path: &str,
    body: Value,
) -> Duration {
    let heavy: Vec<_> = (0..n)
        .map(|_| {
            let r = api.req(m.clone(), path, Some(ADMIN)).json(&body);
            tokio::spawn(async move {
                let t = Instant::now();
                let resp = r.send().await?;
                let status = resp.status();
                let text = resp.text().await?;
                Ok::<_, reqwest::Error>((
                    status,
                    t.elapsed(),
                    text.chars().take(200).collect::<String>(),
                ))
            })
        })
        .collect();
    // `/healthz` asked every 20 ms until every heavy request has its answer.
    let mut worst = Duration::ZERO;
    while !heavy.iter().all(|h| h.is_finished()) {
        let t = Instant::now();
        let (s, _) = api.call(Method::GET, "/healthz", None, None).await;
        assert_eq!(s, StatusCode::OK);
        worst = worst.max(t.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for h in heavy {
        let (s, took, text) = h.await.unwrap().unwrap();
        eprintln!("  {path}: {s} in {took:?}: {text}");
        assert!(
            !s.is_server_error() || s == StatusCode::SERVICE_UNAVAILABLE,
            "{path}: {s}"
        );
    }
    worst
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_handler_that_parses_a_config_leaves_healthz_answering() {
    let api = start().await;
    let text = many_autos();
    assert!(text.len() > 800_000, "{}", text.len());
    // A template whose versions hold the pathological config (rejected: it is still stored).
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "autos", "config_text": text, "context": hf()})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let id = t["id"].as_i64().unwrap();
    let (s, v2) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/versions"),
            Some(ADMIN),
            Some(json!({"base_version": 1, "config_text": text.replace("\"k0\"", "\"j0\""), "context": hf()})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v2}");
    let (s, share) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/share"),
            Some(ADMIN),
            Some(json!({})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{share}");
    let token = share["token"].as_str().unwrap().to_string();
    let big_yaml = format!(
        "per_device_train_batch_size: 4\n{}",
        (0..18_000)
            .map(|i| format!("unused_{i}: [1, 2, 3]\n"))
            .collect::<String>()
    );
    let cases: Vec<(&str, Method, String, Value)> = vec![
        (
            "validate",
            Method::POST,
            "/api/v1/validate".into(),
            json!({"config_text": text, "context": hf()}),
        ),
        (
            "template create",
            Method::POST,
            "/api/v1/templates".into(),
            json!({"name": "autos-2", "config_text": text, "context": hf()}),
        ),
        (
            "version push",
            Method::POST,
            format!("/api/v1/templates/{id}/versions"),
            json!({"base_version": 2, "config_text": text, "context": hf()}),
        ),
        (
            "job submit",
            Method::POST,
            "/api/v1/jobs".into(),
            json!({"template_id": id, "workload": {"builtin": "gpt"}}),
        ),
        (
            "fork",
            Method::POST,
            format!("/api/v1/templates/{id}/fork"),
            json!({}),
        ),
        (
            "share fork",
            Method::POST,
            format!("/api/v1/shared/{token}/fork"),
            json!({}),
        ),
        (
            "diff",
            Method::GET,
            format!("/api/v1/templates/{id}/diff?from=1&to=2"),
            Value::Null,
        ),
        (
            "import",
            Method::POST,
            "/api/v1/trainer-args/import".into(),
            json!({"text": big_yaml}),
        ),
        (
            "labels",
            Method::POST,
            "/api/v1/jobs".into(),
            json!({"template_id": id, "workload": {"builtin": "gpt"}, "tags": (0..100_000).map(|i| format!("t{i}")).collect::<Vec<_>>()}),
        ),
    ];
    for (what, m, path, body) in cases {
        let worst = healthz_while(&api, 12, m, &path, body).await;
        eprintln!("{what}: /healthz answered within {worst:?} under 12 at once");
        assert!(
            worst < Duration::from_millis(1500),
            "{what}: /healthz took {worst:?} while 12 such requests ran"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hf_auto_values_are_processed_in_linear_time() {
    let api = start().await;
    let text = many_autos();
    let started = Instant::now();
    for launcher in ["hf-trainer", "accelerate"] {
        let (s, b) = api
            .call(
                Method::POST,
                "/api/v1/validate",
                Some(ADMIN),
                Some(json!({"config_text": text, "context": {"launcher": launcher, "trainer": {"per_device_train_batch_size": 4}}})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{b}");
        assert_eq!(b["verdict"], "rejected");
    }
    eprintln!(
        "50,000 unfillable \"auto\" values under both HF launchers: {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_keeps_its_origins_name_as_it_was() {
    let api = start().await;
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "secret-project", "config": {"train_batch_size": 8}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let id = t["id"].as_i64().unwrap();
    let (s, fork) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/fork"),
            Some(ADMIN),
            Some(json!({"name": "mine"})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{fork}");
    let (s, _) = api
        .call(
            Method::PATCH,
            &format!("/api/v1/templates/{id}"),
            Some(ADMIN),
            Some(json!({"name": "renamed-after-the-fork"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, f) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{}", fork["id"]),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(f["forked_from"]["name"], "secret-project", "{f}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_bidirectional_controls_are_refused_in_both_languages() {
    let api = start().await;
    let spoof = "invoice\u{202E}fdp.exe";
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": spoof, "config": {"train_batch_size": 8}})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(b["error"]["message"].as_str().unwrap().contains("U+202E"));
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/templates?lang=zh",
            Some(ADMIN),
            Some(json!({"name": spoof, "config": {"train_batch_size": 8}})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap()
            .contains("双向控制字符 U+202E"),
        "{b}"
    );
    // Invisible characters too (found by an outside attack): `base` and `base` + U+200B
    // would be two templates that look the same; also a zero-width-only name and tag.
    for (name, tags) in [
        ("base\u{200B}", json!([])),
        ("\u{2060}\u{FEFF}", json!([])),
        ("fine-name", json!(["zero\u{200D}3"])),
        ("fine-name", json!(["\u{E0041}"])),
    ] {
        let (s, b) = api
            .call(
                Method::POST,
                "/api/v1/templates",
                Some(ADMIN),
                Some(json!({"name": name, "tags": tags, "config": {"train_batch_size": 8}})),
            )
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{name:?} {tags}: {b}");
        assert!(
            b["error"]["message"]
                .as_str()
                .unwrap()
                .contains("invisible"),
            "{b}"
        );
    }
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "fine", "config": {"train_batch_size": 8}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({"template_id": t["id"], "workload": {"builtin": "gpt"}, "name": spoof})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(
        b["error"]["message"].as_str().unwrap().contains("U+202E"),
        "{b}"
    );
    // A run's name is one line (its note may have several).
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({"template_id": t["id"], "workload": {"builtin": "gpt"}, "name": "two\nlines"})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_release_schema_is_cached_with_an_etag() {
    let api = start().await;
    let path = "/api/v1/schema/0.18.4.json?launcher=hf-trainer&lang=zh";
    let (s, first, h) = api.call_with_headers(Method::GET, path, None, None).await;
    assert_eq!(s, StatusCode::OK);
    let etag = h["etag"].to_str().unwrap().to_string();
    assert!(etag.contains("0.18.4-hf-trainer-zh-editor"), "{etag}");
    let again = api
        .req(Method::GET, path, None)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    // From the cache: the same document.
    let (_, second, _) = api.call_with_headers(Method::GET, path, None, None).await;
    assert_eq!(first, second);
    // Another variant has another tag.
    let (_, _, h2) = api
        .call_with_headers(Method::GET, "/api/v1/schema/0.18.4.json", None, None)
        .await;
    assert_ne!(h2["etag"].to_str().unwrap(), etag);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_sizes_are_checked_and_multiplied_without_wrapping() {
    let api = start().await;
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/validate",
            None,
            Some(json!({"config": {"train_batch_size": 8}, "context": {"tensor_parallel": 0}})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(b["error"]["message"]
        .as_str()
        .unwrap()
        .contains("context.tensor_parallel must be at least 1"));
    // 65536 × 65536 wrapped to 0 in u32 (and the messages said "world_size inf").
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/validate",
            None,
            Some(json!({"config": {"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 8}, "context": {"world_size": 8, "tensor_parallel": 65536, "pipeline_parallel": 65536}})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(!b.to_string().contains("inf"), "{b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_with_a_running_job_is_not_deleted() {
    let (api, store) = common::Api::start(ADMIN).await;
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/teams",
            Some(ADMIN),
            Some(json!({"name": "doomed"})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let team = t["id"].as_i64().unwrap();
    let (s, tpl) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "x", "team_id": team, "config": {"train_batch_size": 8, "train_micro_batch_size_per_gpu": 8}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{tpl}");
    let (s, job) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({"template_id": tpl["id"], "workload": {"builtin": "gpt"}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{job}");
    let (s, b) = api
        .call(
            Method::DELETE,
            &format!("/api/v1/teams/{team}"),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    assert!(b["error"]["message"]
        .as_str()
        .unwrap()
        .contains(&format!("job {} of this team is still queued", job["id"])));
    // Nothing was lost; once the job ends the team goes.
    assert_eq!(
        store
            .template(tpl["id"].as_i64().unwrap())
            .await
            .unwrap()
            .name,
        "x"
    );
    let (s, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/jobs/{}/cancel", job["id"]),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = api
        .call(
            Method::DELETE,
            &format!("/api/v1/teams/{team}"),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_stream_past_the_end_is_refused() {
    let api = start().await;
    let (_, tpl) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "stream", "config": {"train_batch_size": 8, "train_micro_batch_size_per_gpu": 8}})),
        )
        .await;
    let (s, job) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({"template_id": tpl["id"], "workload": {"builtin": "gpt"}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{job}");
    let r = api
        .req(
            Method::GET,
            &format!("/api/v1/jobs/{}/events", job["id"]),
            Some(ADMIN),
        )
        .header("last-event-id", "999999")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: Value = r.json().await.unwrap();
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("beyond the job's last event 0"));
}

/// Found by an outside attack: each "auto" under a long unknown key quoted the whole dotted
/// path (several times, in both languages), and HF's unfilled autos were all said before the
/// list was cut: a 308 KB anonymous request answered 899 MB and took 2.2 GB.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_key_over_many_autos_is_not_amplified() {
    let api = start().await;
    let key = "k".repeat(300_000);
    let members: Vec<String> = (0..500).map(|i| format!("\"a{i}\":\"auto\"")).collect();
    let text = format!(
        "{{\"zero_optimization\":{{\"stage\":0}},\"{key}\":{{{}}}}}",
        members.join(",")
    );
    for launcher in ["hf-trainer", "deepspeed"] {
        let body = json!({"config_text": text, "context": {"launcher": launcher}});
        let r = api
            .req(Method::POST, "/api/v1/validate", None)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{launcher}");
        let answer = r.bytes().await.unwrap();
        // The request is 308 KB: the answer stays within a few times that.
        assert!(
            answer.len() < 3_000_000,
            "{launcher}: {} bytes answered",
            answer.len()
        );
        let v: serde_json::Value = serde_json::from_slice(&answer).unwrap();
        let diags = v["diagnostics"].as_array().unwrap();
        assert!(!diags.is_empty(), "{launcher}");
        assert!(
            diags
                .iter()
                .all(|d| d["message"]["en"].as_str().unwrap().len() <= 4100),
            "{launcher}: a message over 4 KiB"
        );
    }
}
