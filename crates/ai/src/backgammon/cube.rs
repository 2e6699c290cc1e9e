//! Cube and resignation decisions from the evaluator's cubeless chances, for money play and
//! for matches.
//!
//! **Money.** Cubeful equity by Janowski's interpolation ([`super::cubeful`], cube
//! efficiency 0.68): the player on roll doubles when double/take and double/drop both beat
//! playing on (and not when playing on beats the drop: too good); the taker takes while
//! taking, with the cube then theirs, loses no more than the point a drop costs, and would
//! beaver when taking leaves them the cubeful favourite by more than [`BEAVER_EQUITY`]. Until
//! issue 15 the thresholds were fixed (double from 75 % wins, take at cubeless equity -0.5)
//! and ignored gammons on the doubler's side and the value of owning the cube.
//!
//! **Match.** Cubeful match-winning chances by Janowski's interpolation carried over to
//! match play ([`super::match_cube`], the same cube efficiency): the values of no double
//! (the cube where it is), double/take (the cube at twice its value, held by the taker) and
//! double/drop (the doubler wins the current cube's points) are compared exactly as for
//! money, and the taker takes while taking is worth at least the drop. Until issue 15's
//! second part this used the dead-cube values with two hand-set corrections, and doubled
//! too early. A drop that would lose the match is always taken (taking can only be worth
//! more than nothing); the leader who wins the match by winning the current cube never
//! doubles.
//!
//! In the Crawford game the session never asks for a cube decision; [`should_double`] also
//! answers no there. A backgammon is counted three times (the bar-quadruple option is
//! ignored: it is rare and only sharpens gammonish positions).

use super::chances::Probabilities;
use super::cubeful::{self, MoneyDecision, Owner, CUBE_EFFICIENCY};
use super::match_cube::{cubeful_chances, Holder, Score};
use super::met::Crawford;
use tabula_core::Color;
use tabula_tables::backgammon::{Backgammon, Mode};

/// Money: beaver only as a clear favourite (cubeful equity after taking, per unit of the
/// doubled cube, above this). In theory any take where the taker is the favourite is a
/// beaver; the margin allows for the evaluator's errors, since a wrong beaver costs twice a
/// wrong take.
pub const BEAVER_EQUITY: f32 = 0.25;

/// The answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Accept at twice the cube.
    Take,
    /// Give up the game at the current cube.
    Drop,
    /// Accept and redouble at once, keeping the cube (money only).
    Beaver,
}

/// What is played for: money or a match score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stakes {
    /// Money play.
    Money {
        /// Beavers are allowed.
        beavers: bool,
        /// Gammons count only once the cube has been turned (and the cube is centred now).
        jacoby_applies: bool,
        /// The cube is in the middle (neither player has turned it yet).
        centred: bool,
    },
    /// A match.
    Match {
        /// Points the deciding player still needs.
        away_me: u32,
        /// Points the opponent still needs.
        away_opp: u32,
        /// The Crawford state of the games after this one.
        next: Crawford,
        /// Whether this is the Crawford game (no cube).
        crawford_game: bool,
        /// Who holds the cube, seen by the deciding player.
        holder: Holder,
    },
}

/// The cube and the stakes, as seen by the player who decides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubeState {
    /// The cube's value.
    pub cube: u32,
    /// Money or match.
    pub stakes: Stakes,
}

impl CubeState {
    /// A money cube at 1 in the middle, without the Jacoby rule or beavers (the state the
    /// judged cube decisions and the cube measurements use).
    pub fn money_centred() -> CubeState {
        CubeState {
            cube: 1,
            stakes: Stakes::Money {
                beavers: false,
                jacoby_applies: false,
                centred: true,
            },
        }
    }

    /// The state of `session`'s current game for `player`.
    pub fn of(session: &Backgammon, player: Color) -> CubeState {
        let game = session.game();
        let cube = game.cube();
        let stakes = match session.options().mode {
            Mode::Money {
                beavers, jacoby, ..
            } => Stakes::Money {
                beavers,
                jacoby_applies: jacoby && cube.owner().is_none(),
                centred: cube.owner().is_none(),
            },
            Mode::Match { length, crawford } => {
                let length = u32::from(length);
                let score = session.score();
                Stakes::Match {
                    away_me: length.saturating_sub(score[player]),
                    away_opp: length.saturating_sub(score[!player]),
                    // `crawford_played` is already true during the Crawford game.
                    next: if !crawford || session.crawford_played() {
                        Crawford::Post
                    } else {
                        Crawford::Pre
                    },
                    crawford_game: session.is_crawford_game(),
                    holder: Holder::of(cube.owner(), player),
                }
            }
        };
        CubeState {
            cube: cube.value(),
            stakes,
        }
    }
}

