//! Accounts: guests, registration, login, logout, sessions and API tokens, and player pages.
//! The name rules are in [`crate::names`], password hashing and login throttling in
//! [`crate::accounts`], session lifetimes in [`crate::auth`].

use crate::auth::{self, Auth, MaybeAuth};
use crate::error::{ApiError, Json};
use crate::names;
use crate::store::{now_ms, PlayerRow, SessionRow, StoreError};
use crate::AppState;
use axum::extract::{ConnectInfo, FromRequestParts, Path, State};
use axum::http::header::SET_COOKIE;
use axum::http::request::Parts;
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

impl PlayerView {
    /// The name as exports write it: a guest's with ` (guest)` after it, so that nobody
    /// reads a guest as the registered user or bot of a similar name.
    pub fn label(&self) -> String {
        crate::store::guest_label(&self.name, &self.kind)
    }
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
    /// 1 to 32 letters, digits, spaces or `_ - . '` of one script, not a registered user's
    /// name, a bot's or a reserved one, nor one that looks like them (docs/protocol.md,
    /// "Names").
    pub nickname: String,
}

/// Username and password.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3 to 32 ASCII letters, digits, `_` or `-`; unique whatever the case.
    pub username: String,
    /// 8 to 200 characters.
    pub password: String,
}

/// A new API token (shown once).
#[derive(Serialize, ToSchema)]
pub struct TokenView {
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
    /// When it expires, Unix milliseconds.
    pub expires_ms: i64,
}

/// The client's address: the TCP peer, or, when the peer is one of the trusted reverse
/// proxies ([`crate::accounts::Settings::trusted_proxies`]), the last `X-Forwarded-For`
/// entry that is not itself a trusted proxy. `None` when the server loop gives no peer.
pub struct ClientAddr(pub Option<std::net::IpAddr>);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<std::net::SocketAddr>>()
            .map(|ConnectInfo(a)| a.ip());
        let trusted = &state.accounts.settings.trusted_proxies;
        Ok(ClientAddr(peer.map(|peer| {
            crate::accounts::client_address(peer, trusted, &parts.headers)
        })))
    }
}

/// Unix milliseconds `lifetime` from now.
fn expiry(lifetime: std::time::Duration) -> i64 {
    now_ms().saturating_add(i64::try_from(lifetime.as_millis()).unwrap_or(i64::MAX))
}

async fn login_response(state: &AppState, player: &PlayerRow) -> Result<Response, ApiError> {
    let token = auth::new_token();
    let lifetime = state.accounts.settings.session_lifetime;
    state
        .db
        .insert_session(
            &auth::token_hash(&token),
            &player.id,
            "cookie",
            expiry(lifetime),
        )
        .await?;
    Ok((
        [(
            SET_COOKIE,
            auth::session_cookie(
                &token,
                lifetime.as_secs(),
                state.accounts.settings.secure_cookies,
            ),
        )],
        Json(PlayerView::from(player)),
    )
        .into_response())
}

/// Play at once as a guest.
#[utoipa::path(post, path = "/api/guest", request_body = GuestRequest,
    responses((status = 200, body = PlayerView),
        (status = 400, description = "`bad_json`, or `name_not_allowed` (the name rules)", body = crate::error::ErrorBody)))]
pub async fn guest(
    State(state): State<AppState>,
    Json(req): Json<GuestRequest>,
) -> Result<Response, ApiError> {
    let name = names::check_nickname(&req.nickname)?;
    if state.db.user_with_name_key(&names::name_key(&name)).await? {
        return Err(names::NameError::LooksLikeUser.into());
    }
    let player = PlayerRow {
        id: auth::new_id(),
        name,
        username: None,
        password_hash: None,
        kind: "guest".into(),
    };
    inserted(state.db.insert_player(&player).await)?;
    login_response(&state, &player).await
}

/// A stored player, or 409 `username_taken` when the database's unique index refused it
/// (another request registered the same name in another case first).
fn inserted(stored: Result<(), StoreError>) -> Result<(), ApiError> {
    match stored {
        Err(StoreError::Conflict(_)) => Err(ApiError::conflict(
            "username_taken",
            "that username is taken",
        )),
        other => Ok(other?),
    }
}

fn username_taken() -> ApiError {
    ApiError::conflict(
        "username_taken",
        "that username is taken (usernames are compared whatever their case, and look-alikes \
         such as 0 and o count as one)",
    )
}

/// Register a user and log in.
#[utoipa::path(post, path = "/api/register", request_body = Credentials,
    responses((status = 200, body = PlayerView),
        (status = 400, description = "`bad_request` (password length), `name_not_allowed` (the name rules)", body = crate::error::ErrorBody),
        (status = 409, description = "`username_taken`, in any case or look-alike form", body = crate::error::ErrorBody),
        (status = 503, description = "`busy`: too many password checks at once; see `Retry-After`", body = crate::error::ErrorBody)))]
pub async fn register(
    State(state): State<AppState>,
    Json(req): Json<Credentials>,
) -> Result<Response, ApiError> {
    let username = names::check_username(&req.username)?;
    if !(8..=200).contains(&req.password.chars().count()) {
        return Err(ApiError::bad_request("a password is 8 to 200 characters"));
    }
    // A look-alike of a user (`mike` after `rnike`) is refused here; the same name in
    // another case also by the database's unique index, whoever registers first.
    if state
        .db
        .user_with_name_key(&names::name_key(&username))
        .await?
    {
        return Err(username_taken());
    }
    let hash = state.accounts.hasher.hash(req.password).await?;
    let player = PlayerRow {
        id: auth::new_id(),
        name: username.clone(),
        username: Some(username),
        password_hash: Some(hash),
        kind: "user".into(),
    };
    inserted(state.db.insert_player(&player).await)?;
    login_response(&state, &player).await
}

