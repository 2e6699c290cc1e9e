//! `tabula show`: draws a position.

use crate::board::grasshopper::{render_grasshopper, GrasshopperView};
use crate::board::halma::{render_halma, HalmaView};
use crate::board::{render, BoardView, HomeSide, Layout};
use crate::error::bad_input;
use crate::input::{grasshopper_position, halma_position, nf_position, refuse_checkers, Setup};
use crate::moves::{colour_names, tables_end};
use anyhow::Result;
use std::io::Write;
use tabula_core::{Color, GameId};
use tabula_halma::{HalmaGrasshopper, HalmaOptions};

/// What `tabula show` was asked, beyond the game and the position.
#[derive(Debug, Clone, Copy, Default)]
pub struct ShowOptions<'a> {
    /// Whose side to draw it from (default: the player on roll, or to move).
    pub viewer: Option<Color>,
    /// Where the viewer's home board is (backgammon games only; default right).
    pub home: Option<HomeSide>,
    /// The board size of `start` (Grasshopper (Halma) only).
    pub size: Option<&'a str>,
    /// The checkers each of `start` (Grasshopper only).
    pub checkers: Option<u32>,
    /// The evacuation deadline (Grasshopper (Halma) only; default by board, 0 off).
    pub evacuation: Option<u32>,
}

/// Runs the command.
pub fn run(out: &mut dyn Write, game: GameId, position: &str, options: ShowOptions) -> Result<()> {
    if game != GameId::HalmaGrasshopper && options.size.is_some() {
        return Err(bad_input(format!(
            "--size is a halma-grasshopper option: {game} has no board size to choose"
        )));
    }
    if game != GameId::Grasshopper {
        refuse_checkers(options.checkers, game)?;
    }
    if game != GameId::HalmaGrasshopper && options.evacuation.is_some() {
        return Err(bad_input(format!(
            "--evacuation is a halma-grasshopper option: {game} has no starting camp"
        )));
    }
    let home = options.home.unwrap_or_default();
    match game {
        GameId::Backgammon => {
            let setup = Setup::parse(position)?;
            let layout = Layout {
                viewer: options.viewer.unwrap_or(setup.on_roll),
                home,
            };
            out.write_all(render(&setup.view(), layout).as_bytes())?;
            writeln!(out, "{}", setup.ids())?;
            if let Some(end) = tables_end(&setup.board, setup.on_roll, true) {
                writeln!(out, "Game over. {}", end.sentence)?;
            }
        }
        GameId::NeverFinishing => {
            let tables = nf_position(position)?;
            let layout = Layout {
                viewer: options.viewer.unwrap_or(tables.to_move),
                home,
            };
            let view = BoardView::new(tables.position, tables.to_move);
            out.write_all(render(&view, layout).as_bytes())?;
            writeln!(out, "Tables position: {tables}")?;
            if let Some(end) = tables_end(&tables.position, tables.to_move, false) {
                writeln!(out, "Game over. {}", end.sentence)?;
            }
        }
        GameId::HalmaGrasshopper => {
            if options.home.is_some() {
                return Err(bad_input(
                    "--home is a backgammon option: halma-grasshopper has no home board",
                ));
            }
            let position = halma_position(position, options.size)?;
            // The game from this position says whether it is already over.
            let rules = HalmaOptions {
                ply_limit: None,
                evacuation: options.evacuation,
            };
            let game = HalmaGrasshopper::from_position(position, rules);
            let mut view = HalmaView::new(position);
            view.ply_limit = Some(game.ply_limit());
            view.evacuation = Some(game.evacuation());
            if let Some(outcome) = game.outcome() {
                view.status = "Game over".to_string();
                view.end = Some(outcome.sentence(colour_names()));
            }
            let viewer = options.viewer.unwrap_or(position.to_move());
            out.write_all(render_halma(&view, viewer).as_bytes())?;
            writeln!(out, "Position: {position}")?;
            if let Some(end) = &view.end {
                writeln!(out, "Game over. {end}")?;
            }
        }
        GameId::Grasshopper => {
            if options.home.is_some() {
                return Err(bad_input(
                    "--home is a backgammon option: in grasshopper both players bear off \
                     from the same quadrant",
                ));
            }
            let position = grasshopper_position(position, options.checkers)?;
            let viewer = options.viewer.unwrap_or(position.turn());
            let view = GrasshopperView::new(position);
            out.write_all(render_grasshopper(&view, viewer).as_bytes())?;
            writeln!(out, "Position: {position}")?;
            if let Some(outcome) = position.outcome() {
                writeln!(out, "Game over. {}", outcome.sentence(colour_names()))?;
            }
        }
    }
    Ok(())
}
