//! `tabula show`: draws a position.

use crate::board::{render, HomeSide, Layout};
use crate::input::{backgammon_only, Setup};
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
    backgammon_only(game)?;
    let setup = Setup::parse(position)?;
    let layout = Layout {
        viewer: viewer.unwrap_or(setup.on_roll),
        home,
    };
    out.write_all(render(&setup.view(), layout).as_bytes())?;
    writeln!(out, "{}", setup.ids())?;
    Ok(())
}
