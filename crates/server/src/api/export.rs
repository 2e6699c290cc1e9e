//! Games as text: Tabula's own notation for every game, and Jellyfish .mat for backgammon.
//!
//! Tabula's notation is a header of `[Key "value"]` lines, then one line per log entry
//! (`12 white 8/3 6/3`, `13 roll 5-2`), then the final position in the game's notation.

use crate::db::EventRow;
use crate::error::ApiError;
use crate::games::Table;
use crate::service::Loaded;
use std::fmt::Write;

/// The game in Tabula's notation.
pub fn tabula_text(game: &Loaded, events: &[EventRow], white: &str, black: &str) -> String {
    let row = &game.row;
    let mut out = String::new();
    let result = match (row.state.as_str(), row.winner.as_deref()) {
        ("finished", Some(w)) => format!("{w} wins {} point(s)", row.points.unwrap_or(0)),
        ("finished", None) => "draw".to_string(),
        (state, _) => state.to_string(),
    };
    for (key, value) in [
        ("Game", row.game_type.as_str()),
        ("Options", row.options.as_str()),
        ("White", white),
        ("Black", black),
        ("Id", row.id.as_str()),
        ("Commitment", row.commitment.as_str()),
        ("Result", result.as_str()),
    ] {
        let _ = writeln!(out, "[{key} {value:?}]");
    }
    for e in events {
        match e.kind.as_str() {
            "roll" => {
                let _ = writeln!(out, "{} roll {}", e.version, e.payload);
            }
            "join" => {
                let actor = e.actor.as_deref().unwrap_or("?");
                let _ = writeln!(out, "{} join {actor}", e.version);
            }
            _ => {
                let actor = e.actor.as_deref().unwrap_or("?");
                let _ = writeln!(out, "{} {actor} {}", e.version, e.payload);
            }
        }
    }
    let _ = writeln!(
        out,
        "[Position {:?}]",
        game.table.view()["notation"].as_str().unwrap_or("")
    );
    out
}

/// A backgammon game as a Jellyfish .mat file, as gnubg imports it.
pub fn mat_text(game: &Loaded, white: &str, black: &str) -> Result<String, ApiError> {
    match &game.table {
        Table::Backgammon(session) => Ok(tabula_tables::notation::mat::export_mat(
            session,
            tabula_core::ByColor { white, black },
        )),
        _ => Err(ApiError::bad_request(
            "the .mat format holds backgammon only; use format=tabula",
        )),
    }
}
