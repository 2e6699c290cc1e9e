//! Accounts under attack (issue 13), each over a real `tabula serve` process on SQLite and
//! on PostgreSQL: a flood of wrong logins keeps the server's memory bounded (503 `busy` past
//! the password workers' queue); wrong passwords are throttled per name and per address
//! (429 `too_many_attempts`, with `Retry-After`, until the window ends), the same way for
//! names that exist and names that do not, and a wrong password takes about as long for
//! both; names cannot impersonate (case, look-alikes, bots, reserved words, invisible and
//! direction-changing characters), and guests are marked as guests in the game log's export;
//! sessions expire, and "log out everywhere" ends cookies and API tokens.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A limit high enough never to throttle.
const UNLIMITED: &str = "1000000";

/// Registers `username` (200 expected) and returns the logged-in client.
async fn register(base: &str, username: &str, password: &str) -> Client {
    let mut c = Client::anonymous(base);
    let (s, me) = c
        .post(
            "/api/register",
            json!({"username": username, "password": password}),
        )
        .await;
    assert_eq!(s, 200, "{me}");
    c.id = me["id"].as_str().unwrap().to_string();
    c
}

fn login_body(username: &str, password: &str) -> Value {
    json!({"username": username, "password": password})
}

/// A raw login: status, `Retry-After`, JSON body.
async fn login_raw(base: &str, username: &str, password: &str) -> (u16, Option<u64>, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/login"))
        .json(&login_body(username, password))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let retry = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    (status, retry, r.json().await.unwrap_or(Value::Null))
}

/// The peak resident memory of a process, in KiB (`VmHWM`).
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status")
}

// ---- 2: memory under a flood of wrong logins -------------------------------------------

