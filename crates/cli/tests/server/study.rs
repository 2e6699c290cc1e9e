//! The analysis board's endpoints: a pasted position evaluated with its plays ranked or its
//! cube decision, bad positions refused with a sentence, and a rollout streamed with its
//! progress and a result.

use crate::common::*;
use serde_json::{json, Value};

/// The plies are 0 in the tests (the debug build is slow).
const ENV: &[(&str, &str)] = &[("TABULA_ANALYSIS_PLIES", "0")];

const MATCH: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:1:2:0:5:10";

#[tokio::test]
async fn a_pasted_position_gets_its_plays_ranked_or_its_cube_decision() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    let (s, v) = anyone
        .post(
            "/api/study/evaluate",
            json!({"position": MATCH, "dice": "3-1"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["on_roll"], "white");
    assert_eq!(v["match_length"], 5);
    assert_eq!(v["score"], json!({"white": 1, "black": 2}));
    assert_eq!(v["board"]["points"][5], 5, "White's six-point: {v}");
    let hint = &v["hint"];
    assert_eq!(hint["kind"], "moves");
    assert_eq!(hint["unit"], "mwc");
    let moves = hint["moves"].as_array().unwrap();
    assert_eq!(moves[0]["move"], "8/5 6/5", "{hint}");
    assert_eq!(moves[0]["diff"], 0.0);
    assert!(moves
        .windows(2)
        .all(|w| w[0]["equity"].as_f64() >= w[1]["equity"].as_f64()));
    // Without dice: the cube decision, and chances that add up.
    let (s, v) = anyone
        .post("/api/study/evaluate", json!({"position": MATCH}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["hint"]["kind"], "cube");
    assert_eq!(v["hint"]["proper"], "No double, take");
    let win = v["chances"]["win"].as_f64().unwrap();
    assert!((0.4..0.6).contains(&win), "{v}");
}

#[tokio::test]
async fn bad_positions_and_dice_are_refused_with_a_reason() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    for (body, code) in [
        (json!({"position": "XGID=nonsense"}), "bad_position"),
        (json!({"position": "not a position"}), "bad_position"),
        (json!({"position": "x".repeat(500)}), "bad_request"),
        (json!({"position": MATCH, "dice": "7-1"}), "bad_request"),
        (json!({"position": MATCH, "extra": 1}), "bad_json"),
    ] {
        let (s, v) = anyone.post("/api/study/evaluate", body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert_eq!(v["error"]["code"], code, "{body}: {v}");
        assert!(!v["error"]["message"].as_str().unwrap().is_empty());
    }
    let (s, v) = anyone
        .post(
            "/api/study/rollout",
            json!({"position": MATCH, "trials": 5000}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
}

#[tokio::test]
async fn a_rollout_streams_its_progress_then_its_result() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    let (s, body) = anyone
        .post(
            "/api/study/rollout",
            json!({"position": MATCH, "trials": 36, "truncate": 4, "seed": 3}),
        )
        .await;
    assert_eq!(s, 200);
    let text = body.as_str().expect("lines of JSON").to_string();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let progress: Vec<u64> = lines
        .iter()
        .filter_map(|l| l["progress"].as_u64())
        .collect();
    assert!(!progress.is_empty() && progress.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(*progress.last().unwrap(), 36);
    let result = &lines.last().unwrap()["result"];
    assert_eq!(result["trials"], 36, "{text}");
    let e = result["equity"].as_f64().unwrap();
    let ci = result["equity_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= e && e <= ci[1].as_f64().unwrap());
    assert!(result["cube"]["proper"].as_str().is_some(), "{result}");
    // The same seed rolls the same dice.
    let (_, again) = anyone
        .post(
            "/api/study/rollout",
            json!({"position": MATCH, "trials": 36, "truncate": 4, "seed": 3}),
        )
        .await;
    let last = again.as_str().unwrap().lines().last().unwrap().to_string();
    let again: Value = serde_json::from_str(&last).unwrap();
    assert_eq!(again["result"]["equity"], result["equity"]);
}
