//! A Grasshopper position: board size, each side's pieces, side to move, ply count.
//!
//! Unchecked input is a [`Setup`] (public fields, may be nonsense); a [`Position`] is reachable
//! only through [`Position::from_setup`] or [`Position::start`], so every position has exactly
//! the right number of pieces a side, all on the board, none sharing a square. The repetition
//! history is game state ([`crate::HalmaGrasshopper`]), not position.

use crate::bitboard::{black_camp_mask, board_mask, white_camp_mask, Bitboard};
use crate::square::{BoardSize, Square};
use tabula_core::{ByColor, Color};
use thiserror::Error;

/// A position as read, not yet checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The board.
    pub size: BoardSize,
    /// Each side's pieces.
    pub pieces: ByColor<Bitboard>,
    /// Who moves next.
    pub to_move: Color,
    /// Plies played since the start of the game.
    pub ply: u32,
}

/// One thing wrong with a [`Setup`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionProblem {
    /// A piece outside the board.
    #[error("a {color} piece stands off the {size}x{size} board")]
    OffBoard {
        /// Whose piece.
        color: Color,
        /// The board.
        size: BoardSize,
    },
    /// Two pieces on one square.
    #[error("{square} holds both a white and a black piece")]
    Shared {
        /// The square.
        square: Square,
    },
    /// Not the board's number of pieces.
    #[error("{color} has {found} pieces; on {size}x{size} each side has {expected}")]
    Count {
        /// Whose pieces.
        color: Color,
        /// Pieces found.
        found: u32,
        /// Pieces required.
        expected: u32,
        /// The board.
        size: BoardSize,
    },
}

/// A setup that is not a position: the setup, and every reason.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("not a Grasshopper position: {}", list(.problems))]
pub struct PositionError {
    /// The rejected setup.
    pub setup: Setup,
    /// Every problem found, at least one.
    pub problems: Vec<PositionProblem>,
}

fn list(problems: &[PositionProblem]) -> String {
    problems
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// How a player has won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinKind {
    /// Every one of their pieces stands in their target camp.
    AllInCamp,
    /// The evacuation rule: the loser still had a piece in their own starting camp after
    /// their deadline move.
    NotEvacuated,
    /// The evacuation rule: after the deadline the loser moved a piece back into their own
    /// starting camp.
    ReturnedToCamp,
}

impl WinKind {
    /// The shared end reason; `deadline` is the evacuation deadline in the loser's moves.
    pub fn reason(self, deadline: u32) -> tabula_core::EndReason {
        use tabula_core::EndReason;
        match self {
            WinKind::AllInCamp => EndReason::AllInCamp,
            WinKind::NotEvacuated => EndReason::NotEvacuated { moves: deadline },
            WinKind::ReturnedToCamp => EndReason::ReturnedToCamp,
        }
    }
}

/// A legal Grasshopper position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    size: BoardSize,
    pieces: ByColor<u128>,
    to_move: Color,
    ply: u32,
}

impl Position {
    /// The start on a board of `size`: each side's pieces fill its camp, White to move, ply 0.
    pub fn start(size: BoardSize) -> Position {
        Position {
            size,
            pieces: ByColor {
                white: white_camp_mask(size),
                black: black_camp_mask(size),
            },
            to_move: Color::White,
            ply: 0,
        }
    }

