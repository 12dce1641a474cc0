//! Operating the studio (issue 52), against the real binary: `/metrics` in Prometheus' text
//! format and who may read it, `/readyz`, and `backup` / `restore` while the server takes
//! writes, then dies by `kill -9`.

#[path = "../../server/tests/common/mod.rs"]
mod common;

use common::{free_port, Proc};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

const ADMIN: &str = "operating-admin-token-0123456789";
const SCRAPER: &str = "scraper-token-abcdefghijklmnop";

fn serve(data: &Path, port: u16, extra: &[&str]) -> Proc {
    serve_studio(data, port, false, extra)
}

/// `ds-studio serve` on `data`, with its local runner when `local_runner`.
fn serve_studio(data: &Path, port: u16, local_runner: bool, extra: &[&str]) -> Proc {
    // reqwest's TLS provider, for the clients that wait on the server.
    let _ = rustls::crypto::ring::default_provider().install_default();
    Proc(
        Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .args((!local_runner).then_some("--no-local-runner"))
            .args(extra)
            .arg("--data")
            .arg(data)
            .arg("--static-dir")
            .arg(data)
            .env("DS_STUDIO_ADMIN_TOKEN", ADMIN)
            .env("DS_STUDIO_METRICS_TOKEN", SCRAPER)
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ds-studio serve starts"),
    )
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ds-studio"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("ds-studio runs")
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `GET url` as the operator, read as JSON.
async fn admin_get(http: &reqwest::Client, url: &str) -> Value {
    http.get(url)
        .bearer_auth(ADMIN)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The value of the sample `line` starts (name and labels exactly), if present.
fn sample(metrics: &str, series: &str) -> Option<f64> {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_answer_prometheus_the_operator_and_nobody_else() {
    let data = common::scratch("metrics");
    let port = free_port();
    let _server = serve(&data, port, &[]);
    let url = format!("http://127.0.0.1:{port}");
    common::wait_healthy(&url).await;
    let http = common::http_client();
    assert_eq!(
        http.get(format!("{url}/readyz"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    // A refused sign-in and an API call, to be counted.
    let refused = http
        .post(format!("{url}/api/v1/auth/login"))
        .json(&json!({"username": "admin", "password": "not the password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let t = http
        .post(format!("{url}/api/v1/templates"))
        .bearer_auth(ADMIN)
        .json(&json!({"name": "counted", "config": {"train_batch_size": 8}}))
        .send()
        .await
        .unwrap();
    assert_eq!(t.status(), 201);
    let id = t.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let got = http
        .get(format!("{url}/api/v1/templates/{id}"))
        .bearer_auth(ADMIN)
        .send()
        .await
        .unwrap();
    assert_eq!(got.status(), 200);

    // Nobody without a credential; a wrong token; the scraper's token; the admin's.
    let anon = http.get(format!("{url}/metrics")).send().await.unwrap();
    assert_eq!(anon.status(), 401);
    let why = anon.json::<Value>().await.unwrap();
    assert!(
        why["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--metrics-token"),
        "{why}"
    );
    let wrong = http
        .get(format!("{url}/metrics"))
        .bearer_auth("scraper-token-but-not-this-one")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let admin = http
        .get(format!("{url}/metrics"))
        .bearer_auth(ADMIN)
        .send()
        .await
        .unwrap();
    assert_eq!(admin.status(), 200);
    let scraped = http
        .get(format!("{url}/metrics"))
        .bearer_auth(SCRAPER)
        .send()
        .await
        .unwrap();
    assert_eq!(scraped.status(), 200);
    assert!(scraped.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let m = scraped.text().await.unwrap();
    // Routes by pattern, not by id.
    assert_eq!(
        sample(
            &m,
            r#"ds_studio_http_requests_total{method="GET",route="/api/v1/templates/{id}",status="200"}"#
        ),
        Some(1.0),
        "{m}"
    );
    assert!(!m.contains(&format!("/api/v1/templates/{id}\"")), "{m}");
    assert_eq!(
        sample(
            &m,
            r#"ds_studio_signin_refusals_total{reason="wrong_credentials"}"#
        ),
        Some(1.0)
    );
    assert_eq!(sample(&m, r#"ds_studio_jobs{state="queued"}"#), Some(0.0));
    assert_eq!(sample(&m, "ds_studio_job_queue_depth"), Some(0.0));
    assert_eq!(
        sample(&m, r#"ds_studio_runners{state="online"}"#),
        Some(0.0)
    );
    assert_eq!(sample(&m, "ds_studio_sse_streams"), Some(0.0));
    assert!(sample(&m, "ds_studio_db_pool_max_connections").unwrap() >= 1.0);
    assert!(
        m.contains("ds_studio_http_request_duration_seconds_bucket{route=\"/api/v1/templates\",le=\"0.005\"}"),
        "{m}"
    );
    // The HTML page is not what /metrics answers any more.
    assert!(!m.contains("<html"), "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_can_be_public_and_a_non_admin_is_refused() {
    let data = common::scratch("metrics-public");
    let port = free_port();
    let d = data.to_str().unwrap();
    let o = cli(&["user", "add", "bob", "--data", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = cli(&["token", "create", "--user", "bob", "--data", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let bob = String::from_utf8(o.stdout).unwrap().trim().to_string();
    // Without --metrics-public, a signed-in user who is not a server administrator is refused.
    let private = serve(&data, port, &[]);
    let url = format!("http://127.0.0.1:{port}");
    common::wait_healthy(&url).await;
    let http = common::http_client();
    let r = http
        .get(format!("{url}/metrics"))
        .bearer_auth(&bob)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    drop(private);
    // With it, anyone.
    let port = free_port();
    let _server = serve(&data, port, &["--metrics-public"]);
    let url = format!("http://127.0.0.1:{port}");
    common::wait_healthy(&url).await;
    let r = http.get(format!("{url}/metrics")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r
        .text()
        .await
        .unwrap()
        .contains("ds_studio_jobs{state=\"running\"} 0"));
}

/// Templates acknowledged by the server, counted by a writer that goes on during the backup.
async fn write_templates(
    url: String,
    acked: Arc<AtomicI64>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) {
    let http = common::http_client();
    let mut n = 0;
    while !stop.load(Ordering::SeqCst) {
        n += 1;
        let r = http
            .post(format!("{url}/api/v1/templates"))
            .bearer_auth(ADMIN)
            .json(&json!({"name": format!("t{n:05}"), "config": {"train_batch_size": 8, "steps_per_print": n}}))
            .send()
            .await;
        match r {
            Ok(r) if r.status() == 201 => {
                acked.fetch_max(n, Ordering::SeqCst);
            }
            _ => break,
        }
    }
}

/// The names of the templates in the data directory `dir`'s database, read by a fresh server.
async fn templates_in(dir: &Path) -> Vec<String> {
    let port = free_port();
    let _server = serve(dir, port, &[]);
    let url = format!("http://127.0.0.1:{port}");
    common::wait_healthy(&url).await;
    let mut names = Vec::new();
    let http = common::http_client();
    let mut offset = 0;
    loop {
        let page = admin_get(
            &http,
            &format!("{url}/api/v1/templates?limit=200&offset={offset}"),
        )
        .await;
        let items = page["items"].as_array().unwrap().clone();
        if items.is_empty() {
            break;
        }
        offset += items.len();
        names.extend(
            items
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_string()),
        );
    }
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_writes_restores_everything_acknowledged_before_it() {
    let root = common::scratch("backup");
    let data = root.join("data");
    std::fs::create_dir_all(data.join("jobs/7")).unwrap();
    std::fs::write(data.join("jobs/7/job.log"), "step 1 loss 2.5\n").unwrap();
    // What a job might plant to have the backup carry a file of the server's: left out.
    std::os::unix::fs::symlink("/etc/hostname", data.join("jobs/7/leak")).unwrap();
    let port = free_port();
    let mut server = serve(&data, port, &[]);
    let url = format!("http://127.0.0.1:{port}");
    common::wait_healthy(&url).await;

    let acked = Arc::new(AtomicI64::new(0));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = tokio::spawn(write_templates(url.clone(), acked.clone(), stop.clone()));
    while acked.load(Ordering::SeqCst) < 60 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // A plain copy of the live database file, taken as a careless operator would: the WAL's
    // recent pages are not in it.
    let careless = root.join("careless");
    std::fs::create_dir_all(&careless).unwrap();
    std::fs::copy(data.join("ds-studio.db"), careless.join("ds-studio.db")).unwrap();
    let before_careless = acked.load(Ordering::SeqCst);

    let before = acked.load(Ordering::SeqCst);
    let out = root.join("studio.tar.gz");
    let b = {
        let (data, out) = (data.clone(), out.clone());
        tokio::task::spawn_blocking(move || {
            cli(&[
                "backup",
                "--data",
                data.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--format",
                "json",
            ])
        })
        .await
        .unwrap()
    };
    assert_eq!(b.status.code(), Some(0), "{}", text(&b));
    let manifest: Value = serde_json::from_slice(&b.stdout).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, 0o600,
            "a backup holds every user's row: its owner's only"
        );
    }
    let during = acked.load(Ordering::SeqCst);
    assert!(
        during > before,
        "writes went on during the backup ({before} → {during})"
    );
    // More writes after the backup, then the server dies without a clean shutdown.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let _ = server.0.kill(); // SIGKILL
    let _ = server.0.wait();
    stop.store(true, Ordering::SeqCst);
    let _ = writer.await;
    assert_eq!(manifest["database"], "sqlite");
    assert_eq!(manifest["job_files"], 1);
    let promised = manifest["inventory"]["templates"].as_i64().unwrap();
    assert!(
        promised >= before,
        "the backup holds every template acknowledged before it: {manifest}"
    );

    // A second backup to the same file is refused, and the file is kept.
    let again = cli(&[
        "backup",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again));
    assert!(
        text(&again).contains("never overwrites"),
        "{}",
        text(&again)
    );

    // Restored into a new directory: every template acknowledged before the backup began.
    let restored = root.join("restored");
    let r = cli(&[
        "restore",
        "--from",
        out.to_str().unwrap(),
        "--data",
        restored.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
    assert_eq!(
        std::fs::read_to_string(restored.join("jobs/7/job.log")).unwrap(),
        "step 1 loss 2.5\n"
    );
    let names = templates_in(&restored).await;
    assert_eq!(names.len() as i64, promised);
    for n in 1..=before {
        assert!(
            names.contains(&format!("t{n:05}")),
            "t{n:05} lost: {names:?}"
        );
    }
    // The careless copy loses acknowledged templates: the check above would catch it.
    let careless_names = templates_in(&careless).await;
    let lost = (1..=before_careless)
        .filter(|n| !careless_names.contains(&format!("t{n:05}")))
        .count();
    assert!(
        lost > 0,
        "a plain copy of a live WAL database misses recent writes"
    );

    // Restoring over a directory that holds a database is refused; nothing changes there.
    let r = cli(&[
        "restore",
        "--from",
        out.to_str().unwrap(),
        "--data",
        restored.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r));
    assert!(
        text(&r).contains("already holds a studio database"),
        "{}",
        text(&r)
    );
    assert_eq!(templates_in(&restored).await.len() as i64, promised);

    // Not a backup: a clear error, nothing created.
    let junk = root.join("junk.tar.gz");
    std::fs::write(&junk, b"this is not a backup").unwrap();
    let empty = root.join("empty");
    let r = cli(&[
        "restore",
        "--from",
        junk.to_str().unwrap(),
        "--data",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r));
    assert!(text(&r).contains("not a ds-studio backup"), "{}", text(&r));
    assert!(
        !empty.exists(),
        "a failed restore leaves no directory behind"
    );
    // A restore names where it goes: no default directory.
    let r = cli(&["restore", "--from", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r));
    assert!(text(&r).contains("--data"), "{}", text(&r));
}

/// Debian's Prometheus (installed by `cargo xtask test`) scrapes a running studio with the
/// metrics token, and a query returns the studio's figures; `promtool check metrics` passes on
/// what the studio answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_prometheus_scrapes_the_studio() {
    for tool in ["/usr/bin/prometheus", "/usr/bin/promtool"] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: `cargo xtask test` installs Debian's prometheus"
        );
    }
    let dir = common::scratch("prometheus");
    let data = dir.join("data");
    let port = free_port();
    let _server = serve(&data, port, &[]);
    let url = format!("http://127.0.0.1:{port}");
    common::wait_healthy(&url).await;
    let http = common::http_client();
    let created = http
        .post(format!("{url}/api/v1/templates"))
        .bearer_auth(ADMIN)
        .json(&json!({"name": "scraped", "config": {"train_batch_size": 8}}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);

    // promtool on the studio's own answer.
    let text = http
        .get(format!("{url}/metrics"))
        .bearer_auth(SCRAPER)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let mut lint = Command::new("/usr/bin/promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        lint.stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let lint = lint.wait_with_output().unwrap();
    assert!(
        lint.status.success(),
        "promtool check metrics: {}\n{text}",
        self::text(&lint)
    );

    // Prometheus itself, scraping every second with the token from a file.
    let token_file = dir.join("metrics.token");
    std::fs::write(&token_file, SCRAPER).unwrap();
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: ds-studio\n    authorization:\n      credentials_file: {}\n    static_configs:\n      - targets: [\"127.0.0.1:{port}\"]\n",
            token_file.display()
        ),
    )
    .unwrap();
    let prom_port = free_port();
    let _prometheus = Proc(
        Command::new("/usr/bin/prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.join("tsdb").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{prom_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus starts"),
    );
    let query = |q: &'static str| {
        let http = http.clone();
        async move {
            let r = http
                .get(format!("http://127.0.0.1:{prom_port}/api/v1/query"))
                .query(&[("query", q)])
                .send()
                .await
                .ok()?;
            let v: Value = r.json().await.ok()?;
            let result = v["data"]["result"].as_array()?.clone();
            (!result.is_empty()).then_some(result)
        }
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let up = loop {
        if let Some(r) = query("up{job=\"ds-studio\"} == 1").await {
            if let Some(jobs) = query("ds_studio_jobs{job=\"ds-studio\"}").await {
                break (r, jobs);
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "Prometheus did not scrape the studio within 60 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    };
    assert_eq!(up.0.len(), 1, "{:?}", up.0);
    let states: Vec<&str> =
        up.1.iter()
            .filter_map(|s| s["metric"]["state"].as_str())
            .collect();
    for s in ["queued", "running", "succeeded", "failed"] {
        assert!(states.contains(&s), "{states:?}");
    }
    let created = query(
        "ds_studio_http_requests_total{route=\"/api/v1/templates\",method=\"POST\",status=\"201\"}",
    )
    .await
    .expect("the template's creation is counted");
    assert_eq!(created[0]["value"][1], "1", "{created:?}");
}

/// A database a newer ds-studio migrated is refused by `serve` and `migrate`, by name, and
/// left as it is (the upgrade path's other direction).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_studio_is_refused_by_name() {
    use sqlx::Connection;
    let data = common::scratch("newer-db");
    let d = data.to_str().unwrap();
    let o = cli(&["migrate", "--data", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}", data.join("ds-studio.db").display());
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (9999, 'from a newer studio', TRUE, x'00', 0)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    for args in [
        vec!["migrate", "--data", d],
        vec![
            "serve",
            "--no-local-runner",
            "--addr",
            "127.0.0.1:0",
            "--data",
            d,
        ],
    ] {
        let o = cli(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(
            text(&o).contains("the database is newer than this ds-studio: it has schema step 9999"),
            "{args:?}: {}",
            text(&o)
        );
    }
}

/// PostgreSQL: `backup --database-url` takes pg_dump's snapshot with the manifest;
/// `restore --database-url` fills an empty database with pg_restore and checks the counts; a
/// database that holds a studio is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_backup_restores_into_an_empty_database() {
    let (store, name) = common::postgres_store().await;
    let api = common::Api::on(store.clone(), Some(ADMIN)).await;
    for n in 0..3 {
        let r = api
            .http
            .post(format!("{}/api/v1/templates", api.base))
            .bearer_auth(ADMIN)
            .json(&json!({"name": format!("pg-{n}"), "config": {"train_batch_size": 8}}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
    }
    let base = common::postgres_admin_url()
        .rsplit_once('/')
        .unwrap()
        .0
        .to_string();
    let root = common::scratch("pg-backup");
    let out = root.join("pg.tar.gz");
    let b = cli(&[
        "backup",
        "--database-url",
        &format!("{base}/{name}"),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(b.status.code(), Some(0), "{}", text(&b));
    let manifest: Value = serde_json::from_slice(&b.stdout).unwrap();
    assert_eq!(manifest["database"], "postgres");
    assert_eq!(manifest["inventory"]["templates"], 3);

    // Into a new, empty database.
    let (empty, target) = common::postgres_store().await;
    // `postgres_store` migrates; an empty database is what a restore wants: drop its tables.
    empty.close().await;
    let admin = sqlx::AnyPool::connect(&common::postgres_admin_url())
        .await
        .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE {target} WITH (FORCE)"
    )))
    .execute(&admin)
    .await
    .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {target}")))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let target_url = format!("{base}/{target}");
    let had_data_dir = std::path::Path::new("data").exists();
    let r = cli(&[
        "restore",
        "--from",
        out.to_str().unwrap(),
        "--database-url",
        &target_url,
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
    let restored = ds_studio_server::store::Store::connect(&target_url)
        .await
        .unwrap();
    let inv = restored.inventory().await.unwrap();
    assert_eq!(inv.templates, 3);
    // Nothing was made in the working directory (its default `./data`): the dump went to
    // the server, and the backup had no job files.
    assert_eq!(std::path::Path::new("data").exists(), had_data_dir);
    // A second restore into it is refused: it holds a studio now.
    let again = cli(&[
        "restore",
        "--from",
        out.to_str().unwrap(),
        "--database-url",
        &target_url,
    ]);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again));
    assert!(
        text(&again).contains("already holds a studio"),
        "{}",
        text(&again)
    );
    // A SQLite backup is not restored into PostgreSQL, and the reverse: said, not attempted.
    let to_dir = cli(&[
        "restore",
        "--from",
        out.to_str().unwrap(),
        "--data",
        root.join("d").to_str().unwrap(),
    ]);
    assert_eq!(to_dir.status.code(), Some(1), "{}", text(&to_dir));
    assert!(
        text(&to_dir).contains("holds a postgres database"),
        "{}",
        text(&to_dir)
    );
    common::drop_postgres(restored, &target).await;
    common::drop_postgres(store, &name).await;
}

/// The operator's `--unconfined-jobs` (for a kernel or GPU driver under which a confined job
/// cannot use its GPU): the local runner registers with no jail (`landlock_abi` 0) and
/// `ds-studio runners` says `NOT confined`; without it, the runner reports the jail the
/// kernel enforces here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unconfined_jobs_is_the_operators_choice_and_is_said() {
    let enforced = ds_studio_runner::jail::enforced_abi();
    for (flag, abi) in [(Some("--unconfined-jobs"), 0), (None, enforced)] {
        let data = common::scratch("unconfined");
        let port = free_port();
        let url = format!("http://127.0.0.1:{port}");
        let _server = serve_studio(&data, port, true, &flag.into_iter().collect::<Vec<_>>());
        common::wait_healthy(&url).await;
        let http = common::http_client();
        let mut runners = Value::Null;
        for _ in 0..100 {
            runners = admin_get(&http, &format!("{url}/api/v1/runners")).await;
            if runners[0]["devices"]["landlock_abi"].is_number() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(
            runners[0]["devices"]["landlock_abi"],
            json!(abi),
            "{flag:?}: {runners}"
        );
        let listed = Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(["runners"])
            .env("DS_STUDIO_SERVER", &url)
            .env("DS_STUDIO_TOKEN", ADMIN)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        let said = text(&listed);
        assert!(listed.status.success(), "{said}");
        assert_eq!(said.contains("NOT confined"), abi == 0, "{flag:?}: {said}");
    }
}
