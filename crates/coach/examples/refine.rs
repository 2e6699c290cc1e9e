//! Refines trained backgammon nets by supervised generations (`tabula_coach::supervised`):
//! each generation samples positions from the current nets' self-play, labels them with the
//! same nets' 1-ply answers, fits the nets to them, and measures the result against the
//! previous generation and against the starting nets (cubeless 0-ply duplicate).
//!
//! ```text
//! cargo run --release -p tabula-coach --example refine -- --from td.tnn --out refined.tnn \
//!     --generations 4 --games 4000
//! ```
//!
//! The output file holds the generations done (`generation=N` in its info text): run the
//! same command again and it resumes after the last finished generation. Each generation
//! rewrites the file atomically and appends a line to `<out>.log`.

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use tabula_ai::backgammon::nn::file;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_coach::{measure, supervised};

#[derive(Parser)]
struct Args {
    /// The nets to start from (a `.tnn` file), used when `--out` does not exist yet.
    #[arg(long)]
    from: PathBuf,
    /// The refined weights: read to resume when it exists, written after each generation.
    #[arg(long)]
    out: PathBuf,
    /// Generations to reach in all.
    #[arg(long, default_value_t = 4)]
    generations: u32,
    /// Self-play games sampled per generation.
    #[arg(long, default_value_t = 4000)]
    games: u64,
    /// The share of each game's positions kept.
    #[arg(long, default_value_t = 0.5)]
    keep: f64,
    /// SGD passes over a generation's examples.
    #[arg(long, default_value_t = 4)]
    epochs: usize,
    /// SGD step per example.
    #[arg(long, default_value_t = 0.002)]
    alpha: f32,
    /// Duplicate pairs of each measurement (0: none).
    #[arg(long, default_value_t = 2000)]
    measure_pairs: u64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn generation_in(info: &str) -> u32 {
    info.split_whitespace()
        .find_map(|kv| kv.strip_prefix("generation="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let start_bytes = std::fs::read(&args.from)?;
    let start = NeuralEvaluator::from_bytes(&start_bytes)?;
    let start_info = file::read(&start_bytes)?.info;
    let (mut nets, mut done) = match std::fs::read(&args.out) {
        Ok(bytes) => (
            NeuralEvaluator::from_bytes(&bytes)?,
            generation_in(&file::read(&bytes)?.info),
        ),
        Err(_) => (start.clone(), 0),
    };
    let bar = ProgressBar::new(u64::from(args.generations));
    bar.set_style(ProgressStyle::with_template(
        "{elapsed_precise} [{bar:20}] generation {pos}/{len} {msg}",
    )?);
    bar.set_position(u64::from(done));
    while done < args.generations {
        let started = std::time::Instant::now();
        let seed = args
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(u64::from(done));
        bar.set_message("sampling positions");
        let positions = supervised::sample_positions(&nets, args.games, args.keep, seed);
        bar.set_message(format!("labelling {} positions at 1-ply", positions.len()));
        let examples = supervised::label(&nets, &positions);
        let before = supervised::equity_error(&nets, &examples);
        bar.set_message("fitting");
        let previous = nets.clone();
        let report = supervised::fit(&mut nets, &examples, args.epochs, args.alpha, seed);
        let after = supervised::equity_error(&nets, &examples);
        done += 1;
        let info = format!(
            "method=refine-1ply generation={done} games={} keep={} epochs={} alpha={} seed={} \
             from=[{start_info}]",
            args.games, args.keep, args.epochs, args.alpha, args.seed
        );
        tabula_coach::save_backgammon(&args.out, &nets, info)?;
        let mut line = format!(
            "generation {done} examples {} loss {:.4} (floor {:.4}) equity error {:.4} -> {:.4} \
             elapsed {:.0} s",
            examples.len(),
            report.loss,
            report.floor,
            before,
            after,
            started.elapsed().as_secs_f64()
        );
        if args.measure_pairs > 0 {
            let (p, hw) = measure::duplicate(&nets, &previous, args.measure_pairs, seed);
            line += &format!(" vs previous {p:+.3} ± {hw:.3}");
            let (s, hw) = measure::duplicate(&nets, &start, args.measure_pairs, seed ^ 1);
            line += &format!(" vs start {s:+.3} ± {hw:.3} ppg");
        }
        bar.set_position(u64::from(done));
        bar.println(line.clone());
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(args.out.with_extension("log"))?;
        writeln!(log, "{line}")?;
    }
    bar.finish();
    Ok(())
}
