//! Move generation throughput over a fixed corpus of positions from random games.
//!
//! The corpus is deterministic: random games from each start position, each move chosen
//! uniformly (among the moves sorted by start then end square, so the choice does not depend
//! on the generator's output order) by a `ChaCha8Rng` with a fixed seed, until the game ends;
//! each position met is kept with probability 1 / `KEEP_ONE_IN`, until there are `PER_SIZE`
//! positions of each board size.
//!
//! The benchmark asserts what it measures: before timing, the total number of moves over
//! each corpus must equal the count recorded below, the lazy iterator and the bulk count must
//! agree, and perft(4) from both starts must match the committed table.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_core::Game;
use tabula_halma::{perft, Action, BoardSize, HalmaGrasshopper, Move, Position};

/// Positions per board size.
const PER_SIZE: usize = 1_000;
/// Seed of the corpus games; changing it changes the recorded counts below.
const SEED: u64 = 20_240_605;
/// A position is kept with probability 1 / `KEEP_ONE_IN`, spreading the corpus over games.
const KEEP_ONE_IN: u32 = 8;

/// Total legal moves over the 8x8 corpus.
const MOVES_8: u64 = 75_381;
/// Total legal moves over the 10x10 corpus.
const MOVES_10: u64 = 132_643;
/// perft(4) from the 8x8 and 10x10 starts (docs/rules/halma-grasshopper.md).
const PERFT4: [u64; 2] = [700_034, 2_067_884];

fn corpus(size: BoardSize, rng: &mut ChaCha8Rng) -> Vec<Position> {
    let mut out = Vec::with_capacity(PER_SIZE);
    while out.len() < PER_SIZE {
        let mut game = HalmaGrasshopper::new(size);
        while game.end().is_none() && out.len() < PER_SIZE {
            if rng.gen_range(0..KEEP_ONE_IN) == 0 {
                out.push(*game.position());
            }
            let mut moves: Vec<Move> = game.position().moves().collect();
            let action = if moves.is_empty() {
                Action::Pass
            } else {
                moves.sort();
                Action::Move(moves[rng.gen_range(0..moves.len())])
            };
            game.apply(&action).expect("a generated move is legal");
        }
    }
    out
}

/// Every move of every position through the lazy iterator, counted.
fn iterate(positions: &[Position]) -> u64 {
    positions
        .iter()
        .map(|p| {
            let mut n = 0;
            for m in p.moves() {
                black_box(m);
                n += 1;
            }
            n
        })
        .sum()
}

/// The bulk count (popcounts, no moves built).
fn count(positions: &[Position]) -> u64 {
    positions.iter().map(|p| p.move_count() as u64).sum()
}

fn bench(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let corpora = [
        ("8x8", corpus(BoardSize::Eight, &mut rng), MOVES_8),
        ("10x10", corpus(BoardSize::Ten, &mut rng), MOVES_10),
    ];
    for (name, positions, recorded) in &corpora {
        let total = iterate(positions);
        println!("{name}: {} positions, {total} moves", positions.len());
        assert_eq!(
            total,
            count(positions),
            "{name}: iterator and bulk count differ"
        );
        assert_eq!(total, *recorded, "{name}: the corpus total changed");
    }
    for (size, want) in BoardSize::ALL.into_iter().zip(PERFT4) {
        assert_eq!(perft(&Position::start(size), 4), want, "perft(4) on {size}");
    }

    for (name, positions, recorded) in &corpora {
        let mut group = c.benchmark_group(format!("halma-movegen/{name}"));
        group.throughput(Throughput::Elements(*recorded));
        group.bench_function("moves", |b| b.iter(|| iterate(black_box(positions))));
        group.bench_function("count", |b| b.iter(|| count(black_box(positions))));
        group.finish();
    }
    let mut group = c.benchmark_group("halma-perft");
    for (size, nodes) in BoardSize::ALL.into_iter().zip(PERFT4) {
        group.throughput(Throughput::Elements(nodes));
        let start = Position::start(size);
        group.bench_function(format!("perft4/{size}x{size}"), |b| {
            b.iter(|| perft(black_box(&start), 4))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
