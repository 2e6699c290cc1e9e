//! Unit tests, one per cube, match and flow rule, named after the rule.

use super::*;
use crate::position::Position;
use tabula_core::{ByColor, Chance, Color, Decision, Dice, DiceRoll, EndReason, Game, Status};

fn roll(a: u8, b: u8) -> DiceRoll {
    DiceRoll::new(a, b).unwrap()
}

fn money(beavers: bool, jacoby: bool, automatic_doubles: u8) -> Options {
    Options {
        mode: Mode::Money {
            beavers,
            jacoby,
            automatic_doubles,
            games: None,
        },
        bar_quadruple: false,
    }
}

/// White to roll, about to bear off its last checker (on its 1-point); Black's fifteen are
/// placed by `black` (Black's own points, index 24 = bar) with `black_off` already off.
fn last_checker(options: Options, black: [u8; 25], cube: Cube) -> Backgammon {
    let mut white = [0u8; 25];
    white[0] = 1;
    let board = Position::from_counts(&white, &black).unwrap();
    let game = GameState::from_setup(options, board, Color::White, cube, true, None);
    Backgammon::from_game(options, game, ByColor::default(), false).unwrap()
}

/// Rolls for White (doubling first if asked) and bears off the last checker.
fn bear_off_last(s: &mut Backgammon) {
    if s.status()
        == (Status::Decide {
            player: Color::White,
            decision: Decision::DoubleOrRoll,
        })
    {
        s.apply(&Action::Roll).unwrap();
    }
    s.roll(roll(6, 5)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
}

fn black_home_15() -> [u8; 25] {
    let mut b = [0u8; 25];
    b[0] = 15;
    b
}

#[test]
fn opening_roll_ties_are_rolled_again() {
    let mut s = Backgammon::new(Options::match_to(5).unwrap()).unwrap();
    s.roll(roll(4, 4)).unwrap();
    assert_eq!(s.status(), Status::Chance(Chance::Opening));
    assert_eq!(s.game().cube().value(), 1);
}

#[test]
fn opening_roll_higher_die_moves_first_with_both_dice() {
    let mut s = Backgammon::new(Options::money()).unwrap();
    s.roll(roll(2, 6)).unwrap();
    assert_eq!(
        s.status(),
        Status::Decide {
            player: Color::Black,
            decision: Decision::Move
        }
    );
    assert_eq!(s.game().dice(), Some(Dice::new(6, 2).unwrap()));
}

#[test]
fn automatic_doubles_double_the_centred_cube_on_opening_ties_up_to_the_cap() {
    let mut s = Backgammon::new(money(false, false, 2)).unwrap();
    for _ in 0..3 {
        s.roll(roll(3, 3)).unwrap();
    }
    assert_eq!(s.game().cube(), Cube::new(4, None).unwrap());
    s.roll(roll(5, 1)).unwrap();
    assert_eq!(s.game().turn(), Color::White);
}

#[test]
fn automatic_doubles_are_never_used_in_match_play() {
    let mut s = Backgammon::new(Options::match_to(7).unwrap()).unwrap();
    s.roll(roll(3, 3)).unwrap();
    assert_eq!(s.game().cube().value(), 1);
}

fn after_opening(options: Options) -> Backgammon {
    let mut s = Backgammon::new(options).unwrap();
    s.roll(roll(3, 1)).unwrap(); // White opens
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    s
}

#[test]
fn double_is_offered_before_rolling_when_the_cube_is_centred() {
    let s = after_opening(Options::money());
    assert_eq!(
        s.status(),
        Status::Decide {
            player: Color::Black,
            decision: Decision::DoubleOrRoll
        }
    );
    assert!(s.legal_actions().contains(&Action::Double));
}

#[test]
fn take_turns_the_cube_and_gives_it_to_the_taker() {
    let mut s = after_opening(Options::money());
    s.apply(&Action::Double).unwrap();
    assert_eq!(
        s.status(),
        Status::Decide {
            player: Color::White,
            decision: Decision::TakeOrDrop
        }
    );
    s.apply(&Action::Take).unwrap();
    assert_eq!(s.game().cube(), Cube::new(2, Some(Color::White)).unwrap());
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::Black)));
}

#[test]
fn only_the_cube_owner_may_redouble() {
    let mut s = after_opening(Options::money());
    s.apply(&Action::Double).unwrap();
    s.apply(&Action::Take).unwrap(); // White owns a 2-cube
    s.roll(roll(6, 5)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    // White, the owner, may redouble.
    assert!(s.legal_actions().contains(&Action::Double));
    s.apply(&Action::Roll).unwrap();
    s.roll(roll(4, 2)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    // Black does not own the cube: it just rolls.
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::Black)));
    assert!(s.apply(&Action::Double).is_err());
}

