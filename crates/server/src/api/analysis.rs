//! The analysis of a finished backgammon game (`/api/games/{id}/analysis`): ask for it
//! (POST, any logged-in player), then read its progress and report (GET). The work is a job
//! shared by the instances ([`crate::analysis`]); its progress is also pushed over the
//! game's WebSocket.

use crate::analysis::store::{JobRow, Queued};
use crate::auth::Auth;
use crate::error::{ApiError, Json};
use crate::games::Table;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::Value;
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
        (status = 400, description = "not_backgammon: only backgammon games are analysed", body = crate::error::ErrorBody),
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
    if !matches!(game.table, Table::Backgammon(_)) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "not_backgammon",
            "only backgammon games are analysed",
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
