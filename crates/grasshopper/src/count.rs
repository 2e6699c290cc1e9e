//! The size of the Grasshopper state space: an exact count of the well-formed states by
//! dynamic programming over the points, the states reachable from the start by enumeration
//! over the real move generator, and both split into layers of a measure that every action
//! but the pass increases.
//!
//! # What a state is
//!
//! A [`Position`] holds the board, the hands, the score, the last scorer, whether the game is
//! won, the side to move and whether the previous turn was a pass. Not all of it decides the
//! rest of the game:
//!
//! - the **score** never does: only *who* scored last matters (and the discards are derived
//!   from the score);
//! - the **pass flag** matters only in a position whose mover has no action (after a pass
//!   the game is then drawn, otherwise the mover passes), so a solver stores nothing for it;
//! - a **won** game, and a game where **neither player has a checker left**, are over.
//!
//! So a *game state* here is the board (every point empty, a single or a wall of either
//! colour), both hands, the last scorer (none, White, Black) and the side to move, of a game
//! not over. Both players move the same way on the same track, so swapping the colours and
//! the side to move changes nothing; a *solver state* is a game state seen from the side to
//! move, exactly what the solver's transposition key (`solver/key.rs`) encodes, and there are
//! half as many of them as game states.
//!
//! # Well-formed states (an upper bound on the reachable ones)
//!
//! [`well_formed`] counts, exactly, the setups that [`Position::from_setup`] accepts with the
//! game not won, no pass flag and not both players out of checkers (the engine's *positions*,
//! score included) and their projections to game states and solver states. It runs a dynamic
//! programme over the 24 points whose state is, per colour, the checkers on the board, the
//! sum of their quadrant stages and whether any of them is not a single in D (which forbids
//! discards); at the end it adds the hands, the last scorer and the scores that the
//! validation allows (scores alternate; a player with discards has only singles in D left).
//! Counts are `u128`: even the 14-checker game (about 10^18) fits.
//!
//! # Layers
//!
//! Give every checker a stage: 0 in hand, 1 to 4 in quadrant A to D, 5 once removed (borne
//! off or discarded). An entry, an advance, a build and a discard raise the sum of the stages
//! of all `2 N` checkers by 1, a bear-off by 2, and a pass leaves it unchanged. That sum is
//! the *layer*, 0 at the start and at most `10 N` ([`layer`], [`max_layer`]). The game graph
//! without passes is therefore acyclic and layered: a state's children lie one or two layers
//! up, so a retrograde computation needs the values of three layers at a time, and the pass
//! (to the same board, other side to move) stays inside a layer and ends the game if it is
//! answered by a pass.
//!
//! # Reachable states
//!
//! [`reachable`] enumerates the states reachable from the start layer by layer, expanding
//! every state with [`Position::legal_actions`] and [`Position::play`]'s unchecked core,
//! with one hash set of 64-bit keys per open layer (board in mixed radix, hands, last scorer,
//! side to move, pass flag). A layer is complete once the two below it and its own passes are
//! expanded; it is then counted (game states, solver states, states right after a pass) and
//! freed. Under a memory or time limit ([`Limits`]) it stops and returns what it found, which
//! is a lower bound: every state counted was reached.
//!
//! Measured numbers, and what they mean for solving N = 6 and N = 8, are in
//! `docs/grasshopper-solved.md` (section "The state space"); `cargo run --release -p
//! tabula-grasshopper --example count -- 6` prints them.

use crate::{Action, Checkers, Position, Quadrant};
use std::time::{Duration, Instant};
use tabula_core::{ByColor, Color};

/// The stage of a removed checker (borne off or discarded); hand is 0, A to D are 1 to 4.
pub const REMOVED_STAGE: u32 = 5;

/// The highest layer with `checkers` each: every checker of both players removed, `10 N`.
pub fn max_layer(checkers: Checkers) -> u32 {
    2 * REMOVED_STAGE * u32::from(checkers.get())
}

/// The sum of the stages of `color`'s checkers (hand 0, A..D 1..4, removed 5).
pub fn progress(pos: &Position, color: Color) -> u32 {
    let mut sum = 0;
    for q in Quadrant::ALL {
        let m = q.mask();
        let on = (pos.singles[color] & m).count_ones() + 2 * (pos.walls[color] & m).count_ones();
        sum += (q.index() as u32 + 1) * on;
    }
    let removed = u32::from(pos.checkers).saturating_sub(pos.remaining(color));
    sum + REMOVED_STAGE * removed
}

