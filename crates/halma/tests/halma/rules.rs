//! One test per rule of `docs/rules/halma-grasshopper.md`, named after it.

use crate::common::*;
use std::collections::BTreeSet;
use tabula_core::{Color, Decision, DiceRoll, EndReason, Game, Outcome, Status};
use tabula_halma::notation::MoveText;
use tabula_halma::{
    Action, BoardSize, DrawKind, End, HalmaError, HalmaGrasshopper, HalmaOptions, IllegalMove,
    Position, WinKind,
};

fn game(p: Position) -> HalmaGrasshopper {
    HalmaGrasshopper::from_position(p, HalmaOptions::default())
}

fn play(g: &mut HalmaGrasshopper, moves: &str) {
    for m in moves.split_whitespace() {
        g.apply(&Action::Move(mv(m)))
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn targets(p: &Position, from: &str) -> BTreeSet<String> {
    p.targets(sq(from))
        .squares()
        .map(|s| s.to_string())
        .collect()
}

fn names(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_string).collect()
}

#[test]
fn each_side_starts_with_its_camp_full_ten_pieces_on_8x8_fifteen_on_10x10() {
    let p = Position::start(BoardSize::Eight);
    assert_eq!(p.pieces(Color::White), set(WHITE_CAMP_8));
    assert_eq!(p.pieces(Color::Black), set(BLACK_CAMP_8));
    let p = Position::start(BoardSize::Ten);
    assert_eq!(p.pieces(Color::White).count(), 15);
    assert_eq!(p.pieces(Color::Black).count(), 15);
    assert_eq!(p.pieces(Color::White), p.camp(Color::White));
    assert_eq!(p.target(Color::White), p.camp(Color::Black));
    assert_eq!(p.mirrored(), p.with_to_move(Color::Black));
}

/// Worked out by hand. Number the diagonals by s = file + rank (0-based); White's camp is
/// s <= k (k = 3 on 8x8, 4 on 10x10) and Black is far away, so only the camp matters.
///
/// Steps: a piece on s = k has three empty neighbours (two on s = k+1, one on s = k+2), k+1
/// pieces; a piece on s = k-1 has one ((f+1, r+1), on s = k+1), k pieces; deeper pieces
/// none. 8x8: 4*3 + 3*1 = 15; 10x10: 5*3 + 4*1 = 19.
///
/// Jumps: a jump in a direction raising s by d (d = 1 east or north, 2 north-east; other
/// directions land on the camp) goes over s+d <= k to s+2d > k: d = 1 from s = k-1, d = 2
/// from s = k-3 and k-2. Every landing has only camp pieces behind it, and jumping back over
/// them lands on the camp (occupied) or on the start, so no chain goes further.
/// 8x8 (k = 3): three pieces on s = 2 with 2 jumps each, one piece on s = 0 and two on s = 1
/// with one each: 6 + 3 = 9. 10x10 (k = 4): four pieces on s = 3 with 2 each, three on s = 2
/// and two on s = 1 with one each (the a1 piece's north-east landing, c3, is in the camp):
/// 8 + 5 = 13.
///
/// Total: 15 + 9 = 24 on 8x8, 19 + 13 = 32 on 10x10.
#[test]
fn the_start_has_24_legal_moves_on_8x8_and_32_on_10x10() {
    let p8 = Position::start(BoardSize::Eight);
    let p10 = Position::start(BoardSize::Ten);
    assert_eq!(p8.moves().count(), 24);
    assert_eq!(p8.move_count(), 24);
    assert_eq!(p10.moves().count(), 32);
    assert_eq!(p10.move_count(), 32);
    // The per-piece counts of the comment, 8x8.
    for (piece, want) in [
        ("d1", "e1 d2 e2"),
        ("c2", "d2 c3 d3"),
        ("b3", "c3 b4 c4"),
        ("a4", "a5 b4 b5"),
        ("c1", "d2 e1 c3"),
        ("b2", "c3 d2 b4"),
        ("a3", "b4 c3 a5"),
        ("a1", "c3"),
        ("b1", "d3"),
        ("a2", "c4"),
    ] {
        assert_eq!(targets(&p8, piece), names(want), "{piece}");
    }
    // And Black's, by symmetry.
    assert_eq!(p8.with_to_move(Color::Black).move_count(), 24);
    assert_eq!(p10.with_to_move(Color::Black).move_count(), 32);
}

#[test]
fn white_moves_first_and_turns_alternate() {
    let mut g = HalmaGrasshopper::new(BoardSize::Eight);
    let decide = |player| Status::Decide {
        player,
        decision: Decision::Move,
    };
    assert_eq!(g.status(), decide(Color::White));
    play(&mut g, "a4-a5");
    assert_eq!(g.status(), decide(Color::Black));
    assert_eq!(
        g.apply(&Action::Move(mv("b3-b4"))),
        Err(HalmaError::Illegal(IllegalMove::NoPiece {
            square: sq("b3"),
            color: Color::Black
        }))
    );
    play(&mut g, "h5-h4");
    assert_eq!(g.status(), decide(Color::White));
    assert_eq!(g.position().ply(), 2);
}

#[test]
fn a_step_goes_to_any_of_the_eight_adjacent_empty_squares() {
    let p = place(
        8,
        "d4 a1 b1 c1 d1 a2 b2 c2 a3 b3",
        BLACK_CAMP_8,
        Color::White,
    );
    assert_eq!(targets(&p, "d4"), names("c3 d3 e3 c4 e4 c5 d5 e5"));
    // Occupied neighbours are no steps: a1's three neighbours are all taken.
    assert!(!p.targets(sq("a1")).contains(sq("b2")));
}

/// White c3 and d4, a Black piece on e6, e5 and e7 empty: c3 jumps the White d4 to e5 and
/// goes on over the Black e6 to e7; it may also stop on e5.
fn chain_position() -> Position {
    place(
        8,
        "c3 d4 a1 b1 c1 d1 a2 b2 c2 a3",
        "e6 f8 g8 h8 f7 g7 h7 g6 h6 h5",
        Color::White,
    )
}

#[test]
fn a_chain_of_jumps_goes_over_pieces_of_both_colours_and_may_stop_after_any_jump() {
    let p = chain_position();
    assert_eq!(
        p.jump_targets(sq("c3"))
            .squares()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ["e5", "e7"]
    );
    assert_eq!(
        p.jump_path(sq("c3"), sq("e7")).unwrap(),
        [sq("c3"), sq("e5"), sq("e7")]
    );
    assert_eq!(p.parse_move("c3:e5:e7"), Ok(mv("c3-e7")));
    assert_eq!(p.parse_move("c3-e5"), Ok(mv("c3-e5")));
    let mut g = game(p);
    g.apply(&Action::Move(mv("c3-e7"))).unwrap();
    assert_eq!(g.position().piece_at(sq("e7")), Some(Color::White));
    assert_eq!(g.position().piece_at(sq("c3")), None);
}

#[test]
fn a_jump_goes_over_one_adjacent_piece_to_the_empty_square_beyond() {
    let p = chain_position();
    let check = |text: &str| p.check_move(&text.parse::<MoveText>().unwrap());
    assert!(matches!(check("c3:a1"), Err(IllegalMove::Occupied { .. })));
    assert_eq!(
        check("c3:a1:c3:e5"),
        Err(IllegalMove::LandingOccupied {
            from: sq("c3"),
            to: sq("a1")
        })
    );
    assert!(matches!(
        check("c3:e5:g5"),
        Err(IllegalMove::NothingToJump { .. })
    ));
    assert!(matches!(
        check("c3:e5:e8"),
        Err(IllegalMove::NotAJump { .. })
    ));
    assert!(matches!(
        check("c3:d3:e3"),
        Err(IllegalMove::StepInChain { .. })
    ));
    assert!(matches!(
        check("c3-e3"),
        Err(IllegalMove::Unreachable { .. })
    ));
    assert!(matches!(check("c3-e6"), Err(IllegalMove::Occupied { .. })));
    assert!(matches!(check("c3-i9"), Err(IllegalMove::OffBoard { .. })));
    let err = check("c3:e5:g5").unwrap_err().to_string();
    assert_eq!(
        err,
        "e5 to g5 jumps over f5, which is empty: a jump goes over a piece"
    );
}

/// White c3 with White pieces on d4, c4 and d5: chains from c3 reach e5 (directly, or by way
/// of c5 over d5), c5 and e3 (from c5 back over d4).
fn two_chains_position() -> Position {
    place(
        8,
        "c3 d4 c4 d5 a1 b1 c1 d1 a2 b2",
        BLACK_CAMP_8,
        Color::White,
    )
}

#[test]
fn different_chains_to_the_same_end_are_one_move() {
    let p = two_chains_position();
    assert_eq!(
        p.jump_targets(sq("c3")),
        set("e5 c5 e3"),
        "e5 directly or by c5; e3 by c5"
    );
    assert_eq!(p.parse_move("c3:e5"), Ok(mv("c3-e5")));
    assert_eq!(p.parse_move("c3:c5:e5"), Ok(mv("c3-e5")));
    let actions = game(p).legal_actions();
    let to_e5 = actions
        .iter()
        .filter(|a| **a == Action::Move(mv("c3-e5")))
        .count();
    assert_eq!(to_e5, 1);
    // The written chain is the shortest.
    assert_eq!(
        p.jump_path(sq("c3"), sq("e5")).unwrap(),
        [sq("c3"), sq("e5")]
    );
    assert_eq!(
        p.jump_path(sq("c3"), sq("e3")).unwrap(),
        [sq("c3"), sq("c5"), sq("e3")]
    );
}

/// A chain that revisits a square reaches nothing a chain without revisits does not (so the
/// generator never needs one), but a written chain may revisit: it names the move between
/// its ends.
#[test]
fn a_chain_may_revisit_a_square() {
    let p = two_chains_position();
    assert_eq!(p.parse_move("c3:c5:e5:c5:e3"), Ok(mv("c3-e3")));
    assert_eq!(p.parse_move("c3:e5:c5:e5"), Ok(mv("c3-e5")));
}

/// The moving piece has left c3: a chain may land there and go on, and the square is empty
/// for the rest of the chain. It can never be jumped over (a chain keeps the parity of file
/// and rank, so the start is never between two of its squares).
#[test]
fn the_start_square_counts_as_empty_during_the_chain() {
    let p = two_chains_position();
    assert_eq!(p.parse_move("c3:e5:c3:c5"), Ok(mv("c3-c5")));
    assert_eq!(p.parse_move("c3:c5:c3:e5:c5:e3"), Ok(mv("c3-e3")));
    // The generator agrees with the plain one, which lifts the piece before exploring.
    let plain: Vec<_> = reference_moves(&p)
        .into_iter()
        .filter(|&(from, _)| from == sq("c3"))
        .map(|(_, to)| to)
        .collect();
    assert_eq!(p.targets(sq("c3")).squares().collect::<Vec<_>>(), plain);
}

#[test]
fn a_move_must_end_on_another_square_than_its_start() {
    let p = two_chains_position();
    assert_eq!(
        p.parse_move("c3:e5:c3").map_err(|e| e.to_string()),
        Err("a move must end on another square than its start, c3".to_string())
    );
    assert!(!p.targets(sq("c3")).contains(sq("c3")));
    assert!(p.moves().all(|m| m.from != m.to));
}

#[test]
fn jumping_captures_nothing() {
    let mut g = game(chain_position());
    let before = *g.position();
    g.apply(&Action::Move(mv("c3-e7"))).unwrap();
    let after = g.position();
    assert_eq!(after.piece_at(sq("d4")), Some(Color::White));
    assert_eq!(after.piece_at(sq("e6")), Some(Color::Black));
    assert_eq!(after.pieces(Color::Black), before.pieces(Color::Black));
    assert_eq!(after.pieces(Color::White).count(), 10);
}

#[test]
fn passing_is_refused_while_a_move_exists() {
    let mut g = HalmaGrasshopper::new(BoardSize::Eight);
    assert_eq!(
        g.apply(&Action::Pass),
        Err(HalmaError::MustMove(Color::White))
    );
    assert!(!g.legal_actions().contains(&Action::Pass));
    // (A side with all its pieces is never without a move; the pass itself is tested on a
    // contrived board in the crate's unit tests.)
}

#[test]
fn a_player_wins_when_all_their_pieces_stand_in_the_target_camp() {
    let p = place(
        8,
        "e8 f8 g8 h8 f7 g7 h7 g6 h6 g4",
        "c3 d3 e3 f3 c4 d4 e4 f4 c5 d5",
        Color::White,
    );
    let mut g = game(p);
    assert_eq!(g.end(), None);
    play(&mut g, "g4-h5");
    assert_eq!(
        g.end(),
        Some(End::Win {
            winner: Color::White,
            kind: WinKind::AllInCamp
        })
    );
    assert_eq!(
        g.status(),
        Status::Over(Outcome::win(Color::White, 1, EndReason::AllInCamp))
    );
    assert!(g.legal_actions().is_empty());
    assert_eq!(g.apply(&Action::Pass), Err(HalmaError::GameOver));
}

/// The start with `plies` plies already played (each side's moves counted from it).
fn at_ply(p: Position, plies: u32) -> Position {
    p.with_ply(plies)
}

#[test]
fn the_ply_6_raid_into_a_vacated_home_square_no_longer_wins() {
    // Black's h7 jumps the whole board into b1, which White had just left: White's camp is
    // then full (nine White pieces and one Black). The old full-camp rule gave Black the game
    // here; under the evacuation rule play goes on.
    let mut g = HalmaGrasshopper::new(BoardSize::Eight);
    play(&mut g, "a1-c3 h5-g4 b1-a1 f7-e6 c3-d4 h7-b1");
    let p = *g.position();
    let camp = p.camp(Color::White);
    assert_eq!(p.occupied().0 & camp.0, camp.0, "White's camp is full");
    assert!(p.pieces(Color::Black).contains(sq("b1")));
    assert_eq!(g.end(), None);
    assert!(!g.legal_actions().is_empty());
    // The same after four plies (a1-c3, g6-f6, c3-d4, then g7 jumps to a1).
    let mut g = HalmaGrasshopper::new(BoardSize::Eight);
    play(&mut g, "a1-c3 g6-f6 c3-d4 g7-a1");
    assert_eq!(g.end(), None);
}

#[test]
fn the_evacuation_deadline_defaults_to_30_moves_on_8x8_and_50_on_10x10() {
    assert_eq!(HalmaGrasshopper::new(BoardSize::Eight).evacuation(), 30);
    assert_eq!(HalmaGrasshopper::new(BoardSize::Ten).evacuation(), 50);
    let options = HalmaOptions {
        ply_limit: None,
        evacuation: Some(12),
    };
    let g = HalmaGrasshopper::from_position(Position::start(BoardSize::Ten), options);
    assert_eq!(g.evacuation(), 12);
}

#[test]
fn each_side_s_moves_are_counted_from_the_ply_count_and_the_side_to_move() {
    let p = Position::start(BoardSize::Eight);
    assert_eq!(
        (p.moves_made(Color::White), p.moves_made(Color::Black)),
        (0, 0)
    );
    // After White's 30th move: ply 59, Black to move.
    let p = p.with_ply(59).with_to_move(Color::Black);
    assert_eq!(
        (p.moves_made(Color::White), p.moves_made(Color::Black)),
        (30, 29)
    );
    let p = p.with_ply(60).with_to_move(Color::White);
    assert_eq!(
        (p.moves_made(Color::White), p.moves_made(Color::Black)),
        (30, 30)
    );
}

/// White to make its 30th move (ply 58): a1 still at home, b4 able to leave or not.
fn deadline_position() -> Position {
    at_ply(
        place(
            8,
            "a1 c5 d5 e5 f5 c6 d6 e6 f6 d7",
            "a6 b6 a7 b7 c7 a8 b8 c8 d8 h1",
            Color::White,
        ),
        58,
    )
}

#[test]
fn a_piece_still_at_home_after_the_30th_move_loses() {
    let mut g = game(deadline_position());
    assert_eq!(g.end(), None);
    play(&mut g, "d7-e7");
    assert_eq!(
        g.end(),
        Some(End::Win {
            winner: Color::Black,
            kind: WinKind::NotEvacuated
        })
    );
    assert_eq!(
        g.status(),
        Status::Over(Outcome::win(
            Color::Black,
            1,
            EndReason::NotEvacuated { moves: 30 }
        ))
    );
    assert!(g.legal_actions().is_empty());
}

#[test]
fn the_last_piece_leaving_home_on_the_30th_move_is_in_time() {
    let mut g = game(deadline_position());
    play(&mut g, "a1-b2");
    assert!(
        matches!(
            g.end(),
            Some(End::Win {
                winner: Color::Black,
                ..
            })
        ),
        "b2 is still in White's camp"
    );
    let mut g = game(deadline_position().with_ply(56));
    play(&mut g, "a1-b2 h1-g1 b2-c3");
    assert_eq!(
        g.end(),
        None,
        "c3 is outside the camp: evacuated on move 30"
    );
}

/// Ply 60, White to move (30 moves made each): nothing of White's at home; c5 can jump
/// b4 into a3 (in the camp), then b3 out to c3.
fn after_deadline_position() -> Position {
    at_ply(
        place(
            8,
            "c5 d5 e5 f5 c6 d6 e6 f6 d7 h5",
            "b4 b3 a6 b6 a7 b7 c7 a8 b8 c8",
            Color::White,
        ),
        60,
    )
}

#[test]
fn a_piece_moved_back_into_its_own_camp_after_the_deadline_loses() {
    let mut g = game(after_deadline_position());
    assert_eq!(g.end(), None);
    play(&mut g, "c5-a3");
    assert_eq!(
        g.end(),
        Some(End::Win {
            winner: Color::Black,
            kind: WinKind::ReturnedToCamp
        })
    );
    assert_eq!(
        g.status(),
        Status::Over(Outcome::win(Color::Black, 1, EndReason::ReturnedToCamp))
    );
}

#[test]
fn a_chain_passing_through_the_own_camp_does_not_lose() {
    let mut g = game(after_deadline_position());
    // The only chain from c5 to c3 is c5:a3:c3 (c4 is empty, so there is no direct jump).
    g.apply(&Action::parse(g.position(), "c5:a3:c3").unwrap())
        .unwrap();
    assert!(g.position().pieces(Color::White).contains(sq("c3")));
    assert_eq!(g.end(), None);
}

#[test]
fn a_position_set_up_past_the_deadline_with_a_piece_at_home_is_lost() {
    // White to move at ply 80 (40 moves made each) with a1 at home: lost already (in play
    // only a return can get a piece home after the deadline).
    let p = deadline_position().with_ply(80);
    assert_eq!(
        game(p).end(),
        Some(End::Win {
            winner: Color::Black,
            kind: WinKind::ReturnedToCamp
        })
    );
    // At ply 58 White has made 29 moves: not yet.
    assert_eq!(game(deadline_position()).end(), None);
}

#[test]
fn evacuation_0_switches_the_rule_off_and_spoiling_is_possible_again() {
    let off = HalmaOptions {
        ply_limit: None,
        evacuation: Some(0),
    };
    let mut g = HalmaGrasshopper::from_position(deadline_position(), off);
    play(&mut g, "d7-e7");
    assert_eq!(g.end(), None, "a1 may stay at home");
    // A Black piece that never leaves h8 keeps White from ever filling its target: with the
    // rule off nothing ends that but a draw.
    let spoiler = at_ply(
        place(
            8,
            "e8 f8 g8 f7 g7 h7 g6 h6 h5 g5",
            "h8 a1 b1 c1 d1 a2 b2 c2 a3 b3",
            Color::White,
        ),
        200,
    );
    let g = HalmaGrasshopper::from_position(spoiler, off);
    assert_eq!(g.end(), None);
    let g = game(spoiler);
    assert_eq!(
        g.end(),
        Some(End::Win {
            winner: Color::White,
            kind: WinKind::ReturnedToCamp
        }),
        "with the rule on, Black's h8 loses (a set-up position past the deadline)"
    );
}

#[test]
fn the_mover_is_checked_before_the_opponent() {
    // Set-up positions only: each side's pieces all stand in its target camp. The side that
    // just moved (not the side to move) wins.
    let white = BLACK_CAMP_8;
    let black = WHITE_CAMP_8;
    for (to_move, winner) in [(Color::Black, Color::White), (Color::White, Color::Black)] {
        let g = game(place(8, white, black, to_move));
        assert_eq!(
            g.end(),
            Some(End::Win {
                winner,
                kind: WinKind::AllInCamp
            })
        );
    }
}

#[test]
fn threefold_repetition_of_a_position_with_the_same_side_to_move_draws() {
    let mut g = HalmaGrasshopper::new(BoardSize::Eight);
    play(&mut g, "a4-a5 h5-h4 a5-a4 h4-h5");
    assert_eq!(g.repetitions(), 2);
    play(&mut g, "a4-a5 h5-h4 a5-a4");
    assert_eq!(
        g.end(),
        None,
        "the position after a5-a4 has occurred twice only"
    );
    play(&mut g, "h4-h5");
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.end(), Some(End::Draw(DrawKind::Repetition)));
    assert_eq!(
        g.status(),
        Status::Over(Outcome::draw(EndReason::Repetition))
    );
}

