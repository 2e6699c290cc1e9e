//! Many positions evaluated at once with the first layer updated incrementally
//! ([`crate::nn::incremental`]): the candidates of a roll, or any list of positions.
//!
//! The per-point encoding ([`super::encode`]) gives each point of each side four inputs from
//! that point's checker count alone, and each side three counts (bar, off, pips). So the
//! inputs of two positions differ only at the points whose counts differ and at the counts:
//! after the first position a net judges has its hidden sums computed in full, every later one
//! for that net starts from those sums and adds the rows of its differences (a play moves
//! two to four checkers: some ten rows instead of forty-odd). Finished boards and the
//! bear-off database's positions keep their exact answers. Nets that read the hand-crafted
//! features ([`Encoding::Features`]) count them for every position (they change across the
//! board) and add the rows of the features that differ from the first position's.
//!
//! The rows of a position's differences, its sigmoid and its output layer are one fused pass
//! ([`crate::nn::net::Net::forward_from`]): the sums are never written back. A look-ahead
//! puts the position itself first and the candidates of all 21 rolls after it
//! ([`crate::study::nply::best_plays_0ply`]): one full first layer a node, and every
//! candidate one play away from it.

use super::encode::{Encoding, Inputs, INPUTS, PER_POINT, PER_SIDE};
use super::features;
use super::{probabilities, NeuralEvaluator, Phase};
use crate::backgammon::Probabilities;
use tabula_tables::{Position, CHECKERS};

/// What the per-point encoding reads of one side: its checkers on its own points 1..=24 and
/// on the bar ([`Position::to_counts`], the bar at index 24), and its checkers off.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Side {
    points: [u8; 25],
    off: u8,
}

impl Side {
    /// The pip count as the encoding counts it: a checker on the bar is 25 away.
    fn pips(&self) -> u32 {
        self.points
            .iter()
            .enumerate()
            .map(|(p, &n)| u32::from(n) * (p as u32 + 1))
            .sum()
    }
}

/// The two sides of `pos` as the encoding reads them: the player on roll's, the opponent's.
fn sides(pos: &Position) -> [Side; 2] {
    let [mine, theirs] = pos.to_counts();
    [
        Side {
            points: mine,
            off: pos.mover_off(),
        },
        Side {
            points: theirs,
            off: pos.opponent_off(),
        },
    ]
}

/// The four inputs of a point holding `n` checkers (as [`encode`] writes them).
fn point_inputs(n: u8) -> [f32; PER_POINT] {
    [
        f32::from(u8::from(n >= 1)),
        f32::from(u8::from(n >= 2)),
        f32::from(u8::from(n >= 3)),
        if n > 3 { f32::from(n - 3) / 2.0 } else { 0.0 },
    ]
}

/// A side's three counts as inputs: bar, off, pips.
fn count_inputs(s: &Side) -> [f32; 3] {
    [
        f32::from(s.points[24]) / 2.0,
        f32::from(s.off) / 15.0,
        s.pips() as f32 / 100.0,
    ]
}

/// The points (0..24, the bar not included) whose counts differ, found eight at a time: a
/// play changes a few points, and most words of eight are equal.
fn changed_points(a: &[u8; 25], b: &[u8; 25]) -> impl Iterator<Item = usize> {
    let word = |c: &[u8; 25], k: usize| {
        u64::from_le_bytes(c[8 * k..8 * k + 8].try_into().expect("eight bytes"))
    };
    let mut mask = 0u32;
    for k in 0..3 {
        let mut x = word(a, k) ^ word(b, k);
        while x != 0 {
            let j = x.trailing_zeros() / 8;
            mask |= 1 << (8 * k as u32 + j);
            x &= !(0xff << (8 * j));
        }
    }
    std::iter::successors((mask != 0).then_some(mask), |&m| {
        let m = m & (m - 1);
        (m != 0).then_some(m)
    })
    .map(|m| m.trailing_zeros() as usize)
}

/// Both sides' count inputs ([`count_inputs`]).
fn counts(s: &[Side; 2]) -> [[f32; 3]; 2] {
    [count_inputs(&s[0]), count_inputs(&s[1])]
}