/// The layer of a position: the sum of the stages of all checkers of both players. Every
/// action but the pass raises it (a bear-off by 2, the others by 1).
pub fn layer(pos: &Position) -> u32 {
    progress(pos, Color::White) + progress(pos, Color::Black)
}

/// How much `action` raises the layer: 0 for a pass, 2 for a bear-off, 1 otherwise.
pub fn layer_step(action: Action) -> u32 {
    match action {
        Action::Pass => 0,
        Action::BearOff { .. } => 2,
        Action::Enter { .. }
        | Action::Advance { .. }
        | Action::Build { .. }
        | Action::Discard { .. } => 1,
    }
}

/// The exact number of well-formed states with a given number of checkers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WellFormed {
    /// Checkers per player.
    pub checkers: Checkers,
    /// Boards alone (what stands on each point), with at most `N` checkers of each colour on
    /// the board and no wall in A.
    pub boards: u128,
    /// Positions [`Position::from_setup`] accepts with the game not won, no pass flag, some
    /// checker left, either side to move: the score counted, so several per game state.
    pub positions: u128,
    /// Game states: board, hands, last scorer, side to move (`2 x solver_states`).
    pub states: u128,
    /// Solver states: game states seen from the side to move (colours merged).
    pub solver_states: u128,
    /// Solver states per layer, `0..=10 N`.
    pub layers: Vec<u128>,
}

impl WellFormed {
    /// The largest sum of `width` consecutive layers and the first of them: what a layered
    /// retrograde computation holds at once (`width` 3: a layer and the two it plays into).
    pub fn largest_window(&self, width: usize) -> (u32, u128) {
        let width = width.clamp(1, self.layers.len().max(1));
        let mut best = (0, 0);
        for (first, w) in self.layers.windows(width).enumerate() {
            let sum: u128 = w.iter().sum();
            if sum > best.1 {
                best = (first as u32, sum);
            }
        }
        best
    }
}

/// The scores a player with `removed` checkers gone may have: all of `0..=removed / 2` when
/// discards are possible (`eligible`: no checker in hand, only singles in D), otherwise only
/// `removed / 2`, and none when that is not whole.
fn score_range(removed: u32, eligible: bool) -> Option<(u32, u32)> {
    if eligible {
        Some((0, removed / 2))
    } else if removed.is_multiple_of(2) {
        Some((removed / 2, removed / 2))
    } else {
        None
    }
}

/// The score pairs the validation allows with last scorer `last`, given each side's range:
/// nobody scored (both 0), or the last scorer has `m >= 1` and the other `m - 1` or `m`.
fn score_pairs(last: Option<Color>, range: ByColor<Option<(u32, u32)>>) -> u64 {
    let (Some(w), Some(b)) = (range.white, range.black) else {
        return 0;
    };
    let ranges = ByColor { white: w, black: b };
    match last {
        None => u64::from(w.0 == 0 && b.0 == 0),
        Some(x) => {
            let (mine, theirs) = (ranges[x], ranges[x.other()]);
            (mine.0.max(1)..=mine.1)
                .map(|m| {
                    [m - 1, m]
                        .iter()
                        .filter(|&&o| theirs.0 <= o && o <= theirs.1)
                        .count() as u64
                })
                .sum()
        }
    }
}

/// The last scorers a count can have: none, White, Black.
const LASTS: [Option<Color>; 3] = [None, Some(Color::White), Some(Color::Black)];

