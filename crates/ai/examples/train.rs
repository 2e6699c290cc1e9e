//! Trains the backgammon nets by TD(lambda) self-play (`tabula_ai::train`), with checkpoints
//! that resume, and measures them against the hand-made evaluator along the way.
//!
//! ```text
//! cargo run --release -p tabula-ai --example train -- --out weights/run.tnn --games 200000
//! ```
//!
//! The weights file holds the number of games trained (`games=N` in its info text): run the
//! same command again and training resumes from there. Every `--checkpoint` games the file is
//! rewritten (atomically: a temporary file renamed over it) and the nets play
//! `--measure-pairs` duplicate pairs against the hand-made evaluator at 0-ply; the line is
//! appended to `<out>.log`.

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use tabula_ai::backgammon::nn::encode::Encoding;
use tabula_ai::backgammon::nn::file;
use tabula_ai::backgammon::{Heuristic, NeuralEvaluator};
use tabula_ai::train::{measure, td};

#[derive(Parser)]
struct Args {
    /// The weights file: read to resume when it exists, written at every checkpoint.
    #[arg(long)]
    out: PathBuf,
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
    /// Games per gradient step.
    #[arg(long, default_value_t = 8)]
    batch: usize,
    /// Trace decay.
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Step size per example.
    #[arg(long, default_value_t = 0.02)]
    alpha: f32,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A fresh run's nets also read the hand-crafted features (docs/training.md).
    #[arg(long)]
    features: bool,
}

fn games_in(info: &str) -> u64 {
    info.split_whitespace()
        .find_map(|kv| kv.strip_prefix("games="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let config = td::TdConfig {
        batch: args.batch,
        lambda: args.lambda,
        alpha: args.alpha,
        seed: args.seed,
    };
    let (mut nets, mut done) = match std::fs::read(&args.out) {
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
                args.seed,
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
    let bar = ProgressBar::new(args.games);
    bar.set_style(ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}) {msg}",
    )?);
    bar.set_position(done);
    let started = std::time::Instant::now();
    let mut since = 0u64;
    let mut loss_sum = 0.0;
    let mut batches = 0u32;
    while done < args.games {
        let report = td::train_batch(&mut nets, &config, done);
        done += config.batch as u64;
        since += config.batch as u64;
        loss_sum += report.loss;
        batches += 1;
        bar.set_position(done);
        if since >= args.checkpoint || done >= args.games {
            since = 0;
            tabula_ai::train::save_backgammon(&args.out, &nets, info(done))?;
            let mut line = format!(
                "games {done} loss {:.4} elapsed {:.0} s",
                loss_sum / f64::from(batches),
                started.elapsed().as_secs_f64()
            );
            loss_sum = 0.0;
            batches = 0;
            if args.measure_pairs > 0 {
                let (ppg, hw) = measure::duplicate(&nets, &Heuristic, args.measure_pairs, done);
                line += &format!(" vs heuristic {ppg:+.3} ± {hw:.3} ppg");
            }
            bar.set_message(line.clone());
            let mut log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(args.out.with_extension("log"))?;
            writeln!(log, "{line}")?;
        }
    }
    bar.finish();
    Ok(())
}
