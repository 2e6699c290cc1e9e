//! Time per decision of each Grasshopper (Halma) bot level, on 8x8 and 10x10, in a middle-game
//! position reached by 20 plies of the medium bot against itself. The benchmark checks that
//! each decision is a legal move, so a fast wrong answer cannot pass.

use criterion::{criterion_group, criterion_main, Criterion};
use tabula_ai::halma::HalmaBot;
use tabula_ai::{Bot, Level};
use tabula_core::Game;
use tabula_halma::{BoardSize, HalmaGrasshopper};

fn middle_game(size: BoardSize) -> HalmaGrasshopper {
    let mut game = HalmaGrasshopper::new(size);
    let mut bot = HalmaBot::new(Level::Medium, 7);
    for _ in 0..20 {
        let a = bot.choose(&game).expect("a decision");
        game.apply(&a).expect("legal");
    }
    game
}

fn decisions(c: &mut Criterion) {
    for size in BoardSize::ALL {
        let game = middle_game(size);
        let legal = game.legal_actions();
        for level in [Level::Easy, Level::Medium, Level::Strong] {
            let mut group = c.benchmark_group(format!("halma_decision_{size}x{size}"));
            if level == Level::Strong {
                group.sample_size(10);
            }
            group.bench_function(level.as_str(), |b| {
                b.iter(|| {
                    let mut bot = HalmaBot::new(level, 1);
                    let a = bot.choose(&game).expect("a decision");
                    assert!(legal.contains(&a));
                    a
                })
            });
            group.finish();
        }
    }
}

criterion_group!(benches, decisions);
criterion_main!(benches);