#[test]
fn drop_ends_the_game_for_the_value_before_the_double() {
    let mut s = after_opening(Options::money());
    s.apply(&Action::Double).unwrap();
    s.apply(&Action::Drop).unwrap();
    let r = s.results()[0];
    assert_eq!(
        (r.winner, r.points, r.ending, r.reason),
        (Color::Black, 1, Ending::Dropped, EndReason::CubeDropped)
    );
    assert_eq!(s.score().black, 1);
    assert_eq!(s.game_number(), 2);
}

#[test]
fn beaver_redoubles_and_the_beaverer_keeps_the_cube() {
    let mut s = after_opening(Options::money());
    s.apply(&Action::Double).unwrap();
    assert!(s.legal_actions().contains(&Action::Beaver));
    s.apply(&Action::Beaver).unwrap();
    assert_eq!(s.game().cube(), Cube::new(4, Some(Color::White)).unwrap());
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::Black)));
}

#[test]
fn beavers_are_refused_when_not_allowed() {
    for options in [Options::match_to(5).unwrap(), money(false, true, 0)] {
        let mut s = after_opening(options);
        s.apply(&Action::Double).unwrap();
        assert!(!s.legal_actions().contains(&Action::Beaver));
        let before = s.game().clone();
        assert!(s.apply(&Action::Beaver).is_err());
        assert_eq!(s.game(), &before);
    }
}

#[test]
fn gammon_counts_double() {
    let mut s = last_checker(money(false, false, 0), black_home_15(), Cube::CENTRED);
    bear_off_last(&mut s);
    assert_eq!(s.results()[0].points, 2);
    assert_eq!(s.results()[0].reason, EndReason::BoreOffGammon);
}

#[test]
fn single_game_when_the_loser_has_borne_off() {
    let mut black = [0u8; 25];
    black[0] = 14;
    let mut s = last_checker(money(false, false, 0), black, Cube::CENTRED);
    bear_off_last(&mut s);
    assert_eq!(s.results()[0].multiplier, 1);
    assert_eq!(s.results()[0].reason, EndReason::BoreOffSingle);
}

#[test]
fn backgammon_counts_triple_with_a_checker_in_the_winners_home_board() {
    let mut black = black_home_15();
    black[0] = 14;
    black[20] = 1; // Black's 21-point is White's 4-point
    let mut s = last_checker(money(false, false, 0), black, Cube::CENTRED);
    bear_off_last(&mut s);
    assert_eq!(s.results()[0].multiplier, 3);
    assert_eq!(s.results()[0].reason, EndReason::BoreOffBackgammon);
}

#[test]
fn backgammon_with_a_checker_on_the_bar_counts_triple_or_quadruple_when_enabled() {
    let mut black = black_home_15();
    black[0] = 14;
    black[24] = 1;
    for (quad, expected) in [(false, 3), (true, 4)] {
        let mut options = money(false, false, 0);
        options.bar_quadruple = quad;
        let mut s = last_checker(options, black, Cube::CENTRED);
        bear_off_last(&mut s);
        assert_eq!(s.results()[0].multiplier, expected);
    }
}

#[test]
fn jacoby_rule_counts_gammons_as_singles_while_the_cube_is_centred() {
    let mut s = last_checker(money(true, true, 0), black_home_15(), Cube::CENTRED);
    bear_off_last(&mut s);
    assert_eq!(s.results()[0].points, 1);
    assert_eq!(s.results()[0].reason, EndReason::JacobySingle);
}

#[test]
fn jacoby_rule_counts_automatic_doubles_as_an_unturned_cube() {
    let cube = Cube::new(2, None).unwrap();
    let mut s = last_checker(money(false, true, 3), black_home_15(), cube);
    bear_off_last(&mut s);
    assert_eq!((s.results()[0].multiplier, s.results()[0].points), (1, 2));
}

#[test]
fn jacoby_rule_lets_gammons_count_once_the_cube_is_turned() {
    let cube = Cube::new(2, Some(Color::White)).unwrap();
    let mut s = last_checker(money(true, true, 0), black_home_15(), cube);
    bear_off_last(&mut s);
    assert_eq!(s.results()[0].points, 4);
}

#[test]
fn jacoby_rule_is_not_used_in_match_play() {
    let mut s = last_checker(
        Options::match_to(7).unwrap(),
        black_home_15(),
        Cube::CENTRED,
    );
    bear_off_last(&mut s);
    assert_eq!(s.results()[0].points, 2);
    assert_eq!(s.score().white, 2);
}

