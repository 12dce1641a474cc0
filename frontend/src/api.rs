//! The typed client of `/api/v1`: every call names its endpoint from the shared table
//! (`ds_studio_shared::api::endpoints`) and returns `Result<E::Response, ApiError>` with the
//! server's error envelope decoded (a version conflict keeps its details). Cookie-authenticated writes
//! carry the CSRF token received from `/auth/me` or `/auth/login`.

use ds_studio_shared::api::endpoints::Method;
use ds_studio_shared::api::{Endpoint, ErrorBody, Me, NoBody, Url};
use gloo_net::http::{Request, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;

/// An error answer of the API, or a network failure (status 0).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub code: String,
    pub message: String,
    pub details: Option<serde_json::Value>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)
    }
}

thread_local! {
    static CSRF: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Remembers the CSRF token of the signed-in session.
pub fn set_csrf(me: &Me) {
    CSRF.with(|c| *c.borrow_mut() = me.csrf_token.clone().unwrap_or_default());
}

fn net(e: gloo_net::Error) -> ApiError {
    ApiError {
        status: 0,
        code: "network".into(),
        message: format!("cannot reach the server: {e}"),
        details: None,
    }
}

async fn decode<T: DeserializeOwned>(resp: Response) -> Result<T, ApiError> {
    let status = resp.status();
    let text = resp.text().await.map_err(net)?;
    if (200..300).contains(&status) {
        let text = if text.is_empty() {
            "null"
        } else {
            text.as_str()
        };
        return serde_json::from_str(text).map_err(|e| ApiError {
            status,
            code: "decode".into(),
            message: format!("unexpected answer: {e}"),
            details: None,
        });
    }
    Err(match serde_json::from_str::<ErrorBody>(&text) {
        Ok(b) => ApiError {
            status,
            code: b.error.code,
            message: b.error.message,
            details: b.error.details,
        },
        Err(_) => ApiError {
            status,
            code: "http".into(),
            message: format!("the server answered {status}"),
            details: None,
        },
    })
}

fn with_csrf(r: RequestBuilder) -> RequestBuilder {
    let token = CSRF.with(|c| c.borrow().clone());
    r.header("X-CSRF-Token", &token)
}

/// The server's messages in the UI's language (`Accept-Language`; the server translates the
/// error envelope's message).
fn with_lang(r: RequestBuilder) -> RequestBuilder {
    let lang = if crate::i18n::stored() == ds_studio_shared::i18n::Lang::Zh {
        "zh-CN"
    } else {
        "en"
    };
    r.header("Accept-Language", lang)
}

/// Calls endpoint `E` at `url` (made by `E::url`, so path, method and types come from the
/// shared endpoint table) with `body`, and decodes the answer as `E::Response`. Writes carry the
/// CSRF token; GET and DELETE send no body.
pub async fn call<E: Endpoint>(url: Url<E>, body: &E::Request) -> Result<E::Response, ApiError> {
    let path = url.as_str();
    let req = match E::METHOD {
        Method::Get => with_lang(Request::get(path)).build().map_err(net)?,
        Method::Delete => with_lang(with_csrf(Request::delete(path)))
            .build()
            .map_err(net)?,
        Method::Post => json_body(Request::post(path), body).map_err(net)?,
        Method::Put => json_body(Request::put(path), body).map_err(net)?,
        Method::Patch => json_body(Request::patch(path), body).map_err(net)?,
    };
    decode(req.send().await.map_err(net)?).await
}

/// [`call`] for an endpoint that takes no body (GET, DELETE, a bodiless POST).
pub async fn fetch<E: Endpoint<Request = NoBody>>(url: Url<E>) -> Result<E::Response, ApiError> {
    call(url, &NoBody).await
}

fn json_body<B: Serialize>(
    r: RequestBuilder,
    body: &B,
) -> Result<gloo_net::http::Request, gloo_net::Error> {
    with_lang(with_csrf(r)).json(body)
}

/// The answer of a GET whose path depends on signals: `None` until the first answer, then the
/// answer for the latest path (an answer for an older path that arrives late is dropped). It
/// reruns when a signal read in `path` changes. A light stand-in for `LocalResource` (one
/// effect and one signal per use, no async machinery per type: a smaller WASM bundle).
pub fn fetched<E>(
    url: impl Fn() -> Url<E> + 'static,
) -> leptos::prelude::RwSignal<Option<Result<E::Response, ApiError>>>
where
    E: Endpoint<Request = NoBody> + 'static,
    E::Response: Send + Sync + 'static,
{
    use leptos::prelude::*;
    let out = RwSignal::new(None);
    let latest = StoredValue::new(0u64);
    Effect::new(move |_| {
        let u = url();
        let n = latest.get_value() + 1;
        latest.set_value(n);
        leptos::task::spawn_local(async move {
            let r = fetch(u).await;
            if latest.try_get_value() == Some(n) {
                out.try_set(Some(r));
            }
        });
    });
    out
}

/// What a page shows while its [`fetched`] answer is on the way.
pub fn loading() -> leptos::prelude::AnyView {
    use leptos::prelude::*;
    view! { <p class="muted">{crate::i18n::t("loading")}</p> }.into_any()
}
