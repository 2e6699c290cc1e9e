//! Tests named after each Never-Finishing rule, built from the seed's wording.

use super::*;
use crate::movegen::{TablesGen, Trapping};
use crate::position::Position;
use tabula_core::{ByColor, Chance, Color, Decision, Dice, DiceRoll, EndReason, Game, Status};

/// A board from the mover's side: `(point, count)` with negative counts for the opponent,
/// points in `trapped` holding a trapped checker under the count there, and bars.
fn board(points: &[(usize, i8)], trapped: &[usize], mover_bar: i8, opp_bar: i8) -> Position {
    let mut pips = [0i8; 26];
    for &(p, c) in points {
        pips[p] = c;
    }
    pips[25] = mover_bar;
    pips[0] = -opp_bar;
    let mask = trapped.iter().fold(0u32, |m, &p| m | 1 << p);
    Position::from_parts(pips, mask).unwrap()
}

fn plays(pos: &Position, a: u8, b: u8) -> Vec<Position> {
    TablesGen::new()
        .positions(pos, Dice::new(a, b).unwrap(), Trapping::On)
        .to_vec()
}

fn roll(a: u8, b: u8) -> DiceRoll {
    DiceRoll::new(a, b).unwrap()
}

#[test]
fn each_player_starts_with_fifteen_checkers_on_the_opponents_one_point() {
    let p = start_position();
    assert_eq!(p.mover_on(24), 15);
    assert_eq!(p.opponent_on(1), 15);
    assert_eq!(p.flip(), p);
}

#[test]
fn landing_on_a_blot_offers_hit_and_trap_as_two_distinct_moves() {
    // Mover on 24 (14) and 13 (1); an opposing blot on 18. 6-6 lands there.
    let pos = board(&[(24, 14), (18, -1), (1, -14)], &[], 0, 0);
    let results = TablesGen::new()
        .plays(&pos, Dice::new(6, 5).unwrap(), Trapping::On)
        .1
        .to_vec();
    let hit = results
        .iter()
        .any(|p| p.steps().iter().any(|s| s.to == 18 && s.hit));
    let trap = results
        .iter()
        .any(|p| p.steps().iter().any(|s| s.to == 18 && s.trap));
    assert!(hit && trap);
    let after = plays(&pos, 6, 5);
    let hit_pos = after
        .iter()
        .find(|p| p.opponent_on(0) == 1 && p.mover_on(18) == 1 && p.mover_on(19) == 1);
    let trap_pos = after
        .iter()
        .find(|p| p.is_trapped(18) && p.mover_on(18) == 1 && p.mover_on(19) == 1);
    assert!(hit_pos.is_some() && trap_pos.is_some());
    assert_ne!(hit_pos, trap_pos);
}

#[test]
fn a_trapped_checker_cannot_move() {
    // The mover's only checker off the 1-point is trapped on 10 under one opposing checker.
    let pos = board(&[(10, -1), (1, 14), (20, -14)], &[10], 0, 0);
    for p in plays(&pos, 6, 5) {
        assert!(p.is_trapped(10), "the trapped checker moved: {p:?}");
    }
}

#[test]
fn a_trapped_checker_is_freed_when_its_last_trapper_leaves() {
    // The mover traps an opposing checker on 10 with one checker, which then leaves.
    let pos = board(&[(10, 1), (24, 14), (3, -14)], &[10], 0, 0);
    let after = plays(&pos, 6, 5);
    let freed = after
        .iter()
        .find(|p| p.mover_on(10) == 0)
        .expect("the trapper can move on");
    assert_eq!(freed.pip(10), -1);
    assert!(!freed.is_trapped(10));
}

#[test]
fn a_point_owned_by_a_single_trapper_is_closed_to_the_trapped_side() {
    // The opponent's single checker traps one of ours on 20: we may not land there.
    let pos = board(&[(20, -1), (24, 14), (3, -14)], &[20], 0, 0);
    for p in plays(&pos, 4, 1) {
        assert_eq!(
            p.pip(20),
            -1,
            "landed on a point owned by the opponent: {p:?}"
        );
    }
    // Two opposing checkers close a point too.
    let pos = board(&[(20, -2), (24, 15), (3, -13)], &[], 0, 0);
    assert!(plays(&pos, 4, 4).is_empty());
}

#[test]
fn a_checker_on_the_bar_enters_first_and_may_hit_or_trap_a_blot() {
    // The mover has a checker on the bar; the opponent has a blot on the mover's 20.
    let pos = board(&[(20, -1), (10, 14), (3, -14)], &[], 1, 0);
    let results = plays(&pos, 5, 1);
    assert!(results
        .iter()
        .all(|p| p.mover_on(25) == 0 && p.mover_on(10) >= 13));
    assert!(results
        .iter()
        .any(|p| p.is_trapped(20) && p.mover_on(20) >= 1));
    assert!(results
        .iter()
        .any(|p| p.opponent_on(0) == 1 && p.mover_on(20) >= 1));
    // Entry on a point owned by a trapper is refused.
    let closed = board(&[(19, -1), (20, -1), (10, 12), (3, -13)], &[19, 20], 1, 0);
    assert!(plays(&closed, 6, 5).is_empty());
}

