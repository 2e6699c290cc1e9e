//! The browser client's static files (plain ES modules, CSS and SVG drawn by script; no
//! build step), embedded in the binary. Every path that is not an API route and names no
//! file gets `index.html`, so that the client's own routes (`/game/ID`, `/player/ID`, ...)
//! load the app. With `TABULA_WEB_DIR` set, files are read from that folder instead, so that
//! the client can be edited without rebuilding the server.

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") | Some("mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

fn file(path: &str) -> Option<Vec<u8>> {
    if path.split('/').any(|part| part == "..") {
        return None;
    }
    if let Some(dir) = std::env::var_os("TABULA_WEB_DIR") {
        return std::fs::read(std::path::Path::new(&dir).join(path)).ok();
    }
    WEB_FILES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, bytes)| bytes.to_vec())
}

fn serve(path: &str) -> Response {
    if path.starts_with("api/") {
        return crate::error::ApiError::not_found("API route").into_response();
    }
    let (path, bytes) = match file(path) {
        Some(b) => (path, b),
        None if !path.contains('.') => match file("index.html") {
            Some(b) => ("index.html", b),
            None => return StatusCode::NOT_FOUND.into_response(),
        },
        None => return StatusCode::NOT_FOUND.into_response(),
    };
    (
        [
            (CONTENT_TYPE, content_type(path)),
            (CACHE_CONTROL, "no-cache"),
        ],
        bytes,
    )
        .into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    serve("index.html")
}

/// `GET /{*path}`: a client file, or the app for the client's own routes.
pub async fn asset(Path(path): Path<String>) -> Response {
    serve(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_routes_get_the_app_and_files_their_type() {
        let index = serve("game/abc123");
        assert_eq!(index.status(), StatusCode::OK);
        assert_eq!(index.headers()[CONTENT_TYPE], "text/html; charset=utf-8");
        assert_eq!(serve("index.html").status(), StatusCode::OK);
    }

    #[test]
    fn parent_paths_and_unknown_files_are_not_found() {
        assert!(file("../Cargo.toml").is_none());
        assert!(file("js/../../Cargo.toml").is_none());
        assert_eq!(serve("no-such-file.js").status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn unknown_api_paths_get_the_json_error() {
        let r = serve("api/nope");
        assert_eq!(r.status(), StatusCode::NOT_FOUND);
        assert_eq!(r.headers()[CONTENT_TYPE], "application/json");
    }
}