#[test]
fn the_same_pieces_with_the_other_side_to_move_are_another_position() {
    let a = Position::start(BoardSize::Eight);
    assert_ne!(
        a.repetition_key(),
        a.with_to_move(Color::Black).repetition_key()
    );
    assert_eq!(a.repetition_key(), a.with_ply(12).repetition_key());
}

#[test]
fn the_ply_limit_draws_and_defaults_to_400_on_8x8_and_600_on_10x10() {
    assert_eq!(HalmaGrasshopper::new(BoardSize::Eight).ply_limit(), 400);
    assert_eq!(HalmaGrasshopper::new(BoardSize::Ten).ply_limit(), 600);
    let options = HalmaOptions {
        ply_limit: Some(6),
        evacuation: None,
    };
    let mut g = HalmaGrasshopper::from_position(Position::start(BoardSize::Eight), options);
    play(&mut g, "a4-a5 h5-h4 b3-b4 g6-g5 c2-c3");
    assert_eq!(g.end(), None);
    play(&mut g, "f7-f6");
    assert_eq!(g.position().ply(), 6);
    assert_eq!(g.end(), Some(End::Draw(DrawKind::PlyLimit)));
    // A position set up at the limit is over at once (the start, so with the evacuation rule
    // off: at ply 600 everybody's pieces would have had to leave home long ago).
    let at_limit = Position::start(BoardSize::Ten).with_ply(600);
    let no_evacuation = HalmaOptions {
        ply_limit: None,
        evacuation: Some(0),
    };
    let g = HalmaGrasshopper::from_position(at_limit, no_evacuation);
    assert_eq!(g.end(), Some(End::Draw(DrawKind::PlyLimit)));
    assert_eq!(
        g.status(),
        Status::Over(Outcome::draw(EndReason::PlyLimit { plies: 600 }))
    );
}

