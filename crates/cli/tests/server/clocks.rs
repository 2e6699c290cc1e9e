//! Clocks (issue 16): a player who runs out of time loses with the documented result; the
//! server rolls for a player who does not roll in time, and for a bot whose roll the human's
//! client does not ask for; the dice of such games still verify.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Polls game `id` until `done` holds of its view (at most `secs` seconds).
async fn wait_for(c: &Client, id: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let g = c.game(id).await;
        if done(&g) {
            return g;
        }
        assert!(Instant::now() < deadline, "game {id} never got there: {g}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn create_with_clock(c: &Client, options: Value, opponent: Value, clock: Value) -> Value {
    let (s, g) = c
        .post(
            "/api/games",
            json!({"options": options, "opponent": opponent, "clock": clock,
                   "client_seed": "clock test"}),
        )
        .await;
    assert_eq!(s, 200, "{g}");
    g
}

fn server_rolls(g: &Value) -> Vec<Value> {
    g["dice"]["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["nonce"].as_str().unwrap().starts_with("server:"))
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_runs_out_of_time_loses_the_game() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "slowpoke").await;
    // Grasshopper: White (the guest) moves first; one second of delay, one of reserve.
    let g = create_with_clock(
        &c,
        json!({"game": "grasshopper", "checkers": 4}),
        json!({"kind": "bot", "level": "easy"}),
        json!({"delay": 1, "reserve": 1}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let clock = &g["view"]["clock"];
    assert_eq!(clock["running"], "white", "{clock}");
    assert_eq!(clock["delay"], 1);
    assert!(clock["left"]["white"].as_i64().unwrap() <= 1000);
    let over = wait_for(&c, id, 15, |g| g["state"] == "finished").await;
    assert_eq!(over["winner"], "black", "{over}");
    assert_eq!(over["view"]["result"]["code"], "time-out");
    let sentence = over["view"]["result"]["sentence"].as_str().unwrap();
    assert!(sentence.contains("ran out of time"), "{sentence}");
    assert_eq!(over["view"]["legal"], json!([]));
    // Nothing more can be played.
    let (s, r) = c
        .post(&format!("/api/games/{id}/actions"), json!({"action": "A1"}))
        .await;
    assert_eq!((s, r["error"]["code"].as_str()), (409, Some("game_over")));
    // The full record replays to the same result.
    let (_, record) = c.get(&format!("/api/games/{id}/record")).await;
    let last = record["steps"].as_array().unwrap().last().unwrap();
    assert_eq!(last["event"]["kind"], "timeout");
    assert_eq!(last["event"]["actor"], "white");
    assert_eq!(last["state"]["result"]["code"], "time-out");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_out_of_time_loses_the_whole_match() {
    let server = Server::start(&sqlite());
    let a = Client::guest(&server.base, "ann").await;
    let b = Client::guest(&server.base, "bob").await;
    let g = create_with_clock(
        &a,
        json!({"game": "backgammon", "match_length": 3}),
        json!({"kind": "invite"}),
        json!({"delay": 1, "reserve": 2}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let code = g["invite_code"].as_str().unwrap();
    let (s, _) = b
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite_code": code, "client_seed": "bob"}),
        )
        .await;
    assert_eq!(s, 200);
    // Nobody rolls the opening: the server rolls it after its wait, then whoever is on roll
    // runs out of time.
    let over = wait_for(&a, id, 30, |g| g["state"] == "finished").await;
    // A whole match's result has the match's code; its sentence says why.
    assert_eq!(over["view"]["result"]["code"], "match-won", "{over}");
    assert!(over["view"]["clock"]["left"]["white"].as_i64().unwrap() >= 0);
    let winner = over["winner"].as_str().unwrap();
    let sentence = over["view"]["result"]["sentence"].as_str().unwrap();
    assert!(
        sentence.contains("wins the 3-point match 3-0"),
        "{sentence}"
    );
    assert!(
        sentence.contains("ran out of time on the clock"),
        "{sentence}"
    );
    assert_eq!(over["points"], 3);
    // The opening (and any re-roll after a tie) was rolled by the server.
    let rolls = over["dice"]["rolls"].as_array().unwrap();
    assert!(!rolls.is_empty(), "{over}");
    for (i, roll) in rolls.iter().enumerate() {
        assert_eq!(roll["nonce"], format!("server:{i}"), "{over}");
    }
    // The loser is the player the game waited for when the clock stopped.
    let (_, record) = a.get(&format!("/api/games/{id}/record")).await;
    let last = record["steps"].as_array().unwrap().last().unwrap();
    assert_ne!(last["event"]["actor"].as_str(), Some(winner));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_rolls_for_an_absent_player_and_the_dice_still_verify() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "absent").await;
    let g = create_with_clock(
        &c,
        json!({"game": "backgammon"}),
        json!({"kind": "bot", "level": "easy"}),
        json!({"delay": 1, "reserve": 600}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["roller"], "white");
    // The guest never asks for the opening roll: the server makes it.
    let rolled = wait_for(&c, id, 20, |g| !server_rolls(g).is_empty()).await;
    assert_eq!(server_rolls(&rolled)[0]["nonce"], "server:0");
    // A client may not pass off its nonce as the server's.
    let (s, r) = c
        .post(
            &format!("/api/games/{id}/roll"),
            json!({"nonce": "server:12345"}),
        )
        .await;
    assert_eq!((s, r["error"]["code"].as_str()), (400, Some("bad_request")));
    // The guest resigns as soon as it may; the revealed record verifies, server rolls and all.
    let mut resigned = false;
    let deadline = Instant::now() + Duration::from_secs(60);
    while !resigned {
        assert!(Instant::now() < deadline, "no chance to resign");
        let g = c.game(id).await;
        let legal: Vec<String> = serde_json::from_value(g["view"]["legal"].clone()).unwrap();
        if let Some(resign) = legal.iter().find(|a| a.starts_with("resign")) {
            let (s, r) = c
                .post(
                    &format!("/api/games/{id}/actions"),
                    json!({"action": resign}),
                )
                .await;
            resigned = s == 200;
            assert!(s == 200 || s == 409, "{r}");
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let over = wait_for(&c, id, 30, |g| g["state"] == "finished").await;
    let (_, full) = c.get(&format!("/api/games/{id}/record")).await;
    assert!(!server_rolls(&over).is_empty());
    let path = std::env::temp_dir().join(format!("tabula_clock_{}.json", std::process::id()));
    std::fs::write(&path, full.to_string()).unwrap();
    let (code, out, err) = tabula(&["verify-dice", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("events replay legally"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_roll_that_the_human_does_not_ask_for_is_made_by_the_server() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "quiet").await;
    // No clock: the stall is gone all the same.
    let g = c
        .create(
            json!({"game": "backgammon"}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    // Plain moves, and a take whenever the bot doubles (a drop would end the game).
    let mut plain = chooser(3);
    let mut pick = |legal: &[String]| {
        if legal.iter().any(|a| a == "take") {
            "take".to_string()
        } else {
            plain(legal)
        }
    };
    // The guest rolls the opening and plays on until the bot's roll is due (the guest's
    // client would ask for it); then asks for nothing.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the bot's roll never came due");
        let g = c.game(id).await;
        assert_eq!(g["state"], "playing", "{g}");
        let status = &g["view"]["status"];
        if g["roller"] == "white"
            && status["status"] == "chance"
            && status["kind"] == "roll"
            && status["player"] == "black"
        {
            break;
        }
        if c.step(id, "white", &mut pick).await.is_none() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let g = wait_for(&c, id, 20, |g| {
        !server_rolls(g).is_empty() || g["state"] != "playing"
    })
    .await;
    assert_eq!(g["state"], "playing", "{g}");
    let roll = &server_rolls(&g)[0];
    assert_eq!(
        roll["nonce"],
        format!("server:{}", roll["number"].as_u64().unwrap())
    );
}
