//! Mixed rolls: both dice in either order when possible, else the larger die, else the smaller.

use super::step::{can_step, do_step};
use super::MoveGen;
use crate::position::{Position, BAR};

impl MoveGen {
    pub(super) fn mixed<const PLAYS: bool>(
        &mut self,
        pos: &Position,
        highest: usize,
        big: usize,
        small: usize,
    ) {
        for (d1, d2) in [(big, small), (small, big)] {
            let bottom1 = if pos.pips[BAR] > 0 { BAR } else { 1 };
            for from1 in (bottom1..=highest).rev() {
                if pos.pips[from1] <= 0 || !can_step(pos, highest, from1, d1) {
                    continue;
                }
                let mut p1 = *pos;
                let mut h1 = highest;
                let s1 = do_step(&mut p1, &mut h1, from1, d1);
                let bottom2 = if p1.pips[BAR] > 0 { BAR } else { 1 };
                for from2 in (bottom2..=h1).rev() {
                    if p1.pips[from2] <= 0 || !can_step(&p1, h1, from2, d2) {
                        continue;
                    }
                    let mut p2 = p1;
                    let mut h2 = h1;
                    let s2 = do_step(&mut p2, &mut h2, from2, d2);
                    self.push_unique::<PLAYS>(p2, &[s1, s2]);
                }
            }
        }
        if !self.positions.is_empty() {
            return;
        }
        // Only one die can be played: the larger if it can, else the smaller. Different
        // starting points give different positions, so no deduplication is needed.
        for d in [big, small] {
            let bottom = if pos.pips[BAR] > 0 { BAR } else { 1 };
            for from in (bottom..=highest).rev() {
                if pos.pips[from] <= 0 || !can_step(pos, highest, from, d) {
                    continue;
                }
                let mut p = *pos;
                let mut h = highest;
                let s = do_step(&mut p, &mut h, from, d);
                self.push::<PLAYS>(p, &[s]);
            }
            if !self.positions.is_empty() {
                return;
            }
        }
    }
}
