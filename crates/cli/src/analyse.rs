//! `tabula analyse`: the analysis of a backgammon match or money session written as a
//! Jellyfish .mat file (what gnubg and Tabula export), on the shipped neural nets.
//!
//! The file is replayed through the rules engine (`tabula_tables::notation::mat`), every
//! decision is analysed (`tabula_ai::study::analyse`: chequer and cube errors in EMG with
//! gnubg's marks, the luck of every roll), and the text lists the marked decisions (every
//! decision with `--all`) and each player's error rates and rating; `--json` prints it all
//! as one JSON document.

use crate::error::bad_input;
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::study::analyse::{
    analyse, rating, Analysis, Decision, Kind, Mark, PlayerStats, Settings, Step,
};
use tabula_core::{ByColor, Color};
use tabula_tables::notation::format_play;
use tabula_tables::notation::mat::replay_mat;
use tabula_tables::Position;

/// The largest file `analyse` reads (a long money session is well under it).
const MAX_FILE: u64 = 16 << 20;

/// The options of `tabula analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The .mat file (a match or a money session).
    pub file: PathBuf,
    /// Plies for chequer play and cube decisions (0 to 3; default 2).
    #[arg(long, default_value_t = 2)]
    pub plies: u32,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// List every decision, not only the marked ones.
    #[arg(long)]
    pub all: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The play from `before` to `after` in gnubg's notation.
fn play_text(before: &Position, after: &Position, dice: tabula_core::Dice) -> String {
    before
        .legal_plays(dice)
        .iter()
        .find(|(_, a)| a == after)
        .map(|(play, _)| format_play(play))
        .unwrap_or_else(|| "(no play)".to_string())
}

#[derive(Debug, Serialize)]
struct DecisionJson {
    game: u32,
    step: usize,
    player: Color,
    /// `move`, `double`, `no-double`, `take`, `pass`.
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    played: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<String>,
    cube: u32,
    /// EMG given up.
    error: f32,
    /// `""`, `doubtful`, `bad`, `very bad`.
    mark: &'static str,
    counted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    luck: Option<f32>,
    /// The decider's value with the right choice (EMG): the equity graph.
    value: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    proper: Option<String>,
}

#[derive(Debug, Serialize)]
struct PlayerJson {
    name: String,
    colour: Color,
    chequer_decisions: u32,
    chequer_error_rate: f64,
    cube_decisions: u32,
    cube_error_rate: f64,
    overall_error_rate: f64,
    rating: &'static str,
    luck: f64,
    doubtful: u32,
    bad: u32,
    very_bad: u32,
}

fn player_json(name: &str, colour: Color, s: &PlayerStats) -> PlayerJson {
    PlayerJson {
        name: name.to_string(),
        colour,
        chequer_decisions: s.moves,
        chequer_error_rate: s.chequer_rate(),
        cube_decisions: s.cube_decisions,
        cube_error_rate: s.cube_rate(),
        overall_error_rate: s.overall_rate(),
        rating: rating(s.overall_rate()),
        luck: s.luck,
        doubtful: s.marks[0],
        bad: s.marks[1],
        very_bad: s.marks[2],
    }
}

fn decision_json(d: &Decision, steps: &[Step]) -> DecisionJson {
    let board = steps[d.step].0.game().board();
    let (kind, dice, played, best) = match d.kind {
        Kind::Move {
            dice, played, best, ..
        } => (
            "move",
            Some(dice.to_string()),
            Some(play_text(&board, &played, dice)),
            Some(play_text(&board, &best, dice)),
        ),
        Kind::Double(true) => ("double", None, None, None),
        Kind::Double(false) => ("no-double", None, None, None),
        Kind::Answer(true) => ("take", None, None, None),
        Kind::Answer(false) => ("pass", None, None, None),
    };
    DecisionJson {
        game: d.game,
        step: d.step,
        player: d.player,
        kind,
        dice,
        played,
        best,
        cube: d.cube,
        error: d.error,
        mark: d.mark.label(),
        counted: d.counted,
        luck: d.luck,
        value: d.value,
        proper: d.cube_analysis.map(|a| a.verdict()),
    }
}

