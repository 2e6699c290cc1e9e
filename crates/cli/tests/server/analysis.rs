//! The analysis of finished backgammon games as jobs: asked for over HTTP, progress on the
//! game's WebSocket, the report stored with the game; refusals for games that cannot be
//! analysed; on PostgreSQL a job asked for on one instance reaches a socket on another.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The analysis runs at 0-ply in the tests (the debug build is slow).
const ENV: &[(&str, &str)] = &[("TABULA_ANALYSIS_PLIES", "0")];

/// A finished one-game money session of `client` (White) against the easy bot, long enough
/// to make a report worth checking (more than 20 actions in its log). The server's dice are
/// not seeded, so a game can end within a few actions (a double passed early): such a game
/// is put aside and another played, with the chooser's seed moved on.
async fn finished_game(client: &Client, seed: u64) -> String {
    for attempt in 0..20 {
        let id = one_game(client, seed + 1000 * attempt).await;
        let (_, events) = client.get(&format!("/api/games/{id}/events")).await;
        let actions = events
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "action")
            .count();
        if actions > 20 {
            return id;
        }
    }
    panic!("twenty games in a row ended within 20 actions");
}

/// One finished game of `client` (White) against the easy bot.
async fn one_game(client: &Client, seed: u64) -> String {
    let g = client
        .create(
            json!({"game": "backgammon"}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    play_to_end(client, &id, "white", seed).await;
    id
}

/// Polls the analysis until it is done (or failed), within `secs`.
async fn wait_done(client: &Client, id: &str, secs: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let (s, a) = client.get(&format!("/api/games/{id}/analysis")).await;
        assert_eq!(s, 200, "{a}");
        if a["state"] == "done" || a["state"] == "failed" {
            return a;
        }
        assert!(Instant::now() < deadline, "analysis not done: {a}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The report is whole: both players, every decision tied to an action of the log, marks
/// that follow the thresholds, errors never negative.
async fn check_report(client: &Client, id: &str, analysis: &Value) {
    assert_eq!(analysis["state"], "done", "{analysis}");
    let report = &analysis["report"];
    assert_eq!(report["plies"], 0);
    assert_eq!(report["match_length"], 0);
    let players = report["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0]["colour"], "white");
    for p in players {
        assert!(p["rating"].as_str().is_some_and(|r| !r.is_empty()), "{p}");
        assert!(p["chequer_error_rate"].as_f64().unwrap() >= 0.0);
    }
    let (_, events) = client.get(&format!("/api/games/{id}/events")).await;
    let actions: Vec<i64> = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "action")
        .map(|e| e["version"].as_i64().unwrap())
        .collect();
    let decisions = report["decisions"].as_array().unwrap();
    assert!(decisions.len() > 5, "{}", decisions.len());
    assert_eq!(
        analysis["total_steps"].as_u64().unwrap() as usize,
        actions.len()
    );
    for d in decisions {
        let v = d["version"].as_i64().unwrap();
        assert!(actions.contains(&v), "decision at version {v} is no action");
        let error = d["error"].as_f64().unwrap();
        assert!(error >= -1e-6, "{d}");
        let mark = d["mark"].as_str().unwrap();
        let expected = if !d["counted"].as_bool().unwrap() || error < 0.03 {
            ""
        } else if error < 0.06 {
            "doubtful"
        } else if error < 0.12 {
            "bad"
        } else {
            "very bad"
        };
        if d["counted"].as_bool().unwrap() {
            assert_eq!(mark, expected, "{d}");
        }
    }
    assert!(decisions
        .iter()
        .any(|d| d["kind"] == "move" && d["played"].is_string() && d["luck"].is_number()));
}

async fn analyse_a_finished_game(db: Database) {
    let server = Server::start_with_env(&db, ENV);
    let alice = Client::guest(&server.base, "alice").await;
    let id = finished_game(&alice, 3).await;
    let path = format!("/api/games/{id}/analysis");
    let (s, r) = alice.get(&path).await;
    assert_eq!((s, r["error"]["code"].as_str()), (404, Some("no_analysis")));
    // Anyone may watch; only a player may ask.
    let (s, _) = Client::anonymous(&server.base).post(&path, json!({})).await;
    assert_eq!(s, 401);
    let mut socket = watch(&server.base, &id, i64::MAX / 2).await;
    let (s, job) = alice.post(&path, json!({})).await;
    assert_eq!(s, 202, "{job}");
    assert!(["queued", "running", "done"].contains(&job["state"].as_str().unwrap()));
    // Asking again gives the same job.
    let (s, again) = alice.post(&path, json!({})).await;
    assert_eq!(s, 200, "{again}");
    // The socket hears the progress and the end.
    let mut last = Value::Null;
    let deadline = Instant::now() + Duration::from_secs(300);
    while Instant::now() < deadline {
        let Some(m) = socket.next(300).await else {
            break;
        };
        if m["type"] == "analysis" {
            last = m.clone();
            if m["state"] == "done" {
                break;
            }
        }
    }
    assert_eq!(last["state"], "done", "{last}");
    assert_eq!(last["done"], last["total"]);
    let analysis = wait_done(&alice, &id, 60).await;
    check_report(&alice, &id, &analysis).await;
    // The document lists the endpoints.
    let (_, doc) = alice.get("/api/openapi.json").await;
    assert!(doc["paths"]["/api/games/{id}/analysis"]["post"].is_object());
    assert!(doc["components"]["schemas"]["AnalysisView"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_finished_game_is_analysed_with_progress_on_its_socket() {
    analyse_a_finished_game(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_finished_game_is_analysed_with_progress_on_its_socket() {
    let Some(db) = postgres().await else {
        return;
    };
    analyse_a_finished_game(db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_that_cannot_be_analysed_are_refused_with_a_reason() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let alice = Client::guest(&server.base, "alice").await;
    let g = alice
        .create(
            json!({"game": "backgammon"}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap();
    let (s, r) = alice
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (409, Some("not_finished"))
    );
    let h = alice
        .create(
            json!({"game": "halma-grasshopper"}),
            json!({"kind": "bot", "level": "random"}),
        )
        .await;
    let hid = h["id"].as_str().unwrap();
    let (s, r) = alice
        .post(&format!("/api/games/{hid}/analysis"), json!({}))
        .await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (400, Some("not_backgammon"))
    );
    let (s, r) = alice.get(&format!("/api/games/{hid}/hint")).await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (400, Some("not_backgammon"))
    );
    let (s, r) = alice.post("/api/games/nonsense/analysis", json!({})).await;
    assert_eq!(s, 404, "{r}");
    // Nothing was queued by the refusals.
    let (s, _) = alice.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(s, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_instances_share_the_analysis_jobs() {
    let Some(db) = postgres().await else {
        return;
    };
    let a = Server::start_with_env(&db, ENV);
    let b = Server::start_with_env(&db, ENV);
    let alice = Client::guest(&a.base, "alice").await;
    let mut ids = Vec::new();
    for seed in 0..3 {
        ids.push(finished_game(&alice, 10 + seed).await);
    }
    // Watched through B, asked for through A.
    let mut on_b = watch(&b.base, &ids[0], i64::MAX / 2).await;
    for id in &ids {
        let (s, r) = alice
            .post(&format!("/api/games/{id}/analysis"), json!({}))
            .await;
        assert_eq!(s, 202, "{r}");
    }
    let mut heard = false;
    let deadline = Instant::now() + Duration::from_secs(300);
    while !heard && Instant::now() < deadline {
        match on_b.next(300).await {
            Some(m) if m["type"] == "analysis" && m["state"] == "done" => heard = true,
            Some(_) => {}
            None => break,
        }
    }
    assert!(
        heard,
        "B's socket heard the end of an analysis A's request queued"
    );
    let through_b = alice.at(&b.base);
    for id in &ids {
        let analysis = wait_done(&through_b, id, 300).await;
        check_report(&through_b, id, &analysis).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_gets_hints_against_a_bot_and_a_rated_game_gets_none() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let guest = Client::guest(&server.base, "alice").await;
    let g = guest
        .create(
            json!({"game": "backgammon"}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/hint");
    let mut pick = chooser(5);
    let (mut moves, mut cube) = (false, false);
    let deadline = Instant::now() + Duration::from_secs(240);
    while !(moves && cube) {
        assert!(Instant::now() < deadline, "no move and cube decision met");
        let g = guest.game(&id).await;
        if g["state"] != "playing" {
            break;
        }
        let status = &g["view"]["status"];
        if status["status"] == "decide" && status["player"] == "white" {
            let legal: Vec<String> = serde_json::from_value(g["view"]["legal"].clone()).unwrap();
            let (s, h) = guest.get(&path).await;
            assert_eq!(s, 200, "{h}");
            assert_eq!(h["unit"], "money");
            if legal.iter().any(|a| a == "double") {
                assert_eq!(h["kind"], "cube", "{h}");
                assert!(h["proper"].as_str().is_some_and(|p| !p.is_empty()), "{h}");
                cube = true;
            } else if h["kind"] == "moves" {
                let ranked = h["moves"].as_array().unwrap();
                if !ranked.is_empty() {
                    assert_eq!(ranked[0]["diff"].as_f64(), Some(0.0), "{h}");
                    assert!(ranked.len() <= 5);
                    for m in ranked {
                        assert!(m["diff"].as_f64().unwrap() <= 0.0, "{h}");
                        let text = m["move"].as_str().unwrap();
                        assert!(legal.iter().any(|a| a == text), "{text} not in {legal:?}");
                    }
                    moves = true;
                }
            }
        } else {
            // Not the guest's decision: no hint.
            let (s, h) = guest.get(&path).await;
            assert!(s == 409 || s == 200, "{s} {h}");
        }
        if guest.step(&id, "white", &mut pick).await.is_none() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    assert!(moves, "a hint ranked the plays of a roll");
    // Another player may not ask for the guest's hint.
    let other = Client::guest(&server.base, "bob").await;
    let (s, r) = other.get(&path).await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (403, Some("not_a_player"))
    );
    // A registered user's game against a bot is rated: no hints.
    let user = Client::anonymous(&server.base);
    let (s, me) = user
        .post(
            "/api/register",
            json!({"username": "carol", "password": "correct horse"}),
        )
        .await;
    assert_eq!(s, 200, "{me}");
    let g = user
        .create(
            json!({"game": "backgammon"}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let (s, r) = user
        .get(&format!("/api/games/{}/hint", g["id"].as_str().unwrap()))
        .await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (403, Some("hints_not_allowed"))
    );
    // A practice game (created unrated) against a bot: hints are allowed, and it stays
    // unrated to the end.
    let (s, g) = user
        .post(
            "/api/games",
            json!({"options": {"game": "backgammon"}, "opponent": {"kind": "bot", "level": "easy"}, "unrated": true}),
        )
        .await;
    assert_eq!(s, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["rated"], false, "{g}");
    let (s, r) = user.get(&format!("/api/games/{id}/hint")).await;
    assert_ne!(s, 403, "{r}");
    play_to_end(&user, &id, "white", 5).await;
    let (_, after) = user.get(&format!("/api/games/{id}")).await;
    assert_eq!(after["rated"], false, "{after}");
    let (_, me) = user
        .get(&format!("/api/players/{}", me["id"].as_str().unwrap()))
        .await;
    let rated_games: i64 = me["standings"]
        .as_object()
        .unwrap_or_else(|| panic!("a player page has standings: {me}"))
        .values()
        .map(|x| x["games"].as_i64().unwrap())
        .sum();
    assert_eq!(rated_games, 0, "a practice game moved no rating: {me}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_analysis_queue_answers_busy_and_a_finished_game_gets_no_hint() {
    // No worker here (threads 0), so queued jobs stay queued; one may wait.
    let env = [
        ("TABULA_ANALYSIS_PLIES", "0"),
        ("TABULA_ANALYSIS_THREADS", "0"),
        ("TABULA_ANALYSIS_QUEUE", "1"),
    ];
    let server = Server::start_with_env(&sqlite(), &env);
    let alice = Client::guest(&server.base, "alice").await;
    let (first, second) = (
        finished_game(&alice, 1).await,
        finished_game(&alice, 2).await,
    );
    let (s, r) = alice.get(&format!("/api/games/{first}/hint")).await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (409, Some("not_your_decision"))
    );
    let (s, r) = alice
        .post(&format!("/api/games/{first}/analysis"), json!({}))
        .await;
    assert_eq!((s, r["state"].as_str()), (202, Some("queued")), "{r}");
    let (s, r) = alice
        .post(&format!("/api/games/{second}/analysis"), json!({}))
        .await;
    assert_eq!((s, r["error"]["code"].as_str()), (503, Some("busy")), "{r}");
    // The queued job is still the first game's, and asking for it again is no new job.
    let (s, r) = alice
        .post(&format!("/api/games/{first}/analysis"), json!({}))
        .await;
    assert_eq!((s, r["state"].as_str()), (200, Some("queued")), "{r}");
    let (s, _) = alice.get(&format!("/api/games/{second}/analysis")).await;
    assert_eq!(s, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_never_finishing_game_is_analysed_play_by_play() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let alice = Client::guest(&server.base, "alice").await;
    let g = alice
        .create(
            json!({"game": "never-finishing", "match_length": 1}),
            json!({"kind": "bot", "level": "easy"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    play_to_end(&alice, &id, "white", 21).await;
    let (s, r) = alice
        .post(&format!("/api/games/{id}/analysis"), json!({}))
        .await;
    assert!(s == 202 || s == 200, "{r}");
    let a = wait_done(&alice, &id, 300).await;
    assert_eq!(a["state"], "done", "{a}");
    let report = &a["report"];
    let decisions = report["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty(), "{report}");
    // Every play of the log is a decision, in order, each at the version its entry made.
    let (_, record) = alice.get(&format!("/api/games/{id}/record")).await;
    let plays: Vec<i64> = record["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| &st["event"])
        .filter(|e| e["kind"] == "action" && e["payload"].as_str().unwrap().contains('/'))
        .map(|e| e["version"].as_i64().unwrap())
        .collect();
    let versions: Vec<i64> = decisions
        .iter()
        .map(|d| d["version"].as_i64().unwrap())
        .collect();
    assert_eq!(versions, plays);
    for d in decisions {
        assert_eq!(d["kind"], "move");
        let error = d["error"].as_f64().unwrap();
        assert!(error >= 0.0, "{d}");
        let mark = d["mark"].as_str().unwrap();
        let expected = if error >= 0.12 {
            "very bad"
        } else if error >= 0.06 {
            "bad"
        } else if error >= 0.03 {
            "doubtful"
        } else {
            ""
        };
        assert_eq!(mark, expected, "{d}");
        if d["counted"] == true {
            let alts = d["alternatives"].as_array().unwrap();
            assert!(!alts.is_empty() && alts.len() <= 5, "{d}");
            assert_eq!(alts[0]["move"], d["best"]);
            if error == 0.0 {
                assert_eq!(d["best"], d["played"], "{d}");
            }
        }
    }
    for p in report["players"].as_array().unwrap() {
        assert_eq!(p["cube_decisions"], 0, "no cube in Never-Finishing: {p}");
        assert!(p["rating"].is_string());
        assert_eq!(p["overall_error_rate"], p["chequer_error_rate"]);
    }
}
