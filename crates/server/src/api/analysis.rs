//! Study help on the server: the analysis of a finished backgammon game
//! (`/api/games/{id}/analysis`: ask for it with POST, any logged-in player, then read its
//! progress and report with GET; the work is a job shared by the instances,
//! [`crate::analysis`], its progress also pushed over the game's WebSocket), and a hint for
//! the player to act in an unrated game against a bot (`/api/games/{id}/hint`).

use crate::auth::Auth;
use crate::error::{ApiError, Json};
use crate::service::Loaded;
use crate::store::analyses::{JobRow, Queued};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::Value;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::study::cube::Unit;
use tabula_ai::study::hint::{self, Hint, HintPlay};
use tabula_core::{Color, Game, Status};
use tabula_tables::backgammon::Backgammon;
use utoipa::ToSchema;

/// A game's analysis: where the job stands and, once done, the report.
#[derive(Serialize, ToSchema)]
pub struct AnalysisView {
    /// The job.
    #[serde(flatten)]
    pub job: JobRow,
    /// The report once `state` is `done`: `plies`, `seconds`, `match_length`, `players`
    /// (White's and Black's error rates, rating, luck, marks) and `decisions` (each with
    /// the `version` of its log entry, `kind`, `dice`, `played`, `best`, `error` in EMG,
    /// `mark`, `luck`, `value`, `proper`); docs/protocol.md, "Analysis".
    #[schema(value_type = Option<Object>)]
    pub report: Option<Value>,
}

/// The backgammon session of `game`, or 400 `not_backgammon`.
fn backgammon(game: &Loaded) -> Result<&Backgammon, ApiError> {
    match game.table.backgammon() {
        Some(session) => Ok(session),
        None => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "not_backgammon",
            "only backgammon games are analysed or given hints",
        )),
    }
}

fn view(job: JobRow) -> AnalysisView {
    let report = job
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok());
    AnalysisView { job, report }
}

/// Ask for the analysis of a finished backgammon game. Answers 202 with the new job, or
/// 200 with the game's job when it already has one that did not fail.
#[utoipa::path(post, path = "/api/games/{id}/analysis",
    responses((status = 202, body = AnalysisView), (status = 200, body = AnalysisView),
        (status = 400, description = "not_backgammon: only backgammon and Never-Finishing games are analysed", body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody),
        (status = 409, description = "not_finished: the game is still being played", body = crate::error::ErrorBody),
        (status = 503, description = "busy: too many analyses are waiting; retry later", body = crate::error::ErrorBody)))]
pub async fn request(
    State(state): State<AppState>,
    Auth(_me): Auth,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<AnalysisView>), ApiError> {
    let game = state.load(&id).await?;
    if game.table.never_finishing().is_none() && game.table.backgammon().is_none() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "not_backgammon",
            "only backgammon and Never-Finishing games are analysed",
        ));
    }
    if game.row.state != "finished" {
        return Err(ApiError::conflict(
            "not_finished",
            "the game is still being played; it can be analysed once it is over",
        ));
    }
    let existing = state.db.analysis(&id).await?;
    if existing.as_ref().is_none_or(|j| j.state == "failed")
        && state.db.queued_analyses().await? >= state.analysis.queue
    {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "too many analyses are waiting; try again in a minute",
        )
        .retry_after(60));
    }
    let queued = state.db.queue_analysis(&id, state.analysis.plies).await?;
    if queued == Queued::New {
        state.analysis_wake.notify_one();
    }
    let job = state
        .db
        .analysis(&id)
        .await?
        .ok_or_else(|| ApiError::internal("the queued analysis vanished"))?;
    let status = match queued {
        Queued::New => StatusCode::ACCEPTED,
        Queued::Existing => StatusCode::OK,
    };
    Ok((status, Json(view(job))))
}

/// The game's analysis: its progress, and its report once done.
#[utoipa::path(get, path = "/api/games/{id}/analysis",
    responses((status = 200, body = AnalysisView),
        (status = 404, description = "no_analysis: nobody asked for one yet (or no such game)", body = crate::error::ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AnalysisView>, ApiError> {
    crate::service::check_game_id(&id)?;
    let job = state.db.analysis(&id).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_analysis",
            "this game has not been analysed; POST to this address to ask for it",
        )
    })?;
    Ok(Json(view(job)))
}

