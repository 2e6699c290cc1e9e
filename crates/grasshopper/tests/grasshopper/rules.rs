//! A test per rule of docs/rules/grasshopper.md, and the seeds' worked examples.

use super::{moves, play, pos, pt};
use tabula_core::{Color, Decision, DiceRoll, EndReason, Game, GameId, Outcome, Status};
use tabula_grasshopper::{
    Action, Cell, Checkers, Grasshopper, GrasshopperError, IllegalMove, Position,
};

fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome::draw(reason))
}

fn win(c: Color) -> Option<Outcome> {
    Some(Outcome::win(c, 1, EndReason::ScoredTwice))
}

// --- The seeds' worked examples -------------------------------------------------------

#[test]
fn seed_a4_cannot_build_on_b4_past_the_wall_on_b3_and_cannot_move_at_all() {
    // White singles on A4 (4), B2 (8), B4 (10); a black wall on B3 (9); B1, B5, B6 black.
    let p = pos("...w../bwBwbb/....../...... w 11-9 0-0 - 14");
    assert!(p.legal_actions().iter().all(|a| a.from() != Some(pt(4))));
    assert_eq!(
        p.check(Action::Build { from: pt(4) }),
        Err(IllegalMove::Blocked {
            from: pt(4),
            to: pt(10),
            wall: pt(9)
        })
    );
    for to in [7, 8, 11, 12] {
        assert_eq!(
            p.check(Action::Advance {
                from: pt(4),
                to: pt(to)
            }),
            Err(IllegalMove::Occupied(pt(to)))
        );
    }
    assert_eq!(
        p.parse_move("A4-B4w").unwrap_err().to_string(),
        "4-10w is illegal: the wall on 9 blocks the single checker on 4 from reaching 10"
    );
}

#[test]
fn seed_the_top_checker_on_b5_jumps_the_walls_on_b6_and_c2_to_land_on_c5() {
    // Black wall on B5 (11), a white wall on B6 (12), a black wall on C2 (14); C5 (17) vacant.
    let p = pos("....../...bBW/.B..../...... b 12-9 0-0 - 14");
    let jump = p.parse_move("B5-C5").unwrap();
    assert_eq!(
        jump,
        Action::Advance {
            from: pt(11),
            to: pt(17)
        }
    );
    let after = p.play(jump).unwrap();
    assert_eq!(after.cell(pt(11)), Cell::Single(Color::Black));
    assert_eq!(after.cell(pt(17)), Cell::Single(Color::Black));
    // The single on B4 (10) may not pass the wall on B5, its own.
    assert_eq!(
        p.check(Action::Advance {
            from: pt(10),
            to: pt(17)
        }),
        Err(IllegalMove::Blocked {
            from: pt(10),
            to: pt(17),
            wall: pt(11)
        })
    );
}

#[test]
fn seed_the_single_on_2_is_stuck_while_the_top_of_the_wall_on_8_reaches_all_of_13_to_18() {
    // White single on 2, black single on 7, white wall on 8, a black wall on 14 in the way.
    let p = pos(".w..../bW..../.B..../...... w 11-11 0-0 - 14");
    assert!(p.legal_actions().iter().all(|a| a.from() != Some(pt(2))));
    assert_eq!(
        p.check(Action::Advance {
            from: pt(2),
            to: pt(7)
        }),
        Err(IllegalMove::Occupied(pt(7)))
    );
    for to in 9..=12 {
        assert_eq!(
            p.check(Action::Advance {
                from: pt(2),
                to: pt(to)
            }),
            Err(IllegalMove::Blocked {
                from: pt(2),
                to: pt(to),
                wall: pt(8)
            })
        );
    }
    let from_8: Vec<String> = moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("8-"))
        .collect();
    assert_eq!(from_8, ["8-13", "8-15", "8-16", "8-17", "8-18"]);
}

