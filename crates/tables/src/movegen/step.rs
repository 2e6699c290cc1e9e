//! A single checker step: whether it is legal and what it does to the board.

use super::Step;
use crate::position::{Position, BAR, OPP_BAR};

/// The highest index holding a mover checker (25 when on the bar, 0 when all are off).
#[inline]
pub(super) fn highest(pos: &Position) -> usize {
    (1..=BAR).rev().find(|&i| pos.pips[i] > 0).unwrap_or(0)
}

/// Whether the mover may move a checker from `from` (which holds one) by `d`, given the
/// highest occupied index. Bar discipline is the caller's business.
#[inline(always)]
pub(super) fn can_step(pos: &Position, highest: usize, from: usize, d: usize) -> bool {
    if from > d {
        pos.pips[from - d] >= -1
    } else {
        // Bearing off: all checkers home; a die larger than the point only from the highest.
        highest <= 6 && (from == d || from == highest)
    }
}

/// Moves a checker from `from` by `d` (already known legal), updating `highest`.
#[inline(always)]
pub(super) fn do_step(pos: &mut Position, highest: &mut usize, from: usize, d: usize) -> Step {
    pos.pips[from] -= 1;
    let mut step = Step {
        from: from as u8,
        to: 0,
        hit: false,
    };
    if from > d {
        let to = from - d;
        step.to = to as u8;
        if pos.pips[to] == -1 {
            pos.pips[to] = 1;
            pos.pips[OPP_BAR] -= 1;
            step.hit = true;
        } else {
            pos.pips[to] += 1;
        }
    } else {
        pos.x_off += 1;
    }
    if from == *highest && pos.pips[from] == 0 {
        let mut h = from - 1;
        while h > 0 && pos.pips[h] <= 0 {
            h -= 1;
        }
        *highest = h;
    }
    step
}
