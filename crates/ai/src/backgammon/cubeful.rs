//! Cubeful money equity from cubeless chances, by Janowski's interpolation.
//!
//! Rick Janowski ("Take-points in money games", 1993) values a position with a live cube by
//! assuming that the winning chances move continuously, so that a player doubles exactly at
//! the opponent's take point and cashes exactly at their own cash point. Between those
//! points the equity of the fully live cube is linear in the chance of winning `p`. With
//! `W` the average number of points a win is worth (1 plus the gammon and backgammon
//! shares of the wins) and `L` the same for losses, both per cube unit:
//!
//! - the **take point** (the least `p` at which a player can accept a double with the cube
//!   then theirs) is `TP = (L - 1/2) / (W + L + 1/2)`;
//! - the **cash point** (the `p` at which the opponent should drop their double) is
//!   `CP = (L + 1) / (W + L + 1/2)`.
//!
//! With `W = L = 1` (no gammons) these are 20 % and 80 %. The fully live equity is drawn
//! through the points `(0, -L)`, the relevant ones of `(TP, -1)` and `(CP, +1)`, and
//! `(1, +W)`:
//!
//! - **the cube is the player's**: `(0, -L)`, `(CP, +1)`, `(1, +W)` (the opponent can never
//!   cash, the player cashes at `CP` and beyond it plays on for `W`);
//! - **the cube is the opponent's**: `(0, -L)`, `(TP, -1)`, `(1, +W)`;
//! - **centred**: `(0, -L)`, `(TP, -1)`, `(CP, +1)`, `(1, +W)`; under the Jacoby rule nobody
//!   plays on for gammons with a centred cube, so the ends are flat at -1 and +1.
//!
//! Real positions move in jumps, so a cube is never fully live. The equity used is the mix
//! `x · live + (1 - x) · dead`, where `dead` is the cubeless equity (with the Jacoby rule and
//! a centred cube, gammons counted as single games) and `x` the **cube efficiency**: 0.68, the
//! value usually quoted for contact positions, used for every position (rollouts measure the
//! cube more live in races, [`super::efficiency`], but those values judged no better against
//! gnubg: docs/bots.md). With `x = 0` the familiar dead-cube take point of 25 % comes back; with
//! `x = 0.68` and no gammons it is about 21.4 %.
//!
//! Equities here are per unit of the current cube, from the side of the player whose chances
//! are given.

use super::chances::Probabilities;

/// The cube efficiency used for every position (see the module docs).
pub const CUBE_EFFICIENCY: f32 = 0.68;

/// Who may turn the cube next, as seen by the player whose chances are valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// Either player (the cube is in the middle).
    Centred,
    /// The player: only they can double.
    Player,
    /// The opponent: only they can double.
    Opponent,
}

/// Average points per win and per loss (`W`, `L`), per cube unit. A side that never wins
/// (or never loses) gets the plain 1 that its empty share would be worth.
pub fn average_values(p: &Probabilities) -> (f32, f32) {
    const TINY: f32 = 1e-6;
    let w = if p.win > TINY {
        1.0 + (p.win_gammon + p.win_backgammon) / p.win
    } else {
        1.0
    };
    let lose = 1.0 - p.win;
    let l = if lose > TINY {
        1.0 + (p.lose_gammon + p.lose_backgammon) / lose
    } else {
        1.0
    };
    (w, l)
}

/// The take point and the cash point `(TP, CP)` of a fully live cube for a player whose wins
/// average `w` points and losses `l`.
pub fn live_points(w: f32, l: f32) -> (f32, f32) {
    let d = w + l + 0.5;
    ((l - 0.5) / d, (l + 1.0) / d)
}

/// The line through `(x0, y0)` and `(x1, y1)` at `x`.
fn line(x: f32, (x0, y0): (f32, f32), (x1, y1): (f32, f32)) -> f32 {
    if x1 - x0 <= f32::EPSILON {
        return y1;
    }
    y0 + (y1 - y0) * (x - x0) / (x1 - x0)
}

/// The equity of a fully live cube (see the module docs).
pub fn live_equity(p: &Probabilities, owner: Owner, jacoby: bool) -> f32 {
    let (w, l) = average_values(p);
    let (tp, cp) = live_points(w, l);
    let win = p.win;
    match owner {
        Owner::Player if win < cp => line(win, (0.0, -l), (cp, 1.0)),
        Owner::Player => line(win, (cp, 1.0), (1.0, w)),
        Owner::Opponent if win < tp => line(win, (0.0, -l), (tp, -1.0)),
        Owner::Opponent => line(win, (tp, -1.0), (1.0, w)),
        Owner::Centred if win < tp => {
            if jacoby {
                -1.0
            } else {
                line(win, (0.0, -l), (tp, -1.0))
            }
        }
        Owner::Centred if win < cp => line(win, (tp, -1.0), (cp, 1.0)),
        Owner::Centred => {
            if jacoby {
                1.0
            } else {
                line(win, (cp, 1.0), (1.0, w))
            }
        }
    }
}

/// Cubeful money equity per cube unit: `x · live + (1 - x) · dead` with `x` =
/// [`CUBE_EFFICIENCY`]. `jacoby` says that the Jacoby rule is in force (it matters only
/// while the cube is centred).
pub fn money_equity(p: &Probabilities, owner: Owner, jacoby: bool) -> f32 {
    money_equity_with(p, owner, jacoby, CUBE_EFFICIENCY)
}

/// [`money_equity`] with another cube efficiency `x` (0 = dead cube, 1 = fully live).
pub fn money_equity_with(p: &Probabilities, owner: Owner, jacoby: bool, x: f32) -> f32 {
    let jacoby = jacoby && owner == Owner::Centred;
    let dead = if jacoby {
        2.0 * p.win - 1.0
    } else {
        p.equity()
    };
    x * live_equity(p, owner, jacoby) + (1.0 - x) * dead
}

