//! Games under storage faults, as the tests and the `faults` example drive them: guest-v-guest
//! backgammon matches, one request at a time per game, every acknowledged entry recorded
//! (its version, and the roll's nonce or the action's text), every answer timed, `/readyz`
//! polled; then the figures of each fault window and a check that every acknowledged entry is
//! in the log.

use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An answer: its status (0: none within 30 s, or no connection), body and time taken.
pub struct Timed {
    /// HTTP status, or 0.
    pub status: u16,
    /// The JSON body (or the text as a JSON string).
    pub body: Value,
    /// How long it took.
    pub took: Duration,
}

impl Timed {
    /// The error code of an error answer (`""` otherwise).
    pub fn code(&self) -> String {
        self.body["error"]["code"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

/// A guest with a session cookie.
#[derive(Clone)]
pub struct Player {
    http: reqwest::Client,
    base: String,
}

impl Player {
    /// A new guest on the server at `base`.
    pub async fn guest(base: &str, nickname: &str) -> Player {
        let p = Player {
            http: reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .expect("client"),
            base: base.to_string(),
        };
        let r = p.post("/api/guest", json!({"nickname": nickname})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        p
    }

    /// GET.
    pub async fn get(&self, path: &str) -> Timed {
        self.send(self.http.get(format!("{}{path}", self.base)))
            .await
    }

    /// POST JSON.
    pub async fn post(&self, path: &str, body: Value) -> Timed {
        self.send(self.http.post(format!("{}{path}", self.base)).json(&body))
            .await
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> Timed {
        let start = Instant::now();
        let answer = async {
            let r = req.timeout(Duration::from_secs(30)).send().await.ok()?;
            let status = r.status().as_u16();
            let text = r.text().await.ok()?;
            Some((
                status,
                serde_json::from_str(&text).unwrap_or(Value::String(text)),
            ))
        }
        .await;
        let (status, body) = answer.unwrap_or((0, Value::Null));
        Timed {
            status,
            body,
            took: start.elapsed(),
        }
    }
}

/// An acknowledged log entry.
#[derive(Debug, Clone)]
pub struct Ack {
    /// The game.
    pub game: String,
    /// The version the server answered.
    pub version: i64,
    /// `roll` or `action`.
    pub kind: &'static str,
    /// The roll's nonce, or the action's text.
    pub what: String,
    /// When the answer came.
    pub at: Instant,
}

/// One answer to a write (a roll or an action), or to `/readyz`.
#[derive(Debug, Clone)]
pub struct Answer {
    /// When it was sent.
    pub sent: Instant,
    /// Its status (0: none).
    pub status: u16,
    /// Its error code, if any.
    pub code: String,
    /// How long it took.
    pub took: Duration,
}

/// What the games and the readiness poller saw.
#[derive(Default)]
pub struct Load {
    /// Acknowledged entries.
    pub acks: Mutex<Vec<Ack>>,
    /// Answers to rolls and actions.
    pub writes: Mutex<Vec<Answer>>,
    /// Answers to `GET /api/games/{id}`.
    pub reads: Mutex<Vec<Answer>>,
    /// Answers to `/readyz`.
    pub ready: Mutex<Vec<Answer>>,
    /// Games seen at a version below one already acknowledged.
    pub backwards: Mutex<Vec<String>>,
    /// When each game ended, if it did.
    pub finished: Mutex<Vec<(String, Instant)>>,
    /// Set to stop.
    pub stop: AtomicBool,
}

fn answer(sent: Instant, t: &Timed) -> Answer {
    Answer {
        sent,
        status: t.status,
        code: t.code(),
        took: t.took,
    }
}

/// A game between two guests (a 25-point backgammon match, so that it lasts).
pub struct Game {
    /// Its id.
    pub id: String,
    white: Player,
    black: Player,
}

/// Starts game number `n` on the server at `base`.
pub async fn new_game(base: &str, n: usize) -> Game {
    let white = Player::guest(base, &format!("white {n}")).await;
    let black = Player::guest(base, &format!("black {n}")).await;
    let g = white
        .post(
            "/api/games",
            json!({"options": {"game": "backgammon", "match_length": 25},
                   "opponent": {"kind": "open"}, "client_seed": format!("w{n}")}),
        )
        .await;
    assert_eq!(g.status, 200, "{}", g.body);
    let id = g.body["id"].as_str().expect("an id").to_string();
    let j = black
        .post(
            &format!("/api/games/{id}/join"),
            json!({"client_seed": format!("b{n}")}),
        )
        .await;
    assert_eq!(j.status, 200, "{}", j.body);
    Game { id, white, black }
}

/// A write planned from the game's state: who sends it, its kind, nonce or action text,
/// path and body.
type Write<'a> = (&'a Player, &'static str, String, &'static str, Value);

/// Plays `game` (both seats, one request at a time) until `load.stop`, recording everything.
/// A write answered `storage_full` or `storage_unavailable` (nothing changed) is sent again
/// unchanged, as a client would; after any other refusal the game is read again.
pub async fn play(load: Arc<Load>, game: Game, seed: u64) {
    let id = game.id.clone();
    let mut pick = chooser(seed);
    let (mut highest, mut n) = (0i64, 0u64);
    let mut pending: Option<Write> = None;
    while !load.stop.load(Ordering::SeqCst) {
        if pending.is_none() {
            let sent = Instant::now();
            let g = game.white.get(&format!("/api/games/{id}")).await;
            load.reads.lock().unwrap().push(answer(sent, &g));
            if g.status != 200 {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            let g = g.body;
            let version = g["version"].as_i64().unwrap_or(0);
            if version < highest {
                load.backwards.lock().unwrap().push(format!(
                    "game {id} at version {version} after {highest} was acknowledged"
                ));
            }
            if g["state"] != "playing" {
                load.finished
                    .lock()
                    .unwrap()
                    .push((id.clone(), Instant::now()));
                return;
            }
            let roller = g["roller"].as_str().unwrap_or("");
            let status = &g["view"]["status"];
            if !roller.is_empty() {
                n += 1;
                let nonce = format!("{id}-{version}-{n}");
                let player = if roller == "black" {
                    &game.black
                } else {
                    &game.white
                };
                pending = Some((
                    player,
                    "roll",
                    nonce.clone(),
                    "roll",
                    json!({"nonce": nonce}),
                ));
            } else if status["status"] == "decide" {
                let legal: Vec<String> =
                    serde_json::from_value(g["view"]["legal"].clone()).unwrap_or_default();
                if !legal.is_empty() {
                    let action = pick(&legal);
                    let player = if status["player"] == "black" {
                        &game.black
                    } else {
                        &game.white
                    };
                    let body = json!({"action": action, "version": version});
                    pending = Some((player, "action", action, "actions", body));
                }
            }
        }
        let Some((player, kind, what, path, body)) = pending.clone() else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let sent = Instant::now();
        let r = player.post(&format!("/api/games/{id}/{path}"), body).await;
        load.writes.lock().unwrap().push(answer(sent, &r));
        if r.status == 200 {
            pending = None;
            let v = r.body["version"].as_i64().unwrap_or(0);
            highest = highest.max(v);
            load.acks.lock().unwrap().push(Ack {
                game: id.clone(),
                version: v,
                kind,
                what,
                at: Instant::now(),
            });
            continue;
        }
        if !(r.status == 503
            && ["storage_full", "storage_unavailable"].contains(&r.code().as_str()))
        {
            pending = None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Polls `/readyz` every 200 ms until `load.stop`.
pub async fn poll_readiness(load: Arc<Load>, base: String) {
    let http = reqwest::Client::new();
    while !load.stop.load(Ordering::SeqCst) {
        let sent = Instant::now();
        let r = http
            .get(format!("{base}/readyz"))
            .timeout(Duration::from_secs(30))
            .send()
            .await;
        let (status, code) = match r {
            Ok(r) => {
                let status = r.status().as_u16();
                let body: Value = r.json().await.unwrap_or(Value::Null);
                (
                    status,
                    body["error"]["code"].as_str().unwrap_or("").to_string(),
                )
            }
            Err(_) => (0, String::new()),
        };
        load.ready.lock().unwrap().push(Answer {
            sent,
            status,
            code,
            took: sent.elapsed(),
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The figures of one fault window `[start, end)`.
#[derive(Debug, Default)]
pub struct Window {
    /// Writes answered during the window, by status and code (`200`, `503 storage_full`).
    pub answers: std::collections::BTreeMap<String, usize>,
    /// The slowest answer to a write sent during the window.
    pub slowest: Duration,
    /// Reads of the games (`GET /api/games/{id}`) answered during the window, by status
    /// and code.
    pub reads: std::collections::BTreeMap<String, usize>,
    /// From the end of the window to the first acknowledgement after it, for the game that
    /// took longest (`None`: a game that was still playing had none).
    pub recovery: Option<Duration>,
    /// Readiness answers during the window, by status and code.
    pub ready: std::collections::BTreeMap<String, usize>,
    /// The slowest readiness answer during the window.
    pub ready_slowest: Duration,
    /// From the end of the window to the first readiness 200 after it.
    pub ready_again: Option<Duration>,
}

fn label(a: &Answer) -> String {
    if a.code.is_empty() {
        a.status.to_string()
    } else {
        format!("{} {}", a.status, a.code)
    }
}

/// The figures of the window `[start, end)` for `games`.
pub fn window(load: &Load, games: &[String], start: Instant, end: Instant) -> Window {
    let mut w = Window::default();
    for a in load.writes.lock().unwrap().iter() {
        if a.sent >= start && a.sent < end {
            *w.answers.entry(label(a)).or_default() += 1;
            w.slowest = w.slowest.max(a.took);
        }
    }
    for a in load.reads.lock().unwrap().iter() {
        if a.sent >= start && a.sent < end {
            *w.reads.entry(label(a)).or_default() += 1;
        }
    }
    for a in load.ready.lock().unwrap().iter() {
        if a.sent >= start && a.sent < end {
            *w.ready.entry(label(a)).or_default() += 1;
            w.ready_slowest = w.ready_slowest.max(a.took);
        }
        if a.sent >= end && a.status == 200 && w.ready_again.is_none() {
            w.ready_again = Some(a.sent + a.took - end);
        }
    }
    let acks = load.acks.lock().unwrap();
    let finished = load.finished.lock().unwrap();
    let mut slowest = Some(Duration::ZERO);
    for g in games {
        if finished.iter().any(|(id, at)| id == g && *at <= end) {
            continue;
        }
        let first = acks
            .iter()
            .filter(|a| &a.game == g && a.at >= end)
            .map(|a| a.at - end)
            .min();
        slowest = match (slowest, first) {
            (Some(s), Some(f)) => Some(s.max(f)),
            _ => None,
        };
    }
    w.recovery = slowest;
    w
}

/// The acknowledged entries that are not in the log of the server at `base` (read with
/// `/events`): each must be there at its version, with its nonce or action text.
pub async fn lost(base: &str, acks: &[Ack]) -> Vec<String> {
    let reader = reqwest::Client::new();
    let mut logs: std::collections::HashMap<String, Vec<Value>> = Default::default();
    let mut lost = Vec::new();
    for a in acks {
        if !logs.contains_key(&a.game) {
            let events: Value = reader
                .get(format!("{base}/api/games/{}/events", a.game))
                .send()
                .await
                .expect("events")
                .json()
                .await
                .expect("events JSON");
            logs.insert(
                a.game.clone(),
                events.as_array().cloned().unwrap_or_default(),
            );
        }
        let log = &logs[&a.game];
        let found = log.iter().any(|e| {
            e["version"] == a.version
                && e["kind"] == a.kind
                && if a.kind == "roll" {
                    e["nonce"] == a.what.as_str()
                } else {
                    e["payload"] == a.what.as_str()
                }
        });
        if !found {
            lost.push(format!("{a:?}"));
        }
    }
    lost
}

/// A chooser that prefers plain moves (no resignations, draw offers or doubles), cycling
/// through the choices with a simple generator so that games do not repeat.
pub fn chooser(seed: u64) -> impl FnMut(&[String]) -> String {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    move |legal: &[String]| {
        let plain: Vec<&String> = legal
            .iter()
            .filter(|a| {
                !["resign", "offer-draw", "accept-draw", "double", "beaver"]
                    .iter()
                    .any(|w| a.starts_with(w))
            })
            .collect();
        let pool: Vec<&String> = if plain.is_empty() {
            legal.iter().collect()
        } else {
            plain
        };
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        pool[(state >> 33) as usize % pool.len()].clone()
    }
}
