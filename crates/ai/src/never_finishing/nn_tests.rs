//! The Never-Finishing net: its encoding mirrors and reads trapped checkers right, the
//! evaluator answers what it knows exactly, the shipped weights load and are sane, and a tiny
//! training run lowers its loss, deterministically.

use super::encode::{dense, mirror_index, INPUTS, PER_SIDE};
use super::eval::{probabilities, NfEvaluator};
use crate::backgammon::Evaluator;
use crate::search::{best_play, roll};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabula_core::Dice;
use tabula_tables::never_finishing::start_position;
use tabula_tables::{MoveGen, Position, TablesGen, Trapping};

/// A middle game with two trapped checkers: the mover has one trapped on its 10-point under
/// a single opposing checker, the opponent one trapped on the mover's 20-point (its own
/// 5-point) under two of the mover's.
fn trapped_position() -> Position {
    let mut pips = [0i8; 26];
    pips[24] = 8;
    pips[20] = 2;
    pips[13] = 1;
    pips[6] = 3;
    pips[10] = -1;
    pips[1] = -9;
    pips[3] = -2;
    pips[17] = -1;
    pips[0] = -1;
    Position::from_parts(pips, 1 << 10 | 1 << 20).unwrap()
}

#[test]
fn the_encoding_of_a_position_is_the_mirror_of_its_flip() {
    for pos in [trapped_position(), start_position()] {
        let (a, b) = (dense(&pos), dense(&pos.flip()));
        for i in 0..INPUTS {
            assert_eq!(a[i], b[mirror_index(i)], "input {i} of {pos:?}");
        }
    }
    // The start is its own mirror: fifteen on the 24-point, 360 pips a side.
    let s = dense(&start_position());
    assert_eq!(&s[23 * 4..24 * 4], &[1.0, 1.0, 1.0, 1.0]);
    assert!((s[98] - 1.0).abs() < 1e-6 && (s[PER_SIDE + 98] - 1.0).abs() < 1e-6);
}

#[test]
fn a_trapped_checker_is_its_owners_trapped_input_not_a_free_checker() {
    let pos = trapped_position();
    let d = dense(&pos);
    let trapped = |side: usize, point: usize| d[side * PER_SIDE + 99 + point - 1];
    let unary = |side: usize, point: usize| &d[side * PER_SIDE + (point - 1) * 4..][..4];
    // The mover's trapped checker on its 10-point: no free mover checker there, the trapped
    // input set; the opponent's single trapper on its own 15-point is a free checker of it.
    assert_eq!(unary(0, 10), &[0.0; 4]);
    assert_eq!(trapped(0, 10), 1.0);
    assert_eq!(unary(1, 15), &[1.0, 0.0, 0.0, 0.0]);
    // The opponent's trapped checker on its own 5-point under the mover's two on the 20-point.
    assert_eq!(unary(1, 5), &[0.0; 4]);
    assert_eq!(trapped(1, 5), 1.0);
    assert_eq!(unary(0, 20), &[1.0, 1.0, 0.0, 0.0]);
    // Nothing else is trapped; each side has one trapped checker; the opponent's trapper on
    // its 15-point stands alone, the mover's two on the 20-point do not.
    let count = |side: usize| (1..=24).map(|p| trapped(side, p)).sum::<f32>();
    assert_eq!((count(0), count(1)), (1.0, 1.0));
    assert_eq!(d[99 + 24], 0.5);
    assert_eq!(d[PER_SIDE + 99 + 24], 0.5);
    assert_eq!((d[99 + 25], d[PER_SIDE + 99 + 25]), (0.0, 0.5));
    // Pip counts include the trapped checkers: they still have to come home.
    assert!((d[98] - pos.mover_pips() as f32 / 360.0).abs() < 1e-6);
    assert!((d[PER_SIDE + 98] - pos.opponent_pips() as f32 / 360.0).abs() < 1e-6);
}

