//! Cubeless duplicate-dice matches between two evaluators at 0-ply: each dice sequence is
//! played twice with the sides swapped, single games scoring 1, gammons 2, backgammons 3.

use super::td::{best_play, roll};
use crate::backgammon::Evaluator;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_tables::{MoveGen, Position, CHECKERS};

/// Points won by the side that moves first, `a` moving first, with dice from `seed`.
fn game(a: &(impl Evaluator + Sync), b: &(impl Evaluator + Sync), seed: u64) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut gen = MoveGen::new();
    let mut pos = Position::START;
    for ply in 0..10_000u32 {
        let dice = roll(&mut rng);
        let mover_is_a = ply % 2 == 0;
        let after = if mover_is_a {
            best_play(a, &mut gen, &pos, dice)
        } else {
            best_play(b, &mut gen, &pos, dice)
        };
        match after {
            Some(after) if after.mover_off() == CHECKERS => {
                let points = match after.bore_off_end(true) {
                    Some((_, reason)) => match reason.code() {
                        "gammon" => 2,
                        "backgammon" => 3,
                        _ => 1,
                    },
                    None => 1,
                };
                return if mover_is_a { points } else { -points };
            }
            Some(after) => pos = after.flip(),
            None => pos = pos.flip(),
        }
    }
    0
}

/// Mean points per game of `a` against `b` over `pairs` duplicate pairs, and the 95 %
/// half-width over pair means.
pub fn duplicate(
    a: &(impl Evaluator + Sync),
    b: &(impl Evaluator + Sync),
    pairs: u64,
    seed: u64,
) -> (f64, f64) {
    let means: Vec<f64> = (0..pairs)
        .into_par_iter()
        .map(|p| {
            let s = seed.wrapping_mul(1_000_003).wrapping_add(p);
            f64::from(game(a, b, s) - game(b, a, s)) / 2.0
        })
        .collect();
    pair_statistics(&means)
}

/// The mean of duplicate pairs' means and its 95 % half-width.
pub(crate) fn pair_statistics(means: &[f64]) -> (f64, f64) {
    let n = means.len() as f64;
    let mean = means.iter().sum::<f64>() / n;
    let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}
