//! What a backgammon player can do, and how a finished game is scored.

use crate::position::Position;
use serde::{Deserialize, Serialize};
use std::fmt;
use tabula_core::{Color, EndReason, Level, Outcome};

/// How much a resigning player concedes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResignLevel {
    /// A single game.
    Single = 1,
    /// A gammon.
    Gammon = 2,
    /// A backgammon.
    Backgammon = 3,
}

impl ResignLevel {
    /// All levels, lowest first.
    pub const ALL: [ResignLevel; 3] = [
        ResignLevel::Single,
        ResignLevel::Gammon,
        ResignLevel::Backgammon,
    ];

    /// Points per cube unit.
    pub fn multiplier(self) -> u32 {
        self as u32
    }
}

/// A backgammon player's action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Roll the dice without doubling.
    Roll,
    /// Offer the cube.
    Double,
    /// Accept a double: the cube is turned and passes to the taker.
    Take,
    /// Refuse a double: the game ends, the doubler wins the value before the double.
    Drop,
    /// Accept a double and redouble at once, keeping the cube (money play with beavers).
    Beaver,
    /// Play the dice: the resulting position, seen from the mover before the turn passes.
    Move(Position),
    /// Offer to resign at this level.
    Resign(ResignLevel),
    /// Accept the opponent's resignation offer: the game ends.
    AcceptResignation,
    /// Refuse the offer: play goes on.
    RejectResignation,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Roll => f.write_str("roll"),
            Action::Double => f.write_str("double"),
            Action::Take => f.write_str("take"),
            Action::Drop => f.write_str("drop"),
            Action::Beaver => f.write_str("beaver"),
            Action::Move(p) => write!(f, "move to {}", p.position_id()),
            Action::Resign(l) => write!(f, "resign {}", l.name()),
            Action::AcceptResignation => f.write_str("accept"),
            Action::RejectResignation => f.write_str("reject"),
        }
    }
}

impl ResignLevel {
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            ResignLevel::Single => "single",
            ResignLevel::Gammon => "gammon",
            ResignLevel::Backgammon => "backgammon",
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// The winner bore off all fifteen checkers.
    BoreOff,
    /// The loser refused a double.
    Dropped,
    /// The loser resigned and the winner accepted.
    Resigned,
}

/// The result of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct GameResult {
    /// Who won.
    pub winner: Color,
    /// 1 single, 2 gammon, 3 backgammon, 4 backgammon with a checker on the bar (when that
    /// option is on); after the Jacoby rule is applied.
    pub multiplier: u32,
    /// The cube value the game was played for.
    pub cube: u32,
    /// Points won: `multiplier * cube`.
    pub points: u32,
    /// How the game ended.
    pub ending: Ending,
    /// The rule that ended it, in the shared vocabulary (single, gammon, backgammon, the Jacoby
    /// rule's single, a dropped cube, a resignation at its level).
    pub reason: EndReason,
}

impl GameResult {
    /// The result as a shared [`Outcome`] of one game.
    pub fn outcome(&self) -> Outcome {
        Outcome::win(self.winner, self.points, self.reason)
    }
}

impl From<ResignLevel> for Level {
    fn from(level: ResignLevel) -> Level {
        match level {
            ResignLevel::Single => Level::Single,
            ResignLevel::Gammon => Level::Gammon,
            ResignLevel::Backgammon => Level::Backgammon,
        }
    }
}
