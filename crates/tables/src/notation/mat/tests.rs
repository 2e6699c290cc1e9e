//! Exact text of small hand-played sessions.

use super::*;
use crate::backgammon::{Cube, GameState, Options, ResignLevel};
use crate::notation::format_move;
use tabula_core::{DiceRoll, Game};

const NAMES: ByColor<&str> = ByColor {
    white: "Alice",
    black: "Bob",
};

fn roll(s: &mut Backgammon, a: u8, b: u8) {
    s.roll(DiceRoll::new(a, b).unwrap()).unwrap();
}

fn act(s: &mut Backgammon, action: Action) {
    s.apply(&action).unwrap();
}

/// Plays the legal move whose gnubg text is `text`.
fn play(s: &mut Backgammon, text: &str) {
    let (board, dice) = (s.game().board(), s.game().dice().unwrap());
    let plays: Vec<(String, Action)> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Move(after) => Some((format_move(&board, &after, dice).unwrap(), a)),
            _ => None,
        })
        .collect();
    let Some((_, action)) = plays.iter().find(|(t, _)| t == text) else {
        let texts: Vec<&String> = plays.iter().map(|(t, _)| t).collect();
        panic!("no legal play {text} among {texts:?}");
    };
    act(s, *action);
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn a_match_with_cube_actions_a_resignation_after_rolling_and_a_crawford_game() {
    let mut s = Backgammon::new(Options::match_to(3).unwrap()).unwrap();
    // Game 1: Alice opens, Bob doubles, Alice takes and later redoubles, Bob drops.
    roll(&mut s, 3, 1);
    play(&mut s, "8/5 6/5");
    act(&mut s, Action::Double);
    act(&mut s, Action::Take);
    roll(&mut s, 6, 4);
    play(&mut s, "24/18 13/9");
    act(&mut s, Action::Double);
    act(&mut s, Action::Drop);
    // Game 2, the Crawford game at 2-0: Bob opens; Alice rolls and resigns (her dice are
    // not written).
    assert!(s.is_crawford_game());
    roll(&mut s, 2, 5);
    play(&mut s, "13/11 13/8");
    roll(&mut s, 6, 5);
    act(&mut s, Action::Resign(ResignLevel::Single));
    act(&mut s, Action::AcceptResignation);
    // Game 3, post-Crawford at 2-1: Alice opens, Bob doubles, Alice drops.
    roll(&mut s, 6, 1);
    play(&mut s, "13/7 8/7");
    act(&mut s, Action::Double);
    act(&mut s, Action::Drop);
    assert_eq!(s.score(), ByColor { white: 2, black: 2 });
    let text = export_mat(&s, NAMES);
    assert_eq!(
        lines(&text),
        [
            "; [Crawford \"On\"]",
            "",
            " 3 point match",
            "",
            " Game 1",
            " Alice : 0                      Bob : 0",
            "  1) 31: 8/5 6/5                  Doubles => 2",
            "  2)  Takes                      64: 24/18 13/9 ",
            "  3)  Doubles => 4                Drops",
            "      Wins 2 points",
            "",
            " Game 2",
            " Alice : 2                      Bob : 0",
            "  1)                             52: 13/11 13/8 ",
            "                                  Wins 1 point",
            "",
            " Game 3",
            " Alice : 2                      Bob : 1",
            "  1) 61: 13/7 8/7                 Doubles => 2",
            "  2)  Drops                       Wins 1 point ",
            "",
        ]
    );
    assert!(text.ends_with(" Wins 1 point \n\n"));
}

#[test]
fn a_money_session_with_a_beaver_and_a_resignation_before_rolling() {
    let mut s = Backgammon::new(Options::money()).unwrap();
    // Bob opens; Alice doubles and Bob beavers, keeping the cube at 4.
    roll(&mut s, 1, 3);
    play(&mut s, "24/23 13/10");
    act(&mut s, Action::Double);
    act(&mut s, Action::Beaver);
    roll(&mut s, 6, 4);
    play(&mut s, "24/18 13/9");
    // Bob offers a gammon before rolling; Alice refuses (not written) and Bob rolls.
    act(&mut s, Action::Resign(ResignLevel::Gammon));
    act(&mut s, Action::RejectResignation);
    act(&mut s, Action::Roll);
    roll(&mut s, 2, 1);
    play(&mut s, "13/11 6/5");
    roll(&mut s, 5, 5);
    play(&mut s, "13/3(2)");
    // Bob resigns a gammon at the start of his turn: 2 x 4 points for Alice.
    act(&mut s, Action::Resign(ResignLevel::Gammon));
    act(&mut s, Action::AcceptResignation);
    assert_eq!(s.score(), ByColor { white: 8, black: 0 });
    // The next game has begun but nothing has been rolled: it is not written.
    let text = export_mat(&s, NAMES);
    assert_eq!(
        lines(&text),
        [
            "; [Jacoby \"On\"]",
            "; [Beaver \"On\"]",
            "",
            " 0 point match",
            "",
            " Game 1",
            " Alice : 0                      Bob : 0",
            "  1)                             31: 24/23 13/10 ",
            "  2)  Doubles => 2                Beavers => 4",
            "  3) 64: 24/18 13/9              21: 13/11 6/5 ",
            "  4) 55: 13/8 13/8 8/3 8/3       ",
            "      Wins 8 points",
            "",
        ]
    );
}

