//! Leaving a game (issue 30): resigning a Never-Finishing, Grasshopper or Halma game through
//! the server (backgammon resigns through its own actions), aborting an unrated game before
//! one's first move, and a game against a bot left untouched, ended as a resignation by the
//! server's sweep (`TABULA_ABANDON_AFTER_SECS` set short, the clock these tests can set).

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

async fn register(base: &str, name: &str) -> Client {
    let mut c = Client::anonymous(base);
    let (s, me) = c
        .post(
            "/api/register",
            json!({"username": name, "password": "correct horse"}),
        )
        .await;
    assert_eq!(s, 200, "{me}");
    c.id = me["id"].as_str().unwrap().to_string();
    c
}

fn code(r: &Value) -> Option<&str> {
    r["error"]["code"].as_str()
}

/// `POST /api/games/{id}/{what}` (resign, abort) with `body`.
async fn end(c: &Client, id: &str, what: &str, body: Value) -> (u16, Value) {
    c.post(&format!("/api/games/{id}/{what}"), body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_never_finishing_grasshopper_and_halma_at_once() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "quitter").await;
    let bot = json!({"kind": "bot", "level": "easy"});
    for (options, points, what) in [
        // a Never-Finishing money game: the level the position holds, a gammon before any
        // checker is borne off
        (
            json!({"game": "never-finishing", "match_length": 0}),
            2,
            "never-finishing money",
        ),
        (
            json!({"game": "grasshopper", "checkers": 4}),
            1,
            "grasshopper",
        ),
        (json!({"game": "halma-grasshopper", "size": 8}), 1, "halma"),
    ] {
        let g = c.create(options, bot.clone()).await;
        let id = g["id"].as_str().unwrap();
        let (s, over) = c.post(&format!("/api/games/{id}/resign"), json!({})).await;
        assert_eq!(s, 200, "{what}: {over}");
        assert_eq!(over["state"], "finished", "{what}: {over}");
        assert_eq!(over["winner"], "black", "{what}");
        assert_eq!(over["points"], points, "{what}: {over}");
        assert_eq!(over["view"]["result"]["code"], "resigned", "{what}");
        let sentence = over["view"]["result"]["sentence"].as_str().unwrap();
        assert!(
            sentence.ends_with("quitter (guest) resigned."),
            "{what}: {sentence}"
        );
        assert_eq!(over["view"]["legal"], json!([]), "{what}");
        // again: the game is over
        let (s, r) = c.post(&format!("/api/games/{id}/resign"), json!({})).await;
        assert_eq!((s, code(&r)), (409, Some("game_over")), "{what}");
        // the record replays to the same end
        let (_, record) = c.get(&format!("/api/games/{id}/record")).await;
        let last = record["steps"].as_array().unwrap().last().unwrap();
        assert_eq!(last["event"]["kind"], "resign", "{what}");
        assert_eq!(last["state"]["result"]["code"], "resigned", "{what}");
    }
    // a Never-Finishing match is lost as a whole
    let g = c
        .create(
            json!({"game": "never-finishing", "match_length": 3}),
            bot.clone(),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    let (s, over) = c.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(s, 200, "{over}");
    assert_eq!(over["view"]["result"]["code"], "match-won", "{over}");
    assert_eq!(over["winner"], "black");
    // backgammon resigns through its own actions
    let g = c.create(json!({"game": "backgammon"}), bot.clone()).await;
    let id = g["id"].as_str().unwrap();
    let (s, r) = c.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!((s, code(&r)), (409, Some("resign_by_action")), "{r}");
    // only a player resigns
    let other = Client::guest(&server.base, "bystander").await;
    let g = c
        .create(json!({"game": "grasshopper", "checkers": 4}), bot)
        .await;
    let id = g["id"].as_str().unwrap();
    let (s, r) = other
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!((s, code(&r)), (403, Some("not_a_player")), "{r}");
    assert_eq!(c.game(id).await["state"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unrated_game_is_aborted_before_the_first_move_only() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "caller_off").await;
    // Halma against a bot: White (the guest) has not moved yet
    let g = c
        .create(
            json!({"game": "halma-grasshopper", "size": 8}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let (s, over) = c.post(&format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!(s, 200, "{over}");
    assert_eq!(over["state"], "aborted", "{over}");
    assert_eq!(over["winner"], Value::Null);
    assert_eq!(over["view"]["result"]["code"], "aborted");
    let sentence = over["view"]["result"]["sentence"].as_str().unwrap();
    assert!(sentence.starts_with("Aborted:"), "{sentence}");
    // it has left the player's unfinished games, and counts in no statistics
    let (_, stats) = c.get("/api/stats").await;
    assert!(!stats.to_string().contains(&id), "{stats}");
    // after a move of one's own, no abort: resign instead
    let g = c
        .create(
            json!({"game": "grasshopper", "checkers": 4}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    let legal = g["view"]["legal"][0].as_str().unwrap().to_string();
    let (s, r) = c
        .post(
            &format!("/api/games/{id}/actions"),
            json!({"action": legal}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = c.post(&format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!((s, code(&r)), (409, Some("not_abortable")), "{r}");
    // a rated game cannot be aborted: two registered users
    let ann = register(&server.base, "ann_rated").await;
    let bob = register(&server.base, "bob_rated").await;
    let id = &open_seat(&ann).await;
    let (s, r) = bob
        .post(
            &format!("/api/games/{id}/join"),
            json!({"client_seed": "bob's seed"}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = bob.post(&format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!((s, code(&r)), (409, Some("not_abortable")), "{r}");
    // but a seat still open can be called off by its creator
    let id = &open_seat(&ann).await;
    let (s, r) = ann.post(&format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!((s, r["state"].as_str()), (200, Some("aborted")), "{r}");
    let (_, lobby) = ann.get("/api/lobby").await;
    assert!(!lobby.to_string().contains(id), "{lobby}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_left_untouched_ends_as_a_resignation() {
    // The allowed idle time shortened to 2 s: the sweep looks every second.
    let server = Server::start_with_env(&sqlite(), &[("TABULA_ABANDON_AFTER_SECS", "2")]);
    let c = Client::guest(&server.base, "wanderer").await;
    let g = c
        .create(
            json!({"game": "grasshopper", "checkers": 4}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    // a game between two people is never ended so
    let a = Client::guest(&server.base, "patient_a").await;
    let b = Client::guest(&server.base, "patient_b").await;
    let people = &open_seat(&a).await;
    let (s, _) = b
        .post(
            &format!("/api/games/{people}/join"),
            json!({"client_seed": "patience"}),
        )
        .await;
    assert_eq!(s, 200);
    let deadline = Instant::now() + Duration::from_secs(20);
    let over = loop {
        let g = c.game(id).await;
        if g["state"] == "finished" {
            break g;
        }
        assert!(
            Instant::now() < deadline,
            "the idle game was never ended: {g}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(over["winner"], "black", "{over}");
    assert_eq!(over["view"]["result"]["code"], "abandoned", "{over}");
    let sentence = over["view"]["result"]["sentence"].as_str().unwrap();
    assert!(
        sentence.contains("wanderer (guest) left the game untouched"),
        "{sentence}"
    );
    // it has left "Your games" (the unfinished ones)
    let (_, mine) = c.get(&format!("/api/players/{}/games", c.id)).await;
    assert!(
        mine.as_array()
            .unwrap()
            .iter()
            .all(|g| g["state"] == "finished"),
        "{mine}"
    );
    assert_eq!(a.game(people).await["state"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_seat_shows_the_waiting_players_rating() {
    let server = Server::start(&sqlite());
    let ann = register(&server.base, "ann_seated").await;
    // a rated game against a bot, resigned: Ann now has a Grasshopper rating
    let g = ann
        .create(
            json!({"game": "grasshopper", "checkers": 4}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    let (s, r) = ann
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(s, 200, "{r}");
    let (_, page) = ann.get(&format!("/api/players/{}", ann.id)).await;
    let rating = page["standings"]["grasshopper"]["rating"]
        .as_f64()
        .expect("rated");
    let seat = open_seat(&ann).await;
    let guest = Client::guest(&server.base, "looker").await;
    let (_, lobby) = guest.get("/api/lobby").await;
    let open = lobby["open"].as_array().unwrap();
    let entry = open.iter().find(|e| e["id"] == seat).expect("listed");
    assert_eq!(
        entry["waiting_rating"]["rating"],
        rating.round() as i64,
        "{entry}"
    );
    assert_eq!(entry["waiting_rating"]["provisional"], true, "{entry}");
    // a guest's seat shows none
    let guest_seat = open_seat(&guest).await;
    let (_, lobby) = guest.get("/api/lobby").await;
    let entry = lobby["open"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == guest_seat)
        .expect("listed");
    assert!(entry.get("waiting_rating").is_none(), "{entry}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_view_says_what_leaving_costs_and_refusals_change_nothing() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "weigher").await;
    let bot = json!({"kind": "bot", "level": "easy"});
    // a Never-Finishing money game: resigning now costs a gammon; the guest may abort
    let g = c
        .create(
            json!({"game": "never-finishing", "match_length": 0}),
            bot.clone(),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    let leave = &g["view"]["leave"];
    assert_eq!(leave["resign"]["white"]["points"], 2, "{leave}");
    assert_eq!(leave["resign"]["white"]["code"], "resigned", "{leave}");
    assert_eq!(leave["resign"]["white"]["winner"], "black", "{leave}");
    assert_eq!(leave["abort"], json!(["white", "black"]), "{leave}");
    // a stale version is refused, and nothing changes
    let version = g["version"].as_i64().unwrap();
    for what in ["resign", "abort"] {
        let (s, r) = end(&c, id, what, json!({"version": version + 5})).await;
        assert_eq!((s, code(&r)), (409, Some("stale_version")), "{what}: {r}");
    }
    // only a player leaves
    let other = Client::guest(&server.base, "passer_by").await;
    for what in ["resign", "abort"] {
        let (s, r) = end(&other, id, what, json!({})).await;
        assert_eq!((s, code(&r)), (403, Some("not_a_player")), "{what}: {r}");
    }
    assert_eq!(c.game(id).await["state"], "playing");
    // once over, neither is possible, and the view offers neither
    let (s, over) = end(&c, id, "resign", json!({"version": version})).await;
    assert_eq!(s, 200, "{over}");
    assert_eq!(over["view"]["leave"], json!({"resign": null, "abort": []}));
    for what in ["resign", "abort"] {
        let (s, r) = end(&c, id, what, json!({})).await;
        assert_eq!((s, code(&r)), (409, Some("game_over")), "{what}: {r}");
    }
    // backgammon resigns by its own actions: the view offers no server resignation
    let g = c.create(json!({"game": "backgammon"}), bot).await;
    assert_eq!(
        g["view"]["leave"]["resign"],
        Value::Null,
        "{}",
        g["view"]["leave"]
    );
    // a seat still open: no resignation before the game starts (abort instead)
    let seat = open_seat(&c).await;
    let (s, r) = end(&c, &seat, "resign", json!({})).await;
    assert_eq!((s, code(&r)), (409, Some("not_started")), "{r}");
    // an unknown field is refused
    let (s, r) = end(&c, &seat, "abort", json!({"why": "bored"})).await;
    assert_eq!(s, 400, "{r}");
    assert_eq!(c.game(&seat).await["state"], "waiting");
}
