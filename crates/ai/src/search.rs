//! Choosing a play among the legal results of a roll: 0-ply by the evaluator, with noise at
//! the easy level, and a 1-ply look-ahead over the opponent's 21 rolls at the strong level.
//! Shared by every dice game of the tables family; the game supplies its play generator.

use crate::backgammon::Evaluator;
use crate::Level;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tabula_core::Dice;
use tabula_tables::{MoveGen, Position, TablesGen, Trapping};

/// How many 0-ply candidates the strong level examines one ply deeper.
const STRONG_CANDIDATES: usize = 6;
/// Spread of the noise the easy level adds to each play's equity.
const EASY_NOISE: f32 = 0.35;

/// The legal results of a roll under one game's rules.
pub trait Plays {
    /// Every distinct position the mover of `pos` can reach with `dice`.
    fn plays(&mut self, pos: &Position, dice: Dice) -> &[Position];
}

impl Plays for MoveGen {
    fn plays(&mut self, pos: &Position, dice: Dice) -> &[Position] {
        self.positions(pos, dice)
    }
}

impl Plays for (TablesGen, Trapping) {
    fn plays(&mut self, pos: &Position, dice: Dice) -> &[Position] {
        self.0.positions(pos, dice, self.1)
    }
}

/// The chosen result among `candidates` (non-empty, seen from the mover).
pub fn choose_play(
    level: Level,
    rng: &mut ChaCha8Rng,
    eval: &impl Evaluator,
    replies: &mut impl Plays,
    candidates: &[Position],
) -> Position {
    if level == Level::Random {
        return candidates[rng.gen_range(0..candidates.len())];
    }
    // 0-ply: our equity after the play is minus the opponent's, who is then on roll.
    let mut scored: Vec<(f32, Position)> = candidates
        .iter()
        .map(|c| (-eval.evaluate(&c.flip()).equity(), *c))
        .collect();
    if level == Level::Easy {
        for s in &mut scored {
            s.0 += EASY_NOISE * (rng.gen::<f32>() - 0.5) * 2.0;
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    if level == Level::Strong {
        scored.truncate(STRONG_CANDIDATES);
        for s in &mut scored {
            s.0 = one_ply(eval, replies, &s.1);
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    }
    scored[0].1
}

/// Our equity after `after` (seen from us), averaged over the opponent's 21 rolls with the
/// opponent's best 0-ply reply to each.
fn one_ply(eval: &impl Evaluator, replies: &mut impl Plays, after: &Position) -> f32 {
    let theirs = after.flip();
    if theirs.opponent_off() == 15 {
        return -eval.evaluate(&theirs).equity();
    }
    let mut total = 0.0;
    for dice in Dice::all() {
        let options = replies.plays(&theirs, dice);
        // With no reply the opponent passes and we are on roll in `after`.
        let ours = if options.is_empty() {
            eval.evaluate(after).equity()
        } else {
            options
                .iter()
                .map(|r| eval.evaluate(&r.flip()).equity())
                .fold(f32::INFINITY, f32::min)
        };
        total += ours * dice.weight() as f32;
    }
    total / 36.0
}
