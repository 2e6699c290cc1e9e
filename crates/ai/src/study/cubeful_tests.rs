//! Tests of the cubeful rollouts against hand-counted values and the cubeless rollouts.

use super::cubeful_rollout::{cube_decision, rollout_cubeful};
use super::rollout::{rollout, RolloutConfig};
use crate::backgammon::cube::{CubeState, Stakes};
use crate::backgammon::match_cube::Holder;
use crate::backgammon::met::Crawford;
use crate::backgammon::NeuralEvaluator;
use tabula_tables::{MoveGen, Position};

/// The last roll: the mover's last checker is on their 7-point, the opponent's last on
/// their 1-point. The mover wins with the 21 rolls (of 36) of seven pips or more, and with
/// 2-2 and 3-3: 23 of 36.
fn last_roll() -> Position {
    let mut mover = [0u8; 25];
    let mut opponent = [0u8; 25];
    mover[6] = 1;
    opponent[0] = 1;
    Position::from_counts(&mover, &opponent).unwrap()
}

fn config(trials: u32, variance_reduction: bool) -> RolloutConfig {
    RolloutConfig {
        trials,
        truncate: None,
        seed: 9,
        variance_reduction,
    }
}

fn money(jacoby: bool) -> CubeState {
    CubeState {
        cube: 1,
        stakes: Stakes::Money {
            beavers: true,
            jacoby_applies: jacoby,
            centred: true,
        },
    }
}

#[test]
fn the_last_roll_cube_decision_matches_the_hand_count() {
    // 36 trials: every first roll once, so the games are exactly the 36 rolls.
    let nets = NeuralEvaluator::shipped();
    let r = cube_decision(
        nets,
        MoveGen::new,
        &last_roll(),
        &money(false),
        Holder::Centred,
        &config(36, false),
        || {},
    );
    let p = 23.0 / 36.0;
    assert!((r.no_double.value - (2.0 * p - 1.0)).abs() < 1e-9, "{r:?}");
    assert!((r.double_take.value - 2.0 * (2.0 * p - 1.0)).abs() < 1e-9);
    assert_eq!(r.double_drop, 1.0);
    assert!(r.double() && r.take(), "a 64 % last roll is double, take");
}

#[test]
fn luck_adjusted_cubeful_rollouts_keep_the_expectation() {
    let nets = NeuralEvaluator::shipped();
    let r = rollout_cubeful(
        nets,
        MoveGen::new,
        &last_roll(),
        &money(false),
        (1, Holder::Centred),
        &config(72, true),
        || {},
    );
    let exact = 2.0 * 23.0 / 36.0 - 1.0;
    assert!((r.value - exact).abs() < 0.03, "{r:?}");
}

#[test]
fn a_dead_cube_rollout_is_the_cubeless_win_chance() {
    // Double match point: nobody can use the cube, and the match goes to the game's winner.
    let state = CubeState {
        cube: 1,
        stakes: Stakes::Match {
            away_me: 1,
            away_opp: 1,
            next: Crawford::Post,
            crawford_game: false,
            holder: Holder::Centred,
        },
    };
    let nets = NeuralEvaluator::shipped();
    let cfg = RolloutConfig {
        truncate: None,
        ..config(72, false)
    };
    let pos = Position::START;
    let cubeful = rollout_cubeful(
        nets,
        MoveGen::new,
        &pos,
        &state,
        (1, Holder::Centred),
        &cfg,
        || {},
    );
    let cubeless = rollout(nets, MoveGen::new, |_| None, &pos, &cfg, || {});
    assert!(
        (cubeful.value - f64::from(cubeless.chances.win)).abs() < 1e-6,
        "{} vs {}",
        cubeful.value,
        cubeless.chances.win
    );
}

#[test]
fn the_cube_in_a_rollout_turns_and_is_reproducible() {
    // From the start with the Jacoby rule off, over 72 games the cube moves in some: the
    // cubeful values differ from the cubeless ones, and the same seed gives the same value.
    let nets = NeuralEvaluator::shipped();
    let cfg = RolloutConfig {
        truncate: None,
        ..config(72, false)
    };
    let run = || {
        rollout_cubeful(
            nets,
            MoveGen::new,
            &Position::START,
            &money(false),
            (1, Holder::Centred),
            &cfg,
            || {},
        )
    };
    let a = run();
    assert_eq!(a, run());
    let cubeless = rollout(nets, MoveGen::new, |_| None, &Position::START, &cfg, || {});
    // Games where the cube turned are worth more or less than their cubeless points, so the
    // mean or the spread of the values differs (the means alone can tie: both are counts of
    // points over 72 games).
    assert!(
        (a.value - cubeless.equity).abs() > 1e-6
            || (a.std_err - cubeless.equity_std_err).abs() > 1e-6,
        "{a:?} {cubeless:?}"
    );
}
