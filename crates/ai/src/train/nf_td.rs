//! TD(lambda) self-play for the Never-Finishing net, the sibling of [`super::td`] (same
//! method, same [`TdConfig`], one net instead of two).
//!
//! Each game starts from Never-Finishing's start (fifteen checkers a side on the opponent's
//! one-point) and is played by the current net at 0-ply on the trapping move generator; the
//! dice are the only exploration. Every position the player on roll faces is a training
//! example whose target is its lambda-return, walked back from the end as in [`super::td`].
//!
//! A game ends for training at the first position the net is not asked about
//! ([`NfEvaluator::known`]): a finished board, or a race with nothing trapped and both sides
//! home, which the bear-off database answers exactly; that value is the game's result and
//! the bear-off that would follow is not played. A game also ends as a **draw** (target: win
//! 0.5, no gammons) when the position is dead (no roll moves either side, the rules' draw)
//! or after [`MAX_PLIES`] plies without an end (never seen in practice; kept so that a
//! pathological game cannot stall a run). Draws are trained on, not dropped.

use super::td::{flip, roll, to_array, TdConfig};
use crate::backgammon::nn::encode::Inputs;
use crate::backgammon::nn::net::{Net, OUTPUTS};
use crate::backgammon::Evaluator;
use crate::never_finishing::encode::encode;
use crate::never_finishing::NfEvaluator;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_core::Dice;
use tabula_tables::never_finishing::start_position;
use tabula_tables::{Position, TablesGen, Trapping};

/// Plies after which a game is scored a draw.
pub const MAX_PLIES: usize = 2_000;

/// The result of a draw, from either side.
pub const DRAW: [f32; OUTPUTS] = [0.5, 0.0, 0.0, 0.0, 0.0];

/// The position after the 0-ply choice of `eval` with `dice` on Never-Finishing's move
/// generator (the mover's view, not flipped), or `None` when no move is legal.
pub fn best_play(
    eval: &impl Evaluator,
    gen: &mut TablesGen,
    pos: &Position,
    dice: Dice,
) -> Option<Position> {
    gen.positions(pos, dice, Trapping::On)
        .iter()
        .map(|c| (eval.evaluate(&c.flip()).equity(), *c))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Whether no roll moves either side of `pos`: the game can never change (a draw).
pub fn is_dead(gen: &mut TablesGen, pos: &Position) -> bool {
    [*pos, pos.flip()]
        .iter()
        .all(|p| Dice::all().all(|d| gen.positions(p, d, Trapping::On).is_empty()))
}

/// One position a game met: its inputs and its value by the frozen net, from its mover's
/// view.
struct Step {
    inputs: Inputs,
    value: [f32; OUTPUTS],
}

/// Plays game `index` of the run and returns its steps and the result after the last move,
/// from the view of the last step's mover.
fn play(eval: &NfEvaluator, seed: u64, index: u64) -> (Vec<Step>, [f32; OUTPUTS]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut gen = TablesGen::new();
    let mut pos = start_position();
    let mut steps = Vec::with_capacity(200);
    for _ in 0..MAX_PLIES {
        let mut inputs = Inputs::new();
        encode(&pos, &mut inputs);
        let value = to_array(&eval.net_chances(&inputs, &pos));
        steps.push(Step { inputs, value });
        let dice = roll(&mut rng);
        match best_play(eval, &mut gen, &pos, dice) {
            Some(after) => {
                let next = after.flip();
                if let Some(known) = NfEvaluator::known(&next) {
                    return (steps, flip(&to_array(&known)));
                }
                pos = next;
            }
            None if is_dead(&mut gen, &pos) => return (steps, DRAW),
            None => pos = pos.flip(),
        }
    }
    (steps, DRAW)
}

/// The summed gradient of one game, its loss and its length.
struct GameGrad {
    grad: Net,
    loss: f64,
    examples: usize,
}

fn game_gradient(eval: &NfEvaluator, config: &TdConfig, index: u64) -> GameGrad {
    let (steps, result) = play(eval, config.seed, index);
    let net = &eval.net;
    let mut g = GameGrad {
        grad: net.zeros_like(),
        loss: 0.0,
        examples: 0,
    };
    let mut h = vec![0.0f32; net.hidden];
    // Walk back from the end: `ret` is the lambda-return of the step after the current one,
    // from that step's mover's view.
    let mut ret = result;
    let mut next_value = result;
    for (k, step) in steps.iter().rev().enumerate() {
        let target: [f32; OUTPUTS] = if k == 0 {
            result
        } else {
            let mut b = [0.0; OUTPUTS];
            for o in 0..OUTPUTS {
                b[o] = (1.0 - config.lambda) * next_value[o] + config.lambda * ret[o];
            }
            flip(&b)
        };
        g.loss += f64::from(net.accumulate_gradient(
            &step.inputs,
            &target,
            config.alpha,
            &mut g.grad,
            &mut h,
        ));
        g.examples += 1;
        ret = target;
        next_value = step.value;
    }
    g
}

/// What one batch did.
#[derive(Debug, Clone, Copy)]
pub struct BatchReport {
    /// Mean cross-entropy per example before the step.
    pub loss: f64,
    /// Examples (positions) in the batch.
    pub examples: usize,
}

/// Plays games `first..first + config.batch` with the net frozen and takes one step; the
/// games' gradients are added in game order, so the thread count never changes the weights.
pub fn train_batch(eval: &mut NfEvaluator, config: &TdConfig, first: u64) -> BatchReport {
    let grads: Vec<GameGrad> = (first..first + config.batch as u64)
        .into_par_iter()
        .map(|g| game_gradient(eval, config, g))
        .collect();
    let mut loss = 0.0;
    let mut examples = 0;
    for g in &grads {
        eval.net.add_scaled(&g.grad, -1.0);
        loss += g.loss;
        examples += g.examples;
    }
    BatchReport {
        loss: loss / examples.max(1) as f64,
        examples,
    }
}
