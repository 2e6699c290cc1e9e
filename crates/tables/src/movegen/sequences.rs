//! The general move-sequence generator of the tables family, with the Never-Finishing trap
//! choice.
//!
//! Where the fast backgammon generator relies on every play having one canonical order,
//! trapping breaks that: a checker that leaves the point where it trapped a blot frees it, and
//! a later step may then hit or trap the freed blot, so the order of steps matters. This
//! generator therefore plays the dice die by die, breadth first, and merges equal states
//! (board and unused dice) after every step; what is left after the last step that could be
//! taken is the set of distinct legal results. It is exact by construction for any order
//! effects, and with trapping off it is plain backgammon, which the tests check against
//! [`MoveGen`](super::MoveGen) on random positions.

use super::step::{sources, top, BAR_BIT};
use super::{Play, Step};
use crate::position::{Position, OPP_BAR};
use tabula_core::Dice;

/// Whether landing on a blot offers the trap choice besides the hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Trapping {
    /// Backgammon: a blot landed on is hit.
    Off,
    /// Never-Finishing: a blot landed on is hit or trapped, as the mover chooses.
    On,
}

/// A state between steps: the board, one play reaching it, and the dice still to play (for a
/// mixed roll bit 0 is the larger die and bit 1 the smaller; for a double, how many are left).
#[derive(Clone, Copy)]
struct Node {
    pos: Position,
    play: Play,
    left: u8,
}

/// A reusable generator of legal plays under the tables rules with optional trapping.
pub struct SequenceGen {
    layer: Vec<Node>,
    next: Vec<Node>,
    /// Open addressing over `next`: 0 empty, else index + 1.
    table: Vec<u32>,
    positions: Vec<Position>,
    plays: Vec<Play>,
}

impl Default for SequenceGen {
    fn default() -> Self {
        SequenceGen::new()
    }
}

impl SequenceGen {
    /// A generator with empty buffers.
    pub fn new() -> SequenceGen {
        SequenceGen {
            layer: Vec::with_capacity(64),
            next: Vec::with_capacity(64),
            table: vec![0; 256],
            positions: Vec::with_capacity(64),
            plays: Vec::with_capacity(64),
        }
    }

    /// Every distinct position reachable with `dice`, seen from the mover.
    pub fn positions(&mut self, pos: &Position, dice: Dice, trapping: Trapping) -> &[Position] {
        self.run(pos, dice, trapping);
        &self.positions
    }

    /// Every distinct resulting position with one play reaching it.
    pub fn plays(
        &mut self,
        pos: &Position,
        dice: Dice,
        trapping: Trapping,
    ) -> (&[Position], &[Play]) {
        self.run(pos, dice, trapping);
        (&self.positions, &self.plays)
    }

    fn run(&mut self, pos: &Position, dice: Dice, trapping: Trapping) {
        self.positions.clear();
        self.plays.clear();
        self.layer.clear();
        let root = Node {
            pos: *pos,
            play: Play::default(),
            left: 0,
        };
        match dice {
            Dice::Double(d) => {
                let d = d.value() as usize;
                self.layer.push(Node { left: 4, ..root });
                for _ in 0..4 {
                    self.start_layer();
                    for i in 0..self.layer.len() {
                        let node = self.layer[i];
                        self.expand(&node, d, node.left - 1, trapping);
                    }
                    if self.next.is_empty() {
                        break;
                    }
                    std::mem::swap(&mut self.layer, &mut self.next);
                }
                if self.layer[0].left < 4 {
                    self.emit_layer(|_| true);
                }
            }
            Dice::Mixed { big, small } => {
                let (big, small) = (big.value() as usize, small.value() as usize);
                self.start_layer();
                self.expand(&root, big, 0b10, trapping);
                self.expand(&root, small, 0b01, trapping);
                std::mem::swap(&mut self.layer, &mut self.next);
                self.start_layer();
                for i in 0..self.layer.len() {
                    let node = self.layer[i];
                    let d = if node.left == 0b01 { big } else { small };
                    self.expand(&node, d, 0, trapping);
                }
                if !self.next.is_empty() {
                    std::mem::swap(&mut self.layer, &mut self.next);
                    self.emit_layer(|_| true);
                } else if self.layer.iter().any(|n| n.left == 0b10) {
                    // Only one die can be played: the larger where possible.
                    self.emit_layer(|n| n.left == 0b10);
                } else {
                    self.emit_layer(|_| true);
                }
            }
        }
    }

