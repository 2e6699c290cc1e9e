//! The neural bots against the hand-made ones they replaced: money games (one game each,
//! cube, beavers, Jacoby) with duplicate dice, each dice seed played twice with the colours
//! swapped, and the new bot's points per game over the pair means.
//!
//! ```text
//! cargo run --release -p tabula-ai --example versus -- --pairs 1000 --level strong
//! ```
//!
//! `--cubeless` plays backgammon without the cube (nobody is offered the double).
//!
//! `--weights FILE` plays other nets than the shipped ones; `--against FILE` replaces the
//! hand-made opponent by nets from a file (to compare two generations with the cube on).
//!
//! `--game nf` plays Never-Finishing instead (no cube: one game each, single 1, gammon 2, a
//! dead position 0): the NF bot on its net (`--weights`: a checkpoint of `train_nf`) against
//! the NF bot on the hand-made evaluator it used before (`--against`: another checkpoint).
//!
//! ```text
//! cargo run --release -p tabula-ai --example versus -- --game nf --pairs 500 --level strong
//! ```

use clap::Parser;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use tabula_ai::backgammon::{BackgammonBot, EvalKind, NeuralEvaluator};
use tabula_ai::never_finishing::{NfBot, NfEvalKind, NfEvaluator};
use tabula_ai::Level;
use tabula_core::{ChaChaDice, Color, Decision, DiceSource, Game, Status};
use tabula_tables::backgammon::{Action, Backgammon, Mode, Options};
use tabula_tables::never_finishing::{NeverFinishing, NfOptions, Scoring};

/// The game played.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GameKind {
    /// Backgammon money games with the cube.
    Backgammon,
    /// Never-Finishing money games (no cube).
    Nf,
}

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
    /// The nets of the first bot (default: the shipped ones).
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
    /// The second bot's nets (default: the hand-made evaluator).
    #[arg(long)]
    against: Option<std::path::PathBuf>,
    /// The game.
    #[arg(long, value_enum, default_value = "backgammon")]
    game: GameKind,
    /// Backgammon without the cube: nobody is asked to double, the Jacoby rule is off (a game
    /// scores 1, 2 or 3).
    #[arg(long)]
    cubeless: bool,
}

/// The Never-Finishing sides: the first bot's net, the second's (`None`: the heuristic).
#[derive(Clone, Copy)]
struct NfSides {
    first: &'static NfEvaluator,
    second: Option<&'static NfEvaluator>,
}

fn load_nf(path: &std::path::Path) -> &'static NfEvaluator {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let net = NfEvaluator::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Box::leak(Box::new(net))
}

/// Decisions of the first Never-Finishing bot, their total time in microseconds, the longest.
static NF_DECISIONS: AtomicU64 = AtomicU64::new(0);
static NF_MICROS: AtomicU64 = AtomicU64::new(0);
static NF_LONGEST: AtomicU64 = AtomicU64::new(0);

/// White's points in one Never-Finishing money game on dice `seed`.
fn nf_game(level: Level, sides: NfSides, first_is_white: bool, seed: u64) -> i64 {
    let options = NfOptions {
        scoring: Scoring::Money { games: Some(1) },
        ..NfOptions::default()
    };
    let mut s = NeverFinishing::new(options).expect("money options are valid");
    let mut dice = ChaChaDice::new(seed);
    let first = NfBot::with_net(level, seed, sides.first);
    let second = match sides.second {
        Some(net) => NfBot::with_net(level, seed, net),
        None => NfBot::with_eval(level, seed, NfEvalKind::Heuristic),
    };
    let mut bots = if first_is_white {
        [first, second]
    } else {
        [second, first]
    };
    for _ in 0..100_000 {
        match s.status() {
            Status::Over(_) => {
                // One money game: single 1, gammon 2, a dead position 0.
                let r = s.results()[0];
                let points = i64::from(r.points);
                return match r.winner {
                    Some(Color::White) => points,
                    Some(Color::Black) => -points,
                    None => 0,
                };
            }
            Status::Chance(_) => s.roll(dice.roll()).expect("a roll at a chance node"),
            Status::Decide { player, .. } => {
                let started = std::time::Instant::now();
                let a = bots[player.index()]
                    .choose(&s)
                    .expect("the bot has a move when asked");
                if (player == Color::White) == first_is_white {
                    let us = started.elapsed().as_micros() as u64;
                    NF_DECISIONS.fetch_add(1, Ordering::Relaxed);
                    NF_MICROS.fetch_add(us, Ordering::Relaxed);
                    NF_LONGEST.fetch_max(us, Ordering::Relaxed);
                }
                s.apply(&a).expect("the bot's action is legal");
            }
        }
    }
    panic!("game {seed} did not end");
}

/// Who plays: each side's nets (`None`: the hand-made evaluator for the second side).
#[derive(Clone, Copy)]
struct Sides {
    first: &'static NeuralEvaluator,
    second: Option<&'static NeuralEvaluator>,
}

