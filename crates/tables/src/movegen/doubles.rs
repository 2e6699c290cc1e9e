//! Doubles: four steps of one die, enumerated as non-increasing sequences of starting points.
//!
//! Why this finds every play exactly once: a double's play is determined by the multiset of
//! its starting points (the landing point of each step is its start minus the die), and
//! distinct multisets give distinct positions (the mover's change per point telescopes back to
//! the multiset). Any legal order of the steps stays legal when sorted by decreasing start:
//! swapping an adjacent pair where a lower start comes first never removes a checker that
//! the later step needs, never lets a step bear off while a checker stands outside the home
//! board, and keeps bar checkers entering first. So enumerating only non-increasing sequences
//! reaches every multiset, in its most permissive order, once.

use super::step::{can_step, do_step};
use super::{MoveGen, Step};
use crate::position::{Position, BAR};

impl MoveGen {
    pub(super) fn doubles<const PLAYS: bool>(
        &mut self,
        pos: &Position,
        highest: usize,
        d: usize,
        max_from: usize,
        depth: usize,
        steps: &mut [Step; 4],
    ) {
        let mut moved = false;
        if depth < 4 {
            let on_bar = pos.pips[BAR] > 0;
            let top = max_from.min(highest);
            let bottom = if on_bar { BAR } else { 1 };
            for from in (bottom..=top).rev() {
                if pos.pips[from] <= 0 || !can_step(pos, highest, from, d) {
                    continue;
                }
                moved = true;
                let mut next = *pos;
                let mut h = highest;
                steps[depth] = do_step(&mut next, &mut h, from, d);
                self.doubles::<PLAYS>(&next, h, d, from, depth + 1, steps);
            }
        }
        if !moved && depth > 0 {
            let len = depth as u8;
            if len > self.max_len {
                self.positions.clear();
                self.plays.clear();
                self.max_len = len;
            }
            if len == self.max_len {
                self.push::<PLAYS>(*pos, &steps[..depth]);
            }
        }
    }
}
