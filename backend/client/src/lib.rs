//! `ds-studio-client`: the HTTP client the CLI and the runner use to talk to a ds-studio server,
//! where it keeps its login (`~/.config/ds-studio/credentials.json`, or `$DS_STUDIO_CREDENTIALS`,
//! mode 0600), and the decoder of the server's live events (SSE). It knows nothing of the
//! database or of axum: it speaks the API's JSON, typed by `ds_studio_shared::api`.
//!
//! Exit codes of the client commands: 0 success, 1 the server refused (validation, conflict,
//! not found, forbidden), 2 usage error or unreadable input, 3 cannot reach or sign in to the
//! server.
//!
//! No command-line parser either: the flags are the CLI's (its `server_args.rs`); `cargo xtask
//! test` bans clap, sqlx, axum and utoipa from this crate's tree.
//!
//! Every call names its endpoint from the shared table, which fixes the method, the path and the
//! types of both bodies ([`Client::call`]):
//!
//! ```no_run
//! # async fn f(c: ds_studio_client::Client) -> Result<(), ds_studio_client::ClientError> {
//! use ds_studio_shared::api::endpoints as ep;
//! let job = c.fetch(ep::GetJob::url([&7])).await?;
//! println!("{:?}", job.state);
//! # Ok(()) }
//! ```
//!
//! Sending another type than the endpoint's request does not build:
//!
//! ```compile_fail
//! # async fn f(c: ds_studio_client::Client) -> Result<(), ds_studio_client::ClientError> {
//! use ds_studio_shared::api::{endpoints as ep, RunLabels};
//! let labels = RunLabels::default();
//! let job = c.call(ep::SubmitJob::url([]), &labels).await?;
//! # Ok(()) }
//! ```

use ds_studio_shared::api::endpoints::{self, Endpoint, EventStream, NoBody, Url};
use ds_studio_shared::api::{ErrorBody, LoginRequest, TokenCreate};
use ds_studio_shared::i18n::Lang;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The client layer's one error type.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server answered with an error envelope.
    #[error("{message} ({status} {code})")]
    Api {
        status: u16,
        code: String,
        message: String,
        details: Option<serde_json::Value>,
    },
    #[error("cannot reach {server}: {cause}")]
    Network { server: String, cause: String },
    #[error("not signed in: run `ds-studio login --server URL` or pass --server and --token")]
    NoLogin,
    #[error("{0}")]
    Local(String),
}

impl ClientError {
    /// The error as the API's envelope: `{"error": {"code", "message", "details"?}}`, the
    /// messages in `details` in `lang` (see [`localized`]).
    pub fn to_json(&self, lang: Lang) -> serde_json::Value {
        let (code, message, details) = match self {
            ClientError::Api {
                code,
                message,
                details,
                ..
            } => (code.as_str(), message.clone(), details.clone()),
            ClientError::Network { .. } => ("network", self.to_string(), None),
            ClientError::NoLogin => ("not_signed_in", self.to_string(), None),
            ClientError::Local(m) => ("invalid_arguments", m.clone(), None),
        };
        let mut error = serde_json::json!({"code": code, "message": message});
        if let Some(d) = details {
            error["details"] = localized(d, lang);
        }
        serde_json::json!({ "error": error })
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            ClientError::Api { status, .. } if *status == 401 => 3,
            ClientError::Api { .. } => 1,
            ClientError::Network { .. } | ClientError::NoLogin => 3,
            ClientError::Local(_) => 2,
        }
    }
}

/// Which server to talk to, as who, in which language: what a command was given (its
/// `--server`, `--token`, `--lang` flags or their environment variables); a server or token not
/// given is taken from the stored login ([`Client::connect`]).
#[derive(Debug, Clone, Default)]
pub struct Connection {
    pub server: Option<String>,
    pub token: Option<String>,
    pub lang: Lang,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Credentials {
    pub server: String,
    pub token: String,
}

pub fn credentials_path() -> PathBuf {
    if let Some(p) = std::env::var_os("DS_STUDIO_CREDENTIALS") {
        return PathBuf::from(p);
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("ds-studio").join("credentials.json")
}

pub fn save_credentials(c: &Credentials) -> Result<PathBuf, ClientError> {
    let path = credentials_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| ClientError::Local(format!("cannot create {}: {e}", dir.display())))?;
    }
    let text = serde_json::to_string_pretty(c).unwrap_or_default();
    std::fs::write(&path, text)
        .map_err(|e| ClientError::Local(format!("cannot write {}: {e}", path.display())))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(path)
}

