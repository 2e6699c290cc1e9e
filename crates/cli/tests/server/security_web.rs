//! Issue 13, the web side, over real `tabula serve` processes: the static files never leave
//! their root, slow or idle connections are closed by the timeouts, held connections do not
//! stop `/healthz`, WebSockets outlive the request timeout, every answer has the security
//! headers, and bad or unknown paths get the JSON errors.

use crate::common::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `tabula serve` process with extra environment variables, optionally under a lower
/// open-file limit (`ulimit -n`, soft and hard).
struct Proc {
    child: Child,
    base: String,
    addr: String,
}

impl Proc {
    fn start(env: &[(&str, &str)], max_files: Option<u32>) -> Proc {
        let db = match sqlite() {
            Database::Sqlite(p) => p,
            Database::Postgres(_) => unreachable!(),
        };
        let bin = env!("CARGO_BIN_EXE_tabula");
        let mut cmd = match max_files {
            Some(n) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("ulimit -n {n} && exec \"$0\" \"$@\""))
                    .arg(bin);
                c
            }
            None => Command::new(bin),
        };
        cmd.args(["serve", "--addr", "127.0.0.1:0", "--database"])
            .arg(&db)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("tabula serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("Tabula is serving at ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_string();
        let addr = base.trim_start_matches("http://").to_string();
        Proc { child, base, addr }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An answer read off a raw socket.
struct Raw {
    status: u16,
    head: String,
    body: String,
}

impl Raw {
    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {} {:?}", self.status, self.body))
    }
}

/// Sends `method path` exactly as written (no normalisation) and reads the whole answer.
fn raw(addr: &str, method: &str, path: &str) -> Raw {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    Raw {
        status,
        head: head.to_string(),
        body: body.to_string(),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let name = entry.file_name();
        if name == "node_modules" || name == "tests" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// A temporary copy of the client, with a marker file and symlinks out of it.
fn web_copy() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/web");
    let dir = std::env::temp_dir().join(format!(
        "tabula_web_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    ));
    copy_dir(&src, &dir);
    std::fs::write(dir.join("marker.txt"), "served from the copy").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/passwd", dir.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink("/etc", dir.join("etc")).unwrap();
        std::os::unix::fs::symlink("/proc/self", dir.join("self")).unwrap();
    }
    dir
}

/// Paths that name files outside the client's folder, every way.
const ESCAPES: &[&str] = &[
    "//etc/passwd",
    "/%2Fetc%2Fpasswd",
    "/%2Fproc%2Fself%2Fenviron",
    "/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
    "/js/..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
    "/%2E%2E/%2E%2E/etc/passwd",
    "/tests/e2e.mjs",
];

/// Symlinks out of the folder of [`web_copy`]: refused, not the app page.
const SYMLINKS: &[&str] = &["/leak.txt", "/etc/passwd", "/self/environ"];

fn assert_refused(addr: &str, path: &str) {
    let r = raw(addr, "GET", path);
    assert_eq!(r.status, 404, "{path}: {} {:?}", r.status, r.body);
    assert!(!r.body.contains("root:"), "{path} leaked /etc/passwd");
    assert_eq!(r.json()["error"]["code"], "not_found", "{path}");
}

#[test]
fn the_web_folder_serves_only_files_under_it() {
    let dir = web_copy();
    let server = Proc::start(&[("TABULA_WEB_DIR", dir.to_str().unwrap())], None);
    // The folder is what is served.
    let marker = raw(&server.addr, "GET", "/marker.txt");
    assert_eq!(
        (marker.status, marker.body.as_str()),
        (200, "served from the copy")
    );
    assert_eq!(raw(&server.addr, "GET", "/js/app.js").status, 200);
    assert_eq!(raw(&server.addr, "GET", "/game/abc").status, 200);
    for path in ESCAPES.iter().chain(SYMLINKS) {
        assert_refused(&server.addr, path);
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_embedded_files_are_as_strict() {
    let server = Proc::start(&[], None);
    assert_eq!(raw(&server.addr, "GET", "/js/app.js").status, 200);
    for path in ESCAPES {
        assert_refused(&server.addr, path);
    }
}

/// Reads until the server closes the socket; panics if it is still open after `limit`.
fn closed_by_server_within(s: &mut TcpStream, limit: Duration) -> Duration {
    let start = Instant::now();
    s.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return start.elapsed(),
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return start.elapsed(),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                panic!("the server held the connection for {limit:?}")
            }
            Err(e) => panic!("{e}"),
        }
        assert!(start.elapsed() < limit, "the server kept answering");
    }
}

#[test]
fn partial_heads_idle_connections_and_stalled_bodies_time_out() {
    let server = Proc::start(
        &[
            ("TABULA_HEADER_TIMEOUT_MS", "500"),
            ("TABULA_REQUEST_TIMEOUT_MS", "1000"),
        ],
        None,
    );
    // Half a request head: closed after the header timeout (limit: generous, to tell
    // "closed" from "held forever").
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    closed_by_server_within(&mut s, Duration::from_secs(15));
    // Nothing sent at all.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    closed_by_server_within(&mut s, Duration::from_secs(15));
    // An idle keep-alive connection after an answer.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    closed_by_server_within(&mut s, Duration::from_secs(15));
    // A body that never comes: 408 `request_timeout`.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.write_all(
        b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    )
    .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut answer = vec![0u8; 4096];
    let n = s.read(&mut answer).expect("an answer before 15 s");
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
    // A body declared too large: 413 at once, without waiting for it.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.write_all(
        b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{",
    )
    .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut answer = vec![0u8; 4096];
    let n = s.read(&mut answer).expect("an answer before 15 s");
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"body_too_large\""), "{answer}");
    // A request head over 32 KiB: 431.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    let head = format!(
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(40_000)
    );
    s.write_all(head.as_bytes()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut answer = vec![0u8; 4096];
    let n = s.read(&mut answer).expect("an answer before 15 s");
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
}