#[test]
fn seed_the_stranded_last_two_checkers_move_into_d_and_leave_without_scoring() {
    // Black's last two checkers on C5 (17) and D3 (21); 17 + 6 is not 21, no wall is possible.
    let p = pos("..w.../....../....b./..b... b 3-0 0-1* - 4");
    assert_eq!(moves(&p), ["17-19", "17-20", "17-22", "17-23", "17-24"]);
    assert_eq!(
        p.check(Action::Discard { at: pt(21) }),
        Err(IllegalMove::DiscardTooEarly)
    );
    let p = play(p, &["17-19", "in 1"]);
    assert_eq!(moves(&p), ["discard 19", "discard 21"]);
    let p = play(p, &["discard 21", "in 2"]);
    assert_eq!(
        (p.score(Color::Black), p.last_scorer()),
        (1, Some(Color::Black))
    );
    assert_eq!(moves(&p), ["discard 19"]);
    let p = play(p, &["discard 19", "in 4"]);
    assert_eq!(p.remaining(Color::Black), 0);
    assert_eq!(p.discarded(Color::Black), 2);
    assert_eq!(p.score(Color::Black), 1);
    assert_eq!(moves(&p), ["pass"]);
}

// --- Turns -------------------------------------------------------------------------------

#[test]
fn white_moves_first_and_each_side_opens_by_entering_on_a_different_point_of_a() {
    let g = Grasshopper::new(Checkers::FULL);
    assert_eq!(
        g.status(),
        Status::Decide {
            player: Color::White,
            decision: Decision::Move
        }
    );
    assert_eq!(
        moves(g.position()),
        ["in 1", "in 2", "in 3", "in 4", "in 5", "in 6"]
    );
    let p = play(*g.position(), &["in 3"]);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(moves(&p), ["in 1", "in 2", "in 4", "in 5", "in 6"]);
}

#[test]
fn each_player_has_an_even_number_of_checkers_from_2_to_14_all_in_hand() {
    assert_eq!(Checkers::default().get(), 14);
    for n in [0, 1, 3, 15, 16] {
        assert!(Checkers::new(n).is_err(), "{n}");
    }
    for n in (2..=14).step_by(2) {
        let p = Position::start(Checkers::new(n).unwrap());
        assert_eq!(
            (p.hand(Color::White), p.hand(Color::Black)),
            (n as u8, n as u8)
        );
        assert_eq!(p.on_board(Color::White) + p.on_board(Color::Black), 0);
    }
}

#[test]
fn a_turn_is_one_action_and_then_the_opponent_moves() {
    let p = play(Position::start(Checkers::FULL), &["in 3", "in 4", "3-9"]);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.cell(pt(9)), Cell::Single(Color::White));
    assert_eq!(p.cell(pt(3)), Cell::Empty);
}

#[test]
fn a_player_without_a_legal_action_passes_and_the_opponent_moves_again() {
    // White: hand only, A full; C singles facing black singles in D. Black's wall top on 7
    // can still reach 18.
    let p = pos("bbbbbb/B...../wwwww./bbbbbb w 9-0 0-0 - 14");
    assert_eq!(moves(&p), ["pass"]);
    let p = play(p, &["pass"]);
    assert!(p.passed());
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.outcome(), None);
    assert_eq!(moves(&p), ["7-18"]);
    let p = play(p, &["7-18"]);
    assert!(!p.passed());
    assert_eq!(moves(&p), ["pass"]);
}

#[test]
fn a_player_with_a_legal_action_may_not_pass() {
    let p = Position::start(Checkers::FULL);
    assert_eq!(p.check(Action::Pass), Err(IllegalMove::PassNotAllowed));
}

// --- Actions ---------------------------------------------------------------------------

