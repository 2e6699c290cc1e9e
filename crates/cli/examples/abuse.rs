//! Abuse benchmark for `tabula serve` (issue 13): how the server holds up against clients
//! that misbehave, on loopback only, bounded in time and size, stopping by itself.
//!
//! ```sh
//! cargo build --release -p tabula-cli --bin tabula --example abuse
//! target/release/examples/abuse                              # every part
//! target/release/examples/abuse --parts slow --slow 1000 --seconds 20
//! target/release/examples/abuse --parts logins --logins 500
//! target/release/examples/abuse --parts unknown --unknown 100000
//! ```
//!
//! Parts (`--parts slow,logins,unknown`, default all three):
//!
//! - **slow**: holds `--slow` connections (default 1,000) that send half a request head and
//!   nothing more, opening a new one whenever the server closes one, for `--seconds`
//!   (default 20); meanwhile samples `GET /healthz` on a fresh connection every 100 ms and
//!   plays a game between two guests, timing each move. Target: answers within 100 ms.
//!   A short baseline without the slow connections comes first.
//! - **logins**: registers an account, then sends `--logins` (default 500) wrong-password
//!   logins for it at once, sampling the server's memory (`VmRSS` in `/proc/PID/status`,
//!   `VmHWM` at the end). Reports the answers by status (401 refused, 429 throttled, 503
//!   busy) and the peak memory. Target: below 200 MB throughout.
//! - **unknown**: `--unknown` (default 100,000) `GET /api/games/<random id>` for games that
//!   do not exist, 64 at a time, with the server's memory before and after.
//!
//! It starts `target/release/tabula serve` on a free port over a new SQLite file in the temp
//! directory (`--database` names another) unless `--url` points at a running server (then
//! `--pid` gives the process whose memory to sample; without it memory is not reported).
//! Only loopback addresses are accepted. The benchmark raises its own open-file limit to the
//! hard limit to hold the slow connections.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct Args {
    parts: Vec<String>,
    slow: usize,
    seconds: u64,
    logins: usize,
    unknown: usize,
    database: Option<String>,
    url: Option<String>,
    pid: Option<u32>,
    binary: String,
}

fn args() -> Args {
    let mut a = Args {
        parts: vec!["slow".into(), "logins".into(), "unknown".into()],
        slow: 1000,
        seconds: 20,
        logins: 500,
        unknown: 100_000,
        database: None,
        url: None,
        pid: None,
        binary: "target/release/tabula".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--parts" => a.parts = value.split(',').map(|s| s.trim().to_string()).collect(),
            "--slow" => a.slow = value.parse().expect("--slow N"),
            "--seconds" => a.seconds = value.parse().expect("--seconds S"),
            "--logins" => a.logins = value.parse().expect("--logins N"),
            "--unknown" => a.unknown = value.parse().expect("--unknown N"),
            "--database" => a.database = Some(value),
            "--url" => a.url = Some(value),
            "--pid" => a.pid = Some(value.parse().expect("--pid PID")),
            "--binary" => a.binary = value,
            other => panic!("unknown flag {other}"),
        }
    }
    for p in &a.parts {
        assert!(
            ["slow", "logins", "unknown"].contains(&p.as_str()),
            "unknown part {p:?}: slow, logins or unknown"
        );
    }
    assert!(a.seconds <= 300, "--seconds is at most 300");
    assert!(a.slow <= 20_000, "--slow is at most 20000");
    assert!(a.logins <= 5_000, "--logins is at most 5000");
    assert!(a.unknown <= 1_000_000, "--unknown is at most 1000000");
    a
}

/// `VmRSS` and `VmHWM` of `pid`, in MB.
fn memory(pid: Option<u32>) -> Option<(f64, f64)> {
    let text = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let field = |name: &str| -> Option<f64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024.0)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

fn show_memory(m: Option<(f64, f64)>) -> String {
    match m {
        Some((rss, hwm)) => format!("VmRSS {rss:.1} MB, VmHWM {hwm:.1} MB"),
        None => "memory not sampled".into(),
    }
}

