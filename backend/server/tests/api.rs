//! The REST API against a real server on port 0 (SQLite): sign-in, sessions and CSRF, templates
//! and versions, conflicts, ETags, diffs, share links, bad input, OpenAPI, and the
//! authorization matrix (every route × every kind of caller → the expected status).

mod common;

use common::Api;

use ds_studio_server::store::accounts::CredentialKind;
use ds_studio_server::store::Store;
use ds_studio_shared::api::Role;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const ADMIN: &str = "admin-token-for-tests-0123456789";

async fn member(store: &Store, name: &str, team: i64, role: Option<Role>) -> (i64, String) {
    let u = store.create_user(name, name, None, false).await.unwrap();
    if let Some(r) = role {
        store.put_member(team, u.id, r).await.unwrap();
    }
    let (tok, _) = store
        .create_credential(u.id, CredentialKind::ApiToken, "t", None)
        .await
        .unwrap();
    (u.id, tok)
}

#[tokio::test]
async fn templates_versions_conflicts_diffs_and_shares() {
    let (api, store) = Api::start(ADMIN).await;
    let a = Some(ADMIN);
    let text = "{\n  // keep me\n  \"train_batch_size\": 8,\n  \"steps_per_print\": 5e2,\n}\n";
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            a,
            Some(json!({"name": "z2", "tags": ["zero2"], "config_text": text})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    assert_eq!(t["head_version"], 1);
    let id = t["id"].as_i64().unwrap();

    // The text comes back byte for byte, with an ETag; If-None-Match answers 304.
    let resp = api
        .req(
            Method::GET,
            &format!("/api/v1/templates/{id}/versions/1"),
            a,
        )
        .send()
        .await
        .unwrap();
    let etag = resp.headers()["etag"].to_str().unwrap().to_string();
    assert!(resp.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("immutable"));
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["config_text"], text);
    assert_eq!(v["verdict"], "accepted");
    let resp = api
        .req(
            Method::GET,
            &format!("/api/v1/templates/{id}/versions/1"),
            a,
        )
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_MODIFIED);

    // Save on the head, then a stale save: 409 with the head; nothing lost.
    let (s, v2) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/versions"),
            a,
            Some(json!({"config": {"train_batch_size": 16, "zero_optimization": {"stage": 2, "overlap_com": true}}, "message": "bigger", "base_version": 1})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v2}");
    assert_eq!(v2["version"], 2);
    let (s, e) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/versions"),
            a,
            Some(json!({"config_text": "{}", "message": "stale", "base_version": 1})),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(e["error"]["code"], "version_conflict");
    assert_eq!(e["error"]["details"]["head_version"], 2);
    assert_eq!(e["error"]["details"]["head"]["message"], "bigger");
    // `head` moves: it must be revalidated, never cached for good.
    let resp = api
        .req(
            Method::GET,
            &format!("/api/v1/templates/{id}/versions/head"),
            a,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["cache-control"], "private, no-cache");
    assert_eq!(resp.headers()["etag"], format!("\"t{id}-v2\"").as_str());
    let (_, list) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{id}/versions"),
            a,
            None,
        )
        .await;
    assert_eq!(list["total"], 2);

    // Diff: semantic changes, text diff, validation delta.
    let (s, d) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{id}/diff?from=1&to=head"),
            a,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{d}");
    let ops: Vec<(String, String)> = d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["op"].as_str().unwrap().into(),
                c["path"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        ops.contains(&("replace".into(), "/train_batch_size".into())),
        "{ops:?}"
    );
    assert!(
        ops.contains(&("remove".into(), "/steps_per_print".into())),
        "{ops:?}"
    );
    assert!(
        ops.contains(&("add".into(), "/zero_optimization".into())),
        "{ops:?}"
    );
    assert!(d["text_diff"]
        .as_str()
        .unwrap()
        .contains("+  \"train_batch_size\": 16"));
    assert_eq!(d["diagnostics_introduced"][0]["code"], "unknown-key");

    // Fork, then diff across templates.
    let (s, f) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/fork"),
            a,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{f}");
    assert_eq!(f["name"], "z2 (fork)");
    // It says where it came from: the source and the version forked (the head, v2).
    assert_eq!(
        f["forked_from"],
        json!({"template_id": id, "version": 2, "name": "z2"})
    );
    let fid = f["id"].as_i64().unwrap();
    // A second fork, and a fork of the fork, get free names after the original (no clash,
    // no "(fork) (fork)"); a name given that is taken is a 409 naming it.
    let fork = |from: i64, body: Option<Value>| {
        let api = &api;
        async move {
            api.call(
                Method::POST,
                &format!("/api/v1/templates/{from}/fork"),
                a,
                body,
            )
            .await
        }
    };
    let (s, f2) = fork(id, None).await;
    assert_eq!(
        (s, f2["name"].as_str()),
        (StatusCode::CREATED, Some("z2 (fork 2)")),
        "{f2}"
    );
    let (s, f3) = fork(fid, Some(json!({"version": 1}))).await;
    assert_eq!(
        (s, f3["name"].as_str()),
        (StatusCode::CREATED, Some("z2 (fork 3)")),
        "{f3}"
    );
    assert_eq!(f3["forked_from"]["name"], "z2 (fork)");
    let (s, clash) = fork(id, Some(json!({"name": "z2 (fork)"}))).await;
    assert_eq!(s, StatusCode::CONFLICT, "{clash}");
    assert!(
        clash["error"]["message"]
            .as_str()
            .unwrap()
            .contains("z2 (fork)"),
        "{clash}"
    );
    let (s, named) = fork(id, Some(json!({"name": "my own z2"}))).await;
    assert_eq!(
        (s, named["name"].as_str()),
        (StatusCode::CREATED, Some("my own z2"))
    );
    for extra in [&f2, &f3, &named] {
        let (s, _) = api
            .call(
                Method::DELETE,
                &format!("/api/v1/templates/{}", extra["id"]),
                a,
                None,
            )
            .await;
        assert!(s.is_success(), "{s}");
    }
    let (s, d) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{id}/diff?from=2&to=1&to_template={fid}"),
            a,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(d["changes"].as_array().unwrap().is_empty(), "{d}");

    // Search and rename.
    let (_, l) = api
        .call(Method::GET, "/api/v1/templates?q=FORK", a, None)
        .await;
    assert_eq!(l["total"], 1);
    let (_, l) = api
        .call(Method::GET, "/api/v1/templates?tag=zero2", a, None)
        .await;
    assert_eq!(l["total"], 2);
    let (s, e) = api
        .call(
            Method::PATCH,
            &format!("/api/v1/templates/{fid}"),
            a,
            Some(json!({"name": "z2"})),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");

    // Share: opens without an account; revoked → 404; expiry in the past refused.
    let (s, sh) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/share"),
            a,
            Some(json!({"version": 1})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{sh}");
    let token = sh["token"].as_str().unwrap();
    assert!(token.len() >= 32);
    assert!(sh["url"].as_str().unwrap().ends_with(token));
    let (s, view) = api
        .call(Method::GET, &format!("/api/v1/shared/{token}"), None, None)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(view["version"]["config_text"], text);
    assert_eq!(view["template_name"], "z2");
    // Forked from the link into another team, by someone who cannot open the template itself;
    // not without an account.
    let elsewhere = store.create_team("elsewhere").await.unwrap();
    let (_, outsider) = member(&store, "outsider", elsewhere.id, Some(Role::Editor)).await;
    let o = Some(outsider.as_str());
    let (s, _) = api
        .call(Method::GET, &format!("/api/v1/templates/{id}"), o, None)
        .await;
    assert!(
        s == StatusCode::NOT_FOUND || s == StatusCode::FORBIDDEN,
        "{s}"
    );
    let fork_path = format!("/api/v1/shared/{token}/fork");
    let (s, mine) = api
        .call(
            Method::POST,
            &fork_path,
            o,
            Some(json!({"name": "from the link", "version": 2})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{mine}");
    assert_eq!(mine["team_id"], elsewhere.id);
    assert_eq!(
        mine["forked_from"]["version"], 1,
        "the link's version, whatever was asked"
    );
    let (_, head) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{}/versions/head", mine["id"]),
            o,
            None,
        )
        .await;
    assert_eq!(head["config_text"], text);
    let (s, _) = api.call(Method::POST, &fork_path, None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = api
        .call(
            Method::DELETE,
            &format!("/api/v1/templates/{id}/shares/{}", sh["id"]),
            a,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = api
        .call(Method::GET, &format!("/api/v1/shared/{token}"), None, None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = api.call(Method::POST, &fork_path, o, None).await;
    assert_eq!(
        s,
        StatusCode::NOT_FOUND,
        "a revoked link forks nothing: {e}"
    );
    let (s, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/share"),
            a,
            Some(json!({"expires_at": "2001-01-01T00:00:00Z"})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);

    // Delete.
    let (s, _) = api
        .call(Method::DELETE, &format!("/api/v1/templates/{fid}"), a, None)
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = api
        .call(Method::GET, &format!("/api/v1/templates/{fid}"), a, None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bad_input_gets_clear_errors_and_loses_nothing() {
    let (api, _) = Api::start(ADMIN).await;
    let a = Some(ADMIN);
    let (_, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            a,
            Some(json!({"name": "keep", "config": {"train_batch_size": 1}})),
        )
        .await;
    let id = t["id"].as_i64().unwrap();
    let post_raw = |body: &'static str, ct: &'static str| {
        api.req(Method::POST, &format!("/api/v1/templates/{id}/versions"), a)
            .header("content-type", ct)
            .body(body)
    };
    let check = |r: reqwest::Response, status: StatusCode, needle: &'static str| async move {
        assert_eq!(r.status(), status);
        let v: Value = r.json().await.unwrap();
        let msg = v["error"]["message"].as_str().unwrap().to_string();
        assert!(msg.contains(needle), "{msg}");
    };
    check(
        post_raw("{not json", "application/json")
            .send()
            .await
            .unwrap(),
        StatusCode::BAD_REQUEST,
        "not valid JSON",
    )
    .await;
    check(
        post_raw(r#"{"base_version": "one"}"#, "application/json")
            .send()
            .await
            .unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "base_version",
    )
    .await;
    check(
        post_raw(r#"{"base_version": 1}"#, "text/plain")
            .send()
            .await
            .unwrap(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "Content-Type",
    )
    .await;
    check(
        post_raw(r#"{"base_version": 1, "message": "m"}"#, "application/json")
            .send()
            .await
            .unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "config",
    )
    .await;
    check(
        post_raw(r#"{"base_version": 7, "config": {}}"#, "application/json")
            .send()
            .await
            .unwrap(),
        StatusCode::CONFLICT,
        "base_version 7",
    )
    .await;
    // A config over 1 MiB, and a body over the request limit.
    let big = json!({"base_version": 1, "config_text": format!("{{\"x\": \"{}\"}}", "a".repeat(1_100_000))});
    let (s, e) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/versions"),
            a,
            Some(big),
        )
        .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    let huge = json!({"base_version": 1, "config_text": "b".repeat(5 * 1024 * 1024)});
    let (s, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/versions"),
            a,
            Some(huge),
        )
        .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    // Deep nesting is refused, not a crash.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let r = api
        .req(Method::POST, "/api/v1/validate", None)
        .header("content-type", "application/json")
        .body(format!("{{\"config\": {deep}}}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    // Unknown ids and routes.
    for path in [
        "/api/v1/templates/999",
        "/api/v1/templates/999/versions/1",
        "/api/v1/nothing-here",
        "/api/v1/shared/shr_unknown",
    ] {
        let (s, _) = api.call(Method::GET, path, a, None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
    }
    let (s, _) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{id}/versions/two"),
            a,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Found by schemathesis: each gets a clear 4xx, never a 5xx.
    let cases: Vec<(Method, String, Option<Value>, StatusCode, &str)> = vec![
        (
            Method::POST,
            "/api/v1/templates".into(),
            Some(json!({"name": "x", "team_id": 999, "config": {}})),
            StatusCode::NOT_FOUND,
            "team 999",
        ),
        (
            Method::POST,
            "/api/v1/validate".into(),
            Some(json!({"config": [1, 2]})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "JSON object",
        ),
        (
            Method::POST,
            "/api/v1/validate".into(),
            Some(json!({"config": {}, "config_text": null})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "config_text",
        ),
        (
            Method::POST,
            "/api/v1/validate".into(),
            Some(json!({"config": {}, "config_text": "{}"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not both",
        ),
        (
            Method::GET,
            "/api/v1/templates?limit=500".into(),
            None,
            StatusCode::BAD_REQUEST,
            "limit 500",
        ),
        (
            Method::GET,
            "/api/v1/templates?limit=lots".into(),
            None,
            StatusCode::BAD_REQUEST,
            "query",
        ),
        (
            Method::GET,
            "/api/v1/templates/abc".into(),
            None,
            StatusCode::BAD_REQUEST,
            "path",
        ),
        (
            Method::GET,
            "/api/v1/teams/999/members".into(),
            None,
            StatusCode::NOT_FOUND,
            "team 999",
        ),
        (
            Method::PUT,
            "/api/v1/templates".into(),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            "PUT",
        ),
        (
            Method::PATCH,
            "/api/v1/users/1".into(),
            Some(json!([])),
            StatusCode::UNPROCESSABLE_ENTITY,
            "object",
        ),
        (
            Method::PATCH,
            "/api/v1/users/1".into(),
            Some(json!({"is_admin": false})),
            StatusCode::CONFLICT,
            "last server administrator",
        ),
    ];
    for (m, path, body, status, needle) in cases {
        let (s, e) = api.call(m.clone(), &path, a, body).await;
        assert_eq!(s, status, "{m} {path}: {e}");
        let msg = e["error"]["message"].as_str().unwrap_or("");
        assert!(msg.contains(needle), "{m} {path}: {msg}");
    }
    // An integral float is a valid integer for the request's own fields.
    let (s, v) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{id}/share"),
            a,
            Some(json!({"version": 1.0})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    // After all that, version 1 is intact and still the head.
    let (_, v) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{id}/versions/head"),
            a,
            None,
        )
        .await;
    assert_eq!(v["version"], 1);
    assert_eq!(v["config"]["train_batch_size"], 1);
}

#[tokio::test]
async fn sessions_csrf_login_limit_and_signin_link() {
    let store = common::sqlite_store().await;
    let (base, _) = common::start_server(store.clone(), None).await;
    let http = common::http_client();
    let hash = ds_studio_server::secrets::hash_password("s3cret-pass");
    let u = store
        .create_user("mei", "Mei", Some(&hash), false)
        .await
        .unwrap();
    let team = store.team_by_name("default").await.unwrap();
    store.put_member(team.id, u.id, Role::Editor).await.unwrap();

    let r = http
        .post(format!("{base}/api/v1/auth/login"))
        .json(&json!({"username": "mei", "password": "wrong"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = http
        .post(format!("{base}/api/v1/auth/login"))
        .json(&json!({"username": "mei", "password": "s3cret-pass"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let session = cookie.split(';').next().unwrap().to_string();
    let me: Value = r.json().await.unwrap();
    let csrf = me["csrf_token"].as_str().unwrap().to_string();
    assert_eq!(me["user"]["name"], "mei");
    assert_eq!(me["teams"][0]["role"], "editor");

    // Reads need only the cookie; writes also the CSRF header.
    let r = http
        .get(format!("{base}/api/v1/templates"))
        .header("cookie", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let body = json!({"name": "from-browser", "config": {"train_batch_size": 1}});
    let r = http
        .post(format!("{base}/api/v1/templates"))
        .header("cookie", &session)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = http
        .post(format!("{base}/api/v1/templates"))
        .header("cookie", &session)
        .header("x-csrf-token", "forged")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = http
        .post(format!("{base}/api/v1/templates"))
        .header("cookie", &session)
        .header("x-csrf-token", &csrf)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);

    // Tokens: created once, listed by prefix, revocable.
    let r = http
        .post(format!("{base}/api/v1/tokens"))
        .header("cookie", &session)
        .header("x-csrf-token", &csrf)
        .json(&json!({"name": "laptop"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let tok: Value = r.json().await.unwrap();
    let secret = tok["token"].as_str().unwrap().to_string();
    let r = http
        .get(format!("{base}/api/v1/auth/me"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let list: Value = http
        .get(format!("{base}/api/v1/tokens"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list[0]["prefix"], secret[..12]);
    assert!(
        !list.to_string().contains(&secret),
        "the token itself is never listed"
    );
    let r = http
        .delete(format!("{base}/api/v1/tokens/{}", tok["id"]))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    let r = http
        .get(format!("{base}/api/v1/auth/me"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

    // Logout ends the session.
    let r = http
        .post(format!("{base}/api/v1/auth/logout"))
        .header("cookie", &session)
        .header("x-csrf-token", &csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    let r = http
        .get(format!("{base}/api/v1/auth/me"))
        .header("cookie", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

    // Ten wrong passwords lock the name out for a while (429 with Retry-After).
    let mut last = StatusCode::OK;
    for _ in 0..11 {
        last = http
            .post(format!("{base}/api/v1/auth/login"))
            .json(&json!({"username": "mei", "password": "nope-nope"}))
            .send()
            .await
            .unwrap()
            .status();
    }
    assert_eq!(last, StatusCode::TOO_MANY_REQUESTS);

    // The first-start link signs in once.
    let (link, _) = store
        .create_credential(u.id, CredentialKind::Signin, "link", None)
        .await
        .unwrap();
    let r = http
        .get(format!("{base}/api/v1/auth/signin?token={link}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert!(r.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .starts_with("ds_session=dsc_"));
    let r = http
        .get(format!("{base}/api/v1/auth/signin?token={link}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn openapi_lists_every_route_the_router_answers() {
    let (api, _) = Api::start(ADMIN).await;
    let (s, doc) = api.call(Method::GET, "/api/openapi.json", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    for op in ds_studio_shared::api::endpoints::ENDPOINTS {
        assert!(
            doc["paths"][op.path][op.method.as_str()].is_object(),
            "{}",
            op.name
        );
        let path = op
            .path
            .replace("{id}", "1")
            .replace("{user_id}", "1")
            .replace("{n}", "1")
            .replace("{share_id}", "1")
            .replace("{job}", "1")
            .replace("{token}", "x");
        let m = Method::from_bytes(op.method.as_str().to_uppercase().as_bytes()).unwrap();
        let (_, body) = api.call(m, &path, None, None).await;
        let msg = body["error"]["message"].as_str().unwrap_or("");
        assert!(
            !msg.starts_with("no API route") && !msg.contains("is not allowed on this route"),
            "{}: {msg}",
            op.name
        );
    }
    let r = api
        .req(Method::GET, "/api/docs/", None)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.unwrap().contains("swagger"));
}

/// Every route × (anonymous, member of another team, viewer, editor, team admin, server admin,
/// holder of a share link) → the expected status.
#[tokio::test]
async fn authorization_matrix() {
    let (api, store) = Api::start(ADMIN).await;
    let team_a = store.create_team("team-a").await.unwrap().id;
    let team_b = store.create_team("team-b").await.unwrap().id;
    let (_, other) = member(&store, "other", team_b, Some(Role::Editor)).await;
    let (_, viewer) = member(&store, "viewer", team_a, Some(Role::Viewer)).await;
    let (_, editor) = member(&store, "editor", team_a, Some(Role::Editor)).await;
    let (_, tadmin) = member(&store, "tadmin", team_a, Some(Role::Admin)).await;
    let (spare, _) = member(&store, "spare", team_a, Some(Role::Viewer)).await;
    let create = |name: String| {
        let api = &api;
        async move {
            let (s, t) = api
                .call(
                    Method::POST,
                    "/api/v1/templates",
                    Some(ADMIN),
                    Some(
                        json!({"name": name, "team_id": team_a, "config": {"train_batch_size": 1}}),
                    ),
                )
                .await;
            assert_eq!(s, StatusCode::CREATED, "{t}");
            t["id"].as_i64().unwrap()
        }
    };
    let t = create("shared-one".into()).await;
    let (_, sh) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{t}/share"),
            Some(ADMIN),
            None,
        )
        .await;
    let share = sh["token"].as_str().unwrap().to_string();

    // Callers: None = anonymous; the share holder has no account, only the link.
    let callers: [(&str, Option<&str>); 7] = [
        ("anonymous", None),
        ("other team", Some(&other)),
        ("viewer", Some(&viewer)),
        ("editor", Some(&editor)),
        ("team admin", Some(&tadmin)),
        ("server admin", Some(ADMIN)),
        ("share holder", None),
    ];
    use StatusCode as S;
    const U: S = S::UNAUTHORIZED;
    const F: S = S::FORBIDDEN;
    const N: S = S::NOT_FOUND;
    const OK: S = S::OK;
    const C: S = S::CREATED;
    const D: S = S::NO_CONTENT;
    let tp = format!("/api/v1/templates/{t}");
    let mut failures = Vec::new();
    let mut cases = 0;
    // (method, path, body, expected per caller)
    let mut rows: Vec<(Method, String, Option<Value>, [S; 7])> = vec![
        (
            Method::GET,
            "/api/v1/templates".into(),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (Method::GET, tp.clone(), None, [U, N, OK, OK, OK, OK, U]),
        (
            Method::GET,
            format!("{tp}/versions"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            format!("{tp}/versions/1"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            format!("{tp}/diff?from=1&to=1"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            format!("{tp}/shares"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::PATCH,
            tp.clone(),
            Some(json!({"description": "x"})),
            [U, N, F, OK, OK, OK, U],
        ),
        (
            Method::POST,
            format!("{tp}/share"),
            None,
            [U, N, F, C, C, C, U],
        ),
        (
            Method::GET,
            format!("/api/v1/shared/{share}"),
            None,
            [OK, OK, OK, OK, OK, OK, OK],
        ),
        (
            Method::POST,
            "/api/v1/validate".into(),
            Some(json!({"config": {"train_batch_size": 1}})),
            [OK; 7],
        ),
        (Method::GET, "/api/v1/schema".into(), None, [OK; 7]),
        (
            Method::GET,
            format!("/api/v1/teams/{team_a}"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            format!("/api/v1/teams/{team_a}/members"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::PUT,
            format!("/api/v1/teams/{team_a}/members/{spare}"),
            Some(json!({"role": "viewer"})),
            [U, N, F, F, OK, OK, U],
        ),
        (
            Method::POST,
            format!("/api/v1/teams/{team_a}/members"),
            Some(json!({"user": "spare", "role": "viewer"})),
            [U, N, F, F, OK, OK, U],
        ),
        (
            Method::PATCH,
            format!("/api/v1/teams/{team_a}"),
            Some(json!({"name": "team-a"})),
            [U, N, F, F, OK, OK, U],
        ),
        (
            Method::POST,
            format!("/api/v1/users/{spare}/signin-link"),
            Some(json!({})),
            [U, F, F, F, F, C, U],
        ),
        (
            Method::GET,
            "/api/v1/users".into(),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            "/api/v1/teams".into(),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            "/api/v1/tokens".into(),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            "/api/v1/auth/me".into(),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            format!("/api/v1/users/{spare}/tokens"),
            None,
            [U, F, F, F, F, OK, U],
        ),
        (
            Method::PATCH,
            format!("/api/v1/users/{spare}"),
            Some(json!({"display_name": "S"})),
            [U, F, F, F, F, OK, U],
        ),
        (
            Method::GET,
            format!("/api/v1/users/{spare}"),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (
            Method::POST,
            format!("/api/v1/users/{spare}/tokens"),
            Some(json!({"name": "matrix"})),
            [U, F, F, F, F, C, U],
        ),
        (
            Method::POST,
            "/api/v1/tokens".into(),
            Some(json!({"name": "matrix"})),
            [U, C, C, C, C, C, U],
        ),
        (
            Method::DELETE,
            "/api/v1/tokens/999999".into(),
            None,
            [U, N, N, N, N, N, U],
        ),
        (
            Method::DELETE,
            format!("{tp}/shares/999999"),
            None,
            [U, N, F, N, N, N, U],
        ),
        (
            Method::DELETE,
            "/api/v1/runner-tokens/999999".into(),
            None,
            [U, F, F, F, F, N, U],
        ),
        (Method::GET, "/api/v1/schema/0.19.8".into(), None, [OK; 7]),
        (
            Method::GET,
            "/api/v1/deepspeed/releases".into(),
            None,
            [OK; 7],
        ),
        (Method::GET, "/api/v1/auth/session".into(), None, [OK; 7]),
        // The model catalog and the estimate: public (an anonymous caller sees no runners).
        (Method::GET, "/api/v1/models".into(), None, [OK; 7]),
        (
            Method::POST,
            "/api/v1/estimate".into(),
            Some(
                json!({"config": {"train_micro_batch_size_per_gpu": 1}, "model": {"name": "gpt2"}}),
            ),
            [OK; 7],
        ),
        (
            Method::POST,
            "/api/v1/trainer-args/import".into(),
            Some(json!({"text": "per_device_train_batch_size: 4\ndeepspeed: ds.json\n"})),
            [OK; 7],
        ),
        // Wrong credentials for everyone: the route is public, the answer the same.
        (
            Method::POST,
            "/api/v1/auth/login".into(),
            Some(json!({"username": "nobody", "password": "wrong"})),
            [U; 7],
        ),
        // With a bearer token there is no session to end.
        (
            Method::POST,
            "/api/v1/auth/logout".into(),
            None,
            [U, D, D, D, D, D, U],
        ),
    ];
    // Jobs and runners. A runner `elsewhere` takes every job of this test, so the matrix's own
    // runner never claims one (its claim answers 204).
    // Runners authenticate with runner tokens, which only a server admin makes.
    let runner_token = |name: &'static str| {
        let api = &api;
        async move {
            let (s, r) = api
                .call(
                    Method::POST,
                    "/api/v1/runner-tokens",
                    Some(ADMIN),
                    Some(json!({"runner": name})),
                )
                .await;
            assert_eq!(s, StatusCode::CREATED, "{r}");
            r["token"].as_str().unwrap().to_string()
        }
    };
    let elsewhere = runner_token("elsewhere").await;
    let matrix = runner_token("matrix").await;
    let (s, r) = api
        .call(
            Method::POST,
            "/api/v1/runners",
            Some(&elsewhere),
            Some(json!({"name": "elsewhere", "backend": "local"})),
        )
        .await;
    assert_eq!(s, C, "{r}");
    let (_, mr) = api
        .call(
            Method::POST,
            "/api/v1/runners",
            Some(&matrix),
            Some(json!({"name": "matrix", "backend": "local"})),
        )
        .await;
    let runner = mr["id"].as_i64().unwrap();
    let job_body = json!({"template_id": t, "workload": {"builtin": "gpt"}, "runner": "elsewhere"});
    let submit = || {
        let api = &api;
        let body = job_body.clone();
        async move {
            let (s, j) = api
                .call(Method::POST, "/api/v1/jobs", Some(ADMIN), Some(body))
                .await;
            assert_eq!(s, C, "{j}");
            j["id"].as_i64().unwrap()
        }
    };
    let job = submit().await;
    // An ended job: its event stream ends after the state, so it can be read whole.
    let ended = submit().await;
    api.call(
        Method::POST,
        &format!("/api/v1/jobs/{ended}/cancel"),
        Some(ADMIN),
        None,
    )
    .await;
    let jp = format!("/api/v1/jobs/{job}");
    const X: S = S::CONFLICT;
    rows.extend([
        (
            Method::GET,
            "/api/v1/jobs".into(),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (Method::GET, jp.clone(), None, [U, N, OK, OK, OK, OK, U]),
        (
            Method::GET,
            format!("{jp}/metrics"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            format!("{jp}/logs"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            format!("/api/v1/jobs/{ended}/events"),
            None,
            [U, N, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            "/api/v1/runners".into(),
            None,
            [U, OK, OK, OK, OK, OK, U],
        ),
        (
            Method::GET,
            "/api/v1/runner-tokens".into(),
            None,
            [U, F, F, F, F, OK, U],
        ),
        (
            Method::POST,
            "/api/v1/runner-tokens".into(),
            Some(json!({"runner": "made-by-matrix"})),
            [U, F, F, F, F, C, U],
        ),
        (
            Method::POST,
            "/api/v1/teams".into(),
            Some(json!({"name": "matrix-team"})),
            [U, F, F, F, F, C, U],
        ),
    ]);
    // The runner routes take only a runner token: no user's, not even a server admin's.
    let runner_rows = [
        (
            Method::POST,
            "/api/v1/runners".to_string(),
            Some(json!({"name": "matrix", "backend": "local"})),
            C,
        ),
        (
            Method::POST,
            format!("/api/v1/runners/{runner}/heartbeat"),
            Some(json!({"running": []})),
            OK,
        ),
        (
            Method::POST,
            format!("/api/v1/runners/{runner}/claim"),
            None,
            D,
        ),
        (
            Method::POST,
            format!("/api/v1/runners/{runner}/jobs/{job}/events"),
            Some(json!({"events": []})),
            X,
        ),
        (
            Method::POST,
            format!("/api/v1/runners/{runner}/jobs/{job}/state"),
            Some(json!({"state": "failed"})),
            X,
        ),
    ];
    for (m, path, body, with_token) in runner_rows {
        let mut who: Vec<(&str, Option<&str>, S)> = callers
            .iter()
            .map(|(n, w)| (*n, *w, if w.is_some() { F } else { U }))
            .collect();
        who.push(("the runner's token", Some(&matrix), with_token));
        // Another runner's token is refused on this runner's routes.
        // (On events, a job that is not the path's runner's answers 409 before any name check.)
        let other_runner = if path.ends_with("/events") { X } else { F };
        who.push(("another runner's token", Some(&elsewhere), other_runner));
        who.push(("an unknown runner token", Some("dsr_unknown"), U));
        for (name, w, expect) in who {
            let (st, b) = api.call(m.clone(), &path, w, body.clone()).await;
            cases += 1;
            if st != expect {
                failures.push(format!(
                    "{m} {path} as {name}: {st} (expected {expect}) {b}"
                ));
            }
        }
    }
    // A runner token is no user credential: every user route refuses it.
    let (st, b) = api
        .call(Method::GET, "/api/v1/templates", Some(&matrix), None)
        .await;
    cases += 1;
    if st != U {
        failures.push(format!(
            "GET /api/v1/templates with a runner token: {st} {b}"
        ));
    }
    for (i, (name, who)) in callers.iter().enumerate() {
        let queued = submit().await;
        let checks = [
            (
                Method::POST,
                "/api/v1/jobs".to_string(),
                Some(job_body.clone()),
                [U, N, F, C, C, C, U][i],
            ),
            (
                Method::PATCH,
                format!("/api/v1/jobs/{queued}"),
                Some(json!({"note": "matrix"})),
                [U, N, F, OK, OK, OK, U][i],
            ),
            (
                Method::POST,
                format!("/api/v1/jobs/{queued}/cancel"),
                None,
                [U, N, F, OK, OK, OK, U][i],
            ),
        ];
        for (m, path, body, expect) in checks {
            let (s, b) = api.call(m.clone(), &path, *who, body).await;
            cases += 1;
            if s != expect {
                failures.push(format!("{m} {path} as {name}: {s} (expected {expect}) {b}"));
            }
        }
    }
    // Sweeps: reading takes the viewer role, starting, cancelling and saving the best the
    // editor role; another team's caller does not learn they exist.
    let sweep_body = json!({"template_id": t, "workload": {"builtin": "gpt"}, "runners": ["elsewhere"],
        "grid": [{"key": "train_micro_batch_size_per_gpu", "values": [1]}]});
    let start_sweep = || {
        let api = &api;
        let body = sweep_body.clone();
        async move {
            let (s, w) = api
                .call(Method::POST, "/api/v1/sweeps", Some(ADMIN), Some(body))
                .await;
            assert_eq!(s, C, "{w}");
            w["id"].as_i64().unwrap()
        }
    };
    let ended_sweep = start_sweep().await;
    api.call(
        Method::POST,
        &format!("/api/v1/sweeps/{ended_sweep}/cancel"),
        Some(ADMIN),
        None,
    )
    .await;
    for (i, (name, who)) in callers.iter().enumerate() {
        let running = start_sweep().await;
        let checks = [
            (
                Method::GET,
                "/api/v1/sweeps".to_string(),
                None,
                [U, OK, OK, OK, OK, OK, U][i],
            ),
            (
                Method::GET,
                format!("/api/v1/sweeps/{running}"),
                None,
                [U, N, OK, OK, OK, OK, U][i],
            ),
            (
                Method::GET,
                format!("/api/v1/sweeps/{ended_sweep}/events"),
                None,
                [U, N, OK, OK, OK, OK, U][i],
            ),
            (
                Method::POST,
                "/api/v1/sweeps".to_string(),
                Some(sweep_body.clone()),
                [U, N, F, C, C, C, U][i],
            ),
            (
                Method::POST,
                format!("/api/v1/sweeps/{running}/save-best"),
                None,
                [U, N, F, X, X, X, U][i],
            ),
            (
                Method::POST,
                format!("/api/v1/sweeps/{running}/cancel"),
                None,
                [U, N, F, OK, OK, OK, U][i],
            ),
        ];
        for (m, path, body, expect) in checks {
            let (s, b) = api.call(m.clone(), &path, *who, body).await;
            cases += 1;
            if s != expect {
                failures.push(format!("{m} {path} as {name}: {s} (expected {expect}) {b}"));
            }
        }
    }
    // Saving a version: the body names the current head, read just before each call.
    for (i, (name, who)) in callers.iter().enumerate() {
        let (_, tm) = api.call(Method::GET, &tp, Some(ADMIN), None).await;
        let head = tm["head_version"].as_i64().unwrap();
        let expect = [U, N, F, C, C, C, U][i];
        let (s, b) = api
            .call(Method::POST, &format!("{tp}/versions"), *who, Some(json!({"config": {"train_batch_size": 2}, "message": name, "base_version": head})))
            .await;
        cases += 1;
        if s != expect {
            failures.push(format!(
                "POST {tp}/versions as {name}: {s} (expected {expect}) {b}"
            ));
        }
    }
    // Creating, forking and deleting: fresh names and a fresh template per caller.
    for (i, (name, who)) in callers.iter().enumerate() {
        let victim = create(format!("victim-{i}")).await;
        let checks = [
            (
                Method::POST,
                "/api/v1/templates".to_string(),
                Some(json!({"name": format!("new-{i}"), "team_id": team_a, "config": {}})),
                [U, N, F, C, C, C, U][i],
            ),
            (
                Method::POST,
                format!("{tp}/fork"),
                Some(json!({"name": format!("fork-{i}"), "team_id": team_a})),
                [U, N, F, C, C, C, U][i],
            ),
            (
                Method::DELETE,
                format!("/api/v1/templates/{victim}"),
                None,
                [U, N, F, F, D, D, U][i],
            ),
            (
                Method::POST,
                "/api/v1/users".to_string(),
                Some(json!({"name": format!("made-{i}")})),
                [U, F, F, F, F, C, U][i],
            ),
        ];
        for (m, path, body, expect) in checks {
            let (s, b) = api.call(m.clone(), &path, *who, body).await;
            cases += 1;
            if s != expect {
                failures.push(format!("{m} {path} as {name}: {s} (expected {expect}) {b}"));
            }
        }
    }
    for (m, path, body, expect) in rows.drain(..) {
        for (i, (name, who)) in callers.iter().enumerate() {
            let (s, b) = api.call(m.clone(), &path, *who, body.clone()).await;
            cases += 1;
            if s != expect[i] {
                failures.push(format!(
                    "{m} {path} as {name}: {s} (expected {}) {b}",
                    expect[i]
                ));
            }
        }
    }
    assert!(cases > 240, "{cases} cases");
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every endpoint of the table is in the matrix: a new route cannot be left out of it.
    // These three change who belongs where and have tests of their own (a team deleted:
    // `hardening_two.rs`; a member removed: `team_admin.rs`; a share link forked: this file and
    // `hardening_two.rs`); the list may only shrink.
    const ELSEWHERE: &[&str] = &["DeleteTeam", "RemoveMember", "ForkShared"];
    let called = api.called.lock().unwrap().clone();
    let missing: Vec<&str> = ds_studio_shared::api::endpoints::ENDPOINTS
        .iter()
        .filter(|e| !ELSEWHERE.contains(&e.name))
        .filter(|e| {
            !called.iter().any(|(m, p)| {
                m.as_str().eq_ignore_ascii_case(e.method.as_str()) && path_fits(e.path, p)
            })
        })
        .map(|e| e.name)
        .collect();
    assert!(
        missing.is_empty(),
        "endpoints the matrix never calls: {missing:?}"
    );
}

/// Whether the concrete `path` (a query allowed) is one of the table's `pattern`
/// (`/api/v1/jobs/{id}`).
fn path_fits(pattern: &str, path: &str) -> bool {
    let path = path.split('?').next().unwrap_or(path);
    let (a, b): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(p, s)| p == s || (p.starts_with('{') && !s.is_empty()))
}

/// Runners belong to teams: a team's runner takes only that team's jobs, is listed only to its
/// members, and cannot be requested by another team; a runner token registers only its name.
#[tokio::test]
async fn a_teams_runner_takes_only_that_teams_jobs() {
    let (api, store) = Api::start(ADMIN).await;
    let team_a = store.create_team("team-a").await.unwrap().id;
    let team_b = store.create_team("team-b").await.unwrap().id;
    let (_, alice) = member(&store, "alice", team_a, Some(Role::Editor)).await;
    let (_, bob) = member(&store, "bob", team_b, Some(Role::Editor)).await;
    let (s, made) = api
        .call(
            Method::POST,
            "/api/v1/runner-tokens",
            Some(ADMIN),
            Some(json!({"runner": "gpu-b", "team_id": team_b})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{made}");
    let token = made["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("dsr_"));
    // One runner name serves one team: a token for every team under the same name is refused.
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/runner-tokens",
            Some(ADMIN),
            Some(json!({"runner": "gpu-b"})),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    // Only the name it was made for.
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/runners",
            Some(&token),
            Some(json!({"name": "gpu-a", "backend": "local"})),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{b}");
    assert!(
        b["error"]["message"].as_str().unwrap().contains("gpu-b"),
        "{b}"
    );
    let (s, r) = api
        .call(
            Method::POST,
            "/api/v1/runners",
            Some(&token),
            Some(json!({"name": "gpu-b", "backend": "local"})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    assert_eq!(r["team_id"], team_b);
    let runner = r["id"].as_i64().unwrap();
    // Listed to team B and to admins, not to team A.
    for (who, sees) in [(&alice, false), (&bob, true), (&ADMIN.to_string(), true)] {
        let (_, list) = api
            .call(Method::GET, "/api/v1/runners", Some(who), None)
            .await;
        let names: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(names.contains(&"gpu-b"), sees, "{names:?}");
    }
    let template = |who: &str, team: i64, name: &str| {
        let api = &api;
        let (who, name) = (who.to_string(), name.to_string());
        async move {
            let (s, t) = api
                .call(
                    Method::POST,
                    "/api/v1/templates",
                    Some(&who),
                    Some(json!({"name": name, "team_id": team, "config": {"train_batch_size": 1}})),
                )
                .await;
            assert_eq!(s, StatusCode::CREATED, "{t}");
            t["id"].as_i64().unwrap()
        }
    };
    let ta = template(&alice, team_a, "a").await;
    let tb = template(&bob, team_b, "b").await;
    // Team A cannot ask for team B's runner.
    let (s, b) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(&alice),
            Some(json!({"template_id": ta, "workload": {"builtin": "gpt"}, "runner": "gpu-b"})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b}");
    assert!(
        b["error"]["message"].as_str().unwrap().contains("gpu-b"),
        "{b}"
    );
    let (s, ja) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(&alice),
            Some(json!({"template_id": ta, "workload": {"builtin": "gpt"}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{ja}");
    let (s, jb) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(&bob),
            Some(json!({"template_id": tb, "workload": {"builtin": "gpt"}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{jb}");
    // Team A's job is older, but team B's runner claims team B's.
    let (s, claimed) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{runner}/claim"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{claimed}");
    assert_eq!(claimed["job"]["id"], jb["id"]);
    let (s, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{runner}/claim"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT, "team A's job stays queued");
    // A revoked token is refused at once.
    let id = made["id"].as_i64().unwrap();
    let (s, _) = api
        .call(
            Method::DELETE,
            &format!("/api/v1/runner-tokens/{id}"),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{runner}/heartbeat"),
            Some(&token),
            Some(json!({"running": []})),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

/// A job is validated for the DeepSpeed release of the runner it can go to, and a refusal names
/// the runner and its release.
#[tokio::test]
async fn a_job_is_judged_for_its_runners_deepspeed_release() {
    let (api, store) = Api::start(ADMIN).await;
    let team = store.create_team("recipes").await.unwrap().id;
    let (_, lin) = member(&store, "lin", team, Some(Role::Editor)).await;
    let mut tokens = Vec::new();
    for (name, release) in [("old-cluster", "0.18.4"), ("new-cluster", "0.19.8")] {
        let (s, made) = api
            .call(
                Method::POST,
                "/api/v1/runner-tokens",
                Some(ADMIN),
                Some(json!({"runner": name, "team_id": team})),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{made}");
        let token = made["token"].as_str().unwrap().to_string();
        let (s, r) = api
            .call(
                Method::POST,
                "/api/v1/runners",
                Some(&token),
                Some(json!({"name": name, "backend": "local", "deepspeed": release})),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
        assert_eq!(r["deepspeed"], release);
        tokens.push(token);
    }
    // An apex recipe saved for 0.18.4.
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(&lin),
            Some(json!({"name": "apex", "team_id": team,
                "config": {"train_batch_size": 1, "amp": {"enabled": true, "opt_level": "O1"}},
                "context": {"deepspeed_version": "0.18.4"}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let tid = t["id"].as_i64().unwrap();
    let submit = |runner: &str| {
        let (api, lin, runner) = (&api, lin.clone(), runner.to_string());
        async move {
            api.call(
                Method::POST,
                "/api/v1/jobs",
                Some(&lin),
                Some(json!({"template_id": tid, "workload": {"builtin": "gpt"}, "runner": runner})),
            )
            .await
        }
    };
    let (s, j) = submit("old-cluster").await;
    assert_eq!(s, StatusCode::CREATED, "{j}");
    let (s, e) = submit("new-cluster").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("runner new-cluster runs DeepSpeed 0.19.8, which rejects it"),
        "{msg}"
    );
    assert_eq!(e["error"]["details"]["deepspeed"], "0.19.8");
    assert_eq!(
        e["error"]["details"]["diagnostics"][0]["code"],
        "removed-key"
    );
}

/// A config written for 8 GPUs (128 = 4 × 4 × 8) refused on 1 GPU, then fitted: the job runs
/// the fitted config (gradient accumulation 4 → 32, global batch kept), the runner gets it,
/// and the version stays as saved.
#[tokio::test]
async fn fit_to_runner_keeps_the_global_batch_and_the_version() {
    let (api, _) = Api::start(ADMIN).await;
    let text = "{\n  \"train_batch_size\": 128,\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": 4\n}\n";
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "preset-8", "config_text": text, "context": {"world_size": 8}})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let id = t["id"].as_i64().unwrap();
    let job = |fit: bool| json!({"template_id": id, "workload": {"builtin": "gpt"}, "gpus": 1, "fit_to_runner": fit});
    let (s, refused) = api
        .call(Method::POST, "/api/v1/jobs", Some(ADMIN), Some(job(false)))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(refused.to_string().contains("128"), "{refused}");
    let (s, j) = api
        .call(Method::POST, "/api/v1/jobs", Some(ADMIN), Some(job(true)))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{j}");
    assert_eq!(
        j["fit"]["changes"],
        json!([{"key": "gradient_accumulation_steps", "from": 4, "to": 32}])
    );
    assert_eq!(j["fit"]["keeps_global_batch"], true);
    let (_, shown) = api
        .call(
            Method::GET,
            &format!("/api/v1/jobs/{}", j["id"]),
            Some(ADMIN),
            None,
        )
        .await;
    assert!(shown["fit"]["config_text"]
        .as_str()
        .unwrap()
        .contains("\"gradient_accumulation_steps\": 32"));
    // The version is untouched.
    let (_, v) = api
        .call(
            Method::GET,
            &format!("/api/v1/templates/{id}/versions/1"),
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(v["config_text"], text, "{v}");
    // A runner claims the fitted config.
    let (token, r) = api.register_runner(ADMIN, "cpu-1").await;
    let (s, claimed) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{}/claim", r["id"]),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{claimed}");
    assert!(claimed["config_text"]
        .as_str()
        .unwrap()
        .contains("\"gradient_accumulation_steps\": 32"));
    // Nothing to fit is said as such.
    let (s, e) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "no-batch", "config_text": "{\"zero_optimization\": {\"stage\": 2}}"})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    let (s, e) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(json!({"template_id": e["id"], "workload": {"builtin": "gpt"}, "fit_to_runner": true})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("nothing to fit"),
        "{e}"
    );
}

/// The runs table over HTTP: facts from the config as run (fitted here), labels given at
/// submission and by PATCH, filters and sort orders in the query, and every bad query or label
/// refused with a message naming it, with nothing stored changed.
#[tokio::test]
async fn runs_table_filters_sorts_and_labels_over_http() {
    let (api, _) = Api::start(ADMIN).await;
    let mk = |name: &str, text: &str| json!({"name": name, "config_text": text, "context": {"world_size": 8}});
    let (s, z3) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(mk("z3", r#"{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": true}, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}}"#)),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{z3}");
    let (_, z1) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(mk("z1", r#"{"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1, "optimizer": {"type": "AdamW", "params": {"lr": 0.001}}, "zero_optimization": {"stage": 1}}"#)),
        )
        .await;
    let submit = |t: &Value, gpus: u32, extra: Value| {
        let mut body = json!({"template_id": t["id"], "workload": {"builtin": "gpt"}, "gpus": gpus, "fit_to_runner": true});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let (s, a) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(submit(
                &z3,
                1,
                json!({"name": "zero3 on one", "tags": ["sweep", "z3"]}),
            )),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    // Fitted from 8 GPUs to 1: the facts are the fitted config's (micro batch 2, GAS 32).
    assert_eq!(a["facts"]["zero_stage"], 3);
    assert_eq!(a["facts"]["precision"], "bf16");
    assert_eq!(a["facts"]["offload"], "optimizer:cpu");
    assert_eq!(a["facts"]["micro_batch"], 2);
    assert_eq!(a["name"], "zero3 on one");
    assert_eq!(a["tags"], json!(["sweep", "z3"]));
    let (_, b) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(submit(&z1, 2, json!({"tags": ["sweep"]}))),
        )
        .await;
    assert_eq!(b["facts"]["zero_stage"], 1);
    assert_eq!(b["facts"]["precision"], "fp32");
    let ids = |v: &Value| -> Vec<i64> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j["id"].as_i64().unwrap())
            .collect()
    };
    let (ai, bi) = (a["id"].as_i64().unwrap(), b["id"].as_i64().unwrap());
    for (query, want) in [
        ("", vec![bi, ai]),
        ("?sort=id", vec![ai, bi]),
        ("?sort=-world", vec![bi, ai]),
        ("?sort=micro_batch", vec![bi, ai]),
        ("?zero_stage=3", vec![ai]),
        ("?precision=fp32", vec![bi]),
        ("?offload=cpu", vec![ai]),
        ("?offload=none", vec![bi]),
        ("?world=2", vec![bi]),
        ("?tag=sweep", vec![bi, ai]),
        ("?tag=z3&state=queued", vec![ai]),
        ("?q=ZERO3", vec![ai]),
        ("?q=z1", vec![bi]),
        ("?state=succeeded,failed", vec![]),
        ("?sort=id&limit=1&offset=1", vec![bi]),
    ] {
        let (s, page) = api
            .call(
                Method::GET,
                &format!("/api/v1/jobs{query}"),
                Some(ADMIN),
                None,
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{query}: {page}");
        assert_eq!(ids(&page), want, "{query}");
    }
    let (_, page) = api
        .call(Method::GET, "/api/v1/jobs?limit=1", Some(ADMIN), None)
        .await;
    assert_eq!(page["total"], 2);
    // Bad queries are named, never silently ignored.
    for (query, says) in [
        ("?stage=3", "`stage` is not a filter"),
        ("?sort=loss", "sort `loss` is unknown"),
        ("?zero_stage=9", "0, 1, 2 or 3"),
        ("?precision=fp8", "precision `fp8`"),
        ("?state=done", "state `done`"),
        ("?world=x", "world `x`"),
        ("?tag=a%20b", "tag `a b`"),
        ("?limit=0", "limit 0"),
    ] {
        let (s, e) = api
            .call(
                Method::GET,
                &format!("/api/v1/jobs{query}"),
                Some(ADMIN),
                None,
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{query}: {e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains(says),
            "{query}: {e}"
        );
    }
    // Labels: PATCH replaces what it names; bad labels are refused and change nothing.
    let path = format!("/api/v1/jobs/{bi}");
    let (s, j) = api
        .call(
            Method::PATCH,
            &path,
            Some(ADMIN),
            Some(json!({"name": "  zero1 pair ", "note": "slow data loader", "tags": ["z1", "z1", "sweep"]})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{j}");
    assert_eq!(j["name"], "zero1 pair");
    assert_eq!(j["tags"], json!(["z1", "sweep"]));
    for (body, says) in [
        (json!({"tags": ["has space"]}), "tag `has space`"),
        (json!({"name": "x".repeat(121)}), "at most 120"),
        (json!({"note": "bell\u{7}"}), "control characters"),
        (json!({"colour": "red"}), "colour"),
        (json!({"tags": "z1"}), "tags"),
    ] {
        let (s, e) = api
            .call(Method::PATCH, &path, Some(ADMIN), Some(body.clone()))
            .await;
        assert!(s.is_client_error(), "{body}: {s} {e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains(says),
            "{body}: {e}"
        );
    }
    let (_, same) = api.call(Method::GET, &path, Some(ADMIN), None).await;
    assert_eq!(same["name"], "zero1 pair");
    assert_eq!(same["note"], "slow data loader");
    assert_eq!(same["tags"], json!(["z1", "sweep"]));
    let (s, _) = api
        .call(
            Method::PATCH,
            "/api/v1/jobs/999999",
            Some(ADMIN),
            Some(json!({"name": "x"})),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // A bad label at submission refuses the job.
    let (s, e) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(submit(&z1, 1, json!({"tags": ["ok", "not ok"]}))),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let (_, page) = api
        .call(Method::GET, "/api/v1/jobs", Some(ADMIN), None)
        .await;
    assert_eq!(page["total"], 2, "nothing stored by the refused submission");
}

/// What a job page reads: metric series downsampled in the database within bounds, read up to a
/// sequence number; the log's last lines; and the figures written when the job ends. Points come
/// through the runner's own ingest endpoint.
#[tokio::test]
async fn metrics_bounds_until_log_tail_and_figures() {
    let (api, _) = Api::start(ADMIN).await;
    let (_, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(ADMIN),
            Some(json!({"name": "long", "config_text": "{\"train_batch_size\": 8}"})),
        )
        .await;
    let (token, r) = api.register_runner(ADMIN, "feeder").await;
    let (s, job) = api
        .call(
            Method::POST,
            "/api/v1/jobs",
            Some(ADMIN),
            Some(
                json!({"template_id": t["id"], "workload": {"builtin": "gpt"}, "runner": "feeder"}),
            ),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{job}");
    let id = job["id"].as_i64().unwrap();
    let (s, _) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{}/claim", r["id"]),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    // 1,000 loss points (seq 1..=1000, loss = 1000 - step/8), then 30 log lines.
    let mut events: Vec<Value> = (1..=1000)
        .map(|i| json!({"kind": "metric", "seq": i, "ts": 1, "name": "Train/Samples/train_loss", "step": i * 8, "value": (1000 - i) as f64}))
        .collect();
    events.extend((1001..=1030).map(|i| json!({"kind": "log", "seq": i, "ts": 1, "stream": "stdout", "text": format!("line {i}")})));
    for batch in events.chunks(500) {
        let (s, ack) = api
            .call(
                Method::POST,
                &format!("/api/v1/runners/{}/jobs/{id}/events", r["id"]),
                Some(&token),
                Some(json!({"events": batch})),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{ack}");
    }
    let series = |q: &str| {
        let api = &api;
        let q = q.to_string();
        async move {
            api.call(
                Method::GET,
                &format!("/api/v1/jobs/{id}/metrics{q}"),
                Some(ADMIN),
                None,
            )
            .await
        }
    };
    for bad in [
        "?max_points=2",
        "?max_points=100001",
        "?max_points=-1",
        "?max_points=many",
        "?until=x",
    ] {
        let (s, e) = series(bad).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {e}");
        assert!(e["error"]["message"].as_str().is_some(), "{bad}: {e}");
    }
    let (_, three) = series("?max_points=3").await;
    assert_eq!(three[0]["total"], 1000);
    assert_eq!(
        three[0]["points"],
        json!([[8, 999.0], [7992, 499.5], [8000, 0.0]])
    );
    let (_, wide) = series("?max_points=100000").await;
    assert_eq!(wide[0]["points"].as_array().unwrap().len(), 1000);
    let (_, page) = series("?max_points=1000").await;
    assert_eq!(
        page[0]["points"].as_array().unwrap().len(),
        1000,
        "no fewer than asked when it fits"
    );
    // Up to a sequence number: what a page read before opening the stream after it.
    let (_, upto) = series("?until=400").await;
    let pts = upto[0]["points"].as_array().unwrap();
    assert_eq!((pts.len(), upto[0]["total"].as_i64()), (400, Some(400)));
    assert_eq!(pts.last().unwrap(), &json!([3200, 600.0]));
    // The log's tail, in order, optionally up to a sequence number; bad tails are named.
    let logs = |q: &str| {
        let api = &api;
        let q = q.to_string();
        async move {
            api.call(
                Method::GET,
                &format!("/api/v1/jobs/{id}/logs{q}"),
                Some(ADMIN),
                None,
            )
            .await
        }
    };
    let (_, tail) = logs("?tail=3").await;
    let texts: Vec<&str> = tail
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["line 1028", "line 1029", "line 1030"]);
    let (_, early) = logs("?tail=2&until=1010").await;
    let texts: Vec<&str> = early
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["line 1009", "line 1010"]);
    for bad in ["?tail=0", "?tail=10001"] {
        let (s, e) = logs(bad).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("tail"),
            "{e}"
        );
    }
    // Ended: the figures are written from every point (not the downsampled ones).
    let (s, done) = api
        .call(
            Method::POST,
            &format!("/api/v1/runners/{}/jobs/{id}/state", r["id"]),
            Some(&token),
            Some(json!({"state": "succeeded", "exit_code": 0})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{done}");
    assert_eq!(done["summary"]["final_loss"], 0.0);
    assert_eq!(done["summary"]["best_loss"], 0.0);
    let (_, listed) = api
        .call(
            Method::GET,
            "/api/v1/jobs?sort=final_loss",
            Some(ADMIN),
            None,
        )
        .await;
    assert_eq!(listed["items"][0]["id"], id);
    assert_eq!(listed["items"][0]["summary"]["final_loss"], 0.0);
}

/// `/auth/session` answers 200 signed in or not (the web UI asks on every load), where
/// `/auth/me` is a 401 for nobody.
#[tokio::test]
async fn session_state_is_200_for_nobody_and_names_the_caller() {
    let (api, _) = Api::start(ADMIN).await;
    let (s, nobody) = api
        .call(Method::GET, "/api/v1/auth/session", None, None)
        .await;
    assert_eq!(s, StatusCode::OK, "{nobody}");
    assert_eq!(nobody, json!({}));
    let (s, _) = api.call(Method::GET, "/api/v1/auth/me", None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, me) = api
        .call(Method::GET, "/api/v1/auth/session", Some(ADMIN), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{me}");
    assert_eq!(me["me"]["user"]["name"], "admin");
    assert!(me["me"]["teams"].is_array());
    // A token that is not one is said to be wrong (not taken for nobody).
    let (s, bad) = api
        .call(
            Method::GET,
            "/api/v1/auth/session",
            Some("dst_not-a-token"),
            None,
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{bad}");
    assert!(
        bad["error"]["message"].as_str().unwrap().contains("token"),
        "{bad}"
    );
}

/// Error messages in Chinese for `?lang=zh` or `Accept-Language: zh-CN` (the browser in 中文
/// mode), in English otherwise; the code and the status stay the same.
#[tokio::test]
async fn error_messages_speak_the_language_asked_for() {
    let (api, _) = Api::start(ADMIN).await;
    let a = Some(ADMIN);
    let zh = |r: reqwest::RequestBuilder| r.header("accept-language", "zh-CN,zh;q=0.9,en;q=0.8");
    let has_cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    // Not found, by header and by query.
    let resp = zh(api.req(Method::GET, "/api/v1/templates/9999", a))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["error"]["code"], "not_found");
    assert_eq!(v["error"]["message"], "模板 9999 不存在", "{v}");
    let (s, v) = api
        .call(Method::GET, "/api/v1/templates/9999?lang=zh", a, None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(v["error"]["message"], "模板 9999 不存在");
    // English without either.
    let (_, v) = api
        .call(Method::GET, "/api/v1/templates/9999", a, None)
        .await;
    assert_eq!(v["error"]["message"], "template 9999 not found");
    // A refused name keeps the value it names.
    let resp = zh(api.req(Method::POST, "/api/v1/templates", a))
        .json(&json!({"name": "a/b", "config_text": "{}"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let v: Value = resp.json().await.unwrap();
    let m = v["error"]["message"].as_str().unwrap();
    assert!(has_cjk(m) && m.contains("`a/b`"), "{m}");
    // The runs table's query errors (from the shared parser), and `lang` is not a filter.
    let (s, v) = api
        .call(Method::GET, "/api/v1/jobs?lang=zh&state=bogus", a, None)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(has_cjk(v["error"]["message"].as_str().unwrap()), "{v}");
    let (s, _) = api.call(Method::GET, "/api/v1/jobs?lang=zh", a, None).await;
    assert_eq!(s, StatusCode::OK);
    // Sign-in failures and unknown routes.
    let resp = zh(api.req(Method::POST, "/api/v1/auth/login", None))
        .json(&json!({"username": "nobody", "password": "wrong-password"}))
        .send()
        .await
        .unwrap();
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["error"]["message"], "用户名或密码错误", "{v}");
    let (s, v) = api
        .call(Method::GET, "/api/v1/nowhere?lang=zh", a, None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(v["error"]["message"], "没有 API 路由 /nowhere");
}

/// The memory check before launch: the measured out-of-memory run (xl, ZeRO-0, micro batch 96)
/// on a runner with one H200 is refused with `does_not_fit` (estimate, capacity, a micro batch
/// that keeps the global batch), in 中文 too; the suggested config is accepted; `force` runs the
/// original anyway; a CPU runner's host memory is the capacity of a CPU job; a runner that says
/// nothing of its devices is not checked.
#[tokio::test]
async fn a_job_that_does_not_fit_the_runners_memory_is_refused_before_launch() {
    let (api, store) = Api::start(ADMIN).await;
    let team = store.create_team("sizing").await.unwrap().id;
    let (_, lin) = member(&store, "lin", team, Some(Role::Editor)).await;
    let register = |name: &'static str, devices: serde_json::Value| {
        let api = &api;
        async move {
            let (s, made) = api
                .call(
                    Method::POST,
                    "/api/v1/runner-tokens",
                    Some(ADMIN),
                    Some(json!({"runner": name, "team_id": team})),
                )
                .await;
            assert_eq!(s, StatusCode::CREATED, "{made}");
            let token = made["token"].as_str().unwrap().to_string();
            let mut body = json!({"name": name, "backend": "local", "deepspeed": "0.19.8"});
            if !devices.is_null() {
                body["devices"] = devices;
            }
            let (s, r) = api
                .call(Method::POST, "/api/v1/runners", Some(&token), Some(body))
                .await;
            assert_eq!(s, StatusCode::CREATED, "{r}");
        }
    };
    let gib = 1u64 << 30;
    register(
        "h200",
        json!({"gpus": [{"index": 0, "name": "NVIDIA H200", "memory_bytes": 150_110_011_392u64}],
               "cpu_cores": 16, "host_memory_bytes": 128 * gib}),
    )
    .await;
    register(
        "laptop",
        json!({"gpus": [], "cpu_cores": 2, "host_memory_bytes": 8 * gib}),
    )
    .await;
    register("old", serde_json::Value::Null).await;
    let config = json!({"train_micro_batch_size_per_gpu": 96, "gradient_accumulation_steps": 1,
        "bf16": {"enabled": true},
        "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}},
        "zero_optimization": {"stage": 0}});
    let (s, t) = api
        .call(
            Method::POST,
            "/api/v1/templates",
            Some(&lin),
            Some(json!({"name": "too-big", "team_id": team, "config": config})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let tid = t["id"].as_i64().unwrap();
    let submit = |runner: &str, size: &str, extra: serde_json::Value| {
        let mut body = json!({"template_id": tid, "workload": {"builtin": "gpt", "size": size}, "runner": runner});
        for (k, v) in extra.as_object().cloned().unwrap_or_default() {
            body[k] = v;
        }
        let (api, lin) = (&api, lin.clone());
        async move {
            api.call(Method::POST, "/api/v1/jobs", Some(&lin), Some(body))
                .await
        }
    };
    let (s, e) = submit("h200", "xl", json!({})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert_eq!(e["error"]["code"], "does_not_fit");
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("runner `h200` (NVIDIA H200 · 139.8 GiB)"),
        "{msg}"
    );
    assert!(msg.contains("\"force\": true"), "{msg}");
    let d = &e["error"]["details"];
    assert!(
        d["estimate"]["gpu_peak_bytes"].as_u64().unwrap() > 140 * gib,
        "{d}"
    );
    assert_eq!(d["runner"], "h200");
    let micro = d["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "micro_batch")
        .expect("a micro batch that fits");
    assert!(
        micro["gpu_peak_bytes"].as_u64().unwrap()
            <= d["capacity"]["bytes_per_rank"].as_u64().unwrap()
    );
    // Nothing was queued.
    let (_, jobs) = api
        .call(Method::GET, "/api/v1/jobs", Some(&lin), None)
        .await;
    assert_eq!(jobs["total"], 0, "{jobs}");
    // In 中文.
    let (s, zh) = api
        .call(
            Method::POST,
            "/api/v1/jobs?lang=zh",
            Some(&lin),
            Some(json!({"template_id": tid, "workload": {"builtin": "gpt", "size": "xl"}, "runner": "h200"})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let zh_msg = zh["error"]["message"].as_str().unwrap();
    assert!(
        zh_msg.contains("显存不足") && zh_msg.contains("`h200`"),
        "{zh_msg}"
    );
    // The suggested config, saved as a version, runs.
    let (s, v) = api
        .call(
            Method::POST,
            &format!("/api/v1/templates/{tid}/versions"),
            Some(&lin),
            Some(json!({"config_text": micro["config_text"], "base_version": 1})),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, j) = submit("h200", "xl", json!({"version": 2})).await;
    assert_eq!(s, StatusCode::CREATED, "{j}");
    // `force` runs the original anyway.
    let (s, j) = submit("h200", "xl", json!({"version": 1, "force": true})).await;
    assert_eq!(s, StatusCode::CREATED, "{j}");
    // On a CPU runner, host memory is the capacity: tiny fits, xl does not.
    let (s, j) = submit("laptop", "tiny", json!({"version": 2})).await;
    assert_eq!(s, StatusCode::CREATED, "{j}");
    let (s, e) = submit("laptop", "xl", json!({"version": 2})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("host memory per rank"),
        "{e}"
    );
    assert_eq!(e["error"]["details"]["capacity"]["host"], true);
    // A runner that does not say what it has is not checked.
    let (s, j) = submit("old", "xl", json!({"version": 1})).await;
    assert_eq!(s, StatusCode::CREATED, "{j}");
}