#[test]
fn enter_puts_a_checker_from_the_hand_on_a_vacant_point_of_a() {
    let p = play(Position::start(Checkers::new(2).unwrap()), &["in 3"]);
    assert_eq!(
        p.check(Action::Enter { to: pt(3) }),
        Err(IllegalMove::Occupied(pt(3)))
    );
    assert_eq!(
        p.check(Action::Enter { to: pt(7) }),
        Err(IllegalMove::EnterOutsideA(pt(7)))
    );
    let p = play(p, &["in 4", "in 5", "in 6"]);
    assert_eq!(p.hand(Color::White), 0);
    assert_eq!(
        p.check(Action::Enter { to: pt(1) }),
        Err(IllegalMove::EmptyHand)
    );
}

#[test]
fn advance_moves_the_top_checker_to_a_vacant_point_of_the_next_quadrant_only() {
    let p = pos("w...../w...../w...../...... w 11-14 0-0 - 14");
    let m = moves(&p);
    for expected in ["1-8", "7-14", "13-19", "13-24"] {
        assert!(m.contains(&expected.to_string()), "{expected} in {m:?}");
    }
    assert_eq!(
        p.check(Action::Advance {
            from: pt(1),
            to: pt(14)
        }),
        Err(IllegalMove::NotNextQuadrant {
            from: pt(1),
            to: pt(14)
        })
    );
    assert_eq!(
        p.check(Action::Advance {
            from: pt(7),
            to: pt(13)
        }),
        Err(IllegalMove::Occupied(pt(13)))
    );
    assert_eq!(
        p.check(Action::Advance {
            from: pt(2),
            to: pt(8)
        }),
        Err(IllegalMove::NoChecker(pt(2)))
    );
}

#[test]
fn build_moves_the_top_checker_onto_an_own_single_six_points_on_making_a_wall() {
    let p = pos("..w.../..w.../....../...... w 12-14 0-0 - 14");
    let a = p.parse_move("3-9w").unwrap();
    assert_eq!(a, Action::Build { from: pt(3) });
    // Written without the w, a move onto the mover's own single six points on is the build.
    assert_eq!(p.parse_move("3-9").unwrap(), a);
    let p2 = p.play(a).unwrap();
    assert_eq!(p2.cell(pt(9)), Cell::Wall(Color::White));
    assert_eq!(p2.cell(pt(3)), Cell::Empty);
    // No single of the mover's six points on: nothing to build on.
    let q = pos("..wb../...b../....../...... w 13-12 0-0 - 14");
    assert_eq!(
        q.check(Action::Build { from: pt(4) }),
        Err(IllegalMove::NoChecker(pt(4)))
    );
    assert_eq!(
        q.check(Action::Build { from: pt(3) }),
        Err(IllegalMove::NothingToBuildOn { from: pt(3) })
    );
}

#[test]
fn moving_the_top_checker_off_a_wall_leaves_a_single_behind() {
    let p = pos("....../W...../w...../...... w 11-14 0-0 - 14");
    let built = p.play(p.parse_move("7-13w").unwrap()).unwrap();
    assert_eq!(built.cell(pt(7)), Cell::Single(Color::White));
    assert_eq!(built.cell(pt(13)), Cell::Wall(Color::White));
    let moved = p.play(p.parse_move("7-14").unwrap()).unwrap();
    assert_eq!(moved.cell(pt(7)), Cell::Single(Color::White));
}

#[test]
fn no_wall_can_stand_in_a() {
    // Builds land six points on, never in A; a set-up with a wall in A is refused.
    let err = tabula_grasshopper::notation::parse_position(
        "W...../....../....../...... w 12-14 0-0 - 14",
    )
    .unwrap_err();
    assert!(err.to_string().contains("a wall on 1 is in A"), "{err}");
}

