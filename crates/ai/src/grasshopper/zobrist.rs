//! Zobrist keys for Grasshopper positions, for the bot's transposition table.
//!
//! The crate's solver key is private and leaves out what the solver does not need; the bot
//! keeps its own: one random word per (point, cell state), per hand size, per last scorer,
//! plus the side to move, the pass flag and the won flag. The words come from SplitMix64
//! with a fixed seed at compile time, so keys (and thus searches) are the same on every run.

use tabula_core::Color;
use tabula_grasshopper::Position;

const CELL_STATES: usize = 4;
const HAND_SIZES: usize = 15;
const CELL_BASE: usize = 0;
const HAND_BASE: usize = CELL_BASE + 24 * CELL_STATES;
const LAST_BASE: usize = HAND_BASE + 2 * HAND_SIZES;
const TURN: usize = LAST_BASE + 2;
const PASSED: usize = TURN + 1;
const WON: usize = PASSED + 1;
const WORDS: usize = WON + 1;

const fn splitmix_table() -> [u64; WORDS] {
    let mut out = [0u64; WORDS];
    let mut state: u64 = 0x6772_6173_7368_6f70; // "grashop"
    let mut i = 0;
    while i < WORDS {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out[i] = z ^ (z >> 31);
        i += 1;
    }
    out
}

static KEYS: [u64; WORDS] = splitmix_table();

fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The Zobrist key of `pos`.
pub fn key(pos: &Position) -> u64 {
    let mut k = 0u64;
    for c in Color::ALL {
        let ci = color_index(c);
        for (state, mut bits) in [(ci, pos.singles(c)), (2 + ci, pos.walls(c))] {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                k ^= KEYS[CELL_BASE + i * CELL_STATES + state];
            }
        }
        k ^= KEYS[HAND_BASE + ci * HAND_SIZES + usize::from(pos.hand(c)).min(HAND_SIZES - 1)];
    }
    if let Some(c) = pos.last_scorer() {
        k ^= KEYS[LAST_BASE + color_index(c)];
    }
    if pos.turn() == Color::Black {
        k ^= KEYS[TURN];
    }
    if pos.passed() {
        k ^= KEYS[PASSED];
    }
    if pos.winner().is_some() {
        k ^= KEYS[WON];
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_grasshopper::Checkers;

    #[test]
    fn keys_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        assert!(KEYS.iter().all(|k| seen.insert(*k)));
    }

    #[test]
    fn different_children_have_different_keys() {
        let start = Position::start(Checkers::FULL);
        let mut keys: Vec<u64> = start
            .legal_actions()
            .iter()
            .map(|&a| key(&start.play(a).unwrap()))
            .collect();
        keys.push(key(&start));
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }
}
