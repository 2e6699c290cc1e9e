//! The analysis board's endpoints: study a backgammon position given as an XGID or a gnubg
//! ID (pasted, or built in the position editor), with no game behind it.
//!
//! - `POST /api/study/position`: the position read and written back: its board (to draw
//!   it), cube, score, dice and identifiers (XGID, Position ID, Match ID), or the reason it
//!   is refused. Cheap: the editor asks it at every change.
//! - `POST /api/study/evaluate`: the same, with the chances of the player on roll at a
//!   chosen depth (0 to [`MAX_PLIES`]) and the hint: every play of the roll ranked, with
//!   the chances after each and the position it leaves, when dice are set; else the cube
//!   decision.
//! - `POST /api/study/rollout` ([`super::study_rollout`]): rollouts of the position, of
//!   candidate plays or of the cube, streamed as they run, resumable.
//!
//! Anyone may ask (nothing is stored). Evaluations share the hint semaphore (two at once,
//! then 503 `busy`).

use super::analysis::HintView;
use super::study_limits::StudyClient;
use crate::error::{ApiError, Json};
use crate::games::board_json;
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::study::hint::Hint;
use tabula_ai::study::{hint, nply};
use tabula_core::{Color, Dice};
use tabula_tables::backgammon::{Backgammon, GameState};
use tabula_tables::notation::{session_from_notation, session_ids, PositionIds};
use tabula_tables::{MoveGen, Position};
use utoipa::ToSchema;

/// The longest position text accepted.
const MAX_POSITION: usize = 200;
/// The deepest search an evaluation may ask (3-ply: a few seconds on two cores).
pub const MAX_PLIES: u32 = 3;
/// The most candidate plays an evaluation lists.
const MAX_CANDIDATES: usize = 20;

/// A position to study.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    /// An XGID, a gnubg `PositionID:MatchID`, a bare Position ID, or `start`.
    pub position: String,
    /// The roll to play (`3-1`); when absent, the position's own dice, else the cube
    /// decision.
    #[serde(default)]
    pub dice: Option<String>,
    /// The search depth, 0 to 3 (default: the server's analysis depth).
    #[serde(default)]
    pub plies: Option<u32>,
}

/// A position to read back.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// As for an evaluation.
    pub position: String,
    /// As for an evaluation.
    #[serde(default)]
    pub dice: Option<String>,
}

/// The chances of the player on roll (the same object as the CLI's `--json`).
pub use tabula_ai::backgammon::ChancesReport as ChancesView;

/// The identifiers of a position.
#[derive(Serialize, ToSchema)]
pub struct IdsView {
    /// `XGID=...`.
    pub xgid: String,
    /// gnubg's Position ID.
    pub position_id: String,
    /// gnubg's Match ID.
    pub match_id: String,
    /// gnubg's `PositionID:MatchID`.
    pub gnubg: String,
}

impl From<PositionIds> for IdsView {
    fn from(ids: PositionIds) -> IdsView {
        IdsView {
            gnubg: ids.gnubg(),
            xgid: ids.xgid,
            position_id: ids.position_id,
            match_id: ids.match_id,
        }
    }
}

/// A position as read.
#[derive(Serialize, ToSchema)]
pub struct PositionView {
    /// `white` or `black`: the player on roll (White's home is at the bottom right).
    pub on_roll: &'static str,
    /// The board as White sees it, as the game view draws it.
    #[schema(value_type = Object)]
    pub board: Value,
    /// `{value, owner}` (`owner` null when centred); null in the Crawford game.
    #[schema(value_type = Option<Object>)]
    pub cube: Option<Value>,
    /// `{white, black}` points, and the match length (null: money).
    #[schema(value_type = Object)]
    pub score: Value,
    pub match_length: Option<u8>,
    /// The roll studied, if any.
    pub dice: Option<String>,
    /// The position's identifiers, the roll included.
    pub ids: IdsView,
}

/// A play of the roll, ranked.
#[derive(Serialize, ToSchema)]
pub struct CandidateView {
    /// Its rank, 1 for the best.
    pub rank: usize,
    /// The play in gnubg's notation.
    #[serde(rename = "move")]
    pub play: String,
    /// Its value in the hint's unit, and the difference to the best (0 or negative).
    pub equity: f32,
    pub diff: f32,
    /// The mover's cubeless chances after it.
    pub chances: ChancesView,
    /// The depth of those chances (0 where the move filter did not search deeper).
    pub plies: u32,
    /// Whether they are the mean of `plies` and `plies - 1`: a close play of the 2-ply
    /// evaluation valued again as the strong bot values it.
    pub blended: bool,
    /// The position it leaves, the opponent to roll (an XGID; Never-Finishing: the tables
    /// notation): what a rollout of the play rolls out, from the other side.
    pub after: String,
}

/// A studied position.
#[derive(Serialize, ToSchema)]
pub struct EvaluateView {
    #[serde(flatten)]
    pub position: PositionView,
    /// The chances of the player on roll before rolling, at `plies`.
    pub chances: ChancesView,
    pub plies: u32,
    /// The best five plays (dice set) or the cube decision (none when the player on roll
    /// cannot double).
    pub hint: Option<HintView>,
    /// Dice set: every play of the roll ranked (at most 20), with its chances.
    pub candidates: Option<Vec<CandidateView>>,
}