/// Counts the well-formed states with `checkers` each, exactly (see the module docs). About
/// a second for N = 14 in a release build; memory `16 (N + 1)^2 (8 N + 2)^2` bytes twice.
pub fn well_formed(checkers: Checkers) -> WellFormed {
    let n = usize::from(checkers.get());
    let p_max = 4 * n;
    // Per colour: checkers on the board 0..=n, flag "some checker is not a single in D",
    // stage sum 0..=4n.
    let k = (n + 1) * 2 * (p_max + 1);
    let idx = |on: usize, flag: usize, p: usize| (on * 2 + flag) * (p_max + 1) + p;
    let split = |a: usize| {
        (
            a / (2 * (p_max + 1)),
            (a / (p_max + 1)) % 2,
            a % (p_max + 1),
        )
    };
    const NONE: usize = usize::MAX;
    let mut cur = vec![0u128; k * k];
    cur[idx(0, 0, 0) * k + idx(0, 0, 0)] = 1;
    for point in 0..24usize {
        let q = point / 6;
        let stage = q + 1;
        let in_d = q == 3;
        let succ = |add: usize, wall: bool| -> Vec<usize> {
            (0..k)
                .map(|a| {
                    let (on, flag, p) = split(a);
                    if (wall && q == 0) || on + add > n || p + add * stage > p_max {
                        NONE
                    } else {
                        let flag = flag | usize::from(wall || !in_d);
                        idx(on + add, flag, p + add * stage)
                    }
                })
                .collect()
        };
        let (single, wall) = (succ(1, false), succ(2, true));
        let mut next = vec![0u128; k * k];
        for a in 0..k {
            for b in 0..k {
                let c = cur[a * k + b];
                if c == 0 {
                    continue;
                }
                next[a * k + b] += c;
                for a2 in [single[a], wall[a]] {
                    if a2 != NONE {
                        next[a2 * k + b] += c;
                    }
                }
                for b2 in [single[b], wall[b]] {
                    if b2 != NONE {
                        next[a * k + b2] += c;
                    }
                }
            }
        }
        cur = next;
    }
    // Per colour and hand: (checkers left, removed, discards possible), then for each pair of
    // those the number of last scorers possible and of score pairs over them.
    let side = |on: usize, flag: usize, hand: usize| -> (u32, u32, bool) {
        let left = (on + hand) as u32;
        (left, n as u32 - left, flag == 0 && hand == 0)
    };
    let s = (n + 1) * 2 * (n + 1);
    let sidx = |on: usize, flag: usize, hand: usize| (on * 2 + flag) * (n + 1) + hand;
    let mut table = vec![(0u64, 0u64); s * s];
    for (on_w, flag_w, hand_w) in triples(n) {
        for (on_b, flag_b, hand_b) in triples(n) {
            let (lw, rw, ew) = side(on_w, flag_w, hand_w);
            let (lb, rb, eb) = side(on_b, flag_b, hand_b);
            if lw == 0 && lb == 0 {
                continue;
            }
            let range = ByColor {
                white: score_range(rw, ew),
                black: score_range(rb, eb),
            };
            let mut lasts = 0;
            let mut pairs = 0;
            for last in LASTS {
                let p = score_pairs(last, range);
                if p > 0 {
                    lasts += 1;
                    pairs += p;
                }
            }
            table[sidx(on_w, flag_w, hand_w) * s + sidx(on_b, flag_b, hand_b)] = (lasts, pairs);
        }
    }
    let mut out = WellFormed {
        checkers,
        boards: 0,
        positions: 0,
        states: 0,
        solver_states: 0,
        layers: vec![0; 10 * n + 1],
    };
    for a in 0..k {
        let (on_w, flag_w, p_w) = split(a);
        for b in 0..k {
            let c = cur[a * k + b];
            if c == 0 {
                continue;
            }
            out.boards += c;
            let (on_b, flag_b, p_b) = split(b);
            for hand_w in 0..=n - on_w {
                let layer_w = p_w + 5 * (n - on_w - hand_w);
                let row = sidx(on_w, flag_w, hand_w) * s;
                for hand_b in 0..=n - on_b {
                    let (lasts, pairs) = table[row + sidx(on_b, flag_b, hand_b)];
                    if lasts == 0 {
                        continue;
                    }
                    let layer_b = p_b + 5 * (n - on_b - hand_b);
                    out.solver_states += c * u128::from(lasts);
                    out.positions += 2 * c * u128::from(pairs);
                    out.layers[layer_w + layer_b] += c * u128::from(lasts);
                }
            }
        }
    }
    out.states = 2 * out.solver_states;
    out
}

/// Every (on board, flag, hand) of one colour with at most `n` checkers in all.
fn triples(n: usize) -> impl Iterator<Item = (usize, usize, usize)> {
    (0..=n).flat_map(move |on| {
        (0..2).flat_map(move |flag| (0..=n - on).map(move |hand| (on, flag, hand)))
    })
}