#[test]
fn resignation_accepted_ends_the_game_at_its_level() {
    let mut s = after_opening(money(false, false, 0));
    s.apply(&Action::Resign(ResignLevel::Gammon)).unwrap();
    assert_eq!(
        s.status(),
        Status::Decide {
            player: Color::White,
            decision: Decision::ResignationAnswer
        }
    );
    s.apply(&Action::AcceptResignation).unwrap();
    let r = s.results()[0];
    assert_eq!(
        (r.winner, r.points, r.ending, r.reason),
        (
            Color::White,
            2,
            Ending::Resigned,
            EndReason::Resigned(tabula_core::Level::Gammon)
        )
    );
}

#[test]
fn resignation_of_a_gammon_counts_single_under_the_jacoby_rule() {
    let mut s = after_opening(money(false, true, 0));
    s.apply(&Action::Resign(ResignLevel::Backgammon)).unwrap();
    s.apply(&Action::AcceptResignation).unwrap();
    assert_eq!(s.results()[0].points, 1);
}

#[test]
fn resignation_rejected_returns_the_decision_to_the_resigner() {
    let mut s = after_opening(Options::money());
    s.apply(&Action::Resign(ResignLevel::Single)).unwrap();
    s.apply(&Action::RejectResignation).unwrap();
    assert_eq!(
        s.status(),
        Status::Decide {
            player: Color::Black,
            decision: Decision::DoubleOrRoll
        }
    );
    // The same level may not be offered again this turn; a higher one may.
    assert!(!s
        .legal_actions()
        .contains(&Action::Resign(ResignLevel::Single)));
    assert!(s.apply(&Action::Resign(ResignLevel::Single)).is_err());
    assert!(s
        .legal_actions()
        .contains(&Action::Resign(ResignLevel::Gammon)));
}

#[test]
fn resignation_rejected_while_moving_keeps_the_dice() {
    let mut s = Backgammon::new(Options::money()).unwrap();
    s.roll(roll(6, 1)).unwrap();
    s.apply(&Action::Resign(ResignLevel::Single)).unwrap();
    s.apply(&Action::RejectResignation).unwrap();
    assert_eq!(s.game().dice(), Some(Dice::new(6, 1).unwrap()));
}

/// A 3-point match at the given score, White on roll with the cube available if the rules
/// allow it.
fn match_at(white: u32, black: u32, crawford_played: bool) -> Backgammon {
    let options = Options::match_to(3).unwrap();
    let mut s = Backgammon::from_game(
        options,
        GameState::new(options, true),
        ByColor { white, black },
        crawford_played,
    )
    .unwrap();
    // Finish the current game by a drop so the session starts the next game by its rules.
    s.roll(roll(3, 1)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    s.apply(&Action::Double).unwrap();
    s.apply(&Action::Drop).unwrap(); // Black wins 1 point
    s
}

#[test]
fn crawford_game_has_no_cube() {
    let mut s = match_at(0, 1, false); // Black reaches 2 of 3: the next game is Crawford
    assert!(s.is_crawford_game());
    s.roll(roll(3, 1)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    // Black does not get a cube decision in the Crawford game.
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::Black)));
}

#[test]
fn post_crawford_games_allow_doubling() {
    let mut s = match_at(0, 1, true);
    assert!(!s.is_crawford_game());
    s.roll(roll(1, 3)).unwrap(); // Black opens
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    assert!(s.legal_actions().contains(&Action::Double));
}

