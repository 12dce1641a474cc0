//! The CLI against a real server: offline `user add` / `token create` / `migrate` on the data
//! directory, then `login` and `templates push|list|show|pull|diff|share` over HTTP, with the
//! exit codes scripts rely on (0 ok, 1 refused, 2 usage, 3 unreachable or not signed in).

#[path = "../../server/tests/common/mod.rs"]
mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

struct Cli {
    creds: std::path::PathBuf,
}

impl Cli {
    fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(args)
            .env("DS_STUDIO_CREDENTIALS", &self.creds)
            .env_remove("DS_STUDIO_SERVER")
            .env_remove("DS_STUDIO_TOKEN")
            .env_remove("DATABASE_URL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        if let Some(s) = stdin {
            input.write_all(s.as_bytes()).unwrap();
        }
        drop(input);
        child.wait_with_output().unwrap()
    }
}

fn text(o: &Output) -> String {
    format!(
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_admin_then_login_push_pull_diff_share() {
    let dir = common::scratch("cli-client");
    let data = dir.join("data");
    let data_s = data.to_str().unwrap().to_string();
    let cli = Cli {
        creds: dir.join("creds.json"),
    };
    let run = |args: Vec<String>, stdin: Option<&'static str>| {
        let creds = cli.creds.clone();
        tokio::task::spawn_blocking(move || {
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            Cli { creds }.run(&a, stdin)
        })
    };
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();

    // Offline administration on the data directory.
    let o = run(v(&["migrate", "--data", &data_s]), None).await.unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = run(
        v(&["user", "add", "mei", "--password-stdin", "--data", &data_s]),
        Some("correct-horse\n"),
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("editor of team `default`"),
        "{}",
        text(&o)
    );
    let o = run(v(&["user", "add", "mei", "--data", &data_s]), None)
        .await
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "duplicate user: {}", text(&o));
    let o = run(
        v(&["token", "create", "--user", "mei", "--data", &data_s]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let offline_token = String::from_utf8(o.stdout).unwrap().trim().to_string();
    assert!(offline_token.starts_with("dss_"));

    // A server over the same database.
    let store = ds_studio_server::store::Store::open_sqlite(&data)
        .await
        .unwrap();
    let (url, _) = common::start_server(store, None).await;

    // Not signed in yet: exit 3.
    let o = run(v(&["templates", "list"]), None).await.unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let o = run(
        v(&[
            "templates",
            "list",
            "--server",
            "http://127.0.0.1:9",
            "--token",
            "x",
            "--format",
            "json",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let e: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(e["error"]["code"], "network", "{e}");
    // Wrong password: refused, nothing stored.
    let o = run(
        v(&["login", "--server", &url, "--username", "mei"]),
        Some("wrong-password\n"),
    )
    .await
    .unwrap();
    assert_ne!(o.status.code(), Some(0), "{}", text(&o));
    let o = run(
        v(&["login", "--server", &url, "--username", "mei"]),
        Some("correct-horse\n"),
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(cli.creds.exists());
    // The offline token works as well.
    let o = run(
        v(&[
            "templates",
            "list",
            "--server",
            &url,
            "--token",
            &offline_token,
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    let cfg = dir.join("z3.json");
    let original =
        "{\n  // ZeRO-3\n  \"train_batch_size\": 8,\n  \"zero_optimization\": {\"stage\": 3},\n}\n";
    std::fs::write(&cfg, original).unwrap();
    let cfg_s = cfg.to_str().unwrap().to_string();
    let o = run(
        v(&["templates", "push", &cfg_s, "--name", "z3", "-m", "first"]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("saved z3@1"), "{}", text(&o));

    let o = run(v(&["templates", "list", "--format", "json"]), None)
        .await
        .unwrap();
    let page: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(page["items"][0]["name"], "z3");
    let id = page["items"][0]["id"].as_i64().unwrap().to_string();

    let o = run(v(&["templates", "pull", &id]), None).await.unwrap();
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        original,
        "pulled byte for byte"
    );
    // Its launch commands, from the server's copy.
    let at = format!("{id}@1");
    let o = run(
        v(&[
            "launch-command",
            "--template",
            &at,
            "--gpus",
            "2",
            "--launcher",
            "torchrun",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains(
            "torchrun --standalone --nproc_per_node 2 train.py --deepspeed_config ds_config.json"
        ),
        "{}",
        text(&o)
    );

    std::fs::write(&cfg, original.replace("8", "16")).unwrap();
    let o = run(
        v(&[
            "templates",
            "push",
            &cfg_s,
            "--id",
            &id,
            "--base",
            "1",
            "-m",
            "bigger",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // A push on a stale base is refused with exit 1 and says how to see the change.
    let o = run(
        v(&["templates", "push", &cfg_s, "--id", &id, "--base", "1"]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("templates diff"), "{}", text(&o));
    // For scripts: the same refusal as one JSON object on stdout (the API's envelope, with the
    // head in its details), and a push's answer with its ids as numbers.
    let o = run(
        v(&[
            "templates",
            "push",
            &cfg_s,
            "--id",
            &id,
            "--base",
            "1",
            "--format",
            "json",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let e: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(e["error"]["code"], "version_conflict", "{e}");
    assert_eq!(e["error"]["details"]["head_version"], 2, "{e}");
    std::fs::write(&cfg, original.replace("8", "32")).unwrap();
    let o = run(
        v(&[
            "templates",
            "push",
            &cfg_s,
            "--id",
            &id,
            "--base",
            "2",
            "--format",
            "json",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pushed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        pushed["template_id"].as_i64(),
        id.parse::<i64>().ok(),
        "{pushed}"
    );
    assert_eq!(
        (pushed["name"].as_str(), pushed["version"].as_i64()),
        (Some("z3"), Some(3)),
        "{pushed}"
    );
    assert!(
        pushed["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["message"].is_string()),
        "{pushed}"
    );
    // A template for the HF Trainer, pushed with its arguments; a misspelled launcher is
    // refused before anything is sent.
    let o = run(
        v(&[
            "templates",
            "push",
            &cfg_s,
            "--name",
            "z3-hf",
            "--launcher",
            "hf-trainer",
            "--trainer-args",
            "per_device_train_batch_size=2,learning_rate=0.001",
            "--format",
            "json",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let hf: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let hf_id = hf["template_id"].as_i64().unwrap();
    let client = ds_studio_client::Client::new(&url, Some(offline_token.clone()));
    let v1: ds_studio_shared::api::Version = client
        .fetch(ds_studio_shared::api::endpoints::GetVersion::url([
            &hf_id, &1,
        ]))
        .await
        .unwrap();
    assert_eq!(
        v1.context.launcher,
        ds_studio_shared::validate::Launcher::HfTrainer
    );
    let args = v1.context.trainer.clone().unwrap();
    assert_eq!(
        (args.per_device_train_batch_size, args.learning_rate),
        (Some(2), Some(0.001))
    );
    // launch-command of that version passes the config the Trainer's way.
    let o = run(
        v(&[
            "launch-command",
            "--template",
            &hf_id.to_string(),
            "--launcher",
            "torchrun",
            "--gpus",
            "1",
        ]),
        None,
    )
    .await
    .unwrap();
    assert!(
        text(&o).contains("--deepspeed ds_config.json"),
        "{}",
        text(&o)
    );
    let o = run(
        v(&[
            "templates",
            "push",
            &cfg_s,
            "--name",
            "z3-typo",
            "--launcher",
            "hf_trainer",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("unknown launcher 'hf_trainer'"),
        "{}",
        text(&o)
    );
    let o = run(v(&["templates", "show", "999", "--format", "json"]), None)
        .await
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let e: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!(e["error"]["code"], "not_found", "{e}");
    // With --lang zh the server's message comes in Chinese.
    let o = run(
        v(&[
            "templates",
            "show",
            "999",
            "--format",
            "json",
            "--lang",
            "zh",
        ]),
        None,
    )
    .await
    .unwrap();
    let e: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert!(
        e["error"]["message"]
            .as_str()
            .is_some_and(|m| m.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))),
        "{e}"
    );
    // A text table says what its columns are.
    let o = run(v(&["templates", "show", &id]), None).await.unwrap();
    assert!(
        text(&o).contains("VERDICT") && text(&o).contains("AUTHOR"),
        "{}",
        text(&o)
    );
    // README's descending sort, written as README writes it.
    let o = run(
        v(&["jobs", "list", "--sort", "-final_loss", "--format", "json"]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    let o = run(
        v(&[
            "templates",
            "diff",
            &id,
            "--from",
            "1",
            "--to",
            "2",
            "--format",
            "json",
        ]),
        None,
    )
    .await
    .unwrap();
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(d["changes"][0]["path"], "/train_batch_size");
    let o = run(v(&["templates", "diff", &id, "--from", "1"]), None)
        .await
        .unwrap();
    assert!(
        text(&o).contains("~ /train_batch_size: 8 -> 32"),
        "{}",
        text(&o)
    );

    let o = run(v(&["templates", "show", &id]), None).await.unwrap();
    assert!(
        text(&o)
            .lines()
            .any(|l| l.trim_start().starts_with("2 ") && l.contains("bigger")),
        "{}",
        text(&o)
    );
    let o = run(v(&["templates", "share", &id, "--version", "1"]), None)
        .await
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let link = String::from_utf8(o.stdout).unwrap().trim().to_string();
    assert!(link.starts_with(&format!("{url}/shared/shr_")), "{link}");

    let o = run(v(&["templates", "show", "999"]), None).await.unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let o = run(
        v(&[
            "templates",
            "list",
            "--server",
            "http://127.0.0.1:9",
            "--token",
            "x",
        ]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    // A diff that introduces a warning says its message: in text, and under --format json as
    // one string in the --lang language (as `validate --format json` writes it).
    std::fs::write(
        &cfg,
        original.replace("\"stage\": 3", "\"stage\": 3, \"overlap_comm\": \"true\""),
    )
    .unwrap();
    let o = run(
        v(&["templates", "push", &cfg_s, "--id", &id, "--base", "3"]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = run(
        v(&["templates", "diff", &id, "--from", "3", "--to", "4"]),
        None,
    )
    .await
    .unwrap();
    assert!(
        text(&o).contains("introduced warning[bool-as-string] /zero_optimization/overlap_comm: `zero_optimization.overlap_comm` is the string"),
        "{}",
        text(&o)
    );
    let o = run(
        v(&[
            "templates",
            "diff",
            &id,
            "--from",
            "3",
            "--to",
            "4",
            "--format",
            "json",
            "--lang",
            "zh",
        ]),
        None,
    )
    .await
    .unwrap();
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    let message = d["diagnostics_introduced"][0]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("a message string: {d}"));
    assert!(message.contains("写成了字符串"), "{message}");
    let o = run(
        v(&["templates", "push", "/nonexistent.json", "--id", &id]),
        None,
    )
    .await
    .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passwd_changes_the_sign_in_and_serve_refuses_a_short_admin_token() {
    let dir = common::scratch("cli-passwd");
    let data = dir.join("data");
    let data_s = data.to_str().unwrap().to_string();
    let cli = Cli {
        creds: dir.join("creds.json"),
    };
    let o = cli.run(
        &["user", "add", "lin", "--password-stdin", "--data", &data_s],
        Some("first-password\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = cli.run(
        &["user", "passwd", "lin", "--data", &data_s],
        Some("second-password\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = cli.run(
        &["user", "passwd", "lin", "--data", &data_s],
        Some("short\n"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = cli.run(
        &["user", "passwd", "nobody", "--data", &data_s],
        Some("long-enough-pw\n"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    let store = ds_studio_server::store::Store::open_sqlite(&data)
        .await
        .unwrap();
    let (_, hash) = store.user_by_name("lin").await.unwrap();
    let hash = hash.unwrap();
    assert!(ds_studio_server::secrets::verify_password(
        "second-password",
        &hash
    ));
    assert!(!ds_studio_server::secrets::verify_password(
        "first-password",
        &hash
    ));

    let o = cli.run(
        &[
            "serve",
            "--data",
            &data_s,
            "--addr",
            "127.0.0.1:0",
            "--admin-token",
            "short",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("at least 16 characters"), "{}", text(&o));
}