    /// Checks a setup, reporting every problem.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board = board_mask(setup.size);
        let mut problems = Vec::new();
        for color in Color::ALL {
            if setup.pieces[color].0 & !board != 0 {
                problems.push(PositionProblem::OffBoard {
                    color,
                    size: setup.size,
                });
            }
        }
        let shared = Bitboard(setup.pieces.white.0 & setup.pieces.black.0);
        problems.extend(
            shared
                .squares()
                .map(|square| PositionProblem::Shared { square }),
        );
        for color in Color::ALL {
            let found = setup.pieces[color].count();
            if found != setup.size.pieces() {
                problems.push(PositionProblem::Count {
                    color,
                    found,
                    expected: setup.size.pieces(),
                    size: setup.size,
                });
            }
        }
        if !problems.is_empty() {
            return Err(PositionError { setup, problems });
        }
        Ok(Position {
            size: setup.size,
            pieces: ByColor {
                white: setup.pieces.white.0,
                black: setup.pieces.black.0,
            },
            to_move: setup.to_move,
            ply: setup.ply,
        })
    }

    /// A setup taken as it is, for unit tests of situations no legal position reaches (a
    /// side without a move needs more pieces around it than the board holds).
    #[cfg(test)]
    pub(crate) fn from_setup_unchecked(setup: Setup) -> Position {
        Position {
            size: setup.size,
            pieces: ByColor {
                white: setup.pieces.white.0,
                black: setup.pieces.black.0,
            },
            to_move: setup.to_move,
            ply: setup.ply,
        }
    }

    /// The position as an unchecked setup.
    pub fn to_setup(&self) -> Setup {
        Setup {
            size: self.size,
            pieces: ByColor {
                white: Bitboard(self.pieces.white),
                black: Bitboard(self.pieces.black),
            },
            to_move: self.to_move,
            ply: self.ply,
        }
    }

    /// The board.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Who moves next.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Plies played since the start of the game (passes included).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The same position with another ply count.
    pub fn with_ply(self, ply: u32) -> Position {
        Position { ply, ..self }
    }

    /// The same position with another side to move.
    pub fn with_to_move(self, to_move: Color) -> Position {
        Position { to_move, ..self }
    }

    /// The pieces of `color`.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces[color])
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.pieces.white | self.pieces.black)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| Bitboard(self.pieces[c]).contains(sq))
    }

    /// The camp `color` starts in.
    pub fn camp(&self, color: Color) -> Bitboard {
        Bitboard(camp(self.size, color))
    }

    /// The camp `color` must fill: the opponent's.
    pub fn target(&self, color: Color) -> Bitboard {
        self.camp(color.other())
    }

    /// Whether every piece of `color` stands in its target camp.
    pub fn all_in_camp(&self, color: Color) -> bool {
        self.pieces[color] & !camp(self.size, color.other()) == 0
    }

    /// The moves `color` has made, counted from the ply count as if the two sides had
    /// alternated from ply 0: the side to move has made `ply / 2`, the other `(ply + 1) / 2`.
    /// A pass is a move (it is a turn and a ply).
    pub fn moves_made(&self, color: Color) -> u32 {
        if color == self.to_move {
            self.ply / 2
        } else {
            self.ply.div_ceil(2)
        }
    }

    /// Whether `color` has broken the evacuation rule with a `deadline` (in its own moves; 0:
    /// the rule is off): with at least `deadline` moves made, a piece of `color` stands in its
    /// own starting camp. At exactly the deadline the piece never left in time
    /// ([`WinKind::NotEvacuated`]); later it came back ([`WinKind::ReturnedToCamp`]): the
    /// camp was empty after the deadline move, or the game would have ended then.
    pub fn evacuation_failure(&self, color: Color, deadline: u32) -> Option<WinKind> {
        let made = self.moves_made(color);
        if deadline == 0 || made < deadline || self.pieces[color] & camp(self.size, color) == 0 {
            return None;
        }
        Some(if made == deadline {
            WinKind::NotEvacuated
        } else {
            WinKind::ReturnedToCamp
        })
    }

    /// The winner of this position under an evacuation `deadline` (0: off), and how. The side
    /// that just moved is checked first, then the side to move; for each, a win by all-in-camp
    /// first, then a loss by the evacuation rule (which the opponent wins).
    pub fn winner(&self, deadline: u32) -> Option<(Color, WinKind)> {
        let last = self.to_move.other();
        [last, self.to_move].into_iter().find_map(|c| {
            if self.all_in_camp(c) {
                Some((c, WinKind::AllInCamp))
            } else {
                self.evacuation_failure(c, deadline)
                    .map(|kind| (c.other(), kind))
            }
        })
    }

    /// The position after the side to move plays `from` to `to`, without checking legality.
    /// The move must come from [`Position::moves`] or [`Position::check_move`].
    #[inline]
    pub fn play_unchecked(&self, from: Square, to: Square) -> Position {
        let mut next = *self;
        next.pieces[self.to_move] ^= 1 << from.index() | 1 << to.index();
        next.to_move = self.to_move.other();
        next.ply = self.ply.saturating_add(1);
        next
    }

    /// The position after the side to move passes (legal only without a move).
    #[inline]
    pub fn pass_unchecked(&self) -> Position {
        Position {
            to_move: self.to_move.other(),
            ply: self.ply.saturating_add(1),
            ..*self
        }
    }

    /// The position point-mirrored with the colours swapped: White's view of Black's game.
    /// Move counts, wins and everything else the rules see are preserved.
    pub fn mirrored(&self) -> Position {
        Position {
            size: self.size,
            pieces: ByColor {
                white: Bitboard(self.pieces.black).mirrored(self.size).0,
                black: Bitboard(self.pieces.white).mirrored(self.size).0,
            },
            to_move: self.to_move.other(),
            ply: self.ply,
        }
    }

    /// What threefold repetition compares: the pieces and the side to move, not the ply.
    pub fn repetition_key(&self) -> RepetitionKey {
        RepetitionKey {
            white: self.pieces.white,
            black: self.pieces.black,
            to_move: self.to_move,
        }
    }
}

/// The part of a position that threefold repetition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RepetitionKey {
    white: u128,
    black: u128,
    to_move: Color,
}

fn camp(size: BoardSize, color: Color) -> u128 {
    match color {
        Color::White => white_camp_mask(size),
        Color::Black => black_camp_mask(size),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_error_lists_every_problem() {
        let start = Position::start(BoardSize::Eight).to_setup();
        let mut bad = start;
        bad.pieces.white.0 |= start.pieces.black.0 & start.pieces.black.0.wrapping_neg();
        bad.pieces.black.0 |= 1 << 9; // file j on an 8x8 board
        let err = Position::from_setup(bad).unwrap_err();
        assert_eq!(err.problems.len(), 4, "{err}");
        assert_eq!(err.setup, bad);
    }
}
