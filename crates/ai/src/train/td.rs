//! TD(lambda) self-play for the contact and race nets.
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

use crate::backgammon::nn::encode::{Encoding, Inputs};
use crate::backgammon::nn::net::{Net, OUTPUTS};
use crate::backgammon::nn::{probabilities, NeuralEvaluator, Phase};
use crate::backgammon::{Evaluator, Probabilities};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_core::{Dice, Die};
use tabula_tables::{MoveGen, Position, CHECKERS};

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

/// A random roll.
pub fn roll(rng: &mut ChaCha8Rng) -> Dice {
    let die = |rng: &mut ChaCha8Rng| Die::new(rng.gen_range(1..=6)).expect("1..=6 is a die");
    Dice::from_values(die(rng), die(rng))
}

/// The position after the 0-ply choice of `eval` with `dice` (the mover's view, not
/// flipped), or `None` when no move is legal.
pub fn best_play(
    eval: &impl Evaluator,
    gen: &mut MoveGen,
    pos: &Position,
    dice: Dice,
) -> Option<Position> {
    gen.positions(pos, dice)
        .iter()
        .map(|c| (eval.evaluate(&c.flip()).equity(), *c))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// One position a game met, as the trainer needs it.
struct Step {
    /// Its inputs and net, or `None` when it is answered exactly.
    example: Option<(Inputs, Phase)>,
    /// Its value by the frozen nets (or exactly), from its mover's view.
    value: [f32; OUTPUTS],
}

/// Plays game `index` of the run and returns its steps and the result after the last move,
/// from the view of the last step's mover.
fn play(nets: &NeuralEvaluator, seed: u64, index: u64) -> (Vec<Step>, [f32; OUTPUTS]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut gen = MoveGen::new();
    let mut pos = Position::START;
    let mut steps = Vec::with_capacity(80);
    loop {
        let example = NeuralEvaluator::exact(&pos).is_none().then(|| {
            let mut inputs = Inputs::new();
            nets.encoding.encode(&pos, &mut inputs);
            (inputs, Phase::of(&pos))
        });
        let value = match &example {
            Some((inputs, phase)) => {
                to_array(&probabilities(nets.net(*phase).forward(inputs), &pos))
            }
            None => to_array(&nets.evaluate(&pos)),
        };
        steps.push(Step { example, value });
        let dice = roll(&mut rng);
        match best_play(nets, &mut gen, &pos, dice) {
            Some(after) if after.mover_off() == CHECKERS => {
                // The mover has won: the loser's view of the finished board, flipped.
                let result = flip(&to_array(&nets.evaluate(&after.flip())));
                return (steps, result);
            }
            Some(after) => pos = after.flip(),
            None => pos = pos.flip(),
        }
    }
}

/// The summed gradients of one game and its loss.
struct GameGrad {
    contact: Net,
    race: Net,
    loss: f64,
    examples: usize,
}

fn game_gradient(nets: &NeuralEvaluator, config: &TdConfig, index: u64) -> GameGrad {
    let (steps, result) = play(nets, config.seed, index);
    let mut g = GameGrad {
        contact: nets.contact.zeros_like(),
        race: nets.race.zeros_like(),
        loss: 0.0,
        examples: 0,
    };
    let mut h = vec![0.0f32; nets.contact.hidden.max(nets.race.hidden)];
    // Walk back from the end: `ret` is the lambda-return of the step after the current one,
    // from that step's mover's view.
    let mut ret = result;
    let mut next_value = result;
    let mut last = true;
    for step in steps.iter().rev() {
        let blended: [f32; OUTPUTS] = if last {
            result
        } else {
            let mut b = [0.0; OUTPUTS];
            for k in 0..OUTPUTS {
                b[k] = (1.0 - config.lambda) * next_value[k] + config.lambda * ret[k];
            }
            flip(&b)
        };
        last = false;
        if let Some((inputs, phase)) = &step.example {
            let (net, grad) = match phase {
                Phase::Contact => (&nets.contact, &mut g.contact),
                Phase::Race => (&nets.race, &mut g.race),
            };
            let hidden = net.hidden;
            g.loss += f64::from(net.accumulate_gradient(
                inputs,
                &blended,
                config.alpha,
                grad,
                &mut h[..hidden],
            ));
            g.examples += 1;
        }
        ret = blended;
        next_value = step.value;
    }
    g
}

/// What one batch did.
#[derive(Debug, Clone, Copy)]
pub struct BatchReport {
    /// Mean cross-entropy per example before the step.
    pub loss: f64,
    /// Examples in the batch.
    pub examples: usize,
}

/// Plays games `first..first + config.batch` with `nets` frozen and takes one step.
pub fn train_batch(nets: &mut NeuralEvaluator, config: &TdConfig, first: u64) -> BatchReport {
    let grads: Vec<GameGrad> = (first..first + config.batch as u64)
        .into_par_iter()
        .map(|g| game_gradient(nets, config, g))
        .collect();
    let mut loss = 0.0;
    let mut examples = 0;
    for g in &grads {
        nets.contact.add_scaled(&g.contact, -1.0);
        nets.race.add_scaled(&g.race, -1.0);
        loss += g.loss;
        examples += g.examples;
    }
    BatchReport {
        loss: loss / examples.max(1) as f64,
        examples,
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
    let n = encoding.inputs();
    NeuralEvaluator {
        contact: Net::random_with_inputs(n, contact_hidden, seed),
        race: Net::random_with_inputs(n, race_hidden, seed.wrapping_add(1)),
        encoding,
    }
}
