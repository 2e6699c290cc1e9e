//! The nets' chances against the outcomes of their own 0-ply self-play
//! (`tabula_coach::calibration`): for each class of position (all, by the nets' phase, by the
//! pips of both sides), the mean of each chance, the mean of its outcome and their gap with
//! its standard error (counted over games). A gap the size of several standard errors is a
//! bias of the nets that their own searches share.
//!
//! ```text
//! cargo run --release -p tabula-coach --example calibrate -- --games 20000 --threads 2
//! ```

use clap::Parser;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use tabula_ai::backgammon::nn::Phase;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_coach::calibration::{self, PipBand, Record, Summary};
use tabula_coach::outcome_fit::{self, Design, FitConfig};

#[derive(Parser)]
struct Args {
    /// The nets (a `.tnn` file); the shipped nets when left out.
    #[arg(long)]
    nets: Option<PathBuf>,
    /// Games of self-play.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// The dice seed: game `g` is played with dice from `seed * 1_000_003 + g`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Fit a logistic recalibration of each output of the contact net (and the crashed net,
    /// where there is one) to the games and write the recalibrated nets here; the race net
    /// is left as it is.
    #[arg(long)]
    write: Option<PathBuf>,
    /// With `--write`: refit each output's whole row of weights on the hidden layer to the
    /// games (`tabula_coach::outcome_fit`) instead of one slope and shift an output.
    #[arg(long)]
    rows: bool,
    /// With `--rows`: the ridge that holds each row near the one it starts from.
    #[arg(long, default_value_t = 1e-5)]
    ridge: f64,
    /// With `--rows`: every `stride`-th position of a game goes into the fit (memory).
    #[arg(long, default_value_t = 3)]
    stride: usize,
    /// With `--rows`: the Hessian of each Newton step is counted on every this many rows.
    #[arg(long, default_value_t = 32)]
    hessian_stride: usize,
    /// With `--rows`: the outputs refitted (0 win, 1 win gammon, 2 win backgammon, 3 lose
    /// gammon, 4 lose backgammon).
    #[arg(long, value_delimiter = ',', default_value = "0,1,2,3,4",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..5))]
    outputs: Vec<usize>,
}

const NAMES: [&str; 6] = [
    "win",
    "win gammon",
    "win bg",
    "lose gammon",
    "lose bg",
    "equity",
];

fn row(name: &str, s: &Summary) {
    print!("| {name} | {} |", s.positions);
    let bias = s.bias();
    for (k, gap) in bias.iter().enumerate() {
        print!(
            " {:.4} / {:.4} ({gap:+.4} ± {:.4}) |",
            s.predicted[k], s.outcome[k], s.stderr[k]
        );
    }
    println!();
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global()?;
    // The nets and the `info` their file carries (named in a recalibrated file's own).
    let (nets, from_info) = match &args.nets {
        Some(path) => {
            let named = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
            let bytes = std::fs::read(path).map_err(|e| named(&e))?;
            let info = tabula_ai::backgammon::nn::file::read(&bytes)
                .map_err(|e| named(&e))?
                .info;
            (
                NeuralEvaluator::from_bytes(&bytes).map_err(|e| named(&e))?,
                info,
            )
        }
        None => (
            NeuralEvaluator::shipped().clone(),
            "the shipped nets".to_string(),
        ),
    };
    let started = std::time::Instant::now();
    let games: Vec<Vec<Record>> = (0..args.games)
        .into_par_iter()
        .map(|g| calibration::game(&nets, args.seed.wrapping_mul(1_000_003).wrapping_add(g)))
        .collect();
    println!(
        "{} games of 0-ply self-play, seed {}, nets {}: {:.0} s",
        args.games,
        args.seed,
        args.nets
            .as_ref()
            .map_or("shipped".to_string(), |p| p.display().to_string()),
        started.elapsed().as_secs_f64()
    );
    println!();
    print!("| class | positions |");
    for n in NAMES {
        print!(" {n}: nets / games (gap ± se) |");
    }
    println!();
    println!("|---|---:|{}", "---|".repeat(NAMES.len()));
    row("all", &calibration::summarise(&games, |_| true));
    for (name, phase) in [
        ("contact", Phase::Contact),
        ("crashed", Phase::Crashed),
        ("race", Phase::Race),
    ] {
        row(name, &calibration::summarise(&games, |r| r.phase == phase));
    }
    for (name, band) in [
        ("250+ pips", PipBand::Early),
        ("150-249 pips", PipBand::Middle),
        ("under 150 pips", PipBand::Late),
    ] {
        row(name, &calibration::summarise(&games, |r| r.band == band));
    }
    row(
        "contact, 250+ pips",
        &calibration::summarise(&games, |r| {
            r.phase == Phase::Contact && r.band == PipBand::Early
        }),
    );
    for (k, name) in [(0, "win"), (1, "win gammon"), (3, "lose gammon")] {
        reliability(&games, k, name);
    }
    match &args.write {
        Some(out) if args.rows => write_rows(&nets, &games, &args, &from_info, out)?,
        Some(out) => write(&nets, &games, &args, &from_info, out)?,
        None => {}
    }
    Ok(())
}

