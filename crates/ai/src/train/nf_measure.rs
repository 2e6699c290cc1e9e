//! Cubeless duplicate-dice Never-Finishing games between two evaluators at 0-ply, the NF
//! learning curve's yardstick: each dice sequence is played twice with the sides swapped,
//! single wins scoring 1, gammons 2, draws (dead positions, or [`MAX_PLIES`] plies) 0.

use super::nf_td::{best_play, is_dead, MAX_PLIES};
use super::td::roll;
use crate::backgammon::Evaluator;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_tables::never_finishing::start_position;
use tabula_tables::{TablesGen, CHECKERS};

/// Points won by the side that moves first, `a` moving first, with dice from `seed`.
pub fn game(a: &(impl Evaluator + Sync), b: &(impl Evaluator + Sync), seed: u64) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut gen = TablesGen::new();
    let mut pos = start_position();
    for ply in 0..MAX_PLIES {
        let dice = roll(&mut rng);
        let mover_is_a = ply % 2 == 0;
        let after = if mover_is_a {
            best_play(a, &mut gen, &pos, dice)
        } else {
            best_play(b, &mut gen, &pos, dice)
        };
        match after {
            Some(after) if after.mover_off() == CHECKERS => {
                let points = if after.opponent_off() == 0 { 2 } else { 1 };
                return if mover_is_a { points } else { -points };
            }
            Some(after) => pos = after.flip(),
            None if is_dead(&mut gen, &pos) => return 0,
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
    super::measure::pair_statistics(&means)
}
