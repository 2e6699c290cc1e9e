//! Doubles: four steps of one die, enumerated as non-increasing sequences of starting points.
//!
//! Why this finds every play exactly once: a double's play is determined by the multiset of
//! its starting points (the landing point of each step is its start minus the die), and
//! distinct multisets give distinct positions (the mover's change per point telescopes back to
//! the multiset). Any legal order of the steps stays legal when sorted by decreasing start:
//! swapping an adjacent pair where a lower start comes first never removes a checker that
//! the later step needs, never lets a step bear off while a checker stands outside the home
//! board, and keeps bar checkers entering first. So enumerating only non-increasing sequences
//! reaches every multiset, in its most permissive order, once, and no deduplication is needed.
//!
//! With trapping (Never-Finishing, from a position without trapped checkers) each step onto a
//! blot branches into a hit and a trap. The order stays enough: in a non-increasing sequence
//! every arrival at a point comes before any departure from it, and the outcomes a blot can
//! end with (hit; trapped if the mover still stands on it; free if the mover passed on) are
//! all reached by choosing at its first arrival. Different choices leave the blot differently,
//! so results stay distinct.
//!
//! The four levels are written out as nested loops rather than a recursion so that the
//! innermost one, where almost all results are made, is a tight loop over a bitmask.

use super::step::{choices, make, movable, open, sources, top, up_to};
use super::{MoveGen, Step};
use crate::position::Position;

impl MoveGen {
    pub(super) fn doubles<const PLAYS: bool, const TRAP: bool>(
        &mut self,
        pos: &Position,
        d: usize,
    ) {
        let open = open(pos);
        let src0 = sources(pos);
        let mut steps = [Step::default(); 4];
        let mut m1 = movable(src0, open, d);
        while m1 != 0 {
            let f1 = top(m1);
            m1 ^= 1 << f1;
            for c1 in 0..choices::<TRAP>(pos, f1, d) {
                let (mut p1, mut src1) = (*pos, src0);
                steps[0] = make::<TRAP>(&mut p1, &mut src1, f1, d, c1);
                let mut m2 = movable(src1, open, d) & up_to(f1);
                if m2 == 0 {
                    self.short::<PLAYS>(p1, &steps[..1]);
                }
                while m2 != 0 {
                    let f2 = top(m2);
                    m2 ^= 1 << f2;
                    for c2 in 0..choices::<TRAP>(&p1, f2, d) {
                        let (mut p2, mut src2) = (p1, src1);
                        steps[1] = make::<TRAP>(&mut p2, &mut src2, f2, d, c2);
                        self.doubles_last_two::<PLAYS, TRAP>(&p2, src2, open, d, f2, &mut steps);
                    }
                }
            }
        }
    }

    /// The third and fourth steps of a double, after the first two.
    #[inline(always)]
    fn doubles_last_two<const PLAYS: bool, const TRAP: bool>(
        &mut self,
        p2: &Position,
        src2: u32,
        open: u32,
        d: usize,
        f2: usize,
        steps: &mut [Step; 4],
    ) {
        let mut m3 = movable(src2, open, d) & up_to(f2);
        if m3 == 0 {
            self.short::<PLAYS>(*p2, &steps[..2]);
        }
        while m3 != 0 {
            let f3 = top(m3);
            m3 ^= 1 << f3;
            for c3 in 0..choices::<TRAP>(p2, f3, d) {
                let (mut p3, mut src3) = (*p2, src2);
                steps[2] = make::<TRAP>(&mut p3, &mut src3, f3, d, c3);
                let mut m4 = movable(src3, open, d) & up_to(f3);
                if m4 == 0 {
                    self.short::<PLAYS>(p3, &steps[..3]);
                    continue;
                }
                if self.max_len < 4 {
                    self.restart(4);
                }
                while m4 != 0 {
                    let f4 = top(m4);
                    m4 ^= 1 << f4;
                    for c4 in 0..choices::<TRAP>(&p3, f4, d) {
                        self.push_step::<PLAYS, TRAP>(&p3, f4, d, c4, &steps[..3]);
                    }
                }
            }
        }
    }

    /// Records a play that cannot go on, if no longer play has been found so far; plays that
    /// use fewer dice than the longest are illegal.
    #[cold]
    fn short<const PLAYS: bool>(&mut self, pos: Position, steps: &[Step]) {
        let len = steps.len() as u8;
        if len > self.max_len {
            self.restart(len);
        }
        if len == self.max_len {
            self.push::<PLAYS>(pos, steps);
        }
    }
}
