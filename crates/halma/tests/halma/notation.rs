//! The position notation and move text, as documented in docs/notation.md.

use crate::common::*;
use tabula_core::Color;
use tabula_halma::notation::{format_move, MoveError, PathStyle};
use tabula_halma::{Action, BoardSize, Position};

#[test]
fn the_documented_examples_read_and_write_back() {
    for text in [
        "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0",
        "10:5bbbbb/6bbbb/7bbb/8bb/9b/w9/ww8/www7/wwww6/wwwww5:w:0",
        "8:4bbbb/5bbb/6bb/7b/1w6/ww6/www5/wwww4:b:1",
        "8:4wwww/5www/6ww/2bb4/2bbbbw1/2bbbb2/8/8:w:57",
    ] {
        let p: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_string(), text);
    }
    let start = Position::start(BoardSize::Eight);
    assert_eq!(
        start.play_unchecked(sq("a4"), sq("b4")).to_string(),
        "8:4bbbb/5bbb/6bb/7b/1w6/ww6/www5/wwww4:b:1"
    );
    let late = place(
        8,
        "e8 f8 g8 h8 f7 g7 h7 g6 h6 g4",
        "c3 d3 e3 f3 c4 d4 e4 f4 c5 d5",
        Color::White,
    )
    .with_ply(57);
    assert_eq!(
        late.to_string(),
        "8:4wwww/5www/6ww/2bb4/2bbbbw1/2bbbb2/8/8:w:57"
    );
}

#[test]
fn jumps_are_written_with_their_path_on_request_and_steps_as_from_to() {
    let p = place(
        8,
        "c3 d4 a1 b1 c1 d1 a2 b2 c2 a3",
        "e6 f8 g8 h8 f7 g7 h7 g6 h6 h5",
        Color::White,
    );
    assert_eq!(format_move(&p, mv("c3-e7"), PathStyle::Path), "c3:e5:e7");
    assert_eq!(format_move(&p, mv("c3-e7"), PathStyle::FromTo), "c3-e7");
    assert_eq!(format_move(&p, mv("c3-d3"), PathStyle::Path), "c3-d3");
    assert_eq!(p.parse_move("C3:E5:E7"), Ok(mv("c3-e7")));
    assert_eq!(
        p.parse_move("c3:d3"),
        Ok(mv("c3-d3")),
        "a two-square path may be a step"
    );
}

#[test]
fn move_errors_tell_malformed_text_from_illegal_moves() {
    let p = Position::start(BoardSize::Eight);
    let err = |t: &str| p.parse_move(t).unwrap_err();
    assert!(matches!(err("c3"), MoveError::Parse(_)));
    assert!(matches!(err("c3-k3"), MoveError::Parse(_)));
    assert!(matches!(err("a4-i9"), MoveError::Illegal(_)));
    assert_eq!(err("a4-a9").to_string(), "a9 is not on the 8x8 board");
    assert_eq!(err("e4-e5").to_string(), "there is no white piece on e4");
    assert_eq!(
        err("a1-b2").to_string(),
        "b2 is occupied: a move ends on an empty square"
    );
    assert_eq!(
        err("a4-a6").to_string(),
        "a4-a6 is not a move: a6 is neither an empty neighbour of a4 nor the end of a chain of jumps"
    );
    assert_eq!(
        err("c3+e5").to_string(),
        "\"c3+e5\" is not a move: write from-to (c3-e5) or a jump path (c3:e5:g7)"
    );
    assert_eq!(
        err("c3-z5").to_string(),
        "in \"c3-z5\": \"z5\": there is no file 'z' (files are a to j)"
    );
}

#[test]
fn actions_read_as_moves_passes_and_draw_offers() {
    let p = Position::start(BoardSize::Ten);
    assert_eq!(Action::parse(&p, "pass"), Ok(Action::Pass));
    assert_eq!(Action::parse(&p, " Offer-Draw "), Ok(Action::OfferDraw));
    assert_eq!(Action::parse(&p, "accept-draw"), Ok(Action::AcceptDraw));
    assert_eq!(Action::parse(&p, "e1-f1"), Ok(Action::Move(mv("e1-f1"))));
    for a in [
        Action::Pass,
        Action::OfferDraw,
        Action::AcceptDraw,
        Action::Move(mv("e1-f1")),
    ] {
        assert_eq!(Action::parse(&p, &a.to_string()), Ok(a));
    }
}
