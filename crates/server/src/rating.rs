//! Player ratings for the game server. Pure computation, no IO: callers load
//! ratings, call an update function after a finished game and store the result.
//!
//! * **Glicko-2** ([`Glicko2`]) is kept per game type for every game. It
//!   follows Mark Glickman, "Example of the Glicko-2 system" (2013), steps 1–8
//!   with the Illinois iteration for the volatility; values are stored on the
//!   Glicko (1500) scale.
//! * **FIBS formula** ([`FibsRating`], [`fibs_update`]) is kept additionally
//!   for backgammon *matches*, so numbers are comparable with what the
//!   backgammon community knows from FIBS.
//!
//! Glicko-2 is defined for rating periods of several games, but an online
//! server has no natural period boundary. Like lichess and other online
//! servers, every finished game is therefore its own rating period with one
//! opponent ([`Glicko2::update`]): ratings move right after the game, nobody
//! waits for a batch job, and the deviation still grows in step 6 of every
//! update. [`Glicko2::update_period`] is the general case.
//!
//! Constants: Glicko-2 starts at 1500 / 350 / 0.06 with [`TAU`] = 0.5,
//! [`EPSILON`] = 1e-6, [`GLICKO2_SCALE`] = 173.7178, and deviations clamped to
//! [`MAX_DEVIATION`] = 350. FIBS starts at 1500 with experience 0; a match of
//! length n moves a rating by 4·sqrt(n)·P times the ratings boost
//! K = max(1, 5 − (experience + n)/100).

use serde::{Deserialize, Serialize};

/// Glicko-2 system constant τ (constrains the change in volatility).
pub const TAU: f64 = 0.5;
/// Convergence tolerance ε of the volatility iteration (step 5).
pub const EPSILON: f64 = 1e-6;
/// Conversion factor between the Glicko and Glicko-2 scales (≈ 400 / ln 10).
pub const GLICKO2_SCALE: f64 = 173.7178;
/// Rating of a new player, on the Glicko scale.
pub const DEFAULT_RATING: f64 = 1500.0;
/// Rating deviation of a new player; also the upper clamp for deviations.
pub const MAX_DEVIATION: f64 = 350.0;
/// Volatility of a new player.
pub const DEFAULT_VOLATILITY: f64 = 0.06;
/// Rating of a new player in the FIBS system.
pub const FIBS_INITIAL_RATING: f64 = 1500.0;

/// A Glicko-2 rating on the Glicko (1500) scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Glicko2 {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko2 {
    fn default() -> Self {
        Glicko2 {
            rating: DEFAULT_RATING,
            deviation: MAX_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
        }
    }
}

/// The paper's g(φ): dampens the impact of an opponent with a large deviation.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The paper's E(μ, μ_j, φ_j), with `g_j = g(φ_j)` precomputed.
fn expectation(mu: f64, mu_j: f64, g_j: f64) -> f64 {
    1.0 / (1.0 + (-g_j * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// Step 2: μ on the Glicko-2 scale.
    fn mu(&self) -> f64 {
        (self.rating - DEFAULT_RATING) / GLICKO2_SCALE
    }

    /// Step 2: φ on the Glicko-2 scale.
    fn phi(&self) -> f64 {
        self.deviation / GLICKO2_SCALE
    }

    /// Expected score (0..=1) of `self` against `opponent`. Both deviations
    /// count (combined as sqrt(φ² + φ_j²), as in Glickman's predicted
    /// outcome), so the result is symmetric: `a.e(b) + b.e(a) == 1`.
    pub fn expected_score(&self, opponent: &Glicko2) -> f64 {
        let phi = self.phi().hypot(opponent.phi());
        expectation(self.mu(), opponent.mu(), g(phi))
    }

    /// Rating after one game against `opponent`, treated as a rating period
    /// of its own. `score` is 1 for a win, 0.5 for a draw and 0 for a loss.
    pub fn update(&self, opponent: &Glicko2, score: f64) -> Glicko2 {
        self.update_period(&[(*opponent, score)])
    }

    /// Rating after a rating period with `results` as (opponent, score)
    /// pairs (steps 1–8 of the paper). An empty period only increases the
    /// deviation (step 6). The deviation is clamped to [`MAX_DEVIATION`].
    pub fn update_period(&self, results: &[(Glicko2, f64)]) -> Glicko2 {
        let (mu, phi, sigma) = (self.mu(), self.phi(), self.volatility);
        // Steps 3 and 4: estimated variance v and improvement Δ = v·sum.
        let (mut inv_v, mut sum) = (0.0, 0.0);
        for (opponent, score) in results {
            debug_assert!((0.0..=1.0).contains(score), "score {score} not in [0, 1]");
            let g_j = g(opponent.phi());
            let e = expectation(mu, opponent.mu(), g_j);
            inv_v += g_j * g_j * e * (1.0 - e);
            sum += g_j * (score - e);
        }
        if inv_v <= 0.0 {
            // No games, or only games with no information (E exactly 0 or 1).
            let phi_star = phi.hypot(sigma);
            return Glicko2 {
                deviation: (phi_star * GLICKO2_SCALE).min(MAX_DEVIATION),
                ..*self
            };
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: new volatility.
        let sigma = new_volatility(phi, sigma, v, delta);
        // Steps 6 and 7: new deviation and rating.
        let phi_star = phi.hypot(sigma);
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        // Step 8: back to the Glicko scale.
        Glicko2 {
            rating: mu_new * GLICKO2_SCALE + DEFAULT_RATING,
            deviation: (phi_new * GLICKO2_SCALE).min(MAX_DEVIATION),
            volatility: sigma,
        }
    }
}

/// Step 5: the new volatility σ', found with the Illinois algorithm.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let (phi2, delta2) = (phi * phi, delta * delta);
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut lo = a;
    let mut hi = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_lo, mut f_hi) = (f(lo), f(hi));
    while (hi - lo).abs() > EPSILON {
        let c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        let f_c = f(c);
        // `<=` (not `<`): a root hit exactly must end the loop.
        if f_c * f_hi <= 0.0 {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;
        }
        hi = c;
        f_hi = f_c;
    }
    (lo / 2.0).exp()
}

/// A FIBS-style backgammon match rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FibsRating {
    pub rating: f64,
    /// Sum of the lengths of all rated matches played.
    pub experience: u32,
}

