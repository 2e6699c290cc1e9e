//! The one interface every game implements, and the vocabulary of its states.
//!
//! A game is a state machine. At every moment it is in one [`Status`]: a player must decide
//! something, the dice must be rolled, or the game is over. The driver (CLI, bot harness,
//! server) reads the status, offers [`Game::legal_actions`] to the deciding player, and feeds
//! back the chosen action through [`Game::apply`], or feeds dice through [`Game::roll`].
//! Neither ever panics on bad input: an illegal action comes back as the game's typed error and
//! leaves the state unchanged.

use crate::{Color, DiceRoll, Outcome};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The four games, with their stable string ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameId {
    /// Backgammon with cube, match and money play.
    Backgammon,
    /// The Never-Finishing Game: hit or trap.
    NeverFinishing,
    /// Grasshopper, the dice-free backgammon variant.
    Grasshopper,
    /// Grasshopper, the Halma variant.
    HalmaGrasshopper,
}

impl GameId {
    /// Every game.
    pub const ALL: [GameId; 4] = [
        GameId::Backgammon,
        GameId::NeverFinishing,
        GameId::Grasshopper,
        GameId::HalmaGrasshopper,
    ];

    /// The stable id used on the command line, in the API and in records.
    pub fn as_str(self) -> &'static str {
        match self {
            GameId::Backgammon => "backgammon",
            GameId::NeverFinishing => "never-finishing",
            GameId::Grasshopper => "grasshopper",
            GameId::HalmaGrasshopper => "halma-grasshopper",
        }
    }

    /// The name shown to people.
    pub fn display_name(self) -> &'static str {
        match self {
            GameId::Backgammon => "Backgammon",
            GameId::NeverFinishing => "Never-Finishing backgammon",
            GameId::Grasshopper => "Grasshopper",
            GameId::HalmaGrasshopper => "Grasshopper (Halma)",
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game id that names no game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game {0:?} (games: backgammon, never-finishing, grasshopper, halma-grasshopper)")]
pub struct UnknownGame(pub String);

impl FromStr for GameId {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<GameId, UnknownGame> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// What kind of decision a player faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Before rolling, with access to the cube: double or roll.
    DoubleOrRoll,
    /// Facing a double: take, drop, or (where allowed) beaver.
    TakeOrDrop,
    /// Play the dice, or make a dice-free move.
    Move,
    /// Accept or reject the opponent's resignation offer.
    ResignationAnswer,
}

/// Which roll the dice are needed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "player")]
pub enum Chance {
    /// The opening roll of a game: each player throws one die (the roll's first die is
    /// White's, the second Black's); ties are thrown again.
    Opening,
    /// An ordinary roll of two dice for this player.
    Roll(Color),
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum Status {
    /// `player` must choose one of the legal actions, of this kind.
    Decide {
        /// Who decides.
        player: Color,
        /// What about.
        decision: Decision,
    },
    /// The dice must be rolled (see [`Game::roll`]).
    Chance(Chance),
    /// The game is over.
    Over(Outcome),
}

/// One game of the family, as the CLI, bots and server drive it.
pub trait Game: Clone {
    /// A player's action: a move, a cube action, a resignation.
    type Action: Clone + fmt::Debug + PartialEq;
    /// Why an action or a roll was refused.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Which game this is.
    fn id(&self) -> GameId;

    /// Whose decision it is and what kind, or that dice are needed, or the result.
    fn status(&self) -> Status;

    /// Every legal action in the current state; empty at chance nodes and when over.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// Applies an action of the deciding player. An illegal action, or one in a state that
    /// asks for dice or is over, is refused and changes nothing.
    fn apply(&mut self, action: &Self::Action) -> Result<(), Self::Error>;

    /// Supplies dice at a chance node. Refused (and nothing changes) when no dice are needed;
    /// dice-free games refuse always.
    fn roll(&mut self, dice: DiceRoll) -> Result<(), Self::Error>;
}