/// Samples `VmRSS` every 10 ms until `stop`; returns the largest.
fn sample_peak(pid: Option<u32>, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<f64> {
    tokio::spawn(async move {
        let mut peak: f64 = 0.0;
        while !stop.load(Ordering::Relaxed) {
            if let Some((rss, _)) = memory(pid) {
                peak = peak.max(rss);
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        peak
    })
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn latency_line(what: &str, lat: &mut [u32], failed: u64) -> String {
    lat.sort_unstable();
    let over = lat.iter().filter(|&&us| us > 100_000).count();
    format!(
        "{what}: {} answered, {failed} failed; p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {over} over 100 ms",
        lat.len(),
        percentile(lat, 0.5),
        percentile(lat, 0.99),
        percentile(lat, 1.0),
    )
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
        .timeout(Duration::from_secs(10))
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

/// Latencies in microseconds and failures, shared by the probes.
#[derive(Default)]
struct Probe {
    latencies: Mutex<Vec<u32>>,
    failed: AtomicU64,
}

impl Probe {
    fn take(&self) -> (Vec<u32>, u64) {
        (
            std::mem::take(&mut *self.latencies.lock().unwrap()),
            self.failed.swap(0, Ordering::Relaxed),
        )
    }
}

/// `GET /healthz` on a fresh connection every 100 ms until `stop`.
async fn probe_health(base: String, stop: Arc<AtomicBool>, probe: Arc<Probe>) {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    while !stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        match http.get(format!("{base}/healthz")).send().await {
            Ok(r) if r.status() == 200 => {
                let _ = r.bytes().await;
                probe
                    .latencies
                    .lock()
                    .unwrap()
                    .push(t.elapsed().as_micros() as u32);
            }
            _ => {
                probe.failed.fetch_add(1, Ordering::Relaxed);
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Two guests play backgammon games until `stop`, one move every 50 ms, timing each POST.
async fn probe_game(base: String, stop: Arc<AtomicBool>, probe: Arc<Probe>) {
    let white = guest(&base, "abuse-white").await;
    let black = guest(&base, "abuse-black").await;
    let mut rng: u64 = 0x9E3779B97F4A7C15;
    while !stop.load(Ordering::Relaxed) {
        let (s, g) = post(
            &white,
            format!("{base}/api/games"),
            json!({"options": {"game": "backgammon"}, "opponent": {"kind": "invite"}, "client_seed": "w"}),
        )
        .await;
        if s != 200 {
            probe.failed.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let id = g["id"].as_str().unwrap().to_string();
        let (s, mut g) = post(
            &black,
            format!("{base}/api/games/{id}/join"),
            json!({"invite_code": g["invite_code"], "client_seed": "b"}),
        )
        .await;
        if s != 200 {
            probe.failed.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        while g["state"] == "playing" && !stop.load(Ordering::Relaxed) {
            let status = &g["view"]["status"];
            let roller = g["roller"].as_str().unwrap_or("");
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (who, path, body) = if !roller.is_empty() {
                let who = if roller == "black" { &black } else { &white };
                (who, "roll", json!({"nonce": format!("{rng:016x}")}))
            } else if status["status"] == "decide" {
                let who = if status["player"] == "black" {
                    &black
                } else {
                    &white
                };
                let legal: Vec<&str> = g["view"]["legal"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                    .unwrap_or_default();
                let plain: Vec<&str> = legal
                    .iter()
                    .copied()
                    .filter(|a| !a.starts_with("resign") && *a != "double" && *a != "beaver")
                    .collect();
                let pool = if plain.is_empty() { legal } else { plain };
                if pool.is_empty() {
                    break;
                }
                let action = pool[(rng >> 33) as usize % pool.len()];
                (who, "actions", json!({"action": action}))
            } else {
                break;
            };
            let t = Instant::now();
            let (s, reply) = post(who, format!("{base}/api/games/{id}/{path}"), body).await;
            if s == 200 {
                probe
                    .latencies
                    .lock()
                    .unwrap()
                    .push(t.elapsed().as_micros() as u32);
                g = reply;
            } else {
                probe.failed.fetch_add(1, Ordering::Relaxed);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// One slow client: connects, sends half a request head, waits until the server closes the
/// connection, and starts again, until `stop`.
async fn slow_client(
    addr: String,
    stop: Arc<AtomicBool>,
    open: Arc<AtomicU64>,
    stats: Arc<SlowStats>,
) {
    let mut buf = [0u8; 1024];
    while !stop.load(Ordering::Relaxed) {
        let Ok(Ok(mut s)) = tokio::time::timeout(
            Duration::from_secs(5),
            tokio::net::TcpStream::connect(&addr),
        )
        .await
        else {
            stats.connect_failed.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        if s.write_all(b"GET /healthz HTTP/1.1\r\nHost: abuse\r\nX-Slow: ")
            .await
            .is_err()
        {
            continue;
        }
        open.fetch_add(1, Ordering::Relaxed);
        // Until the server closes it (or the run ends).
        loop {
            tokio::select! {
                r = s.read(&mut buf) => match r {
                    Ok(0) | Err(_) => {
                        stats.closed_by_server.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                    Ok(_) => {}
                },
                _ = tokio::time::sleep(Duration::from_millis(250)) => {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
            }
        }
        open.fetch_sub(1, Ordering::Relaxed);
    }
}

#[derive(Default)]
struct SlowStats {
    closed_by_server: AtomicU64,
    connect_failed: AtomicU64,
}

async fn part_slow(base: &str, n: usize, seconds: u64) {
    println!("== slow: {n} connections holding half a request head for {seconds} s");
    let addr = base.trim_start_matches("http://").to_string();
    let health = Arc::new(Probe::default());
    let moves = Arc::new(Probe::default());
    let stop = Arc::new(AtomicBool::new(false));
    let probes = [
        tokio::spawn(probe_health(base.to_string(), stop.clone(), health.clone())),
        tokio::spawn(probe_game(base.to_string(), stop.clone(), moves.clone())),
    ];
    // Baseline: 3 s without slow connections.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (mut h, hf) = health.take();
    let (mut m, mf) = moves.take();
    println!("baseline, 3 s:");
    println!(
        "  {}",
        latency_line("GET /healthz (new connection)", &mut h, hf)
    );
    println!("  {}", latency_line("game move (POST)", &mut m, mf));
    let open = Arc::new(AtomicU64::new(0));
    let stats = Arc::new(SlowStats::default());
    let slow_stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    // The slow clients run on a thread of their own, so that they do not delay the probes'
    // tasks in this process (the latencies are the server's).
    let clients = {
        let (addr, slow_stop, open, stats) =
            (addr.clone(), slow_stop.clone(), open.clone(), stats.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let tasks: Vec<_> = (0..n)
                    .map(|_| {
                        tokio::spawn(slow_client(
                            addr.clone(),
                            slow_stop.clone(),
                            open.clone(),
                            stats.clone(),
                        ))
                    })
                    .collect();
                for t in tasks {
                    let _ = t.await;
                }
            })
        })
    };
    let mut min_open = u64::MAX;
    let mut max_open = 0;
    while start.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let o = open.load(Ordering::Relaxed);
        if start.elapsed() > Duration::from_secs(2) {
            min_open = min_open.min(o);
        }
        max_open = max_open.max(o);
    }
    let (mut h, hf) = health.take();
    let (mut m, mf) = moves.take();
    slow_stop.store(true, Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    let _ = tokio::task::spawn_blocking(move || clients.join()).await;
    for p in probes {
        let _ = p.await;
    }
    println!(
        "with the slow connections, {seconds} s: held open {} to {max_open} (after the first 2 s), {} closed by the server, {} connects failed",
        if min_open == u64::MAX { 0 } else { min_open },
        stats.closed_by_server.load(Ordering::Relaxed),
        stats.connect_failed.load(Ordering::Relaxed),
    );
    println!(
        "  {}",
        latency_line("GET /healthz (new connection)", &mut h, hf)
    );
    println!("  {}", latency_line("game move (POST)", &mut m, mf));
}

async fn part_logins(base: &str, n: usize, pid: Option<u32>) {
    println!("== logins: {n} concurrent wrong-password logins for one account");
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .pool_max_idle_per_host(n)
        .build()
        .unwrap();
    let username = format!("victim{}", std::process::id());
    let (s, r) = post(
        &http,
        format!("{base}/api/register"),
        json!({"username": username, "password": "the right password"}),
    )
    .await;
    assert!(s == 200 || s == 409, "register: {s} {r}");
    let before = memory(pid);
    println!("before: {}", show_memory(before));
    let stop = Arc::new(AtomicBool::new(false));
    let peak = sample_peak(pid, stop.clone());
    let start = Instant::now();
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let http = http.clone();
            let url = format!("{base}/api/login");
            let body = json!({"username": username, "password": format!("wrong password {i}")});
            tokio::spawn(async move {
                let t = Instant::now();
                let s = post(&http, url, body).await.0;
                (s, t.elapsed().as_micros() as u32)
            })
        })
        .collect();
    let mut by_status = std::collections::BTreeMap::<u16, usize>::new();
    let mut lat = Vec::new();
    for t in tasks {
        let (s, us) = t.await.unwrap();
        *by_status.entry(s).or_default() += 1;
        lat.push(us);
    }
    let wall = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let peak = peak.await.unwrap();
    let after = memory(pid);
    let count = |s: u16| by_status.get(&s).copied().unwrap_or(0);
    let other: usize = by_status
        .iter()
        .filter(|(s, _)| ![401, 429, 503, 0].contains(*s))
        .map(|(_, n)| n)
        .sum();
    println!(
        "{n} logins in {wall:.2} s: {} 401, {} 429, {} 503, {other} other, {} no answer; all statuses {by_status:?}",
        count(401),
        count(429),
        count(503),
        count(0),
    );
    lat.sort_unstable();
    println!(
        "latency: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&lat, 0.5),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0)
    );
    if pid.is_some() {
        println!(
            "memory: peak VmRSS sampled {peak:.1} MB (target below 200 MB); after: {}",
            show_memory(after)
        );
    }
}

async fn part_unknown(base: &str, n: usize, pid: Option<u32>) {
    println!("== unknown: {n} GET /api/games/<random unknown id>, 64 at a time");
    let before = memory(pid);
    println!("before: {}", show_memory(before));
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let next = Arc::new(AtomicU64::new(0));
    let statuses = Arc::new(Mutex::new(std::collections::BTreeMap::<u16, usize>::new()));
    let start = Instant::now();
    let workers: Vec<_> = (0..64)
        .map(|w| {
            let (http, next, statuses, base) = (
                http.clone(),
                next.clone(),
                statuses.clone(),
                base.to_string(),
            );
            tokio::spawn(async move {
                let mut rng = (w as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15) ^ 0xabcdef;
                let mut local = std::collections::BTreeMap::<u16, usize>::new();
                while next.fetch_add(1, Ordering::Relaxed) < n as u64 {
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    // 18 hex digits, like real ids.
                    let id = format!("{:016x}{:02x}", rng, (rng >> 40) as u8);
                    let s = match http.get(format!("{base}/api/games/{id}")).send().await {
                        Ok(r) => {
                            let s = r.status().as_u16();
                            let _ = r.bytes().await;
                            s
                        }
                        Err(_) => 0,
                    };
                    *local.entry(s).or_default() += 1;
                }
                let mut all = statuses.lock().unwrap();
                for (s, c) in local {
                    *all.entry(s).or_default() += c;
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
    let wall = start.elapsed().as_secs_f64();
    println!(
        "{n} requests in {wall:.1} s ({:.0}/s); statuses {:?}",
        n as f64 / wall,
        statuses.lock().unwrap()
    );
    println!("after: {}", show_memory(memory(pid)));
}

fn is_loopback(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[tokio::main]
async fn main() {
    let a = args();
    // Room for the slow connections (and the server's, when it is our child).
    #[cfg(unix)]
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let mut child = None;
    let mut pid = a.pid;
    let base = match &a.url {
        Some(u) => {
            assert!(
                is_loopback(u),
                "--url must be a plain http:// loopback address"
            );
            u.trim_end_matches('/').to_string()
        }
        None => {
            let db = a.database.clone().unwrap_or_else(|| {
                std::env::temp_dir()
                    .join(format!("tabula_abuse_{}.sqlite3", std::process::id()))
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
            pid = Some(c.id());
            child = Some(c);
            line.trim()
                .trim_start_matches("Tabula is serving at ")
                .trim_end_matches('/')
                .to_string()
        }
    };
    println!("server {base}, pid {pid:?}; {}", show_memory(memory(pid)));
    for part in &a.parts {
        match part.as_str() {
            "slow" => part_slow(&base, a.slow, a.seconds).await,
            "logins" => part_logins(&base, a.logins, pid).await,
            "unknown" => part_unknown(&base, a.unknown, pid).await,
            _ => unreachable!(),
        }
    }
    if let Some(mut c) = child {
        let _ = c.kill();
        let _ = c.wait();
    }
}
