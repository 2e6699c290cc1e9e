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
use tabula_ai::study::analyse::{analyse, rating, Analysis, Kind, Mark, Settings, Step};
use tabula_ai::study::race::RaceConfig;
use tabula_ai::study::report::{decision_report, players, DecisionReport, PlayerReport};
use tabula_core::ByColor;
use tabula_tables::notation::mat::{replay_mat, replay_session};
use tabula_tables::notation::sgf::read_sgf;

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
    /// Race the close plays of every chequer decision by rollouts after the search, and
    /// correct every close cube decision by a 324-trial rollout instead of the strong bot's
    /// 72-trial check, the default (as `hint --race` and `eval --race`: the level above
    /// strong, seconds a decision).
    #[arg(long)]
    pub race: bool,
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
    let is_sgf = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        || text.trim_start().starts_with("(;");
    let replay = if is_sgf {
        let session = read_sgf(&text).map_err(|e| bad_input(format!("{name}: {e}")))?;
        replay_session(&session)
    } else {
        replay_mat(&text)
    }
    .map_err(|e| bad_input(format!("{name}: {e}")))?;
    let steps: Vec<Step> = replay
        .steps
        .iter()
        .map(|s| (s.before.clone(), s.player, s.action, s.dice))
        .collect();
    let settings = Settings {
        plies: args.plies,
        race: args.race.then(RaceConfig::default),
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
            players: [PlayerReport; 2],
            decisions: Vec<DecisionReport>,
        }
        let doc = AnalyseJson {
            file: name,
            match_length: replay.length,
            plies: args.plies,
            seconds,
            players: players(names, &analysis),
            decisions: analysis
                .decisions
                .iter()
                .map(|d| decision_report(d, &steps))
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
        let j = decision_report(d, steps);
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
        if let Some(xgid) = &j.xgid {
            writeln!(out, "      {xgid}")?;
        }
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