fn load_credentials() -> Option<Credentials> {
    let text = std::fs::read_to_string(credentials_path()).ok()?;
    serde_json::from_str(&text).ok()
}

/// Password sign-in, then a personal API token for this machine.
pub async fn token_from_password(
    server: &str,
    user: &str,
    password: &str,
) -> Result<String, ClientError> {
    let server = server.trim_end_matches('/');
    install_tls_provider();
    let http = reqwest::Client::new();
    let net = |e: reqwest::Error| ClientError::Network {
        server: server.into(),
        cause: chain(&e),
    };
    let resp = http
        .post(format!("{server}{}", endpoints::Login::url([])))
        .json(&LoginRequest {
            username: user.into(),
            password: password.into(),
        })
        .send()
        .await
        .map_err(net)?;
    if !resp.status().is_success() {
        return Err(ClientError::Api {
            status: resp.status().as_u16(),
            code: "unauthorized".into(),
            message: "sign-in refused: wrong user name or password".into(),
            details: None,
        });
    }
    let cookie = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or("")
        .to_string();
    let me: ds_studio_shared::api::Me = resp.json().await.map_err(net)?;
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "this machine".into());
    let resp = http
        .post(format!("{server}{}", endpoints::CreateToken::url([])))
        .header("cookie", cookie)
        .header("x-csrf-token", me.csrf_token.unwrap_or_default())
        .json(&TokenCreate {
            name: format!("cli on {host}"),
            expires_at: None,
        })
        .send()
        .await
        .map_err(net)?;
    if !resp.status().is_success() {
        return Err(ClientError::Local(format!(
            "signed in, but the server refused to create a token ({})",
            resp.status()
        )));
    }
    let created: ds_studio_shared::api::TokenCreated = resp.json().await.map_err(net)?;
    Ok(created.token)
}

/// A client bound to one server and token.
pub struct Client {
    pub server: String,
    token: Option<String>,
    lang: Lang,
    http: reqwest::Client,
}

impl Client {
    pub fn new(server: &str, token: Option<String>) -> Client {
        install_tls_provider();
        Client {
            server: server.trim_end_matches('/').to_string(),
            token,
            lang: Lang::En,
            http: reqwest::Client::builder()
                .user_agent(concat!("ds-studio-cli/", env!("CARGO_PKG_VERSION")))
                .build()
                .expect("the HTTP client builds once the TLS provider is installed"),
        }
    }

    /// From `--server`/`--token`, falling back to the stored login.
    pub fn connect(a: &Connection) -> Result<Client, ClientError> {
        let stored = load_credentials();
        let server = a
            .server
            .clone()
            .or_else(|| stored.as_ref().map(|c| c.server.clone()))
            .ok_or(ClientError::NoLogin)?;
        let token = a
            .token
            .clone()
            .or_else(|| stored.filter(|c| c.server == server).map(|c| c.token))
            .ok_or(ClientError::NoLogin)?;
        let mut client = Client::new(&server, Some(token));
        client.lang = a.lang;
        Ok(client)
    }

