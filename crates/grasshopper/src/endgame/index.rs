//! A perfect index of endgame states: every state in which each side has at most `k`
//! checkers left (hand plus board) gets one number in `0..len`, and states are numbered in
//! order of their *potential*, so that a retrograde pass can fill the table front to back.
//!
//! A state is seen from the side to move ("me"): the 24 points, both hands and the last
//! scorer (nobody, me, the other side). The board splits into its four quadrants. All the
//! checkers of one quadrant share a stage, so a quadrant's *class* (my checkers in it, the
//! other side's) fixes its share of the potential; within a class a quadrant configuration
//! has a local rank (its six points read as base-5 digits, counted in increasing order).
//!
//! A *block* is one choice of hands and classes for both sides: its states are the products
//! of the four quadrants' local ranks (mixed radix) times the three last scorers. Blocks are
//! sorted by potential `P = sum over remaining checkers of (5 - stage)` (hand 0, A 1 .. D 4):
//! every action but the pass lowers `P` by one (entry, advance, build, discard) or two (a
//! bear-off), so a state's children always lie in earlier layers.

use crate::Position;
use tabula_core::Color;

/// Points per quadrant.
const SIDE: usize = 6;
/// Configurations of one quadrant's six points (base-5 digits: empty, my single, my wall,
/// other single, other wall).
const CODES: usize = 15_625;
/// Quadrant-local ranks are below this (a block's quadrant radix fits a `u32`).
const NONE: u32 = u32::MAX;

/// One quadrant kind's tables: A (no walls) or B-D.
struct QuadTable {
    /// Code -> rank within its class, or `NONE` (a wall in A, or a class beyond `k`).
    local: Vec<u32>,
    /// Class `(mine, other)` as `mine * (k + 1) + other` -> its codes in increasing order.
    codes: Vec<Vec<u16>>,
}

/// What one code puts on six points, as 6-bit masks: my singles, my walls, other singles,
/// other walls.
#[derive(Clone, Copy, Default)]
struct Decoded {
    masks: [u8; 4],
}

/// One choice of hands and quadrant classes for both sides.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block {
    /// The first state's index.
    pub start: u64,
    /// Configurations of each quadrant A..D in this block's classes.
    pub radix: [u32; 4],
    /// Per quadrant, the class slot (`mine * (k + 1) + other`).
    pub class: [u16; 4],
    /// My hand and the other side's.
    pub hands: [u8; 2],
    /// The block's potential.
    pub potential: u8,
}

impl Block {
    /// Boards in the block.
    pub fn boards(&self) -> u64 {
        self.radix.iter().map(|&r| u64::from(r)).product()
    }
}

/// The perfect index for one `k`.
pub(crate) struct Index {
    k: u8,
    quads: [QuadTable; 2],
    decoded: Vec<Decoded>,
    /// Six-bit mask -> the sum of 5^i over its bits.
    pow_sum: [u16; 64],
    /// A side's composition (hand, A, B, C, D counts) in mixed radix `k + 1` -> its number,
    /// or `u16::MAX` when the total exceeds `k`.
    comp_id: Vec<u16>,
    comps: usize,
    /// `[my composition * comps + other composition]` -> block number.
    block_of: Vec<u32>,
    pub blocks: Vec<Block>,
    /// Potential -> the range of block numbers with it.
    pub layers: Vec<std::ops::Range<usize>>,
    pub len: u64,
}

fn digits(code: usize) -> [u8; SIDE] {
    let mut d = [0u8; SIDE];
    let mut c = code;
    for x in &mut d {
        *x = (c % 5) as u8;
        c /= 5;
    }
    d
}

