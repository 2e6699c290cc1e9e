//! The trainer: a player's own mistakes as exercises (docs/protocol.md, "Trainer").
//!
//! - **Source**: every decision of the player's analysed backgammon games that the analysis
//!   marked doubtful, bad or very bad: a play (the position and the dice; the player
//!   chooses a play), a double or not (the position before rolling), a take or a pass (the
//!   position with the double on offer). They are read from the stored reports when the
//!   player opens the trainer ([`sync`]), each game once.
//! - **Schedule** ([`after_answer`]): a new exercise is due at once. A wrong answer brings it
//!   back after the retry wait (`TABULA_TRAINER_AGAIN_SECS`, 10 minutes by default); a right
//!   answer at first sight has it learned; a right answer after a wrong one brings it back
//!   once more, [`CONFIRM_FACTOR`] times the retry wait later (a day by default), and
//!   answered right then too it is learned. Learned exercises are not asked again.
//! - **Grading**: the position is ranked afresh by the nets at the server's analysis depth
//!   (the depth the game's analysis used by default), so the answer and the alternatives
//!   shown agree: a play is right when no other play of the roll is valued higher; a cube
//!   answer is right when it is the proper action.
//! - **Who**: any player with a session; a guest's exercises last as long as the guest's
//!   session, a registered player's are kept.

use crate::error::ApiError;
use crate::store::trainer::NewExercise;
use crate::AppState;
use serde_json::Value;
use std::collections::HashMap;
use std::time::Duration;
use tabula_ai::study::analyse::Step;
use tabula_core::Color;
use tabula_tables::notation::session_ids;

/// How many times the retry wait a right answer after a wrong one waits before the
/// exercise comes back to be confirmed (144: 10 minutes become a day).
pub const CONFIRM_FACTOR: u32 = 144;

/// How many unread analysed games one opening of the trainer reads.
pub const SYNC_GAMES: i64 = 20;

/// The stages of an exercise, as stored.
pub mod stage {
    /// Never answered.
    pub const NEW: i64 = 0;
    /// Last answered wrong.
    pub const WRONG: i64 = 1;
    /// Answered right after a wrong answer, to be confirmed.
    pub const RIGHT_ONCE: i64 = 2;
    /// Learned: not asked again.
    pub const LEARNED: i64 = 3;
}

/// The stage and due time (Unix ms) of an exercise at `stage` answered `right` at `now_ms`,
/// with `again` the retry wait.
pub fn after_answer(stage: i64, right: bool, now_ms: i64, again: Duration) -> (i64, i64) {
    let wait =
        |d: Duration| now_ms.saturating_add(i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    if !right {
        return (stage::WRONG, wait(again));
    }
    match stage {
        stage::WRONG => (
            stage::RIGHT_ONCE,
            wait(again.saturating_mul(CONFIRM_FACTOR)),
        ),
        _ => (stage::LEARNED, now_ms),
    }
}

/// The exercise kind of a decision of the report (`None`: not one the trainer asks).
fn kind_of(decision: &str) -> Option<&'static str> {
    match decision {
        "move" => Some("move"),
        "double" | "no-double" => Some("double"),
        "take" | "pass" => Some("take"),
        _ => None,
    }
}

/// The exercises a game's analysis `report` gives the player of `colour`: each of their
/// marked decisions with the position before it (from `steps`, by the version each made).
pub fn exercises_of(
    report: &Value,
    colour: Color,
    steps: &HashMap<i64, &Step>,
) -> Vec<NewExercise> {
    let colour_name = match colour {
        Color::White => "white",
        Color::Black => "black",
    };
    let Some(decisions) = report["decisions"].as_array() else {
        return Vec::new();
    };
    decisions
        .iter()
        .filter(|d| d["player"] == colour_name && d["mark"].as_str().is_some_and(|m| !m.is_empty()))
        .filter_map(|d| {
            let kind = kind_of(d["kind"].as_str()?)?;
            let version = d["version"].as_i64()?;
            let (session, ..) = steps.get(&version)?;
            let played = match kind {
                "move" => d["played"].as_str()?.to_string(),
                _ => d["kind"].as_str()?.to_string(),
            };
            Some(NewExercise {
                version,
                kind,
                position: session_ids(session).xgid,
                played,
                error: d["error"].as_f64().unwrap_or(0.0),
            })
        })
        .collect()
}

