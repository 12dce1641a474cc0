//! Test helpers: a store on a fresh SQLite file or a throwaway PostgreSQL database, and a real
//! server on port 0.
#![allow(dead_code)]

use ds_studio_server::store::Store;
use ds_studio_server::{serve, AppState};
use std::path::PathBuf;

/// A unique scratch directory.
pub fn scratch(tag: &str) -> PathBuf {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    let d = std::env::temp_dir().join(format!("ds-studio-{tag}-{}", hex::encode(b)));
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub async fn sqlite_store() -> Store {
    Store::open_sqlite(&scratch("sqlite")).await.unwrap()
}

/// The PostgreSQL server to create throwaway databases on.
pub fn postgres_admin_url() -> String {
    std::env::var("DS_STUDIO_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// A store on a new, empty PostgreSQL database (dropped by `drop_postgres`).
pub async fn postgres_store() -> (Store, String) {
    sqlx::any::install_default_drivers();
    let admin = postgres_admin_url();
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    let name = format!("ds_studio_test_{}", hex::encode(b));
    let pool = sqlx::AnyPool::connect(&admin)
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL at {admin} is needed for this test: {e}"));
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let base = admin.rsplit_once('/').unwrap().0;
    let store = Store::connect(&format!("{base}/{name}")).await.unwrap();
    (store, name)
}

pub async fn drop_postgres(store: Store, name: &str) {
    store.close().await;
    let pool = sqlx::AnyPool::connect(&postgres_admin_url()).await.unwrap();
    let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    )))
    .execute(&pool)
    .await;
    pool.close().await;
}

/// A running server on 127.0.0.1:0 over `store`; returns its base URL and the state.
pub async fn start_server(store: Store, admin_token: Option<&str>) -> (String, AppState) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let boot = ds_studio_server::bootstrap::ensure_admin(&store, &url)
        .await
        .unwrap();
    let mut state = AppState::new(store, scratch("static"), &url);
    state.admin = admin_token.map(|t| (t.into(), boot.admin.id));
    let st = state.clone();
    tokio::spawn(async move {
        serve(listener, st, std::future::pending()).await.unwrap();
    });
    (url, state)
}

/// An HTTP client for tests (no redirects followed; TLS provider installed as the CLI does).
pub fn http_client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// A client of a real server on port 0: requests with an optional bearer token, answers as
/// (status, JSON), every error answer checked to carry the error envelope.
pub struct Api {
    pub base: String,
    pub http: reqwest::Client,
    /// Every (method, path) called through [`Api::call_with_headers`], for tests that check
    /// they covered each endpoint of the table.
    pub called: std::sync::Mutex<Vec<(reqwest::Method, String)>>,
}

impl Api {
    /// A server over a fresh SQLite store with `admin` as its admin token.
    pub async fn start(admin: &str) -> (Api, Store) {
        let store = sqlite_store().await;
        let api = Api::on(store.clone(), Some(admin)).await;
        (api, store)
    }

    /// A server over `store`.
    pub async fn on(store: Store, admin: Option<&str>) -> Api {
        let (base, _) = start_server(store, admin).await;
        Api {
            base,
            http: http_client(),
            called: Default::default(),
        }
    }

    pub fn req(
        &self,
        m: reqwest::Method,
        path: &str,
        bearer: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let r = self.http.request(m, format!("{}{path}", self.base));
        match bearer {
            Some(t) => r.bearer_auth(t),
            None => r,
        }
    }

    pub async fn call(
        &self,
        m: reqwest::Method,
        path: &str,
        bearer: Option<&str>,
        body: Option<serde_json::Value>,
    ) -> (reqwest::StatusCode, serde_json::Value) {
        let (status, v, _) = self.call_with_headers(m, path, bearer, body).await;
        if status.is_client_error() || status.is_server_error() {
            assert!(
                v["error"]["code"].is_string() && v["error"]["message"].is_string(),
                "{status} without the error envelope: {v}"
            );
        }
        (status, v)
    }

    /// A runner named `name` registered with a runner token the admin made for it: its token
    /// and its registered record.
    pub async fn register_runner(&self, admin: &str, name: &str) -> (String, serde_json::Value) {
        let (s, made) = self
            .call(
                reqwest::Method::POST,
                "/api/v1/runner-tokens",
                Some(admin),
                Some(serde_json::json!({ "runner": name })),
            )
            .await;
        assert_eq!(s, reqwest::StatusCode::CREATED, "{made}");
        let token = made["token"].as_str().unwrap().to_string();
        let (s, r) = self
            .call(
                reqwest::Method::POST,
                "/api/v1/runners",
                Some(&token),
                Some(serde_json::json!({ "name": name, "backend": "local" })),
            )
            .await;
        assert_eq!(s, reqwest::StatusCode::CREATED, "{r}");
        (token, r)
    }

    /// A runner named `name` registered for `team`'s jobs with the `devices` it reports (and
    /// DeepSpeed 0.19.8): its token and id.
    pub async fn register_runner_in(
        &self,
        admin: &str,
        team: i64,
        name: &str,
        devices: serde_json::Value,
    ) -> (String, i64) {
        let (s, made) = self
            .call(
                reqwest::Method::POST,
                "/api/v1/runner-tokens",
                Some(admin),
                Some(serde_json::json!({ "runner": name, "team_id": team })),
            )
            .await;
        assert_eq!(s, reqwest::StatusCode::CREATED, "{made}");
        let token = made["token"].as_str().unwrap().to_string();
        let (s, r) = self
            .call(
                reqwest::Method::POST,
                "/api/v1/runners",
                Some(&token),
                Some(serde_json::json!({ "name": name, "backend": "local",
                    "deepspeed": "0.19.8", "devices": devices })),
            )
            .await;
        assert_eq!(s, reqwest::StatusCode::CREATED, "{r}");
        (token, r["id"].as_i64().unwrap())
    }

    /// The answer as it is (status, JSON or null, headers), for answers that need not be the
    /// API's (files, the SPA fallback).
    pub async fn call_with_headers(
        &self,
        m: reqwest::Method,
        path: &str,
        bearer: Option<&str>,
        body: Option<serde_json::Value>,
    ) -> (
        reqwest::StatusCode,
        serde_json::Value,
        reqwest::header::HeaderMap,
    ) {
        self.called
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((m.clone(), path.to_string()));
        let mut r = self.req(m, path, bearer);
        if let Some(b) = body {
            r = r.json(&b);
        }
        let resp = r.send().await.unwrap();
        let status = resp.status();
        let headers = resp.headers().clone();
        let text = resp.text().await.unwrap();
        let v = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
        (status, v, headers)
    }
}

/// A free TCP port on 127.0.0.1 (for a process started next).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process killed when dropped.
pub struct Proc(pub std::process::Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits up to 30 s until `url`/healthz answers 200.
pub async fn wait_healthy(url: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < deadline {
        if let Ok(r) = reqwest::get(format!("{url}/healthz")).await {
            if r.status().is_success() {
                return;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{url} did not become healthy");
}
