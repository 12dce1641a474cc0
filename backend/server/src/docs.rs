//! The book at `/docs`: the mdBook that `cargo xtask docs` builds (`target/book` by default,
//! `serve --docs-dir`), served as files when it is there. The directory is looked at on each
//! request, so a book built after the server started is served without a restart; without one,
//! `/docs` says how to build it (in English and Chinese) instead of the studio's page.
//!
//! mdBook's pages set their theme and sidebar with inline scripts, which the studio's policy
//! forbids: the book's answers carry their own `Content-Security-Policy` that admits inline
//! scripts and styles, and nothing from another origin. What runs there is the book the
//! repository built, never a user's text.

use crate::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// `/docs` (to `/docs/`, so the book's relative links resolve), `/docs/` and every page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/docs", get(|| async { Redirect::permanent("/docs/") }))
        .route("/docs/", get(page))
        .route("/docs/{*path}", get(page))
}

/// The book's policy: its own files and inline code, nothing from elsewhere, never framed.
const BOOK_CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'none'";

const NOT_BUILT: &str = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>ds-studio: the book is not built</title>\
<body style=\"font-family:sans-serif;max-width:40em;margin:3em auto\">\
<h1>The book is not built here</h1>\
<p>This studio serves its documentation at <code>/docs</code> once it is built. In the repository, run \
<code>cargo xtask docs</code>, then reload this page (no restart needed), or start the server with \
<code>--docs-dir</code> naming a built book. The same pages are in <code>docs/src/</code> of the repository.</p>\
<h1 lang=\"zh-CN\">此处尚未构建手册</h1>\
<p lang=\"zh-CN\">手册构建后，工作室会在 <code>/docs</code> 提供它。请在仓库中运行 <code>cargo xtask docs</code>，\
然后刷新本页（无需重启）；或用 <code>--docs-dir</code> 指定已构建的手册目录启动服务器。相同的页面也在仓库的 \
<code>docs/src/</code> 中。</p></body></html>";

async fn page(State(state): State<AppState>, req: Request) -> Response {
    let Some(dir) = state.docs_dir.as_deref() else {
        return not_built();
    };
    if !dir.join("index.html").is_file() {
        return not_built();
    }
    let rest = req
        .uri()
        .path()
        .strip_prefix("/docs")
        .unwrap_or("/")
        .to_owned();
    let Ok(uri) = rest.parse::<Uri>() else {
        return (StatusCode::BAD_REQUEST, "not a page of the book\n").into_response();
    };
    let (mut parts, _) = req.into_parts();
    parts.uri = uri;
    let inner = Request::from_parts(parts, Body::empty());
    match ServeDir::new(dir).oneshot(inner).await {
        Ok(resp) if resp.status() == StatusCode::NOT_FOUND => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "no such page in the book: start at /docs/\n",
        )
            .into_response(),
        Ok(resp) => {
            let mut resp = resp.into_response();
            resp.headers_mut().insert(
                header::CONTENT_SECURITY_POLICY,
                axum::http::HeaderValue::from_static(BOOK_CSP),
            );
            resp
        }
        Err(e) => match e {},
    }
}

fn not_built() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        NOT_BUILT,
    )
        .into_response()
}
