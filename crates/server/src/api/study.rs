//! The analysis board's endpoints: study a backgammon position pasted as an XGID or a gnubg
//! ID, with no game behind it.
//!
//! - `POST /api/study/evaluate`: the board (to draw it), the chances of the player on roll
//!   at the server's analysis depth, and the hint: the ranked plays when dice are set, else
//!   the cube decision.
//! - `POST /api/study/rollout`: a cubeless rollout, its progress streamed as it runs (one
//!   JSON object a line, `application/x-ndjson`), the result last.
//!
//! Anyone may ask (nothing is stored). The work is bounded: evaluations share the hint
//! semaphore (two at once, then 503 `busy`), rollouts run one at a time per instance on
//! `TABULA_ANALYSIS_THREADS` threads (at least one) with at most [`MAX_TRIALS`] trials, and a
//! rollout whose reader has gone is given up within a trial.

use super::analysis::{unit_name, HintView};
use crate::error::{ApiError, Json};
use crate::games::board_json;
use crate::AppState;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use tabula_ai::backgammon::cube::CubeState;
use tabula_ai::backgammon::NeuralEvaluator;
use tabula_ai::study::cube::CubeAnalysis;
use tabula_ai::study::{hint, nply, rollout};
use tabula_core::{Color, Dice};
use tabula_tables::backgammon::{Backgammon, GameState};
use tabula_tables::notation::session_from_notation;
use tabula_tables::MoveGen;
use utoipa::ToSchema;

/// The most trials a rollout asked of the server may have.
pub const MAX_TRIALS: u32 = 1296;
/// The longest position text accepted.
const MAX_POSITION: usize = 200;

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
}

/// A rollout to run.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RolloutRequest {
    /// As for an evaluation; the player on roll is to roll (dice in the position are
    /// ignored).
    pub position: String,
    /// Games to play out, 1 to 1296 (default 324: every first roll nine times).
    #[serde(default)]
    pub trials: Option<u32>,
    /// Stop each game after this many plays and take the nets' judgement (default: play to
    /// the end).
    #[serde(default)]
    pub truncate: Option<u32>,
    /// The seed of the dice (default 1).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The chances of the player on roll (the same object as the CLI's `--json`).
pub use tabula_ai::backgammon::ChancesReport as ChancesView;

/// A studied position.
#[derive(Serialize, ToSchema)]
pub struct EvaluateView {
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
    /// The chances of the player on roll before rolling, at `plies`.
    pub chances: ChancesView,
    pub plies: u32,
    /// The ranked plays (dice set) or the cube decision (none when the player on roll
    /// cannot double).
    pub hint: Option<HintView>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The session a request names, with `dice` set when given.
fn setup(position: &str, dice: Option<&str>) -> Result<Backgammon, ApiError> {
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
    let dice: Dice = text
        .parse()
        .map_err(|e| ApiError::bad_request(format!("bad dice {text:?}: {e}")))?;
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

/// Evaluates a pasted position: its board, the chances of the player on roll, and the hint.
#[utoipa::path(post, path = "/api/study/evaluate", request_body = EvaluateRequest,
    responses((status = 200, body = EvaluateView),
        (status = 400, description = "bad_position (with the reason), bad_request (bad dice)", body = crate::error::ErrorBody),
        (status = 503, description = "busy", body = crate::error::ErrorBody)))]
pub async fn evaluate(
    State(state): State<AppState>,
    Json(req): Json<EvaluateRequest>,
) -> Result<Json<EvaluateView>, ApiError> {
    let session = setup(&req.position, req.dice.as_deref())?;
    let _permit = super::permit(&state.hints, "evaluations").await?;
    let plies = state.analysis.plies;
    let view = tokio::task::spawn_blocking(move || evaluate_now(&session, plies))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(view))
}

fn evaluate_now(session: &Backgammon, plies: u32) -> EvaluateView {
    let nets = NeuralEvaluator::shipped();
    let game = session.game();
    let on_roll = game.turn();
    let board = game.board();
    let chances = nply::chances(nets, &mut MoveGen::new(), &board, plies);
    let found = hint::hint(nets, session, plies);
    let white = match on_roll {
        Color::White => board,
        Color::Black => board.flip(),
    };
    let cube = game.cube();
    EvaluateView {
        on_roll: color_name(on_roll),
        board: board_json(&white),
        cube: game
            .cube_in_play()
            .then(|| json!({"value": cube.value(), "owner": cube.owner().map(color_name)})),
        score: json!({"white": session.score().white, "black": session.score().black}),
        match_length: session.options().match_length(),
        dice: game.dice().map(|d| d.to_string()),
        chances: (&chances).into(),
        plies,
        hint: found.map(|h| HintView::new(h, plies)),
    }
}

