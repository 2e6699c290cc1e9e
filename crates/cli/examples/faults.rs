//! Storage faults under load, for the table in docs/operations.md: six guest-v-guest games
//! (every roll and action through the real HTTP API, one request at a time per game) on a
//! `tabula serve` process while the storage fails a few times, with `/readyz` polled every
//! 200 ms. Prints, for each fault, the answers to writes during it, the slowest one, the time
//! from its end to the first acknowledgement of every game, and the readiness answers; then
//! kills the server (SIGKILL), starts it again on the database, and counts the acknowledged
//! entries missing from the logs.
//!
//! ```sh
//! cargo build --release -p tabula-cli --example faults
//! # A full disk: SQLite on a 64 MiB filesystem whose free space a ballast file takes.
//! mount -t tmpfs -o size=64m tmpfs /mnt/small
//! target/release/examples/faults --database /mnt/small/tabula.sqlite3 --faults 2 --seconds 25 \
//!     --fault-on 'dd if=/dev/zero of=/mnt/small/ballast bs=1M 2>/dev/null; true' \
//!     --fault-off 'rm -f /mnt/small/ballast'
//! # PostgreSQL outages: a proxy between the server and the database, cut for 10 s.
//! target/release/examples/faults --database postgres://postgres@127.0.0.1:5432/faults --proxy \
//!     --faults 3 --seconds 10
//! # Or a PostgreSQL stopped and started by commands (a private cluster).
//! target/release/examples/faults --database postgres://postgres@127.0.0.1:5433/postgres \
//!     --fault-on 'pg_ctl -D /tmp/pg stop -m fast' --fault-off 'pg_ctl -D /tmp/pg start -w' --faults 3 --seconds 10
//! ```

#[allow(dead_code)]
#[path = "../tests/server/faultload.rs"]
mod faultload;
#[allow(dead_code)]
#[path = "../tests/server/proxy.rs"]
mod proxy;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    database: String,
    binary: String,
    games: usize,
    faults: usize,
    seconds: u64,
    between: u64,
    proxy: bool,
    fault_on: Option<String>,
    fault_off: Option<String>,
}

fn args() -> Args {
    let mut a = Args {
        database: String::new(),
        binary: "target/release/tabula".into(),
        games: 6,
        faults: 2,
        seconds: 25,
        between: 15,
        proxy: false,
        fault_on: None,
        fault_off: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--proxy" {
            a.proxy = true;
            continue;
        }
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--database" => a.database = value,
            "--binary" => a.binary = value,
            "--games" => a.games = value.parse().expect("--games N"),
            "--faults" => a.faults = value.parse().expect("--faults N"),
            "--seconds" => a.seconds = value.parse().expect("--seconds S"),
            "--between" => a.between = value.parse().expect("--between S"),
            "--fault-on" => a.fault_on = Some(value),
            "--fault-off" => a.fault_off = Some(value),
            other => panic!("unknown flag {other}"),
        }
    }
    assert!(!a.database.is_empty(), "--database is required");
    assert!(
        a.proxy || (a.fault_on.is_some() && a.fault_off.is_some()),
        "--proxy, or --fault-on and --fault-off"
    );
    a
}

/// `tabula serve` on a free port over `database`; its URL.
fn serve(binary: &str, database: &str) -> (Child, String) {
    let mut child = Command::new(binary)
        .args(["serve", "--addr", "127.0.0.1:0", "--database", database])
        .env("RUST_LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabula serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the first line");
    let url = line
        .trim()
        .strip_prefix("Tabula is serving at ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (child, url)
}

fn shell(command: &str) {
    let status = Command::new("sh").args(["-c", command]).status();
    if !status.as_ref().is_ok_and(|s| s.success()) {
        eprintln!("warning: `{command}` failed: {status:?}");
    }
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn counts(m: &std::collections::BTreeMap<String, usize>) -> String {
    m.iter()
        .map(|(k, v)| format!("{v} × {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[tokio::main]
async fn main() {
    let a = args();
    let postgres = a.database.starts_with("postgres");
    let proxy = if a.proxy {
        assert!(postgres, "--proxy is for a PostgreSQL database");
        Some(proxy::Proxy::start(proxy::postgres_address(&a.database).await).await)
    } else {
        None
    };
    let through = proxy
        .as_ref()
        .map_or(a.database.clone(), |p| p.url(&a.database));
    let (mut child, base) = serve(&a.binary, &through);
    let load = Arc::new(faultload::Load::default());
    let mut ids = Vec::new();
    let mut tasks = Vec::new();
    for n in 0..a.games {
        let game = faultload::new_game(&base, n).await;
        ids.push(game.id.clone());
        tasks.push(tokio::spawn(faultload::play(load.clone(), game, n as u64)));
    }
    tasks.push(tokio::spawn(faultload::poll_readiness(
        load.clone(),
        base.clone(),
    )));
    let mut windows = Vec::new();
    for fault in 0..a.faults {
        tokio::time::sleep(Duration::from_secs(a.between)).await;
        eprintln!("fault {} begins", fault + 1);
        let start = Instant::now();
        match &proxy {
            Some(p) => p.cut(),
            None => shell(a.fault_on.as_deref().unwrap_or("true")),
        }
        tokio::time::sleep(Duration::from_secs(a.seconds)).await;
        match &proxy {
            Some(p) => p.restore(),
            None => shell(a.fault_off.as_deref().unwrap_or("true")),
        }
        let end = Instant::now();
        eprintln!("fault {} ends", fault + 1);
        windows.push((start, end));
    }
    tokio::time::sleep(Duration::from_secs(a.between)).await;
    load.stop.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = t.await;
    }
    let _ = child.kill();
    let _ = child.wait();

    println!("| fault | answers to writes during it | slowest | first ack after it (slowest game) | /readyz during it | slowest /readyz | /readyz 200 again after |");
    println!("|---|---|---|---|---|---|---|");
    for (i, &(start, end)) in windows.iter().enumerate() {
        let w = faultload::window(&load, &ids, start, end);
        println!(
            "| {} ({}) | {} | {} | {} | {} | {} | {} |",
            i + 1,
            secs(end - start),
            counts(&w.answers),
            secs(w.slowest),
            w.recovery.map_or("none".into(), secs),
            counts(&w.ready),
            secs(w.ready_slowest),
            w.ready_again.map_or("never".into(), secs),
        );
    }
    for (i, &(start, end)) in windows.iter().enumerate() {
        let w = faultload::window(&load, &ids, start, end);
        println!(
            "fault {}: reads of the games answered {}",
            i + 1,
            counts(&w.reads)
        );
    }
    let (mut again, base) = serve(&a.binary, &a.database);
    let acks = load.acks.lock().unwrap().clone();
    let lost = faultload::lost(&base, &acks).await;
    let _ = again.kill();
    let _ = again.wait();
    let writes = load.writes.lock().unwrap();
    let internal = writes.iter().filter(|w| w.status == 500).count();
    let unanswered = writes.iter().filter(|w| w.status == 0).count();
    println!();
    println!(
        "{} games, {} acknowledged entries, {} lost after SIGKILL and restart; {} writes answered 500, {} unanswered; versions going backwards: {}",
        a.games,
        acks.len(),
        lost.len(),
        internal,
        unanswered,
        load.backwards.lock().unwrap().len()
    );
    for l in &lost {
        println!("lost: {l}");
    }
}
