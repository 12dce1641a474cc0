//! Hardening III against a real server (SQLite, real HTTP on loopback), one test per finding of
//! the third attacker-minded review (issue 48) that the server answers: config keys that would
//! write outside a job's directory, job variables that run code, the client address behind a
//! proxy that adds its own `X-Forwarded-For` line, and sign-in limits that do not lock the owner
//! out. The runner's side (kernel confinement, files read back from a job) is tested against a
//! real runner in `backend/cli/tests/jobs_engine.rs`.

mod common;

use ds_studio_server::store::Store;
use ds_studio_shared::api::Role;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const ADMIN: &str = "admin-token-for-hardening-three-0123456789";

async fn template(api: &common::Api, config: Value) -> i64 {
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": format!("t{}", rand_suffix()), "config": config})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    t["id"].as_i64().unwrap()
}

/// Submits the built-in workload of template `id` at `path` (memory check off: no runner here).
async fn run_builtin(api: &common::Api, id: i64, path: &str) -> (StatusCode, Value) {
    api.call(
        Method::POST,
        path,
        Some(ADMIN),
        Some(json!({"template_id": id, "workload": {"builtin": "gpt"}, "force": true})),
    )
    .await
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Finding 1: a config key that names a file outside the job's directory is refused at submit
/// (422 naming the key), for the key the review used and for the others DeepSpeed writes to.
#[tokio::test]
async fn a_job_whose_config_writes_outside_its_directory_is_refused_naming_the_key() {
    let (api, _) = common::Api::start(ADMIN).await;
    for (config, key) in [
        (
            json!({"train_batch_size": 8, "autotuning": {"enabled": true, "model_info": {"profile": true}, "model_info_path": "../../../ds-studio.db"}}),
            "autotuning.model_info_path",
        ),
        (
            json!({"train_batch_size": 8, "autotuning": {"enabled": true, "metric_path": "/tmp/ds-studio.db"}}),
            "autotuning.metric_path",
        ),
        (
            json!({"train_batch_size": 8, "tensorboard": {"enabled": true, "output_path": "tb", "job_name": "../../x"}}),
            "tensorboard.job_name",
        ),
        (
            json!({"train_batch_size": 8, "nebula": {"enabled": true, "persistent_storage_path": "/srv"}}),
            "nebula.persistent_storage_path",
        ),
    ] {
        let id = template(&api, config).await;
        let (s, b) = run_builtin(&api, id, "/api/v1/jobs").await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{key}: {b}");
        let msg = b["error"]["message"].as_str().unwrap();
        assert!(
            msg.starts_with(&format!("{key} `")) && msg.contains("inside the job directory"),
            "{msg}"
        );
    }
    // In 中文 the refusal reads in Chinese, the key and value kept.
    let id = template(
        &api,
        json!({"train_batch_size": 8, "autotuning": {"model_info_path": "/etc/x"}}),
    )
    .await;
    let (s, b) = run_builtin(&api, id, "/api/v1/jobs?lang=zh").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert_eq!(
        b["error"]["message"],
        "autotuning.model_info_path `/etc/x` 必须是任务目录内的相对路径（不能是绝对路径，也不能含 `..`）"
    );
    // A relative path inside is fine (the job is queued: no runner here).
    let id = template(
        &api,
        json!({"train_batch_size": 8, "tensorboard": {"enabled": true, "output_path": "tb", "job_name": "run"}}),
    )
    .await;
    let (s, b) = run_builtin(&api, id, "/api/v1/jobs").await;
    assert_eq!(s, StatusCode::CREATED, "{b}");
}

/// Finding 2: each name the review used, in `env` and in `secret_env`, is refused with a 422
/// that names the variable (20 pairs); the variables training needs are accepted.
#[tokio::test]
async fn job_variables_that_run_code_or_write_files_are_refused_in_env_and_secret_env() {
    let (api, _) = common::Api::start(ADMIN).await;
    let id = template(&api, json!({"train_batch_size": 8})).await;
    let names = [
        "SHELLOPTS",
        "PS4",
        "TORCH_LOGS_OUT",
        "TORCHELASTIC_ERROR_FILE",
        "BROWSER",
        "BASH_ENV",
        "ENV",
        "PROMPT_COMMAND",
        "PYTHONSTARTUP",
        "LD_PRELOAD",
    ];
    let mut refused = 0;
    for name in names {
        for field in ["env", "secret_env"] {
            let mut body =
                json!({"template_id": id, "workload": {"builtin": "gpt"}, "force": true});
            body[field] = json!({ name: "$(id >/tmp/x)" });
            let (s, b) = api
                .call(Method::POST, "/api/v1/jobs", Some(ADMIN), Some(body))
                .await;
            assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{field} {name}: {b}");
            let msg = b["error"]["message"].as_str().unwrap();
            assert!(
                msg.starts_with(&format!("{field}: a job may not set `{name}`: ")),
                "{msg}"
            );
            refused += 1;
        }
    }
    assert_eq!(refused, 20);
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({
                "template_id": id, "workload": {"builtin": "gpt"}, "force": true,
                "env": {"NCCL_DEBUG": "INFO", "TORCH_DISTRIBUTED_DEBUG": "DETAIL", "MY_DATA_DIR": "data"},
                "secret_env": {"WANDB_API_KEY": "k", "HF_TOKEN": "t"},
            })),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{b}");
}

