//! The analysis board's Never-Finishing and Grasshopper study over HTTP: ranked plays with
//! traps, rollouts equal to `tabula rollout --game never-finishing`, exact Grasshopper values
//! from a cached endgame table and the search beyond it, and the refusals naming the field.

use crate::common::*;
use serde_json::{json, Value};

const ENV: &[(&str, &str)] = &[("TABULA_ANALYSIS_PLIES", "0")];
/// White to move; a Black blot on White's 18 that White's 6 can hit or trap.
const TRAP: &str = "14b/16/1b/5/15w:0:0:0:0:w";

#[tokio::test]
async fn never_finishing_plays_are_ranked_with_their_traps_and_rolled_out_as_the_cli_does() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    let (s, v) = anyone
        .post(
            "/api/study/nf/evaluate",
            json!({"position": TRAP, "dice": "6-1", "plies": 0}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["on_roll"], "white");
    assert_eq!(
        v["board"]["points"][17], -1,
        "Black's blot on White's 18: {v}"
    );
    let plays = v["candidates"].as_array().unwrap();
    assert_eq!(plays.len(), v["total_plays"].as_u64().unwrap() as usize);
    let moves: Vec<&str> = plays.iter().map(|p| p["move"].as_str().unwrap()).collect();
    assert!(moves.iter().any(|m| m.contains('^')), "a trap: {moves:?}");
    assert!(moves.iter().any(|m| m.contains('*')), "a hit: {moves:?}");
    let equities: Vec<f64> = plays
        .iter()
        .map(|p| p["equity"].as_f64().unwrap())
        .collect();
    assert!(
        equities.windows(2).all(|w| w[0] >= w[1]),
        "best first: {equities:?}"
    );
    // Without dice: the chances only.
    let (s, v) = anyone
        .post(
            "/api/study/nf/evaluate",
            json!({"position": "start", "plies": 0}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert!(v["candidates"].is_null());
    assert!(v["chances"]["win"].as_f64().unwrap() > 0.4);
    // Two plays rolled out together: each equals the CLI's rollout of the position it leaves,
    // seen from the other side.
    let chosen = [plays[0].clone(), plays[1].clone()];
    let (s, body) = anyone
        .post(
            "/api/study/rollout",
            json!({"game": "never-finishing", "position": TRAP, "dice": "6-1",
                   "plays": [chosen[0]["move"], chosen[1]["move"]],
                   "trials": 36, "truncate": 4, "seed": 5}),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let result = lines_of(&body).last().unwrap()["result"].clone();
    assert_eq!(result["kind"], "plays", "{result}");
    assert_eq!(result["unit"], "cubeless");
    for (item, play) in result["items"].as_array().unwrap().iter().zip(&chosen) {
        assert_eq!(item["move"], play["move"]);
        assert_eq!(item["after"], play["after"]);
        let (code, out, err) = tabula(&[
            "rollout",
            "--game",
            "never-finishing",
            play["after"].as_str().unwrap(),
            "--trials",
            "36",
            "--truncate",
            "4",
            "--seed",
            "5",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let cli: Value = serde_json::from_str(&out).unwrap();
        let ours = item["equity"].as_f64().unwrap();
        let theirs = -cli["equity"].as_f64().unwrap();
        assert!(
            (ours - theirs).abs() < 1e-9,
            "{} {ours} against the CLI's {theirs}",
            play["move"]
        );
    }
    // Refusals name what is wrong and change nothing.
    for (body, field) in [
        (json!({"position": "15b/22/16w:0:0:0:0:w"}), "bad position"),
        (json!({"position": "15b/23:0:0:15:0:w"}), "over"),
        (json!({"position": "start", "dice": "7-1"}), "dice"),
        (json!({"position": "start", "plies": 4}), "plies"),
        (json!({"position": "start", "cube": 2}), "unknown field"),
    ] {
        let (s, v) = anyone.post("/api/study/nf/evaluate", body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{body}: {message}");
    }
    for (body, field) in [
        (
            json!({"game": "never-finishing", "position": "start", "cubeful": true}),
            "cubeful",
        ),
        (
            json!({"game": "never-finishing", "position": "start", "plays": ["24/18"]}),
            "dice",
        ),
        (
            json!({"game": "never-finishing", "position": TRAP, "dice": "6-1", "plays": ["13/7"]}),
            "plays",
        ),
        (json!({"game": "chess", "position": "start"}), "game"),
    ] {
        let (s, v) = anyone.post("/api/study/rollout", body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{body}: {message}");
    }
}

#[tokio::test]
async fn grasshopper_positions_are_exact_where_the_table_holds_them_and_searched_beyond() {
    let cache = std::env::temp_dir().join(format!("tabula_study_gh_{}", std::process::id()));
    let built = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["solve", "grasshopper", "--tables", "2"])
        .env("TABULA_CACHE_DIR", &cache)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let server =
        Server::start_with_env(&sqlite(), &[("TABULA_CACHE_DIR", cache.to_str().unwrap())]);
    let anyone = Client::anonymous(&server.base);
    let small = "....../....../....../...... w 2-2 0-0 - 2";
    let (s, v) = anyone
        .post("/api/study/grasshopper", json!({"position": small}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["source"], "endgame table", "{v}");
    assert_eq!(v["table_k"], 2);
    let moves = v["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(
        moves[0]["value"], v["value"],
        "the best move keeps the value"
    );
    assert_eq!(v["best"], moves[0]["move"]);
    assert_eq!(v["view"]["game"], "grasshopper");
    // Four checkers each: beyond the table, the strong search answers with its move.
    let (s, v) = anyone
        .post(
            "/api/study/grasshopper",
            json!({"position": "....../....../....../...... w 4-4 0-0 - 4"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_ne!(v["source"], "endgame table", "{v}");
    assert!(v["best"].is_string(), "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["moves"].as_array().unwrap().is_empty());
    let (s, v) = anyone
        .post("/api/study/grasshopper", json!({"position": "....../ w"}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["error"]["code"], "bad_position");
    let _ = std::fs::remove_dir_all(&cache);
}
