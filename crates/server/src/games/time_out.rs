//! Tests of what losing on time gives, per game, through the server's [`Table`] (the rule
//! itself is each face's, `crates/games/src/time_out.rs`, docs/rules/*.md, "Clocks").

use super::Table;
use crate::games::GameOptions;
use tabula_core::{Color, EndReason, SessionEnd};
use tabula_games::{backgammon, grasshopper, halma, never_finishing};

fn table(options: GameOptions) -> Table {
    Table::new(&options).unwrap()
}

#[test]
fn running_out_of_time_loses_a_backgammon_match() {
    let t = table(GameOptions::Backgammon(backgammon::Options {
        match_length: Some(5),
        crawford: true,
        beavers: false,
        jacoby: false,
        automatic_doubles: 0,
    }));
    let o = t.time_out(Color::White);
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, EndReason::TimeOut);
    match o.session {
        Some(SessionEnd::Match { length: 5, score }) => {
            assert_eq!((score.white, score.black), (0, 5))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn running_out_of_time_in_a_money_game_loses_at_the_level_the_position_holds() {
    let t = table(GameOptions::Backgammon(backgammon::Options {
        match_length: None,
        crawford: true,
        beavers: true,
        jacoby: false,
        automatic_doubles: 0,
    }));
    // At the start Black has borne off nothing and two checkers stand on White's
    // 1-point, in White's home board: losing on time now is a backgammon.
    let o = t.time_out(Color::Black);
    assert_eq!((o.winner, o.points), (Some(Color::White), 3));
    assert!(o.session.is_none());
}

#[test]
fn running_out_of_time_under_the_jacoby_rule_with_a_centred_cube_loses_a_single_game() {
    let t = table(GameOptions::Backgammon(backgammon::Options {
        match_length: None,
        crawford: true,
        beavers: true,
        jacoby: true,
        automatic_doubles: 0,
    }));
    assert_eq!(t.time_out(Color::Black).points, 1);
}

#[test]
fn running_out_of_time_loses_a_never_finishing_match_and_a_grasshopper_and_halma_game() {
    let nf = table(GameOptions::NeverFinishing(never_finishing::Options {
        match_length: 3,
    }));
    assert!(matches!(
        nf.time_out(Color::Black).session,
        Some(SessionEnd::Match { length: 3, .. })
    ));
    let g = table(GameOptions::Grasshopper(grasshopper::Options {
        checkers: 14,
    }));
    assert_eq!(g.time_out(Color::Black).points, 1);
    let h = table(GameOptions::HalmaGrasshopper(halma::Options {
        size: 8,
        evacuation: None,
    }));
    let o = h.time_out(Color::White);
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::TimeOut)
    );
}
