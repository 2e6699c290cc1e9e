//! Bad input: each refusal has its documented error, and the game is unchanged.

use crate::common::*;
use futures_util::SinkExt;
use serde_json::{json, Value};

/// Alice (White) and Bob (Black) at a human-v-human backgammon money game, after the
/// opening roll; returns (alice, bob, game id, the colour on turn).
async fn two_players(base: &str) -> (Client, Client, String) {
    let alice = Client::guest(base, "alice").await;
    let bob = Client::guest(base, "bob").await;
    let g = alice
        .create(json!({"game": "backgammon"}), json!({"kind": "invite"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let code = g["invite_code"].as_str().unwrap();
    let (s, r) = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite_code": code, "client_seed": "bob's"}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    // Opening ties are rolled again.
    for n in 0.. {
        let (s, r) = alice
            .post(
                &format!("/api/games/{id}/roll"),
                json!({"nonce": format!("alice-opening-{n}")}),
            )
            .await;
        assert_eq!(s, 200, "{r}");
        if r["view"]["status"]["status"] == "decide" {
            break;
        }
    }
    (alice, bob, id)
}

fn code(reply: &(u16, Value)) -> (u16, &str) {
    (reply.0, reply.1["error"]["code"].as_str().unwrap_or("-"))
}

async fn bad_input_changes_nothing(db: Database) {
    let server = Server::start(&db);
    let (alice, bob, id) = two_players(&server.base).await;
    let before = alice.game(&id).await;
    let turn = before["view"]["status"]["player"]
        .as_str()
        .unwrap()
        .to_string();
    let (on_turn, off_turn) = if turn == "white" {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    let act = format!("/api/games/{id}/actions");

    assert_eq!(
        code(&on_turn.post_raw(&act, "{\"action\": ").await),
        (400, "bad_json")
    );
    assert_eq!(
        code(&on_turn.post_raw(&act, "[1,2]").await),
        (400, "bad_json")
    );
    assert_eq!(
        code(&on_turn.post(&act, json!({"action": "24/1 24/1"})).await),
        (422, "illegal_action")
    );
    assert_eq!(
        code(&on_turn.post(&act, json!({"action": "roll"})).await),
        (422, "illegal_action")
    );
    assert_eq!(
        code(
            &on_turn
                .post(&act, json!({"action": "8/3", "version": 99}))
                .await
        ),
        (409, "stale_version")
    );
    assert_eq!(
        code(&off_turn.post(&act, json!({"action": "8/3"})).await),
        (409, "not_your_turn")
    );
    let carol = Client::guest(&server.base, "carol").await;
    assert_eq!(
        code(&carol.post(&act, json!({"action": "8/3"})).await),
        (403, "not_a_player")
    );
    let nobody = Client::anonymous(&server.base);
    assert_eq!(
        code(&nobody.post(&act, json!({"action": "8/3"})).await),
        (401, "unauthorized")
    );
    let huge = format!("{{\"action\": \"{}\"}}", "x".repeat(20_000));
    assert_eq!(
        code(&on_turn.post_raw(&act, huge).await),
        (413, "body_too_large")
    );
    assert_eq!(
        code(
            &on_turn
                .post("/api/games/nosuchgame/actions", json!({"action": "8/3"}))
                .await
        ),
        (404, "not_found")
    );
    assert_eq!(
        code(&on_turn.get("/api/games/nosuchgame").await),
        (404, "not_found")
    );
    assert_eq!(
        code(
            &on_turn
                .post(&format!("/api/games/{id}/roll"), json!({"nonce": "short"}))
                .await
        ),
        (400, "bad_request")
    );
    assert_eq!(
        code(
            &on_turn
                .post(
                    &format!("/api/games/{id}/roll"),
                    json!({"nonce": "long enough nonce"})
                )
                .await
        ),
        (409, "no_roll_due")
    );
    let bad_options = json!({"options": {"game": "grasshopper", "checkers": 7}, "opponent": {"kind": "bot", "level": "easy"}});
    assert_eq!(
        code(&alice.post("/api/games", bad_options).await),
        (400, "bad_options")
    );
    // The Halma evacuation deadline: 0 (off) or pieces..=half the ply limit; not a number is
    // bad JSON.
    for (evacuation, want) in [
        (json!(5), (400, "bad_options")),
        (json!(201), (400, "bad_options")),
        (json!(-1), (400, "bad_json")),
        (json!("30"), (400, "bad_json")),
    ] {
        let body = json!({"options": {"game": "halma-grasshopper", "evacuation": evacuation},
                          "opponent": {"kind": "bot", "level": "easy"}});
        assert_eq!(
            code(&alice.post("/api/games", body).await),
            want,
            "{evacuation}"
        );
    }
    let off = json!({"options": {"game": "halma-grasshopper", "evacuation": 0},
                     "opponent": {"kind": "bot", "level": "easy"}});
    let (s, g) = alice.post("/api/games", off).await;
    assert_eq!(s, 200, "{g}");
    assert_eq!(
        (&g["options"]["evacuation"], &g["view"]["evacuation"]),
        (&json!(0), &json!(0))
    );
    let default = json!({"options": {"game": "halma-grasshopper", "size": 10},
                         "opponent": {"kind": "bot", "level": "easy"}});
    let (s, g) = alice.post("/api/games", default).await;
    assert_eq!(s, 200, "{g}");
    assert_eq!(
        (&g["options"]["evacuation"], &g["view"]["evacuation"]),
        (&json!(50), &json!(50))
    );
    let bad_level =
        json!({"options": {"game": "backgammon"}, "opponent": {"kind": "bot", "level": "godlike"}});
    assert_eq!(
        code(&alice.post("/api/games", bad_level).await),
        (400, "bad_request")
    );
    let unknown_game = json!({"options": {"game": "chess"}, "opponent": {"kind": "open"}});
    assert_eq!(
        code(&alice.post("/api/games", unknown_game).await),
        (400, "bad_json")
    );

    // A WebSocket flood is cut off with the documented error.
    let mut ws = watch(&server.base, &id, 0).await;
    let mut rate_limited = false;
    for _ in 0..100 {
        if ws
            .ws
            .send(tokio_tungstenite::tungstenite::Message::Text(
                "{\"type\":\"ping\"}".into(),
            ))
            .await
            .is_err()
        {
            break;
        }
    }
    while let Some(m) = ws.next(5).await {
        if m["code"] == "rate_limited" {
            rate_limited = true;
        }
    }
    assert!(rate_limited, "the flood was not refused");
    // An oversized WebSocket message closes the socket.
    let mut ws = watch(&server.base, &id, 0).await;
    let _ = ws
        .ws
        .send(tokio_tungstenite::tungstenite::Message::Text(
            "x".repeat(10_000).into(),
        ))
        .await;
    while ws.next(5).await.is_some() {}

    let after = alice.game(&id).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["view"], before["view"]);
    // And the right player's legal move still goes through.
    let legal = after["view"]["legal"][0].as_str().unwrap();
    assert_eq!(on_turn.post(&act, json!({"action": legal})).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_bad_input_gets_documented_errors_and_changes_nothing() {
    bad_input_changes_nothing(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_bad_input_gets_documented_errors_and_changes_nothing() {
    if let Some(db) = postgres().await {
        bad_input_changes_nothing(db).await;
    }
}
