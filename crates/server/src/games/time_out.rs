//! What losing on time gives, per game (docs/rules/*.md, "Clocks"): the clock is the server's,
//! so the rules engines know nothing of it, and the result is made here from the position.
//!
//! - A backgammon or Never-Finishing **match** is lost as a whole: the winner's score becomes
//!   the match length.
//! - A **money game** is lost at the level the position holds, as if the winner bore off at
//!   once: a gammon when the loser has borne off no checker (a backgammon, in backgammon, when
//!   a checker of theirs is also on the bar or in the winner's home board), else a single
//!   game; in backgammon times the cube's value, and a single game under the Jacoby rule with
//!   the cube never turned. Running out of time so never saves a gammon.
//! - **Grasshopper** and **Halma** games are lost (1 point).

use super::Table;
use tabula_core::{ByColor, Color, EndReason, Outcome, SessionEnd};
use tabula_tables::backgammon::Mode;
use tabula_tables::never_finishing::Scoring;
use tabula_tables::Position;

impl Table {
    /// The result when `loser` runs out of time now.
    pub fn time_out(&self, loser: Color) -> Outcome {
        let winner = loser.other();
        match self {
            Table::Backgammon(bg) => match bg.options().mode {
                Mode::Match { length, .. } => match_lost(winner, u32::from(length), bg.score()),
                Mode::Money { jacoby, .. } => {
                    let game = bg.game();
                    let cube = game.cube().value();
                    let level = if jacoby && !cube_turned(bg) {
                        1
                    } else {
                        level(&game.board_for(winner), true)
                    };
                    Outcome::win(winner, level * cube, EndReason::TimeOut)
                }
            },
            Table::NeverFinishing(nf) => match nf.options().scoring {
                Scoring::Match { length } => match_lost(winner, u32::from(length), nf.score()),
                Scoring::Money { .. } => Outcome::win(
                    winner,
                    level(&nf.game().board_for(winner), false),
                    EndReason::TimeOut,
                ),
            },
            Table::Grasshopper(_) | Table::Halma(_) => Outcome::win(winner, 1, EndReason::TimeOut),
        }
    }
}

/// Whether the money game's cube has been turned (the Jacoby rule counts gammons only then).
fn cube_turned(bg: &tabula_tables::backgammon::Backgammon) -> bool {
    let cube = bg.game().cube();
    cube.value() > 1 || cube.owner().is_some()
}

/// 1, 2 or 3: the level of a win now, from the winner's side of `p`.
fn level(p: &Position, backgammons: bool) -> u32 {
    if p.opponent_off() > 0 {
        1
    } else if backgammons && (0..=6).any(|i| p.opponent_on(i) > 0) {
        3
    } else {
        2
    }
}

/// The match awarded to `winner`.
fn match_lost(winner: Color, length: u32, score: ByColor<u32>) -> Outcome {
    let mut score = score;
    score[winner] = score[winner].max(length);
    Outcome::from_session(SessionEnd::Match { length, score }, EndReason::TimeOut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameOptions;

    fn table(options: GameOptions) -> Table {
        Table::new(&options).unwrap()
    }

    #[test]
    fn running_out_of_time_loses_a_backgammon_match() {
        let t = table(GameOptions::Backgammon {
            match_length: Some(5),
            crawford: true,
            beavers: false,
            jacoby: false,
            automatic_doubles: 0,
        });
        let o = t.time_out(Color::White);
        assert_eq!(o.winner, Some(Color::Black));
        assert_eq!(o.reason, EndReason::TimeOut);
        match o.session {
            Some(SessionEnd::Match { length: 5, score }) => {
                assert_eq!((score.white, score.black), (0, 5))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn running_out_of_time_in_a_money_game_loses_at_the_level_the_position_holds() {
        let t = table(GameOptions::Backgammon {
            match_length: None,
            crawford: true,
            beavers: true,
            jacoby: false,
            automatic_doubles: 0,
        });
        // At the start Black has borne off nothing and two checkers stand on White's
        // 1-point, in White's home board: losing on time now is a backgammon.
        let o = t.time_out(Color::Black);
        assert_eq!((o.winner, o.points), (Some(Color::White), 3));
        assert!(o.session.is_none());
    }

    #[test]
    fn running_out_of_time_under_the_jacoby_rule_with_a_centred_cube_loses_a_single_game() {
        let t = table(GameOptions::Backgammon {
            match_length: None,
            crawford: true,
            beavers: true,
            jacoby: true,
            automatic_doubles: 0,
        });
        assert_eq!(t.time_out(Color::Black).points, 1);
    }

    #[test]
    fn running_out_of_time_loses_a_never_finishing_match_and_a_grasshopper_and_halma_game() {
        let nf = table(GameOptions::NeverFinishing { match_length: 3 });
        assert!(matches!(
            nf.time_out(Color::Black).session,
            Some(SessionEnd::Match { length: 3, .. })
        ));
        let g = table(GameOptions::Grasshopper { checkers: 14 });
        assert_eq!(g.time_out(Color::Black).points, 1);
        let h = table(GameOptions::HalmaGrasshopper {
            size: 8,
            evacuation: None,
        });
        let o = h.time_out(Color::White);
        assert_eq!(
            (o.winner, o.reason),
            (Some(Color::Black), EndReason::TimeOut)
        );
    }
}
