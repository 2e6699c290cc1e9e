//! `tabula solve`: the exact value of a small game's start under perfect play, with a best
//! first move. Only Grasshopper (the dice-free backgammon variant) can be solved: the other
//! games have dice or no end.
//!
//! The solve runs [`solve_start_with`] (the library's exact alpha-beta solver) and shows its
//! progress on stderr with an `indicatif` spinner (positions stored, nodes searched, rate,
//! elapsed time), which is hidden when stderr is not a terminal so that logs and pipes get
//! only the result.

use crate::error::bad_input;
use crate::input::grasshopper_checkers;
use crate::thousands::thousands;
use crate::SolveArgs;
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::time::Duration;
use tabula_core::{Color, GameId};
use tabula_grasshopper::notation::parse_position as parse_grasshopper;
use tabula_grasshopper::solver::{solve_position, Progress, SolveReport, DEFAULT_MAX_SLOTS};
use tabula_grasshopper::Position;

/// Bytes a transposition table slot takes.
const SLOT_BYTES: f64 = 8.0;
/// One GiB.
const GIB: f64 = (1u64 << 30) as f64;
/// The largest `--max-table-gib` accepted: far beyond any machine this runs on, but a bound
/// that keeps the slot count meaningful.
const MAX_TABLE_GIB: f64 = 1024.0;

/// The JSON document `--json` prints.
#[derive(Debug, Serialize)]
struct SolveJson {
    game: &'static str,
    checkers: u8,
    /// `white-win`, `black-win` or `draw`: the start's value with White to move.
    value: &'static str,
    /// `white`, `black`, or null for a draw.
    winner: Option<&'static str>,
    /// A best first move for White, in the move text.
    best_move: Option<String>,
    positions: u64,
    nodes: u64,
    seconds: f64,
    table_full: bool,
}

/// The slot limit of the transposition table for `--max-table-gib` (default 8 GiB).
fn table_slots(gib: Option<f64>) -> Result<usize> {
    match gib {
        None => Ok(DEFAULT_MAX_SLOTS),
        Some(g) if g.is_finite() && g > 0.0 && g <= MAX_TABLE_GIB => {
            Ok((g * GIB / SLOT_BYTES) as usize)
        }
        Some(g) => Err(bad_input(format!(
            "bad --max-table-gib {g}: give a size in GiB above 0 and at most {MAX_TABLE_GIB}"
        ))),
    }
}

/// The spinner's message for one progress report.
fn progress_text(p: &Progress) -> String {
    let rate = p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9);
    format!(
        "{} positions stored, {} nodes, {:.2} M nodes/s",
        thousands(p.positions),
        thousands(p.nodes),
        rate / 1e6
    )
}

/// A spinner on stderr, or a hidden one when stderr is not a terminal.
fn progress_bar(checkers: u8) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    // The elapsed time first: a message wider than the terminal is cut at its end.
    let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {prefix}: {wide_msg}")
        .expect("a valid template");
    bar.set_style(style);
    bar.set_prefix(format!("N={checkers}"));
    bar.set_message("starting");
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// The start's value in words, White moving first.
fn value_words(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "White wins",
        Some(Color::Black) => "Black wins",
        None => "a draw",
    }
}

/// Prints the report as text or JSON.
fn print(out: &mut dyn Write, r: &SolveReport, gib: Option<f64>, json: bool) -> Result<()> {
    let n = r.checkers.get();
    if json {
        let doc = SolveJson {
            game: "grasshopper",
            checkers: n,
            value: match r.winner {
                Some(Color::White) => "white-win",
                Some(Color::Black) => "black-win",
                None => "draw",
            },
            winner: r.winner.map(Color::name),
            best_move: r.best_move.map(|a| a.to_string()),
            positions: r.positions,
            nodes: r.nodes,
            seconds: r.elapsed.as_secs_f64(),
            table_full: r.table_full,
        };
        serde_json::to_writer(&mut *out, &doc)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "Grasshopper with {n} checkers each: {} with best play (White moves first).",
        value_words(r.winner)
    )?;
    if let Some(best) = r.best_move {
        writeln!(out, "Best first move: {best}")?;
    }
    writeln!(out, "Positions stored: {}", thousands(r.positions))?;
    writeln!(out, "Nodes searched: {}", thousands(r.nodes))?;
    writeln!(
        out,
        "Time: {:.2} s ({:.2} M nodes/s)",
        r.elapsed.as_secs_f64(),
        r.nodes_per_second() / 1e6
    )?;
    if r.table_full {
        let limit = gib.unwrap_or(DEFAULT_MAX_SLOTS as f64 * SLOT_BYTES / GIB);
        writeln!(
            out,
            "The transposition table reached its limit ({limit} GiB): the value is exact, \
             but positions were searched again (raise --max-table-gib)."
        )?;
    }
    Ok(())
}

