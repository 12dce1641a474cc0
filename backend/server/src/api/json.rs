//! `ApiJson<T>`: axum's `Json` with rejections turned into the API's error envelope, naming
//! what is wrong with the body (not JSON, wrong field type, too large, wrong content type).

use super::error::ApiError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Largest request body: a 1 MiB config, JSON-escaped, plus the rest of the request.
pub const BODY_LIMIT: usize = 4 * 1024 * 1024;
/// Largest config text.
pub const CONFIG_LIMIT: usize = crate::domain::config_check::MAX_CONFIG_BYTES;

/// A JSON body in, or a JSON body out.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        // Every request body of the API is an object: read it as a value first, so that an
        // array or a string is refused (serde would map an array onto a struct's fields).
        let mut value = match axum::Json::<serde_json::Value>::from_request(req, state).await {
            Ok(axum::Json(v)) => v,
            Err(r) => return Err(rejection(r)),
        };
        let Some(obj) = value.as_object_mut() else {
            return Err(ApiError::Unprocessable(
                "the JSON body must be an object".into(),
            ));
        };
        // JSON has one number type: `2.0` is a valid integer for a version or an id. Only the
        // request's own fields are touched; a config inside keeps its numbers as written.
        for (k, v) in obj.iter_mut() {
            if k == "config" || k == "context" {
                continue;
            }
            if let Some(f) = v
                .as_f64()
                .filter(|f| v.is_f64() && f.fract() == 0.0 && f.abs() < 9.0e15)
            {
                *v = serde_json::Value::from(f as i64);
            }
        }
        serde_path_to_error::deserialize(value)
            .map(ApiJson)
            .map_err(|e| {
                let path = e.path().to_string();
                let inner = e.into_inner();
                if path.is_empty() || path == "." {
                    ApiError::Unprocessable(format!("the JSON body is not as expected: {inner}"))
                } else {
                    ApiError::Unprocessable(format!("field `{path}`: {inner}"))
                }
            })
    }
}

fn rejection(r: JsonRejection) -> ApiError {
    match &r {
        JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType(
            "the body must be JSON with `Content-Type: application/json`".into(),
        ),
        JsonRejection::JsonDataError(e) => ApiError::Unprocessable(format!(
            "the JSON body does not have the expected shape: {}",
            inner(e)
        )),
        JsonRejection::JsonSyntaxError(e) => {
            ApiError::BadRequest(format!("the body is not valid JSON: {}", inner(e)))
        }
        _ if r.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge(format!(
            "the body is larger than the limit of {} bytes",
            BODY_LIMIT
        )),
        _ => ApiError::BadRequest(r.body_text()),
    }
}

/// The innermost error text (serde's message with line and column).
fn inner(e: &dyn std::error::Error) -> String {
    let mut cur: &dyn std::error::Error = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// A JSON body that may be left out entirely (then `T::default()`).
pub struct JsonOrDefault<T>(pub T);

impl<S, T> FromRequest<S> for JsonOrDefault<T>
where
    T: DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let empty = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .is_some_and(|v| v == "0")
            || (!req.headers().contains_key(axum::http::header::CONTENT_TYPE)
                && !req
                    .headers()
                    .contains_key(axum::http::header::CONTENT_LENGTH)
                && !req
                    .headers()
                    .contains_key(axum::http::header::TRANSFER_ENCODING));
        if empty {
            return Ok(JsonOrDefault(T::default()));
        }
        let ApiJson(v) = ApiJson::<T>::from_request(req, state).await?;
        Ok(JsonOrDefault(v))
    }
}

/// Path parameters, with rejections (`/templates/abc`) in the error envelope.
pub struct ApiPath<T>(pub T);

impl<S, T> axum::extract::FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(ApiPath(v)),
            Err(r) => Err(ApiError::BadRequest(format!(
                "bad path parameter: {}",
                r.body_text()
            ))),
        }
    }
}

/// Query parameters, with rejections (`?limit=many`) in the error envelope.
pub struct ApiQuery<T>(pub T);

impl<S, T> axum::extract::FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(ApiQuery(v)),
            Err(r) => Err(ApiError::BadRequest(format!(
                "bad query parameter: {}",
                r.body_text()
            ))),
        }
    }
}
