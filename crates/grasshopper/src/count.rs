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
//! move, exactly what the solver's transposition key (`solver/key.rs`) encodes. Well-formed
//! solver states are half the well-formed game states; reachable ones are more than half the
//! reachable game states, because White moves first and the swap of a reachable state is
//! often not reachable.
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
//! Counts are `u128`; the 14-checker game has about `7.4 x 10^15` positions.
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
//! answered by a pass. A move raises only the mover's own stage sum, so the layer splits
//! further into cells by the two sums ([`WellFormed::by_progress`]): a cell's states play
//! into two cells only.
//!
//! # Tempo
//!
//! A player's actions other than passes number `stage sum - score` (a bear-off is one action
//! worth two stages). Without a pass White has played as many as Black when White is to move
//! and one more when Black is; [`in_tempo`] tests that, and [`WellFormed::in_tempo`] counts
//! the well-formed game states passing it. Passes break it: each shifts the difference by one
//! for the rest of the game, and in the measured games most reachable states late in the game
//! are off tempo, so the test does not shrink the state space much.
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

use crate::movegen::MAX_ACTIONS;
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
    /// Game states that pass [`in_tempo`]: those a game without a pass can reach, at most one
    /// side to move per board, hands and last scorer.
    pub in_tempo: u128,
    /// Game states in tempo per layer, `0..=10 N`.
    pub in_tempo_layers: Vec<u128>,
    /// Solver states by the stage sums of the side to move and of the other side,
    /// `by_progress[mover][other]`, each `0..=5 N`: a move raises only the mover's sum, so a
    /// state's children lie in the cells `[other][mover + 1]` and `[other][mover + 2]`.
    pub by_progress: Vec<Vec<u128>>,
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

    /// The largest cell of [`WellFormed::by_progress`] together with the two cells its
    /// states play into: `(mover, other, states in the three)`, what a retrograde computation
    /// by cells holds at once.
    pub fn largest_cell_with_children(&self) -> (u32, u32, u128) {
        let cell = |a: usize, b: usize| {
            self.by_progress
                .get(a)
                .and_then(|row| row.get(b))
                .copied()
                .unwrap_or(0)
        };
        let mut best = (0, 0, 0);
        for (a, row) in self.by_progress.iter().enumerate() {
            for (b, &here) in row.iter().enumerate() {
                let sum = here + cell(b, a + 1) + cell(b, a + 2);
                if sum > best.2 {
                    best = (a as u32, b as u32, sum);
                }
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

/// Calls `f(white, black)` for every score pair the validation allows with last scorer
/// `last`, given each side's range: nobody scored (both 0), or the last scorer has `m >= 1`
/// and the other `m - 1` or `m`.
fn for_each_score_pair(
    last: Option<Color>,
    range: ByColor<Option<(u32, u32)>>,
    mut f: impl FnMut(u32, u32),
) {
    let (Some(w), Some(b)) = (range.white, range.black) else {
        return;
    };
    let ranges = ByColor { white: w, black: b };
    match last {
        None => {
            if w.0 == 0 && b.0 == 0 {
                f(0, 0);
            }
        }
        Some(x) => {
            let (mine, theirs) = (ranges[x], ranges[x.other()]);
            for m in mine.0.max(1)..=mine.1 {
                for o in [m - 1, m] {
                    if theirs.0 <= o && o <= theirs.1 {
                        let pair = ByColor::new_with(|c| if c == x { m } else { o });
                        f(pair.white, pair.black);
                    }
                }
            }
        }
    }
}

/// Offset of a score difference `white - black` (at most 7 either way) in a `u32` bit mask.
const DIFF_OFFSET: i64 = 16;

/// Whether the actions each side has played, `stage sum - score` (a bear-off raises the sum by
/// two), can be those of a game without a pass: White has played as many as Black when White
/// is to move, one more when Black is. `diffs` holds the bits `DIFF_OFFSET + white score -
/// black score` of the allowed score pairs; `progress` is `white stage sum - black's`.
fn tempo_fits(diffs: u32, progress: i64, turn: Color) -> bool {
    let want = progress - i64::from(turn == Color::Black) + DIFF_OFFSET;
    (0..32).contains(&want) && diffs & (1 << want) != 0
}

/// Whether a game without any pass can have reached `pos`'s board, hands, last scorer and
/// side to move, as far as counting actions tells: some score the validation allows gives
/// White `stage sum - score` actions equal to Black's when White is to move, one more when
/// Black is. A state that fails this was reached, if at all, through a pass.
pub fn in_tempo(pos: &Position) -> bool {
    let n = u32::from(pos.checkers);
    let range = ByColor::new_with(|c| {
        let eligible =
            pos.hands[c] == 0 && pos.walls[c] == 0 && pos.singles[c] & !Quadrant::D.mask() == 0;
        score_range(n.saturating_sub(pos.remaining(c)), eligible)
    });
    let mut diffs = 0u32;
    for_each_score_pair(pos.last, range, |w, b| {
        let bit = i64::from(w) - i64::from(b) + DIFF_OFFSET;
        if (0..32).contains(&bit) {
            diffs |= 1 << bit;
        }
    });
    let progress = i64::from(progress(pos, Color::White)) - i64::from(progress(pos, Color::Black));
    tempo_fits(diffs, progress, pos.turn)
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
    // Per pair: for each last scorer, the score differences allowed (bits, see
    // `DIFF_OFFSET`; zero when that last scorer is impossible), and the score pairs in all.
    let mut table = vec![([0u32; 3], 0u64); s * s];
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
            let mut diffs = [0u32; 3];
            let mut pairs = 0;
            for (d, last) in diffs.iter_mut().zip(LASTS) {
                for_each_score_pair(last, range, |w, b| {
                    pairs += 1;
                    *d |= 1 << (i64::from(w) - i64::from(b) + DIFF_OFFSET);
                });
            }
            table[sidx(on_w, flag_w, hand_w) * s + sidx(on_b, flag_b, hand_b)] = (diffs, pairs);
        }
    }
    let mut out = WellFormed {
        checkers,
        boards: 0,
        positions: 0,
        states: 0,
        solver_states: 0,
        layers: vec![0; 10 * n + 1],
        in_tempo: 0,
        in_tempo_layers: vec![0; 10 * n + 1],
        by_progress: vec![vec![0; 5 * n + 1]; 5 * n + 1],
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
                    let (diffs, pairs) = table[row + sidx(on_b, flag_b, hand_b)];
                    if pairs == 0 {
                        continue;
                    }
                    let layer_b = p_b + 5 * (n - on_b - hand_b);
                    let lasts = diffs.iter().filter(|&&d| d != 0).count() as u128;
                    let delta = layer_w as i64 - layer_b as i64;
                    let tempo = diffs
                        .iter()
                        .map(|&d| {
                            Color::ALL
                                .iter()
                                .filter(|&&turn| tempo_fits(d, delta, turn))
                                .count() as u128
                        })
                        .sum::<u128>();
                    out.solver_states += c * lasts;
                    out.positions += 2 * c * u128::from(pairs);
                    out.layers[layer_w + layer_b] += c * lasts;
                    out.by_progress[layer_w][layer_b] += c * lasts;
                    out.in_tempo += c * tempo;
                    out.in_tempo_layers[layer_w + layer_b] += c * tempo;
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
    let quad = |bits: u32, q: usize| ((bits >> (6 * q)) & 0x3f) as usize;
    // Points 7-24: digit 1 White single, 2 White wall, 3 Black single, 4 Black wall.
    let mut high: u64 = 0;
    for q in 1..4 {
        let t = &BASE5[q - 1];
        high += t[quad(pos.singles.white, q)]
            + 2 * t[quad(pos.walls.white, q)]
            + 3 * t[quad(pos.singles.black, q)]
            + 4 * t[quad(pos.walls.black, q)];
    }
    // Points 1-6: digit 1 White single, 2 Black single.
    let low = BASE3[quad(pos.singles.white, 0)] + 2 * BASE3[quad(pos.singles.black, 0)];
    let mut k = high * 729 + low;
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

/// `BASE5[j][m]`: the sum of `5^(6 j + i)` over the bits `i` of the six-bit mask `m`.
const BASE5: [[u64; 64]; 3] = {
    let mut t = [[0u64; 64]; 3];
    let mut j = 0;
    while j < 3 {
        let mut m = 0;
        while m < 64 {
            let mut i = 0;
            while i < 6 {
                if m & (1 << i) != 0 {
                    t[j][m] += 5u64.pow(6 * j as u32 + i);
                }
                i += 1;
            }
            m += 1;
        }
        j += 1;
    }
    t
};

/// `BASE3[m]`: the sum of `3^i` over the bits `i` of the six-bit mask `m`.
const BASE3: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut m = 0;
    while m < 64 {
        let mut i = 0;
        while i < 6 {
            if m & (1 << i) != 0 {
                t[m] += 3u64.pow(i);
            }
            i += 1;
        }
        m += 1;
    }
    t
};

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

    /// Whether `extra` more keys take the load past 3/4.
    fn wants_growth(&self, extra: usize) -> bool {
        (self.len + extra) * 4 > self.slots.len() * 3
    }

    /// Whether `extra` more keys still leave the load at most 7/8 (the fill allowed when
    /// growing would break the memory limit).
    fn has_room(&self, extra: usize) -> bool {
        (self.len + extra) * 8 <= self.slots.len() * 7
    }

    /// The slot where a search for `key` starts (read only to bring it into the cache).
    #[inline]
    fn peek(&self, key: u64) -> u64 {
        self.slots[self.home(key)]
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
    /// Positions right after a pass (pass flag set): the game states reached by passing.
    pub after_pass: u64,
    /// Game states that fail [`in_tempo`]: reached only through a pass.
    pub off_tempo: u64,
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

    /// Positions right after a pass, in all layers.
    pub fn after_pass(&self) -> u64 {
        self.layers.iter().map(|l| l.after_pass).sum()
    }

    /// Game states reached only through a pass, in all layers.
    pub fn off_tempo(&self) -> u64 {
        self.layers.iter().map(|l| l.off_tempo).sum()
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
    let mut after_pass = 0;
    // Drop the pass flag (the lowest binary digit of key - 1).
    for k in keys.iter_mut() {
        after_pass += (*k - 1) & 1;
        *k = (*k - 1) >> 1;
    }
    keys.sort_unstable();
    keys.dedup();
    let states = keys.len() as u64;
    let mut off_tempo = 0;
    for k in keys.iter_mut() {
        let pos = decode((*k << 1) + 1, checkers);
        off_tempo += u64::from(!in_tempo(&pos));
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
        after_pass,
        off_tempo,
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

    /// Makes room in layer `layer`'s set for `extra` more keys, growing it if the limit
    /// allows, else filling it up to 7/8.
    fn make_room(&mut self, layer: usize, extra: usize, work: usize) -> Result<(), Stop> {
        while self.sets[layer].wants_growth(extra) {
            let after = self.bytes(work) + self.sets[layer].grown_bytes();
            if after <= self.limits.max_bytes {
                self.peak = self.peak.max(after);
                self.sets[layer].grow();
            } else if self.sets[layer].has_room(extra) {
                return Ok(());
            } else {
                return Err(Stop::Memory);
            }
        }
        Ok(())
    }

    /// Inserts a batch of `(layer, key)`, the new keys of layer `current` also into `work`.
    /// All the batch's slots are read first, so that their cache misses overlap.
    fn flush(
        &mut self,
        batch: &mut Vec<(usize, u64)>,
        work: &mut Vec<u64>,
        current: usize,
    ) -> Result<(), Stop> {
        for layer in current..current + 3 {
            let extra = batch.iter().filter(|&&(l, _)| l == layer).count();
            if extra > 0 {
                self.make_room(layer, extra, work.len())?;
            }
        }
        let touched = batch
            .iter()
            .fold(0u64, |acc, &(l, key)| acc ^ self.sets[l].peek(key));
        std::hint::black_box(touched);
        for &(l, key) in batch.iter() {
            if self.sets[l].insert(key) && l == current {
                work.push(key);
            }
        }
        batch.clear();
        Ok(())
    }
}

/// Keys inserted together (see [`Sets::flush`]).
const BATCH: usize = 48;

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
    let mut batch = Vec::with_capacity(BATCH + MAX_ACTIONS);
    batch.push((0, encode(&start)));
    if let Err(stop) = sets.flush(&mut batch, &mut Vec::new(), 0) {
        out.stopped = Some(stop);
    }
    let mut current = 0;
    'layers: while out.stopped.is_none() && current <= top {
        let mut work = sets.sets[current].keys();
        let mut i = 0;
        loop {
            if i == work.len() || batch.len() >= BATCH {
                if batch.is_empty() {
                    break;
                }
                if let Err(stop) = sets.flush(&mut batch, &mut work, current) {
                    out.stopped = Some(stop);
                    break 'layers;
                }
                continue;
            }
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
                batch.push((current + layer_step(a) as usize, encode(&child)));
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

    /// The stage sum of one colour computed from the cells alone.
    fn progress_of(s: &State, color: Color, checkers: u32) -> u32 {
        let mut sum = 0;
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
        sum + 5 * (checkers - left)
    }

    /// The layer of a state computed from its cells alone.
    fn layer_of(s: &State, checkers: u32) -> usize {
        (progress_of(s, Color::White, checkers) + progress_of(s, Color::Black, checkers)) as usize
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
        let mut tempo = HashSet::new();
        let mut tempo_layers = vec![0u128; 21];
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
                            // Actions played: stage sum minus score, as many for both when
                            // White is to move, one more for White when Black is.
                            let played = |c: Color| {
                                i64::from(progress_of(&s, c, 2)) - i64::from(setup.score[c])
                            };
                            let ahead = played(Color::White) - played(Color::Black);
                            if ahead == i64::from(turn == Color::Black) && tempo.insert(s) {
                                tempo_layers[layer_of(&s, 2)] += 1;
                            }
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
        assert_eq!(wf.in_tempo, tempo.len() as u128);
        assert_eq!(wf.in_tempo_layers, tempo_layers);
    }

    /// Boards from random games with `k` each (every one the engine reached), and the boards
    /// with at most two checkers of each colour in C and D.
    fn sample_boards(k: u32) -> Vec<[Cell; 24]> {
        let mut out = Vec::new();
        let mut seed = u64::from(k);
        let mut p = Position::start(n(k));
        while out.len() < 300 {
            if p.is_over() {
                p = Position::start(n(k));
            }
            let legal = p.legal_actions();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            p = p.play(legal[(seed >> 33) as usize % legal.len()]).unwrap();
            out.push(p.to_setup().cells);
        }
        for cells in boards(2) {
            if cells[..12].iter().all(|&c| c == Cell::Empty) && out.len() < 3000 {
                out.push(cells);
            }
        }
        out
    }

    #[test]
    fn the_score_model_agrees_with_the_validation_for_larger_games() {
        for k in [4u32, 6, 8] {
            for cells in sample_boards(k) {
                let setup0 = Setup {
                    checkers: k,
                    cells,
                    hands: ByColor::default(),
                    score: ByColor::default(),
                    last_scorer: None,
                    won: false,
                    turn: Color::White,
                    passed: false,
                };
                let mut on = [0u32; 2];
                let mut busy = [false; 2];
                for (i, cell) in cells.iter().enumerate() {
                    match *cell {
                        Cell::Single(c) => {
                            on[c.index()] += 1;
                            busy[c.index()] |= i < 18;
                        }
                        Cell::Wall(c) => {
                            on[c.index()] += 2;
                            busy[c.index()] = true;
                        }
                        Cell::Empty => {}
                    }
                }
                for hw in 0..=k as u8 {
                    for hb in 0..=k as u8 {
                        let hands = [hw, hb];
                        if (0..2).any(|c| on[c] + u32::from(hands[c]) > k) {
                            continue;
                        }
                        let range = ByColor::new_with(|c| {
                            let i = c.index();
                            let left = on[i] + u32::from(hands[i]);
                            score_range(k - left, !busy[i] && hands[i] == 0)
                        });
                        for last in LASTS {
                            let mut allowed = HashSet::new();
                            for_each_score_pair(last, range, |w, b| {
                                allowed.insert((w as u8, b as u8));
                            });
                            for sw in 0..=k as u8 / 2 + 1 {
                                for sb in 0..=k as u8 / 2 + 1 {
                                    let setup = Setup {
                                        hands: ByColor {
                                            white: hw,
                                            black: hb,
                                        },
                                        score: ByColor {
                                            white: sw,
                                            black: sb,
                                        },
                                        last_scorer: last,
                                        ..setup0
                                    };
                                    assert_eq!(
                                        Position::from_setup(setup).is_ok(),
                                        allowed.contains(&(sw, sb)),
                                        "{setup:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
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
            let cells: u128 = wf.by_progress.iter().flatten().sum();
            assert_eq!(cells, wf.solver_states);
            for (l, &count) in wf.layers.iter().enumerate() {
                let diagonal: u128 = (0..=l)
                    .filter_map(|a| wf.by_progress.get(a).and_then(|r| r.get(l - a)))
                    .sum();
                assert_eq!(diagonal, count, "layer {l}");
            }
            let (_, _, window) = wf.largest_cell_with_children();
            assert!(window > 0 && window <= wf.largest_window(3).1);
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
        assert_eq!(r.winning_edges, 0, "one wall each: nobody scores twice");
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
    fn games_without_a_pass_stay_in_tempo_and_passes_leave_it() {
        let start = Position::start(n(2));
        let mut seen = HashSet::from([start]);
        let mut stack = vec![start];
        let mut without_pass = HashSet::new();
        while let Some(p) = stack.pop() {
            if p.is_over() {
                continue;
            }
            assert!(in_tempo(&p), "{p}");
            without_pass.insert(state_of(&p.to_setup()));
            for &a in p.legal_actions().iter() {
                let c = p.play(a).unwrap();
                if a != Action::Pass && seen.insert(c) {
                    stack.push(c);
                }
            }
        }
        let all = reachable_by_dfs(2);
        let r = reachable(n(2), Limits::default(), |_, _, _| {});
        // Reached only through a pass: off tempo, or in tempo by the score's slack.
        let only_with_pass = all.difference(&without_pass).count() as u64;
        assert!(r.off_tempo() > 0);
        assert!(r.off_tempo() <= only_with_pass);
        assert!(r.after_pass() > 0);
        let wf = well_formed(n(2));
        for (l, counts) in r.layers.iter().enumerate() {
            assert!(u128::from(counts.states - counts.off_tempo) <= wf.in_tempo_layers[l]);
        }
    }

    #[test]
    fn a_small_memory_limit_stops_with_a_lower_bound() {
        let full = reachable(n(2), Limits::default(), |_, _, _| {});
        let cut = reachable(
            n(2),
            Limits {
                max_bytes: 128 << 10,
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
        for l in cut.complete_layers()..cut.layers.len() {
            assert!(cut.layers[l].states <= full.layers[l].states);
            assert!(!cut.layers[l].complete);
        }
        assert!(cut.peak_bytes <= 128 << 10);
    }

    #[test]
    fn a_time_limit_of_zero_stops_at_once() {
        let cut = reachable(
            n(4),
            Limits {
                max_bytes: 1 << 30,
                max_time: Duration::ZERO,
            },
            |_, _, _| {},
        );
        assert_eq!(cut.stopped, Some(Stop::Time));
        assert_eq!(cut.complete_layers(), 0);
        assert_eq!(cut.states(), 1, "the start was found");
    }
}
