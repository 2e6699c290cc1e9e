//! The transposition key: everything that decides the rest of the game, seen from the side to
//! move, in 61 bits.
//!
//! The score itself, the checker count and the discards never change what can happen next;
//! only the board, the hands and who scored last do. Both players move the same way along the
//! same track, so swapping the colours (and the side to move) changes nothing either: the key
//! is written from the mover's side, which lets one entry serve both colours. The pass flag
//! matters only in a position without a move, and those are never stored.
//!
//! Mixed radix, from the low end: who scored last (none, mover, opponent: 3), the hands
//! (15 x 15), then each point of A in base 3 (empty, mover's single, opponent's single: A
//! holds no wall) and each point of B, C and D in base 5 (adding the two walls). The largest
//! key, 3 * 225 * 3^6 * 5^18 - 1, is below 2^61; one is added so that no key is zero.

use crate::Position;

/// Bits a key may use.
pub const KEY_BITS: u32 = 61;

/// The key of `pos` (mover's side); never zero.
#[inline]
pub fn key(pos: &Position) -> u64 {
    let me = pos.turn;
    let you = me.other();
    let (ms, mw, os, ow) = (
        pos.singles[me],
        pos.walls[me],
        pos.singles[you],
        pos.walls[you],
    );
    let mut k: u64 = 0;
    for i in (6..24).rev() {
        let bit = 1u32 << i;
        let digit = if ms & bit != 0 {
            1
        } else if mw & bit != 0 {
            2
        } else if os & bit != 0 {
            3
        } else if ow & bit != 0 {
            4
        } else {
            0
        };
        k = k * 5 + digit;
    }
    for i in (0..6).rev() {
        let bit = 1u32 << i;
        let digit = if ms & bit != 0 {
            1
        } else if os & bit != 0 {
            2
        } else {
            0
        };
        k = k * 3 + digit;
    }
    k = k * 225 + u64::from(pos.hands[me]) * 15 + u64::from(pos.hands[you]);
    let last = match pos.last {
        None => 0,
        Some(c) if c == me => 1,
        Some(_) => 2,
    };
    k * 3 + last + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn the_largest_key_fits_in_61_bits() {
        let max = 3u128 * 225 * 729 * 5u128.pow(18);
        assert!(max < 1 << KEY_BITS);
    }

    #[test]
    fn swapping_colours_and_side_gives_the_same_key() {
        let a = parse_position("w.b.../.W..b./....../...... w 9-10 0-0 - 12").unwrap();
        let b = parse_position("b.w.../.B..w./....../...... b 10-9 0-0 - 12").unwrap();
        assert_eq!(key(&a), key(&b));
        let c = parse_position("w.b.../.W..b./....../...... b 9-10 0-0 - 12").unwrap();
        assert_ne!(key(&a), key(&c));
    }
}
