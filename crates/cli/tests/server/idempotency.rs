//! `POST /api/games` with an `Idempotency-Key` (docs/protocol.md): the same key from the
//! same player answers the game its first create made, after a restart, on another
//! instance, and when both copies arrive at once; another key or another player makes a new
//! game; a key that is too long or not visible ASCII is 400 `bad_request`.

use crate::common::*;
use serde_json::{json, Value};

fn create_body() -> Value {
    json!({"options": {"game": "backgammon"}, "opponent": {"kind": "invite"}, "client_seed": "s"})
}

async fn create(client: &Client, key: &str) -> Reply {
    client
        .post_with_header("/api/games", ("Idempotency-Key", key), create_body())
        .await
}

fn id_of(reply: &Reply) -> String {
    assert_eq!(reply.0, 200, "{}", reply.1);
    reply.1["id"].as_str().unwrap().to_string()
}

async fn games_of(client: &Client) -> usize {
    let (s, list) = client
        .get(&format!("/api/players/{}/games", client.id))
        .await;
    assert_eq!(s, 200, "{list}");
    list.as_array().expect("a list of games").len()
}

async fn repeated_creates_make_one_game(db: Database) {
    let mut server = Server::start(&db);
    let alice = Client::guest(&server.base, "alice").await;
    let bob = Client::guest(&server.base, "bob").await;

    let first = create(&alice, "create-1").await;
    let id = id_of(&first);
    let again = create(&alice, "create-1").await;
    assert_eq!(id_of(&again), id, "the repeat made another game");
    assert_eq!(again.1["invite_code"], first.1["invite_code"]);
    assert_eq!(games_of(&alice).await, 1);

    // Another key, or the same key from another player: a new game.
    let other = id_of(&create(&alice, "create-2").await);
    assert_ne!(other, id);
    let bobs = id_of(&create(&bob, "create-1").await);
    assert_ne!(bobs, id);
    assert_ne!(bobs, other);
    assert_eq!(games_of(&alice).await, 2);
    // No key: a new game each time.
    let plain = id_of(&alice.post("/api/games", create_body()).await);
    assert_ne!(plain, id);
    assert_ne!(plain, other);

    // Bounded: 64 characters pass, 65 are refused, as is what is not visible ASCII.
    let longest = "k".repeat(64);
    let kept = id_of(&create(&alice, &longest).await);
    assert_eq!(id_of(&create(&alice, &longest).await), kept);
    for bad in ["k".repeat(65), "with space".to_string(), String::new()] {
        let (s, e) = create(&alice, &bad).await;
        assert_eq!(
            (s, e["error"]["code"].as_str()),
            (400, Some("bad_request")),
            "{bad:?}: {e}"
        );
    }
    let before = games_of(&alice).await;
    assert_eq!(create(&alice, &"k".repeat(65)).await.0, 400);
    assert_eq!(
        games_of(&alice).await,
        before,
        "a refused create made a game"
    );

    // Two copies at once: one game.
    let (a, b) = tokio::join!(create(&alice, "race"), create(&alice, "race"));
    assert_eq!(id_of(&a), id_of(&b));

    // Stored: the key outlives a restart.
    server.terminate();
    let server = Server::start(&db);
    let alice = alice.at(&server.base);
    assert_eq!(id_of(&create(&alice, "create-1").await), id);
    if matches!(db, Database::Postgres(_)) {
        // And another instance on the same database knows it.
        let second = Server::start(&db);
        assert_eq!(
            id_of(&create(&alice.at(&second.base), "create-1").await),
            id
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_repeated_create_with_its_key_makes_one_game() {
    repeated_creates_make_one_game(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_repeated_create_with_its_key_makes_one_game() {
    if let Some(db) = postgres().await {
        repeated_creates_make_one_game(db).await;
    }
}
