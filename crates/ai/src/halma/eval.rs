//! The static evaluation: how far each side still has to go, with credit for jump lanes, a
//! penalty for stragglers, and the evacuation rule's pressure on pieces still at home as the
//! deadline nears, from the side to move's point of view.
//!
//! Distances are measured towards the target corner along the main diagonal: for White a piece
//! on file `f`, rank `r` of an `n`-board is `2(n-1) - f - r` steps (in file-plus-rank units)
//! from the far corner; Black is mirrored. The target camp is exactly the set of squares with
//! the smallest distances, so the sum of distances is least when a side's camp is full.

use tabula_core::Color;
use tabula_halma::{Bitboard, BoardSize, Position, Square};

/// The score of a won position; wins found sooner score higher.
pub const WIN: i32 = 1_000_000;

/// Weight of one unit of distance per piece.
const W_DIST: i32 = 12;
/// Weight of the squared distance: makes the last piece cost more than the first (stragglers).
const W_SQUARE: i32 = 1;
/// Penalty per unit of distance of the rearmost piece beyond the average (pieces left behind).
const W_REAR: i32 = 4;
/// Penalty per file of drift away from the main diagonal beyond two.
const W_LATERAL: i32 = 3;
/// Credit per forward jump available (a jump lane).
const W_LANE: i32 = 3;
/// Penalty per king step between a piece outside the target and the nearest free target
/// square, once few pieces are outside.
const W_FREE: i32 = 6;
/// Penalty per move still needed to get the pieces at home out of the starting camp, per
/// move of slack short of [`EVAC_HORIZON`] before the evacuation deadline.
const W_EVAC: i32 = 40;
/// Slack (moves to spare before the deadline) from which pieces at home start to cost, at
/// least; with longer deadlines, two thirds of the deadline (the opponent's pieces reach the
/// camp sooner than the deadline and can wall in a piece left in a corner).
const EVAC_HORIZON: i32 = 20;
/// Extra moves counted for a piece at home that cannot move at all now (walled in by
/// pieces around it, typically the opponent's arriving in its target): it must wait for
/// them to move on, and may never get out.
const WALLED_IN: i32 = 6;
/// A position in which the pieces at home can no longer all leave in time: lost by the
/// evacuation rule, short of a proven loss (which scores about [`WIN`]).
const EVAC_LOST: i32 = 100_000;
/// Bonus for the side to move (tempo).
const TEMPO: i32 = 6;

/// Bits per rank in the padded layout of [`Bitboard`].
const STRIDE: i32 = 11;

/// The distance of `sq` to `color`'s target corner, in file-plus-rank units.
#[inline]
pub fn distance(size: BoardSize, color: Color, sq: Square) -> i32 {
    let n = size.side() as i32 - 1;
    let s = sq.file() as i32 + sq.rank() as i32;
    match color {
        Color::White => 2 * n - s,
        Color::Black => s,
    }
}

#[inline]
fn shift(bb: u128, offset: i32) -> u128 {
    if offset >= 0 {
        bb << offset
    } else {
        bb >> -offset
    }
}

/// About how many moves `color` needs to get its pieces out of its own starting camp: each
/// piece at home needs one move per two file-plus-rank units to the camp's edge (a diagonal
/// step covers two), and [`WALLED_IN`] more while it cannot move at all.
pub fn moves_to_evacuate(pos: &Position, color: Color) -> i32 {
    let size = pos.size();
    let n = size.side() as i32 - 1;
    let depth = size.camp_depth() as i32;
    pos.pieces(color)
        .squares()
        .filter(|&sq| pos.camp(color).contains(sq))
        .map(|sq| {
            let home = 2 * n - distance(size, color, sq);
            let walled = if pos.targets(sq).0 == 0 { WALLED_IN } else { 0 };
            (depth + 2 - home) / 2 + walled
        })
        .sum()
}

/// The evacuation rule's cost for `color` with a deadline (in its own moves; 0: off):
/// nothing while the pieces at home have time to spare, then more per move of slack lost,
/// and [`EVAC_LOST`] once they cannot all leave in time.
fn evacuation_cost(pos: &Position, color: Color, deadline: u32) -> i32 {
    let made = pos.moves_made(color);
    if deadline == 0 || made >= deadline {
        return 0;
    }
    let need = moves_to_evacuate(pos, color);
    if need == 0 {
        return 0;
    }
    let slack = (deadline - made) as i32 - need;
    let horizon = EVAC_HORIZON.max(deadline as i32 * 2 / 3);
    if slack < 0 {
        EVAC_LOST
    } else {
        W_EVAC * need * (horizon - slack).max(0)
    }
}

/// The cost of `color`'s placement: lower is better.
fn cost(pos: &Position, color: Color, deadline: u32) -> i32 {
    let size = pos.size();
    let own = pos.pieces(color);
    let target = pos.target(color);
    let occupied = pos.occupied().0;
    let board = Bitboard::board(size).0;
    let mut sum = evacuation_cost(pos, color, deadline);
    let mut rear = 0;
    let mut outside = Vec::with_capacity(16);
    for sq in own.squares() {
        let d = distance(size, color, sq);
        sum += W_DIST * d + W_SQUARE * d * d;
        rear = rear.max(d);
        let drift = (sq.file() as i32 - sq.rank() as i32).abs();
        if drift > 2 {
            sum += W_LATERAL * (drift - 2);
        }
        if !target.contains(sq) {
            outside.push(sq);
        }
    }
    let count = own.count() as i32;
    let total: i32 = own.squares().map(|s| distance(size, color, s)).sum();
    sum += W_REAR * (rear - total / count.max(1)).max(0);
    // Few pieces outside: pull each to the nearest free target square.
    if !outside.is_empty() && outside.len() <= 3 {
        let free: Vec<Square> = Bitboard(target.0 & !occupied).squares().collect();
        for sq in &outside {
            let near = free
                .iter()
                .map(|t| {
                    (t.file() as i32 - sq.file() as i32)
                        .abs()
                        .max((t.rank() as i32 - sq.rank() as i32).abs())
                })
                .min()
                .unwrap_or(0);
            sum += W_FREE * near;
        }
    }
    // Jump lanes: forward jumps over an adjacent piece to an empty square, from pieces not yet
    // home.
    let movers = own.0 & !target.0;
    let empty = board & !occupied;
    let forward: [i32; 3] = match color {
        Color::White => [1, STRIDE, STRIDE + 1],
        Color::Black => [-1, -STRIDE, -STRIDE - 1],
    };
    let mut lanes = 0;
    for d in forward {
        let over = shift(movers, d) & occupied;
        lanes += (shift(over, d) & empty & board).count_ones() as i32;
    }
    sum - W_LANE * lanes.min(8)
}

/// The evaluation from the side to move's point of view (higher is better for it), under an
/// evacuation `deadline` (in each side's own moves; 0: off).
pub fn evaluate(pos: &Position, deadline: u32) -> i32 {
    let me = pos.to_move();
    cost(pos, me.other(), deadline) - cost(pos, me, deadline) + TEMPO
}

/// The progress a move makes for `color`: distance before minus distance after.
#[inline]
pub fn progress(size: BoardSize, color: Color, from: Square, to: Square) -> i32 {
    distance(size, color, from) - distance(size, color, to)
}
