//! The HTTP API: routes, the shared summary of a game, the lobby, statistics, health and the
//! OpenAPI description. Every error is an [`crate::error::ApiError`].

pub mod analysis;
pub mod archive;
pub mod chat;
mod export;
pub mod games;
mod lobby_ws;
mod openapi;
pub mod players;
pub mod preferences;
pub mod progress;
pub mod readiness;
mod records;
pub mod rematch;
mod stats;
mod store_errors;
pub mod study;
pub mod study_grasshopper;
pub mod study_limits;
pub mod study_nf;
pub mod study_rollout;
pub mod trainer;
mod ws;

use crate::error::ApiError;
use crate::store::GameRow;
use crate::AppState;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::routing::{get, post};
use axum::Router;
use players::PlayerView;
use serde::Serialize;
use utoipa::ToSchema;

pub use openapi::ApiDoc;

/// The router of the whole API.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(health))
        .route("/readyz", get(ready))
        .route("/api/openapi.json", get(openapi::spec))
        .route("/api/guest", post(players::guest))
        .route("/api/register", post(players::register))
        .route("/api/login", post(players::login))
        .route("/api/logout", post(players::logout))
        .route("/api/me", get(players::me))
        .route("/api/session", get(players::session))
        .route(
            "/api/me/preferences",
            get(preferences::get).put(preferences::put),
        )
        .route("/api/tokens", post(players::token))
        .route("/api/sessions", get(players::sessions))
        .route(
            "/api/sessions/{id}",
            axum::routing::delete(players::end_session),
        )
        .route("/api/logout-all", post(players::logout_all))
        .route("/api/players/{id}", get(players::player))
        .route("/api/players/{id}/games", get(player_games))
        .route("/api/players/{id}/progress", get(progress::progress))
        .route("/api/players/{id}/archive", get(archive::archive))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/ws", get(lobby_ws::upgrade))
        .route("/api/stats", get(stats::stats))
        .route("/api/games", post(games::create))
        .route("/api/games/{id}", get(games::get))
        .route("/api/games/{id}/join", post(games::join))
        .route("/api/games/{id}/actions", post(games::act))
        .route("/api/games/{id}/roll", post(games::roll))
        .route("/api/games/{id}/resign", post(games::resign))
        .route("/api/games/{id}/abort", post(games::abort))
        .route("/api/games/{id}/chat", get(chat::read).post(chat::post))
        .route("/api/games/{id}/chat/settings", post(chat::settings))
        .route("/api/games/{id}/rematch", post(rematch::offer))
        .route("/api/games/{id}/rematch/decline", post(rematch::decline))
        .route("/api/games/{id}/events", get(records::events))
        .route("/api/games/{id}/record", get(records::record))
        .route("/api/games/{id}/export", get(records::export))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route(
            "/api/games/{id}/analysis",
            get(analysis::get).post(analysis::request),
        )
        .route("/api/games/{id}/hint", get(analysis::hint))
        .route("/api/study/evaluate", post(study::evaluate))
        .route("/api/study/position", post(study::position))
        .route("/api/study/rollout", post(study_rollout::rollout))
        .route("/api/study/nf/evaluate", post(study_nf::evaluate))
        .route("/api/study/grasshopper", post(study_grasshopper::evaluate))
        .route("/api/trainer", get(trainer::trainer))
        .route("/api/trainer/{id}/answer", post(trainer::answer))
        // Any other path under /api, whatever the method: the JSON 404 (not the app).
        .route("/api", axum::routing::any(crate::guard::api_not_found))
        .route(
            "/api/{*rest}",
            axum::routing::any(crate::guard::api_not_found),
        )
        .route("/", get(crate::web::index))
        .route("/{*path}", get(crate::web::asset))
        // A known path with another method: the JSON 405 (after every route).
        .method_not_allowed_fallback(crate::guard::method_not_allowed)
        .layer(DefaultBodyLimit::max(crate::BODY_LIMIT))
        .with_state(state)
}

/// A game in lists: id, type, players, state and result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameSummary {
    /// Id.
    pub id: String,
    /// `backgammon`, `never-finishing`, `grasshopper` or `halma-grasshopper`.
    pub game: String,
    /// The options in words (`5-point match`, `money game, beavers, Jacoby rule`, `14
    /// checkers each`, `10×10 board, evacuation after move 50`).
    pub description: String,
    /// `waiting`, `playing` or `finished`.
    pub state: String,
    /// Events so far.
    pub version: i64,
    /// White's player (a bot is a player of kind `bot`).
    pub white: Option<PlayerView>,
    /// Black's player.
    pub black: Option<PlayerView>,
    /// `white`, `black`, or null (a draw, or not finished).
    pub winner: Option<String>,
    /// Points won.
    pub points: Option<i64>,
    /// Actions played.
    pub plies: Option<i64>,
    /// SHA-256 commitment to the server's dice seed.
    pub commitment: String,
    /// Creation time, Unix milliseconds.
    pub created_ms: i64,
    /// Whether the game counts for ratings: `false` when a guest plays in it or it was
    /// created as practice (`unrated`), null while a seat is empty. See docs/protocol.md,
    /// "Ratings".
    pub rated: Option<bool>,
    /// Lobby's open seats only: the rating, in this game, of the registered player waiting
    /// at the game (absent for a guest, or a player not yet rated in it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting_rating: Option<SeatRating>,
}

