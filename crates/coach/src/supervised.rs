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
use crate::siblings::SiblingSet;
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
    /// Mean ranking loss per sibling set ([`Adam::pass_with_sets`]; 0 without sets).
    pub rank: f64,
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
        rank: 0.0,
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
            rank: 0.0,
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
            f64::from((mine - equity_of(&ex.target)).abs())
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
        self.pass_with_sets(nets, examples, &[], &SetLoss::default(), lr, batch, seed)
    }

    /// One pass over `examples` and the sibling `sets` together (module [`crate::siblings`]):
    /// the examples' batches as [`Adam::pass`] makes them, and steps of
    /// [`SetLoss::per_step`] sets each, all in one order shuffled from `seed`. A set's loss
    /// is each member's cross-entropy (a mean over the set) plus [`SetLoss::weight`] times
    /// the ranking loss: the mean square, over the set, of each member's equity error less
    /// the set's mean error, so that only the differences between a roll's plays count, as
    /// they do when a play is chosen. Members the bear-off database answers have no net and
    /// no error. Without sets this is [`Adam::pass`] exactly. Deterministic for its
    /// arguments and the state.
    #[allow(clippy::too_many_arguments)]
    pub fn pass_with_sets(
        &mut self,
        nets: &mut NeuralEvaluator,
        examples: &[Example],
        sets: &[SiblingSet],
        loss_cfg: &SetLoss,
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
        // Batches of one net each, the nets' batches interleaved at random, and the sets'
        // steps among them.
        let mut steps: Vec<Step> = Vec::new();
        for (k, idx) in by_net.iter().enumerate() {
            let mut idx = idx.clone();
            idx.shuffle(&mut rng);
            steps.extend(idx.chunks(batch).map(|c| Step::Examples(k, c.to_vec())));
        }
        if !sets.is_empty() {
            let mut idx: Vec<usize> = (0..sets.len()).collect();
            idx.shuffle(&mut rng);
            steps.extend(
                idx.chunks(loss_cfg.per_step.max(1))
                    .map(|c| Step::Sets(c.to_vec())),
            );
        }
        steps.shuffle(&mut rng);
        let (mut loss, mut floor, mut rank) = (0.0f64, 0.0f64, 0.0f64);
        let mut counted = 0usize;
        let encoding = nets.encoding;
        for step in &steps {
            match step {
                Step::Examples(k, members) => {
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
                        counted += 1;
                    }
                    moments[*k].step(net, lr);
                }
                Step::Sets(chosen) => {
                    let mut touched = vec![false; moments.len()];
                    let scale = 1.0 / chosen.len() as f32;
                    let mut grads: Vec<&mut Net> =
                        moments.iter_mut().map(|m| &mut m.grad).collect();
                    for &s in chosen {
                        let (ce, r) = set_gradient(
                            nets,
                            &sets[s],
                            loss_cfg.weight,
                            scale,
                            &mut grads,
                            &mut touched,
                        );
                        loss += ce;
                        rank += r;
                        floor += sets[s]
                            .members
                            .iter()
                            .map(|m| entropy(&m.target))
                            .sum::<f64>()
                            / sets[s].members.len() as f64;
                        counted += 1;
                    }
                    let mut all = nets.nets_mut();
                    for (k, net) in all.iter_mut().enumerate() {
                        if touched[k] {
                            moments[k].step(net, lr);
                        }
                    }
                }
            }
        }
        let n = counted.max(1) as f64;
        FitReport {
            loss: loss / n,
            floor: floor / n,
            rank: rank / sets.len().max(1) as f64,
        }
    }
}

/// One step of [`Adam::pass_with_sets`]: a batch of examples of one net, or sibling sets.
enum Step {
    Examples(usize, Vec<usize>),
    Sets(Vec<usize>),
}

/// How the sibling sets weigh in [`Adam::pass_with_sets`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SetLoss {
    /// The ranking loss's weight beside the members' cross-entropy.
    pub weight: f32,
    /// Sets per Adam step.
    pub per_step: usize,
}

impl Default for SetLoss {
    fn default() -> SetLoss {
        SetLoss {
            weight: 4.0,
            per_step: 8,
        }
    }
}

/// The cubeless equity of five chances (win, win gammon, win backgammon, lose gammon, lose
/// backgammon) for the player they belong to.
fn equity_of(p: &[f32; OUTPUTS]) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// Each output's share of the equity: `d equity / d output`.
const EQUITY_WEIGHTS: [f32; OUTPUTS] = [2.0, 1.0, 1.0, -1.0, -1.0];

