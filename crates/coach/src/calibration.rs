//! How well the nets' chances match the games their own play produces: 0-ply self-play from
//! the start, each position a net answers (not finished, not in the bear-off database) kept
//! with the nets' five chances for the player on roll, and, once the game ends, what that
//! player won or lost (a single game, a gammon or a backgammon). Over many games the mean
//! of each chance should equal the mean of its outcome; a gap is a bias that expert
//! iteration cannot remove (a search's labels are means of the same nets' leaves) and that
//! only a label grounded in finished games (an outcome, a rollout) can.
//!
//! Positions are classed by the nets' phase ([`Phase`]) and by the pips the two sides have
//! left together (the opening and early middle game at 250 and more), the classes
//! docs/bots.md reports the chequer error by.

use crate::td::{best_play, roll, to_array};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabula_ai::backgammon::nn::encode::Inputs;
use tabula_ai::backgammon::nn::{probabilities, NeuralEvaluator, Phase};
use tabula_ai::nn::net::{Net, OUTPUTS};
use tabula_tables::{MoveGen, Position, CHECKERS};

/// The pips of both sides together, in three bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PipBand {
    /// 250 and more: the opening and early middle game.
    Early,
    /// 150 to 249.
    Middle,
    /// Under 150.
    Late,
}

impl PipBand {
    /// The band of `pos`.
    pub fn of(pos: &Position) -> PipBand {
        let total = pos.mover_pips() + pos.opponent_pips();
        match total {
            250.. => PipBand::Early,
            150..=249 => PipBand::Middle,
            _ => PipBand::Late,
        }
    }
}

/// One kept position: its classes, the nets' chances and what the player on roll got.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Record {
    /// The nets' phase.
    pub phase: Phase,
    /// The pips of both sides.
    pub band: PipBand,
    /// The nets' chances for the player on roll (win, win gammon, win backgammon, lose
    /// gammon, lose backgammon; the gammons include backgammons).
    pub predicted: [f32; OUTPUTS],
    /// The game's outcome for that player in the same five terms, each 0 or 1.
    pub outcome: [f32; OUTPUTS],
    /// The net's five outputs before [`probabilities`] made them consistent.
    pub raw: [f32; OUTPUTS],
    /// Whether each output is the net's own (not forced to 0 by a side's borne-off
    /// checker): the gammons of a side are forced once the other has borne one off.
    pub free: [bool; OUTPUTS],
    /// The position, the player on roll's side up.
    pub pos: Position,
}

/// The outcome vector of a game the player on roll won (`won`) by `points` (1, 2 or 3).
fn outcome(won: bool, points: i32) -> [f32; OUTPUTS] {
    let at = |p: i32| f32::from(u8::from(points >= p));
    if won {
        [1.0, at(2), at(3), 0.0, 0.0]
    } else {
        [0.0, 0.0, 0.0, at(2), at(3)]
    }
}

/// The records of one game of 0-ply self-play by `nets` with dice from `seed`, every
/// position kept (at most 10,000 plies; a game that has not ended by then gives none).
pub fn game(nets: &NeuralEvaluator, seed: u64) -> Vec<Record> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut gen = MoveGen::new();
    let mut pos = Position::START;
    // The records and which side (the first mover or not) was on roll in each.
    let mut kept: Vec<(bool, Record)> = Vec::new();
    let mut inputs = Inputs::new();
    for ply in 0..10_000 {
        let first = ply % 2 == 0;
        if NeuralEvaluator::exact(&pos).is_none() {
            let phase = Phase::of(&pos);
            nets.encoding.encode(&pos, &mut inputs);
            let raw = nets.net(phase).forward(&inputs);
            let (wins, losses) = (pos.opponent_off() == 0, pos.mover_off() == 0);
            kept.push((
                first,
                Record {
                    phase,
                    band: PipBand::of(&pos),
                    predicted: to_array(&probabilities(raw, &pos)),
                    outcome: [0.0; OUTPUTS],
                    raw,
                    free: [true, wins, wins, losses, losses],
                    pos,
                },
            ));
        }
        match best_play(nets, &mut gen, &pos, roll(&mut rng)) {
            Some(after) if after.mover_off() == CHECKERS => {
                let points = <crate::rules::BackgammonRules as crate::rules::Rules>::points(&after);
                return kept
                    .into_iter()
                    .map(|(side, mut r)| {
                        r.outcome = outcome(side == first, points);
                        r
                    })
                    .collect();
            }
            Some(after) => pos = after.flip(),
            None => pos = pos.flip(),
        }
    }
    Vec::new()
}

/// The terms a summary compares: the five chances and the cubeless equity they make.
pub const TERMS: usize = OUTPUTS + 1;

