//! The shipped weights load and are sane; the encoding mirrors; the file format round-trips
//! and refuses damage; a tiny training run lowers its loss, deterministically.

use super::encode::{encode, mirror_index, Inputs, INPUTS};
use super::file::{self, Weights, WeightsError};
use super::*;
use crate::search::{best_play, roll};

fn inputs(pos: &Position) -> Vec<f32> {
    let mut i = Inputs::new();
    encode(pos, &mut i);
    i.dense()
}

#[test]
fn the_encoding_of_a_position_is_the_mirror_of_its_flip() {
    let pos: Position = Position::from_counts(
        &[
            0, 2, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        ],
        &[
            0, 1, 0, 0, 0, 6, 0, 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
    )
    .unwrap();
    let (a, b) = (inputs(&pos), inputs(&pos.flip()));
    for i in 0..INPUTS {
        assert_eq!(a[i], b[mirror_index(i)], "input {i}");
    }
    // The hand-crafted features mirror too, and leave the per-point inputs as they were.
    let with = |p: &Position| {
        let mut i = Inputs::new();
        encode::Encoding::Features.encode(p, &mut i);
        i.dense()
    };
    let (fa, fb) = (with(&pos), with(&pos.flip()));
    assert_eq!(&fa[..INPUTS], &a[..INPUTS]);
    for i in 0..encode::INPUTS_WITH_FEATURES {
        assert_eq!(fa[i], fb[mirror_index(i)], "input {i}");
    }
    assert!(fa[INPUTS..].iter().any(|&v| v != 0.0));
    // So do the further features of the extended encoding, after the same first inputs.
    let extended = |p: &Position| {
        let mut i = Inputs::new();
        encode::Encoding::Extended.encode(p, &mut i);
        i.dense()
    };
    let (xa, xb) = (extended(&pos), extended(&pos.flip()));
    assert_eq!(
        &xa[..encode::INPUTS_WITH_FEATURES],
        &fa[..encode::INPUTS_WITH_FEATURES]
    );
    for i in 0..encode::INPUTS_EXTENDED {
        assert_eq!(xa[i], xb[mirror_index(i)], "input {i}");
    }
    assert!(xa[encode::INPUTS_WITH_FEATURES..].iter().any(|&v| v != 0.0));
    // The start is its own mirror.
    let s = inputs(&Position::START);
    for i in 0..INPUTS {
        assert_eq!(s[i], s[mirror_index(i)]);
    }
    // Five checkers on the 6-point: three units and (5 - 3) / 2; pips 167 each side.
    assert_eq!(&s[20..24], &[1.0, 1.0, 1.0, 1.0]);
    assert!((s[98] - 1.67).abs() < 1e-6 && (s[197] - 1.67).abs() < 1e-6);
}

fn small_weights() -> Weights {
    let nets = NeuralEvaluator::random(encode::Encoding::Points, 8, 8, 3);
    Weights {
        info: "test".into(),
        nets: vec![("contact".into(), nets.contact), ("race".into(), nets.race)],
    }
}

#[test]
fn the_weights_file_round_trips_and_refuses_damage() {
    let w = small_weights();
    let bytes = file::write(&w).unwrap();
    assert_eq!(file::read(&bytes).unwrap(), w);
    let mut damaged = bytes.clone();
    damaged[100] ^= 1;
    assert_eq!(file::read(&damaged), Err(WeightsError::Checksum));
    assert_eq!(
        file::read(&bytes[..50]),
        Err(WeightsError::Malformed).or(Err(WeightsError::Checksum))
    );
    assert_eq!(
        file::read(b"not weights at all, no no no no no no no"),
        Err(WeightsError::NotWeights)
    );
    let only_contact = Weights {
        info: String::new(),
        nets: vec![w.nets[0].clone()],
    };
    assert_eq!(
        NeuralEvaluator::from_bytes(&file::write(&only_contact).unwrap()).unwrap_err(),
        WeightsError::MissingNet("race".into())
    );
}

#[test]
fn the_shipped_weights_load_and_are_sane() {
    let nets = NeuralEvaluator::shipped();
    // The start: the player on roll is a little ahead, nowhere near a decided game.
    let start = nets.evaluate(&Position::START);
    assert!(start.equity().abs() < 0.25, "{start:?}");
    assert!((0.4..0.65).contains(&start.win), "{start:?}");
    // A race just outside the bear-off database agrees with the database's neighbour.
    // The mover has one checker on its 7-point; a step from the database's position with
    // that checker on the 6-point.
    let race = Position::from_counts(
        &[
            3, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
        &[
            3, 3, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
    )
    .unwrap();
    assert_eq!(Phase::of(&race), Phase::Race);
    assert!(NeuralEvaluator::exact(&race).is_none());
    let near = Position::from_counts(
        &[
            3, 3, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
        &[
            3, 3, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
    )
    .unwrap();
    let exact = NeuralEvaluator::exact(&near).expect("in the database");
    let net = nets.evaluate(&race);
    assert!(
        (net.win - exact.win).abs() < 0.1,
        "net {net:?}, database {exact:?}"
    );
    // Chances are ordered everywhere along a game.
    let mut gen = tabula_tables::MoveGen::new();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(5);
    let mut pos = Position::START;
    for _ in 0..200 {
        let p = nets.evaluate(&pos);
        assert!(
            p.win >= p.win_gammon && p.win_gammon >= p.win_backgammon,
            "{p:?}"
        );
        assert!(
            1.0 - p.win >= p.lose_gammon && p.lose_gammon >= p.lose_backgammon,
            "{p:?}"
        );
        let dice = roll(&mut rng);
        match best_play(nets, &mut gen, &pos, dice) {
            Some(a) if a.mover_off() == CHECKERS => break,
            Some(a) => pos = a.flip(),
            None => pos = pos.flip(),
        }
    }
}

/// Positions of random play, contact and race, seen from the player on roll.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut gen = tabula_tables::MoveGen::new();
    let mut out = Vec::new();
    let mut pos = Position::START;
    while out.len() < n {
        if pos.mover_off() == 15 || pos.opponent_off() == 15 {
            pos = Position::START;
        }
        out.push(pos);
        let dice = tabula_core::Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
        let plays = gen.positions(&pos, dice);
        if !plays.is_empty() {
            pos = plays[rng.gen_range(0..plays.len())];
        }
        pos = pos.flip();
    }
    out
}

#[test]
fn simd_forward_equals_the_scalar_path() {
    use super::simd::{forward_with, Kernel};
    let nets = NeuralEvaluator::shipped();
    // The shipped nets, and a wider random one (several register blocks, a part block).
    let wide = Net::random(200, 5);
    let mut worst = 0.0f32;
    for pos in random_positions(3_000, 9) {
        let mut inputs = Inputs::new();
        encode(&pos, &mut inputs);
        for net in [&nets.contact, &nets.race, &wide] {
            let scalar = net.forward_scalar(&inputs);
            let simd = forward_with(net, &inputs, Kernel::Avx2);
            for (a, b) in scalar.iter().zip(simd) {
                worst = worst.max((a - b).abs());
            }
        }
    }
    assert!(worst <= 1e-6, "largest difference {worst}");
}

#[test]
fn the_fused_incremental_pass_equals_the_portable_one() {
    // A base's pre-activations plus the rows of another position's differences, on the
    // fastest kernel and on the portable loops: the shipped contact net and a wider random
    // one (several register blocks and a part block).
    let nets = NeuralEvaluator::shipped();
    let wide = Net::random(200, 5);
    let positions = random_positions(2_000, 11);
    let mut worst = 0.0f32;
    let mut inputs = Inputs::new();
    for pair in positions.windows(2) {
        for net in [&nets.contact, &wide] {
            encode(&pair[0], &mut inputs);
            let mut base = vec![0.0; net.hidden];
            net.pre_activations(&inputs, &mut base);
            let mut portable_base = vec![0.0; net.hidden];
            net.pre_activations_portable(&inputs, &mut portable_base);
            // The sums reach tens: the kernel's fused multiply-adds round once where the
            // portable loops round twice, so they agree relatively.
            for (a, b) in base.iter().zip(&portable_base) {
                assert!((a - b).abs() <= 1e-6 * (1.0 + b.abs()), "{a} {b}");
            }
            let before = inputs.dense();
            encode(&pair[1], &mut inputs);
            let rows: Vec<(usize, f32)> = before
                .iter()
                .zip(inputs.dense())
                .enumerate()
                .filter(|(_, (a, b))| a != &b)
                .map(|(i, (a, b))| (i, b - a))
                .collect();
            let fast = net.forward_from(&base, &rows);
            let portable = net.forward_from_portable(&base, &rows);
            let direct = net.forward_scalar(&inputs);
            for ((a, b), c) in fast.iter().zip(portable).zip(direct) {
                worst = worst.max((a - b).abs());
                // And both are the position's own outputs, within the rounding of the sums.
                assert!((a - c).abs() < 1e-5, "{a} {c}");
            }
        }
    }
    // The hidden sums of the two paths round differently (fused multiply-adds), and a
    // unit's difference reaches the outputs through its output weights: 1.0e-6 at most with
    // generation 10's nets, 1.25e-6 with generation 11's.
    assert!(worst <= 2e-6, "largest difference {worst}");
}

#[test]
#[should_panic]
fn a_net_fed_more_inputs_than_it_has_rows_panics_on_every_kernel() {
    // 198-input nets (the shipped sizes) fed the 208 inputs of the feature encoding: the
    // kernel must not read past the weights; the portable path it falls back to refuses
    // with a panic.
    let shipped = NeuralEvaluator::shipped();
    let nets = NeuralEvaluator::random(
        super::encode::Encoding::Points,
        shipped.contact.hidden,
        shipped.race.hidden,
        1,
    );
    let mut inputs = Inputs::new();
    super::encode::encode_with_features(&Position::START, &mut inputs);
    super::simd::forward_with(&nets.contact, &inputs, super::simd::Kernel::Avx2);
}

#[test]
fn every_generation_kept_in_training_weights_loads_and_is_sane() {
    // training/weights holds the TD start and each expert-iteration generation kept
    // (docs/training.md); the shipped file is one of them.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../training/weights");
    let (mut found, mut shipped) = (0, false);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "tnn") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        shipped |= bytes == SHIPPED;
        let nets = NeuralEvaluator::from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let start = nets.evaluate(&Position::START);
        assert!(
            (0.4..0.6).contains(&start.win),
            "{}: {start:?}",
            path.display()
        );
        found += 1;
    }
    assert!(found >= 2, "{found} weights files in {}", dir.display());
    assert!(
        shipped,
        "the shipped nets are not among the kept generations"
    );
}

#[test]
fn the_shipped_weights_write_back_to_the_same_bytes() {
    // The net library reads and writes the shipped file unchanged, byte for byte.
    let weights = file::read(super::SHIPPED).unwrap();
    assert_eq!(file::write(&weights).unwrap(), super::SHIPPED);
}

/// Random nets (small, the per-point encoding) with a crashed net of their own whose weights
/// differ from the contact net's.
fn nets_with_a_crashed_net() -> NeuralEvaluator {
    let mut nets = NeuralEvaluator::random(encode::Encoding::Points, 8, 8, 3);
    nets.crashed = Some(Net::random(8, 11));
    nets
}

#[test]
fn the_crashed_net_is_chosen_exactly_for_crashed_positions() {
    let nets = nets_with_a_crashed_net();
    let crashed_net = nets.crashed.as_ref().unwrap();
    let (mut crashed, mut other) = (0, 0);
    let mut batch = Vec::new();
    let positions: Vec<Position> = random_positions(20_000, 4)
        .into_iter()
        .filter(|p| NeuralEvaluator::exact(p).is_none())
        .collect();
    nets.evaluate_batch(&positions, &mut batch);
    for (pos, in_batch) in positions.iter().zip(&batch) {
        let mut inputs = Inputs::new();
        encode(pos, &mut inputs);
        let by = |net: &Net| probabilities(net.forward(&inputs), pos);
        let got = nets.evaluate(pos);
        // The class by its definition, counted here point by point from the counts.
        let [mine, theirs] = pos.to_counts();
        let side_crashed = |c: &[u8; 25], off: u8| off + c[0] + c[1] >= 8;
        let is_crashed = !pos.is_race()
            && (side_crashed(&mine, pos.mover_off()) || side_crashed(&theirs, pos.opponent_off()));
        assert_eq!(Phase::of(pos) == Phase::Crashed, is_crashed, "{pos:?}");
        let want = if is_crashed {
            crashed += 1;
            by(crashed_net)
        } else {
            other += 1;
            by(nets.net(Phase::of(pos)))
        };
        assert_eq!(got, want, "{pos:?}");
        assert!((got.equity() - in_batch.equity()).abs() < 1e-5, "{pos:?}");
        if !pos.is_race() {
            // A contact position judged by the other contact-class net would differ.
            let wrong = if is_crashed {
                &nets.contact
            } else {
                crashed_net
            };
            assert_ne!(got, by(wrong), "{pos:?}");
        }
    }
    assert!(
        crashed >= 100 && other >= 1_000,
        "{crashed} crashed, {other} other"
    );
}

#[test]
fn weights_without_a_crashed_net_judge_crashed_positions_by_the_contact_net() {
    let mut nets = nets_with_a_crashed_net();
    let bytes = file::write(&Weights {
        info: "three nets".into(),
        nets: nets
            .named_nets()
            .into_iter()
            .map(|(n, net)| (n.to_string(), net.clone()))
            .collect(),
    })
    .unwrap();
    let read = NeuralEvaluator::from_bytes(&bytes).unwrap();
    assert_eq!(read.crashed, nets.crashed);
    nets.crashed = None;
    let pos = random_positions(20_000, 4)
        .into_iter()
        .find(|p| Phase::of(p) == Phase::Crashed && NeuralEvaluator::exact(p).is_none())
        .expect("random play crashes a board");
    assert_eq!(nets.slot(Phase::Crashed), nets.slot(Phase::Contact));
    assert_eq!(nets.evaluate(&pos), {
        let mut inputs = Inputs::new();
        encode(&pos, &mut inputs);
        probabilities(nets.contact.forward(&inputs), &pos)
    });
    // The split starts as the same function.
    let split = nets.clone().with_crashed_net();
    assert_eq!(split.evaluate(&pos), nets.evaluate(&pos));
    assert_eq!(split.slot(Phase::Crashed), 2);
}
