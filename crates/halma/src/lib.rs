//! Grasshopper, the 1948 Halma variant played with a draughts set (game id
//! `halma-grasshopper`, shown as "Grasshopper (Halma)"): each side races all its pieces from
//! its corner camp into the opposite one by steps and chains of jumps over pieces of either
//! colour, on an 8x8 board (10 pieces a side) or a 10x10 board (15).
//!
//! - [`Position`]: board size, each side's pieces as a [`Bitboard`] (one `u128`), side to move
//!   and ply count; checked from an unchecked [`Setup`].
//! - Move generation ([`Position::moves`], [`Position::move_count`], [`perft`]): a move is its
//!   start and end squares; chains of jumps are a set-wide flood fill, nothing is allocated.
//! - [`HalmaGrasshopper`]: the game (repetition history, ply limit, draw offers), which
//!   implements [`tabula_core::Game`].
//! - [`notation`]: the position notation and move text; [`render`]: a text drawing.
//!
//! Every rule decision is recorded in `docs/rules/halma-grasshopper.md`.
#![deny(missing_docs)]

mod action;
mod bitboard;
mod game;
mod movegen;
mod moves;
pub mod notation;
mod position;
mod render;
mod square;

pub use action::Action;
pub use bitboard::{Bitboard, Squares};
pub use game::{DrawKind, End, HalmaError, HalmaGrasshopper, HalmaOptions};
pub use movegen::{perft, Moves};
pub use moves::{IllegalMove, Move};
pub use position::{Position, PositionError, PositionProblem, RepetitionKey, Setup, WinKind};
pub use render::render;
pub use square::{BadSize, BoardSize, Square, SquareError};

/// The start position on a board of `size`: each side's pieces fill its camp, White to move.
pub fn start(size: BoardSize) -> Position {
    Position::start(size)
}