/// `tabula analyse`.
pub fn run(out: &mut dyn Write, args: &AnalyseArgs) -> Result<()> {
    if args.plies > 3 {
        return Err(bad_input(format!(
            "--plies must be 0 to 3, not {}",
            args.plies
        )));
    }
    if args.threads == Some(0) {
        return Err(bad_input("--threads must be at least 1"));
    }
    let name = args.file.display().to_string();
    let meta =
        std::fs::metadata(&args.file).map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
    if meta.len() > MAX_FILE {
        return Err(bad_input(format!(
            "{name} is {} bytes; analyse reads files up to {MAX_FILE}",
            meta.len()
        )));
    }
    let bytes =
        std::fs::read(&args.file).map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    let replay = replay_mat(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
    let steps: Vec<Step> = replay
        .steps
        .iter()
        .map(|s| (s.before.clone(), s.player, s.action, s.dice))
        .collect();
    let settings = Settings {
        plies: args.plies,
        ..Settings::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
    let bar = indicatif::ProgressBar::new(steps.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} decisions, about {eta} left")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let analysis =
        pool.install(|| analyse(NeuralEvaluator::shipped(), &steps, &settings, || bar.inc(1)));
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let names = &replay.names;
    if args.json {
        #[derive(Serialize)]
        struct AnalyseJson {
            file: String,
            match_length: u32,
            plies: u32,
            seconds: f64,
            players: [PlayerJson; 2],
            decisions: Vec<DecisionJson>,
        }
        let doc = AnalyseJson {
            file: name,
            match_length: replay.length,
            plies: args.plies,
            seconds,
            players: [
                player_json(&names.white, Color::White, &analysis.white),
                player_json(&names.black, Color::Black, &analysis.black),
            ],
            decisions: analysis
                .decisions
                .iter()
                .map(|d| decision_json(d, &steps))
                .collect(),
        };
        serde_json::to_writer(&mut *out, &doc)?;
        writeln!(out)?;
        return Ok(());
    }
    write_text(out, args, &replay.length, names, &analysis, &steps, seconds)
}

fn write_text(
    out: &mut dyn Write,
    args: &AnalyseArgs,
    length: &u32,
    names: &ByColor<String>,
    analysis: &Analysis,
    steps: &[Step],
    seconds: f64,
) -> Result<()> {
    let what = if *length == 0 {
        "money session".to_string()
    } else {
        format!("{length}-point match")
    };
    writeln!(
        out,
        "{}: {what}, {} (White) against {} (Black); analysed at {}-ply in {:.1} s",
        args.file.display(),
        names.white,
        names.black,
        args.plies,
        seconds
    )?;
    let mut game = 0;
    for d in &analysis.decisions {
        if !args.all && d.mark == Mark::None {
            continue;
        }
        if d.game != game {
            game = d.game;
            writeln!(out, "Game {game}")?;
        }
        let j = decision_json(d, steps);
        let who = &names[d.player];
        let what = match d.kind {
            Kind::Move { .. } => format!(
                "{} {}",
                j.dice.unwrap_or_default(),
                j.played.clone().unwrap_or_default()
            ),
            _ => j.kind.to_string(),
        };
        let mark = if d.mark == Mark::None {
            String::new()
        } else {
            format!(" ({})", d.mark.label())
        };
        let detail = match (d.kind, &j.best, &j.proper) {
            (Kind::Move { .. }, Some(best), _) if d.error > 0.0 => format!("; best {best}"),
            (_, _, Some(proper)) => format!("; proper: {proper}"),
            _ => String::new(),
        };
        let luck = d.luck.map_or(String::new(), |l| format!("  luck {l:+.3}"));
        writeln!(
            out,
            "  {who}: {what:<28} error {:.3}{mark}{detail}{luck}",
            d.error
        )?;
    }
    writeln!(out)?;
    writeln!(out, "{:<34} {:>20} {:>20}", "", names.white, names.black)?;
    let (w, b) = (&analysis.white, &analysis.black);
    let row = |out: &mut dyn Write, label: &str, x: String, y: String| -> Result<()> {
        writeln!(out, "{label:<34} {x:>20} {y:>20}")?;
        Ok(())
    };
    row(
        out,
        "Unforced chequer plays",
        w.moves.to_string(),
        b.moves.to_string(),
    )?;
    row(
        out,
        "Chequer play error rate (mEMG)",
        format!("{:.1}", w.chequer_rate()),
        format!("{:.1}", b.chequer_rate()),
    )?;
    row(
        out,
        "Cube decisions (acted on or close)",
        w.cube_decisions.to_string(),
        b.cube_decisions.to_string(),
    )?;
    row(
        out,
        "Cube error rate (mEMG)",
        format!("{:.1}", w.cube_rate()),
        format!("{:.1}", b.cube_rate()),
    )?;
    row(
        out,
        "Overall error rate (mEMG)",
        format!("{:.1}", w.overall_rate()),
        format!("{:.1}", b.overall_rate()),
    )?;
    row(
        out,
        "Rating",
        rating(w.overall_rate()).to_string(),
        rating(b.overall_rate()).to_string(),
    )?;
    row(
        out,
        "Doubtful / bad / very bad",
        format!("{} / {} / {}", w.marks[0], w.marks[1], w.marks[2]),
        format!("{} / {} / {}", b.marks[0], b.marks[1], b.marks[2]),
    )?;
    row(
        out,
        "Luck (EMG)",
        format!("{:+.3}", w.luck),
        format!("{:+.3}", b.luck),
    )?;
    Ok(())
}
