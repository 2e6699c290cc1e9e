//! Games: create (against a bot, by invitation, or with an open seat in the lobby), join,
//! act, roll, and read (state, log, full record, export).

use super::{GameSummary, PlayerView};
use crate::auth::{self, Auth, MaybeAuth};
use crate::clock::TimeControl;
use crate::error::{ApiError, Json, Query};
use crate::games::{GameOptions, Table};
use crate::service::{color_name, derive_roll, Change, Loaded, Roller};
use crate::store::{now_ms, GameRow};
use crate::AppState;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_ai::Level;
use tabula_core::verifiable::{DiceRecord, RecordedRoll, ServerSeed};
use tabula_core::{Color, Status};
use utoipa::ToSchema;

/// Who plays the other seat.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Opponent {
    /// A bot of this level (`random`, `easy`, `medium`, `strong`).
    Bot {
        /// The level.
        level: String,
    },
    /// A player who follows the invitation link (the code is returned).
    Invite,
    /// Anyone, from the lobby.
    Open,
}

/// A new game.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The game and its options.
    pub options: GameOptions,
    /// The other seat.
    pub opponent: Opponent,
    /// The creator's colour, `white` (default) or `black`.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub color: Option<Color>,
    /// The creator's client seed for the dice (up to 128 characters).
    #[serde(default)]
    pub client_seed: Option<String>,
    /// A practice game: rated for neither side whoever plays (default false); against a
    /// bot, the player may ask for hints.
    #[serde(default)]
    pub unrated: bool,
    /// A time control (`{"delay": seconds, "reserve": seconds}`); absent or null for none
    /// (unlimited: correspondence).
    #[serde(default)]
    pub clock: Option<TimeControl>,
}

/// Taking the empty seat.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinGame {
    /// The invitation code (not needed for a lobby seat).
    #[serde(default)]
    pub invite_code: Option<String>,
    /// The joiner's client seed for the dice.
    #[serde(default)]
    pub client_seed: Option<String>,
}

/// An action.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The action in the game's notation (`8/3 6/3`, `double`, `take`, `c3-e5`, `A3`, ...).
    pub action: String,
    /// If given, the action is refused (409 `stale_version`) unless the game is at it.
    #[serde(default)]
    pub version: Option<i64>,
}

/// A roll request.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RollRequest {
    /// A fresh random value from the client, 8 to 128 characters.
    pub nonce: String,
}

/// A game, with its state.
#[derive(Serialize, ToSchema)]
pub struct GameView {
    /// Id, type, players and result.
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The options.
    pub options: Value,
    /// The state (board, dice, cube, score, status, legal actions, notation), with `result`
    /// (a `GameEnd` once the game is over, else null) and, for backgammon and Never-Finishing,
    /// `games` (a `FinishedGame` for every game of the match or session that has ended).
    pub view: Value,
    /// Who must send the nonce of the roll the game waits for: `white`, `black`, `either`,
    /// `server`, or null when no roll is due.
    pub roller: Option<String>,
    /// The invitation code, shown to the creator while the seat is empty.
    pub invite_code: Option<String>,
    /// A finished game's rematch: who offered it and the new game once accepted.
    pub rematch: super::rematch::RematchView,
    /// The dice commitments and rolls (the seed once the game is over); only in `GET`.
    #[schema(value_type = Option<Object>)]
    pub dice: Option<DiceRecord>,
}

/// The reply a client asks for with `?reply=` (docs/protocol.md, "Lean replies").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplyKind {
    /// The whole game ([`GameView`]), the default.
    #[default]
    Full,
    /// What to do next only ([`LeanView`]).
    Lean,
}

/// The query of the requests that change a game.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReplyQuery {
    /// `full` (default) or `lean`.
    #[serde(default)]
    #[param(value_type = Option<String>)]
    pub reply: ReplyKind,
}

/// A lean reply (`?reply=lean`): the game's version and what to do next, nothing else.
#[derive(Serialize, ToSchema)]
pub struct LeanView {
    /// Id.
    pub id: String,
    /// Events so far.
    pub version: i64,
    /// `waiting`, `playing` or `finished`.
    pub state: String,
    /// As in [`GameView::roller`].
    pub roller: Option<String>,
    /// The full view's `view.status`.
    pub status: Value,
    /// The full view's `view.legal`.
    pub legal: Value,
    /// As in [`GameView::invite_code`].
    pub invite_code: Option<String>,
}