/// A waiting player's rating as an open seat shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeatRating {
    /// The Glicko-2 rating, rounded.
    pub rating: i64,
    /// Whether it is still provisional (few rated opponents so far).
    pub provisional: bool,
}

/// The summary of `row`.
pub async fn summary(state: &AppState, row: &GameRow) -> Result<GameSummary, ApiError> {
    let player = |id: Option<String>| async move {
        match id {
            Some(id) => state
                .db
                .player(&id)
                .await
                .map(|p| p.as_ref().map(PlayerView::from)),
            None => Ok(None),
        }
    };
    let (white, black) = (
        player(row.white_id.clone()).await?,
        player(row.black_id.clone()).await?,
    );
    Ok(summary_of(row, white, black))
}

/// The summary of `row` with its seated players given.
pub fn summary_of(
    row: &GameRow,
    white: Option<PlayerView>,
    black: Option<PlayerView>,
) -> GameSummary {
    let rated = crate::ratings::game_rated(
        row.rated,
        tabula_core::ByColor {
            white: white.as_ref().map(|p| p.kind.as_str()),
            black: black.as_ref().map(|p| p.kind.as_str()),
        },
    );
    let mut description = serde_json::from_str::<crate::games::GameOptions>(&row.options)
        .map(|o| o.describe())
        .unwrap_or_default();
    if let Ok(Some(clock)) = row.time_control() {
        description.push_str(&format!(", {}", clock.describe()));
    }
    GameSummary {
        id: row.id.clone(),
        game: row.game_type.clone(),
        description,
        state: row.state.clone(),
        version: row.version,
        white,
        black,
        winner: row.winner.clone(),
        points: row.points,
        plies: row.plies,
        commitment: row.commitment.clone(),
        created_ms: row.created_ms,
        rated,
        waiting_rating: None,
    }
}

async fn summaries(state: &AppState, rows: &[GameRow]) -> Result<Vec<GameSummary>, ApiError> {
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        out.push(summary(state, r).await?);
    }
    Ok(out)
}

/// The lobby.
#[derive(Serialize, ToSchema)]
pub struct Lobby {
    /// Games with an open seat anyone may take.
    pub open: Vec<GameSummary>,
    /// Games being played, to watch.
    pub playing: Vec<GameSummary>,
}

/// Open seats and games to watch.
#[utoipa::path(get, path = "/api/lobby", responses((status = 200, body = Lobby)))]
pub async fn lobby(State(state): State<AppState>) -> Result<crate::error::Json<Lobby>, ApiError> {
    Ok(crate::error::Json(lobby_now(&state).await?))
}

/// The lobby as it stands.
pub async fn lobby_now(state: &AppState) -> Result<Lobby, ApiError> {
    let open = state.db.open_games(100).await?;
    let playing = state.db.playing_games(100).await?;
    let mut open_seats = summaries(state, &open).await?;
    // the waiting registered players' ratings, read in one query
    let waiting = |seat: &GameSummary| {
        let p = seat.white.as_ref().or(seat.black.as_ref())?;
        (p.kind == "user").then(|| p.id.clone())
    };
    let ids: Vec<String> = open_seats.iter().filter_map(waiting).collect();
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let standings = state.db.standings_of(&refs).await?;
    for seat in &mut open_seats {
        let Some(id) = waiting(seat) else { continue };
        seat.waiting_rating = standings
            .iter()
            .find(|(p, game, _)| *p == id && *game == seat.game)
            .map(|(_, _, s)| SeatRating {
                rating: s.rating.round() as i64,
                provisional: s.provisional,
            });
    }
    Ok(Lobby {
        open: open_seats,
        playing: summaries(state, &playing).await?,
    })
}

/// A player's games, newest first (up to 200).
#[utoipa::path(get, path = "/api/players/{id}/games", responses((status = 200, body = [GameSummary])))]
pub async fn player_games(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<crate::error::Json<Vec<GameSummary>>, ApiError> {
    let rows = state.db.games_of(&id, 200).await?;
    Ok(crate::error::Json(summaries(&state, &rows).await?))
}

/// Waits up to a second for one of `semaphore`'s permits, else 503 `busy`.
pub(crate) async fn permit<'a>(
    semaphore: &'a tokio::sync::Semaphore,
    what: &str,
) -> Result<tokio::sync::SemaphorePermit<'a>, ApiError> {
    tokio::time::timeout(std::time::Duration::from_secs(1), semaphore.acquire())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                format!("too many {what} are being worked out; try again"),
            )
            .retry_after(1)
        })
}

/// Liveness: the process answers (`ok`), whatever the database does. Readiness is
/// `/readyz`.
#[utoipa::path(get, path = "/healthz", responses((status = 200, body = String)))]
pub async fn health() -> &'static str {
    "ok"
}

/// Readiness: `ready` when the database takes a small write now; 503 `storage_full` or
/// `storage_unavailable` otherwise, within a second (docs/operations.md).
#[utoipa::path(get, path = "/readyz", responses((status = 200, body = String), (status = 503, body = crate::error::ErrorBody)))]
pub async fn ready(State(state): State<AppState>) -> Result<&'static str, ApiError> {
    state.readiness.check(&state.db).await?;
    Ok("ready")
}
