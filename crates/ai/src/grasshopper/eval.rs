//! The static evaluation: how good a Grasshopper position is for the side to move, in
//! hundredths of a checker's worth.
//!
//! Terms, each computed for both colours and taken as a difference:
//! - **progress**: how far each checker has come (hand 0, A 1 .. D 4), and points scored;
//! - **walls**: a wall in D is a point in the bank, walls in B and C are on their way;
//! - **supply lines**: an own checker six points behind an own single, with nothing blocking,
//!   is a build waiting to be made (the way walls, and so points, are made);
//! - **mobility**: how many actions each side has (an immobile side must pass, or will have to
//!   pick a bad move);
//! - **blocking**: the opponent's singles that a wall cuts off from the next quadrant, and
//!   the opponent's supply lines broken by a wall in between;
//! - **score state**: the player who scored last needs only one more point, the other two.

use tabula_core::Color;
use tabula_grasshopper::Position;

const A: u32 = 0x3f;
const D: u32 = 0x3f << 18;
const ABC: u32 = (1 << 18) - 1;
const BOARD: u32 = (1 << 24) - 1;

/// A proven win is worth this much, less the plies it takes.
pub const WIN: i32 = 1_000_000;
/// Scores at or beyond this are proven results.
pub const WIN_BOUND: i32 = WIN - 1_000;

const PROGRESS: i32 = 10;
const WALL_B: i32 = 12;
const WALL_C: i32 = 20;
const WALL_D: i32 = 60;
const SUPPLY: i32 = 14;
const MOBILITY: i32 = 3;
const STUCK_SINGLE: i32 = 10;
const BROKEN_SUPPLY: i32 = 8;
const LAST_SCORER: i32 = 80;
/// A point scored: what the wall in D was worth, so that a bear-off is judged by the score
/// state it leaves.
const POINT: i32 = 8 * PROGRESS + WALL_D;
/// The side to move scored last and has a wall in D: it wins on this move.
const READY_WIN: i32 = 5_000;

/// The bitboards of one side, as the terms need them.
struct Side {
    singles: u32,
    walls: u32,
    hand: u8,
}

struct Features {
    progress: i32,
    walls: i32,
    supply: i32,
    mobility: i32,
    stuck_singles: i32,
    broken_supply: i32,
}

/// The points a checker on bit `i` can reach in the next quadrant, and whether it can build,
/// given every wall on the board and the vacant points.
#[inline]
fn reach(i: u32, is_wall_top: bool, all_walls: u32, vacant: u32, own_singles: u32) -> (u32, bool) {
    let q = i / 6;
    let next = 0x3f << (6 * (q + 1));
    let limit_mask = if is_wall_top {
        BOARD
    } else {
        let above = all_walls & !((2u32 << i) - 1);
        if above == 0 {
            BOARD
        } else {
            (1u32 << above.trailing_zeros()) - 1
        }
    };
    let targets = next & vacant & limit_mask;
    let build_bit = 1u32 << (i + 6);
    let build = own_singles & build_bit & limit_mask != 0;
    (targets, build)
}

fn features(me: &Side, you: &Side, all_walls: u32, vacant: u32) -> Features {
    let mut f = Features {
        progress: 0,
        walls: 0,
        supply: 0,
        mobility: 0,
        stuck_singles: 0,
        broken_supply: 0,
    };
    for q in 0..4u32 {
        let mask = 0x3f << (6 * q);
        let weight = q as i32 + 1;
        f.progress += weight
            * ((me.singles & mask).count_ones() as i32 + 2 * (me.walls & mask).count_ones() as i32);
    }
    f.walls = WALL_B * (me.walls & (0x3f << 6)).count_ones() as i32
        + WALL_C * (me.walls & (0x3f << 12)).count_ones() as i32
        + WALL_D * (me.walls & D).count_ones() as i32;
    if me.hand > 0 {
        f.mobility += (vacant & A).count_ones() as i32;
    }
    f.mobility += (me.walls & D).count_ones() as i32;
    let mut movers = (me.singles | me.walls) & ABC;
    while movers != 0 {
        let i = movers.trailing_zeros();
        movers &= movers - 1;
        let top = me.walls & (1 << i) != 0;
        let (targets, build) = reach(i, top, all_walls, vacant, me.singles);
        f.mobility += targets.count_ones() as i32 + i32::from(build);
        if build {
            f.supply += 1;
        } else if !top && me.singles & (1 << (i + 6)) != 0 {
            // A supply line cut by a wall in between.
            f.broken_supply += 1;
        }
        if !top && targets == 0 && !build {
            f.stuck_singles += 1;
        }
    }
    let _ = you;
    f
}

/// The evaluation of `pos` for the side to move. Only for positions still in play.
pub fn evaluate(pos: &Position) -> i32 {
    let me_c = pos.turn();
    let you_c = me_c.other();
    let side = |c: Color| Side {
        singles: pos.singles(c),
        walls: pos.walls(c),
        hand: pos.hand(c),
    };
    let (me, you) = (side(me_c), side(you_c));
    let all_walls = me.walls | you.walls;
    let vacant = BOARD & !(me.singles | you.singles | all_walls);
    let last = pos.last_scorer();
    if last == Some(me_c) && me.walls & D != 0 {
        return READY_WIN;
    }
    let fm = features(&me, &you, all_walls, vacant);
    let fy = features(&you, &me, all_walls, vacant);
    let mut v = PROGRESS * (fm.progress - fy.progress)
        + (fm.walls - fy.walls)
        + SUPPLY * (fm.supply - fy.supply)
        + MOBILITY * (fm.mobility - fy.mobility)
        + STUCK_SINGLE * (fy.stuck_singles - fm.stuck_singles)
        + BROKEN_SUPPLY * (fy.broken_supply - fm.broken_supply)
        + POINT * (i32::from(pos.score(me_c)) - i32::from(pos.score(you_c)));
    match last {
        Some(c) if c == me_c => v += LAST_SCORER,
        Some(_) => {
            v -= LAST_SCORER;
            // The opponent scored last and banks a wall in D: unless we bear off first, it
            // wins on its next move.
            if you.walls & D != 0 && me.walls & D == 0 {
                v -= READY_WIN / 2;
            }
        }
        None => {}
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_grasshopper::Checkers;

    #[test]
    fn start_is_balanced_and_the_mover_gains_by_entering() {
        let start = Position::start(Checkers::FULL);
        assert_eq!(evaluate(&start), 0);
        // After an entry, the side to move (Black) is one checker behind.
        let after = start.play(start.legal_actions()[0]).unwrap();
        assert!(evaluate(&after) < 0);
    }
}