/// Reads `player`'s analysed games not yet read (at most [`SYNC_GAMES`]) into exercises;
/// how many exercises it made.
pub async fn sync(state: &AppState, player: &str, now_ms: i64) -> Result<usize, ApiError> {
    let games = state.db.unread_analysed_games(player, SYNC_GAMES).await?;
    let mut made = 0;
    for g in games {
        let colour = if g.white_id.as_deref() == Some(player) {
            Color::White
        } else {
            Color::Black
        };
        let report: Value = serde_json::from_str(&g.report).unwrap_or(Value::Null);
        let exercises = match state.db.game(&g.game_id).await? {
            Some(row) => {
                let options = row.game_options()?;
                let events = state.db.events(&g.game_id, 0).await?;
                match crate::analysis::decisions(&options, &events) {
                    Ok((steps, versions)) => {
                        let by_version: HashMap<i64, &Step> =
                            versions.iter().copied().zip(steps.iter()).collect();
                        exercises_of(&report, colour, &by_version)
                    }
                    Err(e) => {
                        tracing::warn!(game = %g.game_id, error = %e, "trainer: unreadable game");
                        Vec::new()
                    }
                }
            }
            None => Vec::new(),
        };
        made += exercises.len();
        state
            .db
            .add_exercises(player, &g.game_id, &exercises, now_ms)
            .await?;
    }
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AGAIN: Duration = Duration::from_secs(600);

    #[test]
    fn an_exercise_answered_right_at_first_sight_is_learned() {
        assert_eq!(
            after_answer(stage::NEW, true, 1000, AGAIN),
            (stage::LEARNED, 1000)
        );
    }

    #[test]
    fn a_wrong_answer_brings_the_exercise_back_after_the_retry_wait() {
        for s in [stage::NEW, stage::WRONG, stage::RIGHT_ONCE] {
            assert_eq!(after_answer(s, false, 1000, AGAIN), (stage::WRONG, 601_000));
        }
    }

    #[test]
    fn a_right_answer_after_a_wrong_one_is_confirmed_a_day_later_then_learned() {
        let (s, due) = after_answer(stage::WRONG, true, 0, AGAIN);
        assert_eq!((s, due), (stage::RIGHT_ONCE, 24 * 3600 * 1000));
        assert_eq!(after_answer(s, true, due, AGAIN), (stage::LEARNED, due));
    }

    #[test]
    fn only_the_players_marked_plays_and_cube_decisions_become_exercises() {
        use tabula_tables::backgammon::{Backgammon, Options};
        let session = Backgammon::new(Options::default()).unwrap();
        let step: Step = (
            session,
            Color::White,
            tabula_tables::backgammon::Action::Roll,
            None,
        );
        let steps: HashMap<i64, &Step> = [(3, &step), (5, &step), (7, &step), (9, &step)]
            .into_iter()
            .collect();
        let report = serde_json::json!({"decisions": [
            {"version": 3, "player": "white", "kind": "move", "played": "8/5 6/5", "mark": "bad", "error": 0.1},
            {"version": 5, "player": "white", "kind": "no-double", "mark": "doubtful", "error": 0.05},
            {"version": 7, "player": "black", "kind": "move", "played": "13/7", "mark": "very bad", "error": 0.3},
            {"version": 9, "player": "white", "kind": "move", "played": "13/7", "mark": "", "error": 0.01},
            {"version": 11, "player": "white", "kind": "take", "mark": "bad", "error": 0.2},
        ]});
        let made = exercises_of(&report, Color::White, &steps);
        let got: Vec<_> = made
            .iter()
            .map(|e| (e.version, e.kind, e.played.as_str()))
            .collect();
        // 7 is Black's, 9 is not marked, 11 has no step
        assert_eq!(got, [(3, "move", "8/5 6/5"), (5, "double", "no-double")]);
        assert!(made[0].position.starts_with("XGID="));
    }
}
