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
        // The ending: a stable code and a sentence naming the players; the spectator's view
        // carries the same.
        let result = &end["view"]["result"];
        assert_result(result, &["alice", "Tabula easy"]);
        assert_eq!(result["winner"], end["winner"], "{result}");
        assert_eq!(
            result["points"].as_i64(),
            end["points"].as_i64(),
            "{result}"
        );
        assert_eq!(end["view"]["status"]["status"], "over");
        let watched = if seen["state"].is_object() {
            seen["state"].clone()
        } else {
            spectator.until_version(last, 20).await.unwrap()["state"].clone()
        };
        assert_eq!(&watched["result"], result, "the spectator's view");
        if i < 2 {
            // The dice games are matches: the match is won, and each game of it is listed
            // with its own ending, the score after it and its final board.
            assert_eq!(result["code"], "match-won", "{result}");
            let games = end["view"]["games"].as_array().unwrap();
            assert!(!games.is_empty());
            for (n, g) in games.iter().enumerate() {
                assert_eq!(g["number"], n + 1);
                assert_result(g, &["alice", "Tabula easy"]);
                assert!(
                    g["board"]["points"].is_array() && g["score"].is_object(),
                    "{g}"
                );
            }
            assert_eq!(games.last().unwrap()["score"], end["view"]["score"]);
            // Each game names the log version that ended it, in order, the last the match's.
            let versions: Vec<i64> = games
                .iter()
                .map(|g| g["version"].as_i64().expect("a version"))
                .collect();
            assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
            assert_eq!(*versions.last().unwrap(), end["version"].as_i64().unwrap());
        } else {
            assert!(end["view"]["games"].is_null());
        }
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
    let last_state = &steps.last().unwrap()["state"];
    assert_eq!(last_state["status"]["status"], "over");
    assert_eq!(last_state["result"], record["game"]["view"]["result"]);
    assert!(steps[0]["state"]["result"].is_null());
    let games = record["game"]["view"]["games"].as_array().unwrap().clone();
    let (s, mat) = c
        .get_text(&format!("/api/games/{backgammon_id}/export?format=mat"))
        .await;
    assert_eq!(s, 200);
    assert!(mat.contains("point match"), "{mat}");
    // The endings are comments of the .mat header, before the match line.
    let header = mat.split(" 3 point match").next().unwrap();
    assert!(header.contains("; [Ending \"match-won\"]\n"), "{mat}");
    assert!(header.contains("; [Sentence \""), "{mat}");
    for g in &games {
        let line = format!(
            "; [Ending {} \"{}\"]\n",
            g["number"],
            g["code"].as_str().unwrap()
        );
        assert!(header.contains(&line), "{line} in {mat}");
    }
    gnubg_reads_the_same_match_with_and_without_the_endings(&mat);
    let (s, text) = c
        .get_text(&format!("/api/games/{backgammon_id}/export"))
        .await;
    assert_eq!(s, 200);
    assert!(text.starts_with("[Game \"backgammon\"]"), "{text}");
    assert!(text.contains("[Ending \"match-won\"]\n"), "{text}");
    for g in &games {
        let sentence = format!(
            "[Sentence {} {:?}]\n",
            g["number"],
            g["sentence"].as_str().unwrap()
        );
        assert!(text.contains(&sentence), "{sentence} in {text}");
    }
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

/// A `result` (or a `games` entry): a known code and a sentence naming a player.
fn assert_result(result: &serde_json::Value, names: &[&str]) {
    const CODES: [&str; 20] = [
        "single",
        "gammon",
        "backgammon",
        "jacoby-single",
        "cube-dropped",
        "resigned-single",
        "resigned-gammon",
        "resigned-backgammon",
        "dead-position",
        "scored-twice",
        "both-passed",
        "no-checkers-left",
        "all-in-camp",
        "not-evacuated",
        "returned-to-camp",
        "repetition",
        "ply-limit",
        "agreement",
        "match-won",
        "session-complete",
    ];
    let code = result["code"].as_str().unwrap_or_default();
    assert!(CODES.contains(&code), "unknown code in {result}");
    let sentence = result["sentence"].as_str().unwrap_or_default();
    assert!(
        sentence.starts_with("Drawn: ") || names.iter().any(|n| sentence.contains(n)),
        "the sentence names nobody: {result}"
    );
    assert!(sentence.ends_with('.'), "{result}");
}

/// GNU Backgammon (where installed; required when `TABULA_REQUIRE_GNUBG` is set, as in CI)
/// imports the server's .mat with its ending comments exactly as it imports the same file
/// without them: the same score, and the same games when it exports the match again.
fn gnubg_reads_the_same_match_with_and_without_the_endings(mat: &str) {
    let Some(gnubg) = ["/usr/games/gnubg", "/usr/bin/gnubg"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
    else {
        if std::env::var_os("TABULA_REQUIRE_GNUBG").is_some() {
            panic!("gnubg is required (TABULA_REQUIRE_GNUBG) but not installed");
        }
        eprintln!("gnubg is not installed; skipping the .mat import check");
        return;
    };
    let without: String = mat
        .lines()
        .filter(|l| !l.starts_with("; [Ending") && !l.starts_with("; [Sentence"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without, mat, "no ending comments in {mat}");
    let dir = std::env::temp_dir().join(format!("tabula_mat_{}_{}", std::process::id(), mat.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let read = |name: &str, text: &str| {
        let (file, out) = (
            dir.join(format!("{name}.mat")),
            dir.join(format!("{name}.out.mat")),
        );
        std::fs::write(&file, text).unwrap();
        let script = format!(
            "set display off\nimport mat {}\nshow score\nexport match mat {}\n",
            file.display(),
            out.display()
        );
        let mut child = std::process::Command::new(gnubg)
            .args(["-t", "-q"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("gnubg starts");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(script.as_bytes()).unwrap();
        }
        let output = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        let score = stdout
            .lines()
            .find_map(|l| l.find("The score (after").map(|at| l[at..].to_string()))
            .unwrap_or_else(|| panic!("gnubg printed no score:\n{stdout}"));
        assert!(!stdout.contains("Unrecognised"), "{stdout}");
        let exported = std::fs::read_to_string(&out)
            .unwrap_or_else(|e| panic!("gnubg wrote no export ({e}):\n{stdout}"));
        // Its own header (date, the comments it kept) aside, the games as gnubg read them.
        let games = exported[exported.find(" point match").expect("a match line")..].to_string();
        (score, games)
    };
    let ours = read("with", mat);
    let plain = read("without", &without);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(ours, plain, "--- .mat:\n{mat}");
}
