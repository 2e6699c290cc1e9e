//! Supervised refinement: the current nets teach themselves through search.
//!
//! One generation: play games with the current nets at 0-ply and keep a sample of the
//! positions met ([`sample_positions`]); give each the chances the same nets find one roll
//! ahead ([`one_ply_target`]: the mean over the 21 rolls of the chances after the mover's best
//! 0-ply play, as `search::chances_one_roll_ahead`); then fit the nets to those targets by SGD
//! on the cross-entropy ([`fit`]). A 1-ply answer sees the shot that is hit or missed, the
//! blot that is covered: what a 0-ply net misjudges most. Iterated over generations, each
//! generation's targets come from the previous generation's nets. No other engine enters.
//!
//! Everything is seeded and reduced in order: the same arguments give the same weights on
//! any number of threads.

use super::td::{best_play, roll, to_array};
use crate::grad::Gradients;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_ai::backgammon::nn::{NeuralEvaluator, Phase};
use tabula_ai::backgammon::Evaluator;
use tabula_ai::nn::inputs::Inputs;
use tabula_ai::nn::net::{Net, OUTPUTS};
use tabula_ai::search::chances_one_roll_ahead;
use tabula_tables::{MoveGen, Position, CHECKERS};

/// One training example: a position (seen from the player on roll) and its target.
#[derive(Debug, Clone)]
pub struct Example {
    /// The position.
    pub position: Position,
    /// The five chances it should get.
    pub target: [f32; OUTPUTS],
}

/// Positions from `games` games of 0-ply self-play by `nets` (game `g` on dice from
/// `(seed, g)`), each position a net answers (not an exact one) kept with probability
/// `keep`, in game order.
pub fn sample_positions(nets: &NeuralEvaluator, games: u64, keep: f64, seed: u64) -> Vec<Position> {
    let per_game: Vec<Vec<Position>> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ (g + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
            let mut gen = MoveGen::new();
            let mut pos = Position::START;
            let mut kept = Vec::new();
            for _ in 0..10_000 {
                if NeuralEvaluator::exact(&pos).is_none() && rng.gen_bool(keep) {
                    kept.push(pos);
                }
                let dice = roll(&mut rng);
                match best_play(nets, &mut gen, &pos, dice) {
                    Some(after) if after.mover_off() == CHECKERS => break,
                    Some(after) => pos = after.flip(),
                    None => pos = pos.flip(),
                }
            }
            kept
        })
        .collect();
    per_game.into_iter().flatten().collect()
}

/// The chances `nets` give `pos` one roll ahead, as a target (clamped to `[0, 1]`: the
/// weighted mean of 21 chances can round a hair past 1).
pub fn one_ply_target(nets: &NeuralEvaluator, gen: &mut MoveGen, pos: &Position) -> [f32; OUTPUTS] {
    to_array(&chances_one_roll_ahead(nets, gen, pos)).map(|p| p.clamp(0.0, 1.0))
}

/// The examples for `positions`, their targets computed in parallel by `nets`.
pub fn label(nets: &NeuralEvaluator, positions: &[Position]) -> Vec<Example> {
    positions
        .par_iter()
        .map_init(MoveGen::new, |gen, pos| Example {
            position: *pos,
            target: one_ply_target(nets, gen, pos),
        })
        .collect()
}

/// What one pass of [`fit`] did.
#[derive(Debug, Clone, Copy)]
pub struct FitReport {
    /// Mean cross-entropy per example against its target, before each step.
    pub loss: f64,
    /// The part of that loss the targets' own entropy explains (the best reachable).
    pub floor: f64,
}

/// The most hidden units of any of the nets.
fn widest(nets: &NeuralEvaluator) -> usize {
    nets.named_nets()
        .iter()
        .map(|(_, net)| net.hidden)
        .max()
        .unwrap_or(0)
}

/// Fits `nets` to `examples` by `epochs` passes of plain SGD (step `alpha` per example), in
/// an order shuffled from `seed`; returns the last pass's report.
pub fn fit(
    nets: &mut NeuralEvaluator,
    examples: &[Example],
    epochs: usize,
    alpha: f32,
    seed: u64,
) -> FitReport {
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut inputs = Inputs::new();
    let mut h = vec![0.0f32; widest(nets)];
    let mut report = FitReport {
        loss: 0.0,
        floor: 0.0,
    };
    for _ in 0..epochs {
        order.shuffle(&mut rng);
        let (mut loss, mut floor) = (0.0f64, 0.0f64);
        for &i in &order {
            let ex = &examples[i];
            nets.encoding.encode(&ex.position, &mut inputs);
            let net = nets.net_mut(Phase::of(&ex.position));
            loss += f64::from(net.sgd_step(&inputs, &ex.target, alpha, &mut h));
            floor += entropy(&ex.target);
        }
        let n = examples.len().max(1) as f64;
        report = FitReport {
            loss: loss / n,
            floor: floor / n,
        };
    }
    report
}

/// The mean absolute error of `nets`' equity against the examples' target equities, in
/// points (cubeless money equity of the player on roll).
pub fn equity_error(nets: &NeuralEvaluator, examples: &[Example]) -> f64 {
    let sum: f64 = examples
        .par_iter()
        .map(|ex| {
            let mine = nets.evaluate(&ex.position).equity();
            let t = &ex.target;
            let target = 2.0 * t[0] - 1.0 + t[1] - t[3] + t[2] - t[4];
            f64::from((mine - target).abs())
        })
        .sum();
    sum / examples.len().max(1) as f64
}