#[test]
fn a_single_may_not_pass_a_wall_of_either_colour() {
    // White single on 1; a white wall on 8 and, in the second case, a black wall on 8.
    for board in ["w...../.W..../....../......", "w...../.B..../....../......"] {
        let own = board.contains('W');
        let hands = if own { "11-14" } else { "13-12" };
        let p = pos(&format!("{board} w {hands} 0-0 - 14"));
        assert_eq!(
            p.check(Action::Advance {
                from: pt(1),
                to: pt(9)
            }),
            Err(IllegalMove::Blocked {
                from: pt(1),
                to: pt(9),
                wall: pt(8)
            })
        );
        // Landing before the wall is fine: nothing is strictly between.
        assert!(p
            .check(Action::Advance {
                from: pt(1),
                to: pt(7)
            })
            .is_ok());
    }
}

#[test]
fn a_wall_blocks_a_build_between_its_ends() {
    let p = pos("..w.../.Bw.../....../...... w 12-12 0-0 - 14");
    assert_eq!(
        p.check(Action::Build { from: pt(3) }),
        Err(IllegalMove::Blocked {
            from: pt(3),
            to: pt(9),
            wall: pt(8)
        })
    );
}

#[test]
fn the_top_checker_of_a_wall_ignores_walls_in_between() {
    let p = pos("....../W.Bw../..B.../...... w 11-10 0-0 - 14");
    assert!(p.check(Action::Build { from: pt(7) }).is_err());
    assert!(p
        .check(Action::Advance {
            from: pt(7),
            to: pt(18)
        })
        .is_ok());
    // 10 is a single: stopped by the black wall on 15.
    assert!(p
        .check(Action::Advance {
            from: pt(10),
            to: pt(14)
        })
        .is_ok());
    assert!(p
        .check(Action::Advance {
            from: pt(10),
            to: pt(16)
        })
        .is_err());
}

#[test]
fn checkers_in_d_never_move() {
    let p = pos("....../....../....../w..... w 13-14 0-0 - 14");
    assert_eq!(
        p.check(Action::Advance {
            from: pt(19),
            to: pt(20)
        }),
        Err(IllegalMove::MoveFromD(pt(19)))
    );
    assert!(moves(&p).iter().all(|m| !m.starts_with("19")));
}

#[test]
fn bearing_off_a_wall_in_d_scores_one_point() {
    let p = pos("....../....../....../W..... w 12-14 0-0 - 14");
    let q = play(p, &["off 19"]);
    assert_eq!(q.cell(pt(19)), Cell::Empty);
    assert_eq!(q.score(Color::White), 1);
    assert_eq!(q.borne_off(Color::White), 2);
    assert_eq!(q.last_scorer(), Some(Color::White));
    assert_eq!(
        p.check(Action::BearOff { at: pt(20) }),
        Err(IllegalMove::NotAWallInD(pt(20)))
    );
    let r = pos("....../W...../....../...... w 12-14 0-0 - 14");
    assert_eq!(
        r.check(Action::BearOff { at: pt(7) }),
        Err(IllegalMove::NotAWallInD(pt(7)))
    );
}

#[test]
fn the_first_point_of_the_game_never_wins() {
    let p = play(
        pos("....../....../....../W..... w 2-4 0-0 - 4"),
        &["off 19"],
    );
    assert_eq!(p.outcome(), None);
    assert_eq!(p.winner(), None);
}

#[test]
fn scoring_twice_in_succession_wins_even_on_non_consecutive_turns() {
    let p = pos("b...../....../....../WW.... w 0-3 0-0 - 4");
    let p = play(p, &["off 19", "in 2"]);
    assert_eq!(p.outcome(), None);
    let p = play(p, &["off 20"]);
    assert_eq!(p.outcome(), win(Color::White));
    assert_eq!(
        tabula_grasshopper::notation::format_position(&p),
        "bb..../....../....../...... b 0-2 2#-0 - 4"
    );
    assert!(p.legal_actions().is_empty());
    assert_eq!(
        p.check(Action::Enter { to: pt(3) }),
        Err(IllegalMove::GameOver)
    );
}

