//! The game model shared by every Tabula game.
//!
//! Four games (backgammon, never-finishing, grasshopper, halma-grasshopper) are driven by the
//! CLI, the bots and the server through one trait, [`Game`]. A game says whose decision it is
//! and of what kind ([`Status`]), lists its legal actions, applies an action or refuses it with
//! a typed error, and asks for dice at chance nodes. Dice come from a [`DiceSource`]; with a
//! [`ChaChaDice`] seed a game replays exactly from its action log ([`replay`]). Online games
//! use [`verifiable`] dice, which nobody can know in advance and anyone can check afterwards.
//! A finished game's [`Outcome`] carries the rule that ended it ([`EndReason`]).
#![deny(missing_docs)]

mod color;
mod dice;
mod game;
mod outcome;
mod replay;
pub mod verifiable;

pub use color::{ByColor, Color};
pub use dice::{ChaChaDice, Dice, DiceError, DiceRoll, DiceSource, Die, FixedDice};
pub use game::{Chance, Decision, Game, GameId, Status, UnknownGame};
pub use outcome::{ordinal, EndReason, Level, Outcome, SessionEnd};
pub use replay::{replay, settle, ReplayError};
pub use verifiable::{verify, ClientSeeds, DiceRecord, RecordedRoll, ServerSeed, VerifyError};
