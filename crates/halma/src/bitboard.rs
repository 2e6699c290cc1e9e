//! Sets of squares as one `u128`, and the board geometry as masks.
//!
//! Bit `rank * 11 + file` is a square; the eleventh column (file index 10) is a guard that is
//! never a square, so shifting a set one file east or west sends pieces at the edge into the
//! guard, where masking with the board removes them. Ten ranks use bits 0..110.

use crate::square::{BoardSize, Square, STRIDE};

/// A set of squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u128);

/// The eight directions as bit offsets: E, W, N, S, NE, NW, SE, SW.
pub(crate) const DIRECTIONS: [i32; 8] = [
    1,
    -1,
    STRIDE as i32,
    -(STRIDE as i32),
    STRIDE as i32 + 1,
    STRIDE as i32 - 1,
    -(STRIDE as i32) + 1,
    -(STRIDE as i32) - 1,
];

/// Shifts every square of `bb` by `offset` bits (positive: towards higher bits).
#[inline(always)]
pub(crate) fn shift(bb: u128, offset: i32) -> u128 {
    if offset >= 0 {
        bb << offset
    } else {
        bb >> -offset
    }
}

/// The squares adjacent (8 directions) to any square of `bb`, guard bits included; the caller
/// masks with the board.
#[inline(always)]
pub(crate) fn neighbours(bb: u128) -> u128 {
    let row = bb | bb << 1 | bb >> 1;
    (row | row << STRIDE | row >> STRIDE) & !bb
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Every square of a board.
    pub fn board(size: BoardSize) -> Bitboard {
        Bitboard(board_mask(size))
    }

    /// The one-square set.
    #[inline]
    pub fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// How many squares.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares, lowest bit (a1, b1, ..) first.
    #[inline]
    pub fn squares(self) -> Squares {
        Squares(self.0)
    }

    /// The set point-mirrored on a board of `size`: (f, r) goes to (n-1-f, n-1-r). In the
    /// padded layout that is index `(n-1)*12 - i`, a bit reversal and a shift.
    #[inline]
    pub fn mirrored(self, size: BoardSize) -> Bitboard {
        let top = (size.side() as u32 - 1) * (STRIDE as u32 + 1);
        Bitboard(self.0.reverse_bits() >> (127 - top))
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest bit first.
#[derive(Debug, Clone)]
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::from_index(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

/// Every square of the board, as bits.
pub(crate) const fn board_mask(size: BoardSize) -> u128 {
    let n = match size {
        BoardSize::Eight => 8,
        BoardSize::Ten => 10,
    };
    let row: u128 = (1 << n) - 1;
    let mut mask = 0;
    let mut r = 0;
    while r < n {
        mask |= row << (r * STRIDE as u32);
        r += 1;
    }
    mask
}

/// White's camp: the triangle at a1, file + rank <= depth.
pub(crate) const fn white_camp_mask(size: BoardSize) -> u128 {
    let depth = match size {
        BoardSize::Eight => 3,
        BoardSize::Ten => 4,
    };
    let mut mask = 0;
    let mut r = 0;
    while r <= depth {
        let mut f = 0;
        while f + r <= depth {
            mask |= 1 << (r * STRIDE as u32 + f);
            f += 1;
        }
        r += 1;
    }
    mask
}

/// Black's camp: White's, point-mirrored.
pub(crate) fn black_camp_mask(size: BoardSize) -> u128 {
    Bitboard(white_camp_mask(size)).mirrored(size).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camps_are_triangles_of_ten_and_fifteen_squares() {
        assert_eq!(white_camp_mask(BoardSize::Eight).count_ones(), 10);
        assert_eq!(white_camp_mask(BoardSize::Ten).count_ones(), 15);
        for size in BoardSize::ALL {
            let black = black_camp_mask(size);
            assert_eq!(black.count_ones(), size.pieces());
            assert_eq!(black & !board_mask(size), 0);
            assert_eq!(black & white_camp_mask(size), 0);
        }
    }

    #[test]
    fn mirroring_matches_the_square_reflection() {
        for size in BoardSize::ALL {
            for sq in Bitboard::board(size).squares() {
                let m = Bitboard::from_square(sq).mirrored(size);
                assert_eq!(m, Bitboard::from_square(sq.mirrored(size)));
            }
        }
    }

    #[test]
    fn neighbours_of_a_corner_are_three_squares() {
        let a1 = Bitboard::from_square(Square::new(0, 0).unwrap()).0;
        assert_eq!(
            (neighbours(a1) & board_mask(BoardSize::Eight)).count_ones(),
            3
        );
        let h8 = Bitboard::from_square(Square::new(7, 7).unwrap()).0;
        assert_eq!(
            (neighbours(h8) & board_mask(BoardSize::Eight)).count_ones(),
            3
        );
    }
}