// ---------------------------------------------------------------------------------------
// Keys: a position without its score, in 63 bits.

/// The key of a position without its score (mixed radix; never zero): from the low end the
/// pass flag (2), the side to move (2), the last scorer (3), Black's and White's hands (15
/// each), points 1-6 in base 3 (empty, White single, Black single: A holds no wall) and
/// points 7-24 in base 5 (adding the walls). The largest, `2 * 2 * 3 * 225 * 3^6 * 5^18`, is
/// below `2^63`.
fn encode(pos: &Position) -> u64 {
    let (ws, ww, bs, bw) = (
        pos.singles.white,
        pos.walls.white,
        pos.singles.black,
        pos.walls.black,
    );
    let mut k: u64 = 0;
    for i in (6..24).rev() {
        let bit = 1u32 << i;
        let d = if ws & bit != 0 {
            1
        } else if ww & bit != 0 {
            2
        } else if bs & bit != 0 {
            3
        } else if bw & bit != 0 {
            4
        } else {
            0
        };
        k = k * 5 + d;
    }
    for i in (0..6).rev() {
        let bit = 1u32 << i;
        let d = if ws & bit != 0 {
            1
        } else if bs & bit != 0 {
            2
        } else {
            0
        };
        k = k * 3 + d;
    }
    k = k * 15 + u64::from(pos.hands.white.min(14));
    k = k * 15 + u64::from(pos.hands.black.min(14));
    let last = match pos.last {
        None => 0,
        Some(Color::White) => 1,
        Some(Color::Black) => 2,
    };
    k = k * 3 + last;
    k = k * 2 + u64::from(pos.turn == Color::Black);
    k = k * 2 + u64::from(pos.passed);
    k + 1
}

/// The position of a key (score zero: it never matters for play), `checkers` each.
fn decode(key: u64, checkers: u8) -> Position {
    let mut k = key - 1;
    let mut take = |radix: u64| {
        let d = k % radix;
        k /= radix;
        d
    };
    let passed = take(2) == 1;
    let turn = if take(2) == 1 {
        Color::Black
    } else {
        Color::White
    };
    let last = match take(3) {
        1 => Some(Color::White),
        2 => Some(Color::Black),
        _ => None,
    };
    let hand_b = take(15) as u8;
    let hand_w = take(15) as u8;
    let mut singles = ByColor::<u32>::default();
    let mut walls = ByColor::<u32>::default();
    for i in 0..6 {
        match take(3) {
            1 => singles.white |= 1 << i,
            2 => singles.black |= 1 << i,
            _ => {}
        }
    }
    for i in 6..24 {
        match take(5) {
            1 => singles.white |= 1 << i,
            2 => walls.white |= 1 << i,
            3 => singles.black |= 1 << i,
            4 => walls.black |= 1 << i,
            _ => {}
        }
    }
    Position {
        singles,
        walls,
        hands: ByColor {
            white: hand_w,
            black: hand_b,
        },
        score: ByColor::default(),
        last,
        turn,
        passed,
        won: false,
        checkers,
    }
}

/// The same position with the colours swapped (and so the side to move).
fn swap_colours(pos: &Position) -> Position {
    let sw = |b: ByColor<u8>| ByColor {
        white: b.black,
        black: b.white,
    };
    Position {
        singles: ByColor {
            white: pos.singles.black,
            black: pos.singles.white,
        },
        walls: ByColor {
            white: pos.walls.black,
            black: pos.walls.white,
        },
        hands: sw(pos.hands),
        score: sw(pos.score),
        last: pos.last.map(Color::other),
        turn: pos.turn.other(),
        ..*pos
    }
}

/// An open-addressing set of nonzero `u64` keys (linear probing, zero marks a free slot).
struct KeySet {
    slots: Vec<u64>,
    len: usize,
}

impl KeySet {
    const MIN_SLOTS: usize = 1 << 12;

    fn new() -> KeySet {
        KeySet {
            slots: Vec::new(),
            len: 0,
        }
    }

    fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    /// Whether one more key takes the load past 3/4.
    fn wants_growth(&self) -> bool {
        (self.len + 1) * 4 > self.slots.len() * 3
    }

    /// Whether one more key still leaves the load at most 7/8 (the fill allowed when growing
    /// would break the memory limit).
    fn has_room(&self) -> bool {
        (self.len + 1) * 8 <= self.slots.len() * 7
    }

