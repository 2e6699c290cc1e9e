//! The browser client's static files (plain ES modules, CSS and SVG drawn by script; no
//! build step), embedded in the binary. Every path that is not an API route and names no
//! file gets `index.html`, so that the client's own routes (`/game/ID`, `/player/ID`, ...)
//! load the app. With `TABULA_WEB_DIR` set ([`crate::config`]), files are read from that folder instead, so that
//! the client can be edited without rebuilding the server.
//!
//! Both modes serve only files under their root (issue 13): a path must be relative, made
//! of plain names (no `.`, `..`, empty or hidden segments, backslashes, colons or NULs),
//! and outside `tests/` and `node_modules/` (which are not embedded either). From a folder,
//! the file's canonical path (symlinks resolved) must lie under the folder's canonical path
//! and be a regular file. A path refused so answers 404 `not_found`, never the app.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// Top-level folders of `web/` that are not the client (tests, npm packages).
const NOT_SERVED: [&str; 2] = ["tests", "node_modules"];

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

/// What a path names.
#[derive(Debug, PartialEq, Eq)]
enum Lookup {
    /// A file, with its contents.
    Found(Vec<u8>),
    /// No file: the app answers, for the client's own routes.
    Missing,
    /// Not a path the client may name, or a file outside the root: 404.
    Refused,
}

/// Whether `path` (below the root, percent-decoded, no leading `/`) is a plain relative
/// path of the client's: non-empty names only, none hidden (`.`, `..`, `.git`), no `\`,
/// `:` or NUL, not under [`NOT_SERVED`].
fn servable(path: &str) -> bool {
    let mut parts = path.split('/');
    if parts
        .clone()
        .next()
        .is_some_and(|first| NOT_SERVED.contains(&first))
    {
        return false;
    }
    let plain = parts.all(|part| {
        !part.is_empty() && !part.starts_with('.') && !part.contains(['\\', ':', '\0'])
    });
    plain
        && std::path::Path::new(path)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

fn file(dir: Option<&std::path::Path>, path: &str) -> Lookup {
    if !servable(path) {
        return Lookup::Refused;
    }
    if let Some(dir) = dir {
        return from_folder(dir, path);
    }
    match WEB_FILES.iter().find(|(name, _)| *name == path) {
        Some((_, bytes)) => Lookup::Found(bytes.to_vec()),
        None => Lookup::Missing,
    }
}

/// `path` (already [`servable`]) under the folder `root`: only a regular file whose
/// canonical path is under `root`'s.
fn from_folder(root: &std::path::Path, path: &str) -> Lookup {
    let Ok(root) = root.canonicalize() else {
        return Lookup::Missing;
    };
    let joined = root.join(path);
    if joined.symlink_metadata().is_err() {
        return Lookup::Missing;
    }
    let Ok(real) = joined.canonicalize() else {
        // A dangling symlink.
        return Lookup::Refused;
    };
    if !real.starts_with(&root) {
        return Lookup::Refused;
    }
    match real.metadata() {
        Ok(m) if m.is_file() => match std::fs::read(&real) {
            Ok(bytes) => Lookup::Found(bytes),
            Err(_) => Lookup::Refused,
        },
        // A folder inside the root: the client's route of that name.
        Ok(m) if m.is_dir() => Lookup::Missing,
        _ => Lookup::Refused,
    }
}

fn not_found() -> Response {
    crate::error::ApiError::not_found("file").into_response()
}

/// The answer to `GET /{path}`, from the folder `dir` or the built-in files.
fn serve(dir: Option<&std::path::Path>, path: &str) -> Response {
    if path == "api" || path.starts_with("api/") {
        return crate::error::ApiError::not_found("API route").into_response();
    }
    // A client route may end with a slash (`/stats/`).
    let route = path.strip_suffix('/').unwrap_or(path);
    let (path, bytes) = match file(dir, route) {
        Lookup::Found(b) => (route, b),
        Lookup::Missing if !route.contains('.') => match file(dir, "index.html") {
            Lookup::Found(b) => ("index.html", b),
            _ => return not_found(),
        },
        Lookup::Missing | Lookup::Refused => return not_found(),
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
pub async fn index(State(state): State<crate::AppState>) -> Response {
    serve(state.web_dir.as_deref(), "index.html")
}

/// `GET /{*path}`: a client file, or the app for the client's own routes.
pub async fn asset(State(state): State<crate::AppState>, Path(path): Path<String>) -> Response {
    serve(state.web_dir.as_deref(), &path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn client_routes_get_the_app_and_files_their_type() {
        let index = serve(None, "game/abc123");
        assert_eq!(index.status(), StatusCode::OK);
        assert_eq!(index.headers()[CONTENT_TYPE], "text/html; charset=utf-8");
        assert_eq!(serve(None, "stats/").status(), StatusCode::OK);
        assert_eq!(serve(None, "index.html").status(), StatusCode::OK);
    }

    #[test]
    fn parent_absolute_and_hidden_paths_are_refused() {
        for path in [
            "../Cargo.toml",
            "js/../../Cargo.toml",
            "/etc/passwd",
            "//etc/passwd",
            "./index.html",
            "js//app.js",
            ".git/config",
            "tests/e2e.mjs",
            "node_modules/x.js",
            "c:/windows",
            "js\\..\\..\\Cargo.toml",
            "",
        ] {
            assert_eq!(file(None, path), Lookup::Refused, "{path:?}");
        }
        for path in ["/etc/passwd", "etc/../../x", "tests/e2e.mjs"] {
            assert_eq!(
                serve(None, path).status(),
                StatusCode::NOT_FOUND,
                "{path:?}"
            );
        }
        assert_eq!(
            serve(None, "no-such-file.js").status(),
            StatusCode::NOT_FOUND
        );
    }

    #[test]
    fn a_folder_serves_only_regular_files_under_it() {
        let root = std::env::temp_dir().join(format!("tabula_web_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("js")).unwrap();
        std::fs::write(root.join("js/app.js"), "ok").unwrap();
        assert_eq!(
            from_folder(&root, "js/app.js"),
            Lookup::Found(b"ok".to_vec())
        );
        assert_eq!(from_folder(&root, "js/none.js"), Lookup::Missing);
        assert_eq!(from_folder(&root, "js"), Lookup::Missing);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/passwd", root.join("leak.txt")).unwrap();
            std::os::unix::fs::symlink("/etc", root.join("etc")).unwrap();
            std::os::unix::fs::symlink("js/app.js", root.join("inside.js")).unwrap();
            std::os::unix::fs::symlink("/no/such/file", root.join("dangling.js")).unwrap();
            assert_eq!(from_folder(&root, "leak.txt"), Lookup::Refused);
            assert_eq!(from_folder(&root, "etc/passwd"), Lookup::Refused);
            assert_eq!(from_folder(&root, "dangling.js"), Lookup::Refused);
            assert_eq!(
                from_folder(&root, "inside.js"),
                Lookup::Found(b"ok".to_vec())
            );
        }
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn unknown_api_paths_get_the_json_error() {
        for path in ["api", "api/", "api/nope"] {
            let r = serve(None, path);
            assert_eq!(r.status(), StatusCode::NOT_FOUND);
            assert_eq!(r.headers()[CONTENT_TYPE], "application/json");
        }
    }
}
