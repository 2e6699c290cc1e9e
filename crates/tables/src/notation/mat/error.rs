//! Why a `.mat` file could not be read or replayed: every error names the line (from 1) and,
//! once inside a game, the game's number.

use crate::backgammon::BackgammonError;
use crate::notation::move_text::MoveParseError;
use tabula_core::{ByColor, Color, Dice};
use thiserror::Error;

/// A `.mat` file that could not be read or replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}{}: {kind}", game_text(*.game))]
pub struct MatError {
    /// The line (from 1) where the problem was found.
    pub line: usize,
    /// The game being read, as numbered in the file (`None` in the header).
    pub game: Option<u32>,
    /// What is wrong.
    pub kind: MatErrorKind,
}

fn game_text(game: Option<u32>) -> String {
    game.map_or_else(String::new, |g| format!(" (game {g})"))
}

impl MatError {
    pub(crate) fn new(line: usize, game: Option<u32>, kind: MatErrorKind) -> MatError {
        MatError { line, game, kind }
    }
}

/// What is wrong with a `.mat` file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MatErrorKind {
    /// A game began before the ` N point match` line.
    #[error("a game before the ` N point match` line")]
    NoMatchLine,
    /// The match length cannot be played (1 to 64 points, 0 for money).
    #[error("a match of {0} points cannot be played (1 to 64, or 0 for money)")]
    MatchLength(String),
    /// A rule tag or variation Tabula cannot replay.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A ` Game N` line without a number.
    #[error("cannot read the game line {0:?}")]
    GameLine(String),
    /// The line after ` Game N` is not `Name : score   Name : score`.
    #[error("cannot read the score line {0:?} (expected `Name : 0   Name : 0`)")]
    ScoreLine(String),
    /// A move line outside a game, or text that is no entry.
    #[error("cannot read {0:?}")]
    Unreadable(String),
    /// Dice that are not two faces 1 to 6.
    #[error("{0:?} are not dice")]
    BadDice(String),
    /// A cube value that is not a number.
    #[error("cannot read the cube value in {0:?}")]
    BadCube(String),
    /// A `Wins` entry without its points.
    #[error("cannot read the points in {0:?}")]
    BadWins(String),
    /// An entry after one in the second column.
    #[error("an entry after the second column's")]
    ThreeEntries,
    /// Move text that is not move text.
    #[error("{text:?}: {source}")]
    Move {
        /// The play as written.
        text: String,
        /// Why it is not move text.
        source: MoveParseError,
    },
    /// A play the dice and the board do not allow.
    #[error("{dice} {text:?} is not a legal play: {reason}")]
    IllegalMove {
        /// The dice.
        dice: Dice,
        /// The play as written.
        text: String,
        /// Why.
        reason: String,
    },
    /// An entry in the column of a player who is not the one to act.
    #[error("{entry} by {found}, but it is {expected}'s turn to {what}")]
    OutOfTurn {
        /// The entry as written.
        entry: String,
        /// The column it is in.
        found: Color,
        /// The player the session waits for.
        expected: Color,
        /// What the session waits for.
        what: &'static str,
    },
    /// An entry that cannot come at this point of the game.
    #[error("{entry} cannot come here: {why}")]
    Unexpected {
        /// The entry as written.
        entry: String,
        /// Why not.
        why: String,
    },
    /// A cube value other than the one the session reaches.
    #[error("{entry} but the cube would be {value}")]
    CubeValue {
        /// The entry as written.
        entry: String,
        /// The value the session reaches.
        value: u32,
    },
    /// A game header's score differs from the score the replay reached.
    #[error(
        "the game begins at {}-{} but the replay reached {}-{}",
        written.white, written.black, replayed.white, replayed.black
    )]
    Score {
        /// The score in the header (White, the first name, then Black).
        written: ByColor<u32>,
        /// The score replayed.
        replayed: ByColor<u32>,
    },
    /// A `Wins` line that differs from how the game ended.
    #[error("{written} but the game ended with {replayed}")]
    Result {
        /// The `Wins` entry as written, with its column.
        written: String,
        /// How the replay ended it.
        replayed: String,
    },
    /// A game that ends without a `Wins` line before the next game.
    #[error("the game before has no result")]
    Unfinished,
    /// A game after the end of the match.
    #[error("the match is already over")]
    MatchOver,
    /// The rules engine refused an action.
    #[error("{action} was refused: {source}")]
    Refused {
        /// The action.
        action: String,
        /// The engine's reason.
        source: BackgammonError,
    },
}