#[test]
fn no_bearing_off_while_one_of_your_checkers_is_trapped_even_after_bearing_off_has_begun() {
    // Twelve checkers home and two off; one trapped on our 3-point by an opposing checker.
    let pos = board(&[(6, 6), (5, 6), (3, -1), (20, -14)], &[3], 0, 0);
    assert_eq!(pos.mover_off(), 2);
    for p in plays(&pos, 6, 5) {
        assert_eq!(p.mover_off(), 2, "bore off with a trapped checker: {p:?}");
    }
    // Freed (no trapped mark): bearing off is allowed again.
    let free = board(&[(6, 6), (5, 6), (3, 1), (20, -15)], &[], 0, 0);
    assert!(plays(&free, 6, 5).iter().any(|p| p.mover_off() == 4));
}

#[test]
fn bearing_off_uses_the_higher_die_rule() {
    // Checkers on 5 and 2 with 6-3: the 6 bears off from 5, the highest; the 3 may not bear
    // off from 2 while 5 is occupied, so played first it moves 5/2 and the 6 then bears off
    // from 2.
    let pos = board(&[(5, 1), (2, 1), (20, -15)], &[], 0, 0);
    let results = plays(&pos, 6, 3);
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results.iter().any(|p| p.mover_off() == 15));
    assert!(results
        .iter()
        .any(|p| p.mover_off() == 14 && p.mover_on(2) == 1));
}

#[test]
fn only_one_die_playable_forces_the_larger() {
    // One checker on 23, opposing points on 18 and 17 and 12 and 11: a 3 or a 2 alone.
    let pos = board(
        &[
            (23, 1),
            (1, 14),
            (18, -2),
            (17, -2),
            (12, -2),
            (11, -2),
            (24, -7),
        ],
        &[],
        0,
        0,
    );
    let results = plays(&pos, 3, 2);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].mover_on(20), 1);
}

#[test]
fn a_trap_on_an_intermediate_point_is_released_as_the_checker_moves_on() {
    // A blot on 18; one checker 24 moves 6 then 5: through 18 (hit) or through 19.
    let pos = board(&[(24, 15), (18, -1), (1, -14)], &[], 0, 0);
    let results = plays(&pos, 6, 5);
    let through = results
        .iter()
        .filter(|p| p.mover_on(13) == 1 && p.mover_on(24) == 14)
        .collect::<Vec<_>>();
    // Passing on (trap released, or through 19) leaves the blot untouched; hitting on the
    // way sends it to the bar: two distinct results.
    assert_eq!(through.len(), 2, "{through:?}");
    assert!(through.iter().any(|p| p.pip(18) == -1 && !p.is_trapped(18)));
    assert!(through.iter().any(|p| p.opponent_on(0) == 1));
}

#[test]
fn a_blot_freed_during_a_turn_can_be_hit_or_trapped_by_a_later_step() {
    // We trap an opposing checker on 12 with one checker; with 2-2 the trapper leaves (12/10)
    // and another of ours from 14 can land on 12 afterwards, hitting or trapping it again.
    let pos = board(&[(12, 1), (14, 1), (24, 13), (3, -14)], &[12], 0, 0);
    let results = plays(&pos, 2, 2);
    assert!(results
        .iter()
        .any(|p| p.opponent_on(0) == 1 && p.mover_on(12) >= 1 && p.mover_on(14) == 0));
}

#[test]
fn a_gammon_counts_two_points_and_there_is_no_backgammon() {
    // White bears off its last checker; Black, with none off, has checkers on our 1-point.
    let pos = board(&[(1, 1), (24, -15)], &[], 0, 0);
    let game = NfGame::from_setup(pos, Color::White, None, Trapping::On);
    let mut s = NeverFinishing::from_game(NfOptions::default(), game, ByColor::default());
    s.roll(roll(3, 2)).unwrap();
    let a = s.legal_actions()[0];
    s.apply(&a).unwrap();
    assert_eq!(
        s.results()[0],
        NfResult {
            winner: Some(Color::White),
            points: 2,
            reason: EndReason::BoreOffGammon,
        }
    );
}

#[test]
fn a_single_win_counts_one_point() {
    let pos = board(&[(1, 1), (24, -14)], &[], 0, 0);
    let game = NfGame::from_setup(pos, Color::White, None, Trapping::On);
    let mut s = NeverFinishing::from_game(NfOptions::default(), game, ByColor::default());
    s.roll(roll(3, 2)).unwrap();
    let a = s.legal_actions()[0];
    s.apply(&a).unwrap();
    assert_eq!(s.results()[0].points, 1);
    assert_eq!(s.results()[0].reason, EndReason::BoreOffSingle);
}

