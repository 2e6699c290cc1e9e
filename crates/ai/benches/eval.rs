//! Backgammon 0-ply evaluation throughput and the bear-off database's build time.
//!
//! The corpus is deterministic: random games from the starting position, each play chosen
//! uniformly among the legal results by a `ChaCha8Rng` with a fixed seed, every position seen
//! from the player on roll and sorted into three classes: contact, race outside the database
//! (some checker not yet home), and bear-off (both sides in the database). Throughput is in
//! evaluated positions per second, one `Heuristic::evaluate` each.
//!
//! The benchmark asserts what it measures: each class must have its full size, every
//! evaluation must be a probability, the bear-off class must be answered from the database
//! (its chances equal `BearoffDb::chances`), and a fresh build must reproduce the known
//! expected rolls of 15 checkers on the 6-point.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_ai::backgammon::bearoff::homes;
use tabula_ai::backgammon::nn::encode::{encode, Inputs};
use tabula_ai::backgammon::{BearoffDb, Evaluator, Heuristic, NeuralEvaluator};
use tabula_core::Dice;
use tabula_tables::{MoveGen, Position};

/// Positions per class.
const PER_CLASS: usize = 1_000;
/// Seed of the corpus games.
const SEED: u64 = 20_240_602;

struct Corpus {
    contact: Vec<Position>,
    race: Vec<Position>,
    bearoff: Vec<Position>,
}

fn corpus() -> Corpus {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut gen = MoveGen::new();
    let mut c = Corpus {
        contact: Vec::new(),
        race: Vec::new(),
        bearoff: Vec::new(),
    };
    let full = |c: &Corpus| {
        c.contact.len() >= PER_CLASS && c.race.len() >= PER_CLASS && c.bearoff.len() >= PER_CLASS
    };
    while !full(&c) {
        let mut pos = Position::START;
        while pos.mover_off() < 15 && pos.opponent_off() < 15 {
            let class = if homes(&pos).is_some() {
                &mut c.bearoff
            } else if pos.is_race() {
                &mut c.race
            } else {
                &mut c.contact
            };
            if class.len() < PER_CLASS && rng.gen_range(0..3) == 0 {
                class.push(pos);
            }
            let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
            let mut options = gen.positions(&pos, dice).to_vec();
            options.sort_by_key(|p| p.pips());
            if !options.is_empty() {
                pos = options[rng.gen_range(0..options.len())];
            }
            pos = pos.flip();
        }
    }
    c
}

fn bench(c: &mut Criterion) {
    let corpus = corpus();
    let db = BearoffDb::get();
    for p in &corpus.bearoff {
        assert_eq!(Some(Heuristic.evaluate(p)), db.chances(p));
    }
    let mut group = c.benchmark_group("bg-eval-0ply");
    for (name, set) in [
        ("contact", &corpus.contact),
        ("race", &corpus.race),
        ("bearoff", &corpus.bearoff),
    ] {
        assert_eq!(set.len(), PER_CLASS);
        for p in set.iter() {
            let e = Heuristic.evaluate(p);
            assert!(
                (0.0..=1.0).contains(&e.win) && e.win_gammon <= e.win,
                "{p:?}: {e:?}"
            );
        }
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut total = 0.0f32;
                for p in set.iter() {
                    total += Heuristic.evaluate(black_box(p)).equity();
                }
                total
            })
        });
    }
    group.finish();

    // The neural evaluator on the same positions: one full `evaluate` each (encoding, the
    // phase's net, consistency), and the contact net alone on pre-encoded inputs.
    let nets = NeuralEvaluator::shipped();
    let mut group = c.benchmark_group("bg-eval-nn");
    for (name, set) in [("contact", &corpus.contact), ("race", &corpus.race)] {
        for p in set.iter() {
            let e = nets.evaluate(p);
            assert!(
                (0.0..=1.0).contains(&e.win) && e.win_gammon <= e.win,
                "{p:?}: {e:?}"
            );
        }
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut total = 0.0f32;
                for p in set.iter() {
                    total += nets.evaluate(black_box(p)).equity();
                }
                total
            })
        });
    }
    let encoded: Vec<Inputs> = corpus
        .contact
        .iter()
        .map(|p| {
            let mut i = Inputs::new();
            encode(p, &mut i);
            i
        })
        .collect();
    group.throughput(Throughput::Elements(encoded.len() as u64));
    group.bench_function("contact-net-forward", |b| {
        b.iter(|| {
            let mut total = 0.0f32;
            for i in &encoded {
                total += nets.contact.forward(black_box(i))[0];
            }
            total
        })
    });
    // The same sizes reading the hand-crafted features too (docs/training.md): what the
    // features cost per evaluation, encoding included.
    let with_features = tabula_ai::backgammon::NeuralEvaluator::random(
        tabula_ai::backgammon::nn::encode::Encoding::Features,
        nets.contact.hidden,
        nets.race.hidden,
        1,
    );
    let set = &corpus.contact;
    group.throughput(Throughput::Elements(set.len() as u64));
    group.bench_function("contact-with-features", |b| {
        b.iter(|| {
            let mut total = 0.0f32;
            for p in set.iter() {
                total += with_features.evaluate(black_box(p)).equity();
            }
            total
        })
    });
    group.finish();

    // The candidates of a roll, as the searches judge them: each contact position of the
    // corpus with a roll drawn from a fixed seed, every legal result seen by the opponent;
    // evaluated one by one, and as one batch a roll (the incremental first layer).
    let mut rng = ChaCha8Rng::seed_from_u64(SEED + 1);
    let mut gen = MoveGen::new();
    let rolls: Vec<Vec<Position>> = corpus
        .contact
        .iter()
        .map(|p| {
            let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
            gen.positions(p, dice).iter().map(|c| c.flip()).collect()
        })
        .collect();
    let candidates: usize = rolls.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("bg-eval-nn-roll");
    group.throughput(Throughput::Elements(candidates as u64));
    group.bench_function("one-by-one", |b| {
        b.iter(|| {
            let mut total = 0.0f32;
            for roll in &rolls {
                for p in roll {
                    total += nets.evaluate(black_box(p)).equity();
                }
            }
            total
        })
    });
    let mut out = Vec::new();
    group.bench_function("batch", |b| {
        b.iter(|| {
            let mut total = 0.0f32;
            for roll in &rolls {
                nets.evaluate_batch(black_box(roll), &mut out);
                total += out.iter().map(|e| e.equity()).sum::<f32>();
            }
            total
        })
    });
    group.finish();

    let mut group = c.benchmark_group("bearoff-db");
    group.sample_size(10);
    group.bench_function("build", |b| {
        b.iter(|| {
            let db = BearoffDb::build();
            let mean = db.expected_rolls(&[0, 0, 0, 0, 0, 15]);
            assert!((mean - 12.266).abs() < 1e-3, "{mean}");
            db
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
