//! The OpenAPI description of the HTTP API, served at `/api/openapi.json`.

use axum::response::IntoResponse;
use utoipa::OpenApi;

/// The API's OpenAPI document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tabula",
        description = "Play backgammon, Never-Finishing backgammon, Grasshopper and Grasshopper (Halma). WebSocket messages: docs/protocol.md."
    ),
    paths(
        super::health,
        super::lobby,
        super::player_games,
        super::players::guest,
        super::players::register,
        super::players::login,
        super::players::logout,
        super::players::me,
        super::players::token,
        super::players::player,
        super::games::create,
        super::games::join,
        super::games::get,
        super::games::act,
        super::games::roll,
        super::records::events,
        super::records::record,
        super::records::export,
        super::stats::stats,
    ),
    components(schemas(crate::error::ErrorBody, crate::games::GameOptions))
)]
pub struct ApiDoc;

/// `GET /api/openapi.json`.
pub async fn spec() -> impl IntoResponse {
    axum::Json(ApiDoc::openapi())
}
