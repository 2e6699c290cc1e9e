//! Tunes the hand-made backgammon evaluation's weights by self-play: coordinate-wise hill
//! climbing, each candidate (one weight scaled by 1.25 or 0.8) played against the current
//! weights in cubeless money games at 0-ply, duplicate dice (every dice sequence played twice,
//! colours swapped), and kept only when it wins by more than two standard errors.
//!
//! ```sh
//! cargo run --release -p tabula-coach --example tune -- [pairs per test] [rounds] [seed]
//! ```
//!
//! It prints every accepted change and the final `Weights` to paste into
//! `crates/ai/src/backgammon/eval.rs`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tabula_ai::backgammon::{Evaluator, Weighted, Weights};
use tabula_core::Dice;
use tabula_tables::{MoveGen, Position, CHECKERS};

/// Points won by the first mover (positive) or lost, in one cubeless game.
fn game(first: &Weighted, second: &Weighted, seed: u64, gen: &mut MoveGen) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::START;
    let mut first_to_move = true;
    let mut opening = true;
    for _ in 0..2000 {
        let (a, b) = loop {
            let (a, b) = (rng.gen_range(1..=6u8), rng.gen_range(1..=6u8));
            if !(opening && a == b) {
                break (a, b);
            }
        };
        opening = false;
        let dice = Dice::new(a, b).expect("dice in range");
        let eval = if first_to_move { first } else { second };
        let next = gen
            .positions(&pos, dice)
            .iter()
            .copied()
            .min_by(|x, y| {
                let ex = eval.evaluate(&x.flip()).equity();
                let ey = eval.evaluate(&y.flip()).equity();
                ex.total_cmp(&ey)
            })
            .unwrap_or(pos);
        if next.mover_off() == CHECKERS {
            let points = if next.opponent_off() > 0 {
                1
            } else if next.pip(0) < 0 || (1..=6).any(|i| next.pip(i) < 0) {
                3
            } else {
                2
            };
            return if first_to_move { points } else { -points };
        }
        pos = next.flip();
        first_to_move = !first_to_move;
    }
    0
}

/// Mean points per game of `a` against `b` over `pairs` duplicate pairs, and its standard
/// error.
fn duel(a: Weights, b: Weights, pairs: u64, seed: u64) -> (f64, f64) {
    let (wa, wb) = (Weighted(a), Weighted(b));
    let results: Vec<f64> = (0..pairs)
        .into_par_iter()
        .map_init(MoveGen::new, |gen, i| {
            let s = seed.wrapping_mul(1_000_003).wrapping_add(i);
            f64::from(game(&wa, &wb, s, gen) - game(&wb, &wa, s, gen)) / 2.0
        })
        .collect();
    let n = results.len() as f64;
    let mean = results.iter().sum::<f64>() / n;
    let var = results.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let pairs = args.first().copied().unwrap_or(5000);
    let rounds = args.get(1).copied().unwrap_or(2);
    let seed = args.get(2).copied().unwrap_or(1);
    let mut best = Weights::DEFAULT;
    let names = [
        "on_roll",
        "pip",
        "home_point",
        "anchor",
        "prime",
        "own_blot",
        "their_blot",
        "bar",
        "trapped",
        "gammon_home",
        "gammon_prime",
        "gammon_bar",
        "gammon_back",
    ];
    let mut test = 0u64;
    for round in 0..rounds {
        for (i, name) in names.iter().enumerate() {
            if *name == "trapped" || *name == "on_roll" {
                continue; // no trapping in backgammon; both sides are on roll alike
            }
            for factor in [1.25f32, 0.8] {
                test += 1;
                let mut v = best.to_vec();
                v[i] *= factor;
                let cand = Weights::from_slice(&v).expect("same length");
                let (mean, se) = duel(cand, best, pairs, seed * 10_000 + test);
                let keep = mean > 2.0 * se;
                println!(
                    "round {round} {name} x{factor}: {mean:+.4} ± {se:.4} ppg{}",
                    if keep { "  kept" } else { "" }
                );
                if keep {
                    best = cand;
                    break;
                }
            }
        }
    }
    let (mean, se) = duel(best, Weights::DEFAULT, pairs * 2, seed * 10_000 + 9999);
    println!(
        "final against the default, {} fresh pairs: {mean:+.4} ± {se:.4} ppg",
        pairs * 2
    );
    println!("{best:#?}");
}