#[test]
fn crawford_rule_off_keeps_the_cube_at_match_point() {
    let options = Options {
        mode: Mode::Match {
            length: 3,
            crawford: false,
        },
        bar_quadruple: false,
    };
    let game = GameState::new(options, true);
    let score = ByColor { white: 0, black: 1 };
    let mut s = Backgammon::from_game(options, game, score, false).unwrap();
    s.roll(roll(3, 1)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    s.apply(&Action::Double).unwrap();
    s.apply(&Action::Drop).unwrap(); // Black reaches 2 of 3
    assert!(!s.is_crawford_game());
    s.roll(roll(3, 1)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    assert!(s.legal_actions().contains(&Action::Double));
}

#[test]
fn match_ends_when_a_player_reaches_the_length() {
    let mut s = match_at(0, 2, true);
    assert!(s.is_over());
    assert_eq!(s.score(), ByColor { white: 0, black: 3 });
    // The match's outcome names the match and the way its last game ended (a drop).
    let Status::Over(outcome) = s.status() else {
        panic!("the match is over")
    };
    assert_eq!((outcome.winner, outcome.points), (Some(Color::Black), 3));
    assert_eq!(outcome.reason, EndReason::CubeDropped);
    assert_eq!(
        outcome.session,
        Some(tabula_core::SessionEnd::Match {
            length: 3,
            score: ByColor { white: 0, black: 3 }
        })
    );
    assert_eq!(outcome.code(), "match-won");
    assert_eq!(s.apply(&Action::Roll), Err(BackgammonError::GameOver));
    assert_eq!(s.roll(roll(1, 2)), Err(BackgammonError::GameOver));
}

#[test]
fn score_is_carried_from_game_to_game() {
    let mut s = after_opening(Options::money());
    s.apply(&Action::Double).unwrap();
    s.apply(&Action::Drop).unwrap();
    assert_eq!(s.score(), ByColor { white: 0, black: 1 });
    s.roll(roll(5, 2)).unwrap();
    let mv = s.legal_actions()[0];
    s.apply(&mv).unwrap();
    s.apply(&Action::Double).unwrap();
    s.apply(&Action::Drop).unwrap();
    assert_eq!(s.score(), ByColor { white: 0, black: 2 });
    assert_eq!(s.results().len(), 2);
}

#[test]
fn money_session_stops_after_its_game_limit() {
    let mut options = money(false, false, 0);
    if let Mode::Money { games, .. } = &mut options.mode {
        *games = Some(1);
    }
    let mut s = after_opening(options);
    s.apply(&Action::Double).unwrap();
    s.apply(&Action::Drop).unwrap();
    assert!(s.is_over());
}

#[test]
fn no_legal_move_forfeits_the_turn() {
    // White on the bar against Black's closed home board.
    let mut white = [0u8; 25];
    white[24] = 1;
    white[5] = 14;
    let mut black = [0u8; 25];
    black[..6].fill(2);
    black[12] = 3;
    let options = Options::match_to(5).unwrap();
    let board = Position::from_counts(&white, &black).unwrap();
    let cube = Cube::new(2, Some(Color::Black)).unwrap();
    let game = GameState::from_setup(options, board, Color::White, cube, true, None);
    let mut s = Backgammon::from_game(options, game, ByColor::default(), true).unwrap();
    assert_eq!(s.status(), Status::Chance(Chance::Roll(Color::White)));
    s.roll(roll(6, 6)).unwrap();
    assert_eq!(
        s.status(),
        Status::Decide {
            player: Color::Black,
            decision: Decision::DoubleOrRoll
        }
    );
    assert!(matches!(
        s.events().last(),
        Some(Event::NoMove {
            player: Color::White
        })
    ));
}

#[test]
fn only_one_die_playable_forces_the_larger() {
    // Checked in depth against gnubg by the fixture test; here one readable case: a White
    // checker on 23 may play 23/20 (3) but 3 then 2 is blocked and 2 alone would be 23/21.
    let mut white = [0u8; 25];
    white[22] = 1;
    white[0] = 14;
    let mut black = [0u8; 25];
    for p in [24 - 18, 24 - 17, 24 - 12, 24 - 11] {
        black[p] = 2;
    }
    black[0] = 7;
    let pos = Position::from_counts(&white, &black).unwrap();
    let results = pos.legal_positions(Dice::new(3, 2).unwrap());
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].mover_on(20), 1);
}

#[test]
fn illegal_actions_and_unneeded_dice_change_nothing() {
    let mut s = after_opening(Options::money());
    let before = s.game().clone();
    assert!(matches!(
        s.roll(roll(1, 2)),
        Err(BackgammonError::NoDiceNeeded)
    ));
    assert!(matches!(
        s.apply(&Action::Take),
        Err(BackgammonError::NotNow { .. })
    ));
    let bogus = Action::Move(Position::START.flip());
    assert!(s.apply(&bogus).is_err());
    assert_eq!(s.game(), &before);
    s.apply(&Action::Roll).unwrap();
    s.roll(roll(6, 5)).unwrap();
    let before = s.game().clone();
    let not_reachable = Action::Move(Position::START);
    assert!(matches!(
        s.apply(&not_reachable),
        Err(BackgammonError::IllegalMove { .. })
    ));
    assert_eq!(s.game(), &before);
}

#[test]
fn the_cube_stops_at_its_maximum() {
    let cube = Cube::new(MAX_CUBE, Some(Color::White)).unwrap();
    assert!(!cube.may_double(Color::White));
    assert!(Cube::new(3, None).is_none());
    assert!(Cube::new(MAX_CUBE * 2, None).is_none());
}
