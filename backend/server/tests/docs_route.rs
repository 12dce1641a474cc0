//! `/docs`: the built book served as files with its own policy, a page that says how to build
//! it when there is none (looked for on each request), and nothing outside the book's
//! directory, through `app(state)` with `tower::ServiceExt::oneshot` (no socket).

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use ds_studio_server::{app, AppState};
use http_body_util::BodyExt;
use tower::ServiceExt;

async fn get(state: &AppState, path: &str) -> (StatusCode, Option<String>, String) {
    let res = app(state.clone())
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let csp = res
        .headers()
        .get(header::CONTENT_SECURITY_POLICY)
        .map(|v| v.to_str().unwrap().to_owned());
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, csp, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn the_book_is_served_when_built_and_explained_when_not() {
    let dir = common::scratch("docs-route");
    let book = dir.join("book");
    std::fs::write(dir.join("secret.txt"), "outside the book").unwrap();
    let mut state = AppState::new(
        common::sqlite_store().await,
        common::scratch("static"),
        "http://127.0.0.1:8080",
    );
    state.docs_dir = Some(book.clone());

    // No book yet: a page that says how to build one, in both languages.
    let (status, _, body) = get(&state, "/docs/").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        body.contains("cargo xtask docs") && body.contains("尚未构建手册"),
        "{body}"
    );

    // Built after the server started: served at once, with the book's own policy.
    std::fs::create_dir_all(book.join("using")).unwrap();
    std::fs::write(book.join("index.html"), "<h1>ds-studio</h1>").unwrap();
    std::fs::write(book.join("using/jobs.html"), "<h1>jobs</h1>").unwrap();
    let (status, csp, body) = get(&state, "/docs/using/jobs.html").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, "<h1>jobs</h1>");
    let csp = csp.unwrap();
    assert!(csp.contains("script-src 'self' 'unsafe-inline'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    let (status, _, body) = get(&state, "/docs/").await;
    assert_eq!(
        (status, body.as_str()),
        (StatusCode::OK, "<h1>ds-studio</h1>")
    );
    // The studio's own pages keep the strict policy.
    let (_, csp, _) = get(&state, "/healthz").await;
    assert_eq!(csp.as_deref(), Some(ds_studio_server::app::CSP));

    // /docs leads to /docs/ so the book's relative links resolve.
    let res = app(state.clone())
        .oneshot(Request::get("/docs").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(res.headers()[header::LOCATION], "/docs/");

    // Unknown pages, and paths that try to leave the book, are not found.
    for path in [
        "/docs/no-such-page.html",
        "/docs/../secret.txt",
        "/docs/..%2fsecret.txt",
        "/docs/%2e%2e/secret.txt",
    ] {
        let (status, _, body) = get(&state, path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(!body.contains("outside the book"), "{path}: {body}");
    }
}