    /// The language of messages (`--lang`).
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// `Accept-Language` for the client's language: the server's error messages come in it.
    fn accept_language(&self) -> &'static str {
        match self.lang {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// Calls endpoint `E` at `url` (made by `E::url`: the path, the method and the types come
    /// from the shared endpoint table) with `body`, and decodes the answer as `E::Response`
    /// (or the error envelope). GET and DELETE send no body.
    pub async fn call<E: Endpoint>(
        &self,
        url: Url<E>,
        body: &E::Request,
    ) -> Result<E::Response, ClientError> {
        self.decode(&self.send(url, body).await?)
    }

    /// [`Client::call`] for an endpoint that takes no body.
    pub async fn fetch<E: Endpoint<Request = NoBody>>(
        &self,
        url: Url<E>,
    ) -> Result<E::Response, ClientError> {
        self.call(url, &NoBody).await
    }

    /// [`Client::call`], the answer kept as the server wrote it (for `--format json`).
    pub async fn call_json<E: Endpoint>(
        &self,
        url: Url<E>,
        body: &E::Request,
    ) -> Result<serde_json::Value, ClientError> {
        self.decode(&self.send(url, body).await?)
    }

    /// An answer's JSON as `T`.
    fn decode<T: serde::de::DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, ClientError> {
        serde_json::from_slice(bytes)
            .map_err(|e| ClientError::Local(format!("unexpected answer from {}: {e}", self.server)))
    }

    /// Sends the request; the answer's body (`null` when empty) when it succeeded.
    async fn send<E: Endpoint>(
        &self,
        url: Url<E>,
        body: &E::Request,
    ) -> Result<Vec<u8>, ClientError> {
        let method = match E::METHOD {
            endpoints::Method::Get => reqwest::Method::GET,
            endpoints::Method::Post => reqwest::Method::POST,
            endpoints::Method::Put => reqwest::Method::PUT,
            endpoints::Method::Patch => reqwest::Method::PATCH,
            endpoints::Method::Delete => reqwest::Method::DELETE,
        };
        let bodiless = matches!(
            E::METHOD,
            endpoints::Method::Get | endpoints::Method::Delete
        );
        let mut req = self
            .http
            .request(method, format!("{}{url}", self.server))
            .header(reqwest::header::ACCEPT_LANGUAGE, self.accept_language());
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if !bodiless {
            req = req.json(body);
        }
        let resp = req.send().await.map_err(|e| ClientError::Network {
            server: self.server.clone(),
            cause: chain(&e),
        })?;
        let status = resp.status();
        let bytes = resp.bytes().await.map_err(|e| ClientError::Network {
            server: self.server.clone(),
            cause: e.to_string(),
        })?;
        if !status.is_success() {
            return Err(api_error(status, &bytes));
        }
        Ok(if bytes.is_empty() {
            b"null".to_vec()
        } else {
            bytes.to_vec()
        })
    }
}

/// The error of a non-2xx answer: the envelope's code and message, or the bare status.
fn api_error(status: reqwest::StatusCode, body: &[u8]) -> ClientError {
    match serde_json::from_slice::<ErrorBody>(body) {
        Ok(e) => ClientError::Api {
            status: status.as_u16(),
            code: e.error.code,
            message: e.error.message,
            details: e.error.details,
        },
        Err(_) => ClientError::Api {
            status: status.as_u16(),
            code: "http".into(),
            message: format!("the server answered {status}"),
            details: None,
        },
    }
}

/// An error with its causes (`error sending request: ... : invalid peer certificate: ...`).
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cur = c.source();
    }
    out
}

/// Installs ring as rustls' crypto provider (once) so that `https://` servers work; the
/// system's certificate store is used to verify them.
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Runs a client future on a small runtime and turns errors into exit codes (the error said on
/// stderr).
pub fn run(f: impl std::future::Future<Output = Result<(), ClientError>>) -> i32 {
    run_as(None, f)
}

/// [`run`], and with `json` (the language of its messages) an error is one JSON object on stdout, the API's own envelope
/// (`{"error": {"code", "message", "details"?}}`; `network`, `not_signed_in` and
/// `invalid_arguments` for the client's own errors), so a script parses failures as it parses
/// answers. The exit code is README's either way.
pub fn run_as(
    json: Option<Lang>,
    f: impl std::future::Future<Output = Result<(), ClientError>>,
) -> i32 {
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
    };
    match rt.block_on(f) {
        Ok(()) => 0,
        Err(e) => match json {
            Some(lang) => {
                println!("{}", e.to_json(lang));
                e.exit_code()
            }
            None => {
                eprintln!("ds-studio: {e}");
                e.exit_code()
            }
        },
    }
}

/// An API answer as a client command's `--format json` prints it: every two-language message
/// (an object of exactly the strings `en` and `zh`, such as a diagnostic's `message` or a fit's
/// `summary`) becomes the one string in `lang`, so a script reads every message the way
/// `ds-studio validate --format json` writes it. Configs (`config`) are left as they are.
pub fn localized(v: serde_json::Value, lang: Lang) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            if map.len() == 2 {
                if let (Some(Value::String(en)), Some(Value::String(zh))) =
                    (map.get("en"), map.get("zh"))
                {
                    return Value::String(match lang {
                        Lang::En => en.clone(),
                        Lang::Zh => zh.clone(),
                    });
                }
            }
            Value::Object(
                map.into_iter()
                    .map(|(k, v)| {
                        let v = if k == "config" { v } else { localized(v, lang) };
                        (k, v)
                    })
                    .collect(),
            )
        }
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| localized(v, lang)).collect())
        }
        other => other,
    }
}

/// Prints an answer for `--format json` (pretty, messages in `lang`: [`localized`]).
pub fn print_json<T: Serialize>(v: &T, lang: Lang) {
    let v = serde_json::to_value(v).unwrap_or(serde_json::Value::Null);
    println!(
        "{}",
        serde_json::to_string_pretty(&localized(v, lang)).unwrap_or_default()
    );
}