/// Adam's running moments for one net.
struct Moments {
    m: Net,
    v: Net,
    grad: Net,
    /// Steps taken.
    t: i32,
}

impl Moments {
    fn new(net: &Net) -> Moments {
        Moments {
            m: net.zeros_like(),
            v: net.zeros_like(),
            grad: net.zeros_like(),
            t: 0,
        }
    }

    /// One Adam step of size `lr` on `net` from the gradient accumulated so far, which is
    /// then cleared.
    fn step(&mut self, net: &mut Net, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        let update = |w: &mut [f32], g: &mut [f32], m: &mut [f32], v: &mut [f32]| {
            for (((w, g), m), v) in w.iter_mut().zip(g.iter_mut()).zip(m).zip(v) {
                *m = B1 * *m + (1.0 - B1) * *g;
                *v = B2 * *v + (1.0 - B2) * *g * *g;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
                *g = 0.0;
            }
        };
        update(
            &mut net.w1,
            &mut self.grad.w1,
            &mut self.m.w1,
            &mut self.v.w1,
        );
        update(
            &mut net.b1,
            &mut self.grad.b1,
            &mut self.m.b1,
            &mut self.v.b1,
        );
        update(
            &mut net.w2,
            &mut self.grad.w2,
            &mut self.m.w2,
            &mut self.v.w2,
        );
        update(
            &mut net.b2,
            &mut self.grad.b2,
            &mut self.m.b2,
            &mut self.v.b2,
        );
    }
}

/// Mini-batch Adam across passes: its moments carry from one pass to the next, so that a
/// fit made of several calls to [`Adam::pass`] is one Adam run. (Started afresh each pass,
/// Adam's bias-corrected first steps move every weight by about the step size, which undoes
/// part of the previous pass: the fits of generations 1 to 7 did so.)
pub struct Adam {
    /// One per net, in slot order ([`NeuralEvaluator::slot`]).
    moments: Vec<Moments>,
}

impl Adam {
    /// Adam's state for `nets`, no step taken.
    pub fn new(nets: &NeuralEvaluator) -> Adam {
        Adam {
            moments: nets
                .named_nets()
                .into_iter()
                .map(|(_, net)| Moments::new(net))
                .collect(),
        }
    }

    /// One pass over `examples` (step `lr`, `batch` examples of one phase per step) in an
    /// order shuffled from `seed`. Deterministic for its arguments and the state.
    pub fn pass(
        &mut self,
        nets: &mut NeuralEvaluator,
        examples: &[Example],
        lr: f32,
        batch: usize,
        seed: u64,
    ) -> FitReport {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut inputs = Inputs::new();
        let mut h = vec![0.0f32; widest(nets)];
        let moments = &mut self.moments;
        let mut by_net: Vec<Vec<usize>> = vec![Vec::new(); moments.len()];
        for (i, ex) in examples.iter().enumerate() {
            by_net[nets.slot(Phase::of(&ex.position))].push(i);
        }
        let batch = batch.max(1);
        // Batches of one net each, the nets' batches interleaved at random.
        let mut batches: Vec<(usize, Vec<usize>)> = Vec::new();
        for (k, idx) in by_net.iter().enumerate() {
            let mut idx = idx.clone();
            idx.shuffle(&mut rng);
            batches.extend(idx.chunks(batch).map(|c| (k, c.to_vec())));
        }
        batches.shuffle(&mut rng);
        let (mut loss, mut floor) = (0.0f64, 0.0f64);
        let encoding = nets.encoding;
        for (k, members) in &batches {
            let net = nets.nets_mut().swap_remove(*k);
            let scale = 1.0 / members.len() as f32;
            for &i in members {
                let ex = &examples[i];
                encoding.encode(&ex.position, &mut inputs);
                loss += f64::from(net.accumulate_gradient(
                    &inputs,
                    &ex.target,
                    scale,
                    &mut moments[*k].grad,
                    &mut h[..net.hidden],
                ));
                floor += entropy(&ex.target);
            }
            moments[*k].step(net, lr);
        }
        let n = examples.len().max(1) as f64;
        FitReport {
            loss: loss / n,
            floor: floor / n,
        }
    }
}

/// Fits `nets` to `examples` by `epochs` passes of mini-batch Adam (step `lr`, `batch`
/// examples of one phase per step; one [`Adam`] across the passes), each pass shuffled from
/// `seed` and its number; returns the last pass's report. Deterministic for its arguments.
pub fn fit_adam(
    nets: &mut NeuralEvaluator,
    examples: &[Example],
    epochs: usize,
    lr: f32,
    batch: usize,
    seed: u64,
) -> FitReport {
    let mut adam = Adam::new(nets);
    let mut report = FitReport {
        loss: 0.0,
        floor: 0.0,
    };
    for epoch in 0..epochs {
        report = adam.pass(nets, examples, lr, batch, seed.wrapping_add(epoch as u64));
    }
    report
}

/// The cross-entropy of targets against themselves: the least loss reachable.
fn entropy(target: &[f32; OUTPUTS]) -> f64 {
    target
        .iter()
        .map(|&t| {
            let t = f64::from(t.clamp(1e-6, 1.0 - 1e-6));
            -(t * t.ln() + (1.0 - t) * (1.0 - t).ln())
        })
        .sum()
}