/// The nets a recalibration refits: the contact net, and the crashed net where the file has
/// one of its own (the race net is calibrated and left alone).
fn refitted_nets(nets: &NeuralEvaluator) -> impl Iterator<Item = (&'static str, Phase)> + '_ {
    [("contact", Phase::Contact), ("crashed", Phase::Crashed)]
        .into_iter()
        .filter(|&(_, phase)| phase == Phase::Contact || nets.slot(phase) != 0)
}

/// The nets' file as a recalibrated file's `info` names it.
fn source(args: &Args) -> String {
    args.nets
        .as_ref()
        .map_or("the shipped nets".to_string(), |p| p.display().to_string())
}

/// Fits and bakes the recalibration of the contact and crashed nets, and saves them.
fn write(
    nets: &NeuralEvaluator,
    games: &[Vec<Record>],
    args: &Args,
    from_info: &str,
    out: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut fitted = nets.clone();
    let mut info = format!(
        "recalibrated by `calibrate --games {} --seed {}` (a logistic recalibration of each \
         output fitted to the outcomes of 0-ply self-play) from {}:",
        args.games,
        args.seed,
        source(args),
    );
    println!();
    println!("| net | output | a | b |");
    println!("|---|---|---:|---:|");
    for (name, phase) in refitted_nets(nets) {
        let slot = nets.slot(phase);
        let platts = calibration::fit_outputs(games, |r| nets.slot(r.phase) == slot);
        for (k, p) in platts.iter().enumerate() {
            println!("| {name} | {} | {:.4} | {:+.4} |", NAMES[k], p.a, p.b);
            info.push_str(&format!(" {name}[{k}] a {:.4} b {:+.4};", p.a, p.b));
            calibration::recalibrate(fitted.net_mut(phase), k, *p);
        }
    }
    info.push_str(&format!(" previous info: {from_info}"));
    tabula_coach::save_backgammon(out, &fitted, info)?;
    println!("\nwritten to {}", out.display());
    Ok(())
}

/// Refits the rows of the contact and crashed nets' outputs to the games (every tenth game
/// held out to measure the fit), and saves the nets.
fn write_rows(
    nets: &NeuralEvaluator,
    games: &[Vec<Record>],
    args: &Args,
    from_info: &str,
    out: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let config = FitConfig {
        ridge: args.ridge,
        hessian_stride: args.hessian_stride,
        ..FitConfig::default()
    };
    let mut fitted = nets.clone();
    let mut info = format!(
        "output rows refitted by `calibrate --rows --games {} --seed {} --ridge {} --stride {} \
         --outputs {:?}` (each output a logistic regression on the hidden layer, fitted to the \
         outcomes of 0-ply self-play) from {}:",
        args.games,
        args.seed,
        args.ridge,
        args.stride,
        args.outputs,
        source(args),
    );
    println!();
    println!("| net | output | training rows | held-out rows | held-out loss before | after |");
    println!("|---|---|---:|---:|---:|---:|");
    for (name, phase) in refitted_nets(nets) {
        let slot = nets.slot(phase);
        let net = nets.net(phase);
        let (mut train, mut held) = (Design::new(net), Design::new(net));
        for (g, game) in games.iter().enumerate() {
            for (j, r) in game.iter().enumerate() {
                if nets.slot(r.phase) != slot || (g + j) % args.stride.max(1) != 0 {
                    continue;
                }
                let design = if g % 10 == 9 { &mut held } else { &mut train };
                design.push(net, nets.encoding, &r.pos, r.outcome, r.free);
            }
        }
        for &k in &args.outputs {
            let started = std::time::Instant::now();
            let w0 = outcome_fit::row_of(net, k);
            let w = outcome_fit::fit_row(&train, k, &w0, config);
            let ((before, n), (after, _)) = (
                outcome_fit::mean_loss(&held, k, &w0),
                outcome_fit::mean_loss(&held, k, &w),
            );
            println!(
                "| {name} | {} | {} | {n} | {before:.6} | {after:.6} | ({:.0} s)",
                NAMES[k],
                train
                    .y
                    .iter()
                    .zip(&train.free)
                    .filter(|(_, f)| f[k])
                    .count(),
                started.elapsed().as_secs_f64()
            );
            info.push_str(&format!(
                " {name}[{k}] held-out loss {before:.6} -> {after:.6};"
            ));
            outcome_fit::set_row(fitted.net_mut(phase), k, &w);
        }
    }
    info.push_str(&format!(" previous info: {from_info}"));
    tabula_coach::save_backgammon(out, &fitted, info)?;
    println!("\nwritten to {}", out.display());
    Ok(())
}

/// The reliability of chance `k`: the positions binned by the nets' value of it, each bin's
/// mean value beside the share of games that came out so.
fn reliability(games: &[Vec<Record>], k: usize, name: &str) {
    let edges: &[f32] = if k == 0 {
        &[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01]
    } else {
        &[0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 1.01]
    };
    println!();
    println!("| the nets' {name} | positions | nets | games | gap ± se |");
    println!("|---|---:|---:|---:|---|");
    for w in edges.windows(2) {
        let s = calibration::summarise(games, |r| (w[0]..w[1]).contains(&r.predicted[k]));
        if s.positions == 0 {
            continue;
        }
        println!(
            "| {:.2} to {:.2} | {} | {:.4} | {:.4} | {:+.4} ± {:.4} |",
            w[0],
            w[1].min(1.0),
            s.positions,
            s.predicted[k],
            s.outcome[k],
            s.bias()[k],
            s.stderr[k]
        );
    }
}
