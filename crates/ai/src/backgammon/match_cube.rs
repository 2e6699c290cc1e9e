//! Cubeful match-winning chances from cubeless chances: Janowski's interpolation carried
//! over to match play.
//!
//! **Dead cube.** Each outcome of the game (win or lose a single game, gammon or backgammon
//! at the cube's value) becomes match-winning chances (MWC) through the match equity table
//! ([`super::met`]): [`dead_chances`].
//!
//! **Fully live cube.** As for money ([`super::cubeful`]), the winning chance `p` is assumed
//! to move continuously, so that a player doubles exactly at the opponent's take point and
//! the opponent drops beyond it. The live MWC of the player is then piecewise linear in `p`,
//! through:
//!
//! - `(0, L)` and `(1, W)`: losing and winning the game at the cube's value, gammons and
//!   backgammons weighted by the position's shares of them (`L` and `W` are averages of
//!   MWC, not of points);
//! - the player's **cash point** `(CP, drop)`, where the opponent is indifferent between
//!   dropping (the player wins the cube's value) and taking the cube at twice the value,
//!   which the opponent would then own: `CP` solves `E_opp_owns(p, 2v) = MWC(+v)`;
//! - the player's **take point** `(TP, drop)` of the opponent's double to `2v`, where the
//!   player is indifferent between dropping (losing `v`) and owning the cube at `2v`:
//!   `TP` solves `E_player_owns(p, 2v) = MWC(-v)`.
//!
//! A cube held by the player has the first and the cash point; a cube held by the opponent
//! the take point; a centred cube both. The points are found recursively, each cube level
//! from the next: a cube whose owner would already win the match by winning at its value is
//! **dead** for them (redoubling can only cost), which ends the recursion, so the recursion
//! is at most as deep as the number of doublings a match allows.
//!
//! **The mix.** Real positions move in jumps; the value used is `x · live + (1 - x) · dead`
//! with the cube efficiency `x` of money play ([`super::cubeful::CUBE_EFFICIENCY`]). This is
//! the method gnubg's match cube at 0-ply is built on (Thyssen's generalisation of
//! Janowski); the formulas here were worked out from the description above.

use super::chances::Probabilities;
use super::met::{met, Crawford};

/// The score of a match as the deciding player sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    /// Points the player still needs.
    pub away_me: u32,
    /// Points the opponent still needs.
    pub away_opp: u32,
    /// The Crawford state of the games after this one.
    pub next: Crawford,
}

impl Score {
    /// Match-winning chances after this game ends with the player `points` ahead (negative:
    /// behind).
    pub fn after(&self, points: i64) -> f32 {
        let gained = points.unsigned_abs().min(u64::from(u32::MAX)) as u32;
        if points >= 0 {
            met(
                self.away_me.saturating_sub(gained),
                self.away_opp,
                self.next,
            )
        } else {
            met(
                self.away_me,
                self.away_opp.saturating_sub(gained),
                self.next,
            )
        }
    }

    /// The same score seen by the opponent.
    pub fn swapped(&self) -> Score {
        Score {
            away_me: self.away_opp,
            away_opp: self.away_me,
            next: self.next,
        }
    }
}

/// Who holds the cube, as seen by the player whose chances are valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// In the middle: either player may double.
    Centred,
    /// The player: only they may double.
    Player,
    /// The opponent: only they may double.
    Opponent,
}

impl From<super::cubeful::Owner> for Holder {
    fn from(owner: super::cubeful::Owner) -> Holder {
        use super::cubeful::Owner;
        match owner {
            Owner::Centred => Holder::Centred,
            Owner::Player => Holder::Player,
            Owner::Opponent => Holder::Opponent,
        }
    }
}

impl From<Holder> for super::cubeful::Owner {
    fn from(holder: Holder) -> super::cubeful::Owner {
        use super::cubeful::Owner;
        match holder {
            Holder::Centred => Owner::Centred,
            Holder::Player => Owner::Player,
            Holder::Opponent => Owner::Opponent,
        }
    }
}

impl Holder {
    /// Who holds a cube owned by `owner` (`None`: centred), seen by `player`.
    pub fn of(owner: Option<tabula_core::Color>, player: tabula_core::Color) -> Holder {
        match owner {
            None => Holder::Centred,
            Some(c) if c == player => Holder::Player,
            Some(_) => Holder::Opponent,
        }
    }
}

/// The shares of single games, gammons and backgammons among the wins and among the losses.
#[derive(Debug, Clone, Copy)]
struct Shares {
    win: [f32; 3],
    lose: [f32; 3],
}

