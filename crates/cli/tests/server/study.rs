//! The analysis board's endpoints: a pasted position read back with its identifiers and
//! evaluated with its plays ranked (with their chances) or its cube decision, bad positions
//! refused with a sentence naming the field, and rollouts of the position, of candidate plays
//! and of the cube streamed with their progress, stopped and resumed to the same result.

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
    assert_eq!(result["kind"], "position");
    let item = &result["items"][0];
    assert_eq!(item["trials"], 36, "{text}");
    let e = item["equity"].as_f64().unwrap();
    let ci = item["equity_ci95"].as_array().unwrap();
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
    assert_eq!(again["result"]["items"][0]["equity"], item["equity"]);
}

#[tokio::test]
async fn a_position_reads_back_with_its_ids_and_candidates_carry_their_chances() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10";
    let (s, v) = anyone
        .post("/api/study/position", json!({"position": xgid}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["ids"]["xgid"], xgid);
    assert_eq!(v["ids"]["position_id"], "4HPwATDgc/ABMA");
    assert_eq!(v["dice"], "3-1");
    let gnubg = v["ids"]["gnubg"].as_str().unwrap().to_string();
    let (_, again) = anyone
        .post("/api/study/position", json!({"position": gnubg}))
        .await;
    assert_eq!(
        again["ids"]["xgid"], xgid,
        "the gnubg IDs read back: {again}"
    );
    // Both sides on one point, or a 16th checker: refused with the reason.
    for (bad, why) in [
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10x",
            "bad position",
        ),
        (
            "XGID=-b----E-C---eE---c-e----BB:0:0:1:00:0:0:3:0:10",
            "bad position",
        ),
    ] {
        let (s, v) = anyone
            .post("/api/study/position", json!({"position": bad}))
            .await;
        assert_eq!(s, 400, "{bad}: {v}");
        assert_eq!(v["error"]["code"], "bad_position", "{v}");
        assert!(
            v["error"]["message"].as_str().unwrap().starts_with(why),
            "{v}"
        );
    }
    // The candidates: every play with its chances and the position it leaves.
    let (s, v) = anyone
        .post("/api/study/evaluate", json!({"position": xgid, "plies": 0}))
        .await;
    assert_eq!(s, 200, "{v}");
    let candidates = v["candidates"].as_array().unwrap();
    assert!(candidates.len() >= 10, "{v}");
    assert_eq!(candidates[0]["move"], "8/5 6/5");
    for c in candidates {
        let win = c["chances"]["win"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&win));
        assert!(c["after"].as_str().unwrap().starts_with("XGID="));
        assert_eq!(c["plies"], 0);
    }
    let (s, v) = anyone
        .post(
            "/api/study/position",
            json!({"position": xgid, "dice": "7-1"}),
        )
        .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (400, Some("bad_request")),
        "{v}"
    );
    let (s, v) = anyone
        .post("/api/study/evaluate", json!({"position": xgid, "plies": 4}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("plies"));
}

