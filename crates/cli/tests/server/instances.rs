//! Two server instances on one PostgreSQL database serve one game: a move made through
//! instance A reaches a WebSocket connected to instance B.

use crate::common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_move_on_one_instance_reaches_a_socket_on_another() {
    let Some(db) = postgres().await else {
        return;
    };
    let a = Server::start(&db);
    let b = Server::start(&db);
    let alice = Client::guest(&a.base, "alice").await;
    let bob = Client::guest(&b.base, "bob").await;
    let g = alice
        .create(json!({"game": "backgammon"}), json!({"kind": "open"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    // Bob finds the open seat in B's lobby and takes it through B.
    let (_, lobby) = bob.get("/api/lobby").await;
    assert!(lobby["open"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id.as_str()));
    let (s, r) = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"client_seed": "bob"}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    // A spectator on B, caught up.
    let mut on_b = watch(&b.base, &id, 0).await;
    let hello = on_b.next(10).await.unwrap();
    // Catch-up: Bob's joining is version 1, then the current state.
    assert_eq!(hello["type"], "event");
    assert_eq!(hello["event"]["kind"], "join");
    let hello = on_b.next(10).await.unwrap();
    assert_eq!(hello["type"], "state");
    assert_eq!(hello["version"], 1);
    // Alice rolls the opening through A; B's socket gets version 2.
    let (s, r) = alice
        .post(
            &format!("/api/games/{id}/roll"),
            json!({"nonce": "alice-opening"}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let pushed = on_b
        .until_version(2, 10)
        .await
        .expect("B's socket hears A's roll");
    assert_eq!(pushed["type"], "event");
    assert_eq!(pushed["event"]["kind"], "roll");
    // Whoever is on turn moves through A; B's socket gets the move with the new state.
    let mut g = alice.game(&id).await;
    while g["view"]["status"]["status"] != "decide" {
        // An opening tie: roll again.
        let nonce = format!("opening-again-{}", g["version"]);
        assert_eq!(
            alice
                .post(&format!("/api/games/{id}/roll"), json!({"nonce": nonce}))
                .await
                .0,
            200
        );
        g = alice.game(&id).await;
    }
    let v = g["version"].as_i64().unwrap() + 1;
    let bob_on_a = bob.at(&a.base);
    let mover = if g["view"]["status"]["player"] == "white" {
        &alice
    } else {
        &bob_on_a
    };
    let action = g["view"]["legal"][0].as_str().unwrap().to_string();
    let (s, r) = mover
        .post(
            &format!("/api/games/{id}/actions"),
            json!({"action": action}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let pushed = on_b
        .until_version(v, 10)
        .await
        .expect("B's socket hears A's move");
    assert_eq!(pushed["version"], v);
    assert_eq!(pushed["event"]["payload"], action.as_str());
    // B may deliver the move as a catch-up event (state null, protocol.md) followed by the
    // state message; either way the state it sends must be the game's.
    let state = if pushed["state"].is_null() {
        let next = on_b.next(10).await.expect("the state after a catch-up");
        assert_eq!(next["type"], "state", "{next}");
        assert_eq!(next["version"], v);
        next["state"].clone()
    } else {
        pushed["state"].clone()
    };
    assert_eq!(state, alice.game(&id).await["view"]);
}
