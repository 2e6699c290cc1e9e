//! The exact solver: alpha-beta negamax over the three values loss, draw and win, with a
//! transposition table of proven bounds.
//!
//! Every action moves a checker forward or removes one, so the game graph has no cycle but
//! the pass, and a pass answered by a pass ends the game: the search always terminates. A
//! position's value is from the side to move; a bear-off by the player who scored last wins
//! at once and is tried first. Positions without a move are not stored: their value is a draw
//! after a pass, else the opponent's after passing. [`Solver::best_move`] finds, in any
//! position, an action that keeps its value, so the solver is also a perfect player. Given an
//! endgame table ([`Solver::with_endgame`]), it reads the value of every position the table
//! covers instead of searching below it.

mod key;
mod table;

use crate::endgame::EndgameTable;
pub use crate::value::Value;
use crate::{Action, Checkers, Position};
use std::time::{Duration, Instant};
use table::{Bounds, Table};
use tabula_core::Color;

/// How far a solve has come, passed to the progress callback about every million nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched so far (with repetitions through the table).
    pub nodes: u64,
    /// Positions in the transposition table.
    pub positions: u64,
    /// Time since the solver was made.
    pub elapsed: Duration,
}

/// The result of solving a game's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveReport {
    /// Checkers per player.
    pub checkers: Checkers,
    /// The value for the side to move in the position solved (White at a game's start).
    pub value: Value,
    /// The winner under best play; `None` for a draw.
    pub winner: Option<Color>,
    /// A best first move.
    pub best_move: Option<Action>,
    /// Positions stored in the transposition table (proven bounds).
    pub positions: u64,
    /// Positions searched, counting every visit.
    pub nodes: u64,
    /// Wall-clock time of the solve.
    pub elapsed: Duration,
    /// Whether the table reached its memory limit (the result is still exact).
    pub table_full: bool,
}

impl SolveReport {
    /// Positions searched per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Default table limit: 2^30 slots, 8 GiB.
pub const DEFAULT_MAX_SLOTS: usize = 1 << 30;

/// Nodes between two progress reports.
const PROGRESS_EVERY: u64 = 1 << 20;

/// An exact solver with its transposition table; keep it to answer many positions of one
/// game quickly.
pub struct Solver<'a> {
    table: Table,
    endgame: Option<&'a EndgameTable>,
    nodes: u64,
    started: Instant,
    progress: Option<Box<dyn FnMut(Progress) + 'a>>,
}

impl Default for Solver<'_> {
    fn default() -> Self {
        Solver::new()
    }
}

