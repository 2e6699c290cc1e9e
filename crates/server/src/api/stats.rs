//! Statistics per game type, in the form of the seeds' game server:
//! `white won 3948 (49.28 %), black won 3852 (48.08 %), draws 211 (2.63 %)`.

use crate::error::{ApiError, Json};
use crate::AppState;
use axum::extract::State;
use serde::Serialize;
use tabula_ai::selfplay::stats::Tally;
use tabula_core::GameId;
use utoipa::ToSchema;

/// The finished games of one game type.
#[derive(Serialize, ToSchema)]
pub struct GameStats {
    /// The game type.
    pub game: String,
    /// Finished games.
    pub games: u64,
    /// Won by White.
    pub white_wins: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// The seeds' line: `white won N (p %), black won N (p %), draws N (p %)`.
    pub line: String,
    /// Mean actions per game.
    pub average_plies: f64,
}

/// Statistics of every game type.
#[utoipa::path(get, path = "/api/stats", responses((status = 200, body = [GameStats])))]
pub async fn stats(State(state): State<AppState>) -> Result<Json<Vec<GameStats>>, ApiError> {
    let mut out = Vec::new();
    for game in GameId::ALL {
        let counts = state.db.finished_counts(game.as_str()).await?;
        let (n, w, b, plies) = (
            counts.games,
            counts.white_wins,
            counts.black_wins,
            counts.plies,
        );
        let tally = Tally {
            first: w as u64,
            second: b as u64,
            draws: (n - w - b) as u64,
        };
        out.push(GameStats {
            game: game.as_str().to_string(),
            games: n as u64,
            white_wins: tally.first,
            black_wins: tally.second,
            draws: tally.draws,
            line: tally.line("white", "black"),
            average_plies: if n > 0 { plies as f64 / n as f64 } else { 0.0 },
        });
    }
    Ok(Json(out))
}
