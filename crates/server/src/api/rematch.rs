//! Rematches: when a game (or match) is over, either player may offer a rematch with the same
//! options and clock, colours swapped; the game starts when the other player accepts by
//! asking for it too. Against a bot the rematch starts at once. The offer and the new game's
//! id are kept on the finished game's row (`rematch_offer`, `rematch_id`) and told to its
//! watchers as a note (`{"type": "rematch", ...}`).

use crate::auth::{self, Auth};
use crate::error::{ApiError, Json};
use crate::service::color_name;
use crate::store::{now_ms, GameRow};
use crate::AppState;
use axum::extract::{Path, State};
use serde::Serialize;
use serde_json::json;
use tabula_core::verifiable::ServerSeed;
use tabula_core::Color;
use utoipa::ToSchema;

/// Where a finished game's rematch stands.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RematchView {
    /// The colour of the player who offered it (`white` or `black`), or null.
    pub offered_by: Option<String>,
    /// The new game's id once accepted, or null.
    pub game: Option<String>,
}

impl RematchView {
    /// The rematch state of `row`.
    pub fn of(row: &GameRow) -> RematchView {
        RematchView {
            offered_by: row.rematch_offer.clone(),
            game: row.rematch_id.clone(),
        }
    }
}

/// The finished game `id` and the seat `player` holds in it.
async fn finished_seat(
    state: &AppState,
    id: &str,
    player: &str,
) -> Result<(GameRow, Color), ApiError> {
    crate::service::check_game_id(id)?;
    let row = state
        .db
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let color = seat_of(&row, player)?;
    Ok((row, color))
}

fn seat_of(row: &GameRow, player: &str) -> Result<Color, ApiError> {
    let color = row
        .color_of(player)
        .ok_or_else(|| ApiError::forbidden("not_a_player", "you do not play in this game"))?;
    if row.state != "finished" {
        return Err(ApiError::conflict(
            "not_finished",
            "a rematch can be offered once the game is over",
        ));
    }
    Ok(color)
}

/// Offer a rematch, or accept the opponent's offer (the same request).
#[utoipa::path(post, path = "/api/games/{id}/rematch",
    responses((status = 200, body = RematchView), (status = 403, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody)))]
pub async fn offer(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
) -> Result<Json<RematchView>, ApiError> {
    let (row, color) = finished_seat(&state, &id, &me.id).await?;
    if row.rematch_id.is_some() {
        return Ok(Json(RematchView::of(&row)));
    }
    let against_bot = row.bot(!color).is_some();
    let accepting = row.rematch_offer.as_deref() == Some(color_name(!color));
    if !(accepting || against_bot) {
        state.db.offer_rematch(&id, color_name(color)).await?;
        let view = RematchView {
            offered_by: Some(color_name(color).into()),
            game: None,
        };
        state.hub.note(
            &id,
            json!({"type": "rematch", "offered_by": view.offered_by}),
        );
        return Ok(Json(view));
    }
    // Accepted (or a bot's seat, which always accepts): claim the rematch, then create it.
    let new_id = auth::new_id();
    if !state.db.claim_rematch(&id, &new_id).await? {
        let row = state
            .db
            .game(&id)
            .await?
            .ok_or_else(|| ApiError::not_found("game"))?;
        return Ok(Json(RematchView::of(&row)));
    }
    let seed = ServerSeed::generate();
    let next = GameRow {
        id: new_id.clone(),
        game_type: row.game_type.clone(),
        options: row.options.clone(),
        // Colours swapped.
        white_id: row.black_id.clone(),
        black_id: row.white_id.clone(),
        white_bot: row.black_bot.clone(),
        black_bot: row.white_bot.clone(),
        white_client_seed: row.black_client_seed.clone(),
        black_client_seed: row.white_client_seed.clone(),
        invite_code: None,
        listed: false,
        state: "playing".into(),
        server_seed: seed.to_hex(),
        commitment: seed.commitment(),
        version: 0,
        created_ms: now_ms(),
        winner: None,
        points: None,
        plies: Some(0),
        // A practice game's rematch is practice too (a guest's game is unrated either way).
        rated: (row.rated == Some(0)).then_some(0),
        clock: row.clock.clone(),
        rematch_offer: None,
        rematch_id: None,
    };
    state.db.insert_game(&next).await?;
    state.hub.lobby_changed();
    state.committed(&new_id);
    let view = RematchView {
        offered_by: row.rematch_offer.clone().or(Some(color_name(color).into())),
        game: Some(new_id),
    };
    state.hub.note(
        &id,
        json!({"type": "rematch", "offered_by": view.offered_by, "game": view.game}),
    );
    Ok(Json(view))
}

/// Decline the opponent's rematch offer (or withdraw one's own).
#[utoipa::path(post, path = "/api/games/{id}/rematch/decline",
    responses((status = 200, body = RematchView), (status = 403, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody)))]
pub async fn decline(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
) -> Result<Json<RematchView>, ApiError> {
    let (row, color) = finished_seat(&state, &id, &me.id).await?;
    if row.rematch_id.is_some() {
        return Err(ApiError::conflict(
            "rematch_started",
            "the rematch has already started",
        ));
    }
    state.db.withdraw_rematch(&id).await?;
    state.hub.note(
        &id,
        json!({"type": "rematch", "offered_by": null, "declined_by": color_name(color)}),
    );
    Ok(Json(RematchView {
        offered_by: None,
        game: None,
    }))
}
