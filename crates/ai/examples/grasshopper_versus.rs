//! Grasshopper (14 checkers): today's `strong` against the `strong` it replaced, in pairs of
//! games that share a random opening and swap colours.
//!
//! ```text
//! cargo run --release -p tabula-ai --example grasshopper_versus -- --pairs 100 --opening-plies 4
//! ```
//!
//! The new bot is `GrasshopperBot::new(Strong, ..)`: `STRONG_NODES` and the largest cached
//! endgame table (`tabula solve grasshopper --tables 4` builds it). The old one is the same
//! search at `OLD_STRONG_NODES` without tables. `--new-nodes` / `--old-nodes` change the
//! budgets and `--no-tables` takes the tables from the new bot, to measure each part alone.
//! Both games of pair `p` open with the same `--opening-plies` random actions (seeded by `p`
//! and `--seed`); the new bot plays White in the first and Black in the second. Prints the
//! new bot's score, its points per game with a 95 % interval over the pair means, the time
//! per decision of each bot, and how the games ended.

use clap::Parser;
use std::time::Instant;
use tabula_ai::grasshopper::{tables, GrasshopperBot, OLD_STRONG_NODES, STRONG_NODES};
use tabula_ai::selfplay::derive;
use tabula_ai::selfplay::stats::Estimate;
use tabula_ai::{Bot, Budget, Level, RandomBot};
use tabula_core::{Color, Game, Status};
use tabula_grasshopper::Grasshopper;

#[derive(Parser)]
struct Args {
    /// Pairs of games (each opening played with both colours).
    #[arg(long, default_value_t = 100)]
    pairs: u64,
    /// Random actions at the start of every game.
    #[arg(long, default_value_t = 4)]
    opening_plies: u64,
    /// The master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The new bot's node budget.
    #[arg(long, default_value_t = STRONG_NODES)]
    new_nodes: u64,
    /// The old bot's node budget.
    #[arg(long, default_value_t = OLD_STRONG_NODES)]
    old_nodes: u64,
    /// Play the new bot without the endgame table.
    #[arg(long)]
    no_tables: bool,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// One game's result: the new bot's points, why it ended, decisions and seconds per bot.
struct Game1 {
    points: f64,
    end: &'static str,
    decisions: [u64; 2],
    seconds: [f64; 2],
}

fn play(args: &Args, pair: u64, new_is_white: bool) -> Game1 {
    let seed = derive(args.seed, pair);
    let table = if args.no_tables {
        None
    } else {
        tables::shared()
    };
    let mut new = GrasshopperBot::with_budget(
        Level::Strong,
        derive(seed, 1),
        Budget::Nodes(args.new_nodes),
    )
    .with_tables(table);
    let mut old = GrasshopperBot::with_budget(
        Level::Strong,
        derive(seed, 2),
        Budget::Nodes(args.old_nodes),
    )
    .with_tables(None);
    let mut opener = RandomBot::<Grasshopper>::new(derive(seed, 3), |_| true);
    let mut game = Grasshopper::default();
    let (mut decisions, mut seconds, mut actions) = ([0u64; 2], [0f64; 2], 0u64);
    loop {
        match game.status() {
            Status::Over(o) => {
                let new_colour = if new_is_white {
                    Color::White
                } else {
                    Color::Black
                };
                let points = match o.winner {
                    None => 0.0,
                    Some(w) if w == new_colour => 1.0,
                    Some(_) => -1.0,
                };
                return Game1 {
                    points,
                    end: o.reason.code(),
                    decisions,
                    seconds,
                };
            }
            Status::Decide { player, .. } => {
                let action = if actions < args.opening_plies {
                    opener.choose(&game)
                } else {
                    let is_new = (player == Color::White) == new_is_white;
                    let i = usize::from(!is_new);
                    let started = Instant::now();
                    let a = if is_new {
                        new.choose(&game)
                    } else {
                        old.choose(&game)
                    };
                    seconds[i] += started.elapsed().as_secs_f64();
                    decisions[i] += 1;
                    a
                };
                game.apply(&action.expect("a decision is due"))
                    .expect("legal");
                actions += 1;
            }
            Status::Chance(_) => unreachable!("Grasshopper has no dice"),
        }
    }
}

fn main() {
    use rayon::prelude::*;
    let args = Args::parse();
    if let Some(t) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .expect("a pool");
    }
    let table = if args.no_tables {
        None
    } else {
        tables::shared()
    };
    println!(
        "new: strong, {} nodes, endgame table {}; old: strong, {} nodes, no table; {} pairs, {} random opening actions, seed {}",
        args.new_nodes,
        table.map_or("none".to_string(), |t| format!("k = {}", t.k())),
        args.old_nodes,
        args.pairs,
        args.opening_plies,
        args.seed
    );
    let started = Instant::now();
    let games: Vec<(Game1, Game1)> = (0..args.pairs)
        .into_par_iter()
        .map(|p| (play(&args, p, true), play(&args, p, false)))
        .collect();
    let all = games.iter().flat_map(|(a, b)| [a, b]);
    let (mut won, mut lost, mut drawn) = (0, 0, 0);
    let mut ends = std::collections::BTreeMap::new();
    let (mut decisions, mut seconds) = ([0u64; 2], [0f64; 2]);
    for g in all {
        match g.points {
            p if p > 0.0 => won += 1,
            p if p < 0.0 => lost += 1,
            _ => drawn += 1,
        }
        *ends.entry(g.end).or_insert(0u64) += 1;
        for i in 0..2 {
            decisions[i] += g.decisions[i];
            seconds[i] += g.seconds[i];
        }
    }
    let (as_white, as_black): (f64, f64) = games
        .iter()
        .fold((0.0, 0.0), |(w, b), (x, y)| (w + x.points, b + y.points));
    let pair_means: Vec<f64> = games
        .iter()
        .map(|(a, b)| (a.points + b.points) / 2.0)
        .collect();
    println!(
        "new won {won}, lost {lost}, drew {drawn} of {} games",
        2 * args.pairs
    );
    println!(
        "new bot's points per game: {} (as White {:+.3}, as Black {:+.3} per game)",
        Estimate::of(&pair_means).text(),
        as_white / args.pairs as f64,
        as_black / args.pairs as f64
    );
    println!(
        "time per decision: new {:.3} s ({} decisions), old {:.3} s ({} decisions)",
        seconds[0] / decisions[0].max(1) as f64,
        decisions[0],
        seconds[1] / decisions[1].max(1) as f64,
        decisions[1]
    );
    println!("ended by: {ends:?}");
    println!("wall {:.1} s", started.elapsed().as_secs_f64());
}
