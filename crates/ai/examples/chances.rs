//! Reads positions on stdin and writes the nets' 0-ply chances of the player on roll, one
//! line each, for `scripts/gammon_rates.py` (which compares them with gnubg's).
//!
//! Input line: 50 numbers, the opponent's 25 counts then the mover's 25 (each side from its
//! own side, index 24 the bar: gnubg's board layout, the player on roll second). Output line:
//! win, win gammon, win backgammon, lose gammon, lose backgammon.
//!
//! ```text
//! cargo run --release -p tabula-ai --example chances -- --weights training/weights/gen2.tnn
//! ```

use clap::Parser;
use std::io::{BufRead, Write};
use tabula_ai::backgammon::{Evaluator, NeuralEvaluator};
use tabula_tables::Position;

#[derive(Parser)]
struct Args {
    /// A weights file (`.tnn`) instead of the shipped nets.
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let nets = match &args.weights {
        Some(path) => NeuralEvaluator::from_bytes(&std::fs::read(path)?)?,
        None => NeuralEvaluator::shipped().clone(),
    };
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let nums: Vec<u8> = line?
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        if nums.len() != 50 {
            return Err(format!("a line has 50 numbers, not {}", nums.len()).into());
        }
        let mut opp = [0u8; 25];
        let mut mover = [0u8; 25];
        opp.copy_from_slice(&nums[..25]);
        mover.copy_from_slice(&nums[25..]);
        let p = nets.evaluate(&Position::from_counts(&mover, &opp)?);
        writeln!(
            out,
            "{} {} {} {} {}",
            p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon
        )?;
    }
    Ok(())
}
