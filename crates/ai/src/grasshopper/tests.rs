//! The bot against the exact solver on the solved small games, and its invariants: legal
//! moves only, the same moves for the same seed, finished games at every level.

use super::*;
use tabula_grasshopper::solver::{Solver, Value};
use tabula_grasshopper::Checkers;

/// Positions reached by random play from the start of the N-checker game (seed `seed`),
/// every one still in play with a real choice (two actions or more), without repeats.
pub(super) fn sample_positions(checkers: u32, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(Checkers::new(checkers).unwrap());
        loop {
            let legal = pos.legal_actions();
            if legal.is_empty() {
                break;
            }
            if legal.len() > 1 && seen.insert(pos) {
                out.push(pos);
            }
            let a = legal[rng.gen_range(0..legal.len())];
            pos = pos.play(a).unwrap();
        }
    }
    out
}

/// For each level: (positions, moves keeping the value, positions with a winning move, of
/// those the ones where the bot played a winning move, critical positions (where some move
/// loses value), of those the ones where the bot kept the value).
pub(super) fn agreement(
    level: Level,
    positions: &[Position],
) -> (usize, usize, usize, usize, usize, usize) {
    let mut solver = Solver::new();
    // Without the cached endgame table: the test measures the search, on any machine.
    let mut bot = GrasshopperBot::new(level, 7).with_tables(None);
    let (mut kept, mut winnable, mut won, mut critical, mut critical_kept) = (0, 0, 0, 0, 0);
    for pos in positions {
        let values = solver.action_values(pos);
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let worst = values.iter().map(|&(_, v)| v).min().unwrap();
        let a = bot.choose_in(pos).unwrap();
        let v = values.iter().find(|&&(b, _)| b == a).unwrap().1;
        kept += usize::from(v == best);
        if worst < best {
            critical += 1;
            critical_kept += usize::from(v == best);
        }
        if best == Value::Win {
            winnable += 1;
            won += usize::from(v == Value::Win);
        }
    }
    (
        positions.len(),
        kept,
        winnable,
        won,
        critical,
        critical_kept,
    )
}

/// The positions of the agreement table in `docs/bots.md`: 30 random games at N = 2, 12 at
/// N = 4, seed 2024.
pub(super) fn table_positions(checkers: u32) -> Vec<Position> {
    let games = if checkers == 2 { 30 } else { 12 };
    sample_positions(checkers, games, 2024)
}

#[test]
fn nobody_can_win_with_two_checkers_so_every_move_keeps_the_draw() {
    // Two checkers make one wall, one point: no player can score twice in succession.
    let positions = table_positions(2);
    let (n, kept, winnable, ..) = agreement(Level::Strong, &positions);
    assert_eq!(winnable, 0);
    assert_eq!(kept, n);
}

#[test]
fn strong_keeps_the_value_and_plays_every_winning_move_at_four_checkers() {
    let positions = table_positions(4);
    let (_, _, winnable, won, critical, kept) = agreement(Level::Strong, &positions);
    assert!(
        winnable > 10,
        "the sample has positions with a winning move"
    );
    assert_eq!(won, winnable, "strong misses a win at N = 4");
    // Counted over the critical positions only (some move loses value there), since most
    // positions forgive any move. Threshold from docs/bots.md: strong measured 100 %; 95 %
    // leaves room for evaluation changes and stays above medium.
    assert!(critical > 20);
    assert!(
        kept * 100 >= critical * 95,
        "strong kept the value in {kept} of {critical}"
    );
}

/// Prints the table of docs/bots.md:
/// `cargo test -p tabula-ai --release grasshopper::tests::agreement_table -- --ignored --nocapture`
#[test]
#[ignore]
fn agreement_table() {
    for checkers in [2, 4] {
        let positions = table_positions(checkers);
        for level in Level::ALL {
            let (n, kept, winnable, won, critical, ck) = agreement(level, &positions);
            println!(
                "| {checkers} | {level} | {kept} / {n} ({:.1} %) | {ck} / {critical} ({:.1} %) | {won} / {winnable} |",
                100.0 * kept as f64 / n as f64,
                100.0 * ck as f64 / critical.max(1) as f64
            );
        }
    }
}

