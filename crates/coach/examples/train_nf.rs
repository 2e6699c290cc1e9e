//! Trains the Never-Finishing net by TD(lambda) self-play (`tabula_coach::nf_td`), with
//! checkpoints that resume, and measures it against the old NF bot's evaluator (the hand-made
//! backgammon `Heuristic`, choosing plays on the NF move generator at 0-ply) along the way.
//!
//! ```text
//! cargo run --release -p tabula-coach --example train_nf -- --out weights/nf-run.tnn --games 20000
//! ```
//!
//! The weights file holds the number of games trained (`games=N` in its info text): run the
//! same command again and training resumes from there. Every `--checkpoint` games the file is
//! rewritten (atomically: a temporary file renamed over it) and the net plays
//! `--measure-pairs` duplicate pairs against the heuristic at 0-ply; the line is appended to
//! `<out>.log`.

mod common;

use clap::Parser;
use common::TdArgs;
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::nn::file;
use tabula_coach::checkpoint::{self, games_in, Run};

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    td: TdArgs,
    /// Train until this many games in all.
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Games between checkpoints.
    #[arg(long, default_value_t = 1_000)]
    checkpoint: u64,
    /// Duplicate pairs against the heuristic at each checkpoint (0: none).
    #[arg(long, default_value_t = 100)]
    measure_pairs: u64,
    /// Hidden units (a fresh run only).
    #[arg(long, default_value_t = 80)]
    hidden: usize,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let config = args.td.config();
    let (mut eval, done) = match std::fs::read(&args.td.out) {
        Ok(bytes) => {
            let w = file::read_for(&bytes, tabula_ai::never_finishing::encode::INPUTS)?;
            (NfEvaluator::from_bytes(&bytes)?, games_in(&w.info))
        }
        Err(_) => (NfEvaluator::random(args.hidden, args.td.seed), 0),
    };
    let hidden = eval.net.hidden;
    let info = |done: u64| {
        format!(
            "game=never-finishing method=td-lambda games={done} lambda={} alpha={} batch={} \
             seed={} hidden={hidden}",
            config.lambda, config.alpha, config.batch, config.seed
        )
    };
    let run = Run {
        out: &args.td.out,
        games: args.games,
        checkpoint: args.checkpoint,
        measure_pairs: args.measure_pairs,
        positions_per_game: true,
    };
    checkpoint::train(
        &mut eval,
        done,
        &config,
        &run,
        info,
        |eval: &NfEvaluator, out: &std::path::Path, info: String| {
            tabula_coach::save_never_finishing(out, eval, info)
        },
    )
}
