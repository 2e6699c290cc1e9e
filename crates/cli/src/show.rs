//! `tabula show`: draws a position.

use crate::board::{render, BoardView, HomeSide, Layout};
use crate::input::{nf_position, variant, Setup, Variant};
use anyhow::Result;
use std::io::Write;
use tabula_core::Color;

/// Runs the command: the board from `viewer` (default: the player on roll).
pub fn run(
    out: &mut dyn Write,
    game: &str,
    position: &str,
    viewer: Option<Color>,
    home: HomeSide,
) -> Result<()> {
    match variant(game)? {
        Variant::Backgammon => {
            let setup = Setup::parse(position)?;
            let layout = Layout {
                viewer: viewer.unwrap_or(setup.on_roll),
                home,
            };
            out.write_all(render(&setup.view(), layout).as_bytes())?;
            writeln!(out, "{}", setup.ids())?;
        }
        Variant::NeverFinishing => {
            let tables = nf_position(position)?;
            let layout = Layout {
                viewer: viewer.unwrap_or(tables.to_move),
                home,
            };
            let view = BoardView::new(tables.position, tables.to_move);
            out.write_all(render(&view, layout).as_bytes())?;
            writeln!(out, "Tables position: {tables}")?;
        }
    }
    Ok(())
}