    fn grown_bytes(&self) -> usize {
        (self.slots.len() * 2).max(Self::MIN_SLOTS) * 8
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        // splitmix64's finaliser: the keys are structured, the slots must not be.
        let mut z = key;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z as usize) & (self.slots.len() - 1)
    }

    fn grow(&mut self) {
        let new = vec![0u64; (self.slots.len() * 2).max(Self::MIN_SLOTS)];
        let old = std::mem::replace(&mut self.slots, new);
        let mask = self.slots.len() - 1;
        for key in old.into_iter().filter(|&s| s != 0) {
            let mut i = self.home(key);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = key;
        }
    }

    /// Adds `key` (nonzero); true if it was new. The caller made room ([`KeySet::has_room`]).
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = self.slots[i];
            if s == key {
                return false;
            }
            if s == 0 {
                self.slots[i] = key;
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn keys(&self) -> Vec<u64> {
        self.slots.iter().copied().filter(|&s| s != 0).collect()
    }
}

/// Limits on an enumeration: it stops, with a lower bound, when either is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of hash sets and work lists held at once.
    pub max_bytes: usize,
    /// Wall-clock time.
    pub max_time: Duration,
}

impl Default for Limits {
    /// 8 GiB and 20 minutes.
    fn default() -> Limits {
        Limits {
            max_bytes: 8 << 30,
            max_time: Duration::from_secs(20 * 60),
        }
    }
}

/// Why an enumeration stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The hash sets would have passed [`Limits::max_bytes`].
    Memory,
    /// [`Limits::max_time`] ran out.
    Time,
}

/// The reachable states of one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LayerReach {
    /// Game states (board, hands, last scorer, side to move), pass flag ignored.
    pub states: u64,
    /// Solver states: game states seen from the side to move.
    pub solver_states: u64,
    /// Keys counted with the pass flag: game states reached after a pass count twice if they
    /// are also reached otherwise.
    pub with_pass_flag: u64,
    /// Whether the layer was enumerated to the end (else its counts are lower bounds).
    pub complete: bool,
}

/// The states reachable from the start: exact where complete, else lower bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reachable {
    /// Checkers per player.
    pub checkers: Checkers,
    /// Per layer, `0..=10 N`.
    pub layers: Vec<LayerReach>,
    /// Why it stopped early; `None` when every layer is complete.
    pub stopped: Option<Stop>,
    /// States expanded (each one generation of the legal actions).
    pub expanded: u64,
    /// Children generated (edges of the game graph, terminal ones included).
    pub edges: u64,
    /// Edges into a won game (the mover scored twice in succession).
    pub winning_edges: u64,
    /// The most bytes of hash sets and work lists held at once.
    pub peak_bytes: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl Reachable {
    /// Game states in all layers (a lower bound when stopped).
    pub fn states(&self) -> u64 {
        self.layers.iter().map(|l| l.states).sum()
    }

    /// Solver states in all layers (a lower bound when stopped).
    pub fn solver_states(&self) -> u64 {
        self.layers.iter().map(|l| l.solver_states).sum()
    }

    /// Keys with the pass flag in all layers.
    pub fn with_pass_flag(&self) -> u64 {
        self.layers.iter().map(|l| l.with_pass_flag).sum()
    }

    /// Whether every layer was enumerated.
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }

    /// Layers `0..k` are all complete: the largest such `k`.
    pub fn complete_layers(&self) -> usize {
        self.layers.iter().take_while(|l| l.complete).count()
    }
}

/// Counts a layer's keys (consumed): with the pass flag, game states, solver states.
fn summarise(mut keys: Vec<u64>, checkers: u8, complete: bool) -> LayerReach {
    let with_pass_flag = keys.len() as u64;
    // Drop the pass flag (the lowest binary digit of key - 1).
    for k in keys.iter_mut() {
        *k = (*k - 1) >> 1;
    }
    keys.sort_unstable();
    keys.dedup();
    let states = keys.len() as u64;
    for k in keys.iter_mut() {
        let pos = decode((*k << 1) + 1, checkers);
        let seen = if pos.turn == Color::Black {
            swap_colours(&pos)
        } else {
            pos
        };
        *k = encode(&seen);
    }
    keys.sort_unstable();
    keys.dedup();
    LayerReach {
        states,
        solver_states: keys.len() as u64,
        with_pass_flag,
        complete,
    }
}

