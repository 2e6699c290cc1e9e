//! Reads chequer decisions on stdin and writes the bot's play, one line each, for
//! `scripts/chequer_error.py` (the judge is gnubg; this tool only plays).
//!
//! Input line: 50 numbers, the opponent's 25 counts then the mover's 25 (each side from its
//! own side, index 24 the bar: gnubg's board layout, the player on roll second), then the two
//! dice. Output line: the board after the bot's play in the same layout (the mover still
//! second), or `none` without a legal move.
//!
//! ```text
//! cargo run --release -p tabula-ai --example decide -- --level strong --eval neural
//! cargo run --release -p tabula-ai --example decide -- --plies 3      # the analysis at 3-ply
//! ```
//!
//! With `--plies` the play is the analysis' first choice (`study::nply::rank_plays`, cubeless,
//! the move filter of `--keep`, `--within` and `--at-least`) rather than a bot's; with
//! `--rollout N` as well, the plays within `--rollout-within` of the best (at most
//! `--rollout-keep`) are then raced by rollouts of up to N trials (`study::race`; `--truncate`,
//! `--drop-z`), and the race's winner is played. `--trace FILE` writes each race's course as
//! a JSON line (`scripts/race_rules.py` judges rules for the race's end from them).

use clap::Parser;
use std::io::{BufRead, Write};
use tabula_ai::backgammon::{BackgammonBot, EvalKind, NeuralEvaluator};
use tabula_ai::study::nply::{self, Filter};
use tabula_ai::study::race::{self, RaceConfig};
use tabula_ai::study::rollout::RolloutConfig;
use tabula_ai::Level;
use tabula_core::Dice;
use tabula_tables::MoveGen;
use tabula_tables::Position;

#[derive(Parser)]
struct Args {
    /// The bot's level.
    #[arg(long, default_value = "strong")]
    level: Level,
    /// `neural` or `heuristic`.
    #[arg(long, default_value = "neural")]
    eval: String,
    /// A weights file (`.tnn`) for the neural evaluator instead of the shipped one.
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
    /// A second weights file whose chances are averaged with the first's (an ensemble;
    /// `NeuralEvaluator::with_partner`).
    #[arg(long)]
    partner: Option<std::path::PathBuf>,
    /// The bot's seed (the easy level's noise).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play the analysis' best play at this many plies instead of a bot's choice.
    #[arg(long)]
    plies: Option<u32>,
    /// The analysis' move filter: at most this many plays searched deeper...
    #[arg(long, default_value_t = Filter::default().keep)]
    keep: usize,
    /// ...within this of the best at 0-ply...
    #[arg(long, default_value_t = Filter::default().within)]
    within: f32,
    /// ...and the best this many always.
    #[arg(long, default_value_t = Filter::default().at_least)]
    at_least: usize,
    /// With `--plies`: value the searched plays by the mean of that depth and one less
    /// (`nply::chances_blended`).
    #[arg(long)]
    blend: bool,
    /// With `--plies`: then value the plays within `--deeper-within` of the best (at most
    /// `--deeper-keep`) by the mean of this depth and one less (`nply::deepen`).
    #[arg(long)]
    deeper: Option<u32>,
    /// The deeper stage's window behind the best play...
    #[arg(long, default_value_t = 0.04)]
    deeper_within: f32,
    /// ...and its most plays.
    #[arg(long, default_value_t = 3)]
    deeper_keep: usize,
    /// Roll out the plays within `--rollout-within` of the best after the search, this many
    /// trials each, and play the best rollout.
    #[arg(long)]
    rollout: Option<u32>,
    /// The race's window behind the best play...
    #[arg(long, default_value_t = RaceConfig::default().within)]
    rollout_within: f32,
    /// ...and its most plays.
    #[arg(long, default_value_t = RaceConfig::default().keep)]
    rollout_keep: usize,
    /// The race's rollouts stop after this many plays (default: played to the end).
    #[arg(long)]
    truncate: Option<u32>,
    /// The race's trials of all the plays together.
    #[arg(long, default_value_t = RaceConfig::default().budget)]
    budget: u32,
    /// A play is dropped once this many standard errors behind.
    #[arg(long, default_value_t = RaceConfig::default().drop_z)]
    drop_z: f64,
    /// The search's choice is dropped only at twice `--drop-z` and is played unless a play
    /// leads it by more than this many standard errors at the race's end
    /// (`RaceConfig::hold_z`).
    #[arg(long, default_value_t = RaceConfig::default().hold_z.unwrap_or(1.0))]
    hold_z: f64,
    /// The race's best mean is played, the search's choice not held (as before 6 December).
    #[arg(long)]
    no_hold: bool,
    /// With `--rollout`: append each race to this file, one JSON line a decision (the
    /// contenders' searched and raced equities, trials, paired differences and standard
    /// errors), for `scripts/race_rules.py` to judge other rules for the race's end on the
    /// same races. The race then holds the search's choice whenever it is still in the race
    /// (an infinite `--hold-z`): the race's course is the shipped one, only its last step
    /// differs.
    #[arg(long)]
    trace: Option<std::path::PathBuf>,
}

