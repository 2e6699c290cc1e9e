//! Register, log in, play every game against a bot to its end through the API while a
//! spectator watches, then read statistics, the player page and the exports.

use crate::common::*;
use serde_json::json;

async fn accounts(base: &str) -> Client {
    let c = Client::anonymous(base);
    let creds = json!({"username": "alice", "password": "correct horse"});
    let (s, r) = c.post("/api/register", creds.clone()).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = c.post("/api/register", creds.clone()).await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (409, Some("username_taken"))
    );
    let (s, me) = c.get("/api/me").await;
    assert_eq!((s, me["name"].as_str()), (200, Some("alice")));
    let (s, _) = c.post("/api/logout", json!({})).await;
    assert_eq!(s, 200);
    assert_eq!(c.get("/api/me").await.0, 401);
    let wrong = json!({"username": "alice", "password": "wrong password"});
    let (s, r) = c.post("/api/login", wrong).await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (401, Some("bad_credentials"))
    );
    let (s, me) = c.post("/api/login", creds).await;
    assert_eq!(s, 200);
    let mut c = c;
    c.id = me["id"].as_str().unwrap().to_string();
    c
}

async fn register_play_watch_and_count(db: Database) {
    let server = Server::start(&db);
    let c = accounts(&server.base).await;
    let games = [
        json!({"game": "backgammon", "match_length": 3}),
        json!({"game": "never-finishing", "match_length": 1}),
        json!({"game": "grasshopper", "checkers": 6}),
        json!({"game": "halma-grasshopper", "size": 8}),
    ];
    let mut backgammon_id = String::new();
    for (i, options) in games.iter().enumerate() {
        let g = c
            .create(options.clone(), json!({"kind": "bot", "level": "easy"}))
            .await;
        let id = g["id"].as_str().unwrap().to_string();
        let mut spectator = watch(&server.base, &id, 0).await;
        let first = spectator
            .next(10)
            .await
            .expect("the spectator gets the state");
        assert!(
            first["type"] == "state" || first["type"] == "event",
            "{first}"
        );
        let end = play_to_end(&c, &id, "white", i as u64).await;
        assert_eq!(end["state"], "finished");
        let last = end["version"].as_i64().unwrap();
        let seen = spectator
            .until_version(last, 20)
            .await
            .expect("the spectator sees the end");
        assert_eq!(seen["version"].as_i64(), Some(last));
        if i == 0 {
            backgammon_id = id;
        }
    }
    // Statistics per game type, in the seeds' form.
    let (s, stats) = c.get("/api/stats").await;
    assert_eq!(s, 200);
    for game in stats.as_array().unwrap() {
        assert_eq!(game["games"], 1, "{game}");
        let line = game["line"].as_str().unwrap();
        assert!(
            line.starts_with("white won ") && line.contains("draws "),
            "{line}"
        );
    }
    // The player page counts the games and rates them.
    let (s, page) = c.get(&format!("/api/players/{}", c.id)).await;
    assert_eq!(s, 200);
    for game in [
        "backgammon",
        "never-finishing",
        "grasshopper",
        "halma-grasshopper",
    ] {
        assert_eq!(page["standings"][game]["games"], 1, "{page}");
        assert!(page["standings"][game]["rating"].as_f64().is_some());
    }
    let (_, mine) = c.get(&format!("/api/players/{}/games", c.id)).await;
    assert_eq!(mine.as_array().unwrap().len(), 4);
    // The full record, the exports and the dice.
    let (s, record) = c.get(&format!("/api/games/{backgammon_id}/record")).await;
    assert_eq!(s, 200);
    let steps = record["steps"].as_array().unwrap();
    assert_eq!(
        steps.len() as i64,
        record["game"]["version"].as_i64().unwrap()
    );
    assert_eq!(steps.last().unwrap()["state"]["status"]["status"], "over");
    let (s, mat) = c
        .get_text(&format!("/api/games/{backgammon_id}/export?format=mat"))
        .await;
    assert_eq!(s, 200);
    assert!(mat.contains("point match"), "{mat}");
    let (s, text) = c
        .get_text(&format!("/api/games/{backgammon_id}/export"))
        .await;
    assert_eq!(s, 200);
    assert!(text.starts_with("[Game \"backgammon\"]"), "{text}");
    let g = c.game(&backgammon_id).await;
    assert!(
        g["dice"]["server_seed"].is_string(),
        "the seed is revealed after the end"
    );
    let (s, openapi) = c.get("/api/openapi.json").await;
    assert_eq!(s, 200);
    assert!(openapi["paths"]["/api/games/{id}/actions"].is_object());
    assert_eq!(c.get_text("/healthz").await, (200, "ok".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_register_play_every_game_watch_and_count() {
    register_play_watch_and_count(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_register_play_every_game_watch_and_count() {
    if let Some(db) = postgres().await {
        register_play_watch_and_count(db).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_server_cleanly() {
    let mut server = Server::start(&sqlite());
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
}

/// A script plays with an API token (no cookie), and logging out with the token revokes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_tokens_act_for_scripts_and_can_be_revoked() {
    let server = Server::start(&sqlite());
    let owner = Client::guest(&server.base, "scripter").await;
    let (s, t) = owner.post("/api/tokens", json!({})).await;
    assert_eq!(s, 200, "{t}");
    let token = t["token"].as_str().unwrap().to_string();
    let http = reqwest::Client::new();
    let bearer =
        |req: reqwest::RequestBuilder| req.header("authorization", format!("Bearer {token}"));
    let me: serde_json::Value = bearer(http.get(format!("{}/api/me", server.base)))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["id"].as_str(), Some(owner.id.as_str()));
    let created = bearer(http.post(format!("{}/api/games", server.base)))
        .json(&json!({"options": {"game": "halma-grasshopper"}, "opponent": {"kind": "bot", "level": "random"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status().as_u16(), 200);
    let g: serde_json::Value = created.json().await.unwrap();
    let action = g["view"]["legal"][0].as_str().unwrap().to_string();
    let acted = bearer(http.post(format!(
        "{}/api/games/{}/actions",
        server.base,
        g["id"].as_str().unwrap()
    )))
    .json(&json!({"action": action}))
    .send()
    .await
    .unwrap();
    assert_eq!(acted.status().as_u16(), 200);
    // The token is not a cookie, and a cookie is not a token.
    let as_cookie = http
        .get(format!("{}/api/me", server.base))
        .header("cookie", format!("tabula_session={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(as_cookie.status().as_u16(), 401);
    let out = bearer(http.post(format!("{}/api/logout", server.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(out.status().as_u16(), 200);
    let after = bearer(http.get(format!("{}/api/me", server.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(
        after.status().as_u16(),
        401,
        "the revoked token still works"
    );
    // The owner's cookie session is untouched.
    assert_eq!(owner.get("/api/me").await.0, 200);
}
