//! Position text and move text: round trips over played positions, and the documented
//! examples of docs/notation.md.

use super::{pos, pt};
use tabula_grasshopper::notation::{
    format_position, parse_move, parse_position, MoveTextError, ParseMoveError,
};
use tabula_grasshopper::{Action, Checkers, IllegalMove, Position};

#[test]
fn the_documented_examples_read_and_write_back() {
    for text in [
        "....../....../....../...... w 14-14 0-0 - 14",
        "..w.../b...../....../...... b 5-5 0-0 - 6",
        "w.b.../.W..b./....../...... w 9-10 0-0 - 12",
        "..w.../....../....b./..b... b 3-0 0-1* - 4",
        "bbbbbb/B...../wwwwww/bbbbbb b 8-0 0-0 p 14",
        "bb..../....../....../...... b 0-2 2#-0 - 4",
    ] {
        assert_eq!(format_position(&pos(text)), text);
    }
}

#[test]
fn position_text_round_trips_over_a_played_game() {
    let mut p = Position::start(Checkers::new(6).unwrap());
    let mut i = 0usize;
    while !p.is_over() {
        let text = format_position(&p);
        assert_eq!(parse_position(&text).unwrap(), p, "{text}");
        let legal = p.legal_actions();
        p = p.play(legal[(i * 7 + 3) % legal.len()]).unwrap();
        i += 1;
    }
    assert_eq!(parse_position(&format_position(&p)).unwrap(), p);
}

#[test]
fn every_legal_move_text_reads_back_to_its_action() {
    let p = pos("w.w..b/.Ww..b/.B..../w....b w 8-9 0-0 - 14");
    for &a in p.legal_actions().iter() {
        assert_eq!(p.parse_move(&a.to_string()).unwrap(), a, "{a}");
    }
}

#[test]
fn bad_text_and_illegal_moves_are_different_errors() {
    let p = Position::start(Checkers::FULL);
    assert!(matches!(
        p.parse_move("3-"),
        Err(MoveTextError::Parse(ParseMoveError::Point(_)))
    ));
    let err = p.parse_move("in 9").unwrap_err();
    assert!(matches!(
        err,
        MoveTextError::Illegal {
            reason: IllegalMove::EnterOutsideA(_),
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        "in 9 is illegal: checkers enter on 1-6 (A1-A6), not on 9"
    );
    assert_eq!(
        p.parse_move("3-9").unwrap_err().to_string(),
        "3-9 is illegal: you have no checker on 3"
    );
    assert_eq!(parse_move("C5-D5").unwrap().to_string(), "17-23");
    assert_eq!(p.parse_move("in A2").unwrap(), Action::Enter { to: pt(2) });
}
