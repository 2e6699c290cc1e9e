//! A TD(lambda) run with checkpoints that resume, for either dice game's nets: the loop the
//! `train` and `train_nf` examples share.
//!
//! The weights file holds the number of games trained (`games=N` in its info text, read by
//! [`games_in`]). Every `checkpoint` games the file is rewritten (atomically, by the caller's
//! `save`) and the nets play `measure_pairs` duplicate pairs against the hand-made evaluator
//! at 0-ply under their game's rules; the line is appended to `<out>.log`.

use crate::measure;
use crate::td::{train_batch, TdConfig, TdNets};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::Path;
use tabula_ai::backgammon::Heuristic;

/// The number of games a weights file's info text says were trained (0 when it says none).
pub fn games_in(info: &str) -> u64 {
    info.split_whitespace()
        .find_map(|kv| kv.strip_prefix("games="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The settings of a run, besides the method's.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// The weights file, written at every checkpoint (its log beside it).
    pub out: &'a Path,
    /// Train until this many games in all.
    pub games: u64,
    /// Games between checkpoints.
    pub checkpoint: u64,
    /// Duplicate pairs against the hand-made evaluator at each checkpoint (0: none).
    pub measure_pairs: u64,
    /// Whether the checkpoint line shows the positions per game (Never-Finishing's games
    /// vary most in length).
    pub positions_per_game: bool,
}

/// Trains `nets`, which have `done` games behind them, until `run.games`; `info` gives the
/// weights file's info text after `done` games and `save` writes the file.
pub fn train<N: TdNets>(
    nets: &mut N,
    mut done: u64,
    config: &TdConfig,
    run: &Run,
    info: impl Fn(u64) -> String,
    save: impl Fn(&N, &Path, String) -> std::io::Result<()>,
) -> Result<(), Box<dyn std::error::Error>> {
    let bar = ProgressBar::new(run.games);
    bar.set_style(ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}) {msg}",
    )?);
    bar.set_position(done);
    let started = std::time::Instant::now();
    let (mut since, mut loss_sum, mut batches, mut examples) = (0u64, 0.0, 0u32, 0usize);
    while done < run.games {
        let report = train_batch(nets, config, done);
        done += config.batch as u64;
        since += config.batch as u64;
        loss_sum += report.loss;
        examples += report.examples;
        batches += 1;
        bar.set_position(done);
        if since >= run.checkpoint || done >= run.games {
            save(nets, run.out, info(done))?;
            let mut line = format!("games {done} loss {:.4}", loss_sum / f64::from(batches));
            if run.positions_per_game {
                line += &format!(" positions/game {:.0}", examples as f64 / since as f64);
            }
            line += &format!(" elapsed {:.0} s", started.elapsed().as_secs_f64());
            (since, loss_sum, batches, examples) = (0, 0.0, 0, 0);
            if run.measure_pairs > 0 {
                let (ppg, hw) =
                    measure::duplicate_in::<N::Rules>(&*nets, &Heuristic, run.measure_pairs, done);
                line += &format!(" vs heuristic {ppg:+.3} ± {hw:.3} ppg");
            }
            bar.set_message(line.clone());
            let mut log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(run.out.with_extension("log"))?;
            writeln!(log, "{line}")?;
        }
    }
    bar.finish();
    Ok(())
}
