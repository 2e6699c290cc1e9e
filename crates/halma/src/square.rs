//! Board sizes and squares, with their algebraic names (`a1` .. `j10`).
//!
//! A square is stored as its bit index in the padded layout of [`crate::Bitboard`]: rank times
//! 11 plus file, the eleventh column being a guard that catches moves running off the east or
//! west edge. A [`Square`] is valid on the 10x10 board; whether it lies on the 8x8 board is
//! for [`BoardSize::contains`] to say.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Bits per rank in the padded layout: ten files and one guard column.
pub(crate) const STRIDE: u8 = 11;

/// The two boards of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BoardSize {
    /// The 8x8 draughts board, ten pieces a side.
    Eight,
    /// The 10x10 international draughts board, fifteen pieces a side.
    Ten,
}

/// A board size other than 8 or 10.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the board is 8x8 or 10x10, not {0}")]
pub struct BadSize(pub String);

impl BoardSize {
    /// Both sizes, the small one first.
    pub const ALL: [BoardSize; 2] = [BoardSize::Eight, BoardSize::Ten];

    /// Files (and ranks): 8 or 10.
    #[inline]
    pub fn side(self) -> u8 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        }
    }

    /// Pieces per player: 10 or 15, the squares of a camp.
    #[inline]
    pub fn pieces(self) -> u32 {
        match self {
            BoardSize::Eight => 10,
            BoardSize::Ten => 15,
        }
    }

    /// A camp is the corner triangle of squares whose 0-based file plus rank is at most this,
    /// counted from the camp's own corner: 3 on 8x8 (4+3+2+1 squares), 4 on 10x10.
    #[inline]
    pub fn camp_depth(self) -> u8 {
        match self {
            BoardSize::Eight => 3,
            BoardSize::Ten => 4,
        }
    }

    /// The default ply limit: 400 on 8x8, 600 on 10x10.
    #[inline]
    pub fn default_ply_limit(self) -> u32 {
        match self {
            BoardSize::Eight => 400,
            BoardSize::Ten => 600,
        }
    }

    /// The default evacuation deadline, in a player's own moves: 30 on 8x8, 50 on 10x10.
    #[inline]
    pub fn default_evacuation(self) -> u32 {
        match self {
            BoardSize::Eight => 30,
            BoardSize::Ten => 50,
        }
    }

    /// Whether `square` is on this board.
    #[inline]
    pub fn contains(self, square: Square) -> bool {
        square.file() < self.side() && square.rank() < self.side()
    }
}

impl TryFrom<u8> for BoardSize {
    type Error = BadSize;
    fn try_from(n: u8) -> Result<BoardSize, BadSize> {
        match n {
            8 => Ok(BoardSize::Eight),
            10 => Ok(BoardSize::Ten),
            _ => Err(BadSize(n.to_string())),
        }
    }
}

impl FromStr for BoardSize {
    type Err = BadSize;
    /// Accepts `8`, `10`, `8x8` and `10x10`.
    fn from_str(s: &str) -> Result<BoardSize, BadSize> {
        match s.trim().to_ascii_lowercase().as_str() {
            "8" | "8x8" => Ok(BoardSize::Eight),
            "10" | "10x10" => Ok(BoardSize::Ten),
            _ => Err(BadSize(s.to_string())),
        }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.side())
    }
}

/// A square of the 10x10 board (the 8x8 board is its lower-left corner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Text that does not name a square.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SquareError {
    /// Not a file letter followed by a rank number.
    #[error("{0:?} is not a square: write a file letter and a rank, like c3 or j10")]
    Malformed(String),
    /// A file beyond `j`.
    #[error("{text:?}: there is no file {file:?} (files are a to j)")]
    BadFile {
        /// The text read.
        text: String,
        /// The file letter.
        file: char,
    },
    /// A rank outside 1..=10.
    #[error("{text:?}: there is no rank {rank} (ranks are 1 to 10)")]
    BadRank {
        /// The text read.
        text: String,
        /// The rank number.
        rank: u32,
    },
}

impl Square {
    /// The square at 0-based `file` and `rank`, both below 10.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 10 && rank < 10).then_some(Square(rank * STRIDE + file))
    }

    /// The square of a bit index; the caller guarantees it is a board bit.
    #[inline]
    pub(crate) fn from_index(index: u32) -> Square {
        debug_assert!(index % STRIDE as u32 != 10 && index < 110);
        Square(index as u8)
    }

    /// The bit index in the padded layout.
    #[inline]
    pub fn index(self) -> u32 {
        self.0 as u32
    }

    /// 0-based file (`a` = 0).
    #[inline]
    pub fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// 0-based rank (rank 1 = 0).
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// The square `df` files and `dr` ranks away, if that is on the 10x10 board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if (0..10).contains(&f) && (0..10).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// The point-mirrored square on a board of `size` (the camps' symmetry).
    pub fn mirrored(self, size: BoardSize) -> Square {
        let n = size.side() - 1;
        Square((n - self.rank()) * STRIDE + (n - self.file()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = SquareError;
    /// A file letter (`a`..`j`, either case) followed by a rank (`1`..`10`).
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let malformed = || SquareError::Malformed(s.to_string());
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(malformed)?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !file.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(malformed());
        }
        let rank: u32 = digits.parse().map_err(|_| malformed())?;
        if file > 'j' {
            return Err(SquareError::BadFile {
                text: s.to_string(),
                file,
            });
        }
        if !(1..=10).contains(&rank) {
            return Err(SquareError::BadRank {
                text: s.to_string(),
                rank,
            });
        }
        Ok(Square::new(file as u8 - b'a', rank as u8 - 1).expect("checked above"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_write_algebraically() {
        for (text, file, rank) in [("a1", 0, 0), ("c3", 2, 2), ("j10", 9, 9), ("H8", 7, 7)] {
            let sq: Square = text.parse().unwrap();
            assert_eq!((sq.file(), sq.rank()), (file, rank));
            assert_eq!(sq.to_string(), text.to_lowercase());
        }
        assert!(matches!(
            "k1".parse::<Square>(),
            Err(SquareError::BadFile { .. })
        ));
        assert!(matches!(
            "a11".parse::<Square>(),
            Err(SquareError::BadRank { .. })
        ));
        assert!(matches!(
            "a0".parse::<Square>(),
            Err(SquareError::BadRank { .. })
        ));
        for bad in ["", "a", "3c", "a+1", "a100"] {
            assert!(
                matches!(bad.parse::<Square>(), Err(SquareError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn mirroring_is_the_point_reflection() {
        let a1 = Square::new(0, 0).unwrap();
        assert_eq!(a1.mirrored(BoardSize::Eight).to_string(), "h8");
        assert_eq!(a1.mirrored(BoardSize::Ten).to_string(), "j10");
        let c2 = Square::new(2, 1).unwrap();
        assert_eq!(c2.mirrored(BoardSize::Eight).to_string(), "f7");
    }
}
