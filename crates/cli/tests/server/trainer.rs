//! The trainer: the marked decisions of a player's analysed games become exercises; a wrong
//! answer brings one back after the retry wait, a right one then schedules its
//! confirmation; bad answers are refused and change nothing; only the player sees their
//! exercises; on SQLite and PostgreSQL.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A finished game of `c` against the easy bot, analysed; its report.
async fn analysed_game(c: &Client, seed: u64) -> (String, Value) {
    let g = c
        .create(
            json!({"game": "backgammon"}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    play_to_end(c, &id, "white", seed).await;
    let (s, job) = c
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert!(s == 202 || s == 200, "{job}");
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let (_, a) = c.get(&format!("/api/games/{id}/analysis")).await;
        if a["state"] == "done" {
            return (id, a["report"].clone());
        }
        assert_ne!(a["state"], "failed", "{a}");
        assert!(Instant::now() < deadline, "analysis not done: {a}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The decisions of `report` that should be exercises for White.
fn marked(report: &Value) -> Vec<Value> {
    report["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            d["player"] == "white"
                && d["mark"] != ""
                && ["move", "double", "no-double", "take", "pass"]
                    .contains(&d["kind"].as_str().unwrap())
        })
        .cloned()
        .collect()
}

/// The retry wait the trainer runs with here: long enough that the requests right after a
/// wrong answer still find it waiting on a loaded machine, short enough to wait out.
const AGAIN_SECS: i64 = 5;

async fn trainer_flow(db: Database) {
    let server = Server::start_with_env(
        &db,
        &[
            ("TABULA_ANALYSIS_PLIES", "0"),
            ("TABULA_TRAINER_AGAIN_SECS", AGAIN_SECS.to_string().as_str()),
        ],
    );
    let (s, v) = Client::anonymous(&server.base).get("/api/trainer").await;
    assert_eq!(s, 401, "the trainer needs a session: {v}");
    let guest = Client::guest(&server.base, "learner").await;
    let (s, empty) = guest.get("/api/trainer").await;
    assert_eq!(s, 200, "{empty}");
    assert_eq!(empty["score"]["exercises"], 0);
    assert!(empty["exercise"].is_null());
    // Random plays against the bot: marked errors (another game in the rare case of none).
    let (mut game, mut report) = analysed_game(&guest, 11).await;
    let mut seed = 12;
    while marked(&report).is_empty() {
        assert!(seed < 15, "no marked decision in four random games");
        (game, report) = analysed_game(&guest, seed).await;
        seed += 1;
    }
    let expected = marked(&report);
    let (s, t) = guest.get("/api/trainer").await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(t["score"]["exercises"], expected.len(), "{t}");
    assert_eq!(t["score"]["due"], expected.len());
    // Read once: opening the trainer again makes nothing new.
    let (_, again) = guest.get("/api/trainer").await;
    assert_eq!(again["made"], 0);
    assert_eq!(again["score"]["exercises"], expected.len());
    // The first is the largest error of the game's (all new exercises are due at once).
    let ex = &t["exercise"];
    let largest = expected
        .iter()
        .map(|d| d["error"].as_f64().unwrap())
        .fold(0.0, f64::max);
    let decision = expected
        .iter()
        .find(|d| format!("{game}-{}", d["version"]) == ex["id"].as_str().unwrap())
        .unwrap_or_else(|| panic!("exercise {} is no marked decision of {game}", ex["id"]));
    assert_eq!(decision["error"].as_f64().unwrap(), largest, "{ex}");
    assert_eq!(ex["colour"], "white");
    assert!(ex["position"]["ids"]["xgid"]
        .as_str()
        .unwrap()
        .starts_with("XGID="));
    let (wrong, bad) = match ex["kind"].as_str().unwrap() {
        "move" => {
            let played = decision["played"].as_str().unwrap();
            let choices: Vec<&str> = ex["choices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            assert!(choices.contains(&played), "{played} among {choices:?}");
            assert_eq!(ex["position"]["dice"], decision["dice"]);
            (played.to_string(), "24/1".to_string())
        }
        "double" => {
            assert_eq!(ex["choices"], json!(["double", "no-double"]));
            (
                decision["kind"].as_str().unwrap().to_string(),
                "take".into(),
            )
        }
        kind => {
            assert_eq!(kind, "take");
            assert_eq!(ex["choices"], json!(["take", "pass"]));
            (
                decision["kind"].as_str().unwrap().to_string(),
                "double".into(),
            )
        }
    };
    let path = format!("/api/trainer/{}/answer", ex["id"].as_str().unwrap());
    // A choice that is not one: 400 naming it, nothing recorded.
    let (s, v) = guest.post(&path, json!({"choice": bad})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["error"]["code"], "bad_choice");
    let (s, v) = guest.post(&path, json!({"answer": wrong})).await;
    assert_eq!(s, 400, "an unknown field: {v}");
    let (_, t2) = guest.get("/api/trainer").await;
    assert_eq!(t2["score"]["answers"], 0, "{t2}");
    // Someone else's exercise, or none: 404.
    let other = Client::guest(&server.base, "other").await;
    let (s, v) = other.post(&path, json!({"choice": wrong})).await;
    assert_eq!(s, 404, "{v}");
    let (s, _) = guest
        .post("/api/trainer/nothing/answer", json!({"choice": wrong}))
        .await;
    assert_eq!(s, 404);
    // What the player did in the game is wrong again: it comes back after the wait.
    let (s, a) = guest.post(&path, json!({"choice": wrong})).await;
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["right"], false, "{a}");
    assert!(a["lost"].as_f64().unwrap() > 0.0, "{a}");
    assert_ne!(a["best"], a["choice"]);
    assert_eq!(a["played"], wrong.as_str());
    assert_eq!(a["stage"], 1);
    assert_eq!(a["score"]["answers"], 1);
    assert_eq!(a["score"]["right"], 0);
    assert_eq!(a["score"]["waiting"], 1);
    if ex["kind"] == "move" {
        let moves = a["hint"]["moves"].as_array().unwrap();
        assert!(!moves.is_empty() && moves.len() <= 5, "{a}");
        assert_eq!(moves[0]["move"], a["best"]);
        assert!(moves[0]["chances"]["win"].is_number());
        let listed = moves.iter().any(|m| m["move"] == a["choice"]);
        assert_eq!(
            listed,
            a["chosen"].is_null(),
            "a choice outside the five comes apart: {a}"
        );
    } else {
        assert!(a["hint"]["proper"].is_string(), "{a}");
    }
    // Not due yet: 409, nothing recorded.
    let (s, v) = guest.post(&path, json!({"choice": wrong})).await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(v["error"]["code"], "not_due");
    // After the wait it is due again; the best answer is right, and it is confirmed later.
    let due_in = a["due_ms"].as_i64().unwrap() - chrono_now_ms();
    tokio::time::sleep(Duration::from_millis(due_in.max(0) as u64 + 200)).await;
    let (_, t3) = guest.get("/api/trainer").await;
    assert_eq!(t3["score"]["waiting"], 0, "{t3}");
    let best = a["best"].as_str().unwrap();
    let (s, r) = guest.post(&path, json!({"choice": best})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["right"], true, "{r}");
    assert_eq!(r["lost"], 0.0);
    assert_eq!(r["stage"], 2);
    assert_eq!(r["score"]["right"], 1);
    let wait = r["due_ms"].as_i64().unwrap() - chrono_now_ms();
    let confirm = i64::from(tabula_server::trainer::CONFIRM_FACTOR) * AGAIN_SECS * 1000;
    assert!(
        (confirm - 44_000..=confirm + 1_000).contains(&wait),
        "confirmed 144 waits later: {wait} ms"
    );
    // Another marked play, answered with the analysis' best play at first sight: right (the
    // trainer ranks at the analysis' depth), learned, and not asked again (409 learned).
    if let Some(d) = expected.iter().find(|d| {
        d["kind"] == "move" && format!("{game}-{}", d["version"]) != ex["id"].as_str().unwrap()
    }) {
        let path = format!("/api/trainer/{game}-{}/answer", d["version"]);
        let (s, r) = guest.post(&path, json!({"choice": d["best"]})).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(
            r["right"], true,
            "the analysis' best play {}: {r}",
            d["best"]
        );
        assert_eq!(r["stage"], 3);
        assert_eq!(r["score"]["learned"], 1);
        let (s, v) = guest.post(&path, json!({"choice": d["best"]})).await;
        assert_eq!(s, 409, "{v}");
        assert_eq!(v["error"]["code"], "learned");
    }
    // The other player has no exercise of the guest's.
    let (_, theirs) = other.get("/api/trainer").await;
    assert_eq!(theirs["score"]["exercises"], 0, "{theirs}");
}

fn chrono_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_players_errors_become_exercises_that_come_back_until_answered_right() {
    trainer_flow(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_players_errors_become_exercises_that_come_back_until_answered_right() {
    let Some(db) = postgres().await else { return };
    trainer_flow(db).await;
}
