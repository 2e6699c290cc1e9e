//! A player's progress over time: the rating after each rated game (kept game by game since
//! issue 31) and the error rates of each analysed game, for the player page's graphs, and
//! all their games as one zip archive whose .mat files `tabula analyse` reads, on SQLite and
//! PostgreSQL.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

async fn progress_over_time(db: Database) {
    let server = Server::start_with_env(&db, &[("TABULA_ANALYSIS_PLIES", "0")]);
    let carol = Client::anonymous(&server.base);
    let (s, me) = carol
        .post(
            "/api/register",
            json!({"username": "carol", "password": "correct horse"}),
        )
        .await;
    assert_eq!(s, 200, "{me}");
    let me = me["id"].as_str().unwrap().to_string();
    let path = format!("/api/players/{me}/progress");
    let (s, empty) = carol.get(&path).await;
    assert_eq!(s, 200, "{empty}");
    assert_eq!(empty, json!({"ratings": [], "analyses": []}));
    // Two rated games against the easy bot: two points of rating, in order.
    let mut ids = Vec::new();
    for seed in [3, 4] {
        let g = carol
            .create(
                json!({"game": "backgammon"}),
                json!({"kind": "bot", "level": "easy"}),
            )
            .await;
        let id = g["id"].as_str().unwrap().to_string();
        play_to_end(&carol, &id, "white", seed).await;
        ids.push(id);
    }
    let (_, p) = carol.get(&path).await;
    let ratings = p["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2, "{p}");
    assert_eq!(ratings[0]["game_id"], ids[0].as_str());
    assert_eq!(ratings[1]["game_id"], ids[1].as_str());
    assert_eq!(ratings[1]["game_type"], "backgammon");
    let (_, page) = carol.get(&format!("/api/players/{me}")).await;
    assert_eq!(
        ratings[1]["rating"], page["standings"]["backgammon"]["rating"],
        "the last point is the standing: {page}"
    );
    // The first game analysed: its rates for Carol's colour.
    let (s, job) = carol
        .post(&format!("/api/games/{}/analysis", ids[0]), json!({}))
        .await;
    assert!(s == 202 || s == 200, "{job}");
    let deadline = Instant::now() + Duration::from_secs(300);
    let report = loop {
        let (_, a) = carol.get(&format!("/api/games/{}/analysis", ids[0])).await;
        if a["state"] == "done" {
            break a["report"].clone();
        }
        assert_ne!(a["state"], "failed", "{a}");
        assert!(Instant::now() < deadline, "analysis not done: {a}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let (_, p) = carol.get(&path).await;
    let analyses = p["analyses"].as_array().unwrap();
    assert_eq!(analyses.len(), 1, "{p}");
    let a = &analyses[0];
    assert_eq!(a["game_id"], ids[0].as_str());
    assert_eq!(a["colour"], "white");
    assert_eq!(a["kind"], "money");
    let white: &Value = &report["players"][0];
    assert_eq!(a["overall"], white["overall_error_rate"]);
    assert_eq!(a["chequer"], white["chequer_error_rate"]);
    assert_eq!(a["rating"], white["rating"]);
    // Nobody's progress: 404.
    let (s, v) = carol.get("/api/players/nobody/progress").await;
    assert_eq!(s, 404, "{v}");
    // The archive: an index, each game's record and its .mat file, which `tabula analyse`
    // reads back.
    let bytes = reqwest::get(format!("{}/api/players/{me}/archive", server.base))
        .await
        .unwrap();
    assert_eq!(bytes.status(), 200);
    assert_eq!(
        bytes.headers()["content-type"].to_str().unwrap(),
        "application/zip"
    );
    let bytes = bytes.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let names: Vec<String> = zip
        .file_names()
        .map(|n| n.expect("a file name").to_string())
        .collect();
    assert!(names.contains(&"index.txt".to_string()), "{names:?}");
    for id in &ids {
        let mat = names
            .iter()
            .find(|n| n.ends_with(&format!("-backgammon-money-{id}.mat")))
            .unwrap_or_else(|| panic!("no .mat for {id}: {names:?}"));
        assert!(names.iter().any(|n| n.ends_with(&format!("-{id}.txt"))));
        let mut text = String::new();
        std::io::Read::read_to_string(&mut zip.by_name(mat).unwrap(), &mut text).unwrap();
        let file = std::env::temp_dir().join(format!("tabula-archive-{id}.mat"));
        std::fs::write(&file, &text).unwrap();
        let (code, out, err) = tabula(&["analyse", file.to_str().unwrap(), "--plies", "0"]);
        let _ = std::fs::remove_file(&file);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("carol"), "{out}");
    }
    let mut index = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("index.txt").unwrap(), &mut index).unwrap();
    assert_eq!(index.lines().count(), 2 + ids.len(), "{index}");
    assert!(index.contains("money game"), "{index}");
    let (s, _) = carol.get("/api/players/nobody/archive").await;
    assert_eq!(s, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_players_rating_and_error_rates_are_kept_game_by_game() {
    progress_over_time(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_players_rating_and_error_rates_are_kept_game_by_game() {
    let Some(db) = postgres().await else { return };
    progress_over_time(db).await;
}
