//! What the study commands of both dice games share (`study` for backgammon, `study_nf` for
//! Never-Finishing, `rollout`): the options of `tabula eval`, `hint` and `rollout`, the
//! refusal of a finished position, and the pieces of their text and JSON that are the same
//! in both games (the evaluation's JSON, the ranked plays of a hint and those left out, the
//! five chances, a rollout's settings, run with its progress bar, and its equity line).

use crate::error::bad_input;
use anyhow::Result;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::io::Write;
use std::time::Instant;
use tabula_ai::backgammon::Probabilities;
use tabula_ai::study::nply::RankedPlay;
use tabula_ai::study::rollout::{RolloutConfig, RolloutResult};
use tabula_core::Color;
use tabula_tables::Position;

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
    /// The level above strong for the cube: a decision the search finds close (within 0.25)
    /// is rolled out 324 times (about a second) instead of the strong bot's 72 (a fifth of
    /// that, the default), and the rollout's chances correct the searched values. Backgammon
    /// only.
    #[arg(long)]
    pub race: bool,
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
    /// The level above strong, a few seconds a decision. With dice: then roll out the plays
    /// within 0.08 of the best against each other on the same dice (up to 4 plays and 432
    /// trials each, a play dropped once it trails by 2 standard errors; the search's choice kept
    /// unless a play leads it by more than 1 at the end). Without dice: a close
    /// cube decision corrected by a 324-trial rollout instead of the strong bot's 72-trial
    /// check, the default (as `eval --race`). Backgammon only.
    #[arg(long)]
    pub race: bool,
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

/// Refuses a position whose game is over (one side has borne off everything).
pub(crate) fn refuse_finished(position: &Position) -> Result<()> {
    if position.bore_off_end(true).is_some() {
        return Err(bad_input(
            "the game in this position is over: nothing to evaluate",
        ));
    }
    Ok(())
}

/// `value` as one line of JSON, the whole output of a command given `--json`.
pub(crate) fn write_json(out: &mut dyn Write, value: &impl Serialize) -> Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}

/// `tabula eval --json`: the game (Never-Finishing only), the depth, the player on roll,
/// the five chances and (backgammon, unless the opponent holds the cube) the cube decision.
#[derive(Serialize)]
pub(crate) struct EvalJson<C: Serialize> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<&'static str>,
    pub plies: u32,
    pub on_roll: Color,
    pub chances: ChancesJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<C>,
}

/// One ranked play of `tabula hint`, as its JSON and its table show it.
#[derive(Debug, Serialize)]
pub(crate) struct HintPlay {
    pub rank: usize,
    #[serde(rename = "move")]
    pub play: String,
    /// The position after the play (Never-Finishing: its tables notation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The score ranked by: cubeful equity (money), match-winning chance (match) or
    /// cubeless equity (Never-Finishing) after the play.
    pub equity: f32,
    /// Its difference to the best play's (0 or negative).
    pub diff: f32,
    pub plies: u32,
    /// Whether the chances are the mean of `plies` and `plies - 1`: a close play of the
    /// 2-ply hint valued again as the strong bot values it.
    pub blended: bool,
    /// The rollout trials of a raced play (`--race`; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trials: Option<u32>,
    /// A raced play below the race's winner: how far its cubeless equity trails the
    /// winner's over the trials both played, with that difference's standard error (absent
    /// otherwise). Negative when the play is ahead but not by enough to unseat the held
    /// choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paired: Option<PairedJson>,
    pub chances: ChancesJson,
}

/// A paired difference of two raced plays, in cubeless equity.
#[derive(Debug, Serialize)]
pub(crate) struct PairedJson {
    pub behind: f64,
    pub std_err: f64,
}

/// The first `shown` of the `ranked` plays as a hint lists them: each scored by `score`
/// against the best, and named (with the position it reaches, if shown) by `name`.
pub(crate) fn hint_plays(
    ranked: &[RankedPlay],
    shown: usize,
    score: impl Fn(&Probabilities) -> f32,
    name: impl Fn(&Position) -> (String, Option<String>),
) -> Vec<HintPlay> {
    let best = ranked.first().map(|r| score(&r.chances));
    ranked[..shown]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let e = score(&r.chances);
            let (play, position) = name(&r.after);
            HintPlay {
                rank: i + 1,
                play,
                position,
                equity: e,
                diff: e - best.unwrap_or(e),
                plies: r.plies,
                blended: r.blended,
                trials: (r.trials > 0).then_some(r.trials),
                paired: (i > 0 && r.trials > 0).then_some(PairedJson {
                    behind: r.behind[0],
                    std_err: r.behind[1],
                }),
                chances: (&r.chances).into(),
            }
        })
        .collect()
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

impl RolloutArgs {
    /// The worker threads' pool, `--trials` and `--threads` checked.
    pub(crate) fn pool(&self) -> Result<rayon::ThreadPool> {
        if self.trials == 0 {
            return Err(bad_input("--trials must be at least 1"));
        }
        if self.threads == Some(0) {
            return Err(bad_input("--threads must be at least 1"));
        }
        Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()?)
    }

    /// How the games are played out.
    pub(crate) fn config(&self) -> RolloutConfig {
        RolloutConfig {
            trials: self.trials,
            truncate: self.truncate,
            seed: self.seed,
            variance_reduction: !self.no_variance_reduction,
        }
    }
}

/// Runs `work` (a rollout of `games` games, each ticking the bar once) on `pool` behind a
/// progress bar: its result and the seconds it took.
pub(crate) fn run_rollout<T: Send>(
    pool: &rayon::ThreadPool,
    games: u64,
    work: impl FnOnce(&indicatif::ProgressBar) -> T + Send,
) -> (T, f64) {
    let bar = progress_bar(games);
    let start = Instant::now();
    let result = pool.install(|| work(&bar));
    bar.finish_and_clear();
    (result, start.elapsed().as_secs_f64())
}

fn progress_bar(len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} trials, {elapsed} elapsed, about {eta} left",
        )
        .expect("a valid template"),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(trials: u32, behind: [f64; 2], win: f32) -> RankedPlay {
        RankedPlay {
            after: Position::START,
            chances: Probabilities {
                win,
                ..Probabilities::default()
            },
            plies: 2,
            trials,
            blended: false,
            behind,
        }
    }

    #[test]
    fn raced_plays_below_the_winner_show_their_paired_difference() {
        let plays = [
            ranked(432, [0.0, 0.0], 0.55),
            ranked(432, [-0.01, 0.02], 0.56),
            ranked(72, [0.08, 0.03], 0.5),
            ranked(0, [0.0, 0.0], 0.4),
        ];
        let rows = hint_plays(&plays, 4, Probabilities::equity, |_| (String::new(), None));
        assert!(rows[0].paired.is_none(), "the winner trails nothing");
        let second = rows[1].paired.as_ref().unwrap();
        assert_eq!((second.behind, second.std_err), (-0.01, 0.02));
        let third = rows[2].paired.as_ref().unwrap();
        assert_eq!((third.behind, third.std_err), (0.08, 0.03));
        assert!(
            rows[3].paired.is_none(),
            "a play not raced has no paired difference"
        );
        let json = serde_json::to_value(&rows[1]).unwrap();
        assert_eq!(json["paired"]["std_err"], 0.02);
        assert!(serde_json::to_value(&rows[3])
            .unwrap()
            .get("paired")
            .is_none());
    }
}
