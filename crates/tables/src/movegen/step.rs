//! A single checker step, over a board plus a bitmask of the points the mover occupies.
//!
//! The generator never scans the 25 indices of a board looking for checkers: it keeps `src`,
//! bit `i` set when the mover has a checker at index `i` (1..=24, 25 the bar), and `open`,
//! bit `i` set when point `i` can be landed on (at most one opposing checker). `open` is
//! fixed for the whole roll: the mover only lands on open points, and hitting a blot leaves
//! the point open, so no step ever closes or opens a point. Which checkers can move by a die
//! is then a handful of bit operations (see [`movable`]), and the highest checker, which
//! decides bearing off, is the top bit of `src`.

use super::Step;
use crate::position::{Position, BAR, OPP_BAR};

/// Bit of the mover's bar in a source mask.
pub(super) const BAR_BIT: u32 = 1 << BAR;

/// Mask of the indices (1..=25) where the mover has checkers.
#[inline]
pub(super) fn sources(pos: &Position) -> u32 {
    // A lane is positive when its low seven bits are not all zero and its sign bit is clear.
    lane_mask(pos, |x| (((x & LOW) + LOW) & !x) & HIGH) & !1
}

/// Mask of the points (1..=24) the mover may land on.
#[inline]
pub(super) fn open(pos: &Position) -> u32 {
    // A lane is blocked (-15..=-2) when its sign bit is set and its low seven bits are not
    // all ones (-1). Adding one to the low seven bits never carries into the next lane.
    lane_mask(pos, |x| !(x & !((x & LOW) + ONES)) & HIGH) & !1 & below(BAR)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bit `i` set when `test` sets the high bit of lane `i`, over the 26 counts read eight at a
/// time as 64-bit words (SWAR: a handful of word operations instead of 26 compares, shifts
/// and ors, without depending on the target's vector instructions). Counts are within
/// -15..=15, which the lane tricks above rely on.
#[inline(always)]
fn lane_mask(pos: &Position, test: impl Fn(u64) -> u64) -> u32 {
    let word = |i: usize| {
        let mut bytes = [0u8; 8];
        for (b, &p) in bytes.iter_mut().zip(&pos.pips[i..]) {
            *b = p as u8;
        }
        u64::from_le_bytes(bytes)
    };
    // Gathers the high bit of each of the eight lanes into one byte: after the shift, lane
    // `k`'s bit is at `8k`, and the multiplier's term `2^(56 - 7k)` moves it to `56 + k`; no
    // other product term reaches bits 56..=63 or collides with another.
    let gather = |x: u64| ((test(x) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
    gather(word(0)) | gather(word(8)) << 8 | gather(word(16)) << 16 | (gather(word(24)) & 3) << 24
}

/// The highest index in a non-empty mask.
#[inline(always)]
pub(super) fn top(mask: u32) -> usize {
    31 - mask.leading_zeros() as usize
}

/// Indices `0..=i`.
#[inline(always)]
pub(super) fn up_to(i: usize) -> u32 {
    (2u32 << i).wrapping_sub(1)
}

/// Indices `0..i`.
#[inline(always)]
pub(super) fn below(i: usize) -> u32 {
    (1u32 << i) - 1
}

/// The starting indices from which the mover may move a checker by `d`: entering from the bar
/// while any checker is there; otherwise an ordinary step to an open point, or bearing off
/// once every checker is home (from the point `d`, or from the highest point when `d` is
/// larger).
#[inline(always)]
pub(super) fn movable(src: u32, open: u32, d: usize) -> u32 {
    // Bit `i` of `open << d` says whether `i - d` is open, for every `i > d`.
    let ordinary = src & (open << d);
    if src & BAR_BIT != 0 {
        return ordinary & BAR_BIT;
    }
    // `| 1` keeps `top` defined once every checker is off; bit 0 is never in `src`.
    let highest = top(src | 1);
    if highest > 6 {
        return ordinary;
    }
    let bear_off = if highest < d { 1 << highest } else { 1 << d };
    ordinary | (bear_off & src)
}

/// Moves a checker from `from` by `d` (known legal), keeping `src` in step.
#[inline(always)]
pub(super) fn apply(pos: &mut Position, src: &mut u32, from: usize, d: usize) -> Step {
    pos.pips[from] -= 1;
    if pos.pips[from] == 0 {
        *src &= !(1 << from);
    }
    if from > d {
        let to = from - d;
        // `to` is open, so it holds at least -1: a blot goes to the bar and the point becomes
        // ours. Branch-free, because whether a step hits is as good as random.
        let hit = pos.pips[to] == -1;
        pos.pips[to] = pos.pips[to].max(0) + 1;
        pos.pips[OPP_BAR] -= i8::from(hit);
        *src |= 1 << to;
        Step {
            from: from as u8,
            to: to as u8,
            hit,
            trap: false,
        }
    } else {
        pos.x_off += 1;
        Step {
            from: from as u8,
            to: 0,
            hit: false,
            trap: false,
        }
    }
}

/// How many outcomes a step from `from` by `d` has: two when trapping is on and it lands on
/// an opposing blot (hit or trap), else one.
#[inline(always)]
pub(super) fn choices<const TRAP: bool>(pos: &Position, from: usize, d: usize) -> usize {
    if TRAP && from > d && pos.pips[from - d] == -1 && !pos.is_trapped(from - d) {
        2
    } else {
        1
    }
}

/// Makes a step under the rules in force: [`apply`] for backgammon; with trapping, outcome 1
/// of [`choices`] traps the blot instead of hitting it, and a trapper leaving as the last
/// checker on its point frees the checker it held.
#[inline(always)]
pub(super) fn make<const TRAP: bool>(
    pos: &mut Position,
    src: &mut u32,
    from: usize,
    d: usize,
    outcome: usize,
) -> Step {
    if !TRAP {
        return apply(pos, src, from, d);
    }
    let released = pos.pips[from] == 1 && pos.is_trapped(from);
    let step = if outcome == 1 {
        let to = from - d;
        pos.pips[from] -= 1;
        if pos.pips[from] == 0 {
            *src &= !(1 << from);
        }
        pos.pips[to] = 1;
        pos.trapped |= 1 << to;
        *src |= 1 << to;
        Step {
            from: from as u8,
            to: to as u8,
            hit: false,
            trap: true,
        }
    } else {
        apply(pos, src, from, d)
    };
    if released {
        pos.pips[from] = -1;
        pos.trapped &= !(1 << from);
    }
    step
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word tricks agree with the plain definitions for every count at every index.
    #[test]
    fn lane_masks_match_plain_comparisons() {
        for v in -15i8..=15 {
            for i in 0..=BAR {
                let mut pos = Position::START;
                pos.pips[i] = v;
                let plain_sources = (1..=BAR)
                    .filter(|&j| pos.pips[j] > 0)
                    .fold(0, |m, j| m | 1 << j);
                let plain_open = (1..BAR)
                    .filter(|&j| pos.pips[j] >= -1)
                    .fold(0, |m, j| m | 1 << j);
                assert_eq!(sources(&pos), plain_sources, "count {v} at {i}");
                assert_eq!(open(&pos), plain_open, "count {v} at {i}");
            }
        }
    }
}