/// Calls `row(input, delta)` for every input that differs from `from` (whose count inputs
/// are `from_counts`, [`counts`]) to `to`.
fn differences(
    from: &[Side; 2],
    from_counts: &[[f32; 3]; 2],
    to: &[Side; 2],
    mut row: impl FnMut(usize, f32),
) {
    for (k, (a, b)) in from.iter().zip(to).enumerate() {
        let base = k * PER_SIDE;
        for p in changed_points(&a.points, &b.points) {
            let (x, y) = (point_inputs(a.points[p]), point_inputs(b.points[p]));
            for u in 0..PER_POINT {
                if x[u] != y[u] {
                    row(base + p * PER_POINT + u, y[u] - x[u]);
                }
            }
        }
        let (x, y) = (from_counts[k], count_inputs(b));
        for u in 0..3 {
            if x[u] != y[u] {
                row(base + 24 * PER_POINT + u, y[u] - x[u]);
            }
        }
    }
}

/// The hand-crafted feature inputs of a position (zero for nets without them, the first ten
/// for nets without the further ones).
type Features = [f32; 2 * (features::PER_SIDE + features::EXTRA_PER_SIDE)];

/// The first position a net judges in a batch: its sides, features and hidden sums.
struct Base {
    sides: [Side; 2],
    counts: [[f32; 3]; 2],
    features: Features,
    sums: Vec<f32>,
}

impl NeuralEvaluator {
    /// The chances of each of `positions` into `out` (cleared first), as
    /// [`Evaluator::evaluate`] gives them one by one, within rounding (module docs).
    pub fn evaluate_batch(&self, positions: &[Position], out: &mut Vec<Probabilities>) {
        self.evaluate_batch_alone(positions, out);
        if let Some(partner) = &self.partner {
            let mut theirs = Vec::with_capacity(positions.len());
            partner.evaluate_batch(positions, &mut theirs);
            for (own, other) in out.iter_mut().zip(&theirs) {
                *own = own.mean(other);
            }
        }
    }

