//! Endgame tables: the exact value of every position in which each side has at most `k`
//! checkers left to play (hand plus board), for any number of checkers the game began with.
//!
//! Once both sides are down to `k` checkers, what happens next depends only on the points,
//! the hands, the last scorer and the side to move: neither the score nor the checkers
//! already gone matter (a bear-off wins exactly when its player scored last). So one table
//! serves the 14-checker game and every smaller one; for `N <= k` it holds the whole game.
//!
//! The table is built by retrograde analysis over a perfect index (`index`): states are
//! numbered by potential, every action but the pass lowers the potential, so one pass from
//! the lowest potential up fills every state from states already known. A state without an
//! action is a draw when the other side has none either (a pass answered by a pass), and
//! otherwise the negation of the other side's best action. Each layer is computed in parallel
//! on the current rayon pool. Values take 2 bits a state (loss, draw, win for the side to
//! move); [`EndgameTable::to_bytes`] and [`EndgameTable::from_bytes`] store them with a
//! header and a checksum, so a table can be built once and cached.

mod index;

use crate::value::Value;
use crate::Position;
use index::Index;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};
use thiserror::Error;

/// The largest `k` a table can be built for (the index's block map grows as `k`^10; and
/// tables beyond this would not fit in memory anyway).
pub const MAX_K: u8 = 8;

const LOSS: u8 = 0;
const DRAW: u8 = 1;
const WIN: u8 = 2;
/// Boards a parallel work item takes.
const CHUNK_BOARDS: usize = 2048;
const MAGIC: &[u8; 8] = b"TGHEND01";
const HEADER: usize = 8 + 1 + 8 + 8;

/// Why stored bytes are not a table.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TableError {
    /// The bytes do not start with the table's magic number.
    #[error("not a Grasshopper endgame table (wrong magic number)")]
    Magic,
    /// The header names a `k` outside 1..=MAX_K.
    #[error("the table claims k = {0}, outside 1..={MAX_K}")]
    K(u8),
    /// The length disagrees with the header.
    #[error("the table holds {found} bytes where k = {k} needs {expected}")]
    Length {
        /// The header's k.
        k: u8,
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The checksum does not match: the file is damaged.
    #[error("the table's checksum does not match: the file is damaged")]
    Checksum,
    /// A `k` outside 1..=MAX_K was asked for.
    #[error("k must be between 1 and {MAX_K}, not {0}")]
    BadK(u8),
}

/// One layer finished, passed to the build's progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerDone {
    /// The layer's potential.
    pub potential: u32,
    /// The number of layers.
    pub layers: u32,
    /// States in this layer.
    pub states: u64,
    /// States computed so far, this layer included.
    pub done: u64,
    /// States in the whole table.
    pub total: u64,
}

/// The exact values of every state with at most `k` checkers a side.
pub struct EndgameTable {
    index: Index,
    /// Two bits a state, four states a byte, lowest bits first.
    packed: Vec<u8>,
}

impl std::fmt::Debug for EndgameTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndgameTable")
            .field("k", &self.index.k())
            .field("states", &self.index.len)
            .finish()
    }
}

fn check_k(k: u8) -> Result<(), TableError> {
    if (1..=MAX_K).contains(&k) {
        Ok(())
    } else {
        Err(TableError::BadK(k))
    }
}

