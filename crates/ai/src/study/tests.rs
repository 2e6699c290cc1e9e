//! Tests of the rollouts against exact values and of their reproducibility.

use super::rollout::{rollout, RolloutConfig};
use crate::backgammon::{BearoffDb, Heuristic, NeuralEvaluator};
use tabula_tables::{MoveGen, Position};

/// A two-sided bear-off: the mover has checkers on points 1, 3 and 5, the opponent on 2,
/// 4, 6 and 6 (each on their own points).
fn bearoff_position() -> Position {
    let mut mover = [0u8; 25];
    let mut opponent = [0u8; 25];
    for p in [1, 3, 5] {
        mover[p - 1] = 1;
    }
    for p in [2, 4, 6, 6] {
        opponent[p - 1] += 1;
    }
    Position::from_counts(&mover, &opponent).unwrap()
}

fn config(trials: u32, variance_reduction: bool) -> RolloutConfig {
    RolloutConfig {
        trials,
        truncate: None,
        seed: 7,
        variance_reduction,
    }
}

#[test]
fn rollouts_of_a_bearoff_position_agree_with_the_exact_database() {
    let pos = bearoff_position();
    let exact = BearoffDb::get().chances(&pos).expect("in the database");
    let nets = NeuralEvaluator::shipped();
    for vr in [false, true] {
        let r = rollout(nets, MoveGen::new, |_| None, &pos, &config(1296, vr), || {});
        let diff = (f64::from(r.chances.win) - f64::from(exact.win)).abs();
        assert!(
            diff <= 3.0 * r.std_err[0] + 0.005,
            "variance reduction {vr}: rollout {} ± {}, exact {}",
            r.chances.win,
            r.std_err[0],
            exact.win
        );
    }
}

#[test]
fn a_rollout_is_the_same_on_one_thread_and_on_two() {
    let pos = Position::START;
    let cfg = RolloutConfig {
        trials: 72,
        truncate: Some(6),
        seed: 3,
        variance_reduction: true,
    };
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| rollout(&Heuristic, MoveGen::new, |_| None, &pos, &cfg, || {}))
    };
    assert_eq!(run(1), run(2));
    let other = RolloutConfig { seed: 4, ..cfg };
    let r = rollout(&Heuristic, MoveGen::new, |_| None, &pos, &other, || {});
    assert_ne!(r, run(1), "another seed plays other games");
}

#[test]
fn luck_adjustment_shrinks_the_standard_error() {
    let pos = Position::START;
    let cfg = |vr| RolloutConfig {
        trials: 144,
        truncate: Some(8),
        seed: 5,
        variance_reduction: vr,
    };
    let plain = rollout(&Heuristic, MoveGen::new, |_| None, &pos, &cfg(false), || {});
    let reduced = rollout(&Heuristic, MoveGen::new, |_| None, &pos, &cfg(true), || {});
    assert!(
        reduced.equity_std_err < plain.equity_std_err / 2.0,
        "{} vs {}",
        reduced.equity_std_err,
        plain.equity_std_err
    );
}

#[test]
fn a_cancelled_rollout_gives_no_result() {
    use super::rollout::rollout_resume;
    use super::sums::Sums;
    use std::sync::atomic::AtomicBool;
    let cfg = RolloutConfig {
        trials: 36,
        truncate: Some(2),
        seed: 1,
        variance_reduction: false,
    };
    let run = |cancelled: bool| {
        rollout_resume(
            &Heuristic,
            MoveGen::new,
            |_| None,
            &Position::START,
            &cfg,
            (Sums::default(), 36),
            || {},
            &AtomicBool::new(cancelled),
            |_| {},
        )
    };
    assert_eq!(run(true).trials, 0);
    assert_eq!(run(false).trials, 36);
}

#[test]
fn each_block_of_36_trials_plays_every_first_roll_once_and_every_reply_once() {
    use super::rollout::opening_rolls;
    use std::collections::HashSet;
    let mut pairs = HashSet::new();
    for block in 0..36u64 {
        let rolls: Vec<(u64, u64)> = (block * 36..block * 36 + 36).map(opening_rolls).collect();
        let firsts: HashSet<u64> = rolls.iter().map(|r| r.0).collect();
        let replies: HashSet<u64> = rolls.iter().map(|r| r.1).collect();
        assert_eq!((firsts.len(), replies.len()), (36, 36), "block {block}");
        assert!(rolls.iter().all(|&(a, b)| a < 36 && b < 36));
        pairs.extend(rolls);
    }
    assert_eq!(pairs.len(), 1296, "1,296 trials play every pair once");
}

/// A Never-Finishing dead position (docs/rules/never-finishing.md): the mover's last free
/// checker on its 1-point traps an opposing checker, and one of the mover's is trapped on its
/// 24 under the opponent's other fourteen; each side's free checkers could only bear off.
fn dead_never_finishing_position() -> Position {
    let mut pips = [0i8; 26];
    pips[1] = 1;
    pips[24] = -14;
    Position::from_parts(pips, 1 << 1 | 1 << 24).unwrap()
}

#[test]
fn a_rollout_ends_a_dead_position_as_a_draw() {
    use tabula_tables::{TablesGen, Trapping};
    let pos = dead_never_finishing_position();
    for vr in [false, true] {
        let r = rollout(
            &Heuristic,
            || (TablesGen::new(), Trapping::On),
            |_| None,
            &pos,
            &config(72, vr),
            || {},
        );
        assert_eq!(r.trials, 72);
        // (With variance reduction the luck of each blocked roll is 0 up to rounding.)
        assert!(
            (r.chances.win - 0.5).abs() < 1e-6,
            "variance reduction {vr}: {r:?}"
        );
        assert!(r.chances.win_gammon.abs() + r.chances.lose_gammon.abs() < 1e-6);
        assert!(r.equity.abs() < 1e-6 && r.equity_std_err < 1e-6, "{r:?}");
    }
}

#[test]
fn a_never_finishing_rollout_that_reaches_a_dead_position_ends_it() {
    // The study page's example (a Black blot White can hit or trap): trial 14 of seed 1
    // (`tabula rollout`'s default) reaches a dead position; before dead positions ended a
    // trial, this rollout never returned.
    use crate::never_finishing::NfEvaluator;
    use tabula_tables::notation::TablesPosition;
    use tabula_tables::{TablesGen, Trapping};
    let pos: TablesPosition = "14b/16/1b/5/15w:0:0:0:0:w".parse().unwrap();
    let cfg = RolloutConfig {
        seed: 1,
        ..config(16, true)
    };
    let r = rollout(
        NfEvaluator::shipped(),
        || (TablesGen::new(), Trapping::On),
        |_| None,
        &pos.position,
        &cfg,
        || {},
    );
    assert_eq!(r.trials, 16);
    assert!(r.equity.abs() <= 2.0, "{r:?}");
}
