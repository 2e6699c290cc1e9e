//! `GET /api/players/{id}/progress`: a player's progress over time, for the player page's two
//! graphs: the rating after each rated game (from `rating_history`, written since issue 31)
//! and the error rates of each analysed backgammon game (from the stored analyses), oldest
//! first. Public, as the player page is; at most [`LIMIT`] points of each.

use crate::error::{ApiError, Json};
use crate::store::ratings::RatingPoint;
use crate::AppState;
use axum::extract::{Path, State};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// The most points of each series.
pub const LIMIT: i64 = 500;

/// One analysed game's error rates for the player.
#[derive(Serialize, ToSchema)]
pub struct AnalysedPoint {
    /// The game.
    pub game_id: String,
    /// When it was created (Unix ms).
    pub at_ms: i64,
    /// The colour the player had.
    pub colour: String,
    /// `money` or `N-point match`.
    pub kind: String,
    /// mEMG per decision: chequer plays, cube decisions (null without any), overall.
    pub chequer: f64,
    pub cube: Option<f64>,
    pub overall: f64,
    /// The overall rate in gnubg's words ("Expert", "Advanced"...).
    pub rating: String,
}

/// A player's progress.
#[derive(Serialize, ToSchema)]
pub struct ProgressView {
    /// The rating after each rated game, oldest first.
    pub ratings: Vec<RatingPoint>,
    /// The error rates of each analysed game, oldest first.
    pub analyses: Vec<AnalysedPoint>,
}

/// A player's rating game by game and error rates analysis by analysis.
#[utoipa::path(get, path = "/api/players/{id}/progress", params(("id" = String, Path)),
    responses((status = 200, body = ProgressView), (status = 404, description = "not_found", body = crate::error::ErrorBody)))]
pub async fn progress(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ProgressView>, ApiError> {
    state
        .db
        .player(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    let ratings = state.db.rating_history(&id, LIMIT).await?;
    let games = state.db.analysed_games_of(&id, LIMIT).await?;
    let analyses = games
        .iter()
        .filter_map(|g| {
            let colour = if g.white_id.as_deref() == Some(id.as_str()) {
                "white"
            } else {
                "black"
            };
            let report: Value = serde_json::from_str(&g.report).ok()?;
            let me = report["players"]
                .as_array()?
                .iter()
                .find(|p| p["colour"] == colour)?;
            let length = report["match_length"].as_u64().unwrap_or(0);
            let cube_decisions = me["cube_decisions"].as_u64().unwrap_or(0);
            Some(AnalysedPoint {
                game_id: g.game_id.clone(),
                at_ms: g.created_ms,
                colour: colour.to_string(),
                kind: if length == 0 {
                    "money".to_string()
                } else {
                    format!("{length}-point match")
                },
                chequer: me["chequer_error_rate"].as_f64()?,
                cube: (cube_decisions > 0)
                    .then(|| me["cube_error_rate"].as_f64())
                    .flatten(),
                overall: me["overall_error_rate"].as_f64()?,
                rating: me["rating"].as_str().unwrap_or_default().to_string(),
            })
        })
        .collect();
    Ok(Json(ProgressView { ratings, analyses }))
}
