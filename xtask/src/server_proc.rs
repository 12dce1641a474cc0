//! A release `ds-studio serve` in a scratch data directory, for the load benchmark and the API
//! contract test; killed when dropped. `curl` talks to it with the admin token.

use crate::tools::{root, Result};
use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

pub struct Server {
    child: Child,
    pub base: String,
    pub data: PathBuf,
    pub token: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

impl Server {
    /// Starts `ds-studio serve` (`tools::studio_bin_path`: the release binary, or the suite's
    /// debug one) on a free port without a runner (build it first).
    pub fn start(tag: &str, token: &str) -> Result<Server> {
        Server::start_with(tag, token, false)
    }

    /// The same, with the in-process local runner when `local_runner` (the engine
    /// environment must exist: `ds-studio engine setup`).
    pub fn start_with(tag: &str, token: &str, local_runner: bool) -> Result<Server> {
        let data = std::env::temp_dir().join(format!("ds-studio-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let mut cmd = Command::new(crate::tools::studio_bin_path());
        cmd.args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .env("DS_STUDIO_ADMIN_TOKEN", token);
        if !local_runner {
            cmd.arg("--no-local-runner");
        }
        let child = cmd
            .arg("--data")
            .arg(&data)
            .arg("--static-dir")
            .arg(root().join("static"))
            .env("RUST_LOG", "warn")
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let server = Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
            data,
            token: token.into(),
        };
        let start = Instant::now();
        while server.curl(&[&format!("{}/healthz", server.base)]).is_err() {
            if start.elapsed() > Duration::from_secs(20) {
                return Err("the server did not come up in 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(server)
    }

    /// `curl -sS --fail-with-body` with the admin token; the body of the answer.
    pub fn curl(&self, args: &[&str]) -> Result<String> {
        let out = Command::new("curl")
            .args(["-sS", "--fail-with-body", "-H"])
            .arg(format!("Authorization: Bearer {}", self.token))
            .args(args)
            .output()
            .map_err(|e| format!("curl: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "curl {args:?}: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// POSTs JSON to an API path.
    pub fn post(&self, path: &str, body: &str) -> Result<String> {
        self.curl(&[
            "-H",
            "content-type: application/json",
            "-d",
            body,
            &format!("{}{path}", self.base),
        ])
    }
}

/// Runs `ds-studio-bench SUBCOMMAND --server BASE --token TOKEN ARGS...` (a benchmark client)
/// against this server and returns the JSON lines it printed.
pub fn bench_client(
    server: &Server,
    subcommand: &str,
    args: &[&str],
) -> Result<Vec<serde_json::Value>> {
    let out = Command::new(root().join("target/release/ds-studio-bench"))
        .args([
            subcommand,
            "--server",
            &server.base,
            "--token",
            &server.token,
        ])
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(format!(
            "{subcommand} failed: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}