#[test]
fn alternate_scores_do_not_win() {
    let p = pos("....../....../....../WB.... w 2-2 0-0 - 4");
    let p = play(p, &["off 19", "off 20"]);
    assert_eq!((p.score(Color::White), p.score(Color::Black)), (1, 1));
    assert_eq!(p.last_scorer(), Some(Color::Black));
    assert_eq!(p.outcome(), None);
}

#[test]
fn discard_removes_a_single_in_d_without_scoring_only_when_all_that_is_left_is_singles_in_d() {
    // A wall in D must be borne off first.
    let p = pos("....../....../....../wW.... w 1-4 0-0 - 4");
    assert_eq!(
        p.check(Action::Discard { at: pt(19) }),
        Err(IllegalMove::DiscardTooEarly)
    );
    assert_eq!(
        p.check(Action::Discard { at: pt(20) }),
        Err(IllegalMove::NotASingleInD(pt(20)))
    );
    // A checker in hand forbids it too.
    let p = pos("....../....../....../w.w... w 2-4 0-0 - 4");
    assert_eq!(
        p.check(Action::Discard { at: pt(19) }),
        Err(IllegalMove::DiscardTooEarly)
    );
    let p = pos("....../....../....../w.w... w 0-4 1*-0 - 4");
    let q = play(p, &["discard 21"]);
    assert_eq!(q.score(Color::White), 1);
    assert_eq!(q.discarded(Color::White), 1);
    assert_eq!(q.last_scorer(), Some(Color::White));
}

// --- The end -----------------------------------------------------------------------------

#[test]
fn the_game_is_drawn_when_neither_player_has_a_checker_left() {
    let p = pos("....../....../....../WB.... w 0-0 0-0 - 2");
    let p = play(p, &["off 19", "off 20"]);
    assert_eq!(p.outcome(), draw(EndReason::NoCheckersLeft));
    assert!(p.legal_actions().is_empty());
    let mut g = Grasshopper::from_position(p);
    assert!(matches!(g.status(), Status::Over(o) if o.winner.is_none()));
    assert_eq!(
        g.apply(&Action::Pass),
        Err(GrasshopperError::Illegal(IllegalMove::GameOver))
    );
}

#[test]
fn a_pass_followed_by_a_pass_is_a_draw() {
    let p = pos("bbbbbb/B...../wwwwww/bbbbbb w 8-0 0-0 - 14");
    assert_eq!(moves(&p), ["pass"]);
    let p = play(p, &["pass"]);
    assert_eq!(p.outcome(), draw(EndReason::BothPassed));
    assert!(p.legal_actions().is_empty());
    // The same position with the pass flag set reads back from text.
    assert_eq!(pos("bbbbbb/B...../wwwwww/bbbbbb b 8-0 0-0 p 14"), p);
}

#[test]
fn a_pass_flag_is_refused_when_the_passer_had_a_move() {
    let err = tabula_grasshopper::notation::parse_position(
        "w...../....../....../...... b 13-14 0-0 p 14",
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("white did not have to pass"),
        "{err}"
    );
}

// --- The game trait -------------------------------------------------------------------

#[test]
fn dice_are_always_refused() {
    let mut g = Grasshopper::default();
    assert_eq!(g.id(), GameId::Grasshopper);
    let before = g;
    assert_eq!(
        g.roll(DiceRoll::new(3, 1).unwrap()),
        Err(GrasshopperError::NoDice)
    );
    assert_eq!(g, before);
}

#[test]
fn an_illegal_action_is_refused_and_changes_nothing() {
    let mut g = Grasshopper::new(Checkers::new(4).unwrap());
    let before = g;
    let refused = g.apply(&Action::Advance {
        from: pt(1),
        to: pt(7),
    });
    assert_eq!(
        refused,
        Err(GrasshopperError::Illegal(IllegalMove::NoChecker(pt(1))))
    );
    assert_eq!(g, before);
    assert!(g.apply(&Action::Enter { to: pt(1) }).is_ok());
    assert_eq!(g.legal_actions().len(), 5);
}
