//! What losing on time gives (docs/rules/*.md, "Clocks"), and the same for the other ways a
//! front end ends a game for a player (resigning in a game whose rules have no resignation,
//! abandoning a game): the clock and the server belong to the front end, so the rules engines
//! know nothing of them, and each face makes the result from the position
//! ([`crate::Face::forfeit`]; the reason travels with it).
//!
//! - A backgammon or Never-Finishing **match** is lost as a whole: the winner's score becomes
//!   the match length.
//! - A **money game** is lost at the level the position holds, as if the winner bore off at
//!   once: a gammon when the loser has borne off no checker (a backgammon, in backgammon, when
//!   a checker of theirs is also on the bar or in the winner's home board), else a single
//!   game; in backgammon times the cube's value, and a single game under the Jacoby rule with
//!   the cube never turned. Running out of time so never saves a gammon.
//! - **Grasshopper** and **Halma** games are lost (1 point): the trait's default.

use tabula_core::{ByColor, Color, EndReason, Outcome, SessionEnd};
use tabula_tables::Position;

/// 1, 2 or 3: the level of a win now, from the winner's side of `p`.
pub(crate) fn level(p: &Position, backgammons: bool) -> u32 {
    if p.opponent_off() > 0 {
        1
    } else if backgammons && (0..=6).any(|i| p.opponent_on(i) > 0) {
        3
    } else {
        2
    }
}

/// The match awarded to `winner`, the last game ended for `reason`.
pub(crate) fn match_lost(
    winner: Color,
    length: u32,
    score: ByColor<u32>,
    reason: EndReason,
) -> Outcome {
    let mut score = score;
    score[winner] = score[winner].max(length);
    Outcome::from_session(SessionEnd::Match { length, score }, reason)
}

/// A single game lost (1 point) for `reason`.
pub(crate) fn game_lost(loser: Color, reason: EndReason) -> Outcome {
    Outcome::win(loser.other(), 1, reason)
}
