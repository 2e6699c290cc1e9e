//! Load generator for `tabula serve`: N concurrent scripted backgammon games (two guest
//! players each, every action and roll through the real HTTP API, one WebSocket spectator
//! per game), reporting acknowledged actions per second and their latency percentiles.
//!
//! ```sh
//! cargo build --release -p tabula-cli --example loadgen
//! target/release/examples/loadgen --games 32 --seconds 20                    # SQLite
//! target/release/examples/loadgen --games 32 --seconds 20 --database postgres://postgres@127.0.0.1/bench
//! ```
//!
//! It starts `target/release/tabula serve` on a free port over the given database (default:
//! a new SQLite file in the temp directory) unless `--url` points at a running server.

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Args {
    games: usize,
    seconds: u64,
    database: Option<String>,
    url: Option<String>,
    binary: String,
}

fn args() -> Args {
    let mut a = Args {
        games: 16,
        seconds: 20,
        database: None,
        url: None,
        binary: "target/release/tabula".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => a.games = value.parse().expect("--games N"),
            "--seconds" => a.seconds = value.parse().expect("--seconds S"),
            "--database" => a.database = Some(value),
            "--url" => a.url = Some(value),
            "--binary" => a.binary = value,
            other => panic!("unknown flag {other}"),
        }
    }
    a
}

async fn post(http: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    match http.post(url).json(&body).send().await {
        Ok(r) => {
            let s = r.status().as_u16();
            (s, r.json().await.unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

async fn guest(base: &str, name: &str) -> reqwest::Client {
    let http = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let (s, _) = post(
        &http,
        format!("{base}/api/guest"),
        json!({"nickname": name}),
    )
    .await;
    assert_eq!(s, 200, "guest login failed");
    http
}

struct Totals {
    actions: AtomicU64,
    refused: AtomicU64,
    games_done: AtomicU64,
    pushes: AtomicU64,
    latencies: Mutex<Vec<u32>>,
}

/// Plays games between two guests until `stop`, recording each POST's latency.
async fn player_pair(base: String, n: usize, stop: Instant, totals: Arc<Totals>) {
    let white = guest(&base, &format!("w{n}")).await;
    let black = guest(&base, &format!("b{n}")).await;
    let mut rng = (n as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15);
    while Instant::now() < stop {
        let (s, g) = post(
            &white,
            format!("{base}/api/games"),
            json!({"options": {"game": "backgammon"}, "opponent": {"kind": "invite"}, "client_seed": format!("w{n}")}),
        )
        .await;
        assert_eq!(s, 200, "{g}");
        let id = g["id"].as_str().unwrap().to_string();
        let code = g["invite_code"].clone();
        let (s, mut g) = post(
            &black,
            format!("{base}/api/games/{id}/join"),
            json!({"invite_code": code, "client_seed": format!("b{n}")}),
        )
        .await;
        assert_eq!(s, 200, "{g}");
        // A spectator counts the pushes.
        let ws_url = format!("{}/api/games/{id}/ws", base.replacen("http", "ws", 1));
        let counter = totals.clone();
        let spectator = tokio::spawn(async move {
            if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(ws_url).await {
                while let Some(Ok(_)) = ws.next().await {
                    counter.pushes.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        while g["state"] == "playing" && Instant::now() < stop {
            let status = &g["view"]["status"];
            let roller = g["roller"].as_str().unwrap_or("");
            let (who, path, body) = if !roller.is_empty() {
                let who = if roller == "black" { &black } else { &white };
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (who, "roll", json!({"nonce": format!("{rng:016x}")}))
            } else if status["status"] == "decide" {
                let who = if status["player"] == "black" {
                    &black
                } else {
                    &white
                };
                let legal: Vec<&str> = g["view"]["legal"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|v| v.as_str())
                    .filter(|a| !a.starts_with("resign") && *a != "double" && *a != "beaver")
                    .collect();
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let action = legal[(rng >> 33) as usize % legal.len()];
                (who, "actions", json!({"action": action}))
            } else {
                break;
            };
            let t = Instant::now();
            let (s, reply) = post(who, format!("{base}/api/games/{id}/{path}"), body).await;
            let micros = t.elapsed().as_micros() as u32;
            if s == 200 {
                totals.actions.fetch_add(1, Ordering::Relaxed);
                totals.latencies.lock().unwrap().push(micros);
                g = reply;
            } else {
                totals.refused.fetch_add(1, Ordering::Relaxed);
                break;
            }
        }
        if g["state"] == "finished" {
            totals.games_done.fetch_add(1, Ordering::Relaxed);
        }
        spectator.abort();
    }
}

/// User plus system CPU seconds `pid` has used so far (Linux `/proc`, clock ticks of 1/100 s),
/// or `None` where it cannot be read.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let a = args();
    let mut child = None;
    let base = match &a.url {
        Some(u) => u.trim_end_matches('/').to_string(),
        None => {
            let db = a.database.clone().unwrap_or_else(|| {
                std::env::temp_dir()
                    .join(format!("tabula_load_{}.sqlite3", std::process::id()))
                    .display()
                    .to_string()
            });
            let mut c = Command::new(&a.binary)
                .args(["serve", "--addr", "127.0.0.1:0", "--database", &db])
                .env("RUST_LOG", "warn")
                .stdout(Stdio::piped())
                .spawn()
                .expect("start the server (build it with cargo build --release -p tabula-cli)");
            let mut line = String::new();
            BufReader::new(c.stdout.take().unwrap())
                .read_line(&mut line)
                .unwrap();
            child = Some(c);
            line.trim()
                .trim_start_matches("Tabula is serving at ")
                .trim_end_matches('/')
                .to_string()
        }
    };
    let totals = Arc::new(Totals {
        actions: AtomicU64::new(0),
        refused: AtomicU64::new(0),
        games_done: AtomicU64::new(0),
        pushes: AtomicU64::new(0),
        latencies: Mutex::new(Vec::new()),
    });
    let server_pid = child.as_ref().map(|c: &std::process::Child| c.id());
    let cpu_before = server_pid.and_then(cpu_seconds);
    let start = Instant::now();
    let stop = start + Duration::from_secs(a.seconds);
    let tasks: Vec<_> = (0..a.games)
        .map(|n| tokio::spawn(player_pair(base.clone(), n, stop, totals.clone())))
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let wall = start.elapsed().as_secs_f64();
    let mut lat = totals.latencies.lock().unwrap().clone();
    lat.sort_unstable();
    let actions = totals.actions.load(Ordering::Relaxed);
    println!(
        "{} concurrent games, {wall:.1} s: {actions} actions acknowledged ({:.0}/s), {} refused, {} games finished, {} WebSocket pushes received",
        a.games,
        actions as f64 / wall,
        totals.refused.load(Ordering::Relaxed),
        totals.games_done.load(Ordering::Relaxed),
        totals.pushes.load(Ordering::Relaxed),
    );
    println!(
        "latency per action: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&lat, 0.5),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0)
    );
    if let (Some(pid), Some(before)) = (server_pid, cpu_before) {
        if let Some(after) = cpu_seconds(pid) {
            let cpu = after - before;
            println!(
                "server CPU (user + system): {cpu:.2} s, {:.3} ms per acknowledged action",
                cpu * 1000.0 / actions.max(1) as f64
            );
        }
    }
    if let Some(mut c) = child {
        let _ = c.kill();
        let _ = c.wait();
    }
}