/// A position after a play in gnubg's layout (the opponent's 25 counts, then the mover's).
fn gnubg_counts(after: &Position) -> Vec<u8> {
    let [m, o] = after.to_counts();
    o.iter().chain(&m).copied().collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let kind = match args.eval.as_str() {
        "neural" => EvalKind::Neural,
        "heuristic" => EvalKind::Heuristic,
        other => return Err(format!("--eval is neural or heuristic, not {other:?}").into()),
    };
    let read = |path: &std::path::Path| -> Result<NeuralEvaluator, Box<dyn std::error::Error>> {
        Ok(NeuralEvaluator::from_bytes(&std::fs::read(path)?)?)
    };
    let nets: &'static NeuralEvaluator = match (&args.weights, &args.partner) {
        (None, None) => NeuralEvaluator::shipped(),
        (weights, partner) => {
            let mut nets = match weights {
                Some(path) => read(path)?,
                None => NeuralEvaluator::shipped().clone(),
            };
            if let Some(path) = partner {
                nets = nets.with_partner(read(path)?);
            }
            Box::leak(Box::new(nets))
        }
    };
    let mut bot = match kind {
        EvalKind::Neural => BackgammonBot::with_nets(args.level, args.seed, nets),
        EvalKind::Heuristic => BackgammonBot::with_eval(args.level, args.seed, kind),
    };
    let mut trace = match &args.trace {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?,
        )),
        None => None,
    };
    let mut gen = MoveGen::new();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let nums: Vec<u8> = line?
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        if nums.len() != 52 {
            return Err(format!("a line has 52 numbers, not {}", nums.len()).into());
        }
        let mut opp = [0u8; 25];
        let mut mover = [0u8; 25];
        opp.copy_from_slice(&nums[..25]);
        mover.copy_from_slice(&nums[25..50]);
        let pos = Position::from_counts(&mover, &opp)?;
        let dice = Dice::new(nums[50], nums[51])?;
        let choice = match args.plies {
            Some(plies) => {
                let candidates = gen.positions(&pos, dice).to_vec();
                let filter = Filter {
                    keep: args.keep,
                    within: args.within,
                    at_least: args.at_least,
                };
                let deep = if args.blend {
                    nply::Deep::Blended
                } else {
                    nply::Deep::Searched
                };
                let mut ranked = nply::rank_plays_by(
                    nets,
                    MoveGen::new,
                    &candidates,
                    plies,
                    filter,
                    |p| p.equity(),
                    deep,
                );
                if let Some(deeper) = args.deeper {
                    let filter = Filter {
                        keep: args.deeper_keep,
                        within: args.deeper_within,
                        at_least: 1,
                    };
                    nply::deepen(nets, MoveGen::new, &mut ranked, deeper, filter, |p| {
                        p.equity()
                    });
                }
                match args.rollout {
                    Some(trials) => {
                        let config = RaceConfig {
                            within: args.rollout_within,
                            keep: args.rollout_keep,
                            max_trials: trials,
                            budget: args.budget,
                            drop_z: args.drop_z,
                            rollout: RolloutConfig {
                                truncate: args.truncate,
                                ..RolloutConfig::default()
                            },
                            cube: None,
                            hold_z: (!args.no_hold).then_some(args.hold_z),
                        };
                        match trace.as_mut() {
                            Some(file) => {
                                let config = RaceConfig {
                                    hold_z: Some(f64::MAX),
                                    ..config
                                };
                                traced_race(nets, &ranked, &config, file)?
                            }
                            None => {
                                race::refine(nets, MoveGen::new, &mut ranked, None, &config);
                                ranked.first().map(|r| r.after)
                            }
                        }
                    }
                    None => ranked.first().map(|r| r.after),
                }
            }
            None => bot.choose_play(&pos, dice),
        };
        match choice {
            Some(after) => {
                let text: Vec<String> = gnubg_counts(&after).iter().map(u8::to_string).collect();
                writeln!(out, "{}", text.join(" "))?;
            }
            None => writeln!(out, "none")?,
        }
        out.flush()?;
    }
    Ok(())
}

/// Races the contenders of `ranked` and writes the race as one JSON line; returns the race's
/// winner (the search's first play when fewer than two are close).
fn traced_race(
    nets: &NeuralEvaluator,
    ranked: &[nply::RankedPlay],
    config: &RaceConfig,
    file: &mut impl Write,
) -> Result<Option<Position>, Box<dyn std::error::Error>> {
    let plays = race::contenders(ranked, config);
    if plays.len() < 2 {
        return Ok(ranked.first().map(|r| r.after));
    }
    let raced = race::race(nets, MoveGen::new, &plays, None, config);
    let rows: Vec<serde_json::Value> = plays
        .iter()
        .enumerate()
        .map(|(k, after)| {
            let searched = &ranked[k];
            let r = raced
                .iter()
                .find(|r| r.after == *after)
                .expect("every contender is raced");
            serde_json::json!({
                "board": gnubg_counts(after),
                "searched": searched.chances.equity(),
                "blended": searched.blended,
                "trials": r.trials,
                "equity": r.equity,
                "behind": r.behind,
                "std_err": r.behind_std_err,
                "dropped": r.dropped,
            })
        })
        .collect();
    let winner = gnubg_counts(&raced[0].after);
    writeln!(
        file,
        "{}",
        serde_json::json!({"winner": winner, "plays": rows})
    )?;
    file.flush()?;
    Ok(Some(raced[0].after))
}