/// A hint: the ranked plays of the roll or the cube decision, as `tabula hint` gives it.
#[derive(Serialize, ToSchema)]
pub struct HintView {
    /// `moves` or `cube`.
    pub kind: &'static str,
    /// `money` (cubeful equity per unit of the cube) or `mwc` (match-winning chance, 0 to 1).
    pub unit: &'static str,
    /// The search depth.
    pub plies: u32,
    /// Moves: the roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// Moves: the best five, best first: `rank`, `move`, `equity`, `diff` (to the best, 0 or
    /// negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub moves: Option<Vec<HintPlay>>,
    /// Cube: the player answers a double (else may double).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answering: Option<bool>,
    /// Cube: the doubler's equity without doubling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_double: Option<f32>,
    /// Cube: the doubler's equity after double, take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_take: Option<f32>,
    /// Cube: the doubler's equity after double, pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub double_drop: Option<f32>,
    /// Cube: the proper action in words ("No double, take").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proper: Option<String>,
}

impl HintView {
    /// The view of a hint worked out at `plies`.
    pub fn new(found: Hint, plies: u32) -> HintView {
        match found {
            Hint::Plays { dice, unit, plays } => HintView {
                kind: "moves",
                unit: unit_name(unit),
                plies,
                dice: Some(dice.to_string()),
                moves: Some(plays.into_iter().take(5).collect()),
                answering: None,
                no_double: None,
                double_take: None,
                double_drop: None,
                proper: None,
            },
            Hint::Cube {
                answering,
                analysis,
            } => HintView {
                kind: "cube",
                unit: unit_name(analysis.unit),
                plies,
                dice: None,
                moves: None,
                answering: Some(answering),
                no_double: Some(analysis.no_double),
                double_take: Some(analysis.double_take),
                double_drop: Some(analysis.double_drop),
                proper: Some(analysis.verdict()),
            },
        }
    }
}

pub(super) fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::Money => "money",
        Unit::MatchWinningChance => "mwc",
    }
}

/// A hint for the decision the caller must make now, in a backgammon game against a bot
/// that is not rated (a guest plays it): study help would be unfair in a rated game.
#[utoipa::path(get, path = "/api/games/{id}/hint",
    responses((status = 200, body = HintView),
        (status = 400, description = "not_backgammon", body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "not_a_player; hints_not_allowed: hints are given only in unrated games against a bot", body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody),
        (status = 409, description = "not_your_decision", body = crate::error::ErrorBody),
        (status = 503, description = "busy", body = crate::error::ErrorBody)))]
pub async fn hint(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
) -> Result<Json<HintView>, ApiError> {
    let game = state.load(&id).await?;
    let session = backgammon(&game)?;
    let mine = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| game.row.seat(c) == Some(me.id.as_str()))
        .ok_or_else(|| ApiError::forbidden("not_a_player", "you do not play in this game"))?;
    let unrated = me.kind == "guest" || game.row.rated == Some(0);
    if game.row.bot(!mine).is_none() || !unrated {
        return Err(ApiError::forbidden(
            "hints_not_allowed",
            "hints are given only in unrated games against a bot (a practice game, or one played as a guest)",
        ));
    }
    let asks = match session.status() {
        Status::Decide { player, .. } => player == mine,
        _ => false,
    };
    if !asks || game.row.state != "playing" {
        return Err(ApiError::conflict(
            "not_your_decision",
            "it is not your decision now",
        ));
    }
    let _permit = super::permit(&state.hints, "hints").await?;
    let session = session.clone();
    let plies = state.analysis.plies;
    let found = tokio::task::spawn_blocking(move || {
        hint::hint(NeuralEvaluator::shipped(), &session, plies)
    })
    .await
    .map_err(ApiError::internal)?
    .ok_or_else(|| ApiError::conflict("not_your_decision", "no play or cube decision is due"))?;
    Ok(Json(HintView::new(found, plies)))
}
