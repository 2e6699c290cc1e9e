//! SIGKILL in the middle of games: every acknowledged action is in the log after a restart,
//! and the games (bot games included) play on to their end.

use crate::common::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

async fn acknowledged_actions_survive_sigkill(db: Database) {
    let mut server = Server::start(&db);
    let base = server.base.clone();
    let client = Client::guest(&base, "crash").await;
    let mut ids = Vec::new();
    for options in [
        json!({"game": "backgammon"}),
        json!({"game": "never-finishing", "match_length": 3}),
        json!({"game": "halma-grasshopper"}),
    ] {
        let g = client
            .create(options, json!({"kind": "bot", "level": "easy"}))
            .await;
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    // Each task plays its game and records every version the server acknowledged.
    let acked: Arc<Mutex<Vec<(String, i64)>>> = Arc::default();
    let mut tasks = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let (client, acked, id) = (client.clone(), acked.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            let mut pick = chooser(i as u64);
            // Requests start failing (a panic in this task) once the server is killed.
            for _ in 0..10_000 {
                match client.step(&id, "white", &mut pick).await {
                    Some(v) => acked.lock().unwrap().push((id.clone(), v)),
                    None => tokio::time::sleep(Duration::from_millis(5)).await,
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill9();
    for t in tasks {
        let _ = t.await; // requests fail once the server is gone
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        !acked.is_empty(),
        "nothing was acknowledged before the kill"
    );

    let server = Server::start(&db);
    let client = client.at(&server.base);
    for (id, v) in &acked {
        let g = client.game(id).await;
        assert!(
            g["version"].as_i64().unwrap() >= *v,
            "game {id} lost version {v}: {g}"
        );
    }
    for (i, id) in ids.iter().enumerate() {
        let end: Value = play_to_end(&client, id, "white", 100 + i as u64).await;
        assert_eq!(end["state"], "finished");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_acknowledged_actions_survive_sigkill() {
    acknowledged_actions_survive_sigkill(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_acknowledged_actions_survive_sigkill() {
    if let Some(db) = postgres().await {
        acknowledged_actions_survive_sigkill(db).await;
    }
}
