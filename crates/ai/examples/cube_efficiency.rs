//! Measures the money cube efficiency by position class (issue 27): how live the cube is in
//! contact, crashed and race positions, from rollouts instead of the one assumed value
//! (`tabula_ai::backgammon::cubeful::CUBE_EFFICIENCY`, 0.68).
//!
//! Positions come from 0-ply self-play of the shipped nets (seeded dice), each with the cube
//! centred, money, no Jacoby rule, the player on roll about to roll. Each is rolled out twice
//! on the same dice: cubeless (its chances `p`, dead-cube equity `D`) and cubeful (its value
//! `V` with the cube in play, both players doubling and taking by the nets' 0-ply Janowski
//! decisions). Janowski's model says `V = x·L + (1 - x)·D`, with `L` the fully live cube's
//! equity on `p`; per class the efficiency is the least-squares `x` of
//! `V - D = x·(L - D)`, with a jackknife standard error.
//!
//! Classes: `tabula_ai::backgammon::efficiency::PositionClass` (race by the pip count of the
//! player on roll, crashed, contact).
//!
//! ```text
//! cargo run --release -p tabula-ai --example cube_efficiency -- --per-class 40 --trials 144
//! ```
//!
//! The trials' own cube decisions use the assumed efficiency, so the figure measures how
//! much of the live cube's value play with that cube realises; docs/bots.md has the results.

use clap::Parser;
use rand::{Rng, SeedableRng};
use tabula_ai::backgammon::cube::CubeState;
use tabula_ai::backgammon::cubeful::{live_equity, Owner};
use tabula_ai::backgammon::efficiency::PositionClass;
use tabula_ai::backgammon::match_cube::Holder;
use tabula_ai::backgammon::{Evaluator, NeuralEvaluator};
use tabula_ai::study::cubeful_rollout::rollout_cubeful;
use tabula_ai::study::nply::{best_play_0ply, is_over};
use tabula_ai::study::rollout::{rollout, RolloutConfig};
use tabula_core::Dice;
use tabula_tables::{MoveGen, Position};

#[derive(Parser)]
struct Args {
    /// Positions rolled out in each class.
    #[arg(long, default_value_t = 40)]
    per_class: usize,
    /// Trials of each rollout (variance-reduced, to the end).
    #[arg(long, default_value_t = 144)]
    trials: u32,
    /// The seed of the self-play dice (the rollouts' dice are seeded by the position's
    /// number).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep a position only when the player on roll's 0-ply winning chance is in this range
    /// (where the cube matters).
    #[arg(long, default_value_t = 0.2)]
    min_win: f32,
    #[arg(long, default_value_t = 0.92)]
    max_win: f32,
}

/// The least-squares `x` of `ys = x·xs`, and its jackknife standard error.
fn fit(points: &[(f64, f64)]) -> (f64, f64) {
    let slope = |skip: Option<usize>| {
        let (mut num, mut den) = (0.0, 0.0);
        for (i, (x, y)) in points.iter().enumerate() {
            if Some(i) != skip {
                num += x * y;
                den += x * x;
            }
        }
        num / den
    };
    let all = slope(None);
    let n = points.len() as f64;
    let leave: Vec<f64> = (0..points.len()).map(|i| slope(Some(i))).collect();
    let mean = leave.iter().sum::<f64>() / n;
    let var = (n - 1.0) / n * leave.iter().map(|s| (s - mean).powi(2)).sum::<f64>();
    (all, var.sqrt())
}

fn main() {
    let args = Args::parse();
    let nets = NeuralEvaluator::shipped();
    let state = CubeState::money_centred();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let mut gen = MoveGen::new();
    let mut points: Vec<Vec<(f64, f64)>> = vec![Vec::new(); PositionClass::ALL.len()];
    let mut pos = Position::START;
    let mut number = 0u64;
    // A class that self-play seldom reaches stops the search after this many turns.
    let mut turns = 0u64;
    while points.iter().any(|c| c.len() < args.per_class) && turns < 2_000_000 {
        turns += 1;
        if is_over(&pos) {
            pos = Position::START;
        }
        let class = PositionClass::of(&pos) as usize;
        let win = nets.evaluate(&pos).win;
        // One position in four, so that a game gives positions of several stages.
        if points[class].len() < args.per_class
            && (args.min_win..=args.max_win).contains(&win)
            && rng.gen_bool(0.25)
        {
            number += 1;
            let config = RolloutConfig {
                trials: args.trials,
                seed: number,
                ..RolloutConfig::default()
            };
            let cubeless = rollout(
                nets,
                MoveGen::new,
                NeuralEvaluator::exact,
                &pos,
                &config,
                || {},
            );
            let cubeful = rollout_cubeful(
                nets,
                MoveGen::new,
                &pos,
                &state,
                (1, Holder::Centred),
                &config,
                || {},
            );
            let p = cubeless.chances;
            let dead = f64::from(p.equity());
            let live = f64::from(live_equity(&p, Owner::Centred, false));
            points[class].push((live - dead, cubeful.value - dead));
            eprintln!(
                "{:>3} {:<24} win {:.3} dead {:+.3} live {:+.3} cubeful {:+.3} ± {:.3}",
                number,
                PositionClass::ALL[class].name(),
                p.win,
                dead,
                live,
                cubeful.value,
                cubeful.std_err
            );
        }
        let roll = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).expect("dice 1..=6");
        if let Some((after, _)) = best_play_0ply(nets, &mut gen, &pos, roll) {
            pos = after;
        }
        pos = pos.flip();
    }
    println!(
        "| class | positions | cube efficiency | standard error | mean live - dead |\n|---|---:|---:|---:|---:|"
    );
    for (class, pts) in PositionClass::ALL.iter().zip(&points) {
        let name = class.name();
        if pts.len() < 2 {
            println!("| {name} | {} | | | |", pts.len());
            continue;
        }
        let (x, se) = fit(pts);
        let spread = pts.iter().map(|(l, _)| l.abs()).sum::<f64>() / pts.len() as f64;
        println!(
            "| {name} | {} | {x:.2} | {se:.2} | {spread:.3} |",
            pts.len()
        );
    }
}