async fn wrong_login_flood_keeps_memory_bounded(db: Database) {
    let server = Server::start_with_env(
        &db,
        &[
            ("TABULA_LOGIN_ACCOUNT_FAILURES", UNLIMITED),
            ("TABULA_LOGIN_ADDRESS_FAILURES", UNLIMITED),
        ],
    );
    let base = server.base.clone();
    register(&base, "flooded", "the right password").await;
    let before = peak_rss_kib(server.pid());
    // 500 wrong logins at once, for an account that exists and for names that do not.
    let http = reqwest::Client::new();
    let tasks: Vec<_> = (0..500)
        .map(|i| {
            let (http, base) = (http.clone(), base.clone());
            tokio::spawn(async move {
                let name = if i % 2 == 0 {
                    "flooded".to_string()
                } else {
                    format!("nobody{i}")
                };
                let r = http
                    .post(format!("{base}/api/login"))
                    .json(&login_body(&name, "a wrong password"))
                    .send()
                    .await
                    .unwrap();
                let status = r.status().as_u16();
                let retry = r.headers().get("retry-after").is_some();
                let body: Value = r.json().await.unwrap();
                (status, retry, body)
            })
        })
        .collect();
    let (mut refused, mut busy) = (0, 0);
    for t in tasks {
        let (status, retry, body) = t.await.unwrap();
        match status {
            401 => {
                assert_eq!(body["error"]["code"], "bad_credentials", "{body}");
                refused += 1;
            }
            503 => {
                assert_eq!(body["error"]["code"], "busy", "{body}");
                assert!(retry, "503 busy without Retry-After");
                busy += 1;
            }
            _ => panic!("a wrong login answered {status}: {body}"),
        }
    }
    let peak = peak_rss_kib(server.pid());
    eprintln!(
        "500 concurrent wrong logins: {refused} x 401, {busy} x 503; peak RSS {} MiB \
         (before {} MiB)",
        peak / 1024,
        before / 1024
    );
    assert!(busy > 0, "the password queue never filled: {refused} x 401");
    assert!(refused > 0, "no password was checked");
    // Unbounded, 500 Argon2 checks of 19 MiB at once took gigabytes; bounded, two at once,
    // each in its worker's reused memory (freeing and reallocating it took 300 MiB).
    assert!(
        peak < 160 * 1024,
        "peak RSS {} MiB after 500 concurrent wrong logins",
        peak / 1024
    );
    // The server still works.
    let (s, _, body) = login_raw(&base, "flooded", "the right password").await;
    assert_eq!(s, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_wrong_login_flood_keeps_memory_bounded() {
    wrong_login_flood_keeps_memory_bounded(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_wrong_login_flood_keeps_memory_bounded() {
    if let Some(db) = postgres().await {
        wrong_login_flood_keeps_memory_bounded(db).await;
    }
}

// ---- 5: throttling and equal-time answers -----------------------------------------------

/// The window of the throttling test: long enough for its dozen password checks, short
/// enough to wait out.
const WINDOW_SECS: u64 = 6;

async fn wrong_passwords_are_throttled(db: Database) {
    let server = Server::start_with_env(
        &db,
        &[
            ("TABULA_LOGIN_WINDOW_SECS", "6"),
            ("TABULA_LOGIN_ACCOUNT_FAILURES", "4"),
            ("TABULA_LOGIN_ADDRESS_FAILURES", "10"),
        ],
    );
    let base = server.base.clone();
    register(&base, "carol", "carol's password").await;
    register(&base, "dave", "dave's password").await;
    let start = Instant::now();

    // Four wrong passwords for carol, then the right one is refused.
    for _ in 0..4 {
        let (s, _, body) = login_raw(&base, "carol", "guess").await;
        assert_eq!(s, 401, "{body}");
    }
    let (s, retry, carol) = login_raw(&base, "Carol", "carol's password").await;
    assert_eq!(s, 429, "the right password after 4 wrong ones: {carol}");
    assert_eq!(carol["error"]["code"], "too_many_attempts", "{carol}");
    let retry = retry.expect("429 with Retry-After");
    assert!((1..=WINDOW_SECS).contains(&retry), "Retry-After {retry}");

    // A name with no account is answered exactly the same.
    for _ in 0..4 {
        let (s, _, body) = login_raw(&base, "ghost", "guess").await;
        assert_eq!(s, 401, "{body}");
    }
    let (s, _, ghost) = login_raw(&base, "ghost", "guess").await;
    assert_eq!(s, 429, "{ghost}");
    // The same code and words (the seconds to wait aside).
    let words = |v: &Value| -> String {
        v.to_string()
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .collect()
    };
    assert_eq!(words(&ghost), words(&carol));

    // Eight failures from this address: a right password still logs in (and is not held
    // against the address), two more wrong ones reach the address's limit, and then even
    // the right password is refused, for any name.
    let (s, _, body) = login_raw(&base, "dave", "dave's password").await;
    assert_eq!(s, 200, "{body}");
    for name in ["erin", "frank"] {
        let (s, _, body) = login_raw(&base, name, "guess").await;
        assert_eq!(s, 401, "{body}");
    }
    let (s, _, body) = login_raw(&base, "dave", "dave's password").await;
    assert_eq!(s, 429, "the address is over its limit: {body}");
    assert!(
        start.elapsed() < Duration::from_secs(WINDOW_SECS),
        "the test took longer than its window; the counts were reset"
    );

    // Once the window has passed, the right password logs in again.
    tokio::time::sleep(Duration::from_secs(WINDOW_SECS) + Duration::from_millis(500)).await;
    let (s, _, body) = login_raw(&base, "carol", "carol's password").await;
    assert_eq!(s, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_wrong_passwords_are_throttled() {
    wrong_passwords_are_throttled(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_wrong_passwords_are_throttled() {
    if let Some(db) = postgres().await {
        wrong_passwords_are_throttled(db).await;
    }
}

async fn unknown_names_take_as_long(db: Database) {
    let server = Server::start_with_env(
        &db,
        &[
            ("TABULA_LOGIN_ACCOUNT_FAILURES", UNLIMITED),
            ("TABULA_LOGIN_ADDRESS_FAILURES", UNLIMITED),
        ],
    );
    let base = server.base.clone();
    register(&base, "erin", "erin's password").await;
    // Warm up (connections, the dummy hash).
    login_raw(&base, "erin", "wrong").await;
    login_raw(&base, "nobody", "wrong").await;
    let (mut known, mut unknown) = (Duration::ZERO, Duration::ZERO);
    const TRIES: u32 = 8;
    for i in 0..TRIES {
        for (name, total) in [("erin", &mut known), ("nobody", &mut unknown)] {
            let t = Instant::now();
            let (s, _, body) = login_raw(&base, name, &format!("wrong {i}")).await;
            *total += t.elapsed();
            assert_eq!(s, 401, "{body}");
            assert_eq!(body["error"]["code"], "bad_credentials");
        }
    }
    let (known, unknown) = (known / TRIES, unknown / TRIES);
    eprintln!("wrong password: known name {known:?}, unknown name {unknown:?} (mean of {TRIES})");
    // Loose: an unknown name must not be answered several times faster (it was 50x).
    assert!(
        unknown * 5 > known,
        "an unknown name answers in {unknown:?}, a known one in {known:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_unknown_names_take_as_long() {
    unknown_names_take_as_long(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_unknown_names_take_as_long() {
    if let Some(db) = postgres().await {
        unknown_names_take_as_long(db).await;
    }
}

// ---- 6: names that cannot impersonate ---------------------------------------------------

async fn names_cannot_impersonate(db: Database) {
    let server = Server::start(&db);
    let base = server.base.clone();
    let alice = register(&base, "alice", "alice's password").await;

    // One username whatever the case; login in any case.
    for name in ["Alice", "ALICE"] {
        let (s, r) = Client::anonymous(&base)
            .post("/api/register", login_body(name, "another password"))
            .await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (409, Some("username_taken")),
            "{name}: {r}"
        );
    }
    let (s, _, me) = login_raw(&base, "ALICE", "alice's password").await;
    assert_eq!(
        (s, me["id"].as_str()),
        (200, Some(alice.id.as_str())),
        "{me}"
    );
    // An ASCII look-alike of a user, and reserved names.
    register(&base, "rnike", "rnike's password").await;
    for (name, code) in [
        ("mike", "username_taken"),
        ("admin", "name_not_allowed"),
        ("Administrator", "name_not_allowed"),
        ("Tabula_strong", "name_not_allowed"),
        ("аlice", "name_not_allowed"),
    ] {
        let (s, r) = Client::anonymous(&base)
            .post("/api/register", login_body(name, "a password here"))
            .await;
        assert_eq!(r["error"]["code"].as_str(), Some(code), "{name}: {r}");
        assert!(s == 400 || s == 409, "{name}: {s} {r}");
    }

    // Guests may not take a user's name, a bot's, a reserved one, nor one with invisible or
    // direction-changing characters or a look-alike letter from another script.
    for nickname in [
        "alice",
        "Alice",
        "ＡＬＩＣＥ",
        "Аlice",         // Cyrillic А
        "аlісе",         // Cyrillic а, і, с, е
        "Mike",          // looks like the user rnike
        "Tabula strong", // a bot
        "tabula-Easy",
        "admin",
        "Admin",
        "r00t",
        "moderator",
        "x\u{202e}y", // right-to-left override
        "\u{200b}",   // a lone zero-width space
        "bob\u{200b}",
        "\u{3164}", // an invisible Hangul filler
    ] {
        let (s, r) = Client::anonymous(&base)
            .post("/api/guest", json!({"nickname": nickname}))
            .await;
        assert_eq!(s, 400, "{nickname:?} was accepted: {r}");
        assert_eq!(r["error"]["code"], "name_not_allowed", "{nickname:?}: {r}");
        assert!(r["error"]["message"].as_str().unwrap().len() > 20, "{r}");
    }
    for fine in ["bob", "José", "Bob the 2nd", "日本語"] {
        let (s, r) = Client::anonymous(&base)
            .post("/api/guest", json!({"nickname": fine}))
            .await;
        assert_eq!(s, 200, "{fine:?} was refused: {r}");
        assert_eq!(r["kind"], "guest");
    }

    // A guest joins alice's game: the game names them as a guest, and so does the export's
    // join line and header.
    let bob = Client::guest(&base, "bob").await;
    let g = alice
        .create(json!({"game": "backgammon"}), json!({"kind": "invite"}))
        .await;
    let id = g["id"].as_str().unwrap();
    let code = g["invite_code"].as_str().unwrap();
    let (s, r) = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite_code": code, "client_seed": "bob's"}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let (s, text) = alice.get_text(&format!("/api/games/{id}/export")).await;
    assert_eq!(s, 200, "{text}");
    let join = text
        .lines()
        .find(|l| l.contains(" join "))
        .unwrap_or_else(|| panic!("no join line in {text}"));
    assert!(join.ends_with("\"bob (guest)\""), "{join}");
    assert!(text.contains("\"bob (guest)\"]"), "the header: {text}");
    assert!(
        text.contains("[White \"alice\"]") || text.contains("[Black \"alice\"]"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_names_cannot_impersonate() {
    names_cannot_impersonate(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_names_cannot_impersonate() {
    if let Some(db) = postgres().await {
        names_cannot_impersonate(db).await;
    }
}

// ---- 7: sessions expire; log out everywhere ---------------------------------------------

async fn get_with_token(base: &str, path: &str, token: &str) -> (u16, Value) {
    let r = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn sessions_expire(db: Database) {
    let server = Server::start_with_env(
        &db,
        &[
            ("TABULA_SESSION_LIFETIME_SECS", "2"),
            ("TABULA_TOKEN_LIFETIME_SECS", "2"),
        ],
    );
    let base = server.base.clone();
    // The cookie lives as long as the session.
    let r = reqwest::Client::new()
        .post(format!("{base}/api/register"))
        .json(&login_body("gina", "gina's password"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.contains("Max-Age=2;") || cookie.ends_with("Max-Age=2"),
        "{cookie}"
    );
    let gina = Client::anonymous(&base);
    let (s, _) = gina
        .post("/api/login", login_body("gina", "gina's password"))
        .await;
    assert_eq!(s, 200);
    let (s, t) = gina.post("/api/tokens", json!({})).await;
    assert_eq!(s, 200, "{t}");
    let token = t["token"].as_str().unwrap().to_string();
    assert!(t["expires_ms"].as_i64().is_some(), "{t}");
    assert_eq!(gina.get("/api/me").await.0, 200);
    assert_eq!(get_with_token(&base, "/api/me", &token).await.0, 200);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (s, r) = gina.get("/api/me").await;
    assert_eq!(s, 401, "an expired session still works: {r}");
    assert_eq!(get_with_token(&base, "/api/me", &token).await.0, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_sessions_expire() {
    sessions_expire(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_sessions_expire() {
    if let Some(db) = postgres().await {
        sessions_expire(db).await;
    }
}

async fn log_out_everywhere(db: Database) {
    let server = Server::start(&db);
    let base = server.base.clone();
    let laptop = register(&base, "hank", "hank's password").await;
    let phone = Client::anonymous(&base);
    assert_eq!(
        phone
            .post("/api/login", login_body("hank", "hank's password"))
            .await
            .0,
        200
    );
    let (_, t) = laptop.post("/api/tokens", json!({})).await;
    let token = t["token"].as_str().unwrap().to_string();
    let (_, t) = laptop.post("/api/tokens", json!({})).await;
    let second_token = t["token"].as_str().unwrap().to_string();

    // The list: two cookies and two tokens, this one marked, no secret in it.
    let (s, list) = laptop.get("/api/sessions").await;
    assert_eq!(s, 200, "{list}");
    let sessions = list["sessions"].as_array().unwrap();
    let kinds: Vec<&str> = sessions
        .iter()
        .map(|x| x["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "cookie").count(),
        2,
        "{list}"
    );
    assert_eq!(kinds.iter().filter(|k| **k == "api").count(), 2, "{list}");
    assert!(
        sessions.iter().any(|x| x["id"] == list["current"]),
        "{list}"
    );
    assert!(!list.to_string().contains(&token), "a secret in {list}");
    for x in sessions {
        assert!(x["expires_ms"].as_i64() > x["created_ms"].as_i64(), "{x}");
    }
    // Revoke one token by its id.
    let (_, mine) = get_with_token(&base, "/api/sessions", &second_token).await;
    let second_id = mine["current"].as_str().unwrap().to_string();
    let r = reqwest::Client::new()
        .delete(format!("{base}/api/sessions/{second_id}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(get_with_token(&base, "/api/me", &second_token).await.0, 401);
    // Another player cannot revoke hank's sessions.
    let other = Client::guest(&base, "ivy").await;
    let (_, list) = laptop.get("/api/sessions").await;
    let phone_id = list["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["kind"] == "cookie" && x["id"] != list["current"])
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (s, _) = other.delete(&format!("/api/sessions/{phone_id}")).await;
    assert_eq!(s, 404);
    assert_eq!(phone.get("/api/me").await.0, 200);

    // A plain logout ends this browser's session only: the API token lives on.
    assert_eq!(laptop.post("/api/logout", json!({})).await.0, 200);
    assert_eq!(laptop.get("/api/me").await.0, 401);
    assert_eq!(phone.get("/api/me").await.0, 200);
    assert_eq!(get_with_token(&base, "/api/me", &token).await.0, 200);

    // Log out everywhere (from the phone): every cookie and token of hank ends.
    let (s, r) = phone.post("/api/logout-all", json!({})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["ended"], 2, "{r}");
    assert_eq!(phone.get("/api/me").await.0, 401);
    assert_eq!(get_with_token(&base, "/api/me", &token).await.0, 401);
    assert_eq!(phone.post("/api/logout-all", json!({})).await.0, 401);
    // hank can log in again; ivy was not touched.
    assert_eq!(
        laptop
            .post("/api/login", login_body("hank", "hank's password"))
            .await
            .0,
        200
    );
    assert_eq!(other.get("/api/me").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_log_out_everywhere() {
    log_out_everywhere(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_log_out_everywhere() {
    if let Some(db) = postgres().await {
        log_out_everywhere(db).await;
    }
}
