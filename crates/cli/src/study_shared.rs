//! What the study commands of both dice games share (`study` for backgammon, `study_nf` for
//! Never-Finishing, `rollout`): the options of `tabula eval`, `hint` and `rollout`, and the
//! pieces of their text and JSON that are the same in both games (the five chances, the
//! ranked plays left out, a rollout's equity line and progress bar).

use anyhow::Result;
use clap::{Args, ValueEnum};
use std::io::Write;
use tabula_ai::backgammon::Probabilities;
use tabula_ai::study::rollout::RolloutResult;

/// The options of `tabula eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The game: backgammon (default) or never-finishing (tables notation, no cube).
    #[arg(long, value_enum, default_value_t = DiceGame::Backgammon)]
    pub game: DiceGame,
    /// A gnubg Position ID, `PositionID:MatchID`, an XGID, or `start`.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Look this many rolls ahead (0 to 3; default 2).
    #[arg(long, default_value_t = 2)]
    pub plies: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The options of `tabula hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// The game: backgammon (default) or never-finishing (tables notation, no cube).
    #[arg(long, value_enum, default_value_t = DiceGame::Backgammon)]
    pub game: DiceGame,
    /// A gnubg Position ID, `PositionID:MatchID`, an XGID, or `start`.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// The dice, e.g. 6-5 (default: the position's own dice; without dice the hint is the
    /// cube decision).
    #[arg(long)]
    pub dice: Option<String>,
    /// Rank the plays this many rolls deep (0 to 3; default 2).
    #[arg(long, default_value_t = 2)]
    pub plies: u32,
    /// Show at most this many plays (default 10; 0: all).
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The five chances as JSON and text show them (one type with the server's study reports).
pub(crate) use tabula_ai::backgammon::ChancesReport as ChancesJson;

/// The dice games the study commands know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiceGame {
    /// Backgammon, with the cube.
    Backgammon,
    /// Never-Finishing backgammon (tables notation, no cube).
    NeverFinishing,
}

/// The options of `tabula rollout`.
#[derive(Debug, Args)]
pub struct RolloutArgs {
    /// The game: backgammon (default) or never-finishing (tables notation, no cube).
    #[arg(long, value_enum, default_value_t = DiceGame::Backgammon)]
    pub game: DiceGame,
    /// A gnubg Position ID, `PositionID:MatchID`, an XGID, or `start` (the player on roll is
    /// to roll).
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Games to play out (default 1296: every pair of first rolls once).
    #[arg(long, default_value_t = 1296)]
    pub trials: u32,
    /// Stop each game after this many plays and take the nets' judgement there.
    #[arg(long)]
    pub truncate: Option<u32>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play the games without subtracting the luck of the rolls (plainer, noisier).
    #[arg(long)]
    pub no_variance_reduction: bool,
    /// Play with the cube: both players double, take and drop by the nets, and the rollout
    /// values no double and double/take (on the same dice) instead of the cubeless chances.
    #[arg(long)]
    pub cubeful: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// How many of `total` ranked plays a hint lists for `--top` (0: all).
pub(crate) fn shown_of(top: usize, total: usize) -> usize {
    if top == 0 {
        total
    } else {
        top.min(total)
    }
}

/// The line that says how many ranked plays were left out, if any.
pub(crate) fn write_not_shown(out: &mut dyn Write, shown: usize, total: usize) -> Result<()> {
    if shown < total {
        writeln!(
            out,
            "({} more plays not shown; --top 0 shows all)",
            total - shown
        )?;
    }
    Ok(())
}

/// A chance as a percentage, ` 12.3 %`.
pub(crate) fn percent(x: f32) -> String {
    format!("{:5.1} %", 100.0 * x)
}

/// The five chances and the cubeless equity, in two lines of text.
pub(crate) fn write_chances(out: &mut dyn Write, p: &Probabilities) -> Result<()> {
    writeln!(
        out,
        "Win {}  (gammon {}, backgammon {})   Lose {}  (gammon {}, backgammon {})",
        percent(p.win),
        percent(p.win_gammon),
        percent(p.win_backgammon),
        percent(1.0 - p.win),
        percent(p.lose_gammon),
        percent(p.lose_backgammon)
    )?;
    writeln!(out, "Cubeless equity {:+.3}", p.equity())?;
    Ok(())
}

/// `equity +0.123 ± 0.004 (standard error); with 95 % confidence between ...`.
pub(crate) fn equity_line(r: &RolloutResult) -> String {
    format!(
        "equity {:+.3} ± {:.3} (standard error); with 95 % confidence between {:+.3} and {:+.3}",
        r.equity,
        r.equity_std_err,
        r.equity - r.equity_ci95(),
        r.equity + r.equity_ci95()
    )
}

pub(crate) fn progress_bar(len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} trials, {elapsed} elapsed, about {eta} left",
        )
        .expect("a valid template"),
    );
    bar
}