impl<'a> Solver<'a> {
    /// A solver whose table may grow to [`DEFAULT_MAX_SLOTS`].
    pub fn new() -> Solver<'a> {
        Solver::with_max_slots(DEFAULT_MAX_SLOTS)
    }

    /// A solver whose table may grow to `max_slots` positions' slots (8 bytes each).
    pub fn with_max_slots(max_slots: usize) -> Solver<'a> {
        Solver {
            table: Table::new(16, max_slots),
            endgame: None,
            nodes: 0,
            started: Instant::now(),
            progress: None,
        }
    }

    /// Reads the exact value of every position with at most the table's `k` checkers a side
    /// from `table` instead of searching below it.
    pub fn with_endgame(mut self, table: &'a EndgameTable) -> Solver<'a> {
        self.endgame = Some(table);
        self
    }

    /// Calls `f` about every million nodes searched.
    pub fn on_progress(&mut self, f: impl FnMut(Progress) + 'a) {
        self.progress = Some(Box::new(f));
    }

    /// Positions stored so far.
    pub fn positions(&self) -> u64 {
        self.table.len() as u64
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the table reached its limit.
    pub fn table_full(&self) -> bool {
        self.table.is_full()
    }

    /// The value of `pos` for the side to move (a finished game's value is its result).
    pub fn solve(&mut self, pos: &Position) -> Value {
        Value::from_score(self.search(pos, -1, 1))
    }

    /// An action that keeps the value of `pos` for the side to move: a win stays a win, a
    /// draw at least a draw. `None` when the game is over.
    pub fn best_move(&mut self, pos: &Position) -> Option<Action> {
        let legal = pos.legal_actions();
        if legal.len() <= 1 {
            return legal.first().copied();
        }
        let v = self.search(pos, -1, 1);
        // The first action, in search order, whose child proves at most -v.
        legal.iter().rev().copied().find(|&a| {
            let child = pos.play_unchecked(a);
            child.won || -self.search(&child, -v, -v + 1) >= v
        })
    }

    /// The value of every legal action in `pos`, for the side to move, in the order listed.
    pub fn action_values(&mut self, pos: &Position) -> Vec<(Action, Value)> {
        pos.legal_actions()
            .iter()
            .map(|&a| {
                let child = pos.play_unchecked(a);
                let v = -self.search(&child, -1, 1);
                (a, Value::from_score(v))
            })
            .collect()
    }

    /// Negamax with a window `alpha < beta` over -1..=1: the exact value when inside the
    /// window, else a bound on the side that failed.
    fn search(&mut self, pos: &Position, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if self.nodes & (PROGRESS_EVERY - 1) == 0 {
            self.report();
        }
        if pos.won {
            // The player who just moved won.
            return if pos.last == Some(pos.turn) { 1 } else { -1 };
        }
        if pos.both_empty() {
            return 0;
        }
        if let Some(v) = self.endgame.and_then(|t| t.value(pos)) {
            return match v {
                Value::Loss => -1,
                Value::Draw => 0,
                Value::Win => 1,
            };
        }
        let moves = pos.moves();
        if moves.is_empty() {
            return if pos.passed {
                0
            } else {
                -self.search(&pos.play_unchecked(Action::Pass), -beta, -alpha)
            };
        }
        let key = key::key(pos);
        let known = self.table.get(key);
        if let Some(b) = known {
            if b.lo == b.hi || b.lo >= beta {
                return b.lo;
            }
            if b.hi <= alpha {
                return b.hi;
            }
            alpha = alpha.max(b.lo);
            beta = beta.min(b.hi);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -2;
        let mut ordered = moves;
        order(&mut ordered);
        for &a in ordered.iter() {
            let child = pos.play_unchecked(a);
            let v = if child.won {
                1
            } else {
                -self.search(&child, -beta, -alpha)
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let mut b = known.unwrap_or(Bounds { lo: -1, hi: 1 });
        if best <= alpha0 {
            b.hi = b.hi.min(best);
        } else if best >= beta0 {
            b.lo = b.lo.max(best);
        } else {
            b = Bounds { lo: best, hi: best };
        }
        if b.lo > -1 || b.hi < 1 {
            self.table.put(key, b);
        }
        best
    }

    fn report(&mut self) {
        let p = Progress {
            nodes: self.nodes,
            positions: self.table.len() as u64,
            elapsed: self.started.elapsed(),
        };
        if let Some(f) = self.progress.as_mut() {
            f(p);
        }
    }
}

/// Sorts actions best-first for the search: bear-offs, builds, advances into D, other
/// advances from the front, discards, entries from the low points (measured on N = 4: five
/// times fewer nodes than generation order).
fn order(moves: &mut crate::MoveList) {
    moves.sort_by_key(|a| std::cmp::Reverse(priority(*a)));
}

fn priority(a: Action) -> u32 {
    match a {
        Action::BearOff { .. } => 1000,
        Action::Build { from } => 500 + u32::from(from.number()),
        Action::Advance { from, to } => {
            if to.number() > 18 {
                400 + u32::from(from.number())
            } else {
                100 + u32::from(from.number())
            }
        }
        Action::Discard { .. } => 50,
        Action::Enter { to } => 30 - u32::from(to.number()),
        Action::Pass => 0,
    }
}

/// Solves the start with `checkers` each, calling `progress` about every million nodes:
/// what `tabula solve grasshopper --checkers N` runs.
pub fn solve_start(checkers: Checkers, progress: impl FnMut(Progress)) -> SolveReport {
    solve_start_with(checkers, DEFAULT_MAX_SLOTS, progress)
}

/// [`solve_start`] with a table limit of `max_slots` slots (8 bytes each).
pub fn solve_start_with(
    checkers: Checkers,
    max_slots: usize,
    progress: impl FnMut(Progress),
) -> SolveReport {
    solve_position(&Position::start(checkers), max_slots, None, progress)
}

/// Solves any position, with a table limit of `max_slots` slots and, when given, an endgame
/// table for exact leaves: what `tabula solve grasshopper --position` runs.
pub fn solve_position(
    start: &Position,
    max_slots: usize,
    endgame: Option<&EndgameTable>,
    progress: impl FnMut(Progress),
) -> SolveReport {
    let started = Instant::now();
    let checkers = start.checkers();
    let mut solver = Solver::with_max_slots(max_slots);
    if let Some(t) = endgame {
        solver = solver.with_endgame(t);
    }
    solver.on_progress(progress);
    let value = solver.solve(start);
    let best_move = solver.best_move(start);
    SolveReport {
        checkers,
        value,
        winner: value.winner(start.turn()),
        best_move,
        positions: solver.positions(),
        nodes: solver.nodes(),
        elapsed: started.elapsed(),
        table_full: solver.table_full(),
    }
}