impl Stakes {
    /// The match score, or `None` in money play.
    fn score(&self) -> Option<(Score, Holder, bool)> {
        match *self {
            Stakes::Money { .. } => None,
            Stakes::Match {
                away_me,
                away_opp,
                next,
                crawford_game,
                holder,
            } => Some((
                Score {
                    away_me,
                    away_opp,
                    next,
                },
                holder,
                crawford_game,
            )),
        }
    }
}

/// The match-winning chances of the player on roll with chances `p` after no double,
/// double/take and double/drop (cubeful, [`super::match_cube`]); `None` in money play.
pub fn match_decision(p: &Probabilities, state: &CubeState) -> Option<(f32, f32, f32)> {
    match_decision_with(p, state, CUBE_EFFICIENCY)
}

/// [`match_decision`] at the cube efficiency `x`.
pub fn match_decision_with(
    p: &Probabilities,
    state: &CubeState,
    x: f32,
) -> Option<(f32, f32, f32)> {
    let (score, holder, _) = state.stakes.score()?;
    let c = state.cube;
    Some((
        cubeful_chances(p, c, holder, &score, x),
        cubeful_chances(p, 2 * c, Holder::Opponent, &score, x),
        score.after(i64::from(c)),
    ))
}

/// The match-winning chances of the deciding player after winning and after losing the
/// current cube's points (a single game); `None` in money play. Analysis turns match-winning
/// chances into money equivalents with them.
pub fn match_cube_swing(state: &CubeState) -> Option<(f32, f32)> {
    let (score, _, _) = state.stakes.score()?;
    let c = i64::from(state.cube);
    Some((score.after(c), score.after(-c)))
}

/// Whether the player on roll, with cubeless chances `p`, should double.
pub fn should_double(p: &Probabilities, state: &CubeState) -> bool {
    match state.stakes {
        Stakes::Money {
            jacoby_applies,
            centred,
            ..
        } => MoneyDecision::new(p, centred, jacoby_applies, CUBE_EFFICIENCY).should_double(),
        Stakes::Match {
            away_me,
            crawford_game,
            ..
        } => {
            // A win at this cube already wins the match: doubling can only cost.
            if crawford_game || away_me <= state.cube {
                return false;
            }
            let (no_double, taken, dropped) = match_decision(p, state).expect("a match");
            taken.min(dropped) > no_double
        }
    }
}

/// The answer of a player with cubeless chances `p` (as the player not on roll sees them) to
/// a double in `state` (the cube before the double, the stakes seen by the taker).
pub fn answer_double(p: &Probabilities, state: &CubeState) -> Answer {
    match state.stakes {
        Stakes::Money { beavers, .. } => money_answer(p, beavers),
        Stakes::Match { .. } => {
            let (score, _, _) = state.stakes.score().expect("a match");
            let c = state.cube;
            let dropped = score.after(-i64::from(c));
            let taken = cubeful_chances(p, 2 * c, Holder::Player, &score, CUBE_EFFICIENCY);
            // `>=`: when the drop loses the match (dropped = 0) every take is free.
            if taken >= dropped {
                Answer::Take
            } else {
                Answer::Drop
            }
        }
    }
}

fn money_answer(p: &Probabilities, beavers: bool) -> Answer {
    // After the take the cube is ours; its equity per unit of the doubled cube.
    let taken = cubeful::money_equity(p, Owner::Player, false);
    if beavers && taken > BEAVER_EQUITY {
        Answer::Beaver
    } else if 2.0 * taken >= -1.0 {
        // Taking doubles the stake: take while the doubled loss is no larger than the
        // single point a drop costs.
        Answer::Take
    } else {
        Answer::Drop
    }
}

