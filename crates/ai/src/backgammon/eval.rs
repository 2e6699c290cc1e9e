//! The hand-made evaluators: the baseline [`Heuristic`] and its tunable [`Weights`], behind
//! the [`Evaluator`] trait of `chances.rs` so that a neural evaluator can replace them.

use super::bearoff::BearoffDb;
use super::chances::{finished, Evaluator, Probabilities};
use tabula_tables::{Position, CHECKERS};

/// The baseline evaluator of hand-made features: pip counts, points made, primes, anchors,
/// blots and the shots at them, checkers on the bar. Weights are set by hand. Races in which
/// both sides have every checker left on their home points are answered exactly (one-sided)
/// from the bear-off database ([`super::bearoff`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Heuristic;

/// The numbers of the hand-made evaluation, named so that they can be tuned
/// (`selfplay::tune`); [`Weights::DEFAULT`] is what [`Heuristic`] uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Being on roll, in logistic units.
    pub on_roll: f32,
    /// Per pip of race lead.
    pub pip: f32,
    /// Per made home point (weighted: the 4-, 5- and 6-points count 1.5x the low ones).
    pub home_point: f32,
    /// Per anchor in the opponent's home board.
    pub anchor: f32,
    /// Per point of the longest prime (from 3 points).
    pub prime: f32,
    /// Per own blot in direct range (a blot out of range counts a fifth).
    pub own_blot: f32,
    /// Per opposing blot in direct range.
    pub their_blot: f32,
    /// Per checker on the bar.
    pub bar: f32,
    /// Per trapped checker (Never-Finishing).
    pub trapped: f32,
    /// Gammon threat per attacking home point.
    pub gammon_home: f32,
    /// Gammon threat per point of the attacker's prime.
    pub gammon_prime: f32,
    /// Gammon threat per victim checker on the bar.
    pub gammon_bar: f32,
    /// Gammon threat per victim checker back.
    pub gammon_back: f32,
}

impl Weights {
    /// The weights in use: the hand-set baseline. The self-play tuner
    /// (`cargo run --release -p tabula-coach --example tune`) finds weights that beat these by a
    /// quarter of a point per cubeless 0-ply game, but GNU Backgammon's analysis rated their
    /// play no better and their cube play worse (docs/bots.md), so they are not used.
    pub const DEFAULT: Weights = Weights {
        on_roll: 0.2,
        pip: 0.022,
        home_point: 0.22,
        anchor: 0.18,
        prime: 0.15,
        own_blot: 0.10,
        their_blot: 0.25,
        bar: 0.45,
        trapped: 0.6,
        gammon_home: 0.08,
        gammon_prime: 0.05,
        gammon_bar: 0.15,
        gammon_back: 0.03,
    };

    /// The weights as a vector (for tuning), in field order.
    pub fn to_vec(&self) -> Vec<f32> {
        vec![
            self.on_roll,
            self.pip,
            self.home_point,
            self.anchor,
            self.prime,
            self.own_blot,
            self.their_blot,
            self.bar,
            self.trapped,
            self.gammon_home,
            self.gammon_prime,
            self.gammon_bar,
            self.gammon_back,
        ]
    }

    /// The weights from [`Weights::to_vec`]'s order.
    pub fn from_slice(v: &[f32]) -> Option<Weights> {
        let [on_roll, pip, home_point, anchor, prime, own_blot, their_blot, bar, trapped, gammon_home, gammon_prime, gammon_bar, gammon_back] =
            *v
        else {
            return None;
        };
        Some(Weights {
            on_roll,
            pip,
            home_point,
            anchor,
            prime,
            own_blot,
            their_blot,
            bar,
            trapped,
            gammon_home,
            gammon_prime,
            gammon_bar,
            gammon_back,
        })
    }
}

/// The hand-made evaluation with given weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weighted(pub Weights);

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Features of one side, seen from that side as the mover.
struct Side {
    home_points: f32,
    anchors: f32,
    prime: f32,
    blots: f32,
    on_bar: f32,
    back_checkers: f32,
    /// Own checkers trapped under opposing ones (Never-Finishing).
    trapped: f32,
}

