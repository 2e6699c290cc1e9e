//! Grasshopper positions evaluated: `POST /api/study/grasshopper` reads a position in
//! Grasshopper's notation (docs/notation.md, "Grasshopper") and answers its value for the side
//! to move and the best move:
//!
//! - **exact** where the cached endgame table holds the position (both sides down to the
//!   table's `k` checkers, `tabula solve grasshopper --tables K`): win, draw or loss with best
//!   play, and every move's exact value, the best move one that keeps the value;
//! - else the `strong` bot's search (its node budget, the table at its leaves): a proven win
//!   or loss where the search saw it to the end, otherwise its score in checkers, and its
//!   move.
//!
//! The analysis board's Grasshopper tab and the replays of Grasshopper games ask it. Anyone
//! may; nothing is stored; it shares the evaluations' bounds (the hint semaphore, one at a
//! time per client).

use super::study_limits::StudyClient;
use crate::error::{ApiError, Json};
use crate::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_ai::grasshopper::{tables, Limits, Searcher, STRONG_NODES, WIN_BOUND};
use tabula_games::Face;
use tabula_grasshopper::endgame::EndgameTable;
use tabula_grasshopper::notation::parse_position;
use tabula_grasshopper::solver::Value as Exact;
use tabula_grasshopper::{Action, Grasshopper, Position};
use utoipa::ToSchema;

/// The longest position text accepted.
const MAX_POSITION: usize = 200;

/// A Grasshopper position to evaluate.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GrasshopperRequest {
    /// Grasshopper's position text (`a4.b2... w 0-0 0-0 - 4`, docs/notation.md).
    pub position: String,
}

/// A move and its exact value for the side to move.
#[derive(Serialize, ToSchema)]
pub struct ExactMove {
    #[serde(rename = "move")]
    pub action: String,
    /// `win`, `draw` or `loss` for the side to move after playing it, with best play.
    pub value: &'static str,
}

/// The value of a Grasshopper position.
#[derive(Serialize, ToSchema)]
pub struct GrasshopperView {
    /// The position as read, written back.
    pub position: String,
    /// `white` or `black`: the side to move.
    pub to_move: &'static str,
    /// The position as the game view draws it.
    #[schema(value_type = Object)]
    pub view: Value,
    /// `win`, `draw` or `loss` for the side to move with best play, where it is known
    /// (`source` says how); null when only the search's score is known.
    pub value: Option<&'static str>,
    /// `endgame table`, `search` (a win or loss the search proved), `game over`, or
    /// `estimate` (the search's score only).
    pub source: &'static str,
    /// The best move (none when the game is over).
    pub best: Option<String>,
    /// The search's score for the side to move, in checkers (a proven result: null).
    pub score: Option<f64>,
    /// The search's depth and positions searched (0 when the table answered).
    pub depth: u32,
    pub nodes: u64,
    /// Where the table holds the position: every move with its exact value, best first.
    pub moves: Vec<ExactMove>,
    /// The largest endgame table loaded (`k`), if any.
    pub table_k: Option<u8>,
}

fn word(v: Exact) -> &'static str {
    match v {
        Exact::Win => "win",
        Exact::Draw => "draw",
        Exact::Loss => "loss",
    }
}

/// The value for the mover of a move leading to a position worth `v` to the opponent.
fn for_mover(v: Exact) -> Exact {
    match v {
        Exact::Win => Exact::Loss,
        Exact::Loss => Exact::Win,
        Exact::Draw => Exact::Draw,
    }
}

fn rank(v: Exact) -> u8 {
    match v {
        Exact::Win => 2,
        Exact::Draw => 1,
        Exact::Loss => 0,
    }
}

/// Evaluates a Grasshopper position: its exact value where the endgame table holds it, else
/// the strong search's verdict, and the best move.
#[utoipa::path(post, path = "/api/study/grasshopper", request_body = GrasshopperRequest,
    responses((status = 200, body = GrasshopperView),
        (status = 400, description = "bad_position (with the reason)", body = crate::error::ErrorBody),
        (status = 429, description = "too_many: this client's last evaluation is still running", body = crate::error::ErrorBody),
        (status = 503, description = "busy", body = crate::error::ErrorBody)))]