/// The answer to a change of `game` by `viewer`, as `kind` asks.
async fn reply(
    state: &AppState,
    game: &Loaded,
    viewer: &str,
    kind: ReplyKind,
) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    if kind == ReplyKind::Full {
        return Ok(Json(game_view(state, game, Some(viewer), false).await?).into_response());
    }
    let row = &game.row;
    let (status, legal) = game.next_step();
    let creator = row.white_id.as_deref().or(row.black_id.as_deref());
    Ok(Json(LeanView {
        id: row.id.clone(),
        version: row.version,
        state: row.state.clone(),
        roller: if row.state == "playing" {
            roller_name(game.roller())
        } else {
            None
        },
        status,
        legal,
        invite_code: row
            .invite_code
            .clone()
            .filter(|_| row.state == "waiting" && Some(viewer) == creator),
    })
    .into_response())
}

fn roller_name(r: Option<Roller>) -> Option<String> {
    r.map(|r| match r {
        Roller::Seat(c) => color_name(c).to_string(),
        Roller::Either => "either".into(),
        Roller::Server => "server".into(),
    })
}

pub(super) async fn game_view(
    state: &AppState,
    game: &Loaded,
    viewer: Option<&str>,
    dice: bool,
) -> Result<GameView, ApiError> {
    let row = &game.row;
    let dice = if dice {
        Some(dice_record(state, row).await?)
    } else {
        None
    };
    let creator = row.white_id.as_deref().or(row.black_id.as_deref());
    // The seated players as loaded: the answer to a committed change needs no read (a
    // failing database must not turn an acknowledged entry into an error).
    let seated = |c: Color| game.players[c].as_ref().map(PlayerView::from);
    Ok(GameView {
        summary: super::summary_of(row, seated(Color::White), seated(Color::Black)),
        options: serde_json::from_str(&row.options).unwrap_or(Value::Null),
        view: game.view(),
        roller: if row.state == "playing" {
            roller_name(game.roller())
        } else {
            None
        },
        invite_code: row
            .invite_code
            .clone()
            .filter(|_| row.state == "waiting" && viewer.is_some() && viewer == creator),
        rematch: super::rematch::RematchView::of(row),
        dice,
    })
}

/// The dice record of a game (the seed revealed once it is over).
pub async fn dice_record(state: &AppState, row: &GameRow) -> Result<DiceRecord, ApiError> {
    let events = state.db.events(&row.id, 0).await?;
    let rolls = events
        .iter()
        .filter(|e| e.kind == "roll")
        .enumerate()
        .map(|(i, e)| RecordedRoll {
            number: i as u64,
            nonce: e.nonce.clone().unwrap_or_default(),
            dice: crate::service::parse_dice(&e.payload)
                .map(|d| [d.first.value(), d.second.value()])
                .unwrap_or([0, 0]),
        })
        .collect();
    Ok(DiceRecord {
        commitment: row.commitment.clone(),
        server_seed: (row.state == "finished").then(|| row.server_seed.clone()),
        client_seeds: row.client_seeds(),
        rolls,
    })
}

fn check_seed(seed: Option<String>) -> Result<Option<String>, ApiError> {
    match seed {
        Some(s) if s.chars().count() > 128 => Err(ApiError::bad_request(
            "a client seed is at most 128 characters",
        )),
        other => Ok(other),
    }
}

/// The request header that makes a create idempotent.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// The longest idempotency key, in characters.
pub const MAX_IDEMPOTENCY_KEY: usize = 64;

