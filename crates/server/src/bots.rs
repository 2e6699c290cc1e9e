//! Bots inside the server: whenever a game waits for a bot (or for a roll no person can ask
//! for), a driver task plays on until it waits for a person. The bot thinks on tokio's
//! blocking pool, never on the async workers, with the game unlocked; its action is then
//! committed like anyone's, and refused if the game moved meanwhile. Each decision's bot is
//! seeded from the game id and version, so a restarted server plays the same way. Started
//! by the post-commit hook ([`crate::hook`]) and, after a restart, by [`resume_all`].

use crate::auth::new_token;
use crate::game_task::{self, Kind};
use crate::service::Loaded;
use crate::service::{Change, Roller};
use crate::store::StoreError;
use crate::AppState;
use sha2::{Digest, Sha256};
use tabula_ai::Level;

fn seed(id: &str, version: i64) -> u64 {
    let digest = Sha256::digest(format!("{id}:{version}").as_bytes());
    u64::from_le_bytes(digest[..8].try_into().unwrap_or([0; 8]))
}

/// The bot driver, as a per-game task ([`crate::game_task`]).
static DRIVER: Kind = Kind {
    name: "bot driver",
    running: driving,
    needed: Loaded::needs_driver,
};

fn driving(state: &AppState) -> &std::sync::Mutex<std::collections::HashSet<String>> {
    &state.driving
}

/// Starts a driver for game `id` unless one runs on this instance already.
pub fn drive(state: AppState, id: String) {
    game_task::start(state, id, &DRIVER, |state, id| async move {
        run(&state, &id).await
    });
}

async fn run(state: &AppState, id: &str) -> Result<(), crate::error::ApiError> {
    loop {
        let game = state.load(id).await?;
        if game.row.state != "playing" {
            return Ok(());
        }
        if game.roller() == Some(Roller::Server) {
            let nonce = new_token();
            state
                .change(id, |g| {
                    if g.row.version != game.row.version {
                        return Err(crate::error::ApiError::conflict("moved", "the game moved"));
                    }
                    let dice = crate::service::derive_roll(&g.row, g.rolls, &nonce)?;
                    Ok(Change::Roll(None, nonce.clone(), dice))
                })
                .await?;
            continue;
        }
        let Some((color, level)) = game.bot_to_act() else {
            return Ok(());
        };
        let level: Level = level
            .parse()
            .map_err(|_| crate::error::ApiError::internal("unknown bot level"))?;
        if !state.bot_delay.is_zero() {
            tokio::time::sleep(state.bot_delay).await;
        }
        let version = game.row.version;
        let table = game.table.clone();
        let s = seed(id, version);
        let action = tokio::task::spawn_blocking(move || table.bot_action(level, s))
            .await
            .map_err(crate::error::ApiError::internal)?
            .ok_or_else(|| crate::error::ApiError::internal("the bot found no action"))?;
        state
            .change(id, |g| {
                if g.row.version != version {
                    return Err(crate::error::ApiError::conflict("moved", "the game moved"));
                }
                Ok(Change::Action(color, action.clone()))
            })
            .await?;
        // The bot's action may make a roll or a flag due: the commit's hook watches the game
        // (crate::hook).
    }
}

/// Resumes every unfinished game that waits for a bot (after a restart).
pub async fn resume_all(state: &AppState) -> Result<usize, StoreError> {
    let rows = state.db.games_with_bots(100_000).await?;
    for row in &rows {
        drive(state.clone(), row.id.clone());
    }
    Ok(rows.len())
}
