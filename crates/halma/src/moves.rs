//! The typed move, and checking a written move against a position.
//!
//! A move is its start and end squares: different chains of jumps reaching the same end are
//! one move. A written jump path (`c3:e5:g7`) is notation only; it is checked jump by jump and
//! then forgotten. Malformed text is a [`crate::notation::MoveParseError`]; text that is
//! well formed but not legal here is an [`IllegalMove`], which says why.

use crate::notation::MoveText;
use crate::position::Position;
use crate::square::{BoardSize, Square};
use std::fmt;
use tabula_core::Color;
use thiserror::Error;

/// A move of the side to move: from one square to another, by a step or a chain of jumps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends; never `from`.
    pub to: Square,
}

impl fmt::Display for Move {
    /// `from-to`, like `c3-e5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Why a well-formed move is not legal in a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// A square of the move is not on this board.
    #[error("{square} is not on the {size}x{size} board")]
    OffBoard {
        /// The square.
        square: Square,
        /// The board.
        size: BoardSize,
    },
    /// The start square holds no piece of the side to move.
    #[error("there is no {color} piece on {square}")]
    NoPiece {
        /// The start square.
        square: Square,
        /// The side to move.
        color: Color,
    },
    /// The move ends where it started.
    #[error("a move must end on another square than its start, {square}")]
    SameSquare {
        /// The square.
        square: Square,
    },
    /// The end square is occupied.
    #[error("{square} is occupied: a move ends on an empty square")]
    Occupied {
        /// The end square.
        square: Square,
    },
    /// Neither a step nor the end of any chain of jumps.
    #[error(
        "{mv} is not a move: {} is neither an empty neighbour of {} nor the end of a chain of jumps",
        mv.to,
        mv.from
    )]
    Unreachable {
        /// The move.
        mv: Move,
    },
    /// Two consecutive squares of a path are not a jump apart.
    #[error(
        "{from} to {to} is not a jump: a jump goes two squares in a straight line \
         (along a file, a rank or a diagonal)"
    )]
    NotAJump {
        /// Where the jump starts.
        from: Square,
        /// Where it would land.
        to: Square,
    },
    /// A jump over an empty square.
    #[error("{from} to {to} jumps over {over}, which is empty: a jump goes over a piece")]
    NothingToJump {
        /// Where the jump starts.
        from: Square,
        /// Where it lands.
        to: Square,
        /// The empty square in between.
        over: Square,
    },
    /// A jump landing on a piece.
    #[error("the jump from {from} lands on {to}, which is occupied")]
    LandingOccupied {
        /// Where the jump starts.
        from: Square,
        /// The occupied landing square.
        to: Square,
    },
    /// A step written inside a path of several squares.
    #[error("{from} to {to} is a step: a step is a whole move, not part of a chain of jumps")]
    StepInChain {
        /// Where the step starts.
        from: Square,
        /// Where it ends.
        to: Square,
    },
}

impl Position {
    /// Whether `mv` is a legal move of the side to move (ignoring whether the game is over).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.pieces(self.to_move()).contains(mv.from) && self.targets(mv.from).contains(mv.to)
    }

    /// Checks written move text against the position and gives the move it names. A path is
    /// checked jump by jump (the moving piece has left its start square, which is empty
    /// during the chain); `from-to` is checked against the generated moves.
    pub fn check_move(&self, text: &MoveText) -> Result<Move, IllegalMove> {
        let squares = text.squares();
        for &square in squares {
            if !self.size().contains(square) {
                return Err(IllegalMove::OffBoard {
                    square,
                    size: self.size(),
                });
            }
        }
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let color = self.to_move();
        if self.piece_at(from) != Some(color) {
            return Err(IllegalMove::NoPiece {
                square: from,
                color,
            });
        }
        if from == to {
            return Err(IllegalMove::SameSquare { square: from });
        }
        if self.piece_at(to).is_some() {
            return Err(IllegalMove::Occupied { square: to });
        }
        let mv = Move { from, to };
        if let MoveText::Path(path) = text {
            self.check_path(path)?;
        } else if !self.targets(from).contains(to) {
            return Err(IllegalMove::Unreachable { mv });
        }
        Ok(mv)
    }

    /// Checks each link of a written path. The ends were checked by the caller.
    fn check_path(&self, path: &[Square]) -> Result<(), IllegalMove> {
        let start = path[0];
        let occupied = |sq: Square| sq != start && self.piece_at(sq).is_some();
        for pair in path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let df = b.file() as i8 - a.file() as i8;
            let dr = b.rank() as i8 - a.rank() as i8;
            if df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0) {
                if path.len() == 2 {
                    return if occupied(b) {
                        Err(IllegalMove::Occupied { square: b })
                    } else {
                        Ok(())
                    };
                }
                return Err(IllegalMove::StepInChain { from: a, to: b });
            }
            let straight = (df == 0 || df.abs() == 2) && (dr == 0 || dr.abs() == 2);
            if !straight || (df, dr) == (0, 0) {
                return Err(IllegalMove::NotAJump { from: a, to: b });
            }
            let over = a.offset(df / 2, dr / 2).expect("between two board squares");
            if !occupied(over) {
                return Err(IllegalMove::NothingToJump {
                    from: a,
                    to: b,
                    over,
                });
            }
            if occupied(b) {
                return Err(IllegalMove::LandingOccupied { from: a, to: b });
            }
        }
        Ok(())
    }
}
