//! What losing on time gives (docs/rules/*.md, "Clocks"): the clock belongs to the front end
//! (the server's), so the rules engines know nothing of it, and each face makes the result
//! from the position ([`crate::Face::time_out`]).
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

/// The match awarded to `winner`.
pub(crate) fn match_lost(winner: Color, length: u32, score: ByColor<u32>) -> Outcome {
    let mut score = score;
    score[winner] = score[winner].max(length);
    Outcome::from_session(SessionEnd::Match { length, score }, EndReason::TimeOut)
}

/// A single game lost on time (1 point).
pub(crate) fn game_lost(loser: Color) -> Outcome {
    Outcome::win(loser.other(), 1, EndReason::TimeOut)
}
