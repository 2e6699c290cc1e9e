//! The trainer's endpoints ([`crate::trainer`]; docs/protocol.md, "Trainer"):
//!
//! - `GET /api/trainer`: the caller's analysed games read into exercises, the score, and the
//!   exercise due first (the position, the dice, the choices), or when the next comes back.
//! - `POST /api/trainer/{id}/answer`: a choice graded against the position ranked afresh:
//!   right or not, the best choice, what the choice gives up, the ranked alternatives with
//!   their chances, and when the exercise comes back.
//!
//! Both need a session (a guest's or a user's) and see only the caller's exercises. An answer
//! is an evaluation at the server's analysis depth: it shares the hint semaphore and the
//! caller's one study request at a time ([`super::study_limits`]).

use super::analysis::{unit_name, HintView};
use super::study::{position_view, setup, PositionView};
use crate::auth::Auth;
use crate::error::{ApiError, Json};
use crate::store::now_ms;
use crate::store::trainer::{ExerciseRow, Score};
use crate::trainer::{after_answer, stage, sync};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::study::hint::{self, Hint, HintPlay};
use tabula_core::{Color, Game};
use tabula_games::Face;
use tabula_tables::backgammon::{Action, Backgammon};
use utoipa::ToSchema;

/// An exercise to answer.
#[derive(Serialize, ToSchema)]
pub struct ExerciseView {
    /// `GAME-VERSION`: the game and the version its decision made.
    pub id: String,
    /// `move` (choose a play of the dice), `double` (double or not) or `take` (take or
    /// pass the double on offer).
    pub kind: &'static str,
    /// The game it comes from, and the version of the decision there.
    pub game_id: String,
    pub version: i64,
    /// `white` or `black`: the colour the player had, who decides.
    pub colour: &'static str,
    /// The position before the decision (a double on offer is shown with the doubler on
    /// roll, `kind` `take`).
    pub position: PositionView,
    /// What may be answered: every legal play (`move`), `double` and `no-double`, or `take`
    /// and `pass`.
    pub choices: Vec<String>,
    /// Answers so far and right ones; `stage`: 0 new, 1 last answered wrong, 2 right once
    /// since (to be confirmed).
    pub answers: i64,
    pub rights: i64,
    pub stage: i64,
}

/// The trainer of the caller.
#[derive(Serialize, ToSchema)]
pub struct TrainerView {
    /// The counts.
    pub score: Score,
    /// Exercises made by this request from analysed games not read before.
    pub made: usize,
    /// The exercise due first, if any.
    pub exercise: Option<ExerciseView>,
    /// When none is due: when the next one comes back (Unix ms), if one does.
    pub next_due_ms: Option<i64>,
}

/// A choice.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    /// A play of the dice in gnubg's notation (`13/9 4/3`), or `double`, `no-double`,
    /// `take`, `pass`.
    pub choice: String,
}

/// A graded answer.
#[derive(Serialize, ToSchema)]
pub struct AnswerView {
    /// The choice was the best one (a play no other play of the roll beats).
    pub right: bool,
    /// The choice as read (a play in canonical notation).
    pub choice: String,
    /// The best choice: the best play, or the proper cube action for this decision
    /// (`double`, `no-double`, `take`, `pass`).
    pub best: String,
    /// What the choice gives up against the best, in `unit` (0 when right).
    pub lost: f32,
    /// `money` (equity) or `mwc` (match-winning chance).
    pub unit: &'static str,
    /// The position ranked: the best five plays with their chances, or the cube decision.
    pub hint: HintView,
    /// A play outside the best five: its rank, value and chances.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub chosen: Option<HintPlay>,
    /// What the player did in the game, and what it gave up there (EMG, by the game's
    /// analysis).
    pub played: String,
    pub game_error: f64,
    /// The exercise now: its stage (3: learned) and when it comes back (Unix ms).
    pub stage: i64,
    pub due_ms: i64,
    /// The caller's counts after the answer.
    pub score: Score,
}

/// The exercise's game and version from its id.
fn parse_id(id: &str) -> Option<(&str, i64)> {
    let (game, version) = id.rsplit_once('-')?;
    Some((game, version.parse().ok()?))
}

