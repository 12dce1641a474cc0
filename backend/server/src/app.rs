//! The HTTP server: `app(state) -> Router` for tests, `serve(listener, state, shutdown)` for
//! real use. It serves the built frontend (with an SPA fallback to `index.html`), the tooltip
//! texts the frontend fetches (`/pkg/key-docs.json`, from the registry compiled in), `/healthz`,
//! `/readyz` and `/metrics` (`api::operator`), the JSON API under `/api/v1`, the OpenAPI
//! document and Swagger UI. Every answer is counted for `/metrics` by its route's pattern.

use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::Router;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

/// The Content-Security-Policy of every answer: scripts and WASM only from the studio itself
/// (`wasm-unsafe-eval` lets the browser compile the app's WASM), no inline script, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Security headers on every answer (API, files, Swagger UI, errors): CSP, nosniff, no framing,
/// no referrer across origins, and HSTS when the studio is reached over https.
async fn security_headers(
    axum::extract::State(hsts): axum::extract::State<bool>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{header, HeaderValue};
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    // The book at /docs sets its own (mdBook's pages carry inline scripts: `docs.rs`).
    h.entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(CSP));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    if hsts {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    resp
}

/// Where the frontend fetches the tooltip texts (`frontend/src/key_docs.rs`).
pub const KEY_DOCS_PATH: &str = "/pkg/key-docs.json";

/// The key and parameter descriptions, en and zh (240 KB), made from the registry compiled into
/// this binary when first asked for, so they always match the server's keys. An `ETag` lets
/// the browser revalidate them for free.
async fn key_docs(headers: axum::http::HeaderMap) -> axum::response::Response {
    use axum::http::{header, HeaderValue, StatusCode};
    use axum::response::IntoResponse;
    use sha2::Digest;
    static DOCS: std::sync::LazyLock<(String, HeaderValue)> = std::sync::LazyLock::new(|| {
        let json = ds_studio_shared::registry::key_docs_json();
        let digest = sha2::Sha256::digest(json.as_bytes());
        let tag = format!("\"{}\"", hex::encode(&digest[..12]));
        (
            json,
            HeaderValue::from_str(&tag).expect("hex is a valid header"),
        )
    });
    let (json, etag) = &*DOCS;
    let cache = (header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if headers.get(header::IF_NONE_MATCH) == Some(etag) {
        return (
            StatusCode::NOT_MODIFIED,
            [(header::ETAG, etag.clone()), cache],
        )
            .into_response();
    }
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::ETAG, etag.clone()),
            cache,
        ],
        json.clone(),
    )
        .into_response()
}

/// Counts an answered request for `/metrics`: by the route's pattern (never the path itself,
/// whose ids would make a series per job), its method and its status, with the time to its
/// headers.
async fn track(
    axum::extract::State(metrics): axum::extract::State<std::sync::Arc<crate::metrics::Metrics>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::Method;
    let route = req
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map(|p| p.as_str().to_owned());
    let method = match *req.method() {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    };
    let start = std::time::Instant::now();
    let resp = next.run(req).await;
    metrics.observe_request(
        route.as_deref().unwrap_or("other"),
        method,
        resp.status().as_u16(),
        start.elapsed().as_secs_f64(),
    );
    resp
}

pub fn app(state: AppState) -> Router {
    let hsts = state.public_url.starts_with("https://");
    let index = state.static_dir.join("index.html");
    let files = ServeDir::new(&state.static_dir).fallback(ServeFile::new(index));
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(crate::api::operator::readyz))
        .route("/metrics", get(crate::api::operator::metrics))
        .route(KEY_DOCS_PATH, get(key_docs))
        .nest(
            "/api/v1",
            crate::api::router()
                .layer(axum::middleware::from_fn(crate::api::envelope_bare_errors))
                // `?lang=zh` or `Accept-Language: zh`: error messages in Chinese.
                .layer(axum::middleware::from_fn(
                    crate::api::messages_zh::translate_errors,
                )),
        )
        .merge(crate::api::openapi::router())
        .merge(crate::docs::router())
        .fallback_service(files)
        .layer(axum::middleware::from_fn_with_state(
            state.metrics.clone(),
            track,
        ))
        .layer(DefaultBodyLimit::max(crate::api::BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(hsts, security_headers))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Serves until `shutdown` resolves; in-flight requests finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutting down");
}

/// What the studio's port answers while the server starts (migrations, the first
/// administrator): `/healthz` and `/readyz` 503 and every other path 503 `starting`, so a
/// balancer or a script that waits for `/healthz` keeps away until the studio can answer, and
/// a user sees why. Serves `listener` until `until` resolves.
///
/// Every answer closes its connection (`Connection: close`): a kept-alive connection of this
/// server would be closed under a client that reuses it at the moment the real server takes
/// over, and a client that waits for `/healthz` (Node's fetch among them) can lose such a
/// request without an error.
pub async fn serve_starting(
    listener: tokio::net::TcpListener,
    until: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::http::StatusCode;
    let starting = Router::new()
        .route(
            "/healthz",
            get(|| async { (StatusCode::SERVICE_UNAVAILABLE, "starting\n") }),
        )
        .route(
            "/readyz",
            get(|| async {
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "not ready: starting (applying database migrations)\n",
                )
            }),
        )
        .fallback(|| async {
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(axum::http::header::RETRY_AFTER, "5")],
                axum::Json(serde_json::json!({"error": {
                    "code": "starting",
                    "message": "the studio is starting (applying database migrations): try again in a few seconds",
                }})),
            )
        });
    let starting = starting.layer(axum::middleware::map_response(
        |mut answer: axum::response::Response| async move {
            answer.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
            answer
        },
    ));
    axum::serve(listener, starting)
        .with_graceful_shutdown(until)
        .await
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// While the studio starts, `/healthz` answers 503 and closes the connection, so no client
    /// keeps a connection of the starting server into the handover to the real one.
    #[tokio::test]
    async fn the_starting_server_answers_503_and_closes_each_connection() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, until) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(super::serve_starting(listener, async move {
            let _ = until.await;
        }));
        let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
        conn.write_all(b"GET /healthz HTTP/1.1\r\nhost: studio\r\n\r\n")
            .await
            .unwrap();
        // read_to_end returns only when the server closes the connection.
        let mut answer = Vec::new();
        tokio::time::timeout(
            std::time::Duration::from_secs(10),
            conn.read_to_end(&mut answer),
        )
        .await
        .expect("the starting server closes the connection after its answer")
        .unwrap();
        let answer = String::from_utf8_lossy(&answer).to_ascii_lowercase();
        assert!(answer.starts_with("http/1.1 503"), "{answer}");
        assert!(answer.contains("connection: close"), "{answer}");
        assert!(answer.ends_with("starting\n"), "{answer}");
        let _ = stop.send(());
        server.await.unwrap().unwrap();
    }
}
