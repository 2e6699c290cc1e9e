//! The dice of a finished game verify from the revealed seed; tampering is detected.

use crate::common::*;
use serde_json::{json, Value};

fn verify(record: &Value) -> (i32, String) {
    let path = std::env::temp_dir().join(format!(
        "tabula_dice_{}_{}.json",
        std::process::id(),
        rand_suffix(record)
    ));
    std::fs::write(&path, record.to_string()).unwrap();
    let (code, out, err) = tabula(&["verify-dice", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    (code, format!("{out}{err}"))
}

fn rand_suffix(v: &Value) -> usize {
    v.to_string().len()
        ^ (std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos() as usize)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_dice_verify_and_tampering_is_detected() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "dicey").await;
    // The dice are the server's, so a game can end after two rolls (a double dropped at
    // once); the tampering below needs a second roll to change, so such a game is
    // replaced by another (each ends early with a small chance).
    let mut found = None;
    for attempt in 0..8u64 {
        let g = c
            .create(
                json!({"game": "backgammon"}),
                json!({"kind": "bot", "level": "easy"}),
            )
            .await;
        let id = g["id"].as_str().unwrap().to_string();
        // Before the end the seed is secret: only its commitment is shown.
        let before = c.game(&id).await;
        assert!(before["dice"]["server_seed"].is_null());
        assert_eq!(before["dice"]["commitment"], g["commitment"]);
        play_to_end(&c, &id, "white", 5 + attempt).await;
        let (_, record) = c.get(&format!("/api/games/{id}")).await;
        let rolls = record["dice"]["rolls"].as_array().unwrap().len();
        if rolls > 2 {
            found = Some((id, record, rolls));
            break;
        }
    }
    let (id, record, rolls) = found.expect("eight games in a row ended within two rolls");
    let (code, out) = verify(&record);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("verified: {rolls} rolls")), "{out}");
    assert!(out.contains("the moves were not checked"), "{out}");
    // The /record document verifies too, moves and all.
    let (_, full) = c.get(&format!("/api/games/{id}/record")).await;
    let (code, out) = verify(&full);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("events replay legally"), "{out}");
    a_tampered_record_does_not_verify(&full);

    let tampered = |f: &dyn Fn(&mut Value)| {
        let mut r = record.clone();
        f(&mut r["dice"]);
        verify(&r)
    };
    let first = |d: &mut Value| {
        d["rolls"][1]["dice"][0] = json!(d["rolls"][1]["dice"][0].as_u64().unwrap() % 6 + 1)
    };
    for (what, change) in [
        ("a die", &first as &dyn Fn(&mut Value)),
        // One forged nonce gives the recorded dice again with probability 1/36 (and then
        // changes nothing that matters), so every roll's nonce is forged.
        ("the nonces", &|d: &mut Value| {
            for (i, roll) in d["rolls"].as_array_mut().unwrap().iter_mut().enumerate() {
                roll["nonce"] = json!(format!("forged nonce {i}"));
            }
        }),
        ("a client seed", &|d: &mut Value| {
            d["client_seeds"]["white"] = json!("forged")
        }),
        ("the seed", &|d: &mut Value| {
            d["server_seed"] = json!("00".repeat(32))
        }),
    ] {
        let (code, out) = tampered(change);
        assert_eq!(code, 2, "tampering with {what} went unnoticed: {out}");
        assert!(out.contains("do not verify"), "{out}");
    }
}

/// A full record with a changed move, state, roll event or result is refused: "verified"
/// covers the whole record, not only its dice (issue 13, item 9).
fn a_tampered_record_does_not_verify(full: &Value) {
    let steps = full["steps"].as_array().unwrap();
    let action = steps
        .iter()
        .position(|s| s["event"]["kind"] == "action" && s["event"]["payload"] != "")
        .unwrap();
    let roll = steps
        .iter()
        .position(|s| s["event"]["kind"] == "roll")
        .unwrap();
    type Change = Box<dyn Fn(&mut Value)>;
    let changes: Vec<(&str, Change)> = vec![
        (
            "a move",
            Box::new(move |r: &mut Value| r["steps"][action]["event"]["payload"] = json!("24/1")),
        ),
        (
            "a recorded state",
            Box::new(move |r: &mut Value| {
                r["steps"][action]["state"]["notation"] = json!("forged")
            }),
        ),
        (
            "a roll event",
            Box::new(move |r: &mut Value| {
                let d = &r["steps"][roll]["event"]["payload"];
                let forged = if d == "6-5" { "5-6" } else { "6-5" };
                r["steps"][roll]["event"]["payload"] = json!(forged);
            }),
        ),
        (
            "the events' count",
            Box::new(|r: &mut Value| {
                r["steps"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "the winner",
            Box::new(|r: &mut Value| {
                let other = if r["game"]["winner"] == "white" {
                    "black"
                } else {
                    "white"
                };
                r["game"]["winner"] = json!(other);
            }),
        ),
    ];
    for (what, change) in changes {
        let mut r = full.clone();
        change(&mut r);
        let (code, out) = verify(&r);
        assert_eq!(code, 2, "tampering with {what} went unnoticed: {out}");
        assert!(out.contains("the moves do not verify"), "{what}: {out}");
    }
}

/// `verify-dice` and `serve` refuse bad input with one line and exit 2.
#[test]
fn bad_records_and_addresses_are_refused_with_exit_2() {
    let dir = std::env::temp_dir().join(format!("tabula_bad_dice_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let unrevealed = json!({"dice": {"commitment": "00", "server_seed": null,
        "client_seeds": {"white": "", "black": ""}, "rolls": []}});
    for (path, reason) in [
        (
            dir.join("missing.json").display().to_string(),
            "cannot read",
        ),
        (write("text.json", "not json"), "is not JSON"),
        (write("other.json", "{\"dice\": 3}"), "no dice record"),
        (
            write("secret.json", &unrevealed.to_string()),
            "do not verify",
        ),
    ] {
        let (code, out, err) = tabula(&["verify-dice", &path]);
        assert_eq!(code, 2, "{path}: {out}{err}");
        assert!(err.contains(reason) && err.lines().count() == 1, "{err}");
    }
    let (code, _, err) = tabula(&["serve", "--addr", "nowhere"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--addr"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
