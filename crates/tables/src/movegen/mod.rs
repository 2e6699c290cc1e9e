//! Legal move generation with GNU Backgammon's conventions.
//!
//! A play uses as many dice as possible; when only one die of a non-double can be used, the
//! larger where possible; two plays are the same when their resulting positions are the same.
//! There are two paths over one generator: [`MoveGen::positions`] returns only the resulting
//! positions (the fast path for search), [`MoveGen::plays`] also returns the checker steps of
//! one play per position (for notation, history and the API). Both reuse the generator's
//! buffers: after warm-up no heap allocation happens per generated move.
//!
//! Doubles are enumerated without any deduplication: a double's play is a multiset of starting
//! points, taken in non-increasing order, which is the most permissive order (see
//! `doubles.rs`), and distinct multisets give distinct positions. Mixed rolls have a few ways
//! to reach one position (one checker by either intermediate point, two checkers borne off
//! with the dice swapped), so their results pass through a small open-addressing table.

mod doubles;
mod mixed;
mod step;

use crate::position::{Position, BAR};
use std::fmt;
use tabula_core::Dice;

/// One checker step of a play, seen from the mover: `from` 25 is the bar, `to` 0 is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Step {
    /// Starting point (25 = bar).
    pub from: u8,
    /// Landing point (0 = borne off).
    pub to: u8,
    /// True when an opposing blot was hit on `to`.
    pub hit: bool,
}

/// The steps of one play, in the order they were made; at most four.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
}

impl Play {
    /// The steps, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// A play from steps (at most four).
    pub fn from_steps(steps: &[Step]) -> Play {
        let mut play = Play::default();
        for (slot, s) in play.steps.iter_mut().zip(steps) {
            *slot = *s;
        }
        play.len = steps.len().min(4) as u8;
        play
    }
}

impl fmt::Debug for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .steps()
            .iter()
            .map(|s| format!("{}/{}{}", s.from, s.to, if s.hit { "*" } else { "" }))
            .collect();
        write!(f, "Play({})", parts.join(" "))
    }
}

const TABLE: usize = 1024;

/// A reusable move generator: keep one per thread and call it for every position.
pub struct MoveGen {
    positions: Vec<Position>,
    plays: Vec<Play>,
    /// Dedup table for mixed rolls: `(epoch << 32) | index` into `positions`.
    table: Box<[u64]>,
    epoch: u32,
    max_len: u8,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen::new()
    }
}

impl MoveGen {
    /// A generator with empty buffers.
    pub fn new() -> MoveGen {
        MoveGen {
            positions: Vec::with_capacity(256),
            plays: Vec::with_capacity(256),
            table: vec![0; TABLE].into_boxed_slice(),
            epoch: 0,
            max_len: 0,
        }
    }

    /// Every distinct position the mover can reach with `dice`, seen from the mover (not
    /// flipped). Empty when no checker can move.
    pub fn positions(&mut self, pos: &Position, dice: Dice) -> &[Position] {
        self.run::<false>(pos, dice);
        &self.positions
    }

    /// Every distinct resulting position with one play that reaches it.
    pub fn plays(&mut self, pos: &Position, dice: Dice) -> (&[Position], &[Play]) {
        self.run::<true>(pos, dice);
        (&self.positions, &self.plays)
    }

    fn run<const PLAYS: bool>(&mut self, pos: &Position, dice: Dice) {
        self.positions.clear();
        self.plays.clear();
        self.max_len = 0;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.table.fill(0);
            self.epoch = 1;
        }
        let highest = step::highest(pos);
        match dice {
            Dice::Double(d) => {
                let mut steps = [Step::default(); 4];
                self.doubles::<PLAYS>(pos, highest, d.value() as usize, BAR, 0, &mut steps);
            }
            Dice::Mixed { big, small } => {
                self.mixed::<PLAYS>(pos, highest, big.value() as usize, small.value() as usize)
            }
        }
    }

    /// Records a result unconditionally.
    #[inline(always)]
    fn push<const PLAYS: bool>(&mut self, pos: Position, steps: &[Step]) {
        self.positions.push(pos);
        if PLAYS {
            self.plays.push(Play::from_steps(steps));
        }
    }

    /// Records a result unless an equal position is already recorded.
    #[inline(always)]
    fn push_unique<const PLAYS: bool>(&mut self, pos: Position, steps: &[Step]) {
        let w = pos.words();
        let h = (w[0] ^ w[1].rotate_left(17) ^ w[2].rotate_left(31) ^ w[3].rotate_left(47))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mask = TABLE - 1;
        let mut slot = (h >> 54) as usize & mask;
        loop {
            let e = self.table[slot];
            if (e >> 32) as u32 != self.epoch {
                self.table[slot] = (u64::from(self.epoch) << 32) | self.positions.len() as u64;
                self.push::<PLAYS>(pos, steps);
                return;
            }
            if self.positions[(e & 0xFFFF_FFFF) as usize] == pos {
                return;
            }
            slot = (slot + 1) & mask;
        }
    }
}

impl Position {
    /// Every distinct position reachable with `dice`, seen from the mover. Allocates; use a
    /// [`MoveGen`] in loops.
    pub fn legal_positions(&self, dice: Dice) -> Vec<Position> {
        MoveGen::new().positions(self, dice).to_vec()
    }

    /// Every distinct resulting position (seen from the mover) with one play that reaches it.
    pub fn legal_plays(&self, dice: Dice) -> Vec<(Play, Position)> {
        let mut gen = MoveGen::new();
        let (positions, plays) = gen.plays(self, dice);
        plays
            .iter()
            .copied()
            .zip(positions.iter().copied())
            .collect()
    }
}