/// The create's idempotency key: absent, or 1 to [`MAX_IDEMPOTENCY_KEY`] visible ASCII
/// characters (400 `bad_request` otherwise).
fn idempotency_key(headers: &axum::http::HeaderMap) -> Result<Option<String>, ApiError> {
    let mut values = headers.get_all(IDEMPOTENCY_KEY).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let bytes = value.as_bytes();
    if values.next().is_some()
        || bytes.is_empty()
        || bytes.len() > MAX_IDEMPOTENCY_KEY
        || !bytes.iter().all(|b| (0x21..=0x7e).contains(b))
    {
        return Err(ApiError::bad_request(format!(
            "an Idempotency-Key is one header of 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters"
        )));
    }
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

/// Create a game. With an `Idempotency-Key` header, a create sent again with the same key
/// by the same player answers the game the first one made (200, the same id) and makes none.
#[utoipa::path(post, path = "/api/games", request_body = CreateGame,
    params(("Idempotency-Key" = Option<String>, Header,
        description = "1 to 64 visible ASCII characters: the same key from the same player answers the game its first create made"),
        ReplyQuery),
    responses((status = 200, body = GameView, description = "the game; a LeanView with ?reply=lean"), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    Auth(me): Auth,
    headers: axum::http::HeaderMap,
    Query(q): Query<ReplyQuery>,
    Json(req): Json<CreateGame>,
) -> Result<axum::response::Response, ApiError> {
    let key = idempotency_key(&headers)?;
    if let Some(key) = &key {
        if let Some(id) = state.db.game_of_key(&me.id, key).await? {
            return created_before(&state, &id, &me.id, q.reply).await;
        }
    }
    Table::new(&req.options)
        .map_err(|e| ApiError::new(axum::http::StatusCode::BAD_REQUEST, "bad_options", e))?;
    if let Some(clock) = &req.clock {
        clock
            .check()
            .map_err(|e| ApiError::new(axum::http::StatusCode::BAD_REQUEST, "bad_options", e))?;
    }
    let options = req.options.resolved();
    let client_seed = check_seed(req.client_seed)?;
    let color = req.color.unwrap_or(Color::White);
    let seed = ServerSeed::generate();
    let mut row = GameRow {
        id: auth::new_id(),
        game_type: options.game_id().as_str().to_string(),
        options: serde_json::to_string(&options).map_err(ApiError::internal)?,
        white_id: None,
        black_id: None,
        white_bot: None,
        black_bot: None,
        white_client_seed: None,
        black_client_seed: None,
        invite_code: None,
        listed: false,
        state: "waiting".into(),
        server_seed: seed.to_hex(),
        commitment: seed.commitment(),
        version: 0,
        created_ms: now_ms(),
        winner: None,
        points: None,
        plies: Some(0),
        rated: req.unrated.then_some(0),
        clock: req
            .clock
            .map(|c| serde_json::to_string(&c))
            .transpose()
            .map_err(ApiError::internal)?,
        rematch_offer: None,
        rematch_id: None,
    };
    let (mine, theirs) = match color {
        Color::White => (
            (&mut row.white_id, &mut row.white_client_seed),
            (&mut row.black_id, &mut row.black_bot),
        ),
        Color::Black => (
            (&mut row.black_id, &mut row.black_client_seed),
            (&mut row.white_id, &mut row.white_bot),
        ),
    };
    *mine.0 = Some(me.id.clone());
    *mine.1 = client_seed;
    match req.opponent {
        Opponent::Bot { level } => {
            let level: Level = level
                .parse()
                .map_err(|e: tabula_ai::UnknownLevel| ApiError::bad_request(e.to_string()))?;
            let bot_id = format!("bot-{level}");
            state
                .db
                .ensure_bot(&bot_id, &format!("Tabula {level}"))
                .await?;
            *theirs.0 = Some(bot_id);
            *theirs.1 = Some(level.to_string());
            row.state = "playing".into();
        }
        Opponent::Invite => row.invite_code = Some(auth::new_token()),
        Opponent::Open => {
            row.invite_code = Some(auth::new_token());
            row.listed = true;
        }
    }
    // The seated players, known here, so that nothing is read once the game is stored.
    let mut players = tabula_core::ByColor::new_with(|_| None);
    players[color] = Some(me.clone());
    if let (Some(id), Some(level)) = (row.seat(!color), row.bot(!color)) {
        players[!color] = Some(crate::store::PlayerRow {
            id: id.to_string(),
            name: format!("Tabula {level}"),
            username: None,
            password_hash: None,
            kind: "bot".into(),
        });
    }
    match &key {
        None => state.db.insert_game(&row).await?,
        Some(key) => match state.db.insert_game_with_key(&row, &me.id, key).await? {
            crate::store::Created::New => {}
            crate::store::Created::Earlier(id) => {
                return created_before(&state, &id, &me.id, q.reply).await;
            }
        },
    }
    state.hub.lobby_changed();
    let game = crate::service::new_game(row.clone(), players)?;
    state.committed(&row.id);
    reply(&state, &game, &me.id, q.reply).await
}

/// The answer to a create repeated with its idempotency key: the game the first made, as
/// it is now, seen by its creator.
async fn created_before(
    state: &AppState,
    id: &str,
    me: &str,
    kind: ReplyKind,
) -> Result<axum::response::Response, ApiError> {
    let game = state.load(id).await?;
    reply(state, &game, me, kind).await
}

/// Take the empty seat of a game (by invitation code, or from the lobby).
#[utoipa::path(post, path = "/api/games/{id}/join", request_body = JoinGame, params(ReplyQuery),
    responses((status = 200, body = GameView), (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn join(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Query(q): Query<ReplyQuery>,
    Json(req): Json<JoinGame>,
) -> Result<axum::response::Response, ApiError> {
    let client_seed = check_seed(req.client_seed)?;
    let game = state
        .change(&id, |g| {
            let row = &g.row;
            if row.state != "waiting" {
                return Err(ApiError::conflict(
                    "seat_taken",
                    "this game has no empty seat",
                ));
            }
            if row.white_id.as_deref() == Some(&me.id) || row.black_id.as_deref() == Some(&me.id) {
                return Err(ApiError::conflict(
                    "already_seated",
                    "you already sit at this game",
                ));
            }
            if !row.listed && req.invite_code.as_deref() != row.invite_code.as_deref() {
                return Err(ApiError::forbidden(
                    "bad_invite",
                    "this game needs its invitation code",
                ));
            }
            let color = if row.white_id.is_none() {
                Color::White
            } else {
                Color::Black
            };
            Ok(Change::Join {
                color,
                player: me.clone(),
                seed: client_seed.clone(),
            })
        })
        .await?;
    reply(&state, &game, &me.id, q.reply).await
}

/// A game's state, players and dice record.
#[utoipa::path(get, path = "/api/games/{id}", responses((status = 200, body = GameView), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get(
    State(state): State<AppState>,
    MaybeAuth(me): MaybeAuth,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    let game = state.load(&id).await?;
    let viewer = me.as_ref().map(|p| p.id.as_str());
    Ok(Json(game_view(&state, &game, viewer, true).await?))
}

/// Play an action (the deciding player only).
#[utoipa::path(post, path = "/api/games/{id}/actions", request_body = ActionRequest, params(ReplyQuery),
    responses((status = 200, body = GameView), (status = 403, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn act(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Query(q): Query<ReplyQuery>,
    Json(req): Json<ActionRequest>,
) -> Result<axum::response::Response, ApiError> {
    if req.action.len() > 200 {
        return Err(ApiError::bad_request("an action is at most 200 characters"));
    }
    let game = state
        .change(&id, |g| {
            let color = playing_seat(g, &me.id)?;
            check_time(g, color)?;
            check_version(g, req.version)?;
            match g.table.status() {
                Status::Decide { player, .. } if player == color => {
                    Ok(Change::Action(color, req.action.clone()))
                }
                Status::Decide { .. } => {
                    Err(ApiError::conflict("not_your_turn", "it is not your turn"))
                }
                Status::Chance(_) => Err(ApiError::conflict(
                    "roll_first",
                    "the dice must be rolled first",
                )),
                Status::Over(_) => Err(ApiError::conflict("game_over", "the game is over")),
            }
        })
        .await?;
    reply(&state, &game, &me.id, q.reply).await
}

/// A resignation or an abort.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EndRequest {
    /// If given, the request is refused (409 `stale_version`) unless the game is at it.
    #[serde(default)]
    pub version: Option<i64>,
}

fn check_version(g: &Loaded, version: Option<i64>) -> Result<(), ApiError> {
    match version {
        Some(v) if v != g.row.version => Err(ApiError::conflict(
            "stale_version",
            format!("the game is at version {}, not {v}", g.row.version),
        )),
        _ => Ok(()),
    }
}

/// Resign a Never-Finishing, Grasshopper or Halma game (either player, at any time while it
/// is played): it ends at once, lost as running out of time would lose it (a Never-Finishing
/// match as a whole; a money game at the level the position holds; Grasshopper and Halma 1
/// point), the reason `resigned`. Backgammon resigns through its own actions (`resign single`,
/// `gammon`, `backgammon`, which the opponent accepts or rejects): 409 `resign_by_action`.
#[utoipa::path(post, path = "/api/games/{id}/resign", request_body = EndRequest, params(ReplyQuery),
    responses((status = 200, body = GameView), (status = 403, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody)))]
pub async fn resign(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Query(q): Query<ReplyQuery>,
    Json(req): Json<EndRequest>,
) -> Result<axum::response::Response, ApiError> {
    let game = state
        .change(&id, |g| {
            let color = playing_seat(g, &me.id)?;
            check_version(g, req.version)?;
            if g.table.resigns_by_rules() {
                return Err(ApiError::conflict(
                    "resign_by_action",
                    "backgammon resigns through its own actions: resign single, resign gammon \
                     or resign backgammon, which the opponent accepts or rejects",
                ));
            }
            Ok(Change::Resign(color))
        })
        .await?;
    reply(&state, &game, &me.id, q.reply).await
}

/// Call off a game that is not rated before your first move (a practice game, a game with a
/// guest, or a game still waiting for its second player): it ends with no result (state
/// `aborted`, reason `aborted`) and leaves the lists. 409 `not_abortable` once you have
/// moved or when the game is rated.
#[utoipa::path(post, path = "/api/games/{id}/abort", request_body = EndRequest, params(ReplyQuery),
    responses((status = 200, body = GameView), (status = 403, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody)))]
