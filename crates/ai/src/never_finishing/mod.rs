//! The Never-Finishing bot: an evaluator over the legal plays with the trap choice, chosen
//! by level through [`choose_play`]. There is no cube, so every decision is a play.
//!
//! The evaluator is the Never-Finishing net ([`NfEvaluator`], trained here by self-play) at
//! every level but random; the hand-made backgammon evaluator (which counts trapped
//! checkers) that the bot used before stays selectable ([`NfEvalKind::Heuristic`]) to
//! measure the net against it.
//!
//! - [`encode`]: the net's inputs;
//! - [`eval`]: the evaluator on the net.

pub mod encode;
pub mod eval;

pub use eval::NfEvaluator;

use crate::backgammon::Heuristic;
use crate::search::{choose_play, choose_play_at};
use crate::study::filter::Filter;

/// How many rolls ahead strong looks on the net. Two plies (as in backgammon) averaged
/// 446 ms a decision with a worst case of 5.2 s: positions with trapped checkers go to the
/// general move generator, and 4 candidates x 21 x 21 rolls of it are too slow. One ply keeps
/// every decision well within a second (docs/bots.md); the old heuristic bot keeps two.
pub const NF_STRONG_PLIES: u32 = 1;
/// Which candidates strong looks at on the net: the best 4 at 0-ply, as before backgammon's
/// filter widened (issue 27).
pub const NF_STRONG_FILTER: Filter = Filter {
    keep: 4,
    within: f32::INFINITY,
    at_least: 4,
};
use crate::Level;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabula_core::{Decision, Game, Status};
use tabula_tables::never_finishing::{Action, NeverFinishing};
use tabula_tables::TablesGen;

/// Which evaluator a Never-Finishing bot plays on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NfEvalKind {
    /// The shipped Never-Finishing net (the default).
    Neural,
    /// The hand-made backgammon evaluator the bot played on before the net (for
    /// measurement).
    Heuristic,
}

/// The evaluator in use.
#[derive(Debug, Clone, Copy)]
enum NfEval {
    Neural(&'static NfEvaluator),
    Heuristic,
}

/// A Never-Finishing bot of a given level.
pub struct NfBot {
    level: Level,
    rng: ChaCha8Rng,
    gen: TablesGen,
    replies: (TablesGen, tabula_tables::Trapping),
    eval: NfEval,
}

impl NfBot {
    /// A bot of `level` on the shipped net whose random choices come from `seed`.
    pub fn new(level: Level, seed: u64) -> NfBot {
        NfBot::with_eval(level, seed, NfEvalKind::Neural)
    }

    /// A bot of `level` on the evaluator `kind`.
    pub fn with_eval(level: Level, seed: u64, kind: NfEvalKind) -> NfBot {
        let eval = match kind {
            NfEvalKind::Neural => NfEval::Neural(NfEvaluator::shipped()),
            NfEvalKind::Heuristic => NfEval::Heuristic,
        };
        NfBot {
            level,
            rng: ChaCha8Rng::seed_from_u64(seed),
            gen: TablesGen::new(),
            replies: (TablesGen::new(), tabula_tables::Trapping::On),
            eval,
        }
    }

    /// A bot of `level` on other nets than the shipped ones (a training checkpoint).
    pub fn with_net(level: Level, seed: u64, net: &'static NfEvaluator) -> NfBot {
        NfBot {
            eval: NfEval::Neural(net),
            ..NfBot::with_eval(level, seed, NfEvalKind::Heuristic)
        }
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The bot's play when the session asks it to move; `None` at any other moment.
    pub fn choose(&mut self, session: &NeverFinishing) -> Option<Action> {
        let Status::Decide {
            decision: Decision::Move,
            ..
        } = session.status()
        else {
            return None;
        };
        let game = session.game();
        let dice = game.dice()?;
        self.replies.1 = game.trapping();
        let candidates = self
            .gen
            .positions(&game.board(), dice, game.trapping())
            .to_vec();
        if candidates.is_empty() {
            return None;
        }
        let choice = match self.eval {
            NfEval::Neural(net) => choose_play_at(
                self.level,
                &mut self.rng,
                net,
                &mut self.replies,
                &candidates,
                NF_STRONG_PLIES,
                NF_STRONG_FILTER,
                0,
                None,
            ),
            NfEval::Heuristic => choose_play(
                self.level,
                &mut self.rng,
                &Heuristic,
                &mut self.replies,
                &candidates,
            ),
        };
        Some(Action::Move(choice))
    }
}

#[cfg(test)]
mod nn_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{ChaChaDice, DiceSource};
    use tabula_tables::never_finishing::{NfOptions, Scoring};

    fn play_out(white: Level, black: Level, seed: u64) -> NeverFinishing {
        let options = NfOptions {
            scoring: Scoring::Match { length: 1 },
            ..NfOptions::default()
        };
        let mut s = NeverFinishing::new(options).unwrap();
        let mut dice = ChaChaDice::new(seed);
        let mut bots = [NfBot::new(white, seed), NfBot::new(black, seed + 1)];
        for _ in 0..20_000 {
            match s.status() {
                Status::Over(_) => return s,
                Status::Chance(_) => s.roll(dice.roll()).unwrap(),
                Status::Decide { player, .. } => {
                    let a = bots[player.index()].choose(&s).unwrap();
                    s.apply(&a).unwrap();
                }
            }
        }
        panic!("game did not finish in 20,000 steps");
    }

    #[test]
    fn every_level_finishes_a_game_with_legal_moves() {
        for level in Level::ALL {
            assert!(play_out(level, Level::Random, 5).is_over());
        }
    }

    #[test]
    fn medium_beats_random_most_of_the_time() {
        let wins = (0..10)
            .filter(|&seed| {
                let s = play_out(Level::Medium, Level::Random, seed);
                s.score().white > s.score().black
            })
            .count();
        assert!(wins >= 7, "medium won {wins} of 10 games against random");
    }
}
