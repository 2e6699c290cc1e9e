//! Why a backgammon action or roll was refused.

use tabula_core::Dice;
use thiserror::Error;

/// A refused action or roll; the game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BackgammonError {
    /// The game (or match) is over.
    #[error("the game is over")]
    GameOver,
    /// Dice must be rolled before anything else happens.
    #[error("the dice must be rolled first")]
    DiceNeeded,
    /// Dice were supplied where a player's decision is due.
    #[error("no dice are needed now")]
    NoDiceNeeded,
    /// The action is not one of the choices at this point.
    #[error("cannot {action} now: {reason}")]
    NotNow {
        /// The refused action.
        action: String,
        /// What is possible instead.
        reason: &'static str,
    },
    /// The resulting position is not reachable with the dice.
    #[error("that move is not legal with {dice}")]
    IllegalMove {
        /// The dice being played.
        dice: Dice,
    },
}