pub async fn abort(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Query(q): Query<ReplyQuery>,
    Json(req): Json<EndRequest>,
) -> Result<axum::response::Response, ApiError> {
    let game = state
        .change(&id, |g| {
            let color = g.row.color_of(&me.id).ok_or_else(|| {
                ApiError::forbidden("not_a_player", "you do not play in this game")
            })?;
            if !matches!(g.row.state.as_str(), "waiting" | "playing") {
                return Err(ApiError::conflict("game_over", "the game is over"));
            }
            check_version(g, req.version)?;
            if g.acted[color] {
                return Err(ApiError::conflict(
                    "not_abortable",
                    "you have moved in this game: resign instead",
                ));
            }
            if g.rated() {
                return Err(ApiError::conflict(
                    "not_abortable",
                    "a rated game cannot be called off: resign instead",
                ));
            }
            Ok(Change::Abort(color))
        })
        .await?;
    reply(&state, &game, &me.id, q.reply).await
}

/// Refuses an action or roll of a player whose time has run out (the server ends the game at
/// once; this closes the window before it does).
fn check_time(g: &Loaded, color: Color) -> Result<(), ApiError> {
    if g.out_of_time(color, now_ms()) {
        return Err(ApiError::conflict("time_out", "your time has run out"));
    }
    Ok(())
}