/// The session of an exercise, and the colour deciding.
fn session_of(row: &ExerciseRow) -> Result<(Backgammon, Color), ApiError> {
    let session = setup(&row.position, None)?;
    let on_roll = session.game().turn();
    // A double on offer is set up with the doubler to roll: the taker is the other side.
    let decider = if row.kind == "take" {
        !on_roll
    } else {
        on_roll
    };
    Ok((session, decider))
}

fn exercise_view(row: &ExerciseRow) -> Result<ExerciseView, ApiError> {
    let (session, decider) = session_of(row)?;
    let choices = match row.kind.as_str() {
        "move" => Face::legal(&session)
            .into_iter()
            .map(|(text, _)| text)
            .collect(),
        "double" => vec!["double".into(), "no-double".into()],
        _ => vec!["take".into(), "pass".into()],
    };
    Ok(ExerciseView {
        id: format!("{}-{}", row.game_id, row.version),
        kind: match row.kind.as_str() {
            "move" => "move",
            "double" => "double",
            _ => "take",
        },
        game_id: row.game_id.clone(),
        version: row.version,
        colour: super::study::color_name(decider),
        position: position_view(&session),
        choices,
        answers: row.answers,
        rights: row.rights,
        stage: row.stage,
    })
}

/// The caller's trainer: their analysed games read into exercises, the score, and the
/// exercise due first.
#[utoipa::path(get, path = "/api/trainer",
    responses((status = 200, body = TrainerView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn trainer(
    State(state): State<AppState>,
    Auth(me): Auth,
) -> Result<Json<TrainerView>, ApiError> {
    let now = now_ms();
    let made = sync(&state, &me.id, now).await?;
    let score = state.db.trainer_score(&me.id, now).await?;
    let exercise = match state.db.next_exercise(&me.id, now).await? {
        Some(row) => Some(exercise_view(&row)?),
        None => None,
    };
    let next_due_ms = match exercise {
        Some(_) => None,
        None => state.db.next_due_ms(&me.id, now).await?,
    };
    Ok(Json(TrainerView {
        score,
        made,
        exercise,
        next_due_ms,
    }))
}

/// How a choice fares: right or not, the best choice, what it gives up, the chosen play.
struct Graded {
    right: bool,
    choice: String,
    best: String,
    lost: f32,
    chosen: Option<HintPlay>,
}

/// Grades `choice` for the decision of `row` against `found`, the position ranked.
fn grade(
    row: &ExerciseRow,
    session: &Backgammon,
    choice: &str,
    found: &Hint,
) -> Result<Graded, ApiError> {
    let wanted = choice.trim().to_ascii_lowercase();
    match found {
        Hint::Plays { plays, .. } => {
            let refuse = || {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "bad_choice",
                    format!("{choice:?} is not a legal play of {}", dice_text(session)),
                )
            };
            let Ok(Action::Move(after)) = session.parse(choice.trim()) else {
                return Err(refuse());
            };
            if !session.legal_actions().contains(&Action::Move(after)) {
                return Err(refuse());
            }
            let mine = plays.iter().find(|p| p.after == after).ok_or_else(refuse)?;
            let best = plays.first().ok_or_else(refuse)?;
            Ok(Graded {
                right: mine.diff >= -1e-6,
                choice: mine.play.clone(),
                best: best.play.clone(),
                lost: -mine.diff.min(0.0),
                chosen: (mine.rank > 5).then(|| mine.clone()),
            })
        }
        Hint::Cube { analysis: a, .. } => {
            let (options, best) = if row.kind == "double" {
                (
                    ["double", "no-double"],
                    if a.double { "double" } else { "no-double" },
                )
            } else {
                (["take", "pass"], if a.take { "take" } else { "pass" })
            };
            let Some(&picked) = options.iter().find(|o| **o == wanted) else {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "bad_choice",
                    format!(
                        "the choice is {} or {}, not {choice:?}",
                        options[0], options[1]
                    ),
                ));
            };
            // The doubler's value of each way the decision can go.
            let doubled = a.double_take.min(a.double_drop);
            let value = |o: &str| match o {
                "double" => doubled,
                "no-double" => a.no_double,
                "take" => -a.double_take,
                _ => -a.double_drop,
            };
            Ok(Graded {
                right: picked == best,
                choice: picked.to_string(),
                best: best.to_string(),
                lost: (value(best) - value(picked)).max(0.0),
                chosen: None,
            })
        }
    }
}

