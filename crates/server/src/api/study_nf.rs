//! The analysis board for Never-Finishing: `POST /api/study/nf/evaluate` reads a position in
//! the tables notation (trapped checkers included, docs/notation.md) or `start`, and gives
//! the chances of the side to move at a chosen depth and, with dice, every play of the roll
//! ranked, each with its chances and the position it leaves; plays that trap a blot are
//! written with `^`. The game has no cube: everything is cubeless, a gammon counting two and a
//! backgammon three, on the shipped Never-Finishing net, as `tabula hint --game
//! never-finishing` gives it. Rollouts are `/api/study/rollout` with `game` set
//! ([`super::study_rollout`]).

use super::study::{parse_dice, CandidateView, ChancesView, MAX_PLIES};
use super::study_limits::StudyClient;
use crate::error::{ApiError, Json};
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::study::nply::{self, Filter};
use tabula_core::{Color, Dice};
use tabula_tables::never_finishing::start_position;
use tabula_tables::notation::{format_move_nf, TablesPosition};
use tabula_tables::{Position, TablesGen, Trapping};
use utoipa::ToSchema;

/// The most plays an evaluation lists.
const MAX_CANDIDATES: usize = 20;
/// The longest position text accepted.
const MAX_POSITION: usize = 200;

/// A Never-Finishing position to study.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NfEvaluateRequest {
    /// The tables notation (`15b/22/15w:0:0:0:0:w`) or `start`.
    pub position: String,
    /// The roll to rank the plays of (`6-5`); none: the chances only.
    #[serde(default)]
    pub dice: Option<String>,
    /// The search depth, 0 to 3 (default: the server's analysis depth).
    #[serde(default)]
    pub plies: Option<u32>,
}

/// A studied Never-Finishing position.
#[derive(Serialize, ToSchema)]
pub struct NfEvaluateView {
    /// The position as read, written back in the tables notation.
    pub position: String,
    /// `white` or `black`: the side to move.
    pub on_roll: &'static str,
    /// The board as White sees it, trapped checkers included, as the game view draws it.
    #[schema(value_type = Object)]
    pub board: Value,
    /// The roll ranked, if any.
    pub dice: Option<String>,
    /// The chances of the side to move before rolling, at `plies`.
    pub chances: ChancesView,
    pub plies: u32,
    /// With dice: the plays ranked (at most 20; none when the roll cannot be played; a trap
    /// written `^`, `after` in the tables notation), and
    /// how many there are.
    pub candidates: Option<Vec<CandidateView>>,
    pub total_plays: Option<usize>,
}

/// Never-Finishing's plays: the tables move generator with trapping.
pub(super) fn gen() -> (TablesGen, Trapping) {
    (TablesGen::new(), Trapping::On)
}

/// The position a request names; refused with the reason.
pub(super) fn nf_position(text: &str) -> Result<TablesPosition, ApiError> {
    let text = text.trim();
    if text.len() > MAX_POSITION {
        return Err(ApiError::bad_request(format!(
            "a position is at most {MAX_POSITION} characters"
        )));
    }
    let pos = if text.eq_ignore_ascii_case("start") {
        TablesPosition::new(start_position(), Color::White)
    } else {
        text.parse::<TablesPosition>().map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_position",
                format!("bad position {text:?}: {e}"),
            )
        })?
    };
    if pos.position.bore_off_end(true).is_some() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_position",
            "the game in this position is over: nothing to study",
        ));
    }
    Ok(pos)
}

/// The board of `pos` as White sees it.
pub(super) fn white_board(pos: &TablesPosition) -> Value {
    let white = match pos.to_move {
        Color::White => pos.position,
        Color::Black => pos.position.flip(),
    };
    crate::games::board_json(&white)
}

/// Evaluates a Never-Finishing position: the chances of the side to move, and with dice
/// every play ranked.
#[utoipa::path(post, path = "/api/study/nf/evaluate", request_body = NfEvaluateRequest,
    responses((status = 200, body = NfEvaluateView),
        (status = 400, description = "bad_position (with the reason), bad_request (bad dice, plies above 3)", body = crate::error::ErrorBody),
        (status = 429, description = "too_many: this client's last evaluation is still running", body = crate::error::ErrorBody),
        (status = 503, description = "busy", body = crate::error::ErrorBody)))]
pub async fn evaluate(
    State(state): State<AppState>,
    StudyClient(client): StudyClient,
    Json(req): Json<NfEvaluateRequest>,
) -> Result<Json<NfEvaluateView>, ApiError> {
    let pos = nf_position(&req.position)?;
    let dice: Option<Dice> = match req.dice.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(parse_dice(text)?),
    };
    let plies = req.plies.unwrap_or(state.analysis.plies);
    if plies > MAX_PLIES {
        return Err(ApiError::bad_request(format!(
            "plies is 0 to {MAX_PLIES}, not {plies}"
        )));
    }
    let _mine = super::study_limits::one_per_client(&state, "evaluation", &client)?;
    let _permit = super::permit(&state.hints, "evaluations").await?;
    let view = tokio::task::spawn_blocking(move || evaluate_now(&pos, dice, plies))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(view))
}

fn evaluate_now(pos: &TablesPosition, dice: Option<Dice>, plies: u32) -> NfEvaluateView {
    let nets = NfEvaluator::shipped();
    let chances = nply::chances(nets, &mut gen(), &pos.position, plies);
    let ranked = dice.map(|dice| {
        let candidates: Vec<Position> = gen()
            .0
            .positions(&pos.position, dice, Trapping::On)
            .to_vec();
        let ranked = nply::rank_plays(nets, gen, &candidates, plies, Filter::default(), |p| {
            p.equity()
        });
        let best = ranked.first().map(|r| r.chances.equity());
        let rows: Vec<CandidateView> = ranked
            .iter()
            .take(MAX_CANDIDATES)
            .enumerate()
            .map(|(i, r)| {
                let equity = r.chances.equity();
                CandidateView {
                    rank: i + 1,
                    play: format_move_nf(&pos.position, &r.after, dice).unwrap_or_default(),
                    equity,
                    diff: equity - best.unwrap_or(equity),
                    chances: (&r.chances).into(),
                    plies: r.plies,
                    blended: r.blended,
                    after: pos.after_move(r.after).to_string(),
                }
            })
            .collect();
        (rows, ranked.len())
    });
    let (candidates, total_plays) = match ranked {
        Some((rows, n)) => (Some(rows), Some(n)),
        None => (None, None),
    };
    NfEvaluateView {
        position: pos.to_string(),
        on_roll: super::study::color_name(pos.to_move),
        board: white_board(pos),
        dice: dice.map(|d| d.to_string()),
        chances: (&chances).into(),
        plies,
        candidates,
        total_plays,
    }
}
