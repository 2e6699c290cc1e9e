//! Move generation: steps, chains of jumps as a set-wide flood fill, perft.
//!
//! A move is identified by its start and end squares, so the moves of one piece are a set of
//! end squares: the empty neighbours (steps) and every square a chain of jumps can reach
//! (jumps). The chain is computed for all its branches at once: from the frontier set, each
//! of the 8 directions is two shifts and two masks (`shift(shift(F, d) & occupied, d) &
//! empty`), repeated until no new square is reached. Revisiting needs nothing special (a
//! reached square is not expanded twice, and reaching it again adds no end square), and the
//! start square is empty during the chain because it is removed from the occupied set.
//!
//! Steps and jumps never reach the same square: a jump changes file and rank by 0 or 2, so
//! every square a chain reaches has the parity of the start in both coordinates, and every
//! neighbour differs from it in at least one. The two sets are simply joined. For the same
//! reason a chain can never jump over its own start square.
//!
//! Nothing here allocates: [`Position::moves`] is an iterator over set bits.

use crate::bitboard::{board_mask, neighbours, shift, Bitboard, DIRECTIONS};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Every square a chain of jumps from `start` reaches, `start` excluded. `occupied` must not
/// contain `start`; `empty` is the board minus `occupied` (so it contains `start`).
#[inline]
fn jump_reach(start: u128, occupied: u128, empty: u128) -> u128 {
    let mut reached = start;
    let mut frontier = start;
    loop {
        let mut next = 0;
        for d in DIRECTIONS {
            next |= shift(shift(frontier, d) & occupied, d);
        }
        next &= empty & !reached;
        if next == 0 {
            return reached & !start;
        }
        reached |= next;
        frontier = next;
    }
}

impl Position {
    /// Every end square of a legal move of the piece on `from` (of either colour); empty when
    /// `from` is empty.
    #[inline]
    pub fn targets(&self, from: Square) -> Bitboard {
        let occupied = self.occupied().0;
        let bit = 1u128 << from.index();
        if occupied & bit == 0 {
            return Bitboard::EMPTY;
        }
        let board = board_mask(self.size());
        let others = occupied & !bit;
        let empty = board & !others;
        Bitboard((neighbours(bit) & empty) | jump_reach(bit, others, empty))
    }

    /// The squares a piece on `from` reaches by a chain of one or more jumps.
    pub fn jump_targets(&self, from: Square) -> Bitboard {
        let occupied = self.occupied().0;
        let bit = 1u128 << from.index();
        if occupied & bit == 0 {
            return Bitboard::EMPTY;
        }
        let others = occupied & !bit;
        Bitboard(jump_reach(bit, others, board_mask(self.size()) & !others))
    }

    /// The legal moves of the side to move, by start square then end square (lowest bit,
    /// a1 b1 .. first). Empty when the side to move must pass. Does not know whether the game
    /// is over: the game layer does.
    pub fn moves(&self) -> Moves {
        Moves {
            board: board_mask(self.size()),
            occupied: self.occupied().0,
            pieces: self.pieces(self.to_move()).0,
            from: None,
            targets: 0,
        }
    }

    /// How many legal moves the side to move has (the length of [`Position::moves`]).
    pub fn move_count(&self) -> u32 {
        let board = board_mask(self.size());
        let occupied = self.occupied().0;
        let mut pieces = self.pieces(self.to_move()).0;
        let mut n = 0;
        while pieces != 0 {
            let bit = pieces & pieces.wrapping_neg();
            pieces ^= bit;
            let others = occupied & !bit;
            let empty = board & !others;
            n += ((neighbours(bit) & empty) | jump_reach(bit, others, empty)).count_ones();
        }
        n
    }

    /// One shortest chain of jumps from `from` to `to`, both included, or `None` when no
    /// chain reaches `to`. Breadth first, directions tried in the order E, W, N, S, NE, NW,
    /// SE, SW and start squares lowest first, so the chain chosen is always the same.
    pub fn jump_path(&self, from: Square, to: Square) -> Option<Vec<Square>> {
        if from == to || !self.jump_targets(from).contains(to) {
            return None;
        }
        let bit = 1u128 << from.index();
        let occupied = self.occupied().0 & !bit;
        let empty = board_mask(self.size()) & !occupied;
        let mut parent = [u8::MAX; 128];
        let mut reached = bit;
        let mut frontier = bit;
        while reached >> to.index() & 1 == 0 {
            let mut next = 0u128;
            for sq in Bitboard(frontier).squares() {
                for d in DIRECTIONS {
                    let over = shift(1 << sq.index(), d);
                    let land = shift(over, d);
                    if over & occupied != 0 && land & empty & !reached & !next != 0 {
                        parent[land.trailing_zeros() as usize] = sq.index() as u8;
                        next |= land;
                    }
                }
            }
            debug_assert!(next != 0, "jump_targets said {to} is reachable");
            reached |= next;
            frontier = next;
        }
        let mut path = vec![to];
        let mut at = to.index() as usize;
        while at != from.index() as usize {
            at = parent[at] as usize;
            path.push(Square::from_index(at as u32));
        }
        path.reverse();
        Some(path)
    }
}

/// The legal moves of a position, generated lazily without allocating.
#[derive(Debug, Clone)]
pub struct Moves {
    /// The board's squares.
    board: u128,
    /// Every piece of both sides.
    occupied: u128,
    /// Pieces of the mover not yet expanded.
    pieces: u128,
    /// The piece being expanded.
    from: Option<Square>,
    /// Its end squares not yet returned.
    targets: u128,
}

impl Iterator for Moves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        while self.targets == 0 {
            if self.pieces == 0 {
                return None;
            }
            let bit = self.pieces & self.pieces.wrapping_neg();
            self.pieces ^= bit;
            self.from = Some(Square::from_index(bit.trailing_zeros()));
            let others = self.occupied & !bit;
            let empty = self.board & !others;
            self.targets = (neighbours(bit) & empty) | jump_reach(bit, others, empty);
        }
        let to = Square::from_index(self.targets.trailing_zeros());
        self.targets &= self.targets - 1;
        Some(Move {
            from: self.from.expect("set with the targets"),
            to,
        })
    }
}

/// The number of move sequences of `depth` plies from `position`: the leaves of the move
/// tree. A side without a move passes, which counts as one move; a position where a player
/// has won (checked as the game does with the board's default evacuation deadline, see
/// [`Position::winner`]) has no moves. Repetition and the ply limit are game state and are
/// ignored.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position
        .winner(position.size().default_evacuation())
        .is_some()
    {
        return 0;
    }
    let count = position.move_count();
    if count == 0 {
        return perft(&position.pass_unchecked(), depth - 1);
    }
    if depth == 1 {
        return count as u64;
    }
    position
        .moves()
        .map(|m| perft(&position.play_unchecked(m.from, m.to), depth - 1))
        .sum()
}