    /// [`NeuralEvaluator::evaluate_batch`] on these nets alone, the partner left out.
    fn evaluate_batch_alone(&self, positions: &[Position], out: &mut Vec<Probabilities>) {
        out.clear();
        let encoding = self.encoding;
        let mut bases: [Option<Base>; 3] = [None, None, None];
        let mut rows: Vec<(usize, f32)> = Vec::with_capacity(64);
        let mut inputs = Inputs::new();
        for pos in positions {
            // Only a finished board or a race can be known exactly (the bear-off database
            // holds races alone), so a contact position skips the database's checks.
            let race = pos.is_race();
            let finished = pos.mover_off() == CHECKERS || pos.opponent_off() == CHECKERS;
            if race || finished {
                if let Some(p) = NeuralEvaluator::exact(pos) {
                    out.push(p);
                    continue;
                }
            }
            let phase = Phase::knowing_race(pos, race);
            let net = self.net(phase);
            let slot = &mut bases[self.slot(phase)];
            let s = sides(pos);
            let on_points = |side: &Side| -> [u8; 24] { std::array::from_fn(|i| side.points[i]) };
            let [mine, theirs] = &s;
            let mut f: Features = [0.0; 2 * (features::PER_SIDE + features::EXTRA_PER_SIDE)];
            match encoding {
                Encoding::Points => {}
                Encoding::Features => f[..2 * features::PER_SIDE].copy_from_slice(&features::both(
                    &on_points(mine),
                    mine.points[24],
                    &on_points(theirs),
                    theirs.points[24],
                )),
                Encoding::Extended => {
                    f = features::both_extended(
                        &on_points(mine),
                        mine.points[24],
                        &on_points(theirs),
                        theirs.points[24],
                    )
                }
            }
            let raw = match slot {
                None => {
                    self.encoding.encode(pos, &mut inputs);
                    let mut base_sums = vec![0.0; net.hidden];
                    net.pre_activations(&inputs, &mut base_sums);
                    let raw = net.forward_from(&base_sums, &[]);
                    *slot = Some(Base {
                        counts: counts(&s),
                        sides: s,
                        features: f,
                        sums: base_sums,
                    });
                    raw
                }
                Some(base) => {
                    rows.clear();
                    differences(&base.sides, &base.counts, &s, |i, d| rows.push((i, d)));
                    for (k, (a, b)) in base.features.iter().zip(&f).enumerate() {
                        if a != b {
                            rows.push((INPUTS + k, b - a));
                        }
                    }
                    net.forward_from(&base.sums, &rows)
                }
            };
            out.push(probabilities(raw, pos));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::nn::encode;
    use crate::backgammon::Evaluator;
    use tabula_core::{Dice, Die};
    use tabula_tables::MoveGen;

    /// Positions of a seeded random game, and the candidates of a roll in each.
    fn batches() -> Vec<Vec<Position>> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut gen = MoveGen::new();
        let mut pos = Position::START;
        let mut out = Vec::new();
        while out.len() < 300 {
            if pos.mover_off() == 15 || pos.opponent_off() == 15 {
                pos = Position::START;
            }
            let d = |r: &mut rand_chacha::ChaCha8Rng| Die::new(r.gen_range(1..=6)).unwrap();
            let dice = Dice::from_values(d(&mut rng), d(&mut rng));
            let plays = gen.positions(&pos, dice).to_vec();
            out.push(plays.iter().map(|p| p.flip()).collect());
            if !plays.is_empty() {
                pos = plays[rng.gen_range(0..plays.len())];
            }
            pos = pos.flip();
        }
        out
    }

    #[test]
    fn a_batch_equals_one_evaluation_at_a_time() {
        // The shipped nets, and nets of every other encoding (random weights, the shipped
        // sizes), so that the per-point, the feature and the extended path are all checked.
        let shipped = NeuralEvaluator::shipped();
        let others: Vec<NeuralEvaluator> =
            [Encoding::Points, Encoding::Features, Encoding::Extended]
                .into_iter()
                .filter(|&e| e != shipped.encoding)
                .map(|e| NeuralEvaluator::random(e, shipped.contact.hidden, shipped.race.hidden, 5))
                .collect();
        // And the shipped nets with a crashed net of random weights (a third base).
        let mut split = shipped.clone();
        split.crashed = Some(crate::nn::net::Net::random_with_inputs(
            shipped.encoding.inputs(),
            shipped.contact.hidden,
            7,
        ));
        for nets in [shipped, &split].into_iter().chain(&others) {
            assert_batch_equals_one_at_a_time(nets);
        }
        let crashed = batches()
            .iter()
            .flatten()
            .filter(|p| Phase::of(p) == Phase::Crashed && NeuralEvaluator::exact(p).is_none())
            .count();
        assert!(crashed > 0, "the batches hold no crashed position");
    }

    #[test]
    fn an_ensemble_evaluates_the_mean_of_its_two_evaluators() {
        // The shipped nets averaged with nets of random weights: one at a time and in a
        // batch, each evaluation is the mean of the two evaluators' own.
        let shipped = NeuralEvaluator::shipped();
        let other = NeuralEvaluator::random(
            shipped.encoding,
            shipped.contact.hidden,
            shipped.race.hidden,
            11,
        );
        let pair = shipped.clone().with_partner(other.clone());
        assert_batch_equals_one_at_a_time(&pair);
        let mut worst = 0.0f32;
        let mut differs = 0;
        for p in batches().iter().flatten() {
            let (a, b, m) = (shipped.evaluate(p), other.evaluate(p), pair.evaluate(p));
            for (x, y, z) in [
                (a.win, b.win, m.win),
                (a.win_gammon, b.win_gammon, m.win_gammon),
                (a.lose_gammon, b.lose_gammon, m.lose_gammon),
            ] {
                worst = worst.max((0.5 * (x + y) - z).abs());
            }
            differs += usize::from((m.win - a.win).abs() > 1e-3);
        }
        assert!(worst < 1e-6, "largest difference from the mean {worst}");
        assert!(
            differs > 100,
            "the partner changed only {differs} evaluations"
        );
    }

    fn assert_batch_equals_one_at_a_time(nets: &NeuralEvaluator) {
        let mut got = Vec::new();
        let mut worst = 0.0f32;
        for batch in batches() {
            nets.evaluate_batch(&batch, &mut got);
            assert_eq!(got.len(), batch.len());
            for (p, g) in batch.iter().zip(&got) {
                let want = nets.evaluate(p);
                for (a, b) in [
                    (g.win, want.win),
                    (g.win_gammon, want.win_gammon),
                    (g.win_backgammon, want.win_backgammon),
                    (g.lose_gammon, want.lose_gammon),
                    (g.lose_backgammon, want.lose_backgammon),
                ] {
                    worst = worst.max((a - b).abs());
                }
            }
        }
        assert!(
            worst < 1e-5,
            "{:?}: largest difference {worst}",
            nets.encoding
        );
    }

    #[test]
    fn the_differences_rebuild_the_inputs() {
        // The dense inputs of a base plus the differences are the dense inputs of the other.
        let mut inputs = Inputs::new();
        for batch in batches().into_iter().filter(|b| b.len() >= 2).take(50) {
            encode::encode(&batch[0], &mut inputs);
            let mut dense = inputs.dense();
            let from = sides(&batch[0]);
            differences(&from, &counts(&from), &sides(&batch[1]), |i, d| {
                dense[i] += d
            });
            encode::encode(&batch[1], &mut inputs);
            for (a, b) in dense.iter().zip(inputs.dense()) {
                assert!((a - b).abs() < 1e-5);
            }
        }
    }
}
