//! `tabula moves`: every legal play of a position with given dice.
//!
//! One entry per distinct resulting position, in the move generator's order (deterministic,
//! and gnubg's own order of generation is not meaningful either). Each result is written in
//! the notation of the input, with the opponent on roll. Never-Finishing positions are read
//! and written in the tables notation, and their plays carry the trap mark (`13/8^`).

use crate::error::bad_input;
use crate::input::{nf_position, parse_dice, variant, Setup, Variant};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use tabula_core::Dice;
use tabula_tables::notation::format_play;
use tabula_tables::{TablesGen, Trapping};

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

/// The legal Never-Finishing plays of `position` (`start` or tables notation) with `dice`,
/// which the notation does not record, so they are required. Hits are marked `*`, traps `^`;
/// a blot that may be hit or trapped gives two entries, as the two results differ.
pub fn nf_legal_moves(position: &str, dice: Option<&str>) -> Result<(Dice, Vec<MoveEntry>)> {
    let before = nf_position(position)?;
    let Some(text) = dice else {
        return Err(bad_input(
            "--dice is required (a tables position does not record dice)",
        ));
    };
    let dice = parse_dice(text)?;
    let mut gen = TablesGen::new();
    let (positions, plays) = gen.plays(&before.position, dice, Trapping::On);
    let entries = positions
        .iter()
        .zip(plays)
        .map(|(after, play)| MoveEntry {
            play: format_play(play),
            position: before.after_move(*after).to_string(),
        })
        .collect();
    Ok((dice, entries))
}

/// Runs the command.
pub fn run(
    out: &mut dyn Write,
    game: &str,
    position: &str,
    dice: Option<&str>,
    json: bool,
) -> Result<()> {
    let (dice, entries) = match variant(game)? {
        Variant::Backgammon => {
            let (setup, entries) = legal_moves(position, dice)?;
            (setup.dice, entries)
        }
        Variant::NeverFinishing => {
            let (dice, entries) = nf_legal_moves(position, dice)?;
            (Some(dice), entries)
        }
    };
    if json {
        serde_json::to_writer(&mut *out, &MovesJson { moves: &entries })?;
        writeln!(out)?;
        return Ok(());
    }
    let dice = dice.map(|d| d.to_string()).unwrap_or_default();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_finishing_start_with_5_3_runs_or_splits_from_the_24_point() {
        let (dice, entries) = nf_legal_moves("start", Some("5-3")).unwrap();
        assert_eq!(dice.to_string(), "5-3");
        let texts: Vec<&str> = entries.iter().map(|e| e.play.as_str()).collect();
        assert!(texts.contains(&"24/16"), "{texts:?}");
        assert!(texts.contains(&"24/21 24/19"), "{texts:?}");
        assert!(entries.iter().all(|e| e.position.ends_with(":b")));
    }

    #[test]
    fn never_finishing_needs_dice() {
        let err = nf_legal_moves("start", None).unwrap_err();
        assert!(err.to_string().contains("--dice"), "{err}");
    }
}