/// 300 connections that never finish their request head, against a server allowed 256
/// open files: `/healthz` still answers (slots free up as the header timeout closes them),
/// and the server closes every one of them.
#[cfg(unix)]
#[test]
fn held_connections_do_not_stop_healthz() {
    let server = Proc::start(&[("TABULA_HEADER_TIMEOUT_MS", "1000")], Some(256));
    let mut held: Vec<TcpStream> = (0..300)
        .filter_map(|_| {
            let mut s = TcpStream::connect(&server.addr).ok()?;
            s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").ok()?;
            Some(s)
        })
        .collect();
    assert!(held.len() >= 250, "only {} connections opened", held.len());
    for _ in 0..3 {
        let r = raw(&server.addr, "GET", "/healthz");
        assert_eq!((r.status, r.body.as_str()), (200, "ok"));
    }
    for s in &mut held {
        closed_by_server_within(s, Duration::from_secs(30));
    }
    let r = raw(&server.addr, "GET", "/healthz");
    assert_eq!((r.status, r.body.as_str()), (200, "ok"));
}

/// A spectator's WebSocket stays open past the header and request timeouts and still gets
/// the moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_outlive_the_request_timeout() {
    let server = Proc::start(
        &[
            ("TABULA_HEADER_TIMEOUT_MS", "300"),
            ("TABULA_REQUEST_TIMEOUT_MS", "300"),
        ],
        None,
    );
    let alice = Client::guest(&server.base, "alice").await;
    let bob = Client::guest(&server.base, "bob").await;
    let g = alice
        .create(json!({"game": "backgammon"}), json!({"kind": "invite"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let (s, r) = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite_code": g["invite_code"], "client_seed": "bob's"}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let mut spectator = watch(&server.base, &id, 0).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // The guests' pooled connections were closed as idle meanwhile: the client reconnects.
    let v = alice
        .step(&id, "white", &mut chooser(1))
        .await
        .expect("the opening roll");
    let pushed = spectator.until_version(v, 10).await;
    assert!(pushed.is_some(), "no push after the timeouts");
}

#[test]
fn every_answer_has_the_security_headers() {
    let server = Proc::start(&[], None);
    for path in [
        "/",
        "/js/app.js",
        "/style.css",
        "/api/lobby",
        "/healthz",
        "/api/nope",
    ] {
        let r = raw(&server.addr, "GET", path);
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp:?}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp:?}");
        assert_eq!(
            r.header("x-frame-options").as_deref(),
            Some("DENY"),
            "{path}"
        );
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff"),
            "{path}"
        );
        assert!(r.header("referrer-policy").is_some(), "{path}");
    }
}

#[test]
fn bad_and_unknown_paths_get_the_json_errors() {
    let server = Proc::start(&[], None);
    for path in ["/%ff", "/api/games/%ff", "/api/games/%C3/events"] {
        let r = raw(&server.addr, "GET", path);
        assert_eq!(r.status, 400, "{path}: {:?}", r.body);
        assert_eq!(r.json()["error"]["code"], "bad_request", "{path}");
    }
    for (method, path) in [
        ("GET", "/api"),
        ("GET", "/api/"),
        ("GET", "/api/nope"),
        ("GET", "/api/games/abc/nope"),
        ("POST", "/api/nope"),
        ("DELETE", "/api"),
    ] {
        let r = raw(&server.addr, method, path);
        assert_eq!(r.status, 404, "{method} {path}: {:?}", r.body);
        assert_eq!(r.json()["error"]["code"], "not_found", "{method} {path}");
    }
    for (method, path) in [("DELETE", "/api/games/abc"), ("POST", "/healthz")] {
        let r = raw(&server.addr, method, path);
        assert_eq!(r.status, 405, "{method} {path}: {:?}", r.body);
        assert_eq!(r.json()["error"]["code"], "method_not_allowed");
        assert!(r.header("allow").is_some());
    }
    let r = raw(&server.addr, "GET", "/no-such-file.js");
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"]["code"], "not_found");
}
