//! Time per decision of each Grasshopper bot level at N = 14, from a few mid-game positions
//! reached by seeded random play. Each measured decision is checked to be legal.

use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_ai::grasshopper::GrasshopperBot;
use tabula_ai::Level;
use tabula_grasshopper::{Checkers, Position};

fn mid_game(seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::start(Checkers::FULL);
    for _ in 0..plies {
        let legal = pos.legal_actions();
        if legal.len() <= 1 {
            break;
        }
        pos = pos.play(legal[rng.gen_range(0..legal.len())]).unwrap();
    }
    pos
}

fn bench(c: &mut Criterion) {
    let positions = [mid_game(1, 20), mid_game(2, 30), mid_game(3, 40)];
    let mut group = c.benchmark_group("grasshopper_decision");
    group.sample_size(10);
    for level in [Level::Easy, Level::Medium, Level::Strong] {
        group.bench_function(level.as_str(), |b| {
            b.iter(|| {
                for pos in &positions {
                    let mut bot = GrasshopperBot::new(level, 1);
                    let a = bot.choose_in(pos).expect("a move");
                    assert!(pos.play(a).is_ok());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