impl Shares {
    fn of(p: &Probabilities) -> Shares {
        let split = |all: f32, gammon: f32, backgammon: f32| {
            if all > 1e-6 {
                let g = (gammon - backgammon).max(0.0) / all;
                let b = backgammon.max(0.0) / all;
                [(1.0 - g - b).max(0.0), g, b]
            } else {
                [1.0, 0.0, 0.0]
            }
        };
        Shares {
            win: split(p.win, p.win_gammon, p.win_backgammon),
            lose: split(1.0 - p.win, p.lose_gammon, p.lose_backgammon),
        }
    }

    fn swapped(&self) -> Shares {
        Shares {
            win: self.lose,
            lose: self.win,
        }
    }
}

/// Cubeless match-winning chances with `p` played out at a cube of `cube`.
pub fn dead_chances(p: &Probabilities, cube: u32, score: &Score) -> f32 {
    let c = i64::from(cube);
    let at = |points: i64| score.after(points * c);
    let win_single = p.win - p.win_gammon;
    let win_gammon = p.win_gammon - p.win_backgammon;
    let lose_single = (1.0 - p.win) - p.lose_gammon;
    let lose_gammon = p.lose_gammon - p.lose_backgammon;
    win_single * at(1)
        + win_gammon * at(2)
        + p.win_backgammon * at(3)
        + lose_single * at(-1)
        + lose_gammon * at(-2)
        + p.lose_backgammon * at(-3)
}

/// A piecewise linear function of the winning chance, through up to four points in
/// increasing `p`.
#[derive(Debug, Clone, Copy)]
struct Line {
    points: [(f32, f32); 4],
    len: usize,
}

impl Line {
    /// The line from `ends.0` to `ends.1` through the inner points that lie strictly
    /// between 0 and 1, in increasing `p` (no allocation: this runs for every play a hint or
    /// an analysis scores).
    fn new(ends: ((f32, f32), (f32, f32)), inner: [Option<(f32, f32)>; 2]) -> Line {
        let mut inner = inner.map(|q| q.filter(|&(x, _)| x > 0.0 && x < 1.0));
        if let [Some(a), Some(b)] = inner {
            if b.0 < a.0 {
                inner = [Some(b), Some(a)];
            }
        }
        let mut points = [ends.0; 4];
        let mut len = 1;
        for q in inner.into_iter().flatten() {
            points[len] = q;
            len += 1;
        }
        points[len] = ends.1;
        Line {
            points,
            len: len + 1,
        }
    }

    fn at(&self, p: f32) -> f32 {
        let p = p.clamp(0.0, 1.0);
        let pts = &self.points[..self.len];
        for w in pts.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0], w[1]);
            if p <= x1 {
                return if x1 > x0 {
                    y0 + (y1 - y0) * (p - x0) / (x1 - x0)
                } else {
                    y1
                };
            }
        }
        pts[self.len - 1].1
    }

    /// The least `p` where the line reaches `y` (0 or 1 when it is below or above `y`
    /// throughout).
    fn solve(&self, y: f32) -> f32 {
        let pts = &self.points[..self.len];
        if y <= pts[0].1 {
            return 0.0;
        }
        for w in pts.windows(2) {
            let ((x0, y0), (x1, y1)) = (w[0], w[1]);
            if y <= y1 && y1 > y0 {
                return x0 + (x1 - x0) * (y - y0) / (y1 - y0);
            }
        }
        1.0
    }
}

/// The fully live cube model of one position at one score.
#[derive(Debug, Clone, Copy)]
struct Live {
    score: Score,
    shares: Shares,
}

impl Live {
    /// The player's average MWC over their wins (`true`) or losses at cube `v`.
    fn end(&self, win: bool, v: u32) -> f32 {
        let (shares, sign) = if win {
            (self.shares.win, 1)
        } else {
            (self.shares.lose, -1)
        };
        (1..=3)
            .map(|k| shares[k as usize - 1] * self.score.after(sign * k * i64::from(v)))
            .sum()
    }

    fn opponent(&self) -> Live {
        Live {
            score: self.score.swapped(),
            shares: self.shares.swapped(),
        }
    }

    /// Whether the holder of a cube at `v` (the player) can still use it: winning at `v`
    /// does not already win them the match.
    fn alive(&self, v: u32) -> bool {
        self.score.away_me > v && v <= 1 << 12
    }

    /// The player's cash point with a cube at `v` they may turn: where the opponent is
    /// indifferent to a double to `2v`. `None` when the cube is dead for the player.
    fn cash_point(&self, v: u32) -> Option<f32> {
        if !self.alive(v) {
            return None;
        }
        // The opponent's take point of a double to 2v, in the opponent's chances.
        Some(1.0 - self.opponent().take_point(2 * v))
    }