/// The five chances of `x` and their cubeless money equity.
fn terms(x: &[f32; OUTPUTS]) -> [f64; TERMS] {
    let [w, wg, wbg, lg, lbg] = x.map(f64::from);
    [w, wg, wbg, lg, lbg, 2.0 * w - 1.0 + wg - lg + wbg - lbg]
}

/// The mean chances and outcomes of a class of records (and the cubeless equity of each,
/// the sixth term), with the standard error of their difference counted over games
/// (positions of one game are not independent).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Summary {
    /// Positions in the class.
    pub positions: usize,
    /// Games with a position in the class.
    pub games: usize,
    /// The mean of each term of the nets' chances.
    pub predicted: [f64; TERMS],
    /// The mean of each term of the outcomes.
    pub outcome: [f64; TERMS],
    /// The standard error of each mean difference (predicted minus outcome), by games.
    pub stderr: [f64; TERMS],
}

impl Summary {
    /// The mean of each term of the chances minus the mean of its outcome.
    pub fn bias(&self) -> [f64; TERMS] {
        std::array::from_fn(|k| self.predicted[k] - self.outcome[k])
    }
}

/// The summary of the records of `games` (one list a game) that `keep` accepts.
pub fn summarise(games: &[Vec<Record>], keep: impl Fn(&Record) -> bool) -> Summary {
    let mut s = Summary::default();
    // Per game: the sum of the differences and the count, for the clustered error.
    let mut per_game: Vec<([f64; TERMS], f64)> = Vec::new();
    for g in games {
        let mut sums = [0.0f64; TERMS];
        let mut n = 0.0;
        for r in g.iter().filter(|r| keep(r)) {
            let (p, o) = (terms(&r.predicted), terms(&r.outcome));
            for k in 0..TERMS {
                s.predicted[k] += p[k];
                s.outcome[k] += o[k];
                sums[k] += p[k] - o[k];
            }
            n += 1.0;
        }
        if n > 0.0 {
            per_game.push((sums, n));
        }
    }
    let total: f64 = per_game.iter().map(|(_, n)| n).sum();
    s.positions = total as usize;
    s.games = per_game.len();
    if total == 0.0 {
        return s;
    }
    for k in 0..TERMS {
        s.predicted[k] /= total;
        s.outcome[k] /= total;
    }
    let bias = s.bias();
    let g = per_game.len() as f64;
    for k in 0..TERMS {
        // The ratio estimator's variance: sum over games of (S_g - n_g * mean)^2, over N^2,
        // with the small-sample factor g / (g - 1).
        let ss: f64 = per_game
            .iter()
            .map(|(sums, n)| (sums[k] - n * bias[k]).powi(2))
            .sum();
        s.stderr[k] = (ss * g / (g - 1.0).max(1.0)).sqrt() / total;
    }
    s
}

/// A logistic recalibration of one output: `sigmoid(a * z + b)` in place of `sigmoid(z)`,
/// `z` the net's pre-activation (Platt scaling). `a` under 1 tempers the net's confidence,
/// `b` shifts the output's level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Platt {
    /// The slope on the pre-activation.
    pub a: f64,
    /// The shift.
    pub b: f64,
}

impl Platt {
    /// No change.
    pub const IDENTITY: Platt = Platt { a: 1.0, b: 0.0 };
}

/// The [`Platt`] recalibration that best predicts `outcomes` (each in `0..=1`) from the
/// pre-activations `z` (the maximum likelihood, by Newton's method from the identity).
pub fn fit_platt(z: &[f64], outcomes: &[f64]) -> Platt {
    let mut p = Platt::IDENTITY;
    for _ in 0..50 {
        // Gradient and Hessian of the negative log-likelihood in (a, b).
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (&x, &y) in z.iter().zip(outcomes) {
            let q = 1.0 / (1.0 + (-(p.a * x + p.b)).exp());
            let w = q * (1.0 - q);
            ga += (q - y) * x;
            gb += q - y;
            haa += w * x * x;
            hab += w * x;
            hbb += w;
        }
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-12 {
            break;
        }
        let da = (hbb * ga - hab * gb) / det;
        let db = (haa * gb - hab * ga) / det;
        p.a -= da;
        p.b -= db;
        if da.abs() < 1e-10 && db.abs() < 1e-10 {
            break;
        }
    }
    p
}

/// The recalibration of each of a net's five outputs that fits the records `keep` accepts
/// (only the outputs each record's net chose freely, [`Record::free`]).
pub fn fit_outputs(games: &[Vec<Record>], keep: impl Fn(&Record) -> bool) -> [Platt; OUTPUTS] {
    std::array::from_fn(|k| {
        let (mut z, mut y) = (Vec::new(), Vec::new());
        for r in games.iter().flatten().filter(|r| r.free[k] && keep(r)) {
            let q = f64::from(r.raw[k]).clamp(1e-7, 1.0 - 1e-7);
            z.push((q / (1.0 - q)).ln());
            y.push(f64::from(r.outcome[k]));
        }
        if z.is_empty() {
            Platt::IDENTITY
        } else {
            fit_platt(&z, &y)
        }
    })
}

