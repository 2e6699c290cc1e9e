//! The tables against the exact solver, and their storage.

use super::*;
use crate::solver::Solver;
use crate::Checkers;
use std::collections::HashSet;

/// Every position reachable from the start of the `n`-checker game, by depth-first search.
fn reachable(n: u32) -> Vec<Position> {
    let start = Position::start(Checkers::new(n).unwrap());
    let mut seen = HashSet::new();
    let mut stack = vec![start];
    let mut out = Vec::new();
    while let Some(pos) = stack.pop() {
        if !seen.insert(pos) {
            continue;
        }
        out.push(pos);
        for &a in pos.legal_actions().iter() {
            stack.push(pos.play(a).unwrap());
        }
    }
    out
}

#[test]
fn the_two_checker_table_agrees_with_the_solver_on_the_whole_two_checker_game() {
    let table = EndgameTable::build(2, |_| {}).unwrap();
    let positions = reachable(2);
    assert!(positions.len() > 30_000, "{}", positions.len());
    let mut solver = Solver::new();
    for pos in &positions {
        assert_eq!(table.value(pos), Some(solver.solve(pos)), "{pos:?}");
    }
}

/// Random games of `n` checkers (seeded), every position once both sides are down to `k`.
fn random_endgames(n: u32, k: u32, games: u64) -> Vec<Position> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut pos = Position::start(Checkers::new(n).unwrap());
        loop {
            if pos.remaining(tabula_core::Color::White) <= k
                && pos.remaining(tabula_core::Color::Black) <= k
            {
                out.push(pos);
            }
            let actions = pos.legal_actions();
            let Some(&a) = actions.choose(&mut rng) else {
                break;
            };
            pos = pos.play(a).unwrap();
        }
    }
    out
}

#[test]
fn the_three_checker_table_agrees_with_the_solver_on_endgames_of_larger_games() {
    let table = EndgameTable::build(3, |_| {}).unwrap();
    let mut solver = Solver::new();
    let mut checked = 0;
    let mut decisive = 0;
    for n in [4, 6, 14] {
        for pos in random_endgames(n, 3, 800) {
            let want = solver.solve(&pos);
            assert_eq!(table.value(&pos), Some(want), "{pos:?}");
            checked += 1;
            decisive += usize::from(want != Value::Draw);
        }
    }
    assert!(checked > 1000, "{checked}");
    assert!(decisive > 50, "{decisive} decisive of {checked}");
}

#[test]
fn a_position_with_more_than_k_checkers_left_is_not_in_the_table() {
    let table = EndgameTable::build(1, |_| {}).unwrap();
    assert_eq!(
        table.value(&Position::start(Checkers::new(2).unwrap())),
        None
    );
}

#[test]
fn every_layer_is_reported_and_the_states_add_up() {
    let mut reports = Vec::new();
    let table = EndgameTable::build(2, |l| reports.push(l)).unwrap();
    let last = reports.last().unwrap();
    assert_eq!(last.done, table.states());
    assert_eq!(last.total, table.states());
    assert_eq!(
        reports.iter().map(|l| l.states).sum::<u64>(),
        table.states()
    );
    assert_eq!(EndgameTable::states_for(2), Ok(table.states()));
}

#[test]
fn a_stored_table_reads_back_and_damage_is_refused() {
    let table = EndgameTable::build(2, |_| {}).unwrap();
    let bytes = table.to_bytes();
    let back = EndgameTable::from_bytes(&bytes).unwrap();
    assert_eq!(back.packed, table.packed);
    let mut damaged = bytes.clone();
    *damaged.last_mut().unwrap() ^= 1;
    assert_eq!(
        EndgameTable::from_bytes(&damaged).unwrap_err(),
        TableError::Checksum
    );
    assert_eq!(
        EndgameTable::from_bytes(b"not a table at all, no").unwrap_err(),
        TableError::Magic
    );
    let short = &bytes[..bytes.len() - 1];
    assert!(matches!(
        EndgameTable::from_bytes(short),
        Err(TableError::Length { k: 2, .. })
    ));
    let mut bad_k = bytes.clone();
    bad_k[8] = MAX_K + 1;
    assert_eq!(
        EndgameTable::from_bytes(&bad_k).unwrap_err(),
        TableError::K(MAX_K + 1)
    );
    assert_eq!(
        EndgameTable::build(0, |_| {}).unwrap_err(),
        TableError::BadK(0)
    );
    assert_eq!(
        EndgameTable::states_for(MAX_K + 1),
        Err(TableError::BadK(MAX_K + 1))
    );
}
