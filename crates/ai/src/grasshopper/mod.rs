//! The Grasshopper bot: alpha-beta search (negamax, iterative deepening, a Zobrist-keyed
//! transposition table, move ordering) over a hand-made evaluation of supply lines, walls,
//! mobility, blocking and the score state.
//!
//! Levels: `easy` searches two plies and adds seeded noise to every root score; `medium`
//! searches four plies; `strong` deepens until its node budget (under a second per decision
//! on the 2-core development machine) or until the result is proven, reading exact values
//! from the cached endgame table ([`tables`]) where both sides are down to its `k`. A budget of nodes keeps
//! every level deterministic per seed; the seed also shuffles the root order, so that equal
//! moves are chosen differently from game to game. `random` picks a uniformly random action.
//! Agreement with the exact solver on the solved small games is in `docs/bots.md`.

mod eval;
mod search;
pub mod tables;
#[cfg(test)]
mod tests;
mod zobrist;

pub use eval::{evaluate, WIN_BOUND};
pub use search::{Limits, Outcome, Searcher};
pub use zobrist::key;

use crate::{Bot, Budget, Level};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Instant;
use tabula_core::{Game, Status};
use tabula_grasshopper::endgame::EndgameTable;
use tabula_grasshopper::{Action, Grasshopper, Position};

/// The node budget of `strong` per decision: 0.46 s on the idle 2-core development machine,
/// 0.61-0.64 s with the other core busy (release build, `docs/bots.md`), inside the 1 s
/// target. It was 1,500,000 until the
/// budget was measured to pay (`OLD_STRONG_NODES`).
pub const STRONG_NODES: u64 = 4_000_000;
/// The budget `strong` had before the endgame tables and the larger budget, kept to measure
/// the new `strong` against (`cargo run --release -p tabula-ai --example grasshopper_versus`).
pub const OLD_STRONG_NODES: u64 = 1_500_000;
/// The node budget of `medium`, which stops at four plies first in most positions.
pub const MEDIUM_NODES: u64 = 200_000;
/// The node budget of `easy`.
pub const EASY_NODES: u64 = 20_000;
/// The largest noise added to an `easy` root score (a tenth of a checker is 10).
pub const EASY_NOISE: i32 = 60;

/// A Grasshopper bot of a given level.
pub struct GrasshopperBot {
    level: Level,
    budget: Budget,
    rng: ChaCha8Rng,
    searcher: Option<Searcher>,
    last: Option<Outcome>,
    tables: Option<Arc<EndgameTable>>,
}

impl GrasshopperBot {
    /// A bot of `level` with the level's default budget, seeded with `seed`.
    pub fn new(level: Level, seed: u64) -> GrasshopperBot {
        GrasshopperBot::with_budget(level, seed, Budget::Default)
    }

    /// A bot of `level` with a given budget per decision.
    pub fn with_budget(level: Level, seed: u64, budget: Budget) -> GrasshopperBot {
        GrasshopperBot {
            level,
            budget,
            rng: ChaCha8Rng::seed_from_u64(seed),
            searcher: None,
            last: None,
            tables: match level {
                Level::Strong => tables::shared(),
                _ => None,
            },
        }
    }

    /// The same bot with the given endgame table (or none) instead of the cached one that
    /// `strong` loads by default ([`tables::shared`]).
    pub fn with_tables(mut self, tables: Option<Arc<EndgameTable>>) -> GrasshopperBot {
        self.tables = tables;
        self.searcher = None;
        self
    }

    /// The endgame table the bot reads, if any.
    pub fn tables(&self) -> Option<&EndgameTable> {
        self.tables.as_deref()
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The last search's result (for benches and diagnostics).
    pub fn last_search(&self) -> Option<Outcome> {
        self.last
    }

    fn limits(&self) -> Limits {
        let (max_depth, default_nodes) = match self.level {
            Level::Random | Level::Easy => (2, EASY_NODES),
            Level::Medium => (4, MEDIUM_NODES),
            Level::Strong => (200, STRONG_NODES),
        };
        let (nodes, deadline) = match self.budget {
            Budget::Default => (default_nodes, None),
            Budget::Nodes(n) => (n.max(1), None),
            Budget::Time(d) => (u64::MAX, Some(Instant::now() + d)),
        };
        Limits {
            max_depth,
            nodes,
            deadline,
        }
    }

    /// The bot's action in `pos`; `None` when the game is over.
    pub fn choose_in(&mut self, pos: &Position) -> Option<Action> {
        let mut root: Vec<Action> = pos.legal_actions().to_vec();
        match root.len() {
            0 => return None,
            1 => return Some(root[0]),
            _ => {}
        }
        if self.level == Level::Random {
            return root.choose(&mut self.rng).copied();
        }
        root.shuffle(&mut self.rng);
        let limits = self.limits();
        let bits = match self.level {
            Level::Strong => 20,
            _ => 16,
        };
        let tables = &self.tables;
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(bits).with_tables(tables.clone()));
        if self.level == Level::Easy {
            let scores = searcher.root_scores(pos, &root, limits);
            let rng = &mut self.rng;
            let noisy = scores
                .iter()
                .map(|&s| s + rng.gen_range(-EASY_NOISE..=EASY_NOISE));
            let (i, _) = noisy
                .enumerate()
                .max_by_key(|&(i, s)| (s, std::cmp::Reverse(i)))
                .expect("at least two actions");
            return Some(root[i]);
        }
        let out = searcher.search(pos, &root, limits);
        self.last = Some(out);
        out.best
    }
}

impl Bot<Grasshopper> for GrasshopperBot {
    fn choose(&mut self, game: &Grasshopper) -> Option<Action> {
        match game.status() {
            Status::Decide { .. } => self.choose_in(game.position()),
            _ => None,
        }
    }
}