fn side_features(pos: &Position) -> Side {
    let made = |i: usize| pos.mover_on(i) >= 2;
    let mut home_points = 0.0;
    for i in 1..=6 {
        if made(i) {
            home_points += if i >= 4 { 1.2 } else { 0.8 };
        }
    }
    let anchors = (19..=24).filter(|&i| made(i)).count() as f32;
    let (mut prime, mut run) = (0u32, 0u32);
    for i in 1..=24 {
        run = if made(i) { run + 1 } else { 0 };
        prime = prime.max(run);
    }
    // A blot costs by the number of opposing checkers within direct range behind it.
    let mut blots = 0.0;
    for i in 1..=24 {
        if pos.mover_on(i) == 1 {
            let shooters: u32 = (i + 1..=(i + 6).min(24))
                .map(|j| u32::from(pos.opponent_on(j)))
                .sum::<u32>()
                + if i >= 19 {
                    u32::from(pos.opponent_on(0))
                } else {
                    0
                };
            blots += if shooters > 0 { 1.0 } else { 0.2 };
        }
    }
    Side {
        home_points,
        anchors,
        prime: if prime >= 3 { prime as f32 } else { 0.0 },
        blots,
        on_bar: f32::from(pos.mover_on(25)),
        back_checkers: (19..=25).map(|i| f32::from(pos.mover_on(i))).sum(),
        trapped: (1..=24)
            .filter(|&i| pos.pip(i) < 0 && pos.is_trapped(i))
            .count() as f32,
    }
}

impl Evaluator for Heuristic {
    fn evaluate(&self, pos: &Position) -> Probabilities {
        Weighted(Weights::DEFAULT).evaluate(pos)
    }
}

impl Evaluator for Weighted {
    fn evaluate(&self, pos: &Position) -> Probabilities {
        let w = &self.0;
        if pos.opponent_off() == CHECKERS {
            return finished(pos);
        }
        if pos.mover_off() == CHECKERS {
            return finished(&pos.flip()).flip();
        }
        if let Some(p) = BearoffDb::get().chances(pos) {
            return p;
        }
        let (mine, theirs) = (pos.mover_pips() as f32, pos.opponent_pips() as f32);
        let mean = (mine + theirs) / 2.0;
        if pos.is_race() {
            // Being on roll is worth about four pips; the spread grows with the race length.
            let win = logistic((theirs - mine + 4.0) / (0.08 * mean + 2.0));
            let gammon = |p: &Position, win: f32| {
                if p.opponent_off() > 0 {
                    0.0
                } else {
                    let far: f32 = (7..=24)
                        .map(|i| f32::from(p.opponent_on(i)) * (i - 6) as f32)
                        .sum();
                    win * logistic((far - 0.5 * p.mover_pips() as f32) / 6.0)
                }
            };
            return Probabilities {
                win,
                win_gammon: gammon(pos, win),
                win_backgammon: 0.0,
                lose_gammon: gammon(&pos.flip(), 1.0 - win),
                lose_backgammon: 0.0,
            };
        }
        let (me, them) = (side_features(pos), side_features(&pos.flip()));
        let score = w.on_roll
            + w.pip * (theirs - mine)
            + w.home_point * (me.home_points - them.home_points)
            + w.anchor * (me.anchors - them.anchors)
            + w.prime * (me.prime - them.prime)
            // On roll, the opponent's blots are targets now; ours can be hit only next turn.
            - w.own_blot * me.blots
            + w.their_blot * them.blots
            - w.bar * me.on_bar
            + w.bar * them.on_bar
            // A trapped checker can neither move nor let its side bear off.
            - w.trapped * me.trapped
            + w.trapped * them.trapped;
        let win = logistic(score);
        let threat = |attacker: &Side, victim: &Side| {
            (w.gammon_home * attacker.home_points
                + w.gammon_prime * attacker.prime
                + w.gammon_bar * victim.on_bar
                + w.gammon_back * victim.back_checkers)
                .min(0.6)
        };
        let win_gammon = win * win * threat(&me, &them);
        let lose_gammon = (1.0 - win) * (1.0 - win) * threat(&them, &me);
        Probabilities {
            win,
            win_gammon,
            win_backgammon: win_gammon * 0.1,
            lose_gammon,
            lose_backgammon: lose_gammon * 0.1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_about_even_and_favours_the_roller() {
        let p = Heuristic.evaluate(&Position::START);
        assert!((0.5..0.65).contains(&p.win), "{p:?}");
    }

    #[test]
    fn a_big_race_lead_wins_most_games() {
        let mut me = [0u8; 25];
        me[0] = 10; // 10 pips
        let mut them = [0u8; 25];
        them[5] = 15; // 90 pips
        let pos = Position::from_counts(&me, &them).unwrap();
        let p = Heuristic.evaluate(&pos);
        assert!(p.win > 0.95, "{p:?}");
        assert!((p.flip().flip().win - p.win).abs() < 1e-6);
    }

    #[test]
    fn a_lost_game_is_scored_as_lost() {
        let mut me = [0u8; 25];
        me[20] = 15;
        let pos = Position::from_counts(&me, &[0; 25]).unwrap();
        let p = Heuristic.evaluate(&pos);
        assert_eq!((p.win, p.lose_gammon, p.lose_backgammon), (0.0, 1.0, 1.0));
        assert_eq!(p.equity(), -3.0);
    }
}