pub async fn evaluate(
    State(state): State<AppState>,
    StudyClient(client): StudyClient,
    Json(req): Json<GrasshopperRequest>,
) -> Result<Json<GrasshopperView>, ApiError> {
    let text = req.position.trim();
    if text.len() > MAX_POSITION {
        return Err(ApiError::bad_request(format!(
            "a position is at most {MAX_POSITION} characters"
        )));
    }
    let pos = parse_position(text).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_position",
            format!("bad position {text:?}: {e}"),
        )
    })?;
    let _mine = super::study_limits::one_per_client(&state, "evaluation", &client)?;
    let _permit = super::permit(&state.hints, "evaluations").await?;
    let view = tokio::task::spawn_blocking(move || evaluate_now(&pos, tables::shared()))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(view))
}

/// The view of `pos` with `table` (if any).
pub fn evaluate_now(
    pos: &Position,
    table: Option<std::sync::Arc<EndgameTable>>,
) -> GrasshopperView {
    let game = Grasshopper::from_position(*pos);
    let mut out = GrasshopperView {
        position: tabula_grasshopper::notation::format_position(pos),
        to_move: super::study::color_name(pos.turn()),
        view: Face::view(&game),
        value: None,
        source: "estimate",
        best: None,
        score: None,
        depth: 0,
        nodes: 0,
        moves: Vec::new(),
        table_k: table.as_ref().map(|t| t.k()),
    };
    let actions: Vec<Action> = pos.legal_actions().to_vec();
    if pos.is_over() || actions.is_empty() {
        out.source = "game over";
        out.value = table.as_ref().and_then(|t| t.value(pos)).map(word);
        return out;
    }
    // Exact, from the table: every move's value, the best first (the table's order kept
    // among equals).
    if let Some(t) = &table {
        if let Some(v) = t.value(pos) {
            let mut moves: Vec<(Action, Exact)> = actions
                .iter()
                .filter_map(|&a| {
                    let child = pos.play(a).ok()?;
                    Some((a, for_mover(t.value(&child)?)))
                })
                .collect();
            if moves.len() == actions.len() {
                moves.sort_by_key(|&(_, v)| std::cmp::Reverse(rank(v)));
                out.value = Some(word(v));
                out.source = "endgame table";
                out.best = moves.first().map(|(a, _)| a.to_string());
                out.moves = moves
                    .iter()
                    .map(|&(a, v)| ExactMove {
                        action: a.to_string(),
                        value: word(v),
                    })
                    .collect();
                return out;
            }
        }
    }
    let limits = Limits {
        max_depth: 200,
        nodes: STRONG_NODES,
        deadline: None,
    };
    let mut searcher = Searcher::new(20).with_tables(table);
    let found = searcher.search(pos, &actions, limits);
    out.best = found.best.map(|a| a.to_string());
    out.depth = found.depth;
    out.nodes = found.nodes;
    if actions.len() > 1 && found.score >= WIN_BOUND {
        out.value = Some("win");
        out.source = "search";
    } else if actions.len() > 1 && found.score <= -WIN_BOUND {
        out.value = Some("loss");
        out.source = "search";
    } else {
        out.score = Some(f64::from(found.score) / 100.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_grasshopper::Checkers;

    #[test]
    fn a_position_the_table_holds_gets_its_exact_value_and_every_moves() {
        let table = EndgameTable::build(2, |_| {}).unwrap();
        let start = Position::start(Checkers::new(2).unwrap());
        let v = evaluate_now(&start, Some(std::sync::Arc::new(table)));
        assert_eq!(v.source, "endgame table");
        let value = v.value.unwrap();
        assert!(["win", "draw", "loss"].contains(&value));
        assert_eq!(v.moves.len(), start.legal_actions().len());
        // The best move keeps the position's value.
        assert_eq!(v.moves[0].value, value);
        assert_eq!(v.best.as_deref(), Some(v.moves[0].action.as_str()));
        assert_eq!(v.table_k, Some(2));
    }

    #[test]
    fn without_a_table_the_strong_search_answers() {
        let start = Position::start(Checkers::new(4).unwrap());
        let v = evaluate_now(&start, None);
        assert!(v.best.is_some());
        assert!(v.nodes > 0);
        assert!(v.moves.is_empty());
        assert!(
            v.source == "search" || v.source == "estimate",
            "{}",
            v.source
        );
        assert_eq!(v.to_move, "white");
    }
}
