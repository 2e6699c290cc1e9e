//! The Grasshopper (Halma) bot: alpha-beta with iterative deepening over an evaluation of the
//! distance to the target camp, jump lanes and pieces left behind (see [`eval`]).
//!
//! Levels: `easy` searches one ply and adds seeded noise to every move's score; `medium`
//! searches two plies; `strong` deepens iteratively within a node budget
//! ([`STRONG_NODES`] by default, about a second per decision on a 2-core machine). Every
//! level finishes its games: at the root a move back to a position that already stood is
//! penalised, and a move that would draw by threefold repetition scores as a draw (0), so it
//! is chosen only when every other move looks worse than a draw. The search knows the
//! evacuation rule (a loss is a loss at any depth) and the evaluation presses pieces still at
//! home harder as the deadline nears, so the bots leave their camp in time and never move
//! back into it; an opponent who does not gets the loss the rule gives.

pub mod eval;
pub mod search;
#[cfg(test)]
mod tests;

use crate::bot::{Bot, Budget};
use crate::Level;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::{Found, Limits, Searcher};
use std::time::Instant;
use tabula_core::{Game, Status};
use tabula_halma::{Action, DrawKind, End, HalmaGrasshopper, Move};

/// The strong level's default node budget per decision.
pub const STRONG_NODES: u64 = 400_000;
/// The deepest iteration of the strong level.
const STRONG_DEPTH: u32 = 32;
/// The root penalty for a move back to a position that already stood (with the same side to
/// move): about two moves' worth of progress, so the bot shuffles only when nothing else helps.
const REPEAT_PENALTY: i32 = 150;
/// The root penalty per ply played so far for a move that makes no progress.
const STALL_PER_PLY: i32 = 1;
/// The largest such penalty.
const STALL_MAX: i32 = 600;
/// The easy level's noise: a uniform penalty in `0..EASY_NOISE` on every root move.
const EASY_NOISE: i32 = 120;

/// A Grasshopper (Halma) bot of one level.
pub struct HalmaBot {
    level: Level,
    budget: Budget,
    rng: ChaCha8Rng,
    searcher: Searcher,
    last: Option<Found>,
}

impl HalmaBot {
    /// A bot of `level` (easy, medium or strong; random plays as easy here, the factory builds
    /// the random bot), seeded with `seed`, with the level's default budget.
    pub fn new(level: Level, seed: u64) -> HalmaBot {
        HalmaBot::with_budget(level, seed, Budget::Default)
    }

    /// A bot with another budget: `Nodes(n)` bounds every decision to `n` nodes, `Time(t)` to
    /// `t` (not deterministic).
    pub fn with_budget(level: Level, seed: u64, budget: Budget) -> HalmaBot {
        HalmaBot {
            level,
            budget,
            rng: ChaCha8Rng::seed_from_u64(seed),
            searcher: Searcher::new(),
            last: None,
        }
    }

    /// The last search's result (best move, score, depth, nodes), for reports.
    pub fn last_search(&self) -> Option<Found> {
        self.last
    }

    fn limits(&self) -> Limits {
        let (max_depth, default_nodes) = match self.level {
            Level::Random | Level::Easy => (1, u64::MAX),
            Level::Medium => (2, u64::MAX),
            Level::Strong => (STRONG_DEPTH, STRONG_NODES),
        };
        let (nodes, deadline) = match self.budget {
            Budget::Default => (default_nodes, None),
            Budget::Nodes(n) => (n.max(1), None),
            Budget::Time(t) => (u64::MAX, Some(Instant::now() + t)),
        };
        Limits {
            max_depth,
            nodes,
            deadline,
        }
    }

    /// The root moves with their penalties: repetitions, and the easy level's noise.
    fn root_moves(&mut self, game: &HalmaGrasshopper) -> Vec<(Move, i32)> {
        let pos = *game.position();
        let moves: Vec<Move> = pos.moves().collect();
        // Waiting grows dearer as the game goes on: two blocked armies, each waiting for the
        // other to open a lane, would otherwise shuffle until the ply limit.
        let stall = (pos.ply() as i32 * STALL_PER_PLY).min(STALL_MAX);
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut after = game.clone();
            // The move comes from the generator, so it is legal.
            let _ = after.apply(&Action::Move(mv));
            let mut pen = match after.end() {
                Some(End::Draw(DrawKind::Repetition)) => eval::WIN,
                _ if after.repetitions() >= 2 => REPEAT_PENALTY,
                _ => 0,
            };
            if eval::progress(pos.size(), pos.to_move(), mv.from, mv.to) <= 0 {
                pen += stall;
            }
            if self.level <= Level::Easy && pen < eval::WIN {
                pen += self.rng.gen_range(0..EASY_NOISE);
            }
            out.push((mv, pen));
        }
        out
    }
}

impl Bot<HalmaGrasshopper> for HalmaBot {
    fn choose(&mut self, game: &HalmaGrasshopper) -> Option<Action> {
        if !matches!(game.status(), Status::Decide { .. }) {
            return None;
        }
        let root = self.root_moves(game);
        if root.is_empty() {
            return Some(Action::Pass);
        }
        let limits = self.limits();
        let found = self
            .searcher
            .search(game.position(), &root, limits, game.evacuation());
        self.last = Some(found);
        Some(Action::Move(found.best))
    }
}

/// Plays one game from the start of a board of `size` between two bots; returns how it ended
/// (`None` if a bot gave no action) and the number of plies.
pub fn play_game(
    size: tabula_halma::BoardSize,
    white: &mut dyn Bot<HalmaGrasshopper>,
    black: &mut dyn Bot<HalmaGrasshopper>,
) -> (Option<End>, u32) {
    let mut game = HalmaGrasshopper::new(size);
    while let Status::Decide { player, .. } = game.status() {
        let bot: &mut dyn Bot<HalmaGrasshopper> = match player {
            tabula_core::Color::White => &mut *white,
            tabula_core::Color::Black => &mut *black,
        };
        let Some(action) = bot.choose(&game) else {
            break;
        };
        game.apply(&action).expect("bots play legal actions");
    }
    (game.end(), game.position().ply())
}
