//! `ApiJson<T>`: axum's `Json` with rejections turned into the API's error envelope, naming
//! what is wrong with the body (not JSON, wrong field type, too large, wrong content type).

use super::ApiError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A JSON body in, or a JSON body out.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(ApiJson(v)),
            Err(r) => Err(rejection(r)),
        }
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
            super::BODY_LIMIT
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
