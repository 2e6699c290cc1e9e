//! Trains the Never-Finishing net by TD(lambda) self-play (`tabula_ai::train::nf_td`), with
//! checkpoints that resume, and measures it against the old NF bot's evaluator (the hand-made
//! backgammon `Heuristic`, choosing plays on the NF move generator at 0-ply) along the way.
//!
//! ```text
//! cargo run --release -p tabula-ai --example train_nf -- --out weights/nf-run.tnn --games 20000
//! ```
//!
//! The weights file holds the number of games trained (`games=N` in its info text): run the
//! same command again and training resumes from there. Every `--checkpoint` games the file is
//! rewritten (atomically: a temporary file renamed over it) and the net plays
//! `--measure-pairs` duplicate pairs against the heuristic at 0-ply; the line is appended to
//! `<out>.log`.

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use tabula_ai::backgammon::nn::file::{self, Weights};
use tabula_ai::backgammon::Heuristic;
use tabula_ai::never_finishing::eval::NET_NAME;
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::train::{nf_measure, nf_td, td};

#[derive(Parser)]
struct Args {
    /// The weights file: read to resume when it exists, written at every checkpoint.
    #[arg(long)]
    out: PathBuf,
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
}

fn games_in(info: &str) -> u64 {
    info.split_whitespace()
        .find_map(|kv| kv.strip_prefix("games="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn save(path: &PathBuf, eval: &NfEvaluator, info: String) -> std::io::Result<()> {
    let bytes = file::write(&Weights {
        info,
        nets: vec![(NET_NAME.to_string(), eval.net.clone())],
    })
    .map_err(std::io::Error::other)?;
    let tmp = path.with_extension("tnn.tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(tmp, path)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let config = td::TdConfig {
        batch: args.batch,
        lambda: args.lambda,
        alpha: args.alpha,
        seed: args.seed,
    };
    let (mut eval, mut done) = match std::fs::read(&args.out) {
        Ok(bytes) => {
            let w = file::read_for(&bytes, tabula_ai::never_finishing::encode::INPUTS)?;
            (NfEvaluator::from_bytes(&bytes)?, games_in(&w.info))
        }
        Err(_) => (NfEvaluator::random(args.hidden, args.seed), 0),
    };
    let hidden = eval.net.hidden;
    let info = |done: u64| {
        format!(
            "game=never-finishing method=td-lambda games={done} lambda={} alpha={} batch={} \
             seed={} hidden={hidden}",
            config.lambda, config.alpha, config.batch, config.seed
        )
    };
    let bar = ProgressBar::new(args.games);
    bar.set_style(ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}) {msg}",
    )?);
    bar.set_position(done);
    let started = std::time::Instant::now();
    let (mut since, mut loss_sum, mut batches, mut examples) = (0u64, 0.0, 0u32, 0usize);
    while done < args.games {
        let report = nf_td::train_batch(&mut eval, &config, done);
        done += config.batch as u64;
        since += config.batch as u64;
        loss_sum += report.loss;
        examples += report.examples;
        batches += 1;
        bar.set_position(done);
        if since >= args.checkpoint || done >= args.games {
            save(&args.out, &eval, info(done))?;
            let mut line = format!(
                "games {done} loss {:.4} positions/game {:.0} elapsed {:.0} s",
                loss_sum / f64::from(batches),
                examples as f64 / since as f64,
                started.elapsed().as_secs_f64()
            );
            (since, loss_sum, batches, examples) = (0, 0.0, 0, 0);
            if args.measure_pairs > 0 {
                let (ppg, hw) = nf_measure::duplicate(&eval, &Heuristic, args.measure_pairs, done);
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
