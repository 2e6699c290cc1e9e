//! The Never-Finishing bot: the tables evaluator (which counts trapped checkers) over the
//! legal plays with the trap choice. There is no cube, so every decision is a play.

use crate::backgammon::Heuristic;
use crate::search::choose_play;
use crate::Level;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabula_core::{Decision, Game, Status};
use tabula_tables::never_finishing::{Action, NeverFinishing};
use tabula_tables::TablesGen;

/// A Never-Finishing bot of a given level.
pub struct NfBot {
    level: Level,
    rng: ChaCha8Rng,
    gen: TablesGen,
    replies: (TablesGen, tabula_tables::Trapping),
}

impl NfBot {
    /// A bot of `level` whose random choices come from `seed`.
    pub fn new(level: Level, seed: u64) -> NfBot {
        NfBot {
            level,
            rng: ChaCha8Rng::seed_from_u64(seed),
            gen: TablesGen::new(),
            replies: (TablesGen::new(), tabula_tables::Trapping::On),
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
        let choice = choose_play(
            self.level,
            &mut self.rng,
            &Heuristic,
            &mut self.replies,
            &candidates,
        );
        Some(Action::Move(choice))
    }
}

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