/// FNV-1a over the packed values.
fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl EndgameTable {
    /// How many states the table for `k` holds (without building it).
    pub fn states_for(k: u8) -> Result<u64, TableError> {
        check_k(k)?;
        Ok(Index::new(k).len)
    }

    /// Builds the table for `k` by retrograde analysis on the current rayon pool, calling
    /// `progress` after each layer.
    pub fn build(k: u8, mut progress: impl FnMut(LayerDone)) -> Result<EndgameTable, TableError> {
        check_k(k)?;
        let index = Index::new(k);
        // Two bits a state from the start, so that k = 5 (4.2 GiB) builds in memory; the
        // states of one layer are written in parallel, and neighbouring work items may share
        // a byte, hence the atomic `fetch_or` (every value starts as 0).
        let packed: Vec<AtomicU8> = (0..index.len.div_ceil(4))
            .map(|_| AtomicU8::new(0))
            .collect();
        let layers = index.layers.len() as u32;
        let mut done_states = 0u64;
        for (p, layer) in index.layers.iter().enumerate() {
            let blocks = &index.blocks[layer.clone()];
            if blocks.is_empty() {
                continue;
            }
            let states: u64 = blocks.iter().map(|b| b.boards() * 3).sum();
            let items: Vec<(&index::Block, u64)> = blocks
                .iter()
                .flat_map(|b| {
                    (0..b.boards())
                        .step_by(CHUNK_BOARDS)
                        .map(move |first| (b, first))
                })
                .collect();
            items.into_par_iter().for_each(|(block, first)| {
                let end = (first + CHUNK_BOARDS as u64).min(block.boards());
                for board in first..end {
                    for last in 0..3u8 {
                        let pos = index.position(block, board, last, 14);
                        let v = solve_state(&index, &packed, &pos);
                        let i = block.start + board * 3 + u64::from(last);
                        packed[(i / 4) as usize].fetch_or(v << (2 * (i % 4)), Ordering::Relaxed);
                    }
                }
            });
            done_states += states;
            progress(LayerDone {
                potential: p as u32,
                layers,
                states,
                done: done_states,
                total: index.len,
            });
        }
        let packed = packed.into_iter().map(AtomicU8::into_inner).collect();
        Ok(EndgameTable { index, packed })
    }

    /// The largest number of checkers a side may have left.
    pub fn k(&self) -> u8 {
        self.index.k()
    }

    /// States in the table.
    pub fn states(&self) -> u64 {
        self.index.len
    }

    /// The value of `pos` for the side to move, or `None` when a side has more than `k`
    /// checkers left. A finished game has its final value (a win for the player who scored
    /// twice in succession, else a draw).
    pub fn value(&self, pos: &Position) -> Option<Value> {
        if pos.is_over() {
            return Some(match pos.winner() {
                None => Value::Draw,
                Some(w) if w == pos.turn => Value::Win,
                Some(_) => Value::Loss,
            });
        }
        let k = u32::from(self.index.k());
        if pos.remaining(tabula_core::Color::White) > k
            || pos.remaining(tabula_core::Color::Black) > k
        {
            return None;
        }
        let i = self.index.rank(pos)? as usize;
        Some(match (self.packed[i / 4] >> (2 * (i % 4))) & 3 {
            WIN => Value::Win,
            LOSS => Value::Loss,
            _ => Value::Draw,
        })
    }

    /// The table as bytes: a magic number, `k`, the state count, a checksum, then the values
    /// at 2 bits a state.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.packed.len());
        out.extend_from_slice(MAGIC);
        out.push(self.index.k());
        out.extend_from_slice(&self.index.len.to_le_bytes());
        out.extend_from_slice(&checksum(&self.packed).to_le_bytes());
        out.extend_from_slice(&self.packed);
        out
    }

    /// Reads a table written by [`EndgameTable::to_bytes`], checking its header, its length
    /// and its checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<EndgameTable, TableError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(TableError::Magic);
        }
        let k = bytes[8];
        check_k(k).map_err(|_| TableError::K(k))?;
        let index = Index::new(k);
        let u64_at = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(b)
        };
        let expected = index.len.div_ceil(4);
        let found = (bytes.len() - HEADER) as u64;
        if u64_at(9) != index.len || found != expected {
            return Err(TableError::Length { k, expected, found });
        }
        let packed = bytes[HEADER..].to_vec();
        if checksum(&packed) != u64_at(17) {
            return Err(TableError::Checksum);
        }
        Ok(EndgameTable { index, packed })
    }
}

/// The value of a state whose children are all known.
fn solve_state(index: &Index, done: &[AtomicU8], pos: &Position) -> u8 {
    let moves = pos.moves();
    if !moves.is_empty() {
        return best(index, done, pos, &moves);
    }
    // The side to move passes; a pass answered by a pass is a draw.
    let mut other = *pos;
    other.turn = pos.turn.other();
    other.passed = true;
    let theirs = other.moves();
    if theirs.is_empty() {
        DRAW
    } else {
        WIN - best(index, done, &other, &theirs)
    }
}

/// The best of `moves` for the side to move in `pos`.
fn best(index: &Index, done: &[AtomicU8], pos: &Position, moves: &[crate::Action]) -> u8 {
    let mut best = LOSS;
    for &action in moves {
        let child = pos.play_unchecked(action);
        let v = if child.won {
            WIN
        } else if child.both_empty() {
            DRAW
        } else {
            let i = index.rank(&child).expect("a child has no more checkers") as usize;
            WIN - ((done[i / 4].load(Ordering::Relaxed) >> (2 * (i % 4))) & 3)
        };
        if v > best {
            best = v;
            if best == WIN {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests;
