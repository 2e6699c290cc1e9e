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
//! With trapping (Never-Finishing, from a position without trapped checkers) every step onto a
//! blot branches into a hit and a trap. One checker going on after trapping on the way frees
//! the blot again, which is the same position as the smaller-die route; so the larger-die-first
//! continuation is kept only when it hits on the way or the smaller-die point is blocked.
//!
//! So the smaller-die-first loop takes second steps from at most the first start, and the
//! larger-die-first loop from strictly below it, leaving out the continuation of the first
//! checker unless it differs. Results stay distinct; the gnubg fixture test and the property
//! tests (against a brute-force generator with a set) check it.

use super::step::{below, choices, make, movable, open, sources, top, up_to};
use super::MoveGen;
use crate::position::Position;

impl MoveGen {
    pub(super) fn mixed<const PLAYS: bool, const TRAP: bool>(
        &mut self,
        pos: &Position,
        big: usize,
        small: usize,
    ) {
        let open = open(pos);
        let src = sources(pos);
        // The smaller die first; the larger from at most the same start.
        let mut m1 = movable(src, open, small);
        while m1 != 0 {
            let f1 = top(m1);
            m1 ^= 1 << f1;
            for c1 in 0..choices::<TRAP>(pos, f1, small) {
                let (mut p1, mut src1) = (*pos, src);
                let s1 = make::<TRAP>(&mut p1, &mut src1, f1, small, c1);
                let mut m2 = movable(src1, open, big) & up_to(f1);
                while m2 != 0 {
                    let f2 = top(m2);
                    m2 ^= 1 << f2;
                    for c2 in 0..choices::<TRAP>(&p1, f2, big) {
                        self.push_step::<PLAYS, TRAP>(&p1, f2, big, c2, &[s1]);
                    }
                }
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
                for c1 in 0..choices::<TRAP>(pos, f1, big) {
                    let (mut p1, mut src1) = (*pos, src);
                    let s1 = make::<TRAP>(&mut p1, &mut src1, f1, big, c1);
                    let mut m2 = movable(src1, open, small) & below(f1);
                    if f1 > big {
                        // The first checker going on is the same play as smaller-die-first,
                        // unless the way differs: a hit on the larger-die point, or (without
                        // trapping) a blot or block on the smaller-die point.
                        let (via_big, via_small) = (pos.pips[f1 - big], pos.pips[f1 - small]);
                        let same = if TRAP {
                            !s1.hit && via_small >= -1 && !pos.is_trapped(f1 - small)
                        } else {
                            via_big != -1 && via_small >= 0
                        };
                        if same {
                            m2 &= !(1 << (f1 - big));
                        }
                    }
                    while m2 != 0 {
                        let f2 = top(m2);
                        m2 ^= 1 << f2;
                        for c2 in 0..choices::<TRAP>(&p1, f2, small) {
                            self.push_step::<PLAYS, TRAP>(&p1, f2, small, c2, &[s1]);
                        }
                    }
                }
            }
        }
        if !self.positions.is_empty() {
            return;
        }
        // Only one die can be played: the larger if it can, else the smaller. Different
        // starting points (or outcomes on a blot) give different positions.
        for d in [big, small] {
            let mut m = movable(src, open, d);
            while m != 0 {
                let f = top(m);
                m ^= 1 << f;
                for c in 0..choices::<TRAP>(pos, f, d) {
                    self.push_step::<PLAYS, TRAP>(pos, f, d, c, &[]);
                }
            }
            if !self.positions.is_empty() {
                return;
            }
        }
    }
}
