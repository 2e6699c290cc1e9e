//! Negamax alpha-beta with iterative deepening, principal-variation windows, a
//! transposition table keyed by Zobrist hashing, and move ordering (table move, then
//! bear-offs, builds, advances into D, other advances, entries; history breaks the rest).
//!
//! Proven results score `WIN - plies`, so the search prefers the quickest win and the
//! slowest loss (a result read from the endgame table, whose length is unknown, scores
//! `WIN - 500 - plies`); the table stores them relative to the node. A search stops at its depth, its
//! node budget or its deadline, or as soon as an iteration proves the result or never
//! reached its horizon (the whole game tree below the root was searched).

use super::eval::{evaluate, WIN, WIN_BOUND};
use super::zobrist;
use std::sync::Arc;
use std::time::Instant;
use tabula_grasshopper::endgame::EndgameTable;
use tabula_grasshopper::solver::Value;
use tabula_grasshopper::{Action, Position};

/// A win read from the endgame table, less the plies to reach it: proven (beyond
/// `WIN_BOUND`), but below every win the search has seen to the end, whose length it knows.
const TABLE_WIN: i32 = WIN - 500;

const INF: i32 = WIN + 1;

/// What one decision may spend.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub max_depth: u32,
    /// Searched positions before the search stops (checked every 1,024 nodes).
    pub nodes: u64,
    /// A wall-clock deadline, when the budget is time.
    pub deadline: Option<Instant>,
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    score: i32,
    best: Option<Action>,
    depth: u8,
    bound: Bound,
    /// The subtree was searched to the end of the game: the bound holds at any depth.
    complete: bool,
    generation: u16,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    best: None,
    depth: 0,
    bound: Bound::Exact,
    complete: false,
    generation: 0,
};

/// The result of one search.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    /// The action chosen; `None` when the game is over.
    pub best: Option<Action>,
    /// Its score for the side to move.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
}

/// A searcher with its own transposition table. Entries of earlier decisions are ignored
/// (each decision has its own generation), so a decision depends only on its position,
/// its limits and the root order it is given.
pub struct Searcher {
    table: Vec<Entry>,
    generation: u16,
    history: Box<[[u32; 25]; 25]>,
    nodes: u64,
    limits: Limits,
    aborted: bool,
    horizon: bool,
    tables: Option<Arc<EndgameTable>>,
}

fn square(p: Option<tabula_grasshopper::Point>) -> usize {
    p.map_or(0, |p| usize::from(p.number()))
}

/// A static order key: higher first.
fn order_key(a: Action) -> u32 {
    match a {
        Action::BearOff { .. } => 900,
        Action::Build { from } => 600 + u32::from(from.number()),
        Action::Advance { to, .. } if to.number() > 18 => 500,
        Action::Advance { to, .. } => 300 + u32::from(to.number()),
        Action::Enter { .. } => 200,
        Action::Discard { .. } => 100,
        Action::Pass => 0,
    }
}

impl Searcher {
    /// A searcher whose table has `2^bits` entries.
    pub fn new(bits: u32) -> Searcher {
        Searcher {
            table: vec![EMPTY; 1 << bits],
            generation: 0,
            history: Box::new([[0; 25]; 25]),
            nodes: 0,
            limits: Limits {
                max_depth: 1,
                nodes: u64::MAX,
                deadline: None,
            },
            aborted: false,
            horizon: false,
            tables: None,
        }
    }

    /// The same searcher, reading exact values from `tables` wherever both sides have at
    /// most its `k` checkers left: such a position is a leaf with a proven score.
    pub fn with_tables(mut self, tables: Option<Arc<EndgameTable>>) -> Searcher {
        self.tables = tables;
        self
    }