/// Whether a player with cubeless chances `p` (as the player not on roll sees them) should
/// accept the opponent's resignation of `multiplier` times the cube (1 single, 2 gammon, 3
/// backgammon).
pub fn accept_resignation(p: &Probabilities, multiplier: u32, state: &CubeState) -> bool {
    match state.stakes {
        Stakes::Money { jacoby_applies, .. } => {
            if jacoby_applies {
                // Gammons do not count: the resignation is worth a single game.
                1.0 >= 2.0 * p.win - 1.0
            } else {
                multiplier as f32 >= p.equity()
            }
        }
        Stakes::Match { .. } => {
            let (score, holder, _) = state.stakes.score().expect("a match");
            let accepted = score.after(i64::from(multiplier * state.cube));
            accepted >= cubeful_chances(p, state.cube, holder, &score, CUBE_EFFICIENCY)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race(win: f32) -> Probabilities {
        Probabilities {
            win,
            ..Probabilities::default()
        }
    }

    fn money() -> CubeState {
        CubeState {
            cube: 1,
            stakes: Stakes::Money {
                beavers: true,
                jacoby_applies: false,
                centred: true,
            },
        }
    }

    fn at_score(away_me: u32, away_opp: u32, next: Crawford, cube: u32) -> CubeState {
        CubeState {
            cube,
            stakes: Stakes::Match {
                away_me,
                away_opp,
                next,
                crawford_game: false,
                holder: Holder::Centred,
            },
        }
    }

    #[test]
    fn money_a_ninety_percent_race_is_a_double_and_a_drop() {
        let p = race(0.9);
        assert!(should_double(&p, &money()));
        assert_eq!(answer_double(&p.flip(), &money()), Answer::Drop);
    }

    #[test]
    fn money_close_positions_are_takes_and_not_doubles() {
        let p = race(0.6);
        assert!(!should_double(&p, &money()));
        assert_eq!(answer_double(&race(0.3), &money()), Answer::Take);
        // A slight favourite takes: the evaluator is not trusted with a beaver there.
        assert_eq!(answer_double(&race(0.52), &money()), Answer::Take);
        // The live-cube take point (about 21.4 %) is below the dead cube's 25 %.
        assert_eq!(answer_double(&race(0.22), &money()), Answer::Take);
        assert_eq!(answer_double(&race(0.2), &money()), Answer::Drop);
    }

    #[test]
    fn money_a_clear_favourite_beavers_when_allowed() {
        assert_eq!(answer_double(&race(0.7), &money()), Answer::Beaver);
    }

    #[test]
    fn money_too_good_to_double_plays_on_for_the_gammon() {
        let p = Probabilities {
            win: 0.95,
            win_gammon: 0.7,
            ..Probabilities::default()
        };
        assert!(!should_double(&p, &money()));
        // Under the Jacoby rule the gammons do not count yet: cash.
        let jacoby = CubeState {
            cube: 1,
            stakes: Stakes::Money {
                beavers: true,
                jacoby_applies: true,
                centred: true,
            },
        };
        assert!(should_double(&p, &jacoby));
    }

    #[test]
    fn post_crawford_the_trailer_doubles_at_once() {
        let state = at_score(2, 1, Crawford::Post, 1);
        for win in [0.2, 0.35, 0.5, 0.8] {
            assert!(should_double(&race(win), &state), "{win}");
        }
        // At 4-away against 1-away as well.
        assert!(should_double(
            &race(0.3),
            &at_score(4, 1, Crawford::Post, 1)
        ));
    }

    #[test]
    fn the_leader_at_one_away_never_doubles() {
        for next in [Crawford::Pre, Crawford::Post] {
            for win in [0.5, 0.8, 0.99] {
                assert!(!should_double(&race(win), &at_score(1, 2, next, 1)));
                assert!(!should_double(&race(win), &at_score(1, 5, next, 1)));
            }
        }
    }

    #[test]
    fn a_double_whose_drop_loses_the_match_is_always_taken() {
        // The opponent at 1-away doubles us at 3-away: dropping ends the match.
        let state = at_score(3, 1, Crawford::Post, 1);
        assert_eq!(answer_double(&race(0.02), &state), Answer::Take);
        // The opponent at 2-away doubles us at 5-away with the cube on 2: the same.
        let state = at_score(5, 2, Crawford::Pre, 2);
        assert_eq!(answer_double(&race(0.05), &state), Answer::Take);
    }

    #[test]
    fn the_leader_drops_a_hopeless_double_post_crawford() {
        // 1-away against 2-away post-Crawford: the free drop costs little, taking a
        // hopeless game loses the match.
        let state = at_score(1, 2, Crawford::Post, 1);
        assert_eq!(answer_double(&race(0.2), &state), Answer::Drop);
        assert_eq!(answer_double(&race(0.6), &state), Answer::Take);
    }

    #[test]
    fn match_play_at_even_score_is_close_to_money() {
        let state = at_score(7, 7, Crawford::Pre, 1);
        assert!(should_double(&race(0.8), &state));
        assert!(!should_double(&race(0.55), &state));
        assert_eq!(answer_double(&race(0.1), &state), Answer::Drop);
        assert_eq!(answer_double(&race(0.35), &state), Answer::Take);
    }

    #[test]
    fn no_double_in_the_crawford_game() {
        let mut state = at_score(2, 1, Crawford::Post, 1);
        if let Stakes::Match { crawford_game, .. } = &mut state.stakes {
            *crawford_game = true;
        }
        assert!(!should_double(&race(0.9), &state));
    }

    #[test]
    fn resignations_are_judged_in_match_equity() {
        // 1-away against 5-away: a single game already wins the match, so a single
        // resignation is accepted even from a position full of gammons.
        let p = Probabilities {
            win: 0.9,
            win_gammon: 0.6,
            ..Probabilities::default()
        };
        assert!(accept_resignation(
            &p,
            1,
            &at_score(1, 5, Crawford::Post, 1)
        ));
        // At money the same position is worth more than a single game.
        assert!(!accept_resignation(&p, 1, &money()));
        assert!(accept_resignation(&p, 2, &money()));
    }
}