/// Log in (any case of the username).
#[utoipa::path(post, path = "/api/login", request_body = Credentials,
    responses((status = 200, body = PlayerView),
        (status = 401, description = "`bad_credentials`, the same for an unknown name", body = crate::error::ErrorBody),
        (status = 429, description = "`too_many_attempts`: too many failed logins for this name or from this address; see `Retry-After`", body = crate::error::ErrorBody),
        (status = 503, description = "`busy`: too many password checks at once; see `Retry-After`", body = crate::error::ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    ClientAddr(address): ClientAddr,
    Json(req): Json<Credentials>,
) -> Result<Response, ApiError> {
    let accounts = &state.accounts;
    let attempt = accounts.throttle.begin(&req.username, address)?;
    let player = match state.db.player_by_username(req.username.trim()).await {
        Ok(p) => p.filter(|p| p.password_hash.is_some()),
        Err(e) => {
            accounts.throttle.unchecked(attempt);
            return Err(e.into());
        }
    };
    // No such user: the same check against a dummy hash, so the answer takes as long.
    let hash = player.as_ref().and_then(|p| p.password_hash.clone());
    let ok = match accounts.hasher.verify(req.password, hash).await {
        Ok(ok) => ok,
        Err(e) => {
            accounts.throttle.unchecked(attempt);
            return Err(e);
        }
    };
    match player {
        Some(player) if ok => {
            accounts.throttle.succeeded(attempt);
            login_response(&state, &player).await
        }
        _ => Err(ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "bad_credentials",
            "wrong username or password",
        )),
    }
}

/// End the session this request is sent with (API tokens survive it: see `logout-all`).
#[utoipa::path(post, path = "/api/logout", responses((status = 200)))]
pub async fn logout(
    State(state): State<AppState>,
    parts: axum::http::request::Parts,
) -> Result<Response, ApiError> {
    if let Some((token, _)) = auth::request_token(&parts) {
        state.db.delete_session(&auth::token_hash(&token)).await?;
    }
    Ok((
        [(
            SET_COOKIE,
            auth::cleared_cookie(state.accounts.settings.secure_cookies),
        )],
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

/// Who is logged in, for pages that serve visitors too: always 200, `{"player": null}` for a
/// visitor (a browser logs every 401 as an error, and a visitor is no error).
#[utoipa::path(get, path = "/api/session", responses((status = 200, body = SessionView)))]
pub async fn session(MaybeAuth(player): MaybeAuth) -> Json<SessionView> {
    Json(SessionView {
        player: player.as_ref().map(PlayerView::from),
    })
}

/// The answer of `/api/session`.
#[derive(Serialize, ToSchema)]
pub struct SessionView {
    /// The logged-in player, or null.
    pub player: Option<PlayerView>,
}

/// A new API token for scripts and bots (it expires after the token lifetime, 365 days by
/// default).
#[utoipa::path(post, path = "/api/tokens", responses((status = 200, body = TokenView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn token(
    State(state): State<AppState>,
    Auth(player): Auth,
) -> Result<Json<TokenView>, ApiError> {
    let token = auth::new_token();
    let expires_ms = expiry(state.accounts.settings.token_lifetime);
    state
        .db
        .insert_session(&auth::token_hash(&token), &player.id, "api", expires_ms)
        .await?;
    Ok(Json(TokenView { token, expires_ms }))
}

/// A player's sessions and API tokens.
#[derive(Serialize, ToSchema)]
pub struct SessionList {
    /// Those that have not expired, newest first (never their secrets).
    pub sessions: Vec<SessionRow>,
    /// The id of the session or token this request was sent with.
    pub current: Option<String>,
}

/// The player's sessions and API tokens.
#[utoipa::path(get, path = "/api/sessions", responses((status = 200, body = SessionList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn sessions(
    State(state): State<AppState>,
    Auth(player): Auth,
    parts: Parts,
) -> Result<Json<SessionList>, ApiError> {
    let current = match auth::request_token(&parts) {
        Some((token, _)) => state.db.session_id(&auth::token_hash(&token)).await?,
        None => None,
    };
    Ok(Json(SessionList {
        sessions: state.db.sessions_of(&player.id).await?,
        current,
    }))
}

/// End one of the player's sessions or API tokens, by its id.
#[utoipa::path(delete, path = "/api/sessions/{id}", responses((status = 200), (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn end_session(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    if !state.db.delete_session_by_id(&player.id, &id).await? {
        return Err(ApiError::not_found("session"));
    }
    Ok(Json(serde_json::json!({"ok": true})))
}

/// Log out everywhere: end every session and API token of the player, this one included.
#[utoipa::path(post, path = "/api/logout-all", responses((status = 200, description = "`{\"ok\": true, \"ended\": N}`"), (status = 401, body = crate::error::ErrorBody)))]
pub async fn logout_all(
    State(state): State<AppState>,
    Auth(player): Auth,
) -> Result<Response, ApiError> {
    let ended = state.db.delete_sessions_of(&player.id).await?;
    Ok((
        [(
            SET_COOKIE,
            auth::cleared_cookie(state.accounts.settings.secure_cookies),
        )],
        Json(serde_json::json!({"ok": true, "ended": ended})),
    )
        .into_response())
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
    let standings: BTreeMap<_, _> = state.db.standings(&id).await?.into_iter().collect();
    Ok(Json(PlayerPage {
        player: PlayerView::from(&p),
        standings,
    }))
}