/// The layered enumeration's open sets.
struct Sets {
    sets: Vec<KeySet>,
    limits: Limits,
    peak: usize,
}

impl Sets {
    fn bytes(&self, work: usize) -> usize {
        self.sets.iter().map(KeySet::bytes).sum::<usize>() + work * 8
    }

    /// Adds `key` to layer `layer`'s set, growing it if the limit allows; true if new.
    fn insert(&mut self, layer: usize, key: u64, work: usize) -> Result<bool, Stop> {
        if self.sets[layer].wants_growth() {
            let after = self.bytes(work) + self.sets[layer].grown_bytes();
            if after <= self.limits.max_bytes {
                self.peak = self.peak.max(after);
                self.sets[layer].grow();
            } else if !self.sets[layer].has_room() {
                return Err(Stop::Memory);
            }
        }
        Ok(self.sets[layer].insert(key))
    }
}

/// Enumerates the states reachable from the start with `checkers` each, layer by layer, on
/// one thread; `on_layer(layer, counts, elapsed)` is called as each layer completes. Stops
/// at `limits` with lower bounds (see [`Reachable`]).
pub fn reachable(
    checkers: Checkers,
    limits: Limits,
    mut on_layer: impl FnMut(u32, &LayerReach, Duration),
) -> Reachable {
    let started = Instant::now();
    let n = checkers.get();
    let top = max_layer(checkers) as usize;
    let mut sets = Sets {
        sets: (0..=top + 2).map(|_| KeySet::new()).collect(),
        limits,
        peak: 0,
    };
    let mut out = Reachable {
        checkers,
        layers: vec![LayerReach::default(); top + 1],
        stopped: None,
        expanded: 0,
        edges: 0,
        winning_edges: 0,
        peak_bytes: 0,
        elapsed: Duration::ZERO,
    };
    let start = Position::start(checkers);
    if let Err(stop) = sets.insert(0, encode(&start), 0) {
        out.stopped = Some(stop);
    }
    let mut current = 0;
    'layers: while out.stopped.is_none() && current <= top {
        let mut work = sets.sets[current].keys();
        let mut i = 0;
        while i < work.len() {
            if out.expanded.is_multiple_of(4096) && started.elapsed() > limits.max_time {
                out.stopped = Some(Stop::Time);
                break 'layers;
            }
            let pos = decode(work[i], n);
            i += 1;
            out.expanded += 1;
            for &a in pos.legal_actions().iter() {
                let child = pos.play_unchecked(a);
                out.edges += 1;
                if child.won {
                    out.winning_edges += 1;
                    continue;
                }
                if child.both_empty() || (child.passed && !child.has_action()) {
                    continue;
                }
                let to = current + layer_step(a) as usize;
                let key = encode(&child);
                match sets.insert(to, key, work.len()) {
                    Ok(true) if to == current => work.push(key),
                    Ok(_) => {}
                    Err(stop) => {
                        out.stopped = Some(stop);
                        break 'layers;
                    }
                }
            }
        }
        sets.sets[current] = KeySet::new();
        out.layers[current] = summarise(work, n, true);
        on_layer(current as u32, &out.layers[current], started.elapsed());
        current += 1;
    }
    if out.stopped.is_some() {
        // What was found so far was reached: count it as lower bounds.
        for l in current..=top {
            let keys = sets.sets[l].keys();
            sets.sets[l] = KeySet::new();
            out.layers[l] = summarise(keys, n, false);
        }
    }
    out.peak_bytes = sets.peak;
    out.elapsed = started.elapsed();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Setup};
    use std::collections::{HashMap, HashSet};

    fn n(k: u32) -> Checkers {
        Checkers::new(k).unwrap()
    }

    /// A game state from a setup, independent of this module's keys: cells, hands, last
    /// scorer, side to move.
    type State = ([Cell; 24], [u8; 2], Option<Color>, Color);

    fn state_of(s: &Setup) -> State {
        (
            s.cells,
            [s.hands.white, s.hands.black],
            s.last_scorer,
            s.turn,
        )
    }

    /// The same state seen with the colours swapped.
    fn swapped(s: &State) -> State {
        let flip = |c: Cell| match c {
            Cell::Empty => Cell::Empty,
            Cell::Single(x) => Cell::Single(x.other()),
            Cell::Wall(x) => Cell::Wall(x.other()),
        };
        (
            s.0.map(flip),
            [s.1[1], s.1[0]],
            s.2.map(Color::other),
            s.3.other(),
        )
    }

    /// The layer of a state computed from its cells alone.
    fn layer_of(s: &State, checkers: u32) -> usize {
        let mut sum = 0;
        for color in Color::ALL {
            let mut left = u32::from(s.1[color.index()]);
            for (i, cell) in s.0.iter().enumerate() {
                let stage = i as u32 / 6 + 1;
                match *cell {
                    Cell::Single(c) if c == color => {
                        left += 1;
                        sum += stage;
                    }
                    Cell::Wall(c) if c == color => {
                        left += 2;
                        sum += 2 * stage;
                    }
                    _ => {}
                }
            }
            sum += 5 * (checkers - left);
        }
        sum as usize
    }

    /// Every board with at most `max` checkers of each colour, walls in A included (the
    /// validation must refuse those).
    fn boards(max: u32) -> Vec<[Cell; 24]> {
        fn go(i: usize, cells: &mut [Cell; 24], left: [u32; 2], out: &mut Vec<[Cell; 24]>) {
            if i == 24 {
                out.push(*cells);
                return;
            }
            go(i + 1, cells, left, out);
            for color in Color::ALL {
                let c = color.index();
                for (cell, used) in [(Cell::Single(color), 1), (Cell::Wall(color), 2)] {
                    if left[c] >= used {
                        let mut l = left;
                        l[c] -= used;
                        cells[i] = cell;
                        go(i + 1, cells, l, out);
                    }
                }
            }
            cells[i] = Cell::Empty;
        }
        let mut out = Vec::new();
        go(0, &mut [Cell::Empty; 24], [max, max], &mut out);
        out
    }

    #[test]
    fn the_two_checker_count_matches_every_setup_the_validation_accepts() {
        let wf = well_formed(n(2));
        let mut positions = 0u128;
        let mut states = HashSet::new();
        let mut solver = HashSet::new();
        let mut per_layer = vec![0u128; 21];
        let mut good_boards = HashSet::new();
        for cells in boards(2) {
            for (hw, hb) in (0..=2).flat_map(|a| (0..=2).map(move |b| (a, b))) {
                for (sw, sb) in (0..=2).flat_map(|a| (0..=2).map(move |b| (a, b))) {
                    for last in LASTS {
                        for turn in Color::ALL {
                            let setup = Setup {
                                checkers: 2,
                                cells,
                                hands: ByColor {
                                    white: hw,
                                    black: hb,
                                },
                                score: ByColor {
                                    white: sw,
                                    black: sb,
                                },
                                last_scorer: last,
                                won: false,
                                turn,
                                passed: false,
                            };
                            let Ok(p) = Position::from_setup(setup) else {
                                continue;
                            };
                            good_boards.insert(cells);
                            if p.both_empty() {
                                continue;
                            }
                            positions += 1;
                            let s = state_of(&setup);
                            if states.insert(s) && turn == Color::White {
                                per_layer[layer_of(&s, 2)] += 1;
                            }
                            solver.insert(if turn == Color::White { s } else { swapped(&s) });
                        }
                    }
                }
            }
        }
        assert_eq!(wf.positions, positions);
        assert_eq!(wf.states, states.len() as u128);
        assert_eq!(wf.solver_states, solver.len() as u128);
        assert_eq!(wf.layers, per_layer);
        assert_eq!(wf.boards, good_boards.len() as u128);
        assert_eq!(wf.layers.iter().sum::<u128>(), wf.solver_states);
    }

    #[test]
    fn counts_grow_with_the_checkers_and_layers_add_up() {
        let mut before = 0;
        for k in [2, 4, 6] {
            let wf = well_formed(n(k));
            assert!(wf.solver_states > before);
            assert_eq!(wf.layers.len(), 10 * k as usize + 1);
            assert_eq!(wf.layers.iter().sum::<u128>(), wf.solver_states);
            assert_eq!(wf.states, 2 * wf.solver_states);
            assert!(wf.positions >= wf.states);
            assert_eq!(wf.layers[0], 1, "only the start has everything in hand");
            before = wf.solver_states;
        }
    }

    /// Every game state reachable from the start with `k` each, by a plain depth-first search
    /// over the public rules API with whole positions in a `HashSet`.
    fn reachable_by_dfs(k: u32) -> HashSet<State> {
        let start = Position::start(n(k));
        let mut seen = HashSet::from([start]);
        let mut stack = vec![start];
        let mut states = HashSet::new();
        while let Some(p) = stack.pop() {
            if p.is_over() {
                continue;
            }
            states.insert(state_of(&p.to_setup()));
            for &a in p.legal_actions().iter() {
                let c = p.play(a).unwrap();
                if seen.insert(c) {
                    stack.push(c);
                }
            }
        }
        states
    }

    #[test]
    fn the_two_checker_reachable_states_match_a_plain_search() {
        let dfs = reachable_by_dfs(2);
        let r = reachable(n(2), Limits::default(), |_, _, _| {});
        assert!(r.complete());
        assert_eq!(r.complete_layers(), 21);
        assert_eq!(r.states(), dfs.len() as u64);
        let solver: HashSet<State> = dfs
            .iter()
            .map(|s| if s.3 == Color::White { *s } else { swapped(s) })
            .collect();
        assert_eq!(r.solver_states(), solver.len() as u64);
        let mut per_layer: HashMap<usize, u64> = HashMap::new();
        for s in &dfs {
            *per_layer.entry(layer_of(s, 2)).or_default() += 1;
        }
        for (l, counts) in r.layers.iter().enumerate() {
            assert_eq!(
                counts.states,
                per_layer.get(&l).copied().unwrap_or(0),
                "{l}"
            );
        }
        // Reachable never exceeds well-formed, layer by layer.
        let wf = well_formed(n(2));
        for (l, counts) in r.layers.iter().enumerate() {
            assert!(
                u128::from(counts.solver_states) <= wf.layers[l],
                "layer {l}"
            );
        }
        assert!(r.winning_edges > 0);
    }

    #[test]
    fn every_reachable_state_is_well_formed_with_some_score() {
        for s in reachable_by_dfs(2) {
            let ok = (0..=1).any(|sw| {
                (0..=1).any(|sb| {
                    Position::from_setup(Setup {
                        checkers: 2,
                        cells: s.0,
                        hands: ByColor {
                            white: s.1[0],
                            black: s.1[1],
                        },
                        score: ByColor {
                            white: sw,
                            black: sb,
                        },
                        last_scorer: s.2,
                        won: false,
                        turn: s.3,
                        passed: false,
                    })
                    .is_ok()
                })
            });
            assert!(ok, "{s:?}");
        }
    }

    #[test]
    fn every_action_but_the_pass_climbs_one_or_two_layers() {
        let mut p = Position::start(n(14));
        let mut seed = 7u64;
        for _ in 0..2000 {
            if p.is_over() {
                p = Position::start(n(14));
            }
            let legal = p.legal_actions();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = legal[(seed >> 33) as usize % legal.len()];
            let c = p.play(a).unwrap();
            assert_eq!(layer(&c), layer(&p) + layer_step(a), "{a} in {p}");
            // The key keeps everything but the score.
            let back = decode(encode(&c), 14);
            assert_eq!(
                (back.singles, back.walls, back.hands),
                (c.singles, c.walls, c.hands)
            );
            assert_eq!(
                (back.last, back.turn, back.passed),
                (c.last, c.turn, c.passed)
            );
            assert_eq!(encode(&swap_colours(&swap_colours(&c))), encode(&c));
            p = c;
        }
    }

    #[test]
    fn a_tiny_memory_limit_stops_with_a_lower_bound() {
        let full = reachable(n(4), Limits::default(), |_, _, _| {});
        let cut = reachable(
            n(4),
            Limits {
                max_bytes: 1 << 20,
                max_time: Duration::from_secs(600),
            },
            |_, _, _| {},
        );
        assert_eq!(cut.stopped, Some(Stop::Memory));
        assert!(cut.states() > 0 && cut.states() < full.states());
        assert!(cut.complete_layers() < full.complete_layers());
        for l in 0..cut.complete_layers() {
            assert_eq!(cut.layers[l], full.layers[l]);
        }
        assert!(cut.peak_bytes <= 1 << 20);
    }
}
