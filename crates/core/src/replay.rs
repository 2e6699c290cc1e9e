//! Deterministic replay: a game rebuilt from its start, its action log and a dice source.
//!
//! The log holds only the players' choices; every chance node met on the way draws the next
//! roll from the dice source, so a log plus a [`ChaChaDice`](crate::ChaChaDice) seed determines
//! the whole game.

use crate::{DiceSource, Game, Status};
use thiserror::Error;

/// Why a log could not be replayed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReplayError<E: std::error::Error + 'static> {
    /// Action number `index` (0-based) was refused.
    #[error("action {index} was refused: {source}")]
    Refused {
        /// Position of the action in the log.
        index: usize,
        /// The game's reason.
        #[source]
        source: E,
    },
    /// The game ended before the log did.
    #[error("the game was over before action {index}")]
    GameOver {
        /// Position of the first action that found the game over.
        index: usize,
    },
}

/// Rolls dice from `dice` until the game asks a player for a decision or is over.
pub fn settle<G: Game>(game: &mut G, dice: &mut dyn DiceSource) -> Result<(), G::Error> {
    while let Status::Chance(_) = game.status() {
        game.roll(dice.roll())?;
    }
    Ok(())
}

/// Replays `actions` from `start`, drawing dice from `dice` at every chance node (also after
/// the last action), and returns the resulting game.
pub fn replay<G: Game>(
    start: G,
    actions: &[G::Action],
    dice: &mut dyn DiceSource,
) -> Result<G, ReplayError<G::Error>> {
    let mut game = start;
    for (index, action) in actions.iter().enumerate() {
        settle(&mut game, dice).map_err(|source| ReplayError::Refused { index, source })?;
        if let Status::Over(_) = game.status() {
            return Err(ReplayError::GameOver { index });
        }
        game.apply(action)
            .map_err(|source| ReplayError::Refused { index, source })?;
    }
    settle(&mut game, dice).map_err(|source| ReplayError::Refused {
        index: actions.len(),
        source,
    })?;
    Ok(game)
}