/// A current-thread runtime for one command.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        // Validation runs on the blocking pool and recurses once per nesting level of a config
        // (494 levels, as deep as DeepSpeed's hjson reads): room for it in any build.
        .thread_stack_size(8 << 20)
        .build()
}

/// One server-sent event.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SseEvent {
    pub event: String,
    pub id: Option<String>,
    pub data: String,
}

/// Decodes a `text/event-stream` body fed in chunks of any size (lines may be split anywhere).
#[derive(Debug, Default)]
pub struct SseDecoder {
    buf: Vec<u8>,
    cur: SseEvent,
    has_data: bool,
}

impl SseDecoder {
    /// Feeds bytes; returns the events completed by them.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(nl) = self.buf.iter().position(|&b| b == b'\n') {
            let raw: Vec<u8> = self.buf.drain(..=nl).collect();
            let line = String::from_utf8_lossy(&raw);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if self.has_data {
                    let mut ev = std::mem::take(&mut self.cur);
                    if ev.event.is_empty() {
                        ev.event = "message".into();
                    }
                    out.push(ev);
                }
                self.cur = SseEvent::default();
                self.has_data = false;
                continue;
            }
            if line.starts_with(':') {
                continue; // a comment (keep-alive)
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (line, ""),
            };
            match field {
                "event" => self.cur.event = value.to_string(),
                "id" => self.cur.id = Some(value.to_string()),
                "data" => {
                    if self.has_data {
                        self.cur.data.push('\n');
                    }
                    self.cur.data.push_str(value);
                    self.has_data = true;
                }
                _ => {}
            }
        }
        out
    }
}

impl Client {
    /// Opens an SSE stream (`Accept: text/event-stream`), resuming after `last_event_id`.
    pub async fn open_stream(
        &self,
        url: Url<impl Endpoint<Response = EventStream>>,
        last_event_id: Option<&str>,
    ) -> Result<reqwest::Response, ClientError> {
        let mut req = self
            .http
            .get(format!("{}{url}", self.server))
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .header(reqwest::header::ACCEPT_LANGUAGE, self.accept_language());
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id);
        }
        let resp = req.send().await.map_err(|e| ClientError::Network {
            server: self.server.clone(),
            cause: chain(&e),
        })?;
        let status = resp.status();
        if !status.is_success() {
            let bytes = resp.bytes().await.unwrap_or_default();
            return Err(api_error(status, &bytes));
        }
        Ok(resp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_output_gives_each_two_language_message_as_one_string() {
        let answer = serde_json::json!({
            "diagnostics": [{"code": "x", "message": {"en": "too big", "zh": "太大"}}],
            "fit": {"summary": {"en": "fitted", "zh": "已适配"}, "changes": []},
            "config": {"en": "a user's key", "zh": "kept"},
            "labels": {"en": "not", "zh": "a message", "other": 1},
        });
        let zh = localized(answer.clone(), Lang::Zh);
        assert_eq!(zh["diagnostics"][0]["message"], "太大");
        assert_eq!(zh["fit"]["summary"], "已适配");
        assert_eq!(
            zh["config"], answer["config"],
            "a config is left as written"
        );
        assert_eq!(
            zh["labels"], answer["labels"],
            "only exactly {{en, zh}} is a message"
        );
        assert_eq!(
            localized(answer, Lang::En)["diagnostics"][0]["message"],
            "too big"
        );
        let e = ClientError::Api {
            status: 422,
            code: "config_rejected".into(),
            message: "refused".into(),
            details: Some(
                serde_json::json!({"diagnostics": [{"message": {"en": "e", "zh": "中"}}]}),
            ),
        };
        assert_eq!(
            e.to_json(Lang::Zh)["error"]["details"]["diagnostics"][0]["message"],
            "中"
        );
    }

    #[test]
    fn sse_events_are_decoded_across_chunk_boundaries() {
        let body = b": keep-alive\n\nevent: metric\nid: 7\ndata: {\"a\":1}\n\nevent: state\r\ndata: x\r\ndata: y\r\n\r\n";
        let mut d = SseDecoder::default();
        let mut got = Vec::new();
        for chunk in body.chunks(5) {
            got.extend(d.feed(chunk));
        }
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].event, "metric");
        assert_eq!(got[0].id.as_deref(), Some("7"));
        assert_eq!(got[0].data, "{\"a\":1}");
        assert_eq!(
            (got[1].event.as_str(), got[1].data.as_str()),
            ("state", "x\ny")
        );
    }
}