fn playing_seat(g: &Loaded, player: &str) -> Result<Color, ApiError> {
    let color = g
        .row
        .color_of(player)
        .ok_or_else(|| ApiError::forbidden("not_a_player", "you do not play in this game"))?;
    match g.row.state.as_str() {
        "waiting" => Err(ApiError::conflict(
            "not_started",
            "the game waits for its second player",
        )),
        "finished" | "aborted" => Err(ApiError::conflict("game_over", "the game is over")),
        _ => Ok(color),
    }
}

/// Roll the dice with a fresh nonce (see docs/dice.md for who rolls when).
#[utoipa::path(post, path = "/api/games/{id}/roll", request_body = RollRequest, params(ReplyQuery),
    responses((status = 200, body = GameView), (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
pub async fn roll(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Query(q): Query<ReplyQuery>,
    Json(req): Json<RollRequest>,
) -> Result<axum::response::Response, ApiError> {
    let n = req.nonce.chars().count();
    if !(8..=128).contains(&n) || req.nonce.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "a nonce is 8 to 128 printable characters",
        ));
    }
    if req.nonce.starts_with(crate::referee::SERVER_NONCE_PREFIX) {
        return Err(ApiError::bad_request(
            "a nonce beginning with \"server:\" is the server's own (docs/dice.md)",
        ));
    }
    let game = state
        .change(&id, |g| {
            let color = playing_seat(g, &me.id)?;
            check_time(g, color)?;
            let allowed = match g.roller() {
                None => return Err(ApiError::conflict("no_roll_due", "no roll is due now")),
                Some(Roller::Seat(c)) => c == color,
                Some(Roller::Either) => true,
                Some(Roller::Server) => false,
            };
            if !allowed {
                return Err(ApiError::conflict(
                    "not_your_roll",
                    "the other player rolls now",
                ));
            }
            let dice = derive_roll(&g.row, g.rolls, &req.nonce)?;
            Ok(Change::Roll(Some(color), req.nonce.clone(), dice))
        })
        .await?;
    reply(&state, &game, &me.id, q.reply).await
}
