//! A real `tabula serve` process on a loopback port, over a SQLite file or a fresh
//! PostgreSQL database, and an HTTP/WebSocket client for it.

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Where the test PostgreSQL server is (trust auth).
fn postgres_admin_url() -> String {
    std::env::var("TABULA_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string())
}

/// A database for one test.
#[derive(Clone, Debug)]
pub enum Database {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database URL.
    Postgres(String),
}

impl Database {
    /// The `--database` argument.
    pub fn url(&self) -> String {
        match self {
            Database::Sqlite(p) => p.display().to_string(),
            Database::Postgres(u) => u.clone(),
        }
    }
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

fn unique(prefix: &str) -> String {
    format!(
        "{prefix}_{}_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    )
}

/// A fresh SQLite file in the temp directory.
pub fn sqlite() -> Database {
    let dir = std::env::temp_dir().join(unique("tabula_test"));
    std::fs::create_dir_all(&dir).unwrap();
    Database::Sqlite(dir.join("tabula.sqlite3"))
}

/// A fresh PostgreSQL database, or `None` (the test is skipped) when no server answers and
/// `TABULA_REQUIRE_POSTGRES` is unset.
pub async fn postgres() -> Option<Database> {
    use sqlx::Connection;
    let admin = postgres_admin_url();
    match sqlx::PgConnection::connect(&admin).await {
        Ok(mut conn) => {
            let name = unique("tabula_test");
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&mut conn)
                .await
                .unwrap();
            let base = admin.rsplit_once('/').unwrap().0;
            Some(Database::Postgres(format!("{base}/{name}")))
        }
        Err(e) => {
            if std::env::var_os("TABULA_REQUIRE_POSTGRES").is_some() {
                panic!("PostgreSQL is required (TABULA_REQUIRE_POSTGRES) but {admin}: {e}");
            }
            eprintln!("skipped: no PostgreSQL at {admin}: {e}");
            None
        }
    }
}

/// A running server process.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Server {
    /// Starts `tabula serve` on a free port and waits until it listens.
    pub fn start(db: &Database) -> Server {
        Server::start_with_env(db, &[])
    }

    /// Starts `tabula serve` with these environment variables (limits, lifetimes).
    pub fn start_with_env(db: &Database, env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["serve", "--addr", "127.0.0.1:0", "--database", &db.url()])
            .env("RUST_LOG", "warn")
            // Bots answer at once in tests (their human-like pause is for people).
            .env("TABULA_BOT_DELAY_MS", "0")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tabula serve starts");
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let url = line
            .trim()
            .strip_prefix("Tabula is serving at ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, base: url }
    }

    /// The server process's id (to read its memory from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no shutdown, no flushing.
    pub fn kill9(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then waits for a clean exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client with its own cookie jar (clones share it).
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    /// The server's base URL.
    pub base: String,
    /// The logged-in player's id.
    pub id: String,
}

/// A JSON reply: status and body.
pub type Reply = (u16, Value);

impl Client {
    /// The same player (same cookies) talking to another instance or a restarted server.
    pub fn at(&self, base: &str) -> Client {
        Client {
            base: base.to_string(),
            ..self.clone()
        }
    }

    /// A client with no session.
    pub fn anonymous(base: &str) -> Client {
        Client {
            http: reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .unwrap(),
            base: base.to_string(),
            id: String::new(),
        }
    }

    /// A guest client.
    pub async fn guest(base: &str, nickname: &str) -> Client {
        let mut c = Client::anonymous(base);
        let (status, me) = c.post("/api/guest", json!({"nickname": nickname})).await;
        assert_eq!(status, 200, "{me}");
        c.id = me["id"].as_str().unwrap().to_string();
        c
    }

    /// POST JSON.
    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.send(self.http.post(format!("{}{path}", self.base)).json(&body))
            .await
    }

    /// POST JSON with one more header.
    pub async fn post_with_header(&self, path: &str, header: (&str, &str), body: Value) -> Reply {
        let req = self
            .http
            .post(format!("{}{path}", self.base))
            .header(header.0, header.1)
            .json(&body);
        self.send(req).await
    }

    /// POST a raw body with a JSON content type.
    pub async fn post_raw(&self, path: &str, body: impl Into<reqwest::Body>) -> Reply {
        let req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        self.send(req).await
    }

    /// PUT JSON.
    pub async fn put_json(&self, path: &str, body: Value) -> Reply {
        self.send(self.http.put(format!("{}{path}", self.base)).json(&body))
            .await
    }

    /// GET JSON.
    pub async fn get(&self, path: &str) -> Reply {
        self.send(self.http.get(format!("{}{path}", self.base)))
            .await
    }

    /// DELETE.
    pub async fn delete(&self, path: &str) -> Reply {
        self.send(self.http.delete(format!("{}{path}", self.base)))
            .await
    }

    /// GET text.
    pub async fn get_text(&self, path: &str) -> (u16, String) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> Reply {
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// Creates a game; returns its view.
    pub async fn create(&self, options: Value, opponent: Value) -> Value {
        let (s, g) = self
            .post(
                "/api/games",
                json!({"options": options, "opponent": opponent, "client_seed": format!("seed of {}", self.id)}),
            )
            .await;
        assert_eq!(s, 200, "{g}");
        g
    }

    /// The game's current view.
    pub async fn game(&self, id: &str) -> Value {
        let (s, g) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, 200, "{g}");
        g
    }

    /// Does whatever this player must do next in game `id` (one request), choosing among
    /// the legal actions with `pick`. Returns the version the server acknowledged, or
    /// `None` when the game waits for the other side.
    pub async fn step(
        &self,
        id: &str,
        color: &str,
        pick: &mut impl FnMut(&[String]) -> String,
    ) -> Option<i64> {
        let g = self.game(id).await;
        if g["state"] != "playing" {
            return None;
        }
        let roller = g["roller"].as_str().unwrap_or("");
        let (s, r) = if roller == color || roller == "either" {
            let nonce = format!("nonce-{}-{}", g["version"], self.id);
            let (s, r) = self
                .post(&format!("/api/games/{id}/roll"), json!({"nonce": nonce}))
                .await;
            // The other player of a human-v-human opening may have rolled first.
            if r["error"]["code"] == "no_roll_due" {
                return None;
            }
            (s, r)
        } else {
            let status = &g["view"]["status"];
            if status["status"] != "decide" || status["player"] != color {
                return None;
            }
            let legal: Vec<String> = serde_json::from_value(g["view"]["legal"].clone()).unwrap();
            let action = pick(&legal);
            self.post(
                &format!("/api/games/{id}/actions"),
                json!({"action": action, "version": g["version"]}),
            )
            .await
        };
        assert_eq!(s, 200, "{r}");
        r["version"].as_i64()
    }
}

/// The plays' chooser, shared with the fault-load driver (which the `faults` example
/// includes without this module).
pub use crate::faultload::chooser;

/// Plays `color`'s side of game `id` until it is over (the other side is a bot).
pub async fn play_to_end(client: &Client, id: &str, color: &str, seed: u64) -> Value {
    let mut pick = chooser(seed);
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        assert!(Instant::now() < deadline, "game {id} did not finish");
        if client.step(id, color, &mut pick).await.is_none() {
            let g = client.game(id).await;
            if g["state"] == "finished" {
                return g;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// A 4-checker Grasshopper seat open in the lobby, created by `c`; its id.
pub async fn open_seat(c: &Client) -> String {
    let (s, g) = c
        .post(
            "/api/games",
            json!({"options": {"game": "grasshopper", "checkers": 4}, "opponent": {"kind": "open"}}),
        )
        .await;
    assert_eq!(s, 200, "{g}");
    g["id"].as_str().unwrap().to_string()
}

/// A WebSocket on game `id`, from version `since`.
pub async fn watch(base: &str, id: &str, since: i64) -> Watcher {
    let url = format!(
        "{}/api/games/{id}/ws?since={since}",
        base.replacen("http", "ws", 1)
    );
    let (ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket");
    Watcher { ws }
}

/// A spectator's socket.
pub struct Watcher {
    /// The socket.
    pub ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Watcher {
    /// The next JSON message, within `secs` seconds.
    pub async fn next(&mut self, secs: u64) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(secs), self.ws.next())
                .await
                .ok()??
                .ok()?;
            match msg {
                tokio_tungstenite::tungstenite::Message::Text(t) => {
                    return serde_json::from_str(&t).ok();
                }
                tokio_tungstenite::tungstenite::Message::Close(_) => return None,
                _ => {}
            }
        }
    }

    /// Reads messages until one has `version >= v` and type `event` or `state`.
    pub async fn until_version(&mut self, v: i64, secs: u64) -> Option<Value> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < deadline {
            let m = self.next(secs).await?;
            if m["version"].as_i64().unwrap_or(0) >= v {
                return Some(m);
            }
        }
        None
    }
}

/// Runs `tabula` with arguments, returning status code and stdout/stderr.
pub fn tabula(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The JSON lines of a streamed answer (`application/x-ndjson`, read as text).
pub fn lines_of(body: &Value) -> Vec<Value> {
    body.as_str()
        .expect("lines of JSON")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