#[test]
fn a_race_with_nothing_trapped_is_a_backgammon_race() {
    // No contact, nothing trapped: hitting and trapping can never happen again, so the
    // Never-Finishing generator gives backgammon's plays and the backgammon judges apply.
    let mut pips = [0i8; 26];
    pips[1..=9].copy_from_slice(&[2, 2, 2, 1, 2, 2, 1, 1, 1]);
    pips[14..=24].copy_from_slice(&[-1, 0, -2, -1, -2, -2, -1, -2, -2, -1, -1]);
    let race = Position::from_parts(pips, 0).unwrap();
    assert!(race.is_race());
    let (mut nf, mut bg) = (TablesGen::new(), MoveGen::new());
    for dice in Dice::all() {
        for p in [race, race.flip()] {
            let mut a = nf.positions(&p, dice, Trapping::On).to_vec();
            let mut b = bg.positions(&p, dice).to_vec();
            a.sort_by_key(|q| format!("{q:?}"));
            b.sort_by_key(|q| format!("{q:?}"));
            assert_eq!(a, b, "{dice:?}");
        }
    }
    // Outside the bear-off database the net answers it; home, the database does.
    assert!(NfEvaluator::known(&race).is_none());
    let mut home = [0i8; 26];
    home[1..=6].copy_from_slice(&[3, 2, 2, 1, 1, 1]);
    home[19..=24].copy_from_slice(&[-1, -1, -2, -2, -3, -3]);
    let home = Position::from_parts(home, 0).unwrap();
    assert_eq!(
        NfEvaluator::known(&home),
        crate::backgammon::BearoffDb::get().chances(&home)
    );
    assert!(NfEvaluator::known(&home).is_some());
    // With a trapped checker there is contact and the net answers.
    assert!(NfEvaluator::known(&trapped_position()).is_none());
    assert!(NfEvaluator::known(&start_position()).is_none());
}

#[test]
fn finished_boards_are_exact_and_gammons_need_a_loser_with_none_off() {
    // The opponent bore off all fifteen; the mover none: a gammon lost.
    let mut pips = [0i8; 26];
    pips[24] = 15;
    let lost = Position::from_parts(pips, 0).unwrap();
    let p = NfEvaluator::known(&lost).unwrap();
    assert_eq!((p.win, p.lose_gammon, p.lose_backgammon), (0.0, 1.0, 0.0));
    assert_eq!(p.equity(), -2.0);
    pips[24] = 14;
    let single = Position::from_parts(pips, 0).unwrap();
    assert_eq!(NfEvaluator::known(&single).unwrap().equity(), -1.0);
    // The net's outputs are made consistent: no gammon against a side that bore off, no
    // backgammons at all.
    let p = probabilities([0.6, 0.9, 0.8, 0.3, 0.2], &trapped_position());
    assert_eq!((p.win, p.win_gammon, p.win_backgammon), (0.6, 0.6, 0.0));
    assert_eq!((p.lose_gammon, p.lose_backgammon), (0.3, 0.0));
}

#[test]
fn the_shipped_weights_load_and_are_sane() {
    let nf = NfEvaluator::shipped();
    let start = nf.evaluate(&start_position());
    assert!(start.equity().abs() < 0.3, "{start:?}");
    let mut gen = (TablesGen::new(), Trapping::On);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut pos = start_position();
    for _ in 0..300 {
        let p = nf.evaluate(&pos);
        for v in [p.win, p.win_gammon, p.lose_gammon] {
            assert!((0.0..=1.0).contains(&v), "{p:?}");
        }
        assert!(
            p.win >= p.win_gammon && 1.0 - p.win >= p.lose_gammon,
            "{p:?}"
        );
        match best_play(nf, &mut gen, &pos, roll(&mut rng)) {
            Some(after) if after.mover_off() == 15 => break,
            Some(after) => pos = after.flip(),
            None => pos = pos.flip(),
        }
    }
    // A checker of the player on roll trapped on its 6-point under the opponent's anchor
    // (it cannot bear off until the anchor leaves) is worse for it than the same checker
    // free on its 7-point.
    let mut pips = [0i8; 26];
    pips[1..=6].copy_from_slice(&[2, 2, 2, 2, 2, -2]);
    pips[19..=24].copy_from_slice(&[-2, -2, -2, -2, -2, 1]);
    pips[0] = -1;
    pips[8] = 2;
    let trapped = Position::from_parts(pips, 1 << 6).unwrap();
    pips[7] = 1;
    let free = Position::from_parts(pips, 0).unwrap();
    assert!(
        nf.evaluate(&trapped).equity() < nf.evaluate(&free).equity(),
        "trapped {:?}, free {:?}",
        nf.evaluate(&trapped),
        nf.evaluate(&free)
    );
}

//END

#[test]
fn the_shipped_weights_write_back_to_the_same_bytes() {
    // The net library reads and writes the shipped file unchanged, byte for byte.
    let shipped = include_bytes!("../../weights/never-finishing.tnn");
    let weights = crate::nn::file::read_for(shipped, INPUTS).unwrap();
    assert_eq!(
        crate::nn::file::write_for(&weights, INPUTS).unwrap(),
        shipped
    );
}