#[test]
fn a_win_on_the_last_ply_before_the_limit_is_a_win() {
    let p = place(
        8,
        "e8 f8 g8 h8 f7 g7 h7 g6 h6 g4",
        "c3 d3 e3 f3 c4 d4 e4 f4 c5 d5",
        Color::White,
    )
    .with_ply(399);
    let mut g = game(p);
    play(&mut g, "g4-h5");
    assert_eq!(g.position().ply(), 400);
    assert!(matches!(
        g.end(),
        Some(End::Win {
            winner: Color::White,
            ..
        })
    ));
}

#[test]
fn an_accepted_draw_offer_draws_by_agreement() {
    let mut g = HalmaGrasshopper::new(BoardSize::Eight);
    assert!(g.legal_actions().contains(&Action::OfferDraw));
    g.apply(&Action::OfferDraw).unwrap();
    // The offerer still moves.
    assert_eq!(g.position().to_move(), Color::White);
    assert!(!g.legal_actions().contains(&Action::OfferDraw));
    assert_eq!(
        g.apply(&Action::OfferDraw),
        Err(HalmaError::OfferStanding(Color::White))
    );
    assert_eq!(
        g.apply(&Action::AcceptDraw),
        Err(HalmaError::NoOffer(Color::White))
    );
    play(&mut g, "a4-a5");
    assert!(g.legal_actions().contains(&Action::AcceptDraw));
    g.apply(&Action::AcceptDraw).unwrap();
    assert_eq!(g.end(), Some(End::Draw(DrawKind::Agreement)));
}

