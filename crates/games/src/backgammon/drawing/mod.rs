//! The terminal drawing of a backgammon board (backgammon's and Never-Finishing's), a pure
//! string function: `tabula play`, `show` and the study commands print it.
//!
//! A [`BoardView`] says what to draw (the checkers, and what is known of cube, score, dice and
//! turn); a [`Layout`] says from whose side and with the home board on which side. The drawing
//! is plain ASCII so that it survives every terminal, pipe and log file:
//!
//! ```text
//!   13 14 15 16 17 18       19 20 21 22 23 24
//!  +------------------+-----+------------------+-----+
//!  | O           X    |     | X              O |     |  X Black
//! ```
//!
//! White's checkers are `O`, Black's `X`. The viewer's checkers are at the bottom and move
//! towards the viewer's home board (bottom right or bottom left); points are numbered from the
//! viewer's side. A point shows up to five checkers; a taller stack shows four and its count.
//! Each side's checkers on the bar sit on its own half of the bar, stacked from the middle; its
//! borne-off checkers are counted in the tray beside its home board, where the cube also sits:
//! near the owner, or in the middle when centred.
//!
//! Never-Finishing backgammon adds trapped checkers: one checker under opposing checkers on a
//! point. It is drawn at the bottom of that stack (the edge of the board) in its own letter in
//! lowercase (`o`, `x`), with the trappers above it, and a legend line under the board says
//! so. A board without trapped checkers is drawn exactly as in backgammon.
//!
//! Grasshopper (Halma) has a square board of its own ([`crate::halma::drawing`]); Grasshopper
//! (the dice-free backgammon variant) its four quadrants stacked
//! ([`crate::grasshopper::drawing`]).

mod render;

pub use render::render;

pub use crate::terminal::checker;
use tabula_core::{ByColor, Color, Dice};
use tabula_tables::Position;

/// Which side of the drawing the viewer's home board is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HomeSide {
    /// Home board bottom left, bearing off to the left.
    Left,
    /// Home board bottom right, bearing off to the right (gnubg's default).
    #[default]
    Right,
}

/// From where the board is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The player whose checkers are at the bottom and whose point numbers are shown.
    pub viewer: Color,
    /// Where the viewer's home board is.
    pub home: HomeSide,
}

/// The doubling cube as far as the drawing is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeView {
    /// In the middle, at this value (above 1 after automatic doubles).
    Centred(u32),
    /// Turned to this value and held by this player.
    Owned(u32, Color),
    /// The Crawford game: no cube.
    Crawford,
}

/// The score, when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreView {
    /// Points of each player (money: points won so far).
    pub points: ByColor<u32>,
    /// The match length; `None` for money play.
    pub match_length: Option<u32>,
}

/// Everything the drawing shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// The checkers, seen from `on_roll`.
    pub board: Position,
    /// The player the board is seen from, and whose turn it is.
    pub on_roll: Color,
    /// The cube, when known.
    pub cube: Option<CubeView>,
    /// The score, when known.
    pub score: Option<ScoreView>,
    /// The dice `on_roll` has to play, if rolled.
    pub dice: Option<Dice>,
    /// What is going on ("White to play 6-5"); by default derived from `on_roll` and `dice`.
    pub status: Option<String>,
    /// How each player is named (default "White", "Black").
    pub names: ByColor<String>,
}

impl BoardView {
    /// A view of `board` seen from `on_roll` with nothing else known.
    pub fn new(board: Position, on_roll: Color) -> BoardView {
        BoardView {
            board,
            on_roll,
            cube: None,
            score: None,
            dice: None,
            status: None,
            names: ByColor {
                white: "White".to_string(),
                black: "Black".to_string(),
            },
        }
    }

    /// The board seen from `color`.
    pub fn board_for(&self, color: Color) -> Position {
        if color == self.on_roll {
            self.board
        } else {
            self.board.flip()
        }
    }
}

/// The character drawn for a player's checker trapped under opposing checkers
/// (Never-Finishing backgammon): its ordinary letter in lowercase.
pub fn trapped_checker(color: Color) -> char {
    checker(color).to_ascii_lowercase()
}

#[cfg(test)]
mod tests;
