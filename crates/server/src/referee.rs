//! The server's own moves in a game: the rolls it makes for players who do not roll in
//! time, and the end of a game whose player ran out of time ([`crate::clock`]).
//!
//! One watcher task per game that has something due ([`crate::service::Loaded::due`]) runs on
//! each instance that touched it; it sleeps until the time comes (waking at least every
//! second to see the game's newer versions) and commits like anyone else, refused when the
//! game moved meanwhile, so two instances watching one game cannot both act. Started after
//! every commit by the post-commit hook ([`crate::hook`]), and for every unfinished game
//! when the server starts.

use crate::error::ApiError;
use crate::game_task::{self, Kind};
use crate::service::{derive_roll, Change, Due, Loaded};
use crate::store::{now_ms, StoreError};
use crate::AppState;
use std::time::Duration;

/// The longest a watcher sleeps before it looks at the game again, in milliseconds.
const NAP_MS: i64 = 1000;

/// The nonce of the server's roll number `n` for a player (docs/dice.md, "Rolls the server
/// makes"): fixed by the roll number, so that the server has no choice of dice.
pub fn server_nonce(n: u64) -> String {
    format!("{SERVER_NONCE_PREFIX}{n}")
}

/// What every nonce of the server's own rolls begins with; no client may send one.
pub const SERVER_NONCE_PREFIX: &str = "server:";

/// The referee, as a per-game task ([`crate::game_task`]).
static WATCHER: Kind = Kind {
    name: "game watcher",
    running: watching,
    needed: Loaded::needs_referee,
};

fn watching(state: &AppState) -> &std::sync::Mutex<std::collections::HashSet<String>> {
    &state.watching
}

/// Starts a watcher for game `id` unless one runs on this instance already.
pub fn watch(state: AppState, id: String) {
    game_task::start(state, id, &WATCHER, |state, id| async move {
        run(&state, &id).await
    });
}

async fn run(state: &AppState, id: &str) -> Result<(), ApiError> {
    loop {
        let game = state.load(id).await?;
        let Some((due, at)) = game.due() else {
            return Ok(());
        };
        let wait = at - now_ms();
        if wait > 0 {
            tokio::time::sleep(Duration::from_millis(wait.min(NAP_MS) as u64)).await;
            continue;
        }
        let version = game.row.version;
        let done = state
            .change(id, |g| {
                if g.row.version != version {
                    return Err(ApiError::conflict("moved", "the game moved"));
                }
                match due {
                    Due::Roll => {
                        let nonce = server_nonce(g.rolls);
                        let dice = derive_roll(&g.row, g.rolls, &nonce)?;
                        Ok(Change::Roll(None, nonce, dice))
                    }
                    Due::TimeOut(color) => Ok(Change::TimeOut(color)),
                }
            })
            .await;
        match done {
            // The commit's hook (crate::hook) hands the game to the bots.
            Ok(_) => {}
            Err(e) if e.code == "moved" => {}
            Err(e) => return Err(e),
        }
    }
}

/// Starts a watcher for every unfinished game (after a restart).
pub async fn resume_all(state: &AppState) -> Result<usize, StoreError> {
    let rows = state.db.games_to_watch(100_000).await?;
    for row in &rows {
        watch(state.clone(), row.id.clone());
    }
    Ok(rows.len())
}
