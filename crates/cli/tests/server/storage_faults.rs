//! Storage faults (docs/operations.md): a full SQLite database and PostgreSQL outages (a TCP
//! proxy cut between the server and the database) while six games are played: every
//! acknowledged entry is in the log afterwards (after a SIGKILL and a restart), writes during
//! the fault are answered 503 with a storage code and in bounded time, never 500 or a hang,
//! `/readyz` says so, and the games go on after the fault without a restart. And a `COMMIT`
//! cut in flight is answered `outcome_unknown`, though it was recorded.

use crate::common::*;
use crate::faultload::{self, Load};
use crate::proxy::{postgres_address, Proxy};
use serde_json::json;
use sqlx::Connection;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

const GAMES: usize = 6;

/// The storage codes a write may get during a fault.
const STORAGE_CODES: [&str; 3] = ["storage_full", "storage_unavailable", "outcome_unknown"];

/// Starts the games and the readiness poller on the server at `base`.
async fn start_load(base: &str) -> (Arc<Load>, Vec<String>, Vec<tokio::task::JoinHandle<()>>) {
    let load = Arc::new(Load::default());
    let mut ids = Vec::new();
    let mut tasks = Vec::new();
    for n in 0..GAMES {
        let game = faultload::new_game(base, n).await;
        ids.push(game.id.clone());
        tasks.push(tokio::spawn(faultload::play(load.clone(), game, n as u64)));
    }
    tasks.push(tokio::spawn(faultload::poll_readiness(
        load.clone(),
        base.to_string(),
    )));
    (load, ids, tasks)
}

/// Waits until every game still playing has an acknowledgement after `end` (at most 60 s).
async fn wait_for_recovery(load: &Load, ids: &[String], end: Instant) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if faultload::window(load, ids, end, end).recovery.is_some() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The checks common to every fault run: `windows` are the faults, `code` the answer
/// expected during them.
fn check_answers(load: &Load, ids: &[String], windows: &[(Instant, Instant)], code: &str) {
    assert!(
        load.backwards.lock().unwrap().is_empty(),
        "{:?}",
        load.backwards.lock().unwrap()
    );
    for a in load.writes.lock().unwrap().iter() {
        let fault = a.status == 503 && STORAGE_CODES.contains(&a.code.as_str());
        assert!(a.status == 200 || fault, "a write was answered {a:?}");
        // Bounded: the server's own limits are 2 s to get a connection and 4 s for a write;
        // the rest is slack for a loaded machine. What matters: answered, not hung.
        assert!(a.took < Duration::from_secs(15), "a write hung: {a:?}");
    }
    for a in load.reads.lock().unwrap().iter() {
        let fault = a.status == 503 && STORAGE_CODES.contains(&a.code.as_str());
        assert!(a.status == 200 || fault, "a read was answered {a:?}");
        assert!(a.took < Duration::from_secs(15), "a read hung: {a:?}");
    }
    for a in load.ready.lock().unwrap().iter() {
        assert!(
            a.status == 200 || (a.status == 503 && STORAGE_CODES.contains(&a.code.as_str())),
            "/readyz answered {a:?}"
        );
        assert!(a.took < Duration::from_secs(5), "/readyz was slow: {a:?}");
    }
    for (i, &(start, end)) in windows.iter().enumerate() {
        let w = faultload::window(load, ids, start, end);
        eprintln!("fault {i}: {w:?}");
        let expected = format!("503 {code}");
        // A game reads its state before each write: during an outage the read may be what
        // meets the fault first.
        assert!(
            w.answers.contains_key(&expected) || w.reads.contains_key(&expected),
            "fault {i}: no request was answered {expected}: {w:?}"
        );
        assert!(
            w.ready.contains_key(&expected),
            "fault {i}: /readyz never answered {expected}: {w:?}"
        );
        assert!(
            w.recovery.is_some(),
            "fault {i}: a game had no acknowledgement after the fault: {w:?}"
        );
        assert!(
            w.ready_again.is_some(),
            "fault {i}: /readyz never answered 200 after the fault: {w:?}"
        );
    }
}

/// After a SIGKILL and a restart on `db`: every acknowledged entry is in the log.
async fn check_nothing_lost(server: &mut Server, db: &Database, load: &Load) {
    server.kill9();
    let again = Server::start(db);
    let acks = load.acks.lock().unwrap().clone();
    assert!(acks.len() > 50, "too few acknowledgements: {}", acks.len());
    let lost = faultload::lost(&again.base, &acks).await;
    assert!(
        lost.is_empty(),
        "{} acknowledged entries lost: {lost:?}",
        lost.len()
    );
}

async fn sqlite_connection(path: &std::path::Path) -> sqlx::SqliteConnection {
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .busy_timeout(Duration::from_secs(30));
    sqlx::SqliteConnection::connect_with(&options)
        .await
        .expect("the test's own SQLite connection")
}

/// The database's size cap for the server (`TABULA_SQLITE_MAX_MB`), in MiB.
const CAP_MB: i64 = 2;

/// Fills the database past every connection's cap with a ballast row.
async fn fill(conn: &mut sqlx::SqliteConnection) {
    let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    let page: i64 = sqlx::query_scalar("PRAGMA page_size")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    let bytes = pages * page + (CAP_MB + 1) * 1024 * 1024;
    sqlx::query("INSERT INTO ballast (b) VALUES (zeroblob($1))")
        .bind(bytes)
        .execute(&mut *conn)
        .await
        .unwrap();
}

