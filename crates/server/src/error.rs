//! The API's one error shape: an HTTP status and a JSON body
//! `{"error": {"code": "illegal_action", "message": "..."}}`, the codes listed in
//! docs/protocol.md. Every refusal changes nothing. The store's errors
//! ([`crate::store::StoreError`]) become HTTP answers at the API's edge
//! (`api/store_errors.rs`).

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable machine-readable code.
    pub code: &'static str,
    /// A sentence for people.
    pub message: String,
    /// Seconds to wait before trying again, sent as `Retry-After` (`busy`,
    /// `too_many_attempts`).
    pub retry_after: Option<u64>,
}

/// The JSON body of every error.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// The code and the sentence of an error.
#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable code, e.g. `illegal_action`, `not_your_turn`, `not_found`.
    pub code: String,
    /// Explanation for people.
    pub message: String,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }
    /// The same error with a `Retry-After` of `seconds` (at least 1).
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds.max(1));
        self
    }
    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    /// 401: no valid session or token.
    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "log in, play as a guest, or send an API token",
        )
    }
    /// 404.
    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such {what}"),
        )
    }
    /// 409: the request conflicts with the game's state.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }
    /// 403: the player may not do this.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }
    /// 422: the action is refused by the rules.
    pub fn illegal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_action", message)
    }
    /// 500: the database or another internal failure; logged.
    pub fn internal(error: impl std::fmt::Display) -> ApiError {
        tracing::error!(%error, "internal error");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error; nothing was changed",
        )
    }
}

/// The code of a full disk or database (503).
pub const STORAGE_FULL: &str = "storage_full";
/// The code of a database that cannot be reached or did not answer in time (503).
pub const STORAGE_UNAVAILABLE: &str = "storage_unavailable";
/// The code of a write whose commit may or may not have happened (503).
pub const OUTCOME_UNKNOWN: &str = "outcome_unknown";

impl ApiError {
    /// 503 `storage_full`: the disk or the database is full; nothing was changed.
    pub fn storage_full() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            STORAGE_FULL,
            "the server's storage is full; nothing was changed: try again later",
        )
        .retry_after(5)
    }
    /// 503 `storage_unavailable`: the database cannot be reached, or did not answer in
    /// time; nothing was changed.
    pub fn storage_unavailable() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            STORAGE_UNAVAILABLE,
            "the database cannot be reached; nothing was changed: try again shortly",
        )
        .retry_after(1)
    }
    /// 503 `outcome_unknown`: the connection was lost while the database committed, so the
    /// change may or may not be recorded.
    pub fn outcome_unknown() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            OUTCOME_UNKNOWN,
            "the action may have been recorded; read the game before sending it again",
        )
        .retry_after(1)
    }
    /// Whether this is one of the storage answers above (the request may succeed later,
    /// unchanged).
    pub fn is_storage_fault(&self) -> bool {
        self.status == StatusCode::SERVICE_UNAVAILABLE
            && [STORAGE_FULL, STORAGE_UNAVAILABLE, OUTCOME_UNKNOWN].contains(&self.code)
    }
}

/// A store error: 503 `storage_full` or `storage_unavailable` when the storage failed (the
/// fault is logged), 503 `outcome_unknown` when a commit got no answer, 500 `internal` (a
/// bug, logged) otherwise, an unexpected unique violation included.
impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                format!(
                    "the request body is larger than {} bytes",
                    crate::BODY_LIMIT
                ),
            );
        }
        ApiError::new(StatusCode::BAD_REQUEST, "bad_json", r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError::bad_request(r.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code.to_string(),
                message: self.message,
            },
        };
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}

/// A JSON body whose rejections are [`ApiError`]s.
#[derive(axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// Query parameters whose rejections are [`ApiError`]s.
#[derive(axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);
