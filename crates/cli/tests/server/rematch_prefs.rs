//! Rematches (both players must ask; against a bot at once) and players' preferences.

use crate::common::*;
use serde_json::json;
use std::time::{Duration, Instant};

/// Two guests play a 2-checker Grasshopper game by invitation to its end; returns its id.
async fn finished_game(a: &Client, b: &Client) -> String {
    let g = a
        .create(
            json!({"game": "grasshopper", "checkers": 2}),
            json!({"kind": "invite"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let (s, _) = b
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite_code": g["invite_code"]}),
        )
        .await;
    assert_eq!(s, 200);
    let (mut pa, mut pb) = (chooser(1), chooser(2));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the game did not end");
        if a.game(&id).await["state"] == "finished" {
            return id;
        }
        a.step(&id, "white", &mut pa).await;
        b.step(&id, "black", &mut pb).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_starts_only_when_both_players_ask_with_colours_swapped() {
    let server = Server::start(&sqlite());
    let a = Client::guest(&server.base, "ann").await;
    let b = Client::guest(&server.base, "bob").await;
    let id = finished_game(&a, &b).await;
    let path = format!("/api/games/{id}/rematch");
    let (s, r) = a.post(&path, json!({})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(
        (r["offered_by"].as_str(), r["game"].as_str()),
        (Some("white"), None)
    );
    // Asking again changes nothing; the game view shows the offer.
    let (_, r) = a.post(&path, json!({})).await;
    assert!(r["game"].is_null());
    assert_eq!(b.game(&id).await["rematch"]["offered_by"], "white");
    // Bob declines; then offers himself, and Ann accepts by asking.
    let (s, r) = b.post(&format!("{path}/decline"), json!({})).await;
    assert_eq!((s, r["offered_by"].is_null()), (200, true));
    let (_, r) = b.post(&path, json!({})).await;
    assert_eq!(r["offered_by"], "black");
    let (s, r) = a.post(&path, json!({})).await;
    assert_eq!(s, 200);
    let new_id = r["game"].as_str().expect("the rematch started").to_string();
    let g = a.game(&new_id).await;
    assert_eq!(g["state"], "playing");
    assert_eq!(g["white"]["name"], "bob");
    assert_eq!(g["black"]["name"], "ann");
    assert_eq!(g["options"]["checkers"], 2);
    assert_eq!(b.game(&id).await["rematch"]["game"], new_id.as_str());
    // A stranger may not, and an unfinished game has no rematch.
    let c = Client::guest(&server.base, "cy").await;
    let (s, r) = c.post(&path, json!({})).await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (403, Some("not_a_player"))
    );
    let (s, r) = a
        .post(&format!("/api/games/{new_id}/rematch"), json!({}))
        .await;
    assert_eq!(
        (s, r["error"]["code"].as_str()),
        (409, Some("not_finished"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_a_bot_starts_at_once_with_the_same_clock() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "solo").await;
    let (s, g) = c
        .post(
            "/api/games",
            json!({"options": {"game": "grasshopper", "checkers": 2},
                   "opponent": {"kind": "bot", "level": "easy"},
                   "clock": {"delay": 30, "reserve": 300}}),
        )
        .await;
    assert_eq!(s, 200, "{g}");
    assert!(
        g["description"]
            .as_str()
            .unwrap()
            .contains("30 s a move + 5 min"),
        "{g}"
    );
    let id = g["id"].as_str().unwrap();
    play_to_end(&c, id, "white", 9).await;
    let (s, r) = c.post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(s, 200, "{r}");
    let new_id = r["game"].as_str().expect("started at once");
    let g = c.game(new_id).await;
    assert_eq!(g["black"]["name"], "solo");
    assert_eq!(g["view"]["clock"]["delay"], 30);
    assert_eq!(g["view"]["clock"]["reserve"], 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preferences_are_kept_per_player_and_bad_ones_change_nothing() {
    let server = Server::start(&sqlite());
    let c = Client::guest(&server.base, "picky").await;
    let (s, p) = c.get("/api/me/preferences").await;
    assert_eq!(s, 200);
    assert_eq!(p["animation"], "normal");
    assert_eq!(p["orientation"], "home-right");
    assert_eq!(p["auto_roll"], false);
    // issue 30: the tab's title on your turn is on by default, the tone off
    assert_eq!(
        (&p["turn_title"], &p["turn_sound"]),
        (&json!(true), &json!(false))
    );
    let wanted = json!({"auto_roll": true, "auto_confirm": true, "auto_pass": false,
        "animation": "slow", "orientation": "home-left", "colours": "contrast",
        "turn_title": false, "turn_sound": true});
    let (s, p) = c.put_json("/api/me/preferences", wanted.clone()).await;
    assert_eq!((s, &p), (200, &wanted));
    for bad in [
        json!({"animation": "warp"}),
        json!({"auto_roll": true, "theme": "dark"}),
        json!({"orientation": 3}),
    ] {
        let (s, r) = c.put_json("/api/me/preferences", bad).await;
        assert_eq!(
            (s, r["error"]["code"].as_str()),
            (400, Some("bad_json")),
            "{r}"
        );
    }
    let (_, p) = c.get("/api/me/preferences").await;
    assert_eq!(p, wanted);
    // Another player has their own; a visitor has none.
    let d = Client::guest(&server.base, "plain").await;
    assert_eq!(d.get("/api/me/preferences").await.1["colours"], "classic");
    let (s, _) = Client::anonymous(&server.base)
        .get("/api/me/preferences")
        .await;
    assert_eq!(s, 401);
}
