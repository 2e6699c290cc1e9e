//! The backgammon board seen from the player on roll: a small `Copy` value with a cheap flip.
//!
//! Index 1..=24 are the points numbered from the mover's side (the mover moves from 24 towards
//! 1 and bears off from 1..=6); a positive count is the mover's checkers, a negative count the
//! opponent's. Index 25 is the mover's bar (never negative) and index 0 the opponent's bar
//! (never positive). The opponent's point `k` (from its own side) is the mover's `25 - k`, so
//! flipping the view is "reverse and negate". Both colours on one point cannot be represented,
//! except in the one shape Never-Finishing backgammon allows: a single checker trapped under
//! opposing checkers, marked by a bit of `trapped` (the count then holds the trappers only, and
//! the trapped checker is of the other colour). In backgammon `trapped` is always zero.

use std::fmt;
use tabula_core::EndReason;
use thiserror::Error;

/// Checkers per side.
pub const CHECKERS: u8 = 15;
/// Index of the mover's bar.
pub const BAR: usize = 25;
/// Index of the opponent's bar.
pub const OPP_BAR: usize = 0;

/// A board position seen from the player on roll.
///
/// Construct it with [`Position::from_counts`] (validated) or [`Position::START`]; the fields
/// stay private so that every value is a legal board: 15 checkers a side, counting those off.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct Position {
    pub(crate) pips: [i8; 26],
    pub(crate) x_off: u8,
    pub(crate) o_off: u8,
    // Bit `i` (1..=24): point `i` holds one checker trapped under the checkers counted in
    // `pips[i]`, of the other colour. With it the value is exactly one 32-byte aligned block
    // without padding, copied by the move generator as a single vector.
    pub(crate) trapped: u32,
}

/// Why a board could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A trapped checker marked where no trappers stand, or off the points.
    #[error("a trapped checker on the mover's point {point} needs trappers above it")]
    LoneTrapped {
        /// The point, numbered from the mover's side.
        point: usize,
    },
    /// A bar holds checkers of the wrong side.
    #[error("a bar holds checkers of the wrong side")]
    WrongBar,
    /// A side has more than 15 checkers on the board and bar.
    #[error("{side} has {count} checkers on the board; at most 15")]
    TooManyCheckers {
        /// "the player on roll" or "the opponent".
        side: &'static str,
        /// How many were found.
        count: u32,
    },
    /// Both sides have checkers on the same point.
    #[error("both sides have checkers on the mover's point {point}")]
    SharedPoint {
        /// The point, numbered from the mover's side.
        point: usize,
    },
}

impl Position {
    /// The starting position (identical from either side).
    pub const START: Position = {
        let mut pips = [0i8; 26];
        pips[24] = 2;
        pips[13] = 5;
        pips[8] = 3;
        pips[6] = 5;
        pips[1] = -2;
        pips[12] = -5;
        pips[17] = -3;
        pips[19] = -5;
        Position {
            pips,
            x_off: 0,
            o_off: 0,
            trapped: 0,
        }
    };

    /// A position from each side's checker counts, each seen from its own side: index 0..=23
    /// is that side's point 1..=24 and index 24 its bar (gnubg's layout). Checkers not on the
    /// board are off.
    pub fn from_counts(mover: &[u8; 25], opponent: &[u8; 25]) -> Result<Position, PositionError> {
        let sum = |side: &[u8; 25]| side.iter().map(|&c| u32::from(c)).sum::<u32>();
        for (side, counts) in [("the player on roll", mover), ("the opponent", opponent)] {
            let count = sum(counts);
            if count > u32::from(CHECKERS) {
                return Err(PositionError::TooManyCheckers { side, count });
            }
        }
        let mut pips = [0i8; 26];
        for point in 1..=24 {
            let (m, o) = (mover[point - 1], opponent[24 - point]);
            if m > 0 && o > 0 {
                return Err(PositionError::SharedPoint { point });
            }
            pips[point] = m as i8 - o as i8;
        }
        pips[BAR] = mover[24] as i8;
        pips[OPP_BAR] = -(opponent[24] as i8);
        Ok(Position {
            pips,
            x_off: CHECKERS - sum(mover) as u8,
            o_off: CHECKERS - sum(opponent) as u8,
            trapped: 0,
        })
    }