/// A sibling set's loss in [`Adam::pass_with_sets`] (its members' mean cross-entropy plus
/// `weight` times its ranking loss) and its gradient, one accumulator per net in slot
/// order: what a step of the pass descends, for checking it.
pub fn set_loss_and_gradient(
    nets: &NeuralEvaluator,
    set: &SiblingSet,
    weight: f32,
) -> (f64, Vec<Net>) {
    let mut grads: Vec<Net> = nets
        .named_nets()
        .iter()
        .map(|(_, net)| net.zeros_like())
        .collect();
    let mut touched = vec![false; grads.len()];
    let mut refs: Vec<&mut Net> = grads.iter_mut().collect();
    let (ce, rank) = set_gradient(nets, set, weight, 1.0, &mut refs, &mut touched);
    (ce + f64::from(weight) * rank, grads)
}

/// Adds one sibling set's gradient (scaled by `scale`) to the accumulators `grads` (one per
/// net, in slot order), marking the nets it reached in `touched`; returns the set's mean
/// cross-entropy and its ranking loss (before the step).
fn set_gradient(
    nets: &NeuralEvaluator,
    set: &SiblingSet,
    weight: f32,
    scale: f32,
    grads: &mut [&mut Net],
    touched: &mut [bool],
) -> (f64, f64) {
    struct Member {
        phase: Phase,
        slot: usize,
        inputs: Inputs,
        h: Vec<f32>,
        out: [f32; OUTPUTS],
    }
    let n = set.members.len() as f32;
    // The members' forward passes and equity errors (none for exact members).
    let mut forward: Vec<Option<Member>> = Vec::with_capacity(set.members.len());
    let mut errors = Vec::with_capacity(set.members.len());
    for m in &set.members {
        if NeuralEvaluator::exact(&m.position).is_some() {
            forward.push(None);
            errors.push(0.0f32);
            continue;
        }
        let phase = Phase::of(&m.position);
        let net = nets.net(phase);
        let mut inputs = Inputs::new();
        nets.encoding.encode(&m.position, &mut inputs);
        let mut h = vec![0.0f32; net.hidden];
        net.hidden_layer(&inputs, &mut h);
        let out = net.output_layer(&h);
        errors.push(equity_of(&out) - equity_of(&m.target));
        forward.push(Some(Member {
            phase,
            slot: nets.slot(phase),
            inputs,
            h,
            out,
        }));
    }
    let mean = errors.iter().sum::<f32>() / n;
    let rank = errors.iter().map(|e| (e - mean).powi(2)).sum::<f32>() / n;
    let mut ce = 0.0f64;
    for ((m, fwd), e) in set.members.iter().zip(&forward).zip(&errors) {
        let Some(f) = fwd else { continue };
        let g = weight * 2.0 * (e - mean) / n;
        let mut dz2 = [0.0f32; OUTPUTS];
        for k in 0..OUTPUTS {
            let (o, t) = (f.out[k].clamp(1e-6, 1.0 - 1e-6), m.target[k]);
            ce -= f64::from(t * o.ln() + (1.0 - t) * (1.0 - o).ln());
            let sigmoid = f.out[k] * (1.0 - f.out[k]);
            dz2[k] = scale * ((f.out[k] - t) / n + g * EQUITY_WEIGHTS[k] * sigmoid);
        }
        let net = nets.net(f.phase);
        net.accumulate_backward(&f.inputs, &f.h, &dz2, grads[f.slot]);
        touched[f.slot] = true;
    }
    (ce / f64::from(n), f64::from(rank))
}

/// How well `nets` rank each sibling set's plays at 0-ply against the set's labels: the
/// mean equity (cubeless, the mover's) that the play the nets pick gives up against the
/// labels' best, and the mean ranking loss of [`Adam::pass_with_sets`]. The first is what
/// the 0-ply bot loses a decision if the labels were the truth.
pub fn set_errors(nets: &NeuralEvaluator, sets: &[SiblingSet]) -> (f64, f64) {
    let (pick, rank): (f64, f64) = sets
        .par_iter()
        .map(|set| {
            let labels: Vec<f32> = set.members.iter().map(|m| equity_of(&m.target)).collect();
            let mine: Vec<f32> = set
                .members
                .iter()
                .map(|m| nets.evaluate(&m.position).equity())
                .collect();
            // The members are the opponent's positions: the mover picks the lowest.
            let picked = (0..mine.len())
                .min_by(|&a, &b| mine[a].total_cmp(&mine[b]))
                .unwrap_or(0);
            let best = labels.iter().copied().fold(f32::INFINITY, f32::min);
            let n = labels.len() as f32;
            let errors: Vec<f32> = mine.iter().zip(&labels).map(|(a, b)| a - b).collect();
            let mean = errors.iter().sum::<f32>() / n;
            let rank = errors.iter().map(|e| (e - mean).powi(2)).sum::<f32>() / n;
            (f64::from(labels[picked] - best), f64::from(rank))
        })
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let n = sets.len().max(1) as f64;
    (pick / n, rank / n)
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
        rank: 0.0,
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