    /// The player's take point of a double to `v` (the player would own the cube at `v`).
    fn take_point(&self, v: u32) -> f32 {
        self.line(Holder::Player, v)
            .solve(self.score.after(-i64::from(v / 2)))
    }

    /// The player's fully live MWC as a function of their winning chance.
    fn line(&self, holder: Holder, v: u32) -> Line {
        let ends = ((0.0, self.end(false, v)), (1.0, self.end(true, v)));
        let cash = || {
            self.cash_point(v)
                .map(|cp| (cp, self.score.after(i64::from(v))))
        };
        let take = || {
            let opp = self.opponent();
            opp.cash_point(v)
                .map(|cp| (1.0 - cp, self.score.after(-i64::from(v))))
        };
        let inner = match holder {
            Holder::Player => [cash(), None],
            Holder::Opponent => [take(), None],
            Holder::Centred => [take(), cash()],
        };
        Line::new(ends, inner)
    }
}

/// The player's cubeful MWC with cubeless chances `p`, the cube at `cube` held by `holder`,
/// with cube efficiency `x` (0: the dead cube; 1: the fully live cube).
pub fn cubeful_chances(p: &Probabilities, cube: u32, holder: Holder, score: &Score, x: f32) -> f32 {
    let live = Live {
        score: *score,
        shares: Shares::of(p),
    }
    .line(holder, cube)
    .at(p.win);
    x * live + (1.0 - x) * dead_chances(p, cube, score)
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

    fn score(away_me: u32, away_opp: u32) -> Score {
        Score {
            away_me,
            away_opp,
            next: Crawford::Pre,
        }
    }

    fn live(away_me: u32, away_opp: u32) -> Live {
        Live {
            score: score(away_me, away_opp),
            shares: Shares::of(&race(0.5)),
        }
    }

    #[test]
    fn a_dead_cube_take_point_comes_from_the_table_alone() {
        // At 2-away/2-away a doubled game decides the match, so the taker's cube is dead:
        // they take when p * 1 + (1 - p) * 0 >= MWC(2-away, 1-away, Crawford) = 32.264 %.
        let tp = live(2, 2).take_point(2);
        assert!((tp - 0.32264).abs() < 1e-4, "{tp}");
    }

    #[test]
    fn a_live_cube_lowers_the_take_point_at_a_long_even_score() {
        // Far from the end of a match the take point nears money's: 25 % dead, about 20 %
        // fully live.
        let tp = live(25, 25).take_point(2);
        assert!((0.17..0.23).contains(&tp), "{tp}");
        let dead = {
            let s = score(25, 25);
            let (lose, drop, win) = (s.after(-2), s.after(-1), s.after(2));
            (drop - lose) / (win - lose)
        };
        assert!((0.23..0.27).contains(&dead), "{dead}");
        assert!(tp < dead);
    }

    #[test]
    fn the_cash_point_mirrors_the_opponents_take_point() {
        let l = live(5, 3);
        let cp = l.cash_point(1).expect("alive");
        let opp_tp = l.opponent().take_point(2);
        assert!((cp - (1.0 - opp_tp)).abs() < 1e-6);
        // The leader at 1-away has no cash point: a single win ends the match.
        assert_eq!(live(1, 3).cash_point(1), None);
    }

    #[test]
    fn the_live_line_passes_through_its_points() {
        let l = live(7, 7);
        let line = l.line(Holder::Centred, 1);
        let cp = l.cash_point(1).expect("alive");
        assert!((line.at(cp) - l.score.after(1)).abs() < 1e-5);
        assert!((line.at(0.0) - l.score.after(-1)).abs() < 1e-5);
        assert!((line.at(1.0) - l.score.after(1)).abs() < 1e-5);
        // Increasing in p.
        let mut last = -1.0;
        for i in 0..=20 {
            let y = line.at(i as f32 / 20.0);
            assert!(y >= last - 1e-6);
            last = y;
        }
    }

    #[test]
    fn with_no_efficiency_the_value_is_the_dead_cube() {
        let p = Probabilities {
            win: 0.6,
            win_gammon: 0.2,
            lose_gammon: 0.1,
            ..Probabilities::default()
        };
        let s = score(5, 4);
        let dead = dead_chances(&p, 1, &s);
        assert!((cubeful_chances(&p, 1, Holder::Centred, &s, 0.0) - dead).abs() < 1e-6);
    }
}