fn dice_text(session: &Backgammon) -> String {
    session
        .game()
        .dice()
        .map_or_else(|| "the roll".to_string(), |d| d.to_string())
}

/// Grades an answer to one of the caller's exercises that is due, and schedules it.
#[utoipa::path(post, path = "/api/trainer/{id}/answer", request_body = AnswerRequest,
    params(("id" = String, Path, description = "the exercise: GAME-VERSION")),
    responses((status = 200, body = AnswerView),
        (status = 400, description = "bad_choice: not a legal play, or not one of the two cube choices", body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody),
        (status = 404, description = "not_found: no such exercise of the caller", body = crate::error::ErrorBody),
        (status = 409, description = "learned (not asked again), not_due (comes back later), answered (another answer came first)", body = crate::error::ErrorBody),
        (status = 429, description = "too_many: the caller's study request is still running", body = crate::error::ErrorBody),
        (status = 503, description = "busy", body = crate::error::ErrorBody)))]
pub async fn answer(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<String>,
    Json(req): Json<AnswerRequest>,
) -> Result<Json<AnswerView>, ApiError> {
    let (game, version) = parse_id(&id).ok_or_else(|| ApiError::not_found("exercise"))?;
    let row = state
        .db
        .exercise(&me.id, game, version)
        .await?
        .ok_or_else(|| ApiError::not_found("exercise"))?;
    let now = now_ms();
    if row.stage >= stage::LEARNED {
        return Err(ApiError::conflict(
            "learned",
            "this exercise is learned: it is not asked again",
        ));
    }
    if row.due_ms > now {
        let minutes = (row.due_ms - now + 59_999) / 60_000;
        return Err(ApiError::conflict(
            "not_due",
            format!(
                "this exercise comes back in {minutes} minute{}",
                if minutes == 1 { "" } else { "s" }
            ),
        ));
    }
    if req.choice.len() > 100 {
        return Err(ApiError::bad_request("a choice is at most 100 characters"));
    }
    let (session, _) = session_of(&row)?;
    let plies = state.analysis.plies;
    let _mine =
        super::study_limits::one_per_client(&state, "evaluation", &format!("player:{}", me.id))?;
    let _permit = super::permit(&state.hints, "evaluations").await?;
    let found = {
        let session = session.clone();
        tokio::task::spawn_blocking(move || hint::hint(NeuralEvaluator::shipped(), &session, plies))
            .await
            .map_err(ApiError::internal)?
    }
    .ok_or_else(|| ApiError::internal("the exercise's position asks no decision"))?;
    let graded = grade(&row, &session, &req.choice, &found)?;
    let unit = match &found {
        Hint::Plays { unit, .. } => unit_name(*unit),
        Hint::Cube { analysis, .. } => unit_name(analysis.unit),
    };
    let (next_stage, due_ms) =
        after_answer(row.stage, graded.right, now, state.analysis.trainer_again);
    if !state
        .db
        .record_answer(&row, next_stage, due_ms, graded.right, now)
        .await?
    {
        return Err(ApiError::conflict(
            "answered",
            "another answer to this exercise came first",
        ));
    }
    let score = state.db.trainer_score(&me.id, now).await?;
    Ok(Json(AnswerView {
        right: graded.right,
        choice: graded.choice,
        best: graded.best,
        lost: graded.lost,
        unit,
        hint: HintView::new(found, plies),
        chosen: graded.chosen,
        played: row.played.clone(),
        game_error: row.error,
        stage: next_stage,
        due_ms,
        score,
    }))
}

#[cfg(test)]
mod tests {
    use super::parse_id;

    #[test]
    fn exercise_ids_name_a_game_and_a_version() {
        assert_eq!(parse_id("ab12-7"), Some(("ab12", 7)));
        assert_eq!(parse_id("ab12"), None);
        assert_eq!(parse_id("ab12-x"), None);
    }
}
