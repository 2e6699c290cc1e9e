//! Reading a game's history: its log after a version, the full record with the state after
//! every entry, and exports (Tabula's notation, Jellyfish .mat).

use super::games::{game_view, GameView};
use super::players::PlayerView;
use super::summary;
use crate::auth::MaybeAuth;
use crate::error::{ApiError, Json, Query};
use crate::games::Table;
use crate::store::EventRow;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// Log entries after a version.
#[derive(Deserialize, ToSchema)]
pub struct Since {
    /// Entries with a version above this (default 0: all).
    #[serde(default)]
    pub since: i64,
}

/// The game's log after `since`.
#[utoipa::path(get, path = "/api/games/{id}/events", params(("since" = Option<i64>, Query, description = "entries after this version")),
    responses((status = 200, body = [EventRow]), (status = 404, body = crate::error::ErrorBody)))]
pub async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<Since>,
) -> Result<Json<Vec<EventRow>>, ApiError> {
    crate::service::check_game_id(&id)?;
    state
        .db
        .game(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    Ok(Json(state.db.events(&id, q.since).await?))
}

/// One step of a record: the event and the state after it.
#[derive(Serialize, ToSchema)]
pub struct RecordStep {
    /// The event.
    pub event: EventRow,
    /// The state after it.
    pub state: Value,
}

/// A game's full record.
#[derive(Serialize, ToSchema)]
pub struct GameRecord {
    /// The game.
    pub game: GameView,
    /// The state before the first event.
    pub start: Value,
    /// Every event with the state after it.
    pub steps: Vec<RecordStep>,
}

/// The full record: every event with the state after it.
#[utoipa::path(get, path = "/api/games/{id}/record", responses((status = 200, body = GameRecord), (status = 404, body = crate::error::ErrorBody)))]
pub async fn record(
    State(state): State<AppState>,
    MaybeAuth(me): MaybeAuth,
    Path(id): Path<String>,
) -> Result<Json<GameRecord>, ApiError> {
    let game = state.load(&id).await?;
    let events = state.db.events(&id, 0).await?;
    let mut table = Table::new(&game.row.game_options()?).map_err(ApiError::internal)?;
    let names = game.names();
    let start = table.view(names);
    let mut steps = Vec::with_capacity(events.len());
    let mut ended = None;
    for event in events {
        let state = crate::service::record_step(&mut table, &mut ended, &event, names)?;
        steps.push(RecordStep { event, state });
    }
    let viewer = me.as_ref().map(|p| p.id.as_str());
    Ok(Json(GameRecord {
        game: game_view(&state, &game, viewer, true).await?,
        start,
        steps,
    }))
}

/// Export format.
#[derive(Deserialize, ToSchema)]
pub struct ExportQuery {
    /// `tabula` (every game) or `mat` (backgammon, Jellyfish .mat for gnubg).
    #[serde(default = "tabula_format")]
    pub format: String,
}

fn tabula_format() -> String {
    "tabula".into()
}

/// The game as text: Tabula's notation, or a Jellyfish .mat file for backgammon.
#[utoipa::path(get, path = "/api/games/{id}/export", params(("format" = Option<String>, Query, description = "tabula or mat")),
    responses((status = 200, content_type = "text/plain", body = String), (status = 400, body = crate::error::ErrorBody)))]
pub async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let game = state.load(&id).await?;
    let events = state.db.events(&id, 0).await?;
    let s = summary(&state, &game.row).await?;
    let name = |p: &Option<PlayerView>| {
        p.as_ref()
            .map(PlayerView::label)
            .unwrap_or_else(|| "?".into())
    };
    let text = match q.format.as_str() {
        "tabula" => super::export::tabula_text(&game, &events, &name(&s.white), &name(&s.black))?,
        "mat" => super::export::mat_text(&game, &name(&s.white), &name(&s.black))?,
        other => {
            return Err(ApiError::bad_request(format!(
                "unknown format {other:?} (tabula or mat)"
            )))
        }
    };
    Ok(([(CONTENT_TYPE, "text/plain; charset=utf-8")], text))
}