/// The three equities of a money cube decision for the player on roll, per unit of the
/// current cube and from the doubler's side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoneyDecision {
    /// Play on without doubling.
    pub no_double: f32,
    /// Double, and the opponent takes (the cube then theirs at twice the value).
    pub double_take: f32,
    /// Double, and the opponent drops: one cube unit.
    pub double_drop: f32,
}

impl MoneyDecision {
    /// The decision of a player on roll with chances `p` who may double (the cube is
    /// centred, or theirs when `centred` is false).
    pub fn new(p: &Probabilities, centred: bool, jacoby: bool, x: f32) -> MoneyDecision {
        let owner = if centred {
            Owner::Centred
        } else {
            Owner::Player
        };
        MoneyDecision {
            no_double: money_equity_with(p, owner, jacoby, x),
            double_take: 2.0 * money_equity_with(p, Owner::Opponent, false, x),
            double_drop: 1.0,
        }
    }

    /// Doubling is right when what the opponent does best after it (the smaller of take
    /// and drop) beats playing on. A position where playing on beats the drop is too good
    /// to double.
    pub fn should_double(&self) -> bool {
        self.double_take.min(self.double_drop) > self.no_double
    }

    /// The opponent takes when taking loses less than the drop (ties are taken).
    pub fn should_take(&self) -> bool {
        self.double_take <= self.double_drop
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

    /// The least chance of winning (in steps of 0.001) at which a player may take, by the
    /// equities above.
    fn take_point(x: f32, gammons: impl Fn(f32) -> Probabilities) -> f32 {
        (0..=1000)
            .map(|i| i as f32 / 1000.0)
            .find(|&win| 2.0 * money_equity_with(&gammons(win), Owner::Player, false, x) >= -1.0)
            .unwrap()
    }

    #[test]
    fn the_dead_cube_take_point_is_25_percent() {
        assert!((take_point(0.0, race) - 0.25).abs() <= 0.001);
    }

    #[test]
    fn the_fully_live_cube_take_point_is_20_percent() {
        assert_eq!(live_points(1.0, 1.0), (0.2, 0.8));
        assert!((take_point(1.0, race) - 0.2).abs() <= 0.001);
    }

    #[test]
    fn the_take_point_at_the_usual_cube_efficiency_is_about_21_4_percent() {
        // Taker's equity with the cube: 0.68 * (-1 + 2.5p) + 0.32 * (2p - 1) = -1 + 2.34p,
        // which is -1/2 at p = 0.5 / 2.34 = 0.2137.
        let tp = take_point(CUBE_EFFICIENCY, race);
        assert!((tp - 0.214).abs() <= 0.001, "{tp}");
    }

    #[test]
    fn gammons_move_the_live_take_point() {
        // Half of the taker's losses are gammons: L = 1.5, W = 1, TP = 1 / 3.
        let (tp, cp) = live_points(1.0, 1.5);
        assert!((tp - 1.0 / 3.0).abs() < 1e-6 && (cp - 2.5 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn the_live_equity_passes_through_the_take_and_cash_points() {
        // W = L = 1: centred, -1 at 20 % and +1 at 80 %, 0 at 50 %.
        for (win, want) in [(0.2, -1.0), (0.5, 0.0), (0.8, 1.0), (0.0, -1.0), (1.0, 1.0)] {
            let e = live_equity(&race(win), Owner::Centred, false);
            assert!((e - want).abs() < 1e-5, "{win}: {e}");
        }
        // Owning the cube is worth something at 50 %: -1 + 2 * 0.5 / 0.8 = 0.25.
        let own = live_equity(&race(0.5), Owner::Player, false);
        assert!((own - 0.25).abs() < 1e-5);
        let theirs = live_equity(&race(0.5), Owner::Opponent, false);
        assert!((theirs + 0.25).abs() < 1e-5);
    }

    #[test]
    fn owning_the_cube_is_worth_its_value_and_jacoby_ignores_centred_gammons() {
        let p = Probabilities {
            win: 0.6,
            win_gammon: 0.2,
            ..Probabilities::default()
        };
        let mine = money_equity(&p, Owner::Player, false);
        let centred = money_equity(&p, Owner::Centred, false);
        let theirs = money_equity(&p, Owner::Opponent, false);
        assert!(mine > centred && centred > theirs);
        assert!(money_equity(&p, Owner::Centred, true) < centred);
        // Jacoby only matters while the cube is centred.
        assert_eq!(
            money_equity(&p, Owner::Player, true),
            money_equity(&p, Owner::Player, false)
        );
    }

    #[test]
    fn a_race_doubles_in_the_window_and_is_dropped_beyond_the_cash_point() {
        let at = |win| MoneyDecision::new(&race(win), true, false, CUBE_EFFICIENCY);
        assert!(!at(0.6).should_double());
        assert!(at(0.72).should_double() && at(0.72).should_take());
        assert!(at(0.9).should_double() && !at(0.9).should_take());
    }

    #[test]
    fn a_gammonish_position_beyond_the_cash_point_is_too_good() {
        let p = Probabilities {
            win: 0.9,
            win_gammon: 0.6,
            ..Probabilities::default()
        };
        let d = MoneyDecision::new(&p, true, false, CUBE_EFFICIENCY);
        assert!(!d.should_take() && !d.should_double());
        // Under the Jacoby rule the centred cube gets no gammons: cash.
        assert!(MoneyDecision::new(&p, true, true, CUBE_EFFICIENCY).should_double());
    }
}