/// Prints a position's solution as text or JSON.
fn print_position(out: &mut dyn Write, pos: &Position, r: &SolveReport, json: bool) -> Result<()> {
    let mover = pos.turn();
    if json {
        let doc = serde_json::json!({
            "game": "grasshopper",
            "checkers": r.checkers.get(),
            "to_move": mover.name(),
            "value": match r.value {
                tabula_grasshopper::solver::Value::Win => "win",
                tabula_grasshopper::solver::Value::Draw => "draw",
                tabula_grasshopper::solver::Value::Loss => "loss",
            },
            "winner": r.winner.map(Color::name),
            "best_move": r.best_move.map(|a| a.to_string()),
            "positions": r.positions,
            "nodes": r.nodes,
            "seconds": r.elapsed.as_secs_f64(),
        });
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    let words = match r.winner {
        Some(w) => format!("{} wins", capitalised(w)),
        None => "a draw".to_string(),
    };
    writeln!(
        out,
        "{} to move: {words} with best play.",
        capitalised(mover)
    )?;
    if let Some(best) = r.best_move {
        writeln!(out, "Best move: {best}")?;
    }
    writeln!(
        out,
        "Positions stored: {}; nodes searched: {}; time {:.2} s.",
        thousands(r.positions),
        thousands(r.nodes),
        r.elapsed.as_secs_f64()
    )?;
    Ok(())
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Runs the command.
pub fn run(out: &mut dyn Write, args: &SolveArgs) -> Result<()> {
    if args.game != GameId::Grasshopper {
        return Err(bad_input(format!(
            "solve is available for grasshopper only, not {}",
            args.game
        )));
    }
    if let Some(k) = args.tables {
        return crate::solve_tables::run(out, k, args);
    }
    let max_slots = table_slots(args.max_table_gib)?;
    let start = match (&args.position, args.checkers) {
        (Some(text), _) => parse_grasshopper(text).map_err(|e| bad_input(e.to_string()))?,
        (None, Some(n)) => Position::start(grasshopper_checkers(Some(n))?),
        (None, None) => {
            return Err(bad_input(
                "--checkers or --position is required: only the small games can be solved \
                 (tabula solve grasshopper --checkers 4)",
            ))
        }
    };
    if start.is_over() {
        return Err(bad_input(
            "the position is a finished game: there is nothing to solve",
        ));
    }
    let tables = if args.with_tables {
        let t = tabula_ai::grasshopper::tables::shared().ok_or_else(|| {
            bad_input(
                "--with-tables: no endgame table is cached \
                 (build one with tabula solve grasshopper --tables 4)",
            )
        })?;
        Some(t)
    } else {
        None
    };
    let bar = progress_bar(start.checkers().get());
    let report = solve_position(&start, max_slots, tables.as_deref(), |p| {
        bar.set_message(progress_text(&p))
    });
    bar.finish_and_clear();
    if args.position.is_some() {
        return print_position(out, &start, &report, args.json);
    }
    print(out, &report, args.max_table_gib, args.json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_limit_is_a_positive_size_in_gib() {
        assert_eq!(table_slots(None).unwrap(), DEFAULT_MAX_SLOTS);
        assert_eq!(table_slots(Some(8.0)).unwrap(), DEFAULT_MAX_SLOTS);
        assert_eq!(table_slots(Some(0.5)).unwrap(), 1 << 26);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 2048.0] {
            assert!(table_slots(Some(bad)).is_err(), "{bad}");
        }
    }
}
