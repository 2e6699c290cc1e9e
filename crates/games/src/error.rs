//! Why a face refuses: options that make no game ([`OptionsError`]) and text that names no
//! action now ([`ActionError`]). The messages are the ones the server sends to clients.

use thiserror::Error;

/// Options that make no game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionsError {
    /// Backgammon options the rules refuse.
    #[error(transparent)]
    Backgammon(#[from] tabula_tables::backgammon::OptionsError),
    /// A Never-Finishing match length out of range.
    #[error("a match is 1 to 64 points long (0: money), not {0}")]
    MatchLength(u32),
    /// A Never-Finishing session the rules refuse.
    #[error(transparent)]
    NeverFinishing(#[from] tabula_tables::never_finishing::BadLength),
    /// A Grasshopper checker count the rules refuse.
    #[error(transparent)]
    Checkers(#[from] tabula_grasshopper::CheckersError),
    /// A Grasshopper (Halma) board that does not exist.
    #[error(transparent)]
    Size(#[from] tabula_halma::BadSize),
    /// A Grasshopper (Halma) evacuation deadline out of range on its board.
    #[error(
        "the evacuation deadline on {side}x{side} is 0 (off) or {min} to {max} moves, not {given}"
    )]
    Evacuation {
        /// The board's side.
        side: u32,
        /// The smallest deadline allowed but 0.
        min: u32,
        /// The largest deadline allowed.
        max: u32,
        /// The deadline asked for.
        given: u32,
    },
}

/// Text that names no action now, or an action that cannot be played now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The dice are to be rolled before anyone decides.
    #[error("the dice must be rolled first")]
    Roll,
    /// Text that names no action of the decision due (no dice to move with).
    #[error("{0:?} is not an action now")]
    NotNow(String),
    /// A backgammon or Never-Finishing move that the dice do not allow.
    #[error("illegal move: {0}")]
    Move(#[from] tabula_tables::notation::move_text::MoveTextError),
    /// Grasshopper move text that is malformed or illegal.
    #[error(transparent)]
    Grasshopper(#[from] tabula_grasshopper::notation::MoveTextError),
    /// Grasshopper (Halma) move text that is malformed or illegal.
    #[error(transparent)]
    Halma(#[from] tabula_halma::notation::MoveError),
    /// An action, read, that the rules refuse now.
    #[error("{0:?} is not legal now")]
    NotLegal(String),
}
