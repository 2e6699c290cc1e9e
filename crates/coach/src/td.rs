//! TD(lambda) self-play, one method for both dice games' nets ([`TdNets`]: backgammon's
//! contact and race nets here, Never-Finishing's one net in [`super::nf_td`]).
//!
//! Each game is played by the current nets at 0-ply (the mover picks the result that leaves
//! the opponent the lowest equity); the dice are the only exploration, as in TD-Gammon. Every
//! position the player on roll faces, except those answered exactly (finished boards, the
//! bear-off database), is a training example whose target is its lambda-return: walking back
//! from the end, `G_t = flip((1 - lambda) V(s_{t+1}) + lambda G_{t+1})`, with `G` the game's
//! result after the last move and `V` the nets (or the exact answer) at the next position,
//! `flip` turning the five chances to the other side's view. The loss is the cross-entropy of
//! each output against its target; a batch of games is played with the weights frozen, their
//! gradients are summed in game order and one step of size `alpha` per example is taken.

use crate::grad::Gradients;
use crate::rules::{BackgammonRules, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_ai::backgammon::nn::encode::Encoding;
use tabula_ai::backgammon::nn::{probabilities, NeuralEvaluator, Phase};
use tabula_ai::backgammon::{Evaluator, Probabilities};
use tabula_ai::nn::inputs::Inputs;
use tabula_ai::nn::net::{Net, OUTPUTS};
use tabula_tables::{Position, CHECKERS};

pub use tabula_ai::search::{best_play, roll};

/// The settings of a run.
#[derive(Debug, Clone, Copy)]
pub struct TdConfig {
    /// Games per gradient step.
    pub batch: usize,
    /// The trace decay.
    pub lambda: f32,
    /// Step size per example.
    pub alpha: f32,
    /// The run's seed: game `g` is played with dice from `(seed, g)`.
    pub seed: u64,
}

impl Default for TdConfig {
    fn default() -> TdConfig {
        TdConfig {
            batch: 8,
            lambda: 0.7,
            alpha: 0.02,
            seed: 1,
        }
    }
}

/// Chances as the net's five outputs.
pub fn to_array(p: &Probabilities) -> [f32; OUTPUTS] {
    [
        p.win,
        p.win_gammon,
        p.win_backgammon,
        p.lose_gammon,
        p.lose_backgammon,
    ]
}

/// The same five chances seen by the other side.
pub fn flip(v: &[f32; OUTPUTS]) -> [f32; OUTPUTS] {
    [1.0 - v[0], v[3], v[4], v[1], v[2]]
}

/// The result of a draw, from either side.
pub const DRAW: [f32; OUTPUTS] = [0.5, 0.0, 0.0, 0.0, 0.0];

/// What TD(lambda) needs of one game's set of nets; the rest of the method is the same for
/// both dice games.
pub trait TdNets: Evaluator + Sync {
    /// The rules the games are played under.
    type Rules: Rules;
    /// Plies after which a training game is scored a [`DRAW`].
    const MAX_PLIES: usize;

    /// The nets, in a fixed order (their gradients are added in it).
    fn nets(&self) -> Vec<&Net>;
    /// The same nets, to step.
    fn nets_mut(&mut self) -> Vec<&mut Net>;
    /// The inputs of `pos` and the index of the net that reads them, or `None` when `pos` is
    /// answered exactly (not a training example).
    fn example(&self, pos: &Position) -> Option<(Inputs, usize)>;
    /// The chances net `net` gives for `inputs`, the encoding of `pos`.
    fn chances_of(&self, net: usize, inputs: &Inputs, pos: &Position) -> Probabilities;
    /// The game's result from the mover's view after the mover played to `after` (not
    /// flipped), when the game ends there for training.
    fn result(&self, after: &Position) -> Option<[f32; OUTPUTS]>;
}

/// One position a game met, as the trainer needs it.
struct Step {
    /// Its inputs and net, or `None` when it is answered exactly.
    example: Option<(Inputs, usize)>,
    /// Its value by the frozen nets (or exactly), from its mover's view.
    value: [f32; OUTPUTS],
}

/// Plays game `index` of the run and returns its steps and the result after the last move,
/// from the view of the last step's mover.
fn play<N: TdNets>(nets: &N, seed: u64, index: u64) -> (Vec<Step>, [f32; OUTPUTS]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut gen = N::Rules::gen();
    let mut pos = N::Rules::start();
    let mut steps = Vec::with_capacity(128);
    for _ in 0..N::MAX_PLIES {
        let example = nets.example(&pos);
        let value = match &example {
            Some((inputs, net)) => to_array(&nets.chances_of(*net, inputs, &pos)),
            None => to_array(&nets.evaluate(&pos)),
        };
        steps.push(Step { example, value });
        let dice = roll(&mut rng);
        match best_play(nets, &mut gen, &pos, dice) {
            Some(after) => {
                if let Some(result) = nets.result(&after) {
                    return (steps, result);
                }
                pos = after.flip();
            }
            None if N::Rules::is_dead(&mut gen, &pos) => return (steps, DRAW),
            None => pos = pos.flip(),
        }
    }
    (steps, DRAW)
}

/// The summed gradients of one game (one per net) and its loss.
struct GameGrad {
    grads: Vec<Net>,
    loss: f64,
    examples: usize,
}

fn game_gradient<N: TdNets>(nets: &N, config: &TdConfig, index: u64) -> GameGrad {
    let (steps, result) = play(nets, config.seed, index);
    let frozen = nets.nets();
    let mut g = GameGrad {
        grads: frozen.iter().map(|n| n.zeros_like()).collect(),
        loss: 0.0,
        examples: 0,
    };
    let mut h = vec![0.0f32; frozen.iter().map(|n| n.hidden).max().unwrap_or(0)];
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
        if let Some((inputs, which)) = &step.example {
            let net = frozen[*which];
            let hidden = net.hidden;
            g.loss += f64::from(net.accumulate_gradient(
                inputs,
                &target,
                config.alpha,
                &mut g.grads[*which],
                &mut h[..hidden],
            ));
            g.examples += 1;
        }
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

/// Plays games `first..first + config.batch` with `nets` frozen and takes one step; the
/// games' gradients are added in game order, so the thread count never changes the weights.
pub fn train_batch<N: TdNets>(nets: &mut N, config: &TdConfig, first: u64) -> BatchReport {
    let grads: Vec<GameGrad> = (first..first + config.batch as u64)
        .into_par_iter()
        .map(|g| game_gradient(&*nets, config, g))
        .collect();
    let mut loss = 0.0;
    let mut examples = 0;
    for g in &grads {
        for (net, grad) in nets.nets_mut().into_iter().zip(&g.grads) {
            net.add_scaled(grad, -1.0);
        }
        loss += g.loss;
        examples += g.examples;
    }
    BatchReport {
        loss: loss / examples.max(1) as f64,
        examples,
    }
}

/// Backgammon's nets: the contact net (0), the race net (1) and the crashed net (2) where
/// there is one ([`NeuralEvaluator::slot`]); a game ends at the last
/// checker borne off, positions the bear-off database answers are not examples.
impl TdNets for NeuralEvaluator {
    type Rules = BackgammonRules;
    const MAX_PLIES: usize = usize::MAX;

    fn nets(&self) -> Vec<&Net> {
        self.named_nets().into_iter().map(|(_, net)| net).collect()
    }

    fn nets_mut(&mut self) -> Vec<&mut Net> {
        NeuralEvaluator::nets_mut(self)
    }

    fn example(&self, pos: &Position) -> Option<(Inputs, usize)> {
        NeuralEvaluator::exact(pos).is_none().then(|| {
            let mut inputs = Inputs::new();
            self.encoding.encode(pos, &mut inputs);
            (inputs, self.slot(Phase::of(pos)))
        })
    }

    fn chances_of(&self, net: usize, inputs: &Inputs, pos: &Position) -> Probabilities {
        probabilities(self.nets()[net].forward(inputs), pos)
    }

    fn result(&self, after: &Position) -> Option<[f32; OUTPUTS]> {
        // The mover has won: the loser's view of the finished board, flipped.
        (after.mover_off() == CHECKERS).then(|| flip(&to_array(&self.evaluate(&after.flip()))))
    }
}

/// Fresh nets of the given sizes on the per-point encoding.
pub fn fresh(contact_hidden: usize, race_hidden: usize, seed: u64) -> NeuralEvaluator {
    fresh_with(Encoding::Points, contact_hidden, race_hidden, seed)
}

/// Fresh nets of the given sizes reading `encoding`.
pub fn fresh_with(
    encoding: Encoding,
    contact_hidden: usize,
    race_hidden: usize,
    seed: u64,
) -> NeuralEvaluator {
    NeuralEvaluator::random(encoding, contact_hidden, race_hidden, seed)
}
