//! `tabula show`: draws a position.
//!
//! Each game reads its position and draws it its own way; every game then prints the same
//! three parts: the drawing, the position's notation line and, for a finished game, how it
//! ended (the dice-free games' notation and ending come from their [`Face`]).

use crate::error::bad_input;
use crate::input::{grasshopper_position, halma_position, nf_position, refuse_checkers, Setup};
use crate::moves::{colour_names, tables_end};
use anyhow::Result;
use std::io::Write;
use tabula_core::{Color, GameId, Status};
use tabula_games::backgammon::drawing::{render, BoardView, HomeSide, Layout};
use tabula_games::grasshopper::drawing::{render_grasshopper, GrasshopperView};
use tabula_games::halma::drawing::{render_halma, HalmaView};
use tabula_games::Face;
use tabula_grasshopper::Grasshopper;
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
    let (drawing, notation, end) = match game {
        GameId::Backgammon => {
            let setup = Setup::parse(position)?;
            let layout = Layout {
                viewer: options.viewer.unwrap_or(setup.on_roll),
                home,
            };
            let end = tables_end(&setup.board, setup.on_roll, true).map(|end| end.sentence);
            (render(&setup.view(), layout), setup.ids(), end)
        }
        GameId::NeverFinishing => {
            let tables = nf_position(position)?;
            let layout = Layout {
                viewer: options.viewer.unwrap_or(tables.to_move),
                home,
            };
            let view = BoardView::new(tables.position, tables.to_move);
            let end = tables_end(&tables.position, tables.to_move, false).map(|end| end.sentence);
            (
                render(&view, layout),
                format!("Tables position: {tables}"),
                end,
            )
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
            let (notation, end) = face_lines(&game);
            let mut view = HalmaView::new(position);
            view.ply_limit = Some(game.ply_limit());
            view.evacuation = Some(game.evacuation());
            if end.is_some() {
                view.status = "Game over".to_string();
                view.end = end.clone();
            }
            let viewer = options.viewer.unwrap_or(position.to_move());
            (render_halma(&view, viewer), notation, end)
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
            let (notation, end) = face_lines(&Grasshopper::from_position(position));
            let view = GrasshopperView::new(position);
            (render_grasshopper(&view, viewer), notation, end)
        }
    };
    out.write_all(drawing.as_bytes())?;
    writeln!(out, "{notation}")?;
    if let Some(end) = end {
        writeln!(out, "Game over. {end}")?;
    }
    Ok(())
}

/// The position line of a dice-free game (its [`Face`]'s notation) and, when it is over, the
/// sentence of its ending.
fn face_lines<F: Face>(game: &F) -> (String, Option<String>) {
    let end = match game.status() {
        Status::Over(outcome) => Some(outcome.sentence(colour_names())),
        _ => None,
    };
    (format!("Position: {}", game.notation()), end)
}
