//! Cubeless duplicate-dice matches between two evaluators at 0-ply, the learning curves'
//! yardstick, under either dice game's [`Rules`]: each dice sequence is played twice with the
//! sides swapped, single games scoring 1, gammons 2, backgammons 3, and a Never-Finishing
//! draw (a dead position, or [`Rules::MEASURE_PLIES`] plies) 0.

use super::rules::{BackgammonRules, Rules};
use super::td::{best_play, roll};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_ai::backgammon::Evaluator;
use tabula_tables::CHECKERS;

/// Points won by the side that moves first, `a` moving first, with dice from `seed`.
pub fn game<R: Rules>(a: &(impl Evaluator + Sync), b: &(impl Evaluator + Sync), seed: u64) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut gen = R::gen();
    let mut pos = R::start();
    for ply in 0..R::MEASURE_PLIES {
        let dice = roll(&mut rng);
        let mover_is_a = ply % 2 == 0;
        let after = if mover_is_a {
            best_play(a, &mut gen, &pos, dice)
        } else {
            best_play(b, &mut gen, &pos, dice)
        };
        match after {
            Some(after) if after.mover_off() == CHECKERS => {
                let points = R::points(&after);
                return if mover_is_a { points } else { -points };
            }
            Some(after) => pos = after.flip(),
            None if R::is_dead(&mut gen, &pos) => return 0,
            None => pos = pos.flip(),
        }
    }
    0
}

/// Mean points per game of `a` against `b` over `pairs` duplicate pairs of backgammon, and
/// the 95 % half-width over pair means.
pub fn duplicate(
    a: &(impl Evaluator + Sync),
    b: &(impl Evaluator + Sync),
    pairs: u64,
    seed: u64,
) -> (f64, f64) {
    duplicate_in::<BackgammonRules>(a, b, pairs, seed)
}

/// Mean points per game of `a` against `b` over `pairs` duplicate pairs under `R`, and the
/// 95 % half-width over pair means.
pub fn duplicate_in<R: Rules>(
    a: &(impl Evaluator + Sync),
    b: &(impl Evaluator + Sync),
    pairs: u64,
    seed: u64,
) -> (f64, f64) {
    let means: Vec<f64> = (0..pairs)
        .into_par_iter()
        .map(|p| {
            let s = seed.wrapping_mul(1_000_003).wrapping_add(p);
            f64::from(game::<R>(a, b, s) - game::<R>(b, a, s)) / 2.0
        })
        .collect();
    pair_statistics(&means)
}

/// The mean of duplicate pairs' means and its 95 % half-width.
fn pair_statistics(means: &[f64]) -> (f64, f64) {
    let n = means.len() as f64;
    let mean = means.iter().sum::<f64>() / n;
    let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}