    /// A position from signed counts (index as in the module doc) and a mask of points holding
    /// a trapped checker; the borne-off counts are what is missing from fifteen. Refuses bars
    /// of the wrong sign, trapped marks without trappers, and more than fifteen a side.
    pub fn from_parts(pips: [i8; 26], trapped: u32) -> Result<Position, PositionError> {
        if pips[BAR] < 0 || pips[OPP_BAR] > 0 {
            return Err(PositionError::WrongBar);
        }
        let mut marks = trapped;
        while marks != 0 {
            let point = marks.trailing_zeros() as usize;
            if !(1..=24).contains(&point) || pips[point] == 0 {
                return Err(PositionError::LoneTrapped { point });
            }
            marks &= marks - 1;
        }
        let mut pos = Position {
            pips,
            x_off: 0,
            o_off: 0,
            trapped,
        };
        let (mover, opponent) = pos.on_board();
        for (side, count) in [("the player on roll", mover), ("the opponent", opponent)] {
            if count > u32::from(CHECKERS) {
                return Err(PositionError::TooManyCheckers { side, count });
            }
        }
        pos.x_off = CHECKERS - mover as u8;
        pos.o_off = CHECKERS - opponent as u8;
        Ok(pos)
    }

    /// Checkers of each side on the points and bar, trapped ones included: `(mover, opponent)`.
    fn on_board(&self) -> (u32, u32) {
        let (mut mover, mut opponent) = (0u32, 0u32);
        for (i, &v) in self.pips.iter().enumerate() {
            let trapped = u32::from(self.is_trapped(i));
            if v > 0 {
                mover += v as u32;
                opponent += trapped;
            } else if v < 0 {
                opponent += (-v) as u32;
                mover += trapped;
            }
        }
        (mover, opponent)
    }

    /// Whether index `i` holds a checker trapped under the checkers counted there.
    #[inline]
    pub fn is_trapped(&self, i: usize) -> bool {
        i < 32 && self.trapped >> i & 1 == 1
    }

    /// The mask of points holding a trapped checker (bit `i` for point `i`).
    #[inline]
    pub fn trapped_mask(&self) -> u32 {
        self.trapped
    }

    /// The signed counts: index 0 the opponent's bar, 1..=24 the points, 25 the mover's bar.
    #[inline]
    pub fn pips(&self) -> [i8; 26] {
        self.pips
    }

    /// Each side's counts from its own side (the inverse of [`Position::from_counts`]):
    /// `[mover, opponent]`.
    pub fn to_counts(&self) -> [[u8; 25]; 2] {
        let mut out = [[0u8; 25]; 2];
        for point in 1..=24 {
            let v = self.pips[point];
            if v > 0 {
                out[0][point - 1] = v as u8;
            } else if v < 0 {
                out[1][24 - point] = (-v) as u8;
            }
        }
        out[0][24] = self.pips[BAR] as u8;
        out[1][24] = (-self.pips[OPP_BAR]) as u8;
        out
    }

    /// The same position seen from the other side.
    #[inline]
    pub fn flip(&self) -> Position {
        let mut pips = [0i8; 26];
        for (i, p) in pips.iter_mut().enumerate() {
            *p = -self.pips[25 - i];
        }
        Position {
            pips,
            x_off: self.o_off,
            o_off: self.x_off,
            // Bit i moves to bit 25 - i: reversed, bit i lands on 31 - i.
            trapped: self.trapped.reverse_bits() >> 6,
        }
    }

    /// The signed count at index `i` (0 = opponent's bar, 1..=24 points, 25 = mover's bar).
    #[inline]
    pub fn pip(&self, i: usize) -> i8 {
        self.pips[i]
    }