pub(super) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A roll as a request writes it (`3-1`), or 400 `bad_request` naming it.
pub(super) fn parse_dice(text: &str) -> Result<Dice, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad_request(format!("bad dice {text:?}: {e}")))
}

/// The session a request names, with `dice` set when given.
pub(super) fn setup(position: &str, dice: Option<&str>) -> Result<Backgammon, ApiError> {
    if position.len() > MAX_POSITION {
        return Err(ApiError::bad_request(format!(
            "a position is at most {MAX_POSITION} characters"
        )));
    }
    let session = session_from_notation(position)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_position", e.to_string()))?;
    let Some(text) = dice else {
        return Ok(session);
    };
    let dice = parse_dice(text)?;
    let game = session.game();
    let with_dice = GameState::from_setup(
        *session.options(),
        game.board(),
        game.turn(),
        game.cube(),
        game.cube_in_play(),
        Some(dice),
    );
    Backgammon::from_game(
        *session.options(),
        with_dice,
        session.score(),
        session.crawford_played(),
    )
    .map_err(ApiError::internal)
}

/// Reads a position and writes it back: its board, cube, score, dice and identifiers.
#[utoipa::path(post, path = "/api/study/position", request_body = PositionRequest,
    responses((status = 200, body = PositionView),
        (status = 400, description = "bad_position (with the reason), bad_request (bad dice)", body = crate::error::ErrorBody)))]
pub async fn position(Json(req): Json<PositionRequest>) -> Result<Json<PositionView>, ApiError> {
    let session = setup(&req.position, req.dice.as_deref())?;
    Ok(Json(position_view(&session)))
}

/// Evaluates a position: its board, the chances of the player on roll, and the hint.
#[utoipa::path(post, path = "/api/study/evaluate", request_body = EvaluateRequest,
    responses((status = 200, body = EvaluateView),
        (status = 400, description = "bad_position (with the reason), bad_request (bad dice, plies above 3)", body = crate::error::ErrorBody),
        (status = 429, description = "too_many: this client's last evaluation is still running", body = crate::error::ErrorBody),
        (status = 503, description = "busy", body = crate::error::ErrorBody)))]
pub async fn evaluate(
    State(state): State<AppState>,
    StudyClient(client): StudyClient,
    Json(req): Json<EvaluateRequest>,
) -> Result<Json<EvaluateView>, ApiError> {
    let session = setup(&req.position, req.dice.as_deref())?;
    let plies = req.plies.unwrap_or(state.analysis.plies);
    if plies > MAX_PLIES {
        return Err(ApiError::bad_request(format!(
            "plies is 0 to {MAX_PLIES}, not {plies}"
        )));
    }
    let _mine = super::study_limits::one_per_client(&state, "evaluation", &client)?;
    let _permit = super::permit(&state.hints, "evaluations").await?;
    let view = tokio::task::spawn_blocking(move || evaluate_now(&session, plies))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(view))
}

/// The view of a session's position, without evaluating it.
pub(super) fn position_view(session: &Backgammon) -> PositionView {
    let game = session.game();
    let on_roll = game.turn();
    let board = game.board();
    let white = match on_roll {
        Color::White => board,
        Color::Black => board.flip(),
    };
    let cube = game.cube();
    PositionView {
        on_roll: color_name(on_roll),
        board: board_json(&white),
        cube: game
            .cube_in_play()
            .then(|| json!({"value": cube.value(), "owner": cube.owner().map(color_name)})),
        score: json!({"white": session.score().white, "black": session.score().black}),
        match_length: session.options().match_length(),
        dice: game.dice().map(|d| d.to_string()),
        ids: session_ids(session).into(),
    }
}

/// The XGID of the position `after` a play of `session`'s player on roll, the opponent to
/// roll.
fn after_xgid(session: &Backgammon, after: &Position) -> Result<String, ApiError> {
    Ok(session_ids(&after_session(session, after)?).xgid)
}

/// The session after a play of `session`'s player on roll to `after` (seen from the mover),
/// the opponent to roll.
pub(super) fn after_session(
    session: &Backgammon,
    after: &Position,
) -> Result<Backgammon, ApiError> {
    let game = session.game();
    let next = GameState::from_setup(
        *session.options(),
        after.flip(),
        !game.turn(),
        game.cube(),
        game.cube_in_play(),
        None,
    );
    Backgammon::from_game(
        *session.options(),
        next,
        session.score(),
        session.crawford_played(),
    )
    .map_err(ApiError::internal)
}

fn evaluate_now(session: &Backgammon, plies: u32) -> EvaluateView {
    let nets = NeuralEvaluator::shipped();
    let board = session.game().board();
    let chances = nply::chances(nets, &mut MoveGen::new(), &board, plies);
    let found = hint::hint(nets, session, plies);
    let candidates = match &found {
        Some(Hint::Plays { plays, .. }) => Some(
            plays
                .iter()
                .take(MAX_CANDIDATES)
                .map(|p| CandidateView {
                    rank: p.rank,
                    play: p.play.clone(),
                    equity: p.equity,
                    diff: p.diff,
                    chances: p.chances,
                    plies: p.plies,
                    blended: p.blended,
                    after: after_xgid(session, &p.after).unwrap_or_default(),
                })
                .collect(),
        ),
        _ => None,
    };
    EvaluateView {
        position: position_view(session),
        chances: (&chances).into(),
        plies,
        hint: found.map(|h| HintView::new(h, plies)),
        candidates,
    }
}
