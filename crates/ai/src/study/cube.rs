//! A cube decision laid out for study: the equities of no double, double/take and
//! double/drop, and the right actions of both players, in words.
//!
//! Money play is valued in cubeful equity per unit of the current cube
//! ([`crate::backgammon::cubeful`], Janowski's interpolation); a match in cubeful
//! match-winning chances by the same interpolation ([`crate::backgammon::match_cube`]).

use super::cube_search::{cube_values, CubeValues};
use crate::backgammon::cube::{self, CubeState, Stakes};
use crate::backgammon::cubeful::{MoneyDecision, CUBE_EFFICIENCY};
use crate::backgammon::efficiency::Efficiency;
use crate::backgammon::{Evaluator, Probabilities};
use crate::search::Plays;
use tabula_tables::Position;

/// What the equities of a [`CubeAnalysis`] are counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Money: points per unit of the current cube.
    Money,
    /// A match: the chance of winning the match.
    MatchWinningChance,
}

impl Unit {
    /// The unit of values at `stakes`.
    pub fn of(stakes: &Stakes) -> Unit {
        match stakes {
            Stakes::Money { .. } => Unit::Money,
            Stakes::Match { .. } => Unit::MatchWinningChance,
        }
    }
}

/// The analysis of a cube decision of the player on roll.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubeAnalysis {
    /// The cubeless chances it rests on.
    pub chances: Probabilities,
    /// What the three values below are counted in.
    pub unit: Unit,
    /// Playing on without doubling.
    pub no_double: f32,
    /// Doubling, the opponent taking.
    pub double_take: f32,
    /// Doubling, the opponent dropping.
    pub double_drop: f32,
    /// The player on roll should double.
    pub double: bool,
    /// The opponent should take a double (or beaver, see `beaver`).
    pub take: bool,
    /// The opponent should beaver (money with beavers only).
    pub beaver: bool,
    /// The cube has been turned before (a redouble), for the wording.
    pub redouble: bool,
}

impl CubeAnalysis {
    /// The decision of the player on roll with cubeless chances `p` in `state`, the cube
    /// valued on those chances alone (Janowski's interpolation at the root, the cube
    /// efficiency [`CUBE_EFFICIENCY`]: where the position is known, [`CubeAnalysis::at`]).
    pub fn new(p: &Probabilities, state: &CubeState) -> CubeAnalysis {
        CubeAnalysis::with_efficiency(p, state, CUBE_EFFICIENCY)
    }

    /// [`CubeAnalysis::new`] for the position `pos` with the chances `p`: the cube efficiency
    /// the searched decisions use there ([`Efficiency::SHIPPED`]).
    pub fn at(pos: &Position, p: &Probabilities, state: &CubeState) -> CubeAnalysis {
        CubeAnalysis::with_efficiency(p, state, Efficiency::SHIPPED.at(pos))
    }

    /// [`CubeAnalysis::new`] at the cube efficiency `x`.
    pub fn with_efficiency(p: &Probabilities, state: &CubeState, x: f32) -> CubeAnalysis {
        let (no_double, double_take, double_drop) = match state.stakes {
            Stakes::Money {
                jacoby_applies,
                centred,
                ..
            } => {
                let d = MoneyDecision::new(p, centred, jacoby_applies, x);
                (d.no_double, d.double_take, d.double_drop)
            }
            Stakes::Match { .. } => cube::match_decision_with(p, state, x).expect("a match"),
        };
        CubeAnalysis::from_values(
            &CubeValues {
                chances: *p,
                no_double,
                double_take,
                double_drop,
            },
            state,
        )
    }

    /// The decision of the player on roll in `pos` searched `plies` deep with the cube in
    /// play at every turn ([`super::cube_search`]).
    pub fn search(
        eval: &impl Evaluator,
        plays: &mut impl Plays,
        pos: &Position,
        state: &CubeState,
        plies: u32,
    ) -> CubeAnalysis {
        CubeAnalysis::from_values(&cube_values(eval, plays, pos, state, plies), state)
    }

