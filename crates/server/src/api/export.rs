//! Games as text: Tabula's own notation for every game, and Jellyfish .mat for backgammon.
//!
//! Tabula's notation is a header of `[Key "value"]` lines, then one line per log entry
//! (`12 white 8/3 6/3`, `13 roll 5-2`), with `[Ending N ...]` and `[Sentence N ...]` lines
//! after the entry that ended game N of a match or session, then the final position in the
//! game's notation.
//!
//! The .mat file is the tables crate's export with the endings added as comment lines of its
//! header (`; [Ending "gammon"]`, `; [Sentence "..."]`, and `; [Ending 1 "..."]`,
//! `; [Sentence 1 "..."]` per game): gnubg keeps header comments as the match's comment and
//! reads nothing else from them, while the body, where any other line would be read as a
//! move, is left exactly as gnubg expects it.

use crate::error::ApiError;
use crate::games::Table;
use crate::service::{replay_event, Loaded};
use crate::store::EventRow;
use std::fmt::Write;

/// The game in Tabula's notation.
pub fn tabula_text(
    game: &Loaded,
    events: &[EventRow],
    white: &str,
    black: &str,
) -> Result<String, ApiError> {
    let row = &game.row;
    let names = game.names();
    let mut out = String::new();
    let result = match (row.state.as_str(), row.winner.as_deref()) {
        ("finished", Some(w)) => format!("{w} wins {} point(s)", row.points.unwrap_or(0)),
        ("finished", None) => "draw".to_string(),
        (state, _) => state.to_string(),
    };
    let end = game.table.outcome();
    let ending = end.map(|o| (o.code().to_string(), o.sentence(names)));
    let mut header = vec![
        ("Game", row.game_type.as_str()),
        ("Options", row.options.as_str()),
        ("White", white),
        ("Black", black),
        ("Id", row.id.as_str()),
        ("Commitment", row.commitment.as_str()),
        ("Result", result.as_str()),
    ];
    if let Some((code, sentence)) = &ending {
        header.push(("Ending", code));
        header.push(("Sentence", sentence));
    }
    for (key, value) in header {
        let _ = writeln!(out, "[{key} {value:?}]");
    }
    // Replayed alongside the log, to find the entry that ended each game of a session.
    let mut table = Table::new(&row.game_options()?).map_err(ApiError::internal)?;
    let mut over = 0;
    for e in events {
        match e.kind.as_str() {
            "roll" => {
                let _ = writeln!(out, "{} roll {}", e.version, e.payload);
            }
            "join" => {
                // `12 join black "bob (guest)"`: who took the seat, a guest marked so.
                let actor = e.actor.as_deref().unwrap_or("?");
                let who = match actor {
                    "white" => white,
                    "black" => black,
                    _ => "?",
                };
                let _ = writeln!(out, "{} join {actor} {who:?}", e.version);
            }
            _ => {
                let actor = e.actor.as_deref().unwrap_or("?");
                let _ = writeln!(out, "{} {actor} {}", e.version, e.payload);
            }
        }
        replay_event(&mut table, e)?;
        if table.games_over() > over {
            over = table.games_over();
            if let Some(g) = table.finished_games(names).pop() {
                let _ = writeln!(out, "[Ending {} {:?}]", g.number, g.end.code);
                let _ = writeln!(out, "[Sentence {} {:?}]", g.number, g.end.sentence);
            }
        }
    }
    let _ = writeln!(out, "[Position {:?}]", game.table.notation());
    Ok(out)
}

/// A backgammon game as a Jellyfish .mat file, as gnubg imports it, with the endings in its
/// header's comments.
pub fn mat_text(game: &Loaded, white: &str, black: &str) -> Result<String, ApiError> {
    let Some(session) = game.table.backgammon() else {
        return Err(ApiError::bad_request(
            "the .mat format holds backgammon only; use format=tabula",
        ));
    };
    let mut mat =
        tabula_tables::notation::mat::export_mat(session, tabula_core::ByColor { white, black });
    let names = game.names();
    let mut comments = String::new();
    let mut comment = |key: String, value: &str| {
        // A header comment is one line; no quote inside the quoted value.
        let value: String = value
            .chars()
            .map(|c| match c {
                '"' => '\'',
                c if c.is_control() => ' ',
                c => c,
            })
            .collect();
        let _ = writeln!(comments, "; [{key} \"{value}\"]");
    };
    if let Some(o) = game.table.outcome() {
        comment("Ending".into(), o.code());
        comment("Sentence".into(), &o.sentence(names));
    }
    for g in game.table.finished_games(names) {
        comment(format!("Ending {}", g.number), &g.end.code);
        comment(format!("Sentence {}", g.number), &g.end.sentence);
    }
    // The header is the lines before the first blank line.
    if let Some(i) = mat.find("\n\n") {
        mat.insert_str(i + 1, &comments);
    }
    Ok(mat)
}
