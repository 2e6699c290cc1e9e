//! Lean replies (`?reply=lean`, docs/protocol.md): the acknowledgement of a create, join,
//! roll or action carries the version, the state, the roller, `status` and `legal` (equal to
//! the full view's at that version) and nothing else; the default reply is unchanged; an
//! unknown `reply` is 400 `bad_request` and changes nothing.

use crate::common::*;
use serde_json::{json, Value};

const LEAN_FIELDS: [&str; 7] = [
    "id",
    "version",
    "state",
    "roller",
    "status",
    "legal",
    "invite_code",
];

fn assert_lean(reply: &Reply) {
    assert_eq!(reply.0, 200, "{}", reply.1);
    let fields: Vec<&String> = reply.1.as_object().expect("an object").keys().collect();
    assert_eq!(fields.len(), LEAN_FIELDS.len(), "{}", reply.1);
    for f in LEAN_FIELDS {
        assert!(reply.1.get(f).is_some(), "no {f} in {}", reply.1);
    }
}

/// The lean reply says what the full view of the same version says.
async fn agrees_with_the_game(client: &Client, lean: &Value) {
    let full = client.game(lean["id"].as_str().unwrap()).await;
    assert_eq!(full["version"], lean["version"]);
    assert_eq!(full["state"], lean["state"]);
    assert_eq!(full["roller"], lean["roller"]);
    assert_eq!(full["view"]["status"], lean["status"]);
    assert_eq!(full["view"]["legal"], lean["legal"]);
}

async fn lean_replies(db: Database) {
    let server = Server::start(&db);
    let white = Client::guest(&server.base, "white").await;
    let black = Client::guest(&server.base, "black").await;
    let body = json!({"options": {"game": "backgammon"}, "opponent": {"kind": "invite"}});
    let created = white.post("/api/games?reply=lean", body.clone()).await;
    assert_lean(&created);
    assert_eq!(created.1["state"], "waiting");
    assert!(created.1["invite_code"].is_string(), "{}", created.1);
    let id = created.1["id"].as_str().unwrap().to_string();

    // An unknown reply kind changes nothing.
    let (s, e) = white.post("/api/games?reply=short", body.clone()).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (400, Some("bad_request")),
        "{e}"
    );
    let (s, e) = black
        .post(
            &format!("/api/games/{id}/join?reply=everything"),
            json!({"invite_code": created.1["invite_code"]}),
        )
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (400, Some("bad_request")),
        "{e}"
    );
    assert_eq!(white.game(&id).await["version"], 0);

    let joined = black
        .post(
            &format!("/api/games/{id}/join?reply=lean"),
            json!({"invite_code": created.1["invite_code"]}),
        )
        .await;
    assert_lean(&joined);
    assert_eq!(joined.1["invite_code"], Value::Null);
    agrees_with_the_game(&white, &joined.1).await;

    // Play twenty entries on lean replies only, checking each against the full view.
    let mut g = joined.1;
    let mut pick = chooser(7);
    for n in 0..20 {
        let roller = g["roller"].as_str().unwrap_or("").to_string();
        let reply = if !roller.is_empty() {
            let who = if roller == "black" { &black } else { &white };
            who.post(
                &format!("/api/games/{id}/roll?reply=lean"),
                json!({"nonce": format!("lean-nonce-{n}")}),
            )
            .await
        } else {
            let who = if g["status"]["player"] == "black" {
                &black
            } else {
                &white
            };
            let legal: Vec<String> = serde_json::from_value(g["legal"].clone()).unwrap();
            who.post(
                &format!("/api/games/{id}/actions?reply=lean"),
                json!({"action": pick(&legal)}),
            )
            .await
        };
        assert_lean(&reply);
        assert_eq!(reply.1["version"], n + 2, "{}", reply.1);
        agrees_with_the_game(&white, &reply.1).await;
        g = reply.1;
    }

    // The default and `reply=full` are the whole game.
    let roller = g["roller"].as_str().unwrap_or("").to_string();
    let who = if roller == "black" || g["status"]["player"] == "black" {
        &black
    } else {
        &white
    };
    let (s, full) = if !roller.is_empty() {
        who.post(
            &format!("/api/games/{id}/roll?reply=full"),
            json!({"nonce": "full-nonce-1"}),
        )
        .await
    } else {
        let legal: Vec<String> = serde_json::from_value(g["legal"].clone()).unwrap();
        who.post(
            &format!("/api/games/{id}/actions"),
            json!({"action": pick(&legal)}),
        )
        .await
    };
    assert_eq!(s, 200, "{full}");
    for f in ["view", "options", "rematch", "white", "black", "commitment"] {
        assert!(full.get(f).is_some(), "no {f} in the full reply {full}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_lean_replies_carry_what_to_do_next_only() {
    lean_replies(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_lean_replies_carry_what_to_do_next_only() {
    if let Some(db) = postgres().await {
        lean_replies(db).await;
    }
}
