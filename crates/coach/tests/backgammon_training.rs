//! The backgammon trainers on tiny runs: TD(lambda) self-play, the SGD step against the
//! accumulated gradient, the 1-ply refinement generation and Adam on labelled positions (moved
//! here from `tabula-ai`'s net tests with the trainers).

use tabula_ai::backgammon::nn::encode::{encode, Inputs};
use tabula_ai::backgammon::nn::net;
use tabula_ai::backgammon::{Heuristic, NeuralEvaluator};
use tabula_coach::grad::Gradients;
use tabula_coach::label::{label_position, sample_chunk, SampleConfig};
use tabula_coach::supervised::{self, Example};
use tabula_coach::td::{self, TdConfig};
use tabula_tables::Position;

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

#[test]
fn adam_fits_two_ply_labels_and_lowers_the_loss_deterministically() {
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
fn a_crashed_net_learns_from_the_crashed_positions_alone() {
    use tabula_ai::backgammon::nn::Phase;
    let nets = td::fresh(16, 8, 3).with_crashed_net();
    // Positions as the labeller samples them (sample_chunk: only positions a net answers).
    let cfg = SampleConfig {
        per_chunk: 4_000,
        ..SampleConfig::default()
    };
    let positions = sample_chunk(&nets, &cfg, 0);
    let examples = |phase: Phase| -> Vec<Example> {
        positions
            .iter()
            .copied()
            .filter(|p| Phase::of(p) == phase)
            .take(40)
            .map(|position| Example {
                position,
                target: [0.8, 0.3, 0.05, 0.1, 0.0],
            })
            .collect()
    };
    let crashed = examples(Phase::Crashed);
    assert_eq!(crashed.len(), 40);
    let mut fitted = nets.clone();
    let first = supervised::fit_adam(&mut fitted, &crashed, 1, 0.01, 8, 1);
    let last = supervised::fit_adam(&mut fitted, &crashed, 20, 0.01, 8, 2);
    assert!(last.loss < first.loss, "{} >= {}", last.loss, first.loss);
    // Only the crashed net moved; the contact net it was copied from did not.
    assert_eq!(fitted.contact, nets.contact);
    assert_eq!(fitted.race, nets.race);
    assert_ne!(fitted.crashed, nets.crashed);
    // Contact positions train the contact net and leave the crashed net as it was, by SGD
    // as by Adam.
    let contact = examples(Phase::Contact);
    let mut sgd = fitted.clone();
    supervised::fit(&mut sgd, &contact, 2, 0.01, 3);
    assert_ne!(sgd.contact, fitted.contact);
    assert_eq!(sgd.crashed, fitted.crashed);
    // The saved file holds the three nets and reads back the same.
    let dir = std::env::temp_dir().join(format!("tabula-crashed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("three.tnn");
    tabula_coach::save_backgammon(&path, &sgd, "test".into()).unwrap();
    let back = NeuralEvaluator::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(back.crashed, sgd.crashed);
    std::fs::remove_dir_all(&dir).unwrap();
}