#[test]
fn a_roll_without_a_legal_move_is_the_dice_alone() {
    // A one-point match (its only game is a Crawford game, so nobody doubles). Bob hits
    // Alice's blot and she dances with 6-6 against his 6-point.
    let mut s = Backgammon::new(Options::match_to(1).unwrap()).unwrap();
    roll(&mut s, 6, 2);
    play(&mut s, "24/18 13/11");
    roll(&mut s, 6, 1);
    play(&mut s, "13/7* 8/7");
    roll(&mut s, 6, 6);
    assert!(matches!(
        s.events().last(),
        Some(Event::NoMove {
            player: Color::White
        })
    ));
    roll(&mut s, 2, 1);
    play(&mut s, "24/23 13/11");
    let text = export_mat(&s, NAMES);
    assert_eq!(
        lines(&text)[2..],
        [
            " 1 point match",
            "",
            " Game 1",
            " Alice : 0                      Bob : 0",
            "  1) 62: 24/18 13/11             61: 13/7* 8/7 ",
            "  2) 66:                         21: 24/23 13/11 ",
            "",
        ]
    );
}

#[test]
fn names_are_cleaned_and_a_game_in_progress_stops_at_its_last_finished_turn() {
    let mut s = Backgammon::new(Options::match_to(5).unwrap()).unwrap();
    roll(&mut s, 6, 5);
    play(&mut s, "24/13");
    act(&mut s, Action::Roll);
    roll(&mut s, 4, 2);
    let text = export_mat(
        &s,
        ByColor {
            white: " a:b\t",
            black: "",
        },
    );
    assert_eq!(
        lines(&text)[4..],
        [
            " Game 1",
            " a_b : 0                        Black : 0",
            "  1) 65: 24/18 18/13             ",
            "",
        ]
    );
}

#[test]
fn the_example_in_docs_notation_md() {
    let mut s = Backgammon::new(Options::match_to(5).unwrap()).unwrap();
    roll(&mut s, 1, 3);
    play(&mut s, "24/23 13/10");
    act(&mut s, Action::Double);
    act(&mut s, Action::Take);
    roll(&mut s, 6, 4);
    play(&mut s, "24/18 13/9");
    act(&mut s, Action::Roll);
    roll(&mut s, 2, 1);
    play(&mut s, "13/11 6/5");
    roll(&mut s, 5, 2);
    play(&mut s, "13/11 13/8");
    act(&mut s, Action::Double);
    act(&mut s, Action::Drop);
    roll(&mut s, 6, 2);
    play(&mut s, "24/18 13/11");
    act(&mut s, Action::Double);
    act(&mut s, Action::Drop);
    let text = export_mat(&s, NAMES);
    let doc = include_str!("../../../../../docs/notation.md");
    let section = &doc[doc.find("## Jellyfish .mat export").unwrap()..];
    let start = section.find("```text\n").unwrap() + "```text\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    assert_eq!(text, format!("{example}\n"), "{text}");
}

#[test]
fn a_session_set_up_mid_game_starts_with_the_next_game() {
    // White bears off her last checker in a set-up game at 2-0 (a gammon), then game 2 opens.
    let options = Options::match_to(7).unwrap();
    let mut black = [0u8; 25];
    black[5] = 15;
    let mut white = [0u8; 25];
    white[0] = 1;
    let board = Position::from_counts(&white, &black).unwrap();
    let game = GameState::from_setup(options, board, Color::White, Cube::CENTRED, true, None);
    let score = ByColor { white: 2, black: 0 };
    let mut s = Backgammon::from_game(options, game, score, false).unwrap();
    act(&mut s, Action::Roll);
    roll(&mut s, 2, 1);
    let bear_off = s.legal_actions()[0];
    act(&mut s, bear_off);
    roll(&mut s, 4, 2);
    play(&mut s, "8/4 6/4");
    let text = export_mat(&s, NAMES);
    assert_eq!(
        lines(&text)[4..],
        [
            " Game 1",
            " Alice : 4                      Bob : 0",
            "  1) 42: 8/4 6/4                 ",
            "",
        ]
    );
}
