//! Move generation over a fixed corpus of positions from random games, and the solver on the
//! four-checker game.
//!
//! The corpus is deterministic: games with 14 checkers each from the start, every action
//! chosen uniformly among the legal ones by a `ChaCha8Rng` with a fixed seed; each position is
//! kept with probability 1/3, until `CORPUS` positions. Throughput is positions per second
//! (one full generation of the legal actions each).
//!
//! Both benchmarks assert what they measure before timing: the total number of legal actions
//! over the corpus, and the solver's value, node count and table size for N = 4. A faster
//! generator or solver that finds something else fails here, not in a report.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_grasshopper::solver::{solve_start, Value};
use tabula_grasshopper::{Checkers, Position};

/// Positions in the corpus.
const CORPUS: usize = 10_000;
/// Seed of the corpus games; changing it changes the recorded count below.
const SEED: u64 = 20_240_602;
/// Total legal actions over the corpus.
const ACTIONS: usize = 110_081;
/// Nodes and positions of the N = 4 solve (deterministic: fixed move order, one thread).
const SOLVE_NODES: u64 = 4_853_384;
const SOLVE_POSITIONS: u64 = 1_190_356;

fn corpus() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut kept = Vec::with_capacity(CORPUS);
    while kept.len() < CORPUS {
        let mut p = Position::start(Checkers::FULL);
        while !p.is_over() && kept.len() < CORPUS {
            if rng.gen_range(0..3) == 0 {
                kept.push(p);
            }
            let legal = p.legal_actions();
            p = p.play(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
    }
    kept
}

fn count(positions: &[Position]) -> usize {
    positions.iter().map(|p| p.legal_actions().len()).sum()
}

fn movegen(c: &mut Criterion) {
    let positions = corpus();
    assert_eq!(
        count(&positions),
        ACTIONS,
        "the corpus's action count changed"
    );
    let mut group = c.benchmark_group("grasshopper movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal actions, 10k positions", |b| {
        b.iter(|| count(black_box(&positions)))
    });
    group.finish();
}

fn solver(c: &mut Criterion) {
    let checkers = Checkers::new(4).unwrap();
    let report = solve_start(checkers, |_| {});
    assert_eq!(report.value, Value::Draw);
    assert_eq!(
        (report.nodes, report.positions),
        (SOLVE_NODES, SOLVE_POSITIONS)
    );
    let mut group = c.benchmark_group("grasshopper solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(report.nodes));
    group.bench_function("solve N=4 from the start", |b| {
        b.iter(|| solve_start(black_box(checkers), |_| {}).value)
    });
    group.finish();
}

criterion_group!(benches, movegen, solver);
criterion_main!(benches);
