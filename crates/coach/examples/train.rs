//! Trains the backgammon nets by TD(lambda) self-play (`tabula_coach::td`), with checkpoints
//! that resume, and measures them against the hand-made evaluator along the way.
//!
//! ```text
//! cargo run --release -p tabula-coach --example train -- --out weights/run.tnn --games 200000
//! ```
//!
//! The weights file holds the number of games trained (`games=N` in its info text): run the
//! same command again and training resumes from there. Every `--checkpoint` games the file is
//! rewritten (atomically: a temporary file renamed over it) and the nets play
//! `--measure-pairs` duplicate pairs against the hand-made evaluator at 0-ply; the line is
//! appended to `<out>.log`.

mod common;

use clap::Parser;
use common::TdArgs;
use tabula_ai::backgammon::nn::encode::Encoding;
use tabula_ai::backgammon::nn::file;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_coach::checkpoint::{self, games_in, Run};
use tabula_coach::td;

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    td: TdArgs,
    /// Train until this many games in all.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Games between checkpoints.
    #[arg(long, default_value_t = 5_000)]
    checkpoint: u64,
    /// Duplicate pairs against the hand-made evaluator at each checkpoint (0: none).
    #[arg(long, default_value_t = 200)]
    measure_pairs: u64,
    /// Hidden units of the contact net (a fresh run only).
    #[arg(long, default_value_t = 80)]
    contact_hidden: usize,
    /// Hidden units of the race net (a fresh run only).
    #[arg(long, default_value_t = 40)]
    race_hidden: usize,
    /// A fresh run's nets also read the hand-crafted features (docs/training.md).
    #[arg(long)]
    features: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let config = args.td.config();
    let (mut nets, done) = match std::fs::read(&args.td.out) {
        Ok(bytes) => {
            let w = file::read(&bytes)?;
            let done = games_in(&w.info);
            (NeuralEvaluator::from_bytes(&bytes)?, done)
        }
        Err(_) => (
            td::fresh_with(
                if args.features {
                    Encoding::Features
                } else {
                    Encoding::Points
                },
                args.contact_hidden,
                args.race_hidden,
                args.td.seed,
            ),
            0,
        ),
    };
    let (contact_hidden, race_hidden, encoding) =
        (nets.contact.hidden, nets.race.hidden, nets.encoding);
    let info = |done: u64| {
        format!(
            "method=td-lambda games={done} lambda={} alpha={} batch={} seed={} \
             contact_hidden={contact_hidden} race_hidden={race_hidden} encoding={:?}",
            config.lambda, config.alpha, config.batch, config.seed, encoding
        )
    };
    let run = Run {
        out: &args.td.out,
        games: args.games,
        checkpoint: args.checkpoint,
        measure_pairs: args.measure_pairs,
        positions_per_game: false,
    };
    checkpoint::train(
        &mut nets,
        done,
        &config,
        &run,
        info,
        |nets: &NeuralEvaluator, out: &std::path::Path, info: String| {
            tabula_coach::save_backgammon(out, nets, info)
        },
    )
}
