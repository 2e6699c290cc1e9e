//! `tabula moves`: every legal play of a position with given dice.
//!
//! One entry per distinct resulting position, in the move generator's order (deterministic,
//! and gnubg's own order of generation is not meaningful either). Each result is written in
//! the notation of the input, with the opponent on roll.

use crate::error::bad_input;
use crate::input::{backgammon_only, parse_dice, Setup};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use tabula_tables::notation::format_play;

/// One legal play and where it leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    /// The play in gnubg's notation, e.g. `24/13`.
    #[serde(rename = "move")]
    pub play: String,
    /// The resulting position, in the input's notation, opponent on roll.
    pub position: String,
}

/// The JSON document `--json` prints.
#[derive(Debug, Serialize)]
struct MovesJson<'a> {
    moves: &'a [MoveEntry],
}

/// The legal plays of `position` (text) with `dice` (text, or the position's own dice).
pub fn legal_moves(position: &str, dice: Option<&str>) -> Result<(Setup, Vec<MoveEntry>)> {
    let setup = Setup::parse(position)?;
    let dice = match (dice, setup.dice) {
        (Some(text), _) => parse_dice(text)?,
        (None, Some(d)) => d,
        (None, None) => {
            return Err(bad_input(
                "--dice is required (the position does not record dice)",
            ))
        }
    };
    let entries = setup
        .board
        .legal_plays(dice)
        .iter()
        .map(|(play, after)| MoveEntry {
            play: format_play(play),
            position: setup.encode_after(after),
        })
        .collect();
    let mut setup = setup;
    setup.dice = Some(dice);
    Ok((setup, entries))
}

/// Runs the command.
pub fn run(
    out: &mut dyn Write,
    game: &str,
    position: &str,
    dice: Option<&str>,
    json: bool,
) -> Result<()> {
    backgammon_only(game)?;
    let (setup, entries) = legal_moves(position, dice)?;
    if json {
        serde_json::to_writer(&mut *out, &MovesJson { moves: &entries })?;
        writeln!(out)?;
        return Ok(());
    }
    let dice = setup.dice.map(|d| d.to_string()).unwrap_or_default();
    match entries.len() {
        0 => writeln!(out, "No legal move with {dice}.")?,
        1 => writeln!(out, "1 legal move with {dice}:")?,
        n => writeln!(out, "{n} legal moves with {dice}:")?,
    }
    let width = entries.iter().map(|e| e.play.len()).max().unwrap_or(0);
    let digits = entries.len().to_string().len();
    for (i, e) in entries.iter().enumerate() {
        writeln!(
            out,
            "{:>digits$}. {:<width$}  {}",
            i + 1,
            e.play,
            e.position
        )?;
    }
    Ok(())
}
