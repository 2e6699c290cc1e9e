//! Issue 13, the server's state, over real `tabula serve` processes: asking for unknown
//! games leaves the server's memory flat (the game cache holds only games that exist and is
//! bounded; malformed ids are refused before the cache or the database), and ratings cannot
//! be farmed (games against guests are unrated; results against provisional players do not
//! move the other player's rating), while a game between established players still is rated.

use crate::common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The resident memory of process `pid`, in kB (`VmRSS` in `/proc/<pid>/status`).
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in {status}"))
}

/// `n` GETs of `/api/games/<id(i)>` from 16 concurrent tasks; the distinct statuses seen.
async fn hammer(base: &str, n: usize, id: fn(usize) -> String) -> Vec<u16> {
    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    for t in 0..16 {
        let (client, base) = (client.clone(), base.to_string());
        tasks.push(tokio::spawn(async move {
            let mut statuses = Vec::new();
            for i in (t..n).step_by(16) {
                let r = client
                    .get(format!("{base}/api/games/{}", id(i)))
                    .send()
                    .await
                    .unwrap();
                let s = r.status().as_u16();
                let _ = r.bytes().await;
                if !statuses.contains(&s) {
                    statuses.push(s);
                }
            }
            statuses
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        for s in t.await.unwrap() {
            if !all.contains(&s) {
                all.push(s);
            }
        }
    }
    all
}

/// A 6000-hex-digit id, different for each `i` (the size of the report's attack).
fn long_id(i: usize) -> String {
    format!("{i:016x}").repeat(375)
}

/// A well-formed (18 hex digits) id of no game.
fn unknown_id(i: usize) -> String {
    format!("ff{i:016x}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unknown_game_ids_leave_memory_flat() {
    let server = Server::start(&sqlite());
    let anon = Client::anonymous(&server.base);
    // Malformed ids: the JSON 404, before the database.
    for bad in [
        "zz",
        "0123456789abcdef0",
        "0123456789ABCDEF01",
        "0123456789abcdef012",
    ] {
        let (s, r) = anon.get(&format!("/api/games/{bad}")).await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (404, Some("not_found")),
            "{bad}: {r}"
        );
        let (s, r) = anon.get(&format!("/api/games/{bad}/events")).await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (404, Some("not_found")),
            "{bad}: {r}"
        );
    }
    let (s, r) = anon.get(&format!("/api/games/{}", unknown_id(1))).await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (404, Some("not_found")),
        "{r}"
    );
    // Warm up (the allocator's arenas, the connection pool), then measure.
    hammer(&server.base, 2000, long_id).await;
    hammer(&server.base, 2000, unknown_id).await;
    let before = rss_kb(server.pid());
    let statuses = hammer(&server.base, 20_000, long_id).await;
    eprintln!("statuses for 6000-digit ids: {statuses:?}");
    // 404 from the handler; a front layer may refuse such a URI as too long (414) instead.
    assert!(
        statuses.iter().all(|s| [404, 414].contains(s)),
        "{statuses:?}"
    );
    let statuses = hammer(&server.base, 20_000, unknown_id).await;
    assert_eq!(statuses, [404]);
    let after = rss_kb(server.pid());
    let grown = after.saturating_sub(before);
    eprintln!("VmRSS {before} kB -> {after} kB (+{grown} kB) over 40,000 unknown ids");
    // Before the fix: about 138 MB for the first 20,000 alone.
    assert!(
        grown < 16 * 1024,
        "memory grew by {grown} kB over 40,000 requests for unknown games"
    );
    // The server still serves real games.
    let guest = Client::guest(&server.base, "Ann").await;
    let g = guest
        .create(
            json!({"game": "grasshopper", "checkers": 4}),
            json!({"kind": "bot", "level": "random"}),
        )
        .await;
    guest.game(g["id"].as_str().unwrap()).await;
}

/// A registered user, logged in.
async fn user(base: &str, name: &str) -> Client {
    let mut c = Client::anonymous(base);
    let (s, me) = c
        .post(
            "/api/register",
            json!({"username": name, "password": "correct horse battery"}),
        )
        .await;
    assert_eq!(s, 200, "{me}");
    c.id = me["id"].as_str().unwrap().to_string();
    c
}

/// Resigns at the first chance (the highest level offered, which any bot accepts), plays
/// plain moves otherwise.
fn resigner() -> impl FnMut(&[String]) -> String {
    let mut plain = chooser(3);
    move |legal: &[String]| {
        legal
            .iter()
            .find(|a| *a == "resign backgammon")
            .or_else(|| legal.iter().find(|a| a.starts_with("resign")))
            .cloned()
            .unwrap_or_else(|| plain(legal))
    }
}

/// Accepts a resignation; plain moves otherwise.
fn accepter() -> impl FnMut(&[String]) -> String {
    let mut plain = chooser(5);
    move |legal: &[String]| {
        if legal.iter().any(|a| a == "accept") {
            "accept".to_string()
        } else {
            plain(legal)
        }
    }
}

const ONE_POINT: fn() -> Value = || json!({"game": "backgammon", "match_length": 1});

/// A one-point match `winner` (White) wins because `loser` (Black, by invitation) resigns.
async fn resigned_match(winner: &Client, loser: &Client) -> Value {
    let g = winner.create(ONE_POINT(), json!({"kind": "invite"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let code = g["invite_code"].as_str().unwrap();
    let (s, r) = loser
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite_code": code}),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let (mut win, mut lose) = (accepter(), resigner());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "game {id} did not finish");
        let a = winner.step(&id, "white", &mut win).await;
        let b = loser.step(&id, "black", &mut lose).await;
        if a.is_none() && b.is_none() {
            let g = winner.game(&id).await;
            if g["state"] == "finished" {
                assert_eq!(g["winner"], "white", "{g}");
                return g;
            }
        }
    }
}

/// A one-point match `loser` (White) loses to a bot by resigning.
async fn resign_to_bot(loser: &Client, level: &str) -> Value {
    let g = loser
        .create(ONE_POINT(), json!({"kind": "bot", "level": level}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut lose = resigner();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "game {id} did not finish");
        if loser.step(&id, "white", &mut lose).await.is_none() {
            let g = loser.game(&id).await;
            if g["state"] == "finished" {
                return g;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// `player`'s backgammon standing (null when nothing was ever counted).
async fn standing(c: &Client, player: &str) -> Value {
    let (s, page) = c.get(&format!("/api/players/{player}")).await;
    assert_eq!(s, 200, "{page}");
    page["standings"]["backgammon"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_ratings_cannot_be_farmed_but_real_games_are_rated() {
    ratings_cannot_be_farmed_but_real_games_are_rated(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_ratings_cannot_be_farmed_but_real_games_are_rated() {
    if let Some(db) = postgres().await {
        ratings_cannot_be_farmed_but_real_games_are_rated(db).await;
    }
}

async fn ratings_cannot_be_farmed_but_real_games_are_rated(db: Database) {
    let server = Server::start(&db);
    let base = &server.base;
    let farmer = user(base, "farmer").await;

    // 20 matches against fresh guests who resign: unrated for both sides.
    for i in 0..20 {
        let guest = Client::guest(base, &format!("sock{i}")).await;
        let g = resigned_match(&farmer, &guest).await;
        assert_eq!(g["rated"], false, "{g}");
    }
    let s = standing(&farmer, &farmer.id).await;
    assert!(s.is_null(), "games against guests were counted: {s}");

    // Matches against fresh registered accounts who resign: counted, rating unmoved (the
    // opponents are provisional), and the farmer becomes established.
    let mut socks = Vec::new();
    for i in 0..5 {
        let sock = user(base, &format!("sockpuppet{i}")).await;
        let g = resigned_match(&farmer, &sock).await;
        assert_eq!(g["rated"], true, "{g}");
        socks.push(sock);
    }
    let s = standing(&farmer, &farmer.id).await;
    assert_eq!(s["games"], 5, "{s}");
    assert_eq!(s["wins"], 5, "{s}");
    assert_eq!(s["rating"].as_f64(), Some(1500.0), "farmed: {s}");
    assert_eq!(s["fibs_rating"].as_f64(), Some(1500.0), "farmed: {s}");
    assert_eq!(
        (s["opponents"].as_i64(), s["provisional"].as_bool()),
        (Some(5), Some(false)),
        "{s}"
    );

    // An honest player establishes against the four bots and one more opponent; results
    // against the bots (never provisional) move the player's rating.
    let honest = user(base, "honest").await;
    for level in ["random", "easy", "medium", "strong"] {
        let g = resign_to_bot(&honest, level).await;
        assert_eq!(g["rated"], true, "{g}");
    }
    let s = standing(&honest, &honest.id).await;
    assert!(
        s["rating"].as_f64().unwrap() < 1500.0,
        "losses to bots did not count: {s}"
    );
    assert_eq!(s["provisional"], true, "{s}");
    resigned_match(&honest, &socks[0]).await;
    let before = standing(&honest, &honest.id).await;
    assert_eq!(before["provisional"], false, "{before}");

    // Two established players: the game is rated and moves both ratings.
    let farmer_before = standing(&farmer, &farmer.id).await;
    let g = resigned_match(&farmer, &honest).await;
    assert_eq!(g["rated"], true, "{g}");
    let farmer_after = standing(&farmer, &farmer.id).await;
    let honest_after = standing(&honest, &honest.id).await;
    assert!(
        farmer_after["rating"].as_f64().unwrap() > farmer_before["rating"].as_f64().unwrap(),
        "a win between established players did not raise the rating: {farmer_before} -> {farmer_after}"
    );
    assert!(
        honest_after["rating"].as_f64().unwrap() < before["rating"].as_f64().unwrap(),
        "{before} -> {honest_after}"
    );
    assert!(
        farmer_after["fibs_rating"].as_f64().unwrap() > 1500.0,
        "{farmer_after}"
    );
}