/// A server that trusts 127.0.0.1 as its reverse proxy, as README's HAProxy example sets it up.
async fn behind_proxy() -> (String, Store) {
    let store = common::sqlite_store().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    ds_studio_server::bootstrap::ensure_admin(&store, &base)
        .await
        .unwrap();
    let mut state =
        ds_studio_server::AppState::new(store.clone(), common::scratch("static"), &base);
    state.trusted_proxies = vec!["127.0.0.1".parse().unwrap()].into();
    tokio::spawn(async move {
        ds_studio_server::serve(listener, state, std::future::pending())
            .await
            .unwrap();
    });
    (base, store)
}

/// Finding 5: HAProxy's `option forwardfor` adds its own header line after the one the client
/// sent. A client that sends a new random first line with every request is still one client.
#[tokio::test]
async fn a_forged_first_forwarded_line_does_not_make_a_new_client() {
    let (base, _) = behind_proxy().await;
    let http = common::http_client();
    let body = json!({"config": {"train_batch_size": 8}});
    let post = |forged: String, client: &'static str| {
        let (http, base, body) = (http.clone(), base.clone(), body.clone());
        async move {
            http.post(format!("{base}/api/v1/validate"))
                .header("x-forwarded-for", forged)
                .header("x-forwarded-for", client)
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    let mut limited_at = None;
    for i in 0..200u32 {
        let forged = format!("10.{}.{}.{}", i / 65536, (i / 256) % 256, i % 256);
        if post(forged, "203.0.113.1").await == StatusCode::TOO_MANY_REQUESTS {
            limited_at = Some(i);
            break;
        }
    }
    assert_eq!(
        limited_at,
        Some(ds_studio_server::limits::VALIDATE_PER_IP),
        "the client the proxy saw is limited, whatever line it forged"
    );
    assert_eq!(
        post("1.2.3.4".into(), "203.0.113.2").await,
        StatusCode::OK,
        "another client behind the proxy has its own budget"
    );
}

async fn login(base: &str, client: &str, name: &str, password: &str) -> StatusCode {
    common::http_client()
        .post(format!("{base}/api/v1/auth/login"))
        .header("x-forwarded-for", client)
        .json(&json!({"username": name, "password": password}))
        .send()
        .await
        .unwrap()
        .status()
}

/// Finding 6: wrong guesses for a name from one address do not lock its owner out from
/// another; the guesser's own address is refused; and a guesser with many addresses meets the
/// larger budget per name across all of them.
#[tokio::test]
async fn guesses_from_one_address_do_not_lock_the_owner_out() {
    let (base, store) = behind_proxy().await;
    let hash = ds_studio_server::secrets::hash_password("the-right-one");
    let u = store
        .create_user("mei", "Mei", Some(&hash), false)
        .await
        .unwrap();
    let team = store.team_by_name("default").await.unwrap();
    store.put_member(team.id, u.id, Role::Editor).await.unwrap();
    let per_pair = ds_studio_server::limits::LOGIN_PER_NAME_AND_IP;
    for i in 0..per_pair {
        assert_eq!(
            login(&base, "198.51.100.66", "mei", &format!("guess-{i}")).await,
            StatusCode::UNAUTHORIZED
        );
    }
    // The guesser is refused, even with the right password.
    assert_eq!(
        login(&base, "198.51.100.66", "mei", "the-right-one").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // The owner, elsewhere, signs in.
    assert_eq!(
        login(&base, "203.0.113.5", "mei", "the-right-one").await,
        StatusCode::OK
    );
    // Many addresses: the per-name budget across them all holds.
    let per_name = ds_studio_server::limits::LOGIN_PER_NAME;
    let mut refused_at = None;
    for i in 0..per_name + 20 {
        let client = format!("192.0.2.{}", i % 250 + 1);
        let s = login(&base, &client, "mei", &format!("spray-{i}")).await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            refused_at = Some(i);
            break;
        }
        assert_eq!(s, StatusCode::UNAUTHORIZED, "guess {i}");
    }
    // The guesser's attempts and the owner's were counted for the name before (the guess its
    // address was refused for was not).
    assert_eq!(refused_at, Some(per_name - (per_pair + 1)));
}

/// Finding 4: a sweep costs what it changes. A point keeps its values, not a copy of the base
/// text; a sweep over a large base that would store more than the bound is refused with the
/// figure and stores nothing; a sweep's answer carries one config (the best point's) at most.
#[tokio::test]
async fn a_sweep_over_a_large_base_is_refused_with_the_figure_and_answers_stay_small() {
    let (api, store) = common::Api::start(ADMIN).await;
    // A 500 KB base (a comment), as the review's.
    let base = format!(
        "{{\n  // {}\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": 2\n}}\n",
        "x".repeat(500_000)
    );
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "big", "config_text": base})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let big = t["id"].as_i64().unwrap();
    let micro: Vec<u32> = (1..=16).collect();
    let steps: Vec<u32> = (1..=16).collect();
    let request = |template: i64| {
        json!({"template_id": template, "workload": {"builtin": "gpt", "size": "tiny"},
               "grid": [{"key": "train_micro_batch_size_per_gpu", "values": micro},
                        {"key": "steps_per_print", "values": steps}],
               "max_steps": 5})
    };
    let jobs_before = store.jobs(&Default::default(), 0, 1).await.unwrap().total;
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/sweeps",
            Some(ADMIN),
            Some(request(big)),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    let msg = b["error"]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("this sweep would store 12")
            && msg.contains("256 points × 488.")
            && msg.contains("at most 16 MiB"),
        "{msg}"
    );
    let jobs_after = store.jobs(&Default::default(), 0, 1).await.unwrap().total;
    assert_eq!(jobs_before, jobs_after, "a refused sweep stores no job");

    // An ordinary base: 256 points run, and the sweep's answer holds no point's config but
    // the best's (none has run yet: none).
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "small", "config_text": "{\"train_micro_batch_size_per_gpu\": 4, \"gradient_accumulation_steps\": 2}"})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let (s, sweep) = api
        .call(
            Method::POST,
            "/api/v1/sweeps",
            Some(ADMIN),
            Some(request(t["id"].as_i64().unwrap())),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{sweep}");
    let id = sweep["id"].as_i64().unwrap();
    let (s, got) = api
        .call(
            Method::GET,
            &format!("/api/v1/sweeps/{id}"),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let points = got["points"].as_array().unwrap();
    assert_eq!(points.len(), 256);
    assert!(
        points.iter().all(|p| p.get("config_text").is_none()),
        "no point carries a config"
    );
    // Each point's config is its job's, fetched one at a time.
    let job = points[0]["job"].as_i64().unwrap();
    let (_, j) = api
        .call(
            Method::GET,
            &format!("/api/v1/jobs/{job}"),
            Some(ADMIN),
            None,
        )
        .await;
    assert!(j["fit"]["config_text"]
        .as_str()
        .unwrap()
        .contains("\"train_micro_batch_size_per_gpu\": 1"));
}

/// A runner whose operator lets jobs write a directory outside their own (`--job-writable`, a
/// local NVMe for ZeRO-Infinity) reports it; an absolute `nvme_path` beneath it is accepted for
/// jobs that go to that runner, and one elsewhere is refused naming the key and the directory.
#[tokio::test]
async fn an_nvme_path_beneath_a_directory_the_runner_allows_is_accepted() {
    let (api, _) = common::Api::start(ADMIN).await;
    let (token, _) = api.register_runner(ADMIN, "nvme-box").await;
    let (s, r) = api
        .call(
            Method::POST,
            "/api/v1/runners",
            Some(&token),
            Some(json!({"name": "nvme-box", "backend": "local",
                        "devices": {"gpus": [], "cpu_cores": 2, "host_memory_bytes": 1u64 << 34,
                                    "landlock_abi": 7, "job_writable": ["/local_nvme"]}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let nvme = |p: &str| {
        json!({"train_batch_size": 8, "zero_optimization": {"stage": 3,
               "offload_param": {"device": "nvme", "nvme_path": p}}})
    };
    let submit = |template: i64| {
        let api = &api;
        async move {
            api.call(
                Method::POST,
                "/api/v1/jobs",
                Some(ADMIN),
                Some(
                    json!({"template_id": template, "workload": {"builtin": "gpt"},
                            "runner": "nvme-box", "force": true}),
                ),
            )
            .await
        }
    };
    let ok = template(&api, nvme("/local_nvme/swap")).await;
    let (s, b) = submit(ok).await;
    assert_eq!(s, StatusCode::CREATED, "{b}");
    let bad = template(&api, nvme("/local_nvme_other")).await;
    let (s, b) = submit(bad).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert_eq!(
        b["error"]["message"],
        "zero_optimization.offload_param.nvme_path `/local_nvme_other` must be a relative path inside the job directory (not absolute, no `..`), or a path under a directory the runner lets jobs write: /local_nvme"
    );
}