#[test]
fn moving_declines_a_draw_offer() {
    let mut g = HalmaGrasshopper::new(BoardSize::Eight);
    g.apply(&Action::OfferDraw).unwrap();
    play(&mut g, "a4-a5 h5-h4");
    assert_eq!(g.draw_offer(), None);
    assert!(!g.legal_actions().contains(&Action::AcceptDraw));
    assert_eq!(
        g.apply(&Action::AcceptDraw),
        Err(HalmaError::NoOffer(Color::White))
    );
}

#[test]
fn dice_are_refused_and_illegal_actions_change_nothing() {
    let mut g = HalmaGrasshopper::new(BoardSize::Ten);
    let before = g.clone();
    assert_eq!(
        g.roll(DiceRoll::new(3, 4).unwrap()),
        Err(HalmaError::NoDice)
    );
    assert_eq!(
        g.apply(&Action::Move(mv("a1-b2"))),
        Err(HalmaError::Illegal(IllegalMove::Occupied {
            square: sq("b2")
        }))
    );
    assert!(g.apply(&Action::Move(mv("a1-j10"))).is_err());
    assert_eq!(g, before);
    assert_eq!(g.id().as_str(), "halma-grasshopper");
}

#[test]
fn a_random_game_always_ends_by_the_ply_limit_at_the_latest() {
    for size in BoardSize::ALL {
        for seed in 0..20 {
            let (g, log) = random_game(size, HalmaOptions::default(), seed, usize::MAX);
            assert!(g.end().is_some(), "{size} seed {seed}");
            assert!(log.len() <= size.default_ply_limit() as usize);
        }
    }
}

#[test]
fn a_random_game_choosing_among_all_actions_ends_too() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for size in BoardSize::ALL {
        for _ in 0..20 {
            let mut g = HalmaGrasshopper::new(size);
            let mut steps = 0;
            while g.end().is_none() {
                let actions = g.legal_actions();
                g.apply(&actions[rng.gen_range(0..actions.len())]).unwrap();
                steps += 1;
                assert!(steps <= 2 * size.default_ply_limit() + 2);
            }
        }
    }
}