    fn emit_layer(&mut self, keep: impl Fn(&Node) -> bool) {
        for n in self.layer.iter().filter(|n| keep(n)) {
            self.positions.push(n.pos);
            self.plays.push(n.play);
        }
    }

    fn start_layer(&mut self) {
        self.next.clear();
        self.table.fill(0);
    }

    /// Every legal single step of die `d` from `node`, into the next layer.
    fn expand(&mut self, node: &Node, d: usize, left: u8, trapping: Trapping) {
        let pos = &node.pos;
        let src = sources(pos);
        // A trapped-mask bit where the mover has no checkers is one of the mover's own,
        // trapped under the opponent.
        let own_trapped = pos.trapped & !src;
        let highest = top(src | own_trapped | 1);
        // Bearing off: nothing on the bar, every checker home, none of them trapped.
        let may_bear_off = highest <= 6 && own_trapped == 0;
        let mut froms = if src & BAR_BIT != 0 { BAR_BIT } else { src };
        while froms != 0 {
            let from = top(froms);
            froms ^= 1 << from;
            let mut left_from = *pos;
            left_from.pips[from] -= 1;
            if left_from.pips[from] == 0 && left_from.is_trapped(from) {
                // The last trapper leaves: the trapped checker is an ordinary blot again.
                left_from.pips[from] = -1;
                left_from.trapped &= !(1 << from);
            }
            let step = |to: usize, hit: bool, trap: bool| Step {
                from: from as u8,
                to: to as u8,
                hit,
                trap,
            };
            if from > d {
                let to = from - d;
                let target = pos.pips[to];
                let blot = target == -1 && !pos.is_trapped(to);
                if target >= 0 {
                    let mut after = left_from;
                    after.pips[to] += 1;
                    self.push(node, after, step(to, false, false), left);
                } else if blot {
                    let mut hit = left_from;
                    hit.pips[to] = 1;
                    hit.pips[OPP_BAR] -= 1;
                    self.push(node, hit, step(to, true, false), left);
                    if trapping == Trapping::On {
                        let mut trap = left_from;
                        trap.pips[to] = 1;
                        trap.trapped |= 1 << to;
                        self.push(node, trap, step(to, false, true), left);
                    }
                }
            } else if may_bear_off && (from == d || from == highest) {
                let mut off = left_from;
                off.x_off += 1;
                self.push(node, off, step(0, false, false), left);
            }
        }
    }

    /// Adds a state to the next layer unless an equal one (board and dice left) is there.
    fn push(&mut self, parent: &Node, pos: Position, step: Step, left: u8) {
        if self.next.len() * 2 >= self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut slot = hash(&pos, left) as usize & mask;
        loop {
            match self.table[slot] {
                0 => break,
                i => {
                    let other = &self.next[i as usize - 1];
                    if other.left == left && other.pos == pos {
                        return;
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
        let mut play = parent.play;
        play.push(step);
        self.next.push(Node { pos, play, left });
        self.table[slot] = self.next.len() as u32;
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        self.table = vec![0; size];
        for (i, n) in self.next.iter().enumerate() {
            let mut slot = hash(&n.pos, n.left) as usize & (size - 1);
            while self.table[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            self.table[slot] = i as u32 + 1;
        }
    }
}

fn hash(pos: &Position, left: u8) -> u64 {
    let mut h = u64::from(pos.trapped)
        ^ u64::from(pos.x_off) << 32
        ^ u64::from(pos.o_off) << 40
        ^ u64::from(left) << 48;
    for chunk in pos.pips.chunks(8) {
        let mut w = 0u64;
        for (k, &b) in chunk.iter().enumerate() {
            w |= u64::from(b as u8) << (8 * k);
        }
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}
