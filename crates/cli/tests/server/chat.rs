//! Chat between the two players of a game (issue 30, docs/protocol.md "Chat"): its limits
//! (300 characters, 5 messages in 10 seconds a player, plain text), who may write and read
//! (players; spectators only while both allow; never in a bot game), muting, the note on the
//! game's socket, and the messages kept with the game across a restart, on SQLite and
//! PostgreSQL.

use crate::common::*;
use serde_json::{json, Value};

fn code(r: &Value) -> Option<&str> {
    r["error"]["code"].as_str()
}

/// Two guests seated in a Grasshopper game; its id.
async fn seated(a: &Client, b: &Client) -> String {
    let id = open_seat(a).await;
    let (s, r) = b.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(s, 200, "{r}");
    id
}

async fn say(c: &Client, id: &str, text: &str) -> (u16, Value) {
    c.post(&format!("/api/games/{id}/chat"), json!({ "text": text }))
        .await
}

async fn texts(c: &Client, id: &str) -> Vec<String> {
    let (s, v) = c.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(s, 200, "{v}");
    v["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

async fn players_chat_spectators_read_only_when_both_allow(db: Database) {
    let server = Server::start(&db);
    let ann = Client::guest(&server.base, "chatty_ann").await;
    let bob = Client::guest(&server.base, "chatty_bob").await;
    let id = seated(&ann, &bob).await;
    let mut socket = watch(&server.base, &id, 0).await;
    let (s, m) = say(&ann, &id, "  good   luck!\n").await;
    assert_eq!(s, 200, "{m}");
    assert_eq!(
        (m["seq"].as_i64(), m["text"].as_str()),
        (Some(1), Some("good luck!"))
    );
    assert_eq!(m["seat"], "white");
    // the socket tells watchers that something was said, not what
    let note = loop {
        let msg = socket.next(10).await.expect("a note");
        if msg["type"] == "chat" {
            break msg;
        }
    };
    assert_eq!(note["seq"], 1, "{note}");
    assert!(note.get("text").is_none(), "{note}");
    // markup is kept as text
    let (s, _) = say(&bob, &id, "<b>you too</b>").await;
    assert_eq!(s, 200);
    assert_eq!(texts(&bob, &id).await, ["good luck!", "<b>you too</b>"]);
    // a spectator reads nothing until both players allow it
    let carl = Client::guest(&server.base, "watcher_carl").await;
    let (_, v) = carl.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(
        (&v["readable"], v["messages"].as_array().unwrap().len()),
        (&json!(false), 0),
        "{v}"
    );
    let (s, r) = say(&carl, &id, "hi").await;
    assert_eq!((s, code(&r)), (403, Some("not_a_player")), "{r}");
    let (s, r) = carl
        .post(
            &format!("/api/games/{id}/chat/settings"),
            json!({"spectators": true}),
        )
        .await;
    assert_eq!((s, code(&r)), (403, Some("not_a_player")), "{r}");
    let allow = json!({"spectators": true});
    let (s, v) = ann
        .post(&format!("/api/games/{id}/chat/settings"), allow.clone())
        .await;
    assert_eq!((s, &v["spectators_read"]), (200, &json!(false)), "{v}");
    assert!(
        texts(&carl, &id).await.is_empty(),
        "one player allowing is not enough"
    );
    let (_, v) = bob
        .post(&format!("/api/games/{id}/chat/settings"), allow)
        .await;
    assert_eq!(v["spectators_read"], true, "{v}");
    assert_eq!(texts(&carl, &id).await.len(), 2);
    // muting hides the opponent's messages from the muter only, earlier ones included
    let (_, v) = ann
        .post(
            &format!("/api/games/{id}/chat/settings"),
            json!({"mute": true}),
        )
        .await;
    assert_eq!(v["mine"], json!({"mute": true, "spectators": true}), "{v}");
    let (s, _) = say(&bob, &id, "still there?").await;
    assert_eq!(s, 200);
    assert_eq!(texts(&ann, &id).await, ["good luck!"]);
    assert_eq!(texts(&bob, &id).await.len(), 3);
    // `after` gives only the newer messages
    let (_, v) = bob.get(&format!("/api/games/{id}/chat?after=2")).await;
    assert_eq!(v["messages"][0]["text"], "still there?", "{v}");
    // the chat is kept with the game
    drop(server);
    let server = Server::start(&db);
    assert_eq!(texts(&bob.at(&server.base), &id).await.len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_players_chat_spectators_read_only_when_both_allow() {
    players_chat_spectators_read_only_when_both_allow(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_players_chat_spectators_read_only_when_both_allow() {
    if let Some(db) = postgres().await {
        players_chat_spectators_read_only_when_both_allow(db).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_refuses_long_empty_and_control_text_and_limits_the_rate() {
    let server = Server::start(&sqlite());
    let ann = Client::guest(&server.base, "limit_ann").await;
    let bob = Client::guest(&server.base, "limit_bob").await;
    let id = seated(&ann, &bob).await;
    let longest = "x".repeat(300);
    let (s, r) = say(&ann, &id, &format!("{longest}y")).await;
    assert_eq!((s, code(&r)), (400, Some("bad_message")), "{r}");
    for bad in ["", "   \n ", "bell\u{7}", "a\u{202E}b"] {
        let (s, r) = say(&ann, &id, bad).await;
        assert_eq!((s, code(&r)), (400, Some("bad_message")), "{bad:?}: {r}");
    }
    let (s, r) = ann
        .post(
            &format!("/api/games/{id}/chat"),
            json!({"text": "hi", "to": "all"}),
        )
        .await;
    assert_eq!((s, code(&r)), (400, Some("bad_json")), "{r}");
    assert!(texts(&ann, &id).await.is_empty(), "refusals store nothing");
    // five messages in ten seconds, the longest allowed among them; the sixth waits
    let (s, r) = say(&ann, &id, &longest).await;
    assert_eq!(s, 200, "{r}");
    for i in 1..5 {
        let (s, r) = say(&ann, &id, &format!("message {i}")).await;
        assert_eq!(s, 200, "{r}");
    }
    let (s, r) = say(&ann, &id, "one too many").await;
    assert_eq!((s, code(&r)), (429, Some("chat_rate_limited")), "{r}");
    // the limit is the writer's: the opponent still writes
    let (s, _) = say(&bob, &id, "calm down").await;
    assert_eq!(s, 200);
    assert_eq!(texts(&bob, &id).await.len(), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn there_is_no_chat_with_a_bot_or_before_both_are_seated() {
    let server = Server::start(&sqlite());
    let ann = Client::guest(&server.base, "lonely_ann").await;
    let g = ann
        .create(
            json!({"game": "grasshopper", "checkers": 4}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    let (s, r) = say(&ann, id, "hello bot").await;
    assert_eq!((s, code(&r)), (409, Some("chat_closed")), "{r}");
    let (_, v) = ann.get(&format!("/api/games/{id}/chat")).await;
    assert_eq!(
        (&v["open"], &v["can_write"]),
        (&json!(false), &json!(false))
    );
    assert!(v["closed"].as_str().unwrap().contains("bot"), "{v}");
    // an open seat: not yet
    let seat = open_seat(&ann).await;
    let (s, r) = say(&ann, &seat, "anyone?").await;
    assert_eq!((s, code(&r)), (409, Some("chat_closed")), "{r}");
    let (s, r) = ann.get("/api/games/nonexistent00/chat").await;
    assert_eq!(s, 404, "{r}");
}