    /// The decision of the player on roll from the three values of `v` in `state`: double
    /// when double/take and double/drop both beat playing on (never in the Crawford game, nor
    /// in a match the doubler wins by winning the current cube); take while taking is worth
    /// no less than the drop; beaver (money with beavers) when the taker's value after the
    /// take is above [`cube::BEAVER_EQUITY`] per unit of the doubled cube.
    pub fn from_values(v: &CubeValues, state: &CubeState) -> CubeAnalysis {
        let (unit, redouble, may_double, beavers) = match state.stakes {
            Stakes::Money {
                centred, beavers, ..
            } => (Unit::Money, !centred, true, beavers),
            Stakes::Match {
                away_me,
                crawford_game,
                ..
            } => (
                Unit::MatchWinningChance,
                state.cube > 1,
                !crawford_game && away_me > state.cube,
                false,
            ),
        };
        // Ties are taken: when the drop loses the match every take is free.
        let take = v.double_take <= v.double_drop;
        let beaver = beavers && take && -v.double_take / 2.0 > cube::BEAVER_EQUITY;
        CubeAnalysis {
            chances: v.chances,
            unit,
            no_double: v.no_double,
            double_take: v.double_take,
            double_drop: v.double_drop,
            double: may_double && v.double_take.min(v.double_drop) > v.no_double,
            take,
            beaver,
            redouble,
        }
    }

    /// The right actions in words, as gnubg writes them: `No double, take`, `Double, take`,
    /// `Double, pass`, `Too good to double, pass` (`redouble` once the cube has moved).
    pub fn verdict(&self) -> String {
        let verb = self.verb();
        let answer = if self.beaver {
            "beaver"
        } else if self.take {
            "take"
        } else {
            "pass"
        };
        if self.double {
            format!("{}, {answer}", self.verb_capitalised())
        } else if !self.take && self.no_double > self.double_drop {
            format!("Too good to {verb}, pass")
        } else {
            format!("No {verb}, {answer}")
        }
    }

    /// `double`, or `redouble` once the cube has moved.
    pub fn verb(&self) -> &'static str {
        if self.redouble {
            "redouble"
        } else {
            "double"
        }
    }

    /// [`CubeAnalysis::verb`] at the start of a sentence.
    pub fn verb_capitalised(&self) -> &'static str {
        if self.redouble {
            "Redouble"
        } else {
            "Double"
        }
    }

    /// The value of the best of the three for the player on roll (what the doubler gets with
    /// the right actions of both sides).
    pub fn best(&self) -> f32 {
        if self.double {
            self.double_take.min(self.double_drop)
        } else {
            self.no_double
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::met::Crawford;

    fn money(centred: bool) -> CubeState {
        CubeState {
            cube: if centred { 1 } else { 2 },
            stakes: Stakes::Money {
                beavers: false,
                jacoby_applies: false,
                centred,
            },
        }
    }

    fn race(win: f32) -> Probabilities {
        Probabilities {
            win,
            ..Probabilities::default()
        }
    }

    #[test]
    fn verdicts_follow_the_money_equities() {
        assert_eq!(
            CubeAnalysis::new(&race(0.6), &money(true)).verdict(),
            "No double, take"
        );
        assert_eq!(
            CubeAnalysis::new(&race(0.72), &money(true)).verdict(),
            "Double, take"
        );
        assert_eq!(
            CubeAnalysis::new(&race(0.9), &money(true)).verdict(),
            "Double, pass"
        );
        assert_eq!(
            CubeAnalysis::new(&race(0.9), &money(false)).verdict(),
            "Redouble, pass"
        );
        let gammonish = Probabilities {
            win: 0.9,
            win_gammon: 0.6,
            ..Probabilities::default()
        };
        let a = CubeAnalysis::new(&gammonish, &money(true));
        assert_eq!(a.verdict(), "Too good to double, pass");
        assert_eq!(a.best(), a.no_double);
        assert!(a.no_double > 1.0);
    }

    #[test]
    fn match_decisions_are_in_match_winning_chances() {
        let state = CubeState {
            cube: 1,
            stakes: Stakes::Match {
                away_me: 2,
                away_opp: 1,
                next: Crawford::Post,
                crawford_game: false,
                holder: crate::backgammon::match_cube::Holder::Centred,
            },
        };
        let a = CubeAnalysis::new(&race(0.3), &state);
        assert_eq!(a.unit, Unit::MatchWinningChance);
        assert!(a.double, "the trailer doubles at once post-Crawford");
        // When the leader drops, both need one point: the doubler's match chance is 50 %.
        assert!((a.double_drop - 0.5).abs() < 1e-6);
    }
}
