//! The middleware around every route (issue 13): security headers on every answer, the
//! request timeout, early refusals of bodies over [`crate::BODY_LIMIT`] and of paths that are
//! not UTF-8 once percent-decoded, and the JSON answers for unknown API paths and wrong
//! methods. Every refusal here is the API's JSON error ([`crate::error::ApiError`]).

use crate::error::ApiError;
use axum::extract::{Request, State};
use axum::http::header::{
    HeaderName, HeaderValue, CONTENT_LENGTH, CONTENT_SECURITY_POLICY, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// The Content-Security-Policy of every answer. The client is plain ES modules and one
/// stylesheet from this origin, SVG drawn by script (no inline scripts or styles), a `data:`
/// favicon, and `fetch` and the WebSocket to this origin (`'self'` covers `ws:`/`wss:` to
/// the same host in CSP 3 browsers). No framing by anyone.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The security headers added to every answer (where the handler set none of its own).
pub const SECURITY_HEADERS: [(HeaderName, &str); 4] = [
    (CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_VALUE),
    (X_FRAME_OPTIONS, "DENY"),
    (X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (REFERRER_POLICY, "no-referrer"),
];

/// Adds [`SECURITY_HEADERS`] to the answer.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

/// Refuses, before routing reaches a handler: a path that is not UTF-8 once
/// percent-decoded (400 `bad_request`), and a `Content-Length` over [`crate::BODY_LIMIT`]
/// (413 `body_too_large`, without waiting for the body). Then runs the request under
/// `timeout` (reading the body and the handler): past it, 408 `request_timeout`.
pub async fn limits(State(timeout): State<Duration>, request: Request, next: Next) -> Response {
    if !decodes_to_utf8(request.uri().path()) {
        return ApiError::bad_request("the path is not UTF-8 once percent-decoded").into_response();
    }
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > crate::BODY_LIMIT as u64) {
        return body_too_large().into_response();
    }
    match tokio::time::timeout(timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "request_timeout",
            format!(
                "the request was not sent and answered within {} ms",
                timeout.as_millis()
            ),
        )
        .into_response(),
    }
}

/// 413 `body_too_large`.
pub fn body_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body_too_large",
        format!(
            "the request body is larger than {} bytes",
            crate::BODY_LIMIT
        ),
    )
}

/// Whether `path`, percent-decoded, is UTF-8 (`%ff` is not). A `%` not followed by two hex
/// digits stays as it is, as axum's decoding does.
fn decodes_to_utf8(path: &str) -> bool {
    if !path.contains('%') {
        return true;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    std::str::from_utf8(&out).is_ok()
}

/// Unknown paths under `/api` (`/api` and `/api/` included), whatever the method: 404
/// `not_found`.
pub async fn api_not_found() -> ApiError {
    ApiError::not_found("API route")
}

/// A known path with a method it does not take: 405 `method_not_allowed` (axum adds the
/// `Allow` header).
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this path does not take this method",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_decode_to_utf8_or_not() {
        assert!(decodes_to_utf8("/api/games/abc"));
        assert!(decodes_to_utf8("/%2Fetc%2Fpasswd"));
        assert!(decodes_to_utf8("/caf%C3%A9"));
        assert!(decodes_to_utf8("/100%"));
        assert!(decodes_to_utf8("/100%z1"));
        assert!(!decodes_to_utf8("/%ff"));
        assert!(!decodes_to_utf8("/api/games/%FF"));
        assert!(!decodes_to_utf8("/%C3"));
    }
}