#[test]
fn every_level_moves_legally_in_random_positions() {
    let positions: Vec<Position> = [4, 8, 14]
        .into_iter()
        .flat_map(|n| sample_positions(n, 6, 11 + u64::from(n)))
        .collect();
    assert!(positions.len() > 200);
    for level in Level::ALL {
        let mut bot = GrasshopperBot::with_budget(level, 3, Budget::Nodes(5_000));
        for pos in positions.iter().step_by(3) {
            let a = bot.choose_in(pos).unwrap();
            assert!(
                pos.play(a).is_ok(),
                "{level} chose illegal {a:?} in {pos:?}"
            );
        }
    }
}

fn play_game(white: Level, black: Level, seed: u64, checkers: u32) -> (Vec<Action>, Grasshopper) {
    let mut game = Grasshopper::new(Checkers::new(checkers).unwrap());
    let mut bots = [
        GrasshopperBot::with_budget(white, seed, Budget::Nodes(20_000)),
        GrasshopperBot::with_budget(black, seed + 1, Budget::Nodes(20_000)),
    ];
    let mut log = Vec::new();
    while let Status::Decide { player, .. } = game.status() {
        let bot = &mut bots[usize::from(player == tabula_core::Color::Black)];
        let a = Bot::choose(bot, &game).expect("a decision is due");
        game.apply(&a).expect("legal");
        log.push(a);
        assert!(log.len() < 2_000, "the game does not end");
    }
    (log, game)
}

#[test]
fn same_seed_same_game() {
    for level in [Level::Easy, Level::Medium, Level::Strong] {
        let (a, _) = play_game(level, level, 5, 8);
        let (b, _) = play_game(level, level, 5, 8);
        assert_eq!(a, b, "{level} is not deterministic");
    }
    let (a, _) = play_game(Level::Easy, Level::Easy, 5, 8);
    let (b, _) = play_game(Level::Easy, Level::Easy, 6, 8);
    assert_ne!(a, b, "easy ignores its seed");
}

#[test]
fn every_level_finishes_its_games() {
    for white in Level::ALL {
        for black in Level::ALL {
            let (_, game) = play_game(white, black, 9, 14);
            assert!(matches!(game.status(), Status::Over(_)));
        }
    }
}

#[test]
fn the_factory_builds_every_level() {
    for level in Level::ALL {
        let mut bot = crate::bots::grasshopper(level, 1).unwrap();
        let game = Grasshopper::default();
        let a = bot.choose(&game).unwrap();
        assert!(game.legal_actions().contains(&a));
    }
}

#[test]
fn strong_beats_random_and_easy() {
    for seed in 0..4 {
        for weak in [Level::Random, Level::Easy] {
            let (_, game) = play_game(Level::Strong, weak, seed, 14);
            let Status::Over(o) = game.status() else {
                unreachable!()
            };
            assert_ne!(
                o.winner,
                Some(tabula_core::Color::Black),
                "{weak} beat strong"
            );
        }
    }
}

#[test]
fn with_the_endgame_table_strong_keeps_the_value_in_every_endgame_it_covers() {
    let table =
        std::sync::Arc::new(tabula_grasshopper::endgame::EndgameTable::build(3, |_| {}).unwrap());
    let mut bot = GrasshopperBot::with_budget(Level::Strong, 1, Budget::Nodes(2_000))
        .with_tables(Some(table.clone()));
    let mut solver = Solver::new();
    let mut critical = 0;
    let endgames = sample_positions(4, 400, 77)
        .into_iter()
        .chain(sample_positions(6, 400, 78));
    for pos in endgames {
        if pos.remaining(tabula_core::Color::White) > 3
            || pos.remaining(tabula_core::Color::Black) > 3
        {
            continue;
        }
        let values = solver.action_values(&pos);
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let worst = values.iter().map(|&(_, v)| v).min().unwrap();
        let a = bot.choose_in(&pos).unwrap();
        let v = values.iter().find(|&&(b, _)| b == a).unwrap().1;
        assert_eq!(v, best, "{a:?} gives up the value of {pos:?}");
        assert_eq!(table.value(&pos), Some(best));
        critical += usize::from(worst < best);
    }
    assert!(critical > 5, "{critical} critical positions (9 measured)");
}