    /// Checkers the mover has on point `point` (1..=24) or on the bar (25).
    #[inline]
    pub fn mover_on(&self, point: usize) -> u8 {
        self.pips[point].max(0) as u8
    }

    /// Checkers the opponent has on the mover's point `point` (1..=24), or on its bar (0).
    #[inline]
    pub fn opponent_on(&self, point: usize) -> u8 {
        (-self.pips[point]).max(0) as u8
    }

    /// Checkers the mover has borne off.
    pub fn mover_off(&self) -> u8 {
        self.x_off
    }

    /// Checkers the opponent has borne off.
    pub fn opponent_off(&self) -> u8 {
        self.o_off
    }

    /// Whether a side has borne off all fifteen checkers, and what that wins: `Some((true,
    /// reason))` when the mover has, `Some((false, reason))` when the opponent has. The reason
    /// is a single game, a gammon (the loser bore off none) or, with `backgammons`, a
    /// backgammon (a gammon with a loser's checker on the bar or in the winner's home board).
    /// The cube and the Jacoby rule are the game's business, not the board's.
    pub fn bore_off_end(&self, backgammons: bool) -> Option<(bool, EndReason)> {
        let (mover_won, p) = if self.x_off == 15 {
            (true, *self)
        } else if self.o_off == 15 {
            (false, self.flip())
        } else {
            return None;
        };
        let reason = if p.o_off > 0 {
            EndReason::BoreOffSingle
        } else if backgammons && (0..=6).any(|i| p.opponent_on(i) > 0) {
            EndReason::BoreOffBackgammon
        } else {
            EndReason::BoreOffGammon
        };
        Some((mover_won, reason))
    }

    /// The mover's pip count: the sum over its checkers of the distance to bear off.
    pub fn mover_pips(&self) -> u32 {
        (1..=25)
            .map(|i| {
                let trapped = self.pips[i] < 0 && self.is_trapped(i);
                (self.mover_on(i) as u32 + u32::from(trapped)) * i as u32
            })
            .sum()
    }

    /// The opponent's pip count.
    pub fn opponent_pips(&self) -> u32 {
        self.flip().mover_pips()
    }

    /// True when no checkers of either side are in contact: every mover checker has passed
    /// every opponent checker.
    pub fn is_race(&self) -> bool {
        // A trapped checker sits under an opposing one: that is contact.
        if self.trapped != 0 {
            return false;
        }
        let mover_back = (1..=25).rev().find(|&i| self.pips[i] > 0).unwrap_or(0);
        let opp_back = (0..=24).find(|&i| self.pips[i] < 0).unwrap_or(25);
        mover_back < opp_back
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(bar {} |", self.pips[BAR])?;
        for i in (1..=24).rev() {
            if self.pips[i] != 0 {
                let trapped = if self.is_trapped(i) { "+t" } else { "" };
                write!(f, " {}:{}{}", i, self.pips[i], trapped)?;
            }
        }
        write!(
            f,
            " | opp bar {} | off {} / {})",
            -self.pips[OPP_BAR], self.x_off, self.o_off
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_fifteen_a_side_and_167_pips() {
        let p = Position::START;
        assert_eq!(p.mover_pips(), 167);
        assert_eq!(p.opponent_pips(), 167);
        assert_eq!(p.flip(), p);
        let [m, o] = p.to_counts();
        assert_eq!(m.iter().map(|&c| c as u32).sum::<u32>(), 15);
        assert_eq!(Position::from_counts(&m, &o).unwrap(), p);
    }

    #[test]
    fn shared_points_and_too_many_checkers_are_refused() {
        let mut m = [0u8; 25];
        let mut o = [0u8; 25];
        m[5] = 2; // mover's 6-point
        o[18] = 1; // opponent's 19-point = mover's 6-point
        assert_eq!(
            Position::from_counts(&m, &o),
            Err(PositionError::SharedPoint { point: 6 })
        );
        let m = [1u8; 25];
        assert!(matches!(
            Position::from_counts(&m, &[0; 25]),
            Err(PositionError::TooManyCheckers { count: 25, .. })
        ));
    }
}