    fn start(&mut self, limits: Limits) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill(EMPTY);
            self.generation = 1;
        }
        *self.history = [[0; 25]; 25];
        self.nodes = 0;
        self.limits = limits;
        self.aborted = false;
    }

    /// Iterative deepening from `pos`; `root` lists its legal actions in the order to try
    /// them first among equals (the caller may shuffle them by seed).
    pub fn search(&mut self, pos: &Position, root: &[Action], limits: Limits) -> Outcome {
        self.start(limits);
        let mut out = Outcome {
            best: root.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if root.len() <= 1 {
            return out;
        }
        let mut order: Vec<Action> = root.to_vec();
        order.sort_by_key(|&a| std::cmp::Reverse(order_key(a)));
        for depth in 1..=limits.max_depth {
            self.horizon = false;
            let mut alpha = -INF;
            let mut best: Option<(Action, i32)> = None;
            for (i, &a) in order.iter().enumerate() {
                let child = pos.play(a).expect("root actions are legal");
                let score = if i == 0 {
                    -self.negamax(&child, depth - 1, 1, -INF, -alpha)
                } else {
                    let s = -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha);
                    if s > alpha && !self.aborted {
                        -self.negamax(&child, depth - 1, 1, -INF, -alpha)
                    } else {
                        s
                    }
                };
                if self.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best = Some((a, score));
                }
            }
            if let Some((a, s)) = best {
                // A partly searched iteration still ends with a move at least as good as the
                // previous iteration's best, which it searched first.
                out.best = Some(a);
                out.score = s;
                let i = order.iter().position(|&m| m == a).expect("in order");
                order[..=i].rotate_right(1);
            }
            if self.aborted {
                break;
            }
            out.depth = depth;
            if out.score.abs() >= WIN_BOUND || !self.horizon {
                break;
            }
        }
        out.nodes = self.nodes;
        out
    }

    /// The score of every root action, each searched with a full window to `depth` plies
    /// below it (for noisy levels, which need every score, not just the best).
    pub fn root_scores(&mut self, pos: &Position, root: &[Action], limits: Limits) -> Vec<i32> {
        self.start(limits);
        let depth = limits.max_depth.saturating_sub(1);
        let mut scores = Vec::with_capacity(root.len());
        for &a in root {
            let child = pos.play(a).expect("root actions are legal");
            let mut s = 0;
            // Deepen each action within its budget share, keeping the last complete score.
            for d in 0..=depth {
                self.aborted = false;
                let v = -self.negamax(&child, d, 1, -INF, INF);
                if self.aborted {
                    break;
                }
                s = v;
            }
            scores.push(s);
        }
        scores
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.limits.nodes {
            self.aborted = true;
        }
        if let Some(deadline) = self.limits.deadline {
            if Instant::now() >= deadline {
                self.aborted = true;
            }
        }
    }

    fn negamax(&mut self, pos: &Position, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        let moves = pos.legal_actions();
        if moves.is_empty() {
            return match pos.winner() {
                // The winner is the player who just moved.
                Some(w) if w == pos.turn() => WIN - ply as i32,
                Some(_) => -(WIN - ply as i32),
                None => 0,
            };
        }
        if let Some(value) = self.tables.as_ref().and_then(|t| t.value(pos)) {
            return match value {
                Value::Win => TABLE_WIN - ply as i32,
                Value::Draw => 0,
                Value::Loss => -(TABLE_WIN - ply as i32),
            };
        }
        if depth == 0 {
            self.horizon = true;
            return evaluate(pos);
        }
        let key = zobrist::key(pos);
        let slot = (key as usize) & (self.table.len() - 1);
        let entry = self.table[slot];
        let mut tt_move = None;
        if entry.key == key && entry.generation == self.generation {
            tt_move = entry.best;
            if u32::from(entry.depth) >= depth {
                let s = from_table(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    if !entry.complete {
                        self.horizon = true;
                    }
                    return s;
                }
            }
        }
        let mut ordered: Vec<(u32, Action)> = moves
            .iter()
            .map(|&a| {
                let k = if Some(a) == tt_move {
                    u32::MAX
                } else {
                    order_key(a) * 4096 + self.history[square(a.from())][square(a.to())].min(4095)
                };
                (k, a)
            })
            .collect();
        ordered.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let alpha0 = alpha;
        // Whether this subtree reaches the horizon, apart from what the caller saw so far.
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let mut best = -INF;
        let mut best_move = None;
        for (i, &(_, a)) in ordered.iter().enumerate() {
            let child = pos.play(a).expect("generated actions are legal");
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let s = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.aborted {
                self.horizon = true;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(a);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let h = &mut self.history[square(a.from())][square(a.to())];
                *h = h.saturating_add(depth * depth);
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
        let complete = !self.horizon;
        self.horizon |= outer_horizon;
        self.table[slot] = Entry {
            key,
            score: to_table(best, ply),
            best: best_move,
            depth: if complete {
                u8::MAX
            } else {
                depth.min(254) as u8
            },
            bound,
            complete,
            generation: self.generation,
        };
        best
    }
}

/// Proven results are stored relative to the node, not the root.
fn to_table(s: i32, ply: u32) -> i32 {
    if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_table(s: i32, ply: u32) -> i32 {
    if s >= WIN_BOUND {
        s - ply as i32
    } else if s <= -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}
