//! The backgammon family's board: positions, move generation, notations, and the backgammon
//! game with its doubling cube, match and money play.
//!
//! Layers, from the bottom: [`Position`] (a `Copy` board seen from the player on roll) and
//! [`MoveGen`] (legal plays); [`notation`] (gnubg Position ID and Match ID, XGID, move text);
//! [`backgammon`] (a game, the cube, a match or money session, implementing
//! [`tabula_core::Game`]).
#![deny(missing_docs)]

mod ledger;
mod movegen;
mod position;

pub use movegen::{MoveGen, Play, SequenceGen, Step, TablesGen, Trapping};
pub use position::{Position, PositionError, BAR, CHECKERS, OPP_BAR};
pub mod backgammon;
pub mod never_finishing;
pub mod notation;
