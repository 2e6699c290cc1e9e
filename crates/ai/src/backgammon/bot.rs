//! The backgammon bot: moves by search over the evaluator, cube and resignation answers from
//! its chances. Deterministic for a given level and seed.

use super::eval::{Evaluator, Heuristic, Probabilities};
use crate::Level;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_core::{Decision, Dice, Game, Status};
use tabula_tables::backgammon::{Action, Backgammon, Phase};
use tabula_tables::{MoveGen, Position};

/// How many 0-ply candidates the strong level examines one ply deeper.
const STRONG_CANDIDATES: usize = 6;
/// Standard deviation-like spread of the noise the easy level adds to each move's equity.
const EASY_NOISE: f32 = 0.35;

/// A backgammon bot of a given level.
pub struct BackgammonBot {
    level: Level,
    rng: ChaCha8Rng,
    gen: MoveGen,
    reply_gen: MoveGen,
    eval: Heuristic,
}

impl BackgammonBot {
    /// A bot of `level` whose random choices (if any) come from `seed`.
    pub fn new(level: Level, seed: u64) -> BackgammonBot {
        BackgammonBot {
            level,
            rng: ChaCha8Rng::seed_from_u64(seed),
            gen: MoveGen::new(),
            reply_gen: MoveGen::new(),
            eval: Heuristic,
        }
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The bot's choice for the decision the session asks of it. Called at a chance node or
    /// after the end, it returns [`Action::Roll`], which the session refuses.
    pub fn choose(&mut self, session: &Backgammon) -> Action {
        let game = session.game();
        let Status::Decide { decision, .. } = session.status() else {
            return Action::Roll;
        };
        let board = game.board();
        match decision {
            Decision::Move => match game.dice() {
                Some(dice) => self.choose_move(&board, dice),
                None => Action::Roll,
            },
            Decision::DoubleOrRoll => {
                if self.level != Level::Random && should_double(&self.eval.evaluate(&board)) {
                    Action::Double
                } else {
                    Action::Roll
                }
            }
            Decision::TakeOrDrop => {
                // The board is seen from the doubler; our chances are the flip.
                let ours = self.eval.evaluate(&board).flip();
                let beaver_allowed = session.legal_actions().contains(&Action::Beaver);
                match self.level {
                    Level::Random => Action::Take,
                    _ if beaver_allowed && ours.equity() > 0.1 => Action::Beaver,
                    // Taking doubles the stake: take while the doubled loss is smaller than
                    // the single point a drop costs.
                    _ if ours.equity() >= -0.5 => Action::Take,
                    _ => Action::Drop,
                }
            }
            Decision::ResignationAnswer => {
                let Phase::Resigning { level, .. } = game.phase() else {
                    return Action::RejectResignation;
                };
                let ours = self.eval.evaluate(&board).flip();
                if self.level != Level::Random && level.multiplier() as f32 >= ours.equity() {
                    Action::AcceptResignation
                } else {
                    Action::RejectResignation
                }
            }
        }
    }

    fn choose_move(&mut self, board: &Position, dice: Dice) -> Action {
        let candidates = self.gen.positions(board, dice).to_vec();
        if candidates.is_empty() {
            return Action::Roll;
        }
        if self.level == Level::Random {
            return Action::Move(candidates[self.rng.gen_range(0..candidates.len())]);
        }
        // 0-ply: our equity after the move is minus the opponent's, who is then on roll.
        let mut scored: Vec<(f32, Position)> = candidates
            .iter()
            .map(|c| (-self.eval.evaluate(&c.flip()).equity(), *c))
            .collect();
        if self.level == Level::Easy {
            for s in &mut scored {
                s.0 += EASY_NOISE * (self.rng.gen::<f32>() - 0.5) * 2.0;
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        if self.level == Level::Strong {
            scored.truncate(STRONG_CANDIDATES);
            for s in &mut scored {
                s.0 = self.one_ply(&s.1);
            }
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        Action::Move(scored[0].1)
    }

    /// Our equity after `after` (seen from us), averaged over the opponent's 21 rolls with
    /// the opponent's best 0-ply reply to each.
    fn one_ply(&mut self, after: &Position) -> f32 {
        let theirs = after.flip();
        if theirs.opponent_off() == 15 {
            return -self.eval.evaluate(&theirs).equity();
        }
        let mut total = 0.0;
        for dice in Dice::all() {
            let replies = self.reply_gen.positions(&theirs, dice);
            // With no reply the opponent passes and we are on roll in `after`.
            let ours = if replies.is_empty() {
                self.eval.evaluate(after).equity()
            } else {
                replies
                    .iter()
                    .map(|r| self.eval.evaluate(&r.flip()).equity())
                    .fold(f32::INFINITY, f32::min)
            };
            total += ours * dice.weight() as f32;
        }
        total / 36.0
    }
}

/// Double when the position is strong enough that the opponent should think about dropping,
/// but not so strong that playing on for a gammon is worth more.
fn should_double(p: &Probabilities) -> bool {
    let too_good = p.win > 0.85 && p.win_gammon > 0.4;
    p.win >= 0.68 && !too_good
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{ChaChaDice, DiceSource};
    use tabula_tables::backgammon::Options;

    fn play_out(white: Level, black: Level, seed: u64) -> Backgammon {
        let mut s = Backgammon::new(Options::match_to(3).unwrap()).unwrap();
        let mut dice = ChaChaDice::new(seed);
        let mut bots = [
            BackgammonBot::new(white, seed),
            BackgammonBot::new(black, seed + 1),
        ];
        for _ in 0..20_000 {
            match s.status() {
                Status::Over(_) => return s,
                Status::Chance(_) => s.roll(dice.roll()).unwrap(),
                Status::Decide { player, .. } => {
                    let a = bots[player.index()].choose(&s);
                    s.apply(&a).unwrap();
                }
            }
        }
        panic!("match did not finish");
    }

    #[test]
    fn every_level_finishes_a_match_with_legal_actions() {
        for level in Level::ALL {
            let s = play_out(level, Level::Random, 3);
            assert!(s.is_over());
        }
    }

    #[test]
    fn bots_are_deterministic_for_a_seed() {
        let a = play_out(Level::Easy, Level::Strong, 11);
        let b = play_out(Level::Easy, Level::Strong, 11);
        assert_eq!(a.events(), b.events());
    }

    #[test]
    fn medium_beats_random_most_of_the_time() {
        let wins = (0..10)
            .filter(|&seed| {
                let s = play_out(Level::Medium, Level::Random, seed);
                s.score().white > s.score().black
            })
            .count();
        assert!(wins >= 8, "medium won {wins} of 10 matches against random");
    }
}