#[tokio::test]
async fn candidate_plays_roll_out_together_and_a_stopped_rollout_resumes_to_the_same_result() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10";
    let request = json!({"position": xgid, "plays": ["8/5 6/5", "24/21 6/5"], "trials": 72,
        "truncate": 2, "seed": 5});
    let (s, body) = anyone.post("/api/study/rollout", request.clone()).await;
    assert_eq!(s, 200, "{body}");
    let lines = lines_of(&body);
    let result = &lines.last().unwrap()["result"];
    assert_eq!(result["kind"], "plays", "{result}");
    let items = result["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["move"], "8/5 6/5");
    assert!(items.iter().all(|i| i["trials"] == 72));
    // The partial reports come a block of 36 at a time, each play in turn.
    let partial: Vec<&Value> = lines.iter().filter(|l| l["partial"].is_object()).collect();
    assert_eq!(partial.len(), 4, "{body}");
    let first = &partial[1]["partial"];
    assert_eq!(first["items"][0]["trials"], 36);
    assert_eq!(first["items"][1]["trials"], 36);
    // Resumed from the sums after the first blocks: the same result to the last bit.
    let sums: Vec<Value> = first["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["sums"].clone())
        .collect();
    let mut resumed = request.clone();
    resumed["resume"] = json!(sums);
    let (s, body) = anyone.post("/api/study/rollout", resumed).await;
    assert_eq!(s, 200, "{body}");
    let again = lines_of(&body);
    let again = &again.last().unwrap()["result"];
    for k in 0..2 {
        assert_eq!(again["items"][k]["equity"], items[k]["equity"], "{again}");
        assert_eq!(again["items"][k]["chances"], items[k]["chances"]);
    }
    // A play's rollout is the rollout of the position it leaves, from the other side.
    let after = items[0]["after"].as_str().unwrap();
    let (_, body) = anyone
        .post(
            "/api/study/rollout",
            json!({"position": after, "trials": 72, "truncate": 2, "seed": 5}),
        )
        .await;
    let theirs = lines_of(&body);
    let theirs = &theirs.last().unwrap()["result"]["items"][0];
    let (a, b) = (
        items[0]["equity"].as_f64().unwrap(),
        theirs["equity"].as_f64().unwrap(),
    );
    assert!((a + b).abs() < 1e-12, "{a} against {b}");
    // Bad requests name the field.
    for (body, field) in [
        (json!({"position": xgid, "plays": ["8/1"]}), "plays"),
        (json!({"position": xgid, "plays": []}), "plays"),
        (
            json!({"position": xgid.replace(":31:", ":00:"), "plays": ["8/5 6/5"]}),
            "dice",
        ),
        (
            json!({"position": xgid, "plays": ["8/5 6/5"], "resume": [{"trials": 1, "sum": [0.5], "sum_sq": [0.25]}]}),
            "resume",
        ),
        (
            json!({"position": xgid, "trials": 1296, "plays": ["8/5 6/5", "24/21 6/5", "13/10 6/5", "24/23 8/5", "13/9"]}),
            "trials",
        ),
        (json!({"position": xgid, "truncate": 1001}), "truncate"),
        // Sums for one item where two are rolled out, and sums of more trials than asked.
        (
            json!({"position": xgid, "plays": ["8/5 6/5", "24/21 6/5"], "resume": [{"trials": 0, "sum": [0, 0, 0, 0, 0, 0], "sum_sq": [0, 0, 0, 0, 0, 0]}]}),
            "resume",
        ),
        (
            json!({"position": xgid, "plays": ["8/5 6/5"], "resume": [{"trials": 500, "sum": [0, 0, 0, 0, 0, 0], "sum_sq": [0, 0, 0, 0, 0, 0]}]}),
            "resume",
        ),
    ] {
        let (s, v) = anyone.post("/api/study/rollout", body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{body}: {message}");
    }
}

#[tokio::test]
async fn the_cube_rolls_out_cubeful_and_a_second_rollout_at_once_is_told_busy() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    let request = json!({"position": MATCH, "cubeful": true, "trials": 36, "truncate": 2});
    let (s, body) = anyone.post("/api/study/rollout", request.clone()).await;
    assert_eq!(s, 200, "{body}");
    let lines = lines_of(&body);
    let result = &lines.last().unwrap()["result"];
    assert_eq!(result["kind"], "cube", "{result}");
    assert_eq!(result["unit"], "mwc");
    assert_eq!(result["items"][0]["label"], "no double");
    assert_eq!(result["items"][1]["label"], "double, take");
    assert!(result["cube"]["proper"].as_str().is_some(), "{result}");
    let pass = result["cube"]["double_drop"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&pass));
    // A rollout's place is free once its result is read: the next one starts at once.
    for seed in 0..5 {
        let (s, body) = anyone
            .post(
                "/api/study/rollout",
                json!({"position": MATCH, "trials": 1, "seed": seed}),
            )
            .await;
        assert_eq!(s, 200, "rollout {seed} right after the last: {body}");
    }
    // One rollout at a time per client: a second one from the same address meanwhile gets
    // 429 too_many; and one at a time per server: another client's gets 503 busy.
    let long = json!({"position": MATCH, "trials": 1296});
    let url = format!("{}/api/study/rollout", server.base);
    let http = reqwest::Client::new();
    let first = http.post(&url).json(&long).send().await.unwrap();
    assert_eq!(first.status(), 200);
    let (s, v) = anyone.post("/api/study/rollout", long.clone()).await;
    assert_eq!(s, 429, "{v}");
    assert_eq!(v["error"]["code"], "too_many");
    let someone = Client::guest(&server.base, "someone").await;
    let (s, v) = someone.post("/api/study/rollout", long.clone()).await;
    assert_eq!(s, 503, "{v}");
    assert_eq!(v["error"]["code"], "busy");
    drop(first);
}

#[tokio::test]
async fn a_client_has_one_evaluation_at_a_time() {
    let server = Server::start_with_env(&sqlite(), ENV);
    let anyone = Client::anonymous(&server.base);
    // A 3-ply ranking of a contact roll takes seconds: the second request from the same
    // client arrives while it runs.
    let slow = json!({"position": MATCH, "dice": "3-1", "plies": 3});
    let url = format!("{}/api/study/evaluate", server.base);
    let first = tokio::spawn({
        let slow = slow.clone();
        async move {
            reqwest::Client::new()
                .post(&url)
                .json(&slow)
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (s, v) = anyone.post("/api/study/evaluate", slow.clone()).await;
    assert_eq!(s, 429, "{v}");
    assert_eq!(v["error"]["code"], "too_many");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("one at a time"),
        "{v}"
    );
    assert_eq!(first.await.unwrap(), 200);
    // Once it has ended, the next is taken.
    let (s, v) = anyone
        .post(
            "/api/study/evaluate",
            json!({"position": MATCH, "plies": 0}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
}