#[test]
fn a_dead_position_is_a_draw() {
    // White's last free checker stands on its 1-point trapping a Black checker; one White
    // checker is trapped on White's 24 under Black's other fourteen (Black's 1-point). Each
    // side's free checkers could only bear off, and each has a trapped checker: nobody can
    // ever move.
    let pos = board(&[(1, 1), (24, -14)], &[1, 24], 0, 0);
    assert_eq!((pos.mover_off(), pos.opponent_off()), (13, 0));
    let game = NfGame::from_setup(pos, Color::White, None, Trapping::On);
    let mut s = NeverFinishing::from_game(NfOptions::default(), game, ByColor::default());
    s.roll(roll(6, 5)).unwrap();
    assert_eq!(
        s.results()[0],
        NfResult {
            winner: None,
            points: 0,
            reason: EndReason::DeadPosition,
        }
    );
    // After a draw the next game starts with an opening roll.
    assert_eq!(s.status(), Status::Chance(Chance::Opening));
}

#[test]
fn a_blocked_roll_is_not_a_dead_position() {
    // The same, but White's free checker is on its 2-point: a 1 moves it, so the game goes on.
    let pos = board(&[(2, 1), (24, -14)], &[2, 24], 0, 0);
    let game = NfGame::from_setup(pos, Color::White, None, Trapping::On);
    let mut s = NeverFinishing::from_game(NfOptions::default(), game, ByColor::default());
    s.roll(roll(6, 5)).unwrap();
    assert!(s.results().is_empty());
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::Black)));
}

#[test]
fn the_opening_winner_rolls_both_dice_again() {
    let mut s = NeverFinishing::new(NfOptions::default()).unwrap();
    s.roll(roll(2, 2)).unwrap();
    assert_eq!(s.status(), Status::Chance(Chance::Opening));
    s.roll(roll(2, 5)).unwrap();
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::Black)));
    s.roll(roll(6, 4)).unwrap();
    assert_eq!(
        s.status(),
        Status::Decide {
            player: Color::Black,
            decision: Decision::Move
        }
    );
    assert_eq!(s.game().dice(), Some(Dice::new(6, 4).unwrap()));
}

#[test]
fn the_winner_of_the_previous_game_starts_the_next_with_a_fresh_roll() {
    let pos = board(&[(1, 1), (24, -14)], &[], 0, 0);
    let game = NfGame::from_setup(pos, Color::Black, None, Trapping::On);
    let options = NfOptions {
        scoring: Scoring::Match { length: 5 },
        trapping: Trapping::On,
    };
    let mut s = NeverFinishing::from_game(options, game, ByColor::default());
    s.roll(roll(1, 2)).unwrap();
    let a = s.legal_actions()[0];
    s.apply(&a).unwrap();
    assert_eq!(s.score().black, 1);
    assert_eq!(s.game_number(), 2);
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::Black)));
}

#[test]
fn a_match_ends_when_a_player_reaches_the_length() {
    let pos = board(&[(1, 1), (24, -15)], &[], 0, 0);
    let game = NfGame::from_setup(pos, Color::White, None, Trapping::On);
    let options = NfOptions {
        scoring: Scoring::Match { length: 3 },
        trapping: Trapping::On,
    };
    let mut s = NeverFinishing::from_game(options, game, ByColor { white: 1, black: 0 });
    s.roll(roll(1, 2)).unwrap();
    let a = s.legal_actions()[0];
    s.apply(&a).unwrap();
    assert!(s.is_over());
    assert_eq!(s.score().white, 3);
    assert!(s.roll(roll(1, 2)).is_err());
}

#[test]
fn illegal_moves_and_unneeded_dice_change_nothing() {
    let mut s = NeverFinishing::new(NfOptions::default()).unwrap();
    assert_eq!(
        s.apply(&Action::Move(start_position())),
        Err(NfError::DiceNeeded)
    );
    s.roll(roll(3, 1)).unwrap();
    s.roll(roll(6, 5)).unwrap();
    let before = s.game().clone();
    assert!(matches!(
        s.apply(&Action::Move(start_position())),
        Err(NfError::IllegalMove { .. })
    ));
    assert_eq!(s.roll(roll(1, 1)), Err(NfError::NoDiceNeeded));
    assert_eq!(s.game(), &before);
}

#[test]
fn both_dice_must_be_used_when_possible() {
    let results = plays(&start_position(), 6, 5);
    assert!(results.iter().all(|p| p.mover_pips() == 15 * 24 - 11));
}

#[test]
fn every_decision_is_a_move_since_there_is_no_cube() {
    let mut s = NeverFinishing::new(NfOptions::default()).unwrap();
    let mut dice = tabula_core::ChaChaDice::new(4);
    for _ in 0..300 {
        match s.status() {
            Status::Over(_) => break,
            Status::Chance(_) => s.roll(tabula_core::DiceSource::roll(&mut dice)).unwrap(),
            Status::Decide { decision, .. } => {
                assert_eq!(decision, Decision::Move);
                let a = s.legal_actions()[0];
                s.apply(&a).unwrap();
            }
        }
    }
}
