//! The Never-Finishing net's inputs: backgammon's per-point code of both sides
//! ([`crate::backgammon::nn::encode`]) plus where each side has a checker trapped.
//!
//! Per side, seen from its own end of the board (point 1 is its home point):
//! - 24 points x 4 units: the truncated unary code of that side's **free** checkers on the
//!   point (first three one unit each, the rest `(n - 3) / 12`; backgammon's `(n - 3) / 2`
//!   would give 6 for the fifteen-checker stack every game starts with, and inputs that large
//!   made the first training runs diverge). A trapped checker is not
//!   counted there: it cannot move, does not make or hold the point (the trappers own it) and
//!   cannot be hit, so counting it as a blot of its owner would tell the net the opposite of
//!   the truth. Its trappers are the point owner's free checkers and count as usual.
//! - bar (`n / 2`), borne off (`n / 15`), pip count (`pips / 360`, the start's count, trapped
//!   checkers included: they still have that far to go);
//! - 24 inputs "this side has a checker trapped on its point i" (1 or 0);
//! - two cheap counts: its trapped checkers (`n / 2`; while one is trapped the side cannot
//!   bear off) and its lone trappers (`n / 2`: points where a single checker of the side
//!   holds an opposing checker trapped, which frees it by leaving).
//!
//! The player on roll comes first, so a position and its flip give mirrored inputs
//! ([`mirror_index`]). The encoding reuses backgammon's sparse [`Inputs`]: at most 15 points
//! a side are occupied, so well under its capacity of non-zero inputs is ever used.

use crate::nn::inputs::Inputs;
use tabula_tables::Position;

/// Units per point of the unary code.
const PER_POINT: usize = 4;
/// Offset of the bar, off and pips inputs within a side.
const COUNTS: usize = 24 * PER_POINT;
/// Offset of the trapped-checker inputs within a side.
const TRAPPED: usize = COUNTS + 3;
/// Offset of the two hand-made counts within a side.
const EXTRA: usize = TRAPPED + 24;
/// Inputs of one side.
pub const PER_SIDE: usize = EXTRA + 2;
/// All inputs.
pub const INPUTS: usize = 2 * PER_SIDE;

/// The index of the same input for the other side (mover and opponent swapped).
pub fn mirror_index(i: usize) -> usize {
    if i < PER_SIDE {
        i + PER_SIDE
    } else {
        i - PER_SIDE
    }
}

/// One side, from its own view: `free[p]` its movable checkers on its point `p + 1`,
/// `trapped[p]` whether one of its checkers is trapped there, `lone[p]` whether a single
/// checker of it traps an opposing one there.
struct Side {
    free: [u8; 24],
    trapped: [bool; 24],
    lone: [bool; 24],
    bar: u8,
    off: u8,
}

fn push_side(out: &mut Inputs, base: usize, s: &Side) {
    let mut pips = u32::from(s.bar) * 25;
    for p in 0..24 {
        let n = s.free[p];
        let at = base + p * PER_POINT;
        out.push(at, f32::from(u8::from(n >= 1)));
        out.push(at + 1, f32::from(u8::from(n >= 2)));
        out.push(at + 2, f32::from(u8::from(n >= 3)));
        if n > 3 {
            out.push(at + 3, f32::from(n - 3) / 12.0);
        }
        let t = u8::from(s.trapped[p]);
        out.push(base + TRAPPED + p, f32::from(t));
        pips += u32::from(n + t) * (p as u32 + 1);
    }
    out.push(base + COUNTS, f32::from(s.bar) / 2.0);
    out.push(base + COUNTS + 1, f32::from(s.off) / 15.0);
    out.push(base + COUNTS + 2, pips as f32 / 360.0);
    let trapped = s.trapped.iter().filter(|&&t| t).count();
    let lone = s.lone.iter().filter(|&&l| l).count();
    out.push(base + EXTRA, trapped as f32 / 2.0);
    out.push(base + EXTRA + 1, lone as f32 / 2.0);
}

/// Writes the inputs of `pos` (seen from the player on roll) into `out`.
pub fn encode(pos: &Position, out: &mut Inputs) {
    out.clear();
    let mut mine = Side {
        free: [0; 24],
        trapped: [false; 24],
        lone: [false; 24],
        bar: pos.mover_on(25),
        off: pos.mover_off(),
    };
    let mut theirs = Side {
        bar: pos.opponent_on(0),
        off: pos.opponent_off(),
        ..mine
    };
    for point in 1..=24 {
        // The mover's point `point`; the opponent's own point `25 - point`.
        let (m, o) = (point - 1, 24 - point);
        let (n, trapped) = (pos.pip(point), pos.is_trapped(point));
        // Positive counts are the mover's checkers (all free: a trapped checker is never
        // counted in `pips`), negative the opponent's; a trapped mark under them is a
        // checker of the other side.
        mine.free[m] = pos.mover_on(point);
        theirs.free[o] = pos.opponent_on(point);
        if trapped {
            if n > 0 {
                theirs.trapped[o] = true;
                mine.lone[m] = n == 1;
            } else {
                mine.trapped[m] = true;
                theirs.lone[o] = n == -1;
            }
        }
    }
    push_side(out, 0, &mine);
    push_side(out, PER_SIDE, &theirs);
}

/// All inputs of `pos`, zeros included (tests and tools).
pub fn dense(pos: &Position) -> Vec<f32> {
    let mut inputs = Inputs::new();
    encode(pos, &mut inputs);
    let mut d = vec![0.0; INPUTS];
    for (i, v) in inputs.iter() {
        d[i] = v;
    }
    d
}
