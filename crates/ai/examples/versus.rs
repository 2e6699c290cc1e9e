//! The neural bots against the hand-made ones they replaced: money games (one game each,
//! cube, beavers, Jacoby) with duplicate dice, each dice seed played twice with the colours
//! swapped, and the new bot's points per game over the pair means.
//!
//! ```text
//! cargo run --release -p tabula-ai --example versus -- --pairs 1000 --level strong
//! ```

use clap::Parser;
use rayon::prelude::*;
use tabula_ai::backgammon::{BackgammonBot, EvalKind};
use tabula_ai::Level;
use tabula_core::{ChaChaDice, Color, DiceSource, Game, Status};
use tabula_tables::backgammon::{Backgammon, Options};

#[derive(Parser)]
struct Args {
    /// Duplicate pairs (twice as many games).
    #[arg(long, default_value_t = 1000)]
    pairs: u64,
    /// The level of both bots.
    #[arg(long, default_value = "strong")]
    level: Level,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// White's points in one money game between `white` and `black` on dice `seed`.
fn game(level: Level, neural_is_white: bool, seed: u64) -> i64 {
    let mut s = Backgammon::new(Options::money()).expect("money options are valid");
    let mut dice = ChaChaDice::new(seed);
    let kinds = if neural_is_white {
        [EvalKind::Neural, EvalKind::Heuristic]
    } else {
        [EvalKind::Heuristic, EvalKind::Neural]
    };
    let mut bots = kinds.map(|k| BackgammonBot::with_eval(level, seed, k));
    for _ in 0..100_000 {
        match s.status() {
            Status::Over(o) => {
                let points = i64::from(o.points);
                return match o.winner {
                    Some(Color::White) => points,
                    Some(Color::Black) => -points,
                    None => 0,
                };
            }
            Status::Chance(_) => s.roll(dice.roll()).expect("a roll at a chance node"),
            Status::Decide { player, .. } => {
                let a = bots[player.index()].choose(&s);
                s.apply(&a).expect("the bot's action is legal");
            }
        }
    }
    panic!("game {seed} did not end");
}

fn main() {
    let args = Args::parse();
    let started = std::time::Instant::now();
    let means: Vec<f64> = (0..args.pairs)
        .into_par_iter()
        .map(|p| {
            let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(p);
            let a = game(args.level, true, seed);
            let b = -game(args.level, false, seed);
            (a + b) as f64 / 2.0
        })
        .collect();
    let n = means.len() as f64;
    let mean = means.iter().sum::<f64>() / n;
    let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    println!(
        "{} neural against {} heuristic: {} games in {} duplicate pairs, seed {}: {:+.3} ± {:.3} points per game for the neural bot (95 %), {:.0} s",
        args.level,
        args.level,
        2 * args.pairs,
        args.pairs,
        args.seed,
        mean,
        1.96 * (var / n).sqrt(),
        started.elapsed().as_secs_f64()
    );
}