fn load(path: &std::path::Path) -> &'static NeuralEvaluator {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let nets =
        NeuralEvaluator::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Box::leak(Box::new(nets))
}

/// White's points in one money game between `white` and `black` on dice `seed`.
fn game(level: Level, sides: Sides, first_is_white: bool, seed: u64, cubeless: bool) -> i64 {
    let mut options = Options::money();
    if let Mode::Money { games, jacoby, .. } = &mut options.mode {
        *games = Some(1);
        // Without the cube the Jacoby rule would score every gammon as a single.
        *jacoby = !cubeless;
    }
    let mut s = Backgammon::new(options).expect("money options are valid");
    let mut dice = ChaChaDice::new(seed);
    let first = BackgammonBot::with_nets(level, seed, sides.first);
    let second = match sides.second {
        Some(nets) => BackgammonBot::with_nets(level, seed, nets),
        None => BackgammonBot::with_eval(level, seed, EvalKind::Heuristic),
    };
    let mut bots = if first_is_white {
        [first, second]
    } else {
        [second, first]
    };
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
            Status::Decide {
                decision: Decision::DoubleOrRoll,
                ..
            } if cubeless => s.apply(&Action::Roll).expect("rolling is legal"),
            Status::Decide { player, .. } => {
                let a = bots[player.index()].choose(&s);
                if std::env::var_os("VERSUS_TRACE").is_some() {
                    eprintln!("{player:?} {a:?}");
                }
                s.apply(&a).expect("the bot's action is legal");
            }
        }
    }
    panic!("game {seed} did not end");
}

fn main() {
    let args = Args::parse();
    let nf_sides = NfSides {
        first: args
            .weights
            .as_deref()
            .map_or_else(NfEvaluator::shipped, load_nf),
        second: args.against.as_deref().map(load_nf),
    };
    let sides = Sides {
        first: match args.game {
            GameKind::Backgammon => args
                .weights
                .as_deref()
                .map_or_else(NeuralEvaluator::shipped, load),
            // Not played; the shipped backgammon nets stand in.
            GameKind::Nf => NeuralEvaluator::shipped(),
        },
        second: match args.game {
            GameKind::Backgammon => args.against.as_deref().map(load),
            GameKind::Nf => None,
        },
    };
    let name = |p: &Option<std::path::PathBuf>, default: &str| {
        p.as_ref()
            .map_or(default.to_string(), |p| p.display().to_string())
    };
    let (first_name, second_name) = (
        name(&args.weights, "neural (shipped)"),
        name(&args.against, "heuristic"),
    );
    let started = std::time::Instant::now();
    let results: Vec<[i64; 2]> = (0..args.pairs)
        .into_par_iter()
        .map(|p| {
            let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(p);
            match args.game {
                GameKind::Backgammon => [
                    game(args.level, sides, true, seed, args.cubeless),
                    -game(args.level, sides, false, seed, args.cubeless),
                ],
                GameKind::Nf => [
                    nf_game(args.level, nf_sides, true, seed),
                    -nf_game(args.level, nf_sides, false, seed),
                ],
            }
        })
        .collect();
    let means: Vec<f64> = results.iter().map(|[a, b]| (a + b) as f64 / 2.0).collect();
    let games: Vec<i64> = results.iter().flatten().copied().collect();
    let won = games.iter().filter(|&&g| g > 0).count();
    let largest = games.iter().map(|g| g.abs()).max().unwrap_or(0);
    let big = games.iter().filter(|g| g.abs() >= 16).count();
    let n = means.len() as f64;
    let mean = means.iter().sum::<f64>() / n;
    let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let game_name = match args.game {
        GameKind::Backgammon if args.cubeless => "backgammon without the cube",
        GameKind::Backgammon => "backgammon",
        GameKind::Nf => "never-finishing",
    };
    println!(
        "{game_name}: {} {first_name} against {} {second_name}: {} games in {} duplicate pairs, seed {}: {:+.3} ± {:.3} points per game for the first (95 %), {:.0} s",
        args.level,
        args.level,
        2 * args.pairs,
        args.pairs,
        args.seed,
        mean,
        1.96 * (var / n).sqrt(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "the first won {won} of {} games; {big} games were worth 16 points or more, the largest {largest}",
        games.len()
    );
    let decisions = NF_DECISIONS.load(Ordering::Relaxed);
    if decisions > 0 {
        println!(
            "the first bot's {decisions} decisions took {:.1} ms on average, the longest {:.1} ms",
            NF_MICROS.load(Ordering::Relaxed) as f64 / decisions as f64 / 1000.0,
            NF_LONGEST.load(Ordering::Relaxed) as f64 / 1000.0
        );
    }
    let mut sorted = games.clone();
    sorted.sort_unstable();
    let trimmed = &sorted[sorted.len() / 100..sorted.len() - sorted.len() / 100];
    println!(
        "without the 1 % largest wins and losses: {:+.3} points per game",
        trimmed.iter().sum::<i64>() as f64 / trimmed.len().max(1) as f64
    );
}
