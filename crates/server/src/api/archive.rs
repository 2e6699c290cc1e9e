//! `GET /api/players/{id}/archive`: all of a player's finished games as one zip file, for
//! keeping them or studying them elsewhere: each game's record in Tabula's notation
//! (`.txt`), and for backgammon also the Jellyfish `.mat` file gnubg and `tabula analyse`
//! read, named by date, game, money or match, and id; `index.txt` lists them with the
//! opponent and the result in words.
//!
//! Public, as the games' records are. Bounded: the player's 200 latest games (as the player
//! page lists them), the work in the hints' two places per instance (then 503 `busy`). The
//! files are stored uncompressed (zip's "stored" method): a few hundred kilobytes of text,
//! and no compression code in the server.

use super::export::{mat_text, tabula_text};
use super::players::PlayerView;
use super::summary;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use std::io::Write;
use tabula_core::GameId;

/// The most games in one archive.
pub const MAX_GAMES: i64 = 200;

/// The civil date (`YYYY-MM-DD`, UTC) of a Unix time in milliseconds.
pub fn date_of(ms: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// What a file name says of a game: `5-point-match`, `money` (the other dice games), or
/// `game` (the dice-free ones).
fn label(game: GameId, match_length: Option<u32>) -> String {
    match (match_length, game) {
        (Some(n), _) => format!("{n}-point-match"),
        (None, GameId::Backgammon | GameId::NeverFinishing) => "money".to_string(),
        (None, _) => "game".to_string(),
    }
}

/// The player's finished games as a zip file.
#[utoipa::path(get, path = "/api/players/{id}/archive", params(("id" = String, Path)),
    responses((status = 200, content_type = "application/zip", description = "a zip file: index.txt, each game's record (.txt) and backgammon's .mat files"),
        (status = 404, description = "not_found", body = crate::error::ErrorBody),
        (status = 503, description = "busy", body = crate::error::ErrorBody)))]
pub async fn archive(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    state
        .db
        .player(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    let _permit = super::permit(&state.hints, "archives").await?;
    let rows = state.db.games_of(&id, MAX_GAMES).await?;
    let mut files: Vec<(String, String)> = Vec::new();
    let mut index = String::from(
        "Tabula: the finished games of this player, newest first.\n\
         date\tgame\tkind\tcolour\topponent\tresult\tfiles\n",
    );
    for row in rows.iter().filter(|r| r.state == "finished") {
        let game = state.load(&row.id).await?;
        let events = state.db.events(&row.id, 0).await?;
        let s = summary(&state, &game.row).await?;
        let name = |p: &Option<PlayerView>| {
            p.as_ref()
                .map(PlayerView::label)
                .unwrap_or_else(|| "?".into())
        };
        let (white, black) = (name(&s.white), name(&s.black));
        let options = row.game_options()?;
        let stem = format!(
            "{}-{}-{}-{}",
            date_of(row.created_ms),
            row.game_type,
            label(options.game_id(), options.match_length()),
            row.id
        );
        let mut names = vec![format!("{stem}.txt")];
        files.push((
            names[0].clone(),
            tabula_text(&game, &events, &white, &black)?,
        ));
        if row.game_type == "backgammon" {
            names.push(format!("{stem}.mat"));
            files.push((names[1].clone(), mat_text(&game, &white, &black)?));
        }
        let colour = if row.white_id.as_deref() == Some(id.as_str()) {
            "white"
        } else {
            "black"
        };
        let opponent = if colour == "white" { &black } else { &white };
        let result = match (row.winner.as_deref(), row.points) {
            (Some(w), Some(p)) if w == colour => format!("won {p}"),
            (Some(_), Some(p)) => format!("lost {p}"),
            _ => "drawn".to_string(),
        };
        index.push_str(&format!(
            "{}\t{}\t{}\t{colour}\t{opponent}\t{result}\t{}\n",
            date_of(row.created_ms),
            row.game_type,
            s.description,
            names.join(" ")
        ));
    }
    files.insert(0, ("index.txt".to_string(), index));
    let bytes = tokio::task::spawn_blocking(move || zip_of(&files))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    Ok((
        [
            (CONTENT_TYPE, "application/zip".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"tabula-games-{id}.zip\""),
            ),
        ],
        bytes,
    ))
}

/// A zip file of `(name, text)` pairs, stored uncompressed.
fn zip_of(files: &[(String, String)]) -> Result<Vec<u8>, zip::result::ZipError> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, text) in files {
        w.start_file(name.as_str(), options)?;
        w.write_all(text.as_bytes())?;
    }
    Ok(w.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates_in_utc() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(951_782_400_000), "2000-02-29");
        assert_eq!(date_of(1_795_737_600_000), "2026-11-27");
    }

    #[test]
    fn files_say_money_or_match() {
        assert_eq!(label(GameId::Backgammon, Some(5)), "5-point-match");
        assert_eq!(label(GameId::NeverFinishing, None), "money");
        assert_eq!(label(GameId::Backgammon, None), "money");
        assert_eq!(label(GameId::HalmaGrasshopper, None), "game");
    }
}
