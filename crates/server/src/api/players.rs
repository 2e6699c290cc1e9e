//! Accounts: guests, registration, login, logout, API tokens, and player pages.

use crate::auth::{self, Auth, MaybeAuth};
use crate::db::PlayerRow;
use crate::error::{ApiError, Json};
use crate::ratings::{standing, STANDING_COLUMNS};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::header::SET_COOKIE;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A player as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerView {
    /// Id.
    pub id: String,
    /// Shown name.
    pub name: String,
    /// `user`, `guest` or `bot`.
    pub kind: String,
}

impl From<&PlayerRow> for PlayerView {
    fn from(p: &PlayerRow) -> PlayerView {
        PlayerView {
            id: p.id.clone(),
            name: p.name.clone(),
            kind: p.kind.clone(),
        }
    }
}

/// A guest's nickname.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GuestRequest {
    /// 1 to 32 characters.
    pub nickname: String,
}

/// Username and password.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3 to 32 letters, digits, `_` or `-`.
    pub username: String,
    /// 8 to 200 characters.
    pub password: String,
}

/// A new API token (shown once).
#[derive(Serialize, ToSchema)]
pub struct TokenView {
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
}

fn check_name(name: &str, what: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "a {what} is 1 to 32 printable characters"
        )));
    }
    Ok(name.to_string())
}

async fn login_response(state: &AppState, player: &PlayerRow) -> Result<Response, ApiError> {
    let token = auth::new_token();
    state
        .db
        .insert_session(&auth::token_hash(&token), &player.id, "cookie")
        .await?;
    Ok((
        [(SET_COOKIE, auth::session_cookie(&token))],
        Json(PlayerView::from(player)),
    )
        .into_response())
}

/// Play at once as a guest.
#[utoipa::path(post, path = "/api/guest", request_body = GuestRequest,
    responses((status = 200, body = PlayerView), (status = 400, body = crate::error::ErrorBody)))]
pub async fn guest(
    State(state): State<AppState>,
    Json(req): Json<GuestRequest>,
) -> Result<Response, ApiError> {
    let player = PlayerRow {
        id: auth::new_id(),
        name: check_name(&req.nickname, "nickname")?,
        username: None,
        password_hash: None,
        kind: "guest".into(),
    };
    state.db.insert_player(&player).await?;
    login_response(&state, &player).await
}

/// Register a user and log in.
#[utoipa::path(post, path = "/api/register", request_body = Credentials,
    responses((status = 200, body = PlayerView), (status = 409, body = crate::error::ErrorBody)))]
pub async fn register(
    State(state): State<AppState>,
    Json(req): Json<Credentials>,
) -> Result<Response, ApiError> {
    let username = req.username.trim().to_string();
    if !(3..=32).contains(&username.len())
        || !username
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(ApiError::bad_request(
            "a username is 3 to 32 letters, digits, _ or -",
        ));
    }
    if !(8..=200).contains(&req.password.chars().count()) {
        return Err(ApiError::bad_request("a password is 8 to 200 characters"));
    }
    let password = req.password;
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(ApiError::internal)??;
    let player = PlayerRow {
        id: auth::new_id(),
        name: username.clone(),
        username: Some(username),
        password_hash: Some(hash),
        kind: "user".into(),
    };
    state.db.insert_player(&player).await?;
    login_response(&state, &player).await
}

/// Log in.
#[utoipa::path(post, path = "/api/login", request_body = Credentials,
    responses((status = 200, body = PlayerView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    Json(req): Json<Credentials>,
) -> Result<Response, ApiError> {
    let refused = || {
        ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "bad_credentials",
            "wrong username or password",
        )
    };
    let player = state
        .db
        .player_by_username(req.username.trim())
        .await?
        .ok_or_else(refused)?;
    let hash = player.password_hash.clone().ok_or_else(refused)?;
    let password = req.password;
    let ok = tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash))
        .await
        .map_err(ApiError::internal)?;
    if !ok {
        return Err(refused());
    }
    login_response(&state, &player).await
}

/// End the session.
#[utoipa::path(post, path = "/api/logout", responses((status = 200)))]
pub async fn logout(
    State(state): State<AppState>,
    parts: axum::http::request::Parts,
) -> Result<Response, ApiError> {
    if let Some((token, _)) = auth::request_token(&parts) {
        state.db.delete_session(&auth::token_hash(&token)).await?;
    }
    Ok((
        [(SET_COOKIE, auth::cleared_cookie())],
        Json(serde_json::json!({"ok": true})),
    )
        .into_response())
}

/// Who is logged in.
#[utoipa::path(get, path = "/api/me", responses((status = 200, body = PlayerView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn me(MaybeAuth(player): MaybeAuth) -> Result<Json<PlayerView>, ApiError> {
    player
        .as_ref()
        .map(|p| Json(PlayerView::from(p)))
        .ok_or_else(ApiError::unauthorized)
}

/// A new API token for scripts and bots.
#[utoipa::path(post, path = "/api/tokens", responses((status = 200, body = TokenView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn token(
    State(state): State<AppState>,
    Auth(player): Auth,
) -> Result<Json<TokenView>, ApiError> {
    let token = auth::new_token();
    state
        .db
        .insert_session(&auth::token_hash(&token), &player.id, "api")
        .await?;
    Ok(Json(TokenView { token }))
}

/// A player page: name and standing per game type.
#[derive(Serialize, ToSchema)]
pub struct PlayerPage {
    /// The player.
    pub player: PlayerView,
    /// Per game type: games, wins, losses, draws, Glicko-2 rating (and FIBS for backgammon).
    pub standings: BTreeMap<String, crate::ratings::Standing>,
}

/// A player's page.
#[utoipa::path(get, path = "/api/players/{id}", responses((status = 200, body = PlayerPage), (status = 404, body = crate::error::ErrorBody)))]
pub async fn player(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<PlayerPage>, ApiError> {
    let p = state
        .db
        .player(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?;
    let sql = format!("SELECT game_type, {STANDING_COLUMNS} FROM ratings WHERE player_id = $1");
    let rows = sqlx::query(&sql)
        .bind(&id)
        .fetch_all(&state.db.pool)
        .await?;
    let mut standings = BTreeMap::new();
    for r in &rows {
        use sqlx::Row;
        standings.insert(r.try_get::<String, _>("game_type")?, standing(r)?);
    }
    Ok(Json(PlayerPage {
        player: PlayerView::from(&p),
        standings,
    }))
}