/// Bakes `platt` into `net`'s output `k`: its row of output weights and its bias scaled by
/// `a`, `b` added to the bias, so that the net computes `sigmoid(a * z + b)` there.
pub fn recalibrate(net: &mut Net, k: usize, platt: Platt) {
    let row = &mut net.w2[k * net.hidden..(k + 1) * net.hidden];
    for w in row {
        *w = (f64::from(*w) * platt.a) as f32;
    }
    net.b2[k] = (f64::from(net.b2[k]) * platt.a + platt.b) as f32;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_outcomes_are_one_result_seen_from_both_sides() {
        let nets = NeuralEvaluator::shipped();
        let records = game(nets, 5);
        assert!(records.len() > 20, "{}", records.len());
        assert_eq!(records, game(nets, 5));
        // The player on roll alternates, so consecutive outcomes are the two sides' views.
        let first = records[0].outcome;
        assert!(first[0] == 0.0 || first[0] == 1.0);
        assert!(first[1] <= first[0] && first[2] <= first[1]);
        assert!(first[3] <= 1.0 - first[0] && first[4] <= first[3]);
        let second = records[1].outcome;
        assert_eq!(second[0], 1.0 - first[0]);
        assert_eq!([second[1], second[2]], [first[3], first[4]]);
        assert_eq!([second[3], second[4]], [first[1], first[2]]);
        assert!(records
            .iter()
            .all(|r| r.predicted.iter().all(|p| (0.0..=1.0).contains(p))));
        assert_eq!(records[0].band, PipBand::Early);
    }

    #[test]
    fn a_summary_counts_the_gap_and_its_error_by_games() {
        let r = |p: f32, o: f32| Record {
            phase: Phase::Contact,
            band: PipBand::Middle,
            predicted: [p; OUTPUTS],
            outcome: [o; OUTPUTS],
            raw: [p; OUTPUTS],
            free: [true; OUTPUTS],
            pos: Position::START,
        };
        let games = vec![vec![r(0.6, 1.0), r(0.6, 1.0)], vec![r(0.6, 0.0)], vec![]];
        let s = summarise(&games, |_| true);
        assert_eq!((s.positions, s.games), (3, 2));
        assert!((s.predicted[0] - 0.6).abs() < 1e-6);
        assert!((s.outcome[0] - 2.0 / 3.0).abs() < 1e-9);
        assert!((s.bias()[0] + 0.2 / 3.0).abs() < 1e-6);
        assert!(s.stderr[0] > 0.0);
        // The equity term: 0.6 of each chance is 2 * 0.6 - 1 = 0.2; the outcomes' mean
        // (1 + 1 - 1) / 3.
        assert!((s.predicted[5] - 0.2).abs() < 1e-6);
        assert!((s.outcome[5] - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(summarise(&games, |r| r.band == PipBand::Late).positions, 0);
    }

    #[test]
    fn platt_scaling_recovers_the_recalibration_that_made_the_outcomes() {
        let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
        let z: Vec<f64> = (0..400)
            .map(|i| -4.0 + 8.0 * f64::from(i) / 399.0)
            .collect();
        let y: Vec<f64> = z.iter().map(|&x| sig(0.8 * x - 0.1)).collect();
        let p = fit_platt(&z, &y);
        assert!(
            (p.a - 0.8).abs() < 1e-6 && (p.b + 0.1).abs() < 1e-6,
            "{p:?}"
        );
        // Calibrated outcomes give the identity.
        let y: Vec<f64> = z.iter().map(|&x| sig(x)).collect();
        let p = fit_platt(&z, &y);
        assert!((p.a - 1.0).abs() < 1e-6 && p.b.abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn a_recalibrated_net_computes_the_scaled_sigmoid() {
        let nets = NeuralEvaluator::shipped();
        let pos = Position::START;
        let mut inputs = Inputs::new();
        nets.encoding.encode(&pos, &mut inputs);
        let before = nets.contact.forward(&inputs);
        let mut net = nets.contact.clone();
        let platt = Platt { a: 0.7, b: -0.2 };
        recalibrate(&mut net, 1, platt);
        let after = net.forward(&inputs);
        let z = (f64::from(before[1]) / (1.0 - f64::from(before[1]))).ln();
        let want = 1.0 / (1.0 + (-(0.7 * z - 0.2)).exp());
        assert!(
            (f64::from(after[1]) - want).abs() < 1e-5,
            "{after:?} {want}"
        );
        for k in [0, 2, 3, 4] {
            assert_eq!(after[k], before[k], "{k}");
        }
    }
}
