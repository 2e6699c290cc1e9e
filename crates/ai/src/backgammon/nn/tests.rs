//! The shipped weights load and are sane; the encoding mirrors; the file format round-trips
//! and refuses damage; a tiny training run lowers its loss, deterministically.

use super::encode::{encode, mirror_index, Inputs, INPUTS};
use super::file::{self, Weights, WeightsError};
use super::*;
use crate::backgammon::Heuristic;
use crate::train::td::{self, TdConfig};

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
    let nets = td::fresh(8, 8, 3);
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
        let dice = td::roll(&mut rng);
        match td::best_play(nets, &mut gen, &pos, dice) {
            Some(a) if a.mover_off() == CHECKERS => break,
            Some(a) => pos = a.flip(),
            None => pos = pos.flip(),
        }
    }
}

#[test]
fn a_tiny_training_run_lowers_its_loss_deterministically() {
    let config = TdConfig {
        batch: 4,
        lambda: 0.7,
        alpha: 0.05,
        seed: 9,
    };
    let run = || {
        let mut nets = td::fresh(8, 8, 9);
        let mut losses = Vec::new();
        for b in 0..40u64 {
            losses.push(td::train_batch(&mut nets, &config, b * 4).loss);
        }
        (nets, losses)
    };
    let (a, losses) = run();
    let (b, _) = run();
    assert_eq!(a.contact, b.contact, "same seed, same weights");
    let early: f64 = losses[..5].iter().sum();
    let late: f64 = losses[35..].iter().sum();
    assert!(late < early, "loss went from {early} to {late}");
    let _ = Heuristic;
}

#[test]
fn an_sgd_step_is_the_accumulated_gradient_applied_and_lowers_the_loss() {
    let net = net::Net::random(16, 3);
    let mut i = Inputs::new();
    encode(&Position::START, &mut i);
    let target = [0.9, 0.3, 0.05, 0.1, 0.01];
    let mut h = vec![0.0; 16];
    // The same step two ways: accumulated then applied, and in place.
    let mut grad = net.zeros_like();
    let before = net.accumulate_gradient(&i, &target, 0.1, &mut grad, &mut h);
    let mut applied = net.clone();
    applied.add_scaled(&grad, -1.0);
    let mut stepped = net.clone();
    assert_eq!(stepped.sgd_step(&i, &target, 0.1, &mut h), before);
    for (a, b) in applied.w1.iter().zip(&stepped.w1) {
        assert!((a - b).abs() < 1e-6);
    }
    for (a, b) in applied.w2.iter().zip(&stepped.w2) {
        assert!((a - b).abs() < 1e-6);
    }
    let mut scratch = net.zeros_like();
    let after = stepped.accumulate_gradient(&i, &target, 0.1, &mut scratch, &mut h);
    assert!(after < before, "{after} >= {before}");
}

#[test]
fn a_refinement_generation_fits_the_nets_to_their_one_ply_answers() {
    use crate::train::supervised;
    let mut nets = td::fresh(16, 8, 5);
    let positions = supervised::sample_positions(&nets, 6, 0.5, 9);
    assert!(positions.len() > 20, "{}", positions.len());
    assert!(positions
        .iter()
        .all(|p| NeuralEvaluator::exact(p).is_none()));
    // Reproducible: the same seed gives the same sample.
    assert_eq!(positions, supervised::sample_positions(&nets, 6, 0.5, 9));
    let examples = supervised::label(&nets, &positions);
    for ex in &examples {
        let t = ex.target;
        assert!(t.iter().all(|v| (0.0..=1.0).contains(v)), "{t:?}");
        assert!(t[0] + 1e-5 >= t[1] && t[1] + 1e-5 >= t[2], "{t:?}");
    }
    let error = supervised::equity_error(&nets, &examples);
    let first = supervised::fit(&mut nets, &examples, 1, 0.05, 1);
    let last = supervised::fit(&mut nets, &examples, 20, 0.05, 1);
    assert!(last.loss < first.loss, "{} >= {}", last.loss, first.loss);
    assert!(last.loss >= last.floor - 1e-6);
    assert!(supervised::equity_error(&nets, &examples) < error);
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
fn adam_fits_two_ply_labels_and_lowers_the_loss_deterministically() {
    use crate::train::label::{label_position, sample_chunk, SampleConfig};
    use crate::train::supervised::{self, Example};
    let nets = td::fresh(16, 8, 3);
    let cfg = SampleConfig {
        per_chunk: 30,
        ..SampleConfig::default()
    };
    let mut gen = tabula_tables::MoveGen::new();
    let examples: Vec<Example> = sample_chunk(&nets, &cfg, 0)
        .into_iter()
        .map(|position| Example {
            position,
            target: label_position(&nets, &mut gen, &position, 1),
        })
        .collect();
    let run = || {
        let mut n = nets.clone();
        let first = supervised::fit_adam(&mut n, &examples, 1, 0.01, 8, 1);
        let last = supervised::fit_adam(&mut n, &examples, 30, 0.01, 8, 2);
        (n, first, last)
    };
    let (fitted, first, last) = run();
    assert!(last.loss < first.loss, "{} >= {}", last.loss, first.loss);
    assert!(last.loss >= last.floor - 1e-6);
    assert!(
        supervised::equity_error(&fitted, &examples) < supervised::equity_error(&nets, &examples)
    );
    // The same arguments give the same weights.
    assert_eq!(run().0.contact, fitted.contact);
}

#[test]
#[should_panic]
fn a_net_fed_more_inputs_than_it_has_rows_panics_on_every_kernel() {
    // 198-input nets fed the 208 inputs of the feature encoding: the kernel must not read
    // past the weights; the portable path it falls back to refuses with a panic.
    let nets = NeuralEvaluator::shipped();
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
