//! Legal move generation with GNU Backgammon's conventions.
//!
//! A play uses as many dice as possible; when only one die of a non-double can be used, the
//! larger where possible; two plays are the same when their resulting positions are the same.
//! There are two paths over one generator: [`MoveGen::positions`] returns only the resulting
//! positions (the fast path for search), [`MoveGen::plays`] also returns the checker steps of
//! one play per position (for notation, history and the API). Both reuse the generator's
//! buffers: after warm-up no heap allocation happens per generated move.
//!
//! No result passes through a set or a hash table: every play is enumerated in one canonical
//! order of its steps, chosen so that distinct canonical plays give distinct positions. For
//! doubles that is a non-increasing sequence of starting points (see `doubles.rs`); for mixed
//! rolls the higher checker moves first, and one checker using both dice goes by the smaller
//! die first unless the other route hits or is the only one open (see `mixed.rs`). Which
//! checkers can move is read from bitmasks of occupied and open points (see `step.rs`), so no
//! step scans the board.

mod doubles;
mod mixed;
mod sequences;
mod step;

pub use sequences::{SequenceGen, Trapping};

use crate::position::Position;
use std::fmt;
use step::make;
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
    /// True when an opposing blot on `to` was trapped (Never-Finishing backgammon).
    pub trap: bool,
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

    /// Appends a step (ignored beyond four).
    pub(crate) fn push(&mut self, step: Step) {
        if let Some(slot) = self.steps.get_mut(self.len as usize) {
            *slot = step;
            self.len += 1;
        }
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
            .map(|s| {
                let mark = match (s.hit, s.trap) {
                    (true, _) => "*",
                    (_, true) => "^",
                    _ => "",
                };
                format!("{}/{}{}", s.from, s.to, mark)
            })
            .collect();
        write!(f, "Play({})", parts.join(" "))
    }
}

/// A reusable move generator: keep one per thread and call it for every position.
pub struct MoveGen {
    positions: Vec<Position>,
    plays: Vec<Play>,
    /// Steps in the longest plays found so far (doubles; mixed rolls track it by loop order).
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

    /// Never-Finishing plays (hit or trap on every blot landed on) of a position without
    /// trapped checkers; `None` for a position with one, which needs the general
    /// [`SequenceGen`] (a freed checker can be landed on again later in the turn).
    pub fn trapping_positions(&mut self, pos: &Position, dice: Dice) -> Option<&[Position]> {
        if pos.trapped != 0 {
            return None;
        }
        Some(self.run_trapping(pos, dice))
    }

    fn run_trapping(&mut self, pos: &Position, dice: Dice) -> &[Position] {
        self.run_with::<false, true>(pos, dice);
        &self.positions
    }

    /// [`MoveGen::trapping_positions`] with one play per result.
    pub fn trapping_plays(&mut self, pos: &Position, dice: Dice) -> Option<(&[Position], &[Play])> {
        if pos.trapped != 0 {
            return None;
        }
        self.run_with::<true, true>(pos, dice);
        Some((&self.positions, &self.plays))
    }

    fn run<const PLAYS: bool>(&mut self, pos: &Position, dice: Dice) {
        self.run_with::<PLAYS, false>(pos, dice)
    }

    fn run_with<const PLAYS: bool, const TRAP: bool>(&mut self, pos: &Position, dice: Dice) {
        self.positions.clear();
        self.plays.clear();
        self.max_len = 0;
        match dice {
            Dice::Double(d) => self.doubles::<PLAYS, TRAP>(pos, d.value() as usize),
            Dice::Mixed { big, small } => {
                self.mixed::<PLAYS, TRAP>(pos, big.value() as usize, small.value() as usize)
            }
        }
    }

    /// Drops the results so far: a play with more steps (`len`) has been found.
    fn restart(&mut self, len: u8) {
        self.positions.clear();
        self.plays.clear();
        self.max_len = len;
    }

    /// Records a result unconditionally.
    #[inline(always)]
    fn push<const PLAYS: bool>(&mut self, pos: Position, steps: &[Step]) {
        self.positions.push(pos);
        if PLAYS {
            self.plays.push(Play::from_steps(steps));
        }
    }

    /// Records `base` after one more step from `from` by `d`, the play being `earlier` and
    /// that step. The step is made in place in the output buffer: making it in a local copy
    /// and then pushing that would read back as one 32-byte block the bytes just written one
    /// at a time, which defeats the processor's store-to-load forwarding (it cost a fifth of
    /// the generator's time).
    #[inline(always)]
    fn push_step<const PLAYS: bool, const TRAP: bool>(
        &mut self,
        base: &Position,
        from: usize,
        d: usize,
        outcome: usize,
        earlier: &[Step],
    ) {
        self.positions.push(*base);
        let last = self.positions.len() - 1;
        // The last step needs no source mask afterwards.
        let step = make::<TRAP>(&mut self.positions[last], &mut 0, from, d, outcome);
        if PLAYS {
            let mut play = Play::from_steps(earlier);
            play.steps[earlier.len()] = step;
            play.len += 1;
            self.plays.push(play);
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

/// The generator for any game of the tables family: backgammon's fast path, its trapping mode
/// for Never-Finishing positions without trapped checkers, and the general [`SequenceGen`]
/// for the rest.
#[derive(Default)]
pub struct TablesGen {
    fast: MoveGen,
    general: SequenceGen,
}

impl TablesGen {
    /// A generator with empty buffers.
    pub fn new() -> TablesGen {
        TablesGen::default()
    }

    /// Every distinct position reachable with `dice`, seen from the mover.
    pub fn positions(&mut self, pos: &Position, dice: Dice, trapping: Trapping) -> &[Position] {
        match trapping {
            // Without a blot or a trapped checker no trap choice can arise this turn (a blot
            // appears only when a trapper leaves): the plays are backgammon's.
            Trapping::Off => self.fast.positions(pos, dice),
            Trapping::On if pos.trapped == 0 && !has_blot(pos) => self.fast.positions(pos, dice),
            Trapping::On if pos.trapped == 0 => self.fast.run_trapping(pos, dice),
            Trapping::On => self.general.positions(pos, dice, trapping),
        }
    }

    /// Every distinct resulting position with one play reaching it.
    pub fn plays(
        &mut self,
        pos: &Position,
        dice: Dice,
        trapping: Trapping,
    ) -> (&[Position], &[Play]) {
        match trapping {
            Trapping::Off => self.fast.plays(pos, dice),
            Trapping::On if pos.trapped == 0 && !has_blot(pos) => self.fast.plays(pos, dice),
            Trapping::On if pos.trapped == 0 => {
                self.fast.run_with::<true, true>(pos, dice);
                (&self.fast.positions, &self.fast.plays)
            }
            Trapping::On => self.general.plays(pos, dice, trapping),
        }
    }
}

/// Whether the opponent has a blot on a point (a single checker, not trapping).
fn has_blot(pos: &Position) -> bool {
    pos.pips[1..25].contains(&-1)
}

/// A generator carried along in a session for reuse: it holds no game state, so cloning
/// gives a fresh one and debugging output leaves it out.
#[derive(Default)]
pub(crate) struct Reusable<T>(pub(crate) T);

impl<T: Default> Clone for Reusable<T> {
    fn clone(&self) -> Self {
        Reusable::default()
    }
}

impl<T> fmt::Debug for Reusable<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(generator)")
    }
}
