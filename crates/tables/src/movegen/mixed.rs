//! Mixed rolls: both dice when possible, else the larger die, else the smaller, without any
//! deduplication table.
//!
//! A play of both dice is either two steps from different starts, or one checker continuing
//! from where its first step landed. Each resulting position is generated once, by one
//! canonical order of its steps:
//!
//! - **Two starts, the higher one moves first** (from the same point: the smaller die first).
//!   Moving the higher checker first is the most permissive order: a lower step can neither
//!   unblock a point nor bring the higher checker home nor make it the highest, and a checker
//!   on the bar is the highest index and must enter first. Two such plays give the same
//!   position only when the dice are swapped between two checkers that both bear off, which
//!   needs the higher of them to bear off with the larger die from below it, so to be the
//!   highest checker with everything at most the smaller die: then every step bears off the
//!   highest checker, the result is unique, and the larger-first loop is skipped.
//! - **One checker with both dice**: by the smaller die first, unless that differs from going
//!   by the larger die first, which is when either intermediate point holds an opposing
//!   checker (a blot hit on the way, or a blocked smaller-die point). The smaller-first route
//!   is never worse at bearing off: its intermediate point is higher, and when the second
//!   step bears off from it the checker is the highest whenever the larger-first one is.
//!
//! So the smaller-die-first loop takes second steps from at most the first start, and the
//! larger-die-first loop from strictly below it, leaving out the continuation of the first
//! checker unless it differs. Results stay distinct; the gnubg fixture test and the property
//! tests (against a brute-force generator with a set) check it.

use super::step::{apply, below, movable, open, sources, top, up_to};
use super::MoveGen;
use crate::position::Position;

impl MoveGen {
    pub(super) fn mixed<const PLAYS: bool>(&mut self, pos: &Position, big: usize, small: usize) {
        let open = open(pos);
        let src = sources(pos);

        // The smaller die first; the larger from at most the same start.
        let mut m1 = movable(src, open, small);
        while m1 != 0 {
            let f1 = top(m1);
            m1 ^= 1 << f1;
            let (mut p1, mut src1) = (*pos, src);
            let s1 = apply(&mut p1, &mut src1, f1, small);
            let mut m2 = movable(src1, open, big) & up_to(f1);
            while m2 != 0 {
                let f2 = top(m2);
                m2 ^= 1 << f2;
                self.push_step::<PLAYS>(&p1, f2, big, &[s1]);
            }
        }

        // The larger die first; the smaller from strictly below. Skipped when every checker is
        // at most the smaller die (a checker on the bar counts as 25, so never then): each
        // step bears off the highest checker, and the loop above found the only result.
        if top(src | 1) > small {
            let mut m1 = movable(src, open, big);
            while m1 != 0 {
                let f1 = top(m1);
                m1 ^= 1 << f1;
                let (mut p1, mut src1) = (*pos, src);
                let s1 = apply(&mut p1, &mut src1, f1, big);
                let mut m2 = movable(src1, open, small) & below(f1);
                if f1 > big {
                    // The first checker going on is the same play as smaller-die-first,
                    // unless an intermediate point holds an opposing checker.
                    let (via_big, via_small) = (pos.pips[f1 - big], pos.pips[f1 - small]);
                    if via_big != -1 && via_small >= 0 {
                        m2 &= !(1 << (f1 - big));
                    }
                }
                while m2 != 0 {
                    let f2 = top(m2);
                    m2 ^= 1 << f2;
                    self.push_step::<PLAYS>(&p1, f2, small, &[s1]);
                }
            }
        }
        if !self.positions.is_empty() {
            return;
        }

        // Only one die can be played: the larger if it can, else the smaller. Different
        // starting points give different positions.
        for d in [big, small] {
            let mut m = movable(src, open, d);
            while m != 0 {
                let f = top(m);
                m ^= 1 << f;
                self.push_step::<PLAYS>(pos, f, d, &[]);
            }
            if !self.positions.is_empty() {
                return;
            }
        }
    }
}