/// Rolls a pasted position out, streaming its progress: lines of
/// `{"progress": done, "trials": n}` and last `{"result": {...}}` (or `{"error": ...}`).
#[utoipa::path(post, path = "/api/study/rollout", request_body = RolloutRequest,
    responses((status = 200, description = "application/x-ndjson: progress lines, then the result: trials, seed, truncate, seconds, chances, std_err (of the five chances), equity, equity_std_err, equity_ci95, and the cube decision from the rolled-out chances when the player on roll may double", content_type = "application/x-ndjson"),
        (status = 400, description = "bad_position, bad_request (trials, truncate)", body = crate::error::ErrorBody),
        (status = 503, description = "busy: another rollout is running on this instance", body = crate::error::ErrorBody)))]
pub async fn rollout(
    State(state): State<AppState>,
    Json(req): Json<RolloutRequest>,
) -> Result<Response, ApiError> {
    let session = setup(&req.position, None)?;
    let trials = req.trials.unwrap_or(324);
    if !(1..=MAX_TRIALS).contains(&trials) {
        return Err(ApiError::bad_request(format!(
            "trials must be 1 to {MAX_TRIALS}"
        )));
    }
    if req.truncate.is_some_and(|t| t > 1000) {
        return Err(ApiError::bad_request("truncate is at most 1000 plays"));
    }
    let config = rollout::RolloutConfig {
        trials,
        truncate: req.truncate,
        seed: req.seed.unwrap_or(1),
        variance_reduction: true,
    };
    let permit = state.rollouts.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "another rollout is running on this server; try again when it ends",
        )
        .retry_after(5)
    })?;
    let threads = state.analysis.threads.max(1);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        run_rollout(&session, &config, threads, &tx);
    });
    let stream = futures_util::stream::poll_fn(move |cx| {
        rx.poll_recv(cx)
            .map(|line| line.map(|l| Ok::<_, std::convert::Infallible>(Bytes::from(l + "\n"))))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}

fn run_rollout(
    session: &Backgammon,
    config: &rollout::RolloutConfig,
    threads: usize,
    tx: &tokio::sync::mpsc::UnboundedSender<String>,
) {
    let cancel = AtomicBool::new(false);
    let done = AtomicU32::new(0);
    let step = (config.trials / 50).max(1);
    let send = |v: Value| {
        if tx.send(v.to_string()).is_err() {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => return send(json!({"error": e.to_string()})),
    };
    let nets = NeuralEvaluator::shipped();
    let board = session.game().board();
    let start = std::time::Instant::now();
    let result = pool.install(|| {
        rollout::rollout_until(
            nets,
            MoveGen::new,
            NeuralEvaluator::exact,
            &board,
            config,
            || {
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(step) || n == config.trials {
                    send(json!({"progress": n, "trials": config.trials}));
                }
            },
            &cancel,
        )
    });
    let Some(r) = result else { return };
    let player = session.game().turn();
    let cube = session
        .game()
        .cube()
        .may_double(player)
        .then(|| session.game().cube_in_play())
        .filter(|&in_play| in_play)
        .map(|_| CubeAnalysis::new(&r.chances, &CubeState::of(session, player)));
    let ci = r.equity_ci95();
    send(json!({"result": {
        "trials": r.trials,
        "seed": config.seed,
        "truncate": config.truncate,
        "seconds": start.elapsed().as_secs_f64(),
        "chances": ChancesView::from(&r.chances),
        "std_err": r.std_err,
        "equity": r.equity,
        "equity_std_err": r.equity_std_err,
        "equity_ci95": [r.equity - ci, r.equity + ci],
        "cube": cube.map(|a| json!({
            "unit": unit_name(a.unit),
            "no_double": a.no_double,
            "double_take": a.double_take,
            "double_drop": a.double_drop,
            "proper": a.verdict(),
        })),
    }}));
}
