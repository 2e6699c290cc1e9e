//! Two weights files against each other: cubeless money games at 0-ply with duplicate dice
//! (each dice seed played twice with the colours swapped), the first file's points per game
//! with its 95 % interval (`tabula_coach::measure::duplicate`). How docs/training.md
//! compares nets trained on different inputs.
//!
//! ```text
//! cargo run --release -p tabula-coach --example compare -- features.tnn points.tnn --pairs 2000
//! ```

use clap::Parser;
use std::path::PathBuf;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_coach::measure;

#[derive(Parser)]
struct Args {
    /// The first nets.
    first: PathBuf,
    /// The second nets.
    second: PathBuf,
    /// Duplicate pairs (twice as many games).
    #[arg(long, default_value_t = 1000)]
    pairs: u64,
    /// The dice seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn load(path: &PathBuf) -> Result<NeuralEvaluator, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(NeuralEvaluator::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (a, b) = (load(&args.first)?, load(&args.second)?);
    let started = std::time::Instant::now();
    let (ppg, half) = measure::duplicate(&a, &b, args.pairs, args.seed);
    println!(
        "{} against {}: {} games in {} duplicate pairs, seed {}: {ppg:+.3} ± {half:.3} points \
         per game for the first (95 %), {:.0} s",
        args.first.display(),
        args.second.display(),
        2 * args.pairs,
        args.pairs,
        args.seed,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