impl Index {
    /// Builds the index for at most `k` checkers a side (1 ..= 14).
    pub fn new(k: u8) -> Index {
        let kk = usize::from(k) + 1;
        let mut decoded = vec![Decoded::default(); CODES];
        for (code, dec) in decoded.iter_mut().enumerate() {
            for (i, d) in digits(code).iter().enumerate() {
                if *d > 0 {
                    dec.masks[usize::from(*d) - 1] |= 1 << i;
                }
            }
        }
        let quad = |walls_allowed: bool| {
            let mut local = vec![NONE; CODES];
            let mut codes = vec![Vec::new(); kk * kk];
            for (code, slot) in local.iter_mut().enumerate() {
                let d = digits(code);
                if !walls_allowed && d.iter().any(|&x| x == 2 || x == 4) {
                    continue;
                }
                let count = |single: u8, wall: u8| {
                    d.iter()
                        .map(|&x| usize::from(x == single) + 2 * usize::from(x == wall))
                        .sum::<usize>()
                };
                let (mine, other) = (count(1, 2), count(3, 4));
                if mine > usize::from(k) || other > usize::from(k) {
                    continue;
                }
                let class = &mut codes[mine * kk + other];
                *slot = class.len() as u32;
                class.push(code as u16);
            }
            QuadTable { local, codes }
        };
        let quads = [quad(false), quad(true)];
        let mut pow_sum = [0u16; 64];
        for (m, p) in pow_sum.iter_mut().enumerate() {
            *p = (0..SIDE)
                .filter(|i| m & (1 << i) != 0)
                .map(|i| 5u16.pow(i as u32))
                .sum();
        }
        // Compositions: (hand, A, B, C, D) with total at most k.
        let mut comp_id = vec![u16::MAX; kk.pow(5)];
        let mut comp_list: Vec<[u8; 5]> = Vec::new();
        for (code, id) in comp_id.iter_mut().enumerate() {
            let mut c = [0u8; 5];
            let mut x = code;
            for v in &mut c {
                *v = (x % kk) as u8;
                x /= kk;
            }
            if c.iter().map(|&v| u32::from(v)).sum::<u32>() <= u32::from(k) {
                *id = comp_list.len() as u16;
                comp_list.push(c);
            }
        }
        let comps = comp_list.len();
        let potential = |c: &[u8; 5]| -> u32 {
            u32::from(c[0]) * 5
                + (0..4)
                    .map(|q| u32::from(c[q + 1]) * (4 - q as u32))
                    .sum::<u32>()
        };
        let mut blocks = Vec::new();
        let mut block_of = vec![u32::MAX; comps * comps];
        for (mi, m) in comp_list.iter().enumerate() {
            for (oi, o) in comp_list.iter().enumerate() {
                let mut radix = [0u32; 4];
                let mut class = [0u16; 4];
                for q in 0..4 {
                    let slot = usize::from(m[q + 1]) * kk + usize::from(o[q + 1]);
                    class[q] = slot as u16;
                    radix[q] = quads[usize::from(q > 0)].codes[slot].len() as u32;
                }
                if radix.contains(&0) {
                    continue;
                }
                block_of[mi * comps + oi] = blocks.len() as u32;
                blocks.push(Block {
                    start: 0,
                    radix,
                    class,
                    hands: [m[0], o[0]],
                    potential: (potential(m) + potential(o)) as u8,
                });
            }
        }
        // Sort by potential (stable, so the order is deterministic) and lay out.
        let mut order: Vec<usize> = (0..blocks.len()).collect();
        order.sort_by_key(|&b| blocks[b].potential);
        let mut renumber = vec![0u32; blocks.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old] = new as u32;
        }
        let mut sorted: Vec<Block> = order.iter().map(|&b| blocks[b]).collect();
        for b in block_of.iter_mut().filter(|b| **b != u32::MAX) {
            *b = renumber[*b as usize];
        }
        let mut start = 0u64;
        let mut layers = Vec::new();
        for (i, b) in sorted.iter_mut().enumerate() {
            b.start = start;
            start += b.boards() * 3;
            let p = usize::from(b.potential);
            while layers.len() <= p {
                layers.push(i..i);
            }
            layers[p].end = i + 1;
        }
        Index {
            k,
            quads,
            decoded,
            pow_sum,
            comp_id,
            comps,
            block_of,
            blocks: sorted,
            layers,
            len: start,
        }
    }

    /// The largest number of checkers a side may have left.
    pub fn k(&self) -> u8 {
        self.k
    }

    /// The state's index, seen from the side to move, or `None` when a side has more than
    /// `k` checkers left. The pass flag, the score and the won flag are ignored.
    #[inline]
    pub fn rank(&self, pos: &Position) -> Option<u64> {
        let me = pos.turn;
        let other = me.other();
        let kk = usize::from(self.k) + 1;
        let mut comp = [0usize; 2];
        let mut local = [0u32; 4];
        let mut radix = [0u32; 4];
        let sides = [me, other];
        let mut counts = [[0usize; 5]; 2];
        for (s, &c) in sides.iter().enumerate() {
            counts[s][0] = usize::from(pos.hands[c]);
        }
        for q in 0..4 {
            let shift = 6 * q;
            let m = |x: u32| ((x >> shift) & 63) as usize;
            let (ms, mw) = (m(pos.singles[me]), m(pos.walls[me]));
            let (os, ow) = (m(pos.singles[other]), m(pos.walls[other]));
            counts[0][q + 1] = ms.count_ones() as usize + 2 * mw.count_ones() as usize;
            counts[1][q + 1] = os.count_ones() as usize + 2 * ow.count_ones() as usize;
            if counts[0][q + 1] > usize::from(self.k) || counts[1][q + 1] > usize::from(self.k) {
                return None;
            }
            let code = usize::from(self.pow_sum[ms])
                + 2 * usize::from(self.pow_sum[mw])
                + 3 * usize::from(self.pow_sum[os])
                + 4 * usize::from(self.pow_sum[ow]);
            let table = &self.quads[usize::from(q > 0)];
            local[q] = table.local[code];
            let slot = counts[0][q + 1] * kk + counts[1][q + 1];
            radix[q] = table.codes[slot].len() as u32;
        }
        for s in 0..2 {
            let mut code = 0usize;
            for &v in counts[s].iter().rev() {
                if v > usize::from(self.k) {
                    return None;
                }
                code = code * kk + v;
            }
            let id = self.comp_id[code];
            if id == u16::MAX {
                return None;
            }
            comp[s] = usize::from(id);
        }
        let block = &self.blocks[self.block_of[comp[0] * self.comps + comp[1]] as usize];
        debug_assert_eq!(block.radix, radix);
        let mut board = 0u64;
        for q in 0..4 {
            board = board * u64::from(radix[q]) + u64::from(local[q]);
        }
        let last = match pos.last {
            None => 0,
            Some(c) if c == me => 1,
            Some(_) => 2,
        };
        Some(block.start + board * 3 + last)
    }

    /// The position of board number `board` in `block` with the last scorer `last` (0 none,
    /// 1 the side to move, 2 the other), White to move, for `checkers` a side.
    pub fn position(&self, block: &Block, board: u64, last: u8, checkers: u8) -> Position {
        let mut rest = board;
        let mut local = [0u64; 4];
        for q in (0..4).rev() {
            let r = u64::from(block.radix[q]);
            local[q] = rest % r;
            rest /= r;
        }
        let mut pos = Position::start(crate::Checkers::FULL);
        pos.checkers = checkers;
        pos.hands.white = block.hands[0];
        pos.hands.black = block.hands[1];
        for (q, &l) in local.iter().enumerate() {
            let table = &self.quads[usize::from(q > 0)];
            let code = table.codes[usize::from(block.class[q])][l as usize];
            let d = self.decoded[usize::from(code)].masks;
            let shift = 6 * q;
            pos.singles.white |= u32::from(d[0]) << shift;
            pos.walls.white |= u32::from(d[1]) << shift;
            pos.singles.black |= u32::from(d[2]) << shift;
            pos.walls.black |= u32::from(d[3]) << shift;
        }
        pos.last = match last {
            0 => None,
            1 => Some(Color::White),
            _ => Some(Color::Black),
        };
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_round_trips_through_its_position() {
        for k in 1..=2u8 {
            let index = Index::new(k);
            let mut seen = 0u64;
            for block in &index.blocks {
                for board in 0..block.boards() {
                    for last in 0..3u8 {
                        let pos = index.position(block, board, last, 14);
                        let want = block.start + board * 3 + u64::from(last);
                        assert_eq!(index.rank(&pos), Some(want));
                        let mut swapped = pos;
                        swapped.turn = Color::Black;
                        assert!(index.rank(&swapped).is_some());
                        seen += 1;
                    }
                }
            }
            assert_eq!(seen, index.len);
        }
    }

    #[test]
    fn layers_are_sorted_by_potential_and_cover_every_block() {
        let index = Index::new(3);
        let mut next = 0;
        for (p, layer) in index.layers.iter().enumerate() {
            assert_eq!(layer.start, next);
            for b in &index.blocks[layer.clone()] {
                assert_eq!(usize::from(b.potential), p);
            }
            next = layer.end;
        }
        assert_eq!(next, index.blocks.len());
    }

    #[test]
    fn a_side_with_too_many_checkers_has_no_index() {
        let index = Index::new(2);
        let pos = Position::start(crate::Checkers::new(4).unwrap());
        assert_eq!(index.rank(&pos), None);
        let small = Position::start(crate::Checkers::new(2).unwrap());
        assert!(index.rank(&small).is_some());
    }
}
