//! Routing by the shared endpoint table (`ds_studio_shared::api::endpoints`): a handler is
//! routed with `.at(ep::GetJob, show)`, which takes the method and the path from the table and
//! checks the handler against its types. A handler that reads a JSON body of another type
//! than the endpoint's `Request`, reads one where the endpoint has none, or answers another type
//! than its `Response`, does not compile.
//!
//! What a handler may answer is [`Answer`]: `ApiJson<R>`, `(StatusCode, ApiJson<R>)`, a bare
//! `StatusCode` for [`NoBody`], [`Reply<R>`] when the answer needs headers or another status,
//! and [`Events`] for a live-events stream.
//!
//! A handler that answers the endpoint's type routes:
//!
//! ```
//! use ds_studio_server::api::typed::At;
//! use ds_studio_server::api::{ApiError, ApiJson, ApiPath};
//! use ds_studio_shared::api::{endpoints as ep, Job};
//! async fn show(ApiPath(_id): ApiPath<i64>) -> Result<ApiJson<Job>, ApiError> {
//!     unimplemented!()
//! }
//! let _ = axum::Router::<ds_studio_server::state::AppState>::new().at(ep::GetJob, show);
//! ```
//!
//! The same handler answering another type does not build:
//!
//! ```compile_fail
//! use ds_studio_server::api::typed::At;
//! use ds_studio_server::api::{ApiError, ApiJson, ApiPath};
//! use ds_studio_shared::api::{endpoints as ep, Team};
//! async fn show(ApiPath(_id): ApiPath<i64>) -> Result<ApiJson<Team>, ApiError> {
//!     unimplemented!()
//! }
//! let _ = axum::Router::<ds_studio_server::state::AppState>::new().at(ep::GetJob, show);
//! ```
//!
//! Nor does one that reads a body where the endpoint has none:
//!
//! ```compile_fail
//! use ds_studio_server::api::typed::At;
//! use ds_studio_server::api::{ApiError, ApiJson};
//! use ds_studio_shared::api::{endpoints as ep, Job, RunLabels};
//! async fn show(ApiJson(_l): ApiJson<RunLabels>) -> Result<ApiJson<Job>, ApiError> {
//!     unimplemented!()
//! }
//! let _ = axum::Router::<ds_studio_server::state::AppState>::new().at(ep::GetJob, show);
//! ```

use super::auth::{Caller, MaybeCaller, RunnerCaller};
use super::client_ip::ClientIp;
use super::{ApiError, ApiJson, ApiPath, ApiQuery, JsonOrDefault};
use crate::state::AppState;
use axum::extract::State;
use axum::handler::Handler;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, IntoResponseParts, Response};
use axum::routing::MethodFilter;
use axum::Router;
use ds_studio_shared::api::endpoints::Method;
use ds_studio_shared::api::{Endpoint, EventStream, NoBody};
use serde::Serialize;
use std::future::Future;
use std::marker::PhantomData;

/// The answer types a handler of an endpoint answering `R` may return.
pub trait Answer<R> {}
impl<R> Answer<R> for Result<ApiJson<R>, ApiError> {}
impl<R> Answer<R> for Result<(StatusCode, ApiJson<R>), ApiError> {}
impl<R> Answer<R> for Result<Reply<R>, ApiError> {}
impl Answer<NoBody> for Result<StatusCode, ApiError> {}
impl<T> Answer<EventStream> for Result<Events<T>, ApiError> {}

/// An answer of type `R` with headers or a status of its own (a cookie, an ETag, 204 from a
/// long poll): built only from an `R`, or as "no content".
pub struct Reply<R>(Response, PhantomData<fn() -> R>);

impl<R: Serialize> Reply<R> {
    /// `body` as JSON with `parts` (headers, cookies) and `status`.
    pub fn json(status: StatusCode, parts: impl IntoResponseParts, body: R) -> Self {
        Reply(
            (status, parts, axum::Json(body)).into_response(),
            PhantomData,
        )
    }

    /// `json`, the JSON text of an `R` already serialised (a cached version), with `parts`.
    pub fn serialized(parts: impl IntoResponseParts, json: Vec<u8>) -> Self {
        let kind = [(axum::http::header::CONTENT_TYPE, "application/json")];
        Reply((parts, kind, json).into_response(), PhantomData)
    }

    /// An empty answer with `parts`: 204, or 304 for a cached version.
    pub fn empty(status: StatusCode, parts: impl IntoResponseParts) -> Self {
        Reply((status, parts, ()).into_response(), PhantomData)
    }
}

impl<R> IntoResponse for Reply<R> {
    fn into_response(self) -> Response {
        self.0
    }
}

/// A live-events stream (server-sent events).
pub struct Events<T>(pub T);

impl<T: IntoResponse> IntoResponse for Events<T> {
    fn into_response(self) -> Response {
        self.0.into_response()
    }
}

/// The extractors a handler of an endpoint whose body is `Req` may take: any of those that do
/// not read the body, and the body only as `Req`.
pub trait Arg<Req> {}
impl<Req> Arg<Req> for ApiJson<Req> {}
impl<Req> Arg<Req> for JsonOrDefault<Req> {}
impl<Req, T> Arg<Req> for ApiPath<T> {}
impl<Req, T> Arg<Req> for ApiQuery<T> {}
impl<Req, T> Arg<Req> for axum::extract::Path<T> {}
impl<Req> Arg<Req> for State<AppState> {}
impl<Req> Arg<Req> for Caller {}
impl<Req> Arg<Req> for MaybeCaller {}
impl<Req> Arg<Req> for RunnerCaller {}
impl<Req> Arg<Req> for ClientIp {}
impl<Req> Arg<Req> for HeaderMap {}

/// A handler function that fits endpoint `E`: every argument an [`Arg`] of its request, its
/// answer an [`Answer`] of its response.
pub trait Fits<E, Args> {}

macro_rules! fits {
    ($($a:ident),*) => {
        impl<E, F, Fut, $($a),*> Fits<E, ($($a,)*)> for F
        where
            E: Endpoint,
            F: FnOnce($($a),*) -> Fut,
            Fut: Future,
            Fut::Output: Answer<E::Response>,
            $($a: Arg<E::Request>,)*
        {
        }
    };
}
fits!();
fits!(A1);
fits!(A1, A2);
fits!(A1, A2, A3);
fits!(A1, A2, A3, A4);
fits!(A1, A2, A3, A4, A5);
fits!(A1, A2, A3, A4, A5, A6);

/// Routes endpoints of the table.
pub trait At {
    /// Routes `handler` at `E`'s method and path.
    fn at<E, H, Args, T>(self, endpoint: E, handler: H) -> Self
    where
        E: Endpoint,
        H: Fits<E, Args> + Handler<T, AppState>,
        T: 'static;
}

impl At for Router<AppState> {
    fn at<E, H, Args, T>(self, _: E, handler: H) -> Self
    where
        E: Endpoint,
        H: Fits<E, Args> + Handler<T, AppState>,
        T: 'static,
    {
        let filter = match E::METHOD {
            Method::Get => MethodFilter::GET,
            Method::Post => MethodFilter::POST,
            Method::Put => MethodFilter::PUT,
            Method::Patch => MethodFilter::PATCH,
            Method::Delete => MethodFilter::DELETE,
        };
        self.route(relative(E::PATH), axum::routing::on(filter, handler))
    }
}

/// The table's path below `/api/v1`, where the API router is nested.
fn relative(path: &'static str) -> &'static str {
    path.strip_prefix("/api/v1")
        .expect("every endpoint of the table is under /api/v1")
}
