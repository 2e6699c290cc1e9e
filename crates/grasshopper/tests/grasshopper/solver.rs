//! The solver against a plain memoised minimax over whole positions (no bounds, no pruning,
//! no colour symmetry), its best moves, and the values published in
//! docs/grasshopper-solved.md.

use std::collections::HashMap;
use tabula_core::Color;
use tabula_grasshopper::solver::{solve_start, Solver, Value};
use tabula_grasshopper::{Checkers, Position};

/// The value for the side to move by exhaustive minimax over the public rules API.
fn oracle(p: &Position, memo: &mut HashMap<Position, i8>) -> i8 {
    if let Some(o) = p.outcome() {
        return match o.winner {
            None => 0,
            Some(w) if w == p.turn() => 1,
            Some(_) => -1,
        };
    }
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let v = p
        .legal_actions()
        .iter()
        .map(|&a| -oracle(&p.play(a).unwrap(), memo))
        .max()
        .expect("a game not over has an action");
    memo.insert(*p, v);
    v
}

fn value(v: i8) -> Value {
    match v {
        1 => Value::Win,
        0 => Value::Draw,
        _ => Value::Loss,
    }
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_every_position_of_the_two_checker_game() {
    let mut memo = HashMap::new();
    let start = Position::start(Checkers::new(2).unwrap());
    oracle(&start, &mut memo);
    assert!(memo.len() > 1000, "{}", memo.len());
    let mut solver = Solver::new();
    for (p, &v) in &memo {
        assert_eq!(solver.solve(p), value(v), "{p}");
    }
}

#[test]
fn the_solver_agrees_with_plain_minimax_in_four_checker_middle_games() {
    let mut solver = Solver::new();
    let mut memo = HashMap::new();
    let mut seen = 0;
    for game in 0..12u64 {
        let mut p = Position::start(Checkers::new(4).unwrap());
        for ply in 0..30u64 {
            if p.is_over() {
                break;
            }
            if ply >= 18 && ply % 3 == 0 {
                assert_eq!(solver.solve(&p), value(oracle(&p, &mut memo)), "{p}");
                seen += 1;
            }
            let legal = p.legal_actions();
            let pick = (game * 31 + ply * 17 + 5) as usize % legal.len();
            p = p.play(legal[pick]).unwrap();
        }
    }
    assert!(seen > 20, "{seen}");
}

#[test]
fn a_best_move_keeps_the_value_all_the_way_to_the_end() {
    for n in [2, 4] {
        let start = Position::start(Checkers::new(n).unwrap());
        let mut solver = Solver::new();
        let v = solver.solve(&start);
        // Both sides play best moves: the game ends with the predicted result.
        let mut p = start;
        while !p.is_over() {
            let before = solver.solve(&p);
            let a = solver.best_move(&p).unwrap();
            p = p.play(a).unwrap();
            let after = match p.outcome() {
                Some(o) => match o.winner {
                    None => Value::Draw,
                    Some(w) if w == p.turn() => Value::Win,
                    Some(_) => Value::Loss,
                },
                None => solver.solve(&p),
            };
            let kept = match after {
                Value::Win => Value::Loss,
                Value::Draw => Value::Draw,
                Value::Loss => Value::Win,
            };
            assert_eq!(kept, before, "{a} in {p}");
        }
        assert_eq!(v.winner(Color::White), p.outcome().unwrap().winner);
    }
}

#[test]
fn the_two_and_four_checker_games_are_draws() {
    for n in [2, 4] {
        let report = solve_start(Checkers::new(n).unwrap(), |_| {});
        assert_eq!(report.value, Value::Draw, "N = {n}");
        assert_eq!(report.winner, None);
        assert!(!report.table_full);
        assert!(report.best_move.is_some());
    }
}
