//! Reads positions on stdin and writes the nets' cubeless chances of the player on roll, one
//! line each, for `scripts/gammon_rates.py` (0-ply, compared with gnubg's) and
//! `scripts/rollout_judge.py` (`--plies 2`, and `--rollout N`: a variance-reduced rollout of
//! N trials played to the end by the 0-ply nets, `study::rollout`).
//!
//! Input line: 50 numbers, the opponent's 25 counts then the mover's 25 (each side from its
//! own side, index 24 the bar: gnubg's board layout, the player on roll second). Output line:
//! win, win gammon, win backgammon, lose gammon, lose backgammon.
//!
//! ```text
//! cargo run --release -p tabula-ai --example chances -- --weights training/weights/gen2.tnn
//! cargo run --release -p tabula-ai --example chances -- --plies 2
//! cargo run --release -p tabula-ai --example chances -- --rollout 1296 --seed 1
//! ```

use clap::Parser;
use std::io::{BufRead, Write};
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::study::nply;
use tabula_ai::study::rollout::{rollout, RolloutConfig};
use tabula_tables::MoveGen;
use tabula_tables::Position;

#[derive(Parser)]
struct Args {
    /// A weights file (`.tnn`) instead of the shipped nets.
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
    /// The depth of the nets' search (`study::nply::chances`).
    #[arg(long, default_value_t = 0, conflicts_with = "rollout")]
    plies: u32,
    /// Roll each position out instead, this many trials (to the end, 0-ply, variance
    /// reduction; on all cores).
    #[arg(long)]
    rollout: Option<u32>,
    /// The rollout's seed (the same dice for every position).
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
        let pos = Position::from_counts(&mover, &opp)?;
        let p = match args.rollout {
            Some(trials) => {
                let config = RolloutConfig {
                    trials,
                    seed: args.seed,
                    ..RolloutConfig::default()
                };
                rollout(
                    &nets,
                    MoveGen::new,
                    NeuralEvaluator::exact,
                    &pos,
                    &config,
                    || {},
                )
                .chances
            }
            None => nply::chances(&nets, &mut MoveGen::new(), &pos, args.plies),
        };
        writeln!(
            out,
            "{} {} {} {} {}",
            p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon
        )?;
    }
    Ok(())
}