/// Frees the ballast's pages for the server's writes.
async fn unfill(conn: &mut sqlx::SqliteConnection) {
    sqlx::query("DELETE FROM ballast")
        .execute(&mut *conn)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_full_loses_nothing_says_so_and_recovers_without_a_restart() {
    let db = sqlite();
    let Database::Sqlite(path) = &db else {
        unreachable!()
    };
    let mut server = Server::start_with_env(
        &db,
        &[
            ("TABULA_SQLITE_MAX_MB", &CAP_MB.to_string()),
            ("RUST_LOG", "error"),
        ],
    );
    let base = server.base.clone();
    let mut conn = sqlite_connection(path).await;
    sqlx::query("CREATE TABLE ballast (b BLOB)")
        .execute(&mut conn)
        .await
        .unwrap();
    let (load, ids, tasks) = start_load(&base).await;
    let mut windows = Vec::new();
    for fault in 0..2 {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let start = Instant::now();
        fill(&mut conn).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        if fault == 0 {
            // The rules still answer while the storage is full: a nonsense action is a 4xx.
            let someone = Client::guest(&base, "bystander").await;
            let (s, r) = someone
                .post(
                    &format!("/api/games/{}/actions", ids[0]),
                    json!({"action": "nonsense"}),
                )
                .await;
            assert_eq!(
                (s, r["error"]["code"].as_str()),
                (403, Some("not_a_player"))
            );
        }
        tokio::time::sleep(Duration::from_millis(1500)).await;
        unfill(&mut conn).await;
        let end = Instant::now();
        windows.push((start, end));
        wait_for_recovery(&load, &ids, end).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    load.stop.store(true, Ordering::SeqCst);
    for t in tasks {
        t.await.unwrap();
    }
    check_answers(&load, &ids, &windows, "storage_full");
    drop(conn);
    check_nothing_lost(&mut server, &db, &load).await;
}

/// A fresh PostgreSQL test database, a proxy in front of it that the test can cut, and the
/// database as reached through the proxy; `None` where no PostgreSQL answers.
async fn proxied_postgres() -> Option<(Database, Proxy, Database)> {
    let db = postgres().await?;
    let Database::Postgres(url) = &db else {
        unreachable!()
    };
    let proxy = Proxy::start(postgres_address(url).await).await;
    let through = Database::Postgres(proxy.url(url));
    Some((db, proxy, through))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_outage_loses_nothing_says_so_and_recovers_without_a_restart() {
    let Some((db, proxy, through)) = proxied_postgres().await else {
        return;
    };
    let mut server = Server::start_with_env(&through, &[("RUST_LOG", "error")]);
    let base = server.base.clone();
    let (load, ids, tasks) = start_load(&base).await;
    let mut windows = Vec::new();
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let start = Instant::now();
        proxy.cut();
        tokio::time::sleep(Duration::from_secs(3)).await;
        proxy.restore();
        let end = Instant::now();
        windows.push((start, end));
        wait_for_recovery(&load, &ids, end).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    load.stop.store(true, Ordering::SeqCst);
    for t in tasks {
        t.await.unwrap();
    }
    check_answers(&load, &ids, &windows, "storage_unavailable");
    check_nothing_lost(&mut server, &db, &load).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_commit_cut_in_flight_is_outcome_unknown_and_the_game_tells() {
    let Some((_db, proxy, through)) = proxied_postgres().await else {
        return;
    };
    let server = Server::start(&through);
    let alice = Client::guest(&server.base, "alice").await;
    let bob = Client::guest(&server.base, "bob").await;
    let g = alice
        .create(json!({"game": "backgammon"}), json!({"kind": "open"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let (s, r) = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"client_seed": "bob"}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let before = alice.game(&id).await["version"].as_i64().unwrap();
    // The opening roll: its COMMIT reaches the database, its answer never reaches the server.
    proxy.cut_next_commit();
    let (s, r) = alice
        .post(
            &format!("/api/games/{id}/roll"),
            json!({"nonce": "cut-in-flight"}),
        )
        .await;
    assert_eq!(proxy.commits_cut(), 1, "no COMMIT went through the proxy");
    assert_eq!(s, 503, "{r}");
    assert_eq!(r["error"]["code"], "outcome_unknown");
    assert_eq!(
        r["error"]["message"],
        "the action may have been recorded; read the game before sending it again"
    );
    // It was recorded: the game reaches the next version (once the database has finished
    // the commit it received), and the roll's nonce is in /events.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut g = alice.game(&id).await;
    while g["version"].as_i64().unwrap() == before && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        g = alice.game(&id).await;
    }
    assert_eq!(g["version"].as_i64().unwrap(), before + 1, "{g}");
    let (s, events) = alice
        .get(&format!("/api/games/{id}/events?since={before}"))
        .await;
    assert_eq!(s, 200);
    assert_eq!(events[0]["nonce"], "cut-in-flight", "{events}");
    // The server goes on: the next action commits normally.
    let mut pick = chooser(3);
    let mover = if g["view"]["status"]["player"] == "black" {
        &bob
    } else {
        &alice
    };
    let color = g["view"]["status"]["player"].as_str().unwrap_or("white");
    let next = mover.step(&id, color, &mut pick).await;
    assert!(
        next.is_some_and(|v| v > before + 1),
        "the game did not go on: {next:?}"
    );
}