impl Default for FibsRating {
    fn default() -> Self {
        FibsRating {
            rating: FIBS_INITIAL_RATING,
            experience: 0,
        }
    }
}

impl FibsRating {
    /// FIBS's ratings boost K = max(1, 5 − (experience + n)/100): new players
    /// (experience below 400) move faster.
    pub fn boost(&self, match_length: u32) -> f64 {
        let exp = f64::from(self.experience) + f64::from(match_length);
        (5.0 - exp / 100.0).max(1.0)
    }
}

/// Probability that `player` wins a match of `match_length` points against
/// `opponent`: FIBS's P(underdog) = 1 / (10^(D·sqrt(n)/2000) + 1) with
/// D = |Ra − Rb|, written with a signed difference so it covers both sides.
pub fn fibs_win_probability(player: &FibsRating, opponent: &FibsRating, match_length: u32) -> f64 {
    let d = (opponent.rating - player.rating) * f64::from(match_length).sqrt();
    1.0 / (10f64.powf(d / 2000.0) + 1.0)
}

/// New (winner, loser) ratings after a match of `match_length` points.
///
/// The base change is 4·sqrt(n) times the probability that the *loser*
/// would have won; each side's change is scaled by its own boost K, and both
/// experiences grow by n. A match of length 0 changes nothing.
pub fn fibs_update(
    winner: &FibsRating,
    loser: &FibsRating,
    match_length: u32,
) -> (FibsRating, FibsRating) {
    let p_loser = fibs_win_probability(loser, winner, match_length);
    let base = 4.0 * f64::from(match_length).sqrt() * p_loser;
    let new_winner = FibsRating {
        rating: winner.rating + base * winner.boost(match_length),
        experience: winner.experience.saturating_add(match_length),
    };
    let new_loser = FibsRating {
        rating: loser.rating - base * loser.boost(match_length),
        experience: loser.experience.saturating_add(match_length),
    };
    (new_winner, new_loser)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glicko(rating: f64, deviation: f64, volatility: f64) -> Glicko2 {
        Glicko2 {
            rating,
            deviation,
            volatility,
        }
    }

    fn assert_close(actual: f64, expected: f64, tol: f64) {
        assert!(
            (actual - expected).abs() <= tol,
            "{actual} != {expected} ± {tol}"
        );
    }

    #[test]
    fn glicko2_default_is_1500_350_006() {
        assert_eq!(Glicko2::default(), glicko(1500.0, 350.0, 0.06));
    }

    #[test]
    fn glicko2_paper_example_matches_glickman() {
        let results = [
            (glicko(1400.0, 30.0, 0.06), 1.0),
            (glicko(1550.0, 100.0, 0.06), 0.0),
            (glicko(1700.0, 300.0, 0.06), 0.0),
        ];
        let new = glicko(1500.0, 200.0, 0.06).update_period(&results);
        // The paper rounds intermediate values; unrounded, r' = 1464.0507.
        assert_close(new.rating, 1464.06, 0.02);
        assert_close(new.deviation, 151.52, 0.01);
        assert_close(new.volatility, 0.05999, 0.00001);
    }

    #[test]
    fn glicko2_empty_period_only_increases_deviation() {
        let new = glicko(1600.0, 200.0, 0.06).update_period(&[]);
        assert_eq!((new.rating, new.volatility), (1600.0, 0.06));
        assert_close(new.deviation, 200f64.hypot(0.06 * GLICKO2_SCALE), 1e-9);
        assert!(new.deviation > 200.0);
    }

    #[test]
    fn glicko2_deviation_is_clamped_to_350() {
        let rested = Glicko2::default().update_period(&[]);
        assert_eq!(rested.deviation, MAX_DEVIATION);
        let new = glicko(1500.0, 349.9, 0.06).update(&Glicko2::default(), 0.5);
        assert!(new.deviation <= MAX_DEVIATION);
    }

    #[test]
    fn glicko2_single_game_update_equals_period_of_one() {
        let (a, b) = (glicko(1520.0, 80.0, 0.06), glicko(1480.0, 120.0, 0.07));
        assert_eq!(a.update(&b, 1.0), a.update_period(&[(b, 1.0)]));
    }

    #[test]
    fn glicko2_win_raises_loss_lowers_draw_between_equals_keeps_rating() {
        let (a, b) = (Glicko2::default(), Glicko2::default());
        assert!(a.update(&b, 1.0).rating > 1500.0);
        assert!(a.update(&b, 0.0).rating < 1500.0);
        let draw = a.update(&b, 0.5);
        assert_close(draw.rating, 1500.0, 1e-9);
        assert!(draw.deviation < 350.0);
    }

    #[test]
    fn glicko2_expected_score_is_symmetric() {
        let (a, b) = (glicko(1700.0, 60.0, 0.06), glicko(1500.0, 150.0, 0.06));
        assert_close(a.expected_score(&b) + b.expected_score(&a), 1.0, 1e-12);
        assert!(a.expected_score(&b) > 0.5);
        assert_close(a.expected_score(&a), 0.5, 1e-12);
    }

    #[test]
    fn glicko2_big_upset_takes_large_delta_branch() {
        // Δ² > φ² + v: the iteration starts from ln(Δ² − φ² − v).
        let new = glicko(1200.0, 30.0, 0.06).update(&glicko(2200.0, 30.0, 0.06), 1.0);
        assert!(new.rating.is_finite() && new.rating > 1200.0, "{new:?}");
        assert!(new.volatility > 0.06, "{new:?}");
    }

    fn fibs(rating: f64, experience: u32) -> FibsRating {
        FibsRating { rating, experience }
    }

    #[test]
    fn fibs_default_is_1500_with_no_experience() {
        assert_eq!(FibsRating::default(), fibs(1500.0, 0));
    }

    #[test]
    fn fibs_equal_experienced_one_point_match_moves_two_points() {
        let (w, l) = fibs_update(&fibs(1500.0, 1000), &fibs(1500.0, 1000), 1);
        assert_close(w.rating, 1502.0, 1e-12);
        assert_close(l.rating, 1498.0, 1e-12);
        assert_eq!((w.experience, l.experience), (1001, 1001));
    }

    #[test]
    fn fibs_underdog_win_gains_more_than_favourite_win() {
        let (strong, weak) = (fibs(1800.0, 1000), fibs(1500.0, 1000));
        let favourite_gain = fibs_update(&strong, &weak, 5).0.rating - 1800.0;
        let underdog_gain = fibs_update(&weak, &strong, 5).0.rating - 1500.0;
        assert!(underdog_gain > favourite_gain && favourite_gain > 0.0);
        // The two base amounts are 4·sqrt(n)·P and 4·sqrt(n)·(1 − P).
        assert_close(underdog_gain + favourite_gain, 4.0 * 5f64.sqrt(), 1e-9);
    }

    #[test]
    fn fibs_sum_is_conserved_when_both_have_k_one() {
        let (a, b) = (fibs(1650.0, 400), fibs(1720.0, 5000));
        let (w, l) = fibs_update(&a, &b, 7);
        assert_close(w.rating + l.rating, a.rating + b.rating, 1e-9);
    }

    #[test]
    fn fibs_boost_for_new_players() {
        assert_close(fibs(1500.0, 0).boost(1), 4.99, 1e-12);
        assert_eq!(fibs(1500.0, 399).boost(1), 1.0);
        let (w, l) = fibs_update(&fibs(1500.0, 0), &fibs(1500.0, 1000), 1);
        assert_close(w.rating, 1500.0 + 2.0 * 4.99, 1e-9);
        assert_close(l.rating, 1498.0, 1e-9);
    }
}
