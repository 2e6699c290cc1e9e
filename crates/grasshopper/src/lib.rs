//! Grasshopper, the dice-free backgammon variant of Matt Crispin: both players race on one
//! track from quadrant A (points 1-6) to quadrant D (19-24), one checker per turn, building
//! walls that block single checkers and that the top checker of a wall may jump, and bearing
//! walls off; whoever scores twice in succession wins.
//!
//! Layers, from the bottom: [`Point`] and [`Quadrant`]; [`Setup`] (unchecked) and [`Position`]
//! (a validated `Copy` position, bitboards per colour); [`Action`] and move generation
//! ([`Position::legal_actions`], [`Position::play`] with a typed [`IllegalMove`]); the
//! [`Grasshopper`] game implementing [`tabula_core::Game`]; [`notation`] (position text and
//! move text); [`solver`] (an exact alpha-beta solver with a transposition table); [`count`]
//! (the size of the state space: well-formed states counted exactly, reachable ones
//! enumerated, both by layer); [`endgame`] (exact tables of every position with at most `k`
//! checkers a side, built by retrograde analysis).
//! Every rule decision is recorded in `docs/rules/grasshopper.md`.
#![deny(missing_docs)]

mod action;
pub mod count;
pub mod endgame;
mod game;
mod movegen;
pub mod notation;
mod point;
mod position;
pub mod solver;
mod value;

pub use action::Action;
pub use game::{Grasshopper, GrasshopperError};
pub use movegen::{IllegalMove, MoveList};
pub use point::{Point, PointError, Quadrant};
pub use position::{Cell, Checkers, CheckersError, Position, PositionError, Problem, Setup};
