//! Alpha-beta (negamax) with iterative deepening, a transposition table keyed by Zobrist
//! hashes, and moves ordered by progress. Bounded by a node count (deterministic) or a time
//! limit; an iteration cut short is thrown away and the last complete one answers.

use super::eval::{evaluate, progress, WIN};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;
use tabula_core::Color;
use tabula_halma::{Move, Position};

/// log2 of the number of transposition-table entries.
const TT_BITS: u32 = 18;

/// How a stored score bounds the true one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    best: Option<Move>,
    depth: i8,
    bound: Bound,
    score: i32,
}

/// Random keys per square and colour, fixed by a constant seed so that hashes never vary.
struct Zobrist {
    squares: [[u64; 128]; 2],
    black_to_move: u64,
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut rng = ChaCha8Rng::seed_from_u64(0x0004_a13a);
        let mut squares = [[0; 128]; 2];
        for side in &mut squares {
            for k in side.iter_mut() {
                *k = rng.next_u64();
            }
        }
        Zobrist {
            squares,
            black_to_move: rng.next_u64(),
        }
    }

    fn hash(&self, pos: &Position) -> u64 {
        let mut h = 0;
        for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
            for sq in pos.pieces(c).squares() {
                h ^= self.squares[i][sq.index() as usize];
            }
        }
        if pos.to_move() == Color::Black {
            h ^= self.black_to_move;
        }
        h
    }

    fn update(&self, h: u64, color: Color, mv: Move) -> u64 {
        let i = (color == Color::Black) as usize;
        h ^ self.squares[i][mv.from.index() as usize]
            ^ self.squares[i][mv.to.index() as usize]
            ^ self.black_to_move
    }
}

/// What stops a search.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The deepest iteration.
    pub max_depth: u32,
    /// Stop after this many nodes.
    pub nodes: u64,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

/// A searcher with its transposition table (reused between decisions, cleared before each).
pub struct Searcher {
    zobrist: Zobrist,
    table: Vec<Option<Entry>>,
    nodes: u64,
    limits: Limits,
    /// The evacuation deadline of the game searched (0: off).
    evacuation: u32,
    aborted: bool,
}

/// The result of a search.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    /// The chosen move.
    pub best: Move,
    /// The score of the best move.
    pub score: i32,
    /// The depth of the last complete iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with an empty table.
    pub fn new() -> Searcher {
        Searcher {
            zobrist: Zobrist::new(),
            table: vec![None; 1 << TT_BITS],
            nodes: 0,
            limits: Limits {
                max_depth: 1,
                nodes: u64::MAX,
                deadline: None,
            },
            evacuation: 0,
            aborted: false,
        }
    }

    /// The best of `root` (the candidate moves with a penalty each, subtracted from their
    /// score; non-empty) in `pos`, by iterative deepening within `limits`, under the
    /// evacuation rule with `evacuation` as the deadline (0: off).
    pub fn search(
        &mut self,
        pos: &Position,
        root: &[(Move, i32)],
        limits: Limits,
        evacuation: u32,
    ) -> Found {
        self.table.iter_mut().for_each(|e| *e = None);
        self.evacuation = evacuation;
        self.nodes = 0;
        self.limits = limits;
        self.aborted = false;
        let hash = self.zobrist.hash(pos);
        let mut order: Vec<(Move, i32)> = root.to_vec();
        let me = pos.to_move();
        order.sort_by_key(|&(m, pen)| (pen, -progress(pos.size(), me, m.from, m.to)));
        let mut found = Found {
            best: order[0].0,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=limits.max_depth {
            let mut alpha = -WIN - 1;
            let mut best = None;
            let mut scores = Vec::with_capacity(order.len());
            for &(mv, pen) in &order {
                let child = pos.play_unchecked(mv.from, mv.to);
                let h = self.zobrist.update(hash, me, mv);
                let raw = if pen >= WIN {
                    // A move the caller scores outright (a repetition draw): 0.
                    0
                } else {
                    -self.negamax(&child, h, depth as i32 - 1, -WIN - 1, -(alpha + pen), 1)
                };
                if self.aborted {
                    break;
                }
                let score = if pen >= WIN { 0 } else { raw - pen };
                scores.push((mv, pen, score));
                // The best move is kept even when every score falls below the initial window
                // (all moves lose, and penalties push them under -WIN).
                if best.is_none_or(|(_, s)| score > s) {
                    best = Some((mv, score));
                }
                alpha = alpha.max(score);
            }
            if self.aborted {
                break;
            }
            let (mv, score) = best.expect("at least one root move");
            found = Found {
                best: mv,
                score,
                depth,
                nodes: self.nodes,
            };
            // Best first next time; the others keep their order (stable sort).
            order.sort_by_key(|&(m, _)| m != mv);
            if score.abs() >= WIN - 1000 {
                break;
            }
        }
        found.nodes = self.nodes;
        found
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.limits.nodes {
            self.aborted = true;
        } else if let Some(deadline) = self.limits.deadline {
            if self.nodes & 1023 == 0 && Instant::now() >= deadline {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn negamax(
        &mut self,
        pos: &Position,
        hash: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if let Some((winner, _)) = pos.winner(self.evacuation) {
            return if winner == pos.to_move() {
                WIN - ply
            } else {
                -(WIN - ply)
            };
        }
        if depth <= 0 {
            return evaluate(pos, self.evacuation);
        }
        let slot = (hash >> (64 - TT_BITS)) as usize;
        let mut tt_move = None;
        if let Some(e) = self.table[slot] {
            if e.key == hash {
                tt_move = e.best;
                if e.depth as i32 >= depth {
                    match e.bound {
                        Bound::Exact => return e.score,
                        Bound::Lower if e.score >= beta => return e.score,
                        Bound::Upper if e.score <= alpha => return e.score,
                        _ => {}
                    }
                }
            }
        }
        let me = pos.to_move();
        let size = pos.size();
        let mut moves: Vec<(i32, Move)> = pos
            .moves()
            .map(|m| (progress(size, me, m.from, m.to), m))
            .collect();
        if moves.is_empty() {
            let next = pos.pass_unchecked();
            let h = hash ^ self.zobrist.black_to_move;
            return -self.negamax(&next, h, depth - 1, -beta, -alpha, ply + 1);
        }
        // Below the root, moves that go backwards are left out while another move exists:
        // they rarely matter and cut the branching factor by about half.
        if moves.iter().any(|&(p, _)| p >= 0) {
            moves.retain(|&(p, _)| p >= 0);
        }
        moves.sort_by_key(|&(p, m)| (Some(m) != tt_move, -p));
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        for (_, mv) in moves {
            let child = pos.play_unchecked(mv.from, mv.to);
            let h = self.zobrist.update(hash, me, mv);
            let score = -self.negamax(&child, h, depth - 1, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Some(Entry {
            key: hash,
            best: best_move,
            depth: depth as i8,
            bound,
            score: best,
        });
        best
    }
}
