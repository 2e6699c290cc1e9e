//! Reading and replaying hand-written `.mat` files, Tabula's, gnubg's and eXtreme Gammon's
//! variants, and the errors of malformed ones.

use super::*;
use crate::backgammon::{Ending, ResignLevel};
use proptest::prelude::*;

/// gnubg's layout, with the `Wins` of a drop on the drop's line, and a final resignation.
const MATCH: &str = "; [EventDate \"2026.11.25\"]

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Takes                      64: 24/18 13/9 
  3)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 Alice : 2                      Bob : 0
  1)                             52: 13/11 13/8 
                                  Wins 1 point

 Game 3
 Alice : 2                      Bob : 1
  1) 61: 13/7 8/7                 Doubles => 2
  2)  Drops                       Wins 1 point 
";

fn actions(replay: &Replay) -> Vec<(Color, Action)> {
    replay.steps.iter().map(|s| (s.player, s.action)).collect()
}

#[test]
fn a_gnubg_match_reads_into_games_scores_and_column_entries() {
    let mat = read_mat(MATCH).unwrap();
    assert_eq!((mat.length, mat.crawford, mat.jacoby), (3, None, None));
    assert_eq!(mat.games.len(), 3);
    let g1 = &mat.games[0];
    assert_eq!((g1.number, g1.line), (1, 5));
    assert_eq!(g1.names.white, "Alice");
    assert_eq!(g1.names.black, "Bob");
    let items: Vec<(usize, Color, String)> = g1
        .entries
        .iter()
        .map(|e| (e.line, e.player, e.item.to_string()))
        .collect();
    use Color::{Black, White};
    assert_eq!(
        items,
        [
            (7, White, "31: 8/5 6/5".to_string()),
            (7, Black, "Doubles => 2".to_string()),
            (8, White, "Takes".to_string()),
            (8, Black, "64: 24/18 13/9".to_string()),
            (9, White, "Doubles => 4".to_string()),
            (9, Black, "Drops".to_string()),
            (10, White, "Wins 2 points".to_string()),
        ]
    );
    assert_eq!(mat.games[2].score, ByColor { white: 2, black: 1 });
    assert_eq!(
        mat.games[2].entries.last().map(|e| (e.player, &e.item)),
        Some((Black, &MatItem::Wins(1)))
    );
}

#[test]
fn a_replayed_match_gives_every_decision_with_the_opening_dice_and_an_inferred_resignation() {
    let replay = replay_mat(MATCH).unwrap();
    assert_eq!(replay.length, 3);
    use Color::{Black, White};
    let moves: Vec<Action> = replay
        .steps
        .iter()
        .filter(|s| matches!(s.action, Action::Move(_)))
        .map(|s| s.action)
        .collect();
    let acts = actions(&replay);
    assert_eq!(
        acts.iter()
            .map(|(p, a)| (
                *p,
                a.to_string().split(' ').next().unwrap_or("").to_string()
            ))
            .collect::<Vec<_>>(),
        [
            (White, "move"),
            (Black, "double"),
            (White, "take"),
            (Black, "move"),
            (White, "double"),
            (Black, "drop"),
            // Game 2, the Crawford game: Bob opens; Alice, who cannot double, rolls dice
            // that are not written and resigns a single game.
            (Black, "move"),
            (White, "resign"),
            (Black, "accept"),
            // Game 3, post-Crawford.
            (White, "move"),
            (Black, "double"),
            (White, "drop"),
        ]
        .map(|(p, a)| (p, a.to_string()))
    );
    assert_eq!(acts[7].1, Action::Resign(ResignLevel::Single));
    assert_eq!(moves.len(), 4);
    // The opening roll 3-1 is White's: the 3 was hers.
    assert_eq!(replay.steps[0].dice, Dice::new(3, 1).ok());
    assert_eq!(replay.steps[0].before.events().len(), 2);
    assert!(replay.steps[6].before.is_crawford_game());
    assert_eq!(replay.session.score(), ByColor { white: 2, black: 2 });
    let endings: Vec<Ending> = replay.session.results().iter().map(|r| r.ending).collect();
    assert_eq!(
        endings,
        [Ending::Dropped, Ending::Resigned, Ending::Dropped]
    );
}

#[test]
fn a_play_where_the_player_could_double_is_a_roll_decision_then_the_move() {
    let text = " 5 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   64: 24/18 13/9\n";
    let replay = replay_mat(text).unwrap();
    let acts = actions(&replay);
    assert_eq!(acts.len(), 3);
    assert_eq!(acts[1], (Color::Black, Action::Roll));
    assert!(matches!(acts[2], (Color::Black, Action::Move(_))));
    assert_eq!(replay.steps[2].dice, Dice::new(6, 4).ok());
    // The names of a short score line, and the game left unfinished.
    assert_eq!(replay.names.black, "B");
    assert!(!replay.session.is_over());
}

#[test]
fn gnubg_move_forms_bar_off_chains_repeats_and_tabs_all_read() {
    // Bob hits with 6-1 and Alice dances with 6-6; then 2-1 from the bar written `bar/23`,
    // and Bob's 4-4 as `11/3 13/9(2)` (one checker moved twice, two moved once) after a tab.
    let text = "; [Crawford \"Off\"]\n 1 point match\n\n Game 1\n A : 0  B : 0\n\
  1) 62: 24/18 13/11             61: 13/7* 8/7\n\
  2) 66:                         21: 24/23 13/11\n\
  3) 21: bar/23 24/23            \t44: 11/3 13/9(2)\n";
    let replay = replay_mat(text).unwrap();
    let moves = replay
        .steps
        .iter()
        .filter(|s| matches!(s.action, Action::Move(_)))
        .count();
    assert_eq!(moves, 5);
    // The same plays written step by step with 25 for the bar.
    let steps = text
        .replace("bar/23", "25/23")
        .replace("11/3 13/9(2)", "11/7 7/3 13/9 13/9");
    assert_eq!(actions(&replay_mat(&steps).unwrap()), actions(&replay));
}

#[test]
fn a_money_session_with_a_beaver_and_the_jacoby_tag_replays_with_the_jacoby_rule() {
    // Tabula's own export of a beavered game resigned as a gammon: 2 x 4 points.
    let text = "; [Jacoby \"On\"]
; [Beaver \"On\"]

 0 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             31: 24/23 13/10 
  2)  Doubles => 2                Beavers => 4
  3) 64: 24/18 13/9              21: 13/11 6/5 
  4) 55: 13/8 13/8 8/3 8/3       
      Wins 8 points
";
    let replay = replay_mat(text).unwrap();
    assert_eq!(replay.length, 0);
    assert!(matches!(
        replay.session.options().mode,
        Mode::Money {
            jacoby: true,
            beavers: true,
            games: Some(1),
            ..
        }
    ));
    let acts = actions(&replay);
    assert!(acts.contains(&(Color::Black, Action::Beaver)));
    assert_eq!(
        acts[acts.len() - 2..],
        [
            (Color::Black, Action::Resign(ResignLevel::Gammon)),
            (Color::White, Action::AcceptResignation)
        ]
    );
    assert_eq!(replay.session.score(), ByColor { white: 8, black: 0 });
    assert!(replay.session.is_over());
}

#[test]
fn games_resigned_on_the_opening_roll_are_replayed_with_the_loser_moving_first() {
    // A game with only its `Wins` line: the loser won the opening roll and resigned.
    let text = " 0 point match\n Game 1\n A : 0  B : 0\n      Wins 1 point\n\
 Game 2\n A : 1  B : 0\n                                  Wins 2 points\n\
 Game 3\n A : 1  B : 2\n";
    let replay = replay_mat(text).unwrap();
    assert_eq!(replay.session.score(), ByColor { white: 1, black: 2 });
    assert_eq!(
        actions(&replay),
        [
            (Color::Black, Action::Resign(ResignLevel::Single)),
            (Color::White, Action::AcceptResignation),
            (Color::White, Action::Resign(ResignLevel::Gammon)),
            (Color::Black, Action::AcceptResignation),
        ]
    );
    assert_eq!(replay.steps[0].before.game().turn(), Color::Black);
    // Game 3 has begun but not been played: no game limit, Jacoby off (a 2-point
    // resignation with the cube centred is a gammon without it).
    assert!(matches!(
        replay.session.options().mode,
        Mode::Money {
            jacoby: false,
            games: None,
            ..
        }
    ));
}

/// The error of replaying `text`.
fn error(text: &str) -> MatError {
    match replay_mat(text) {
        Err(e) => e,
        Ok(r) => panic!("replayed {} steps", r.steps.len()),
    }
}

const HEAD: &str = " 5 point match\n\n Game 1\n Alice : 0    Bob : 0\n";

#[test]
fn an_illegal_play_names_the_game_and_the_line() {
    let e = error(&format!("{HEAD}  1) 31: 8/5 6/4\n"));
    assert_eq!((e.line, e.game), (5, Some(1)));
    assert!(matches!(e.kind, MatErrorKind::IllegalMove { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("line 5 (game 1): 3-1 \"8/5 6/4\" is not a legal play"),
        "{e}"
    );
    // Moving from an empty point, onto a held point, and not using both dice.
    for play in ["7/4 6/5", "13/10 6/1", "8/5"] {
        let e = error(&format!("{HEAD}  1) 31: {play}\n"));
        assert!(matches!(e.kind, MatErrorKind::IllegalMove { .. }), "{e}");
    }
}

#[test]
fn malformed_text_gives_its_line_number() {
    let cases: [(&str, usize); 10] = [
        (" Game 1\n A : 0  B : 0\n", 1),
        (" 99 point match\n", 1),
        (" 5 point match\n Game one\n", 2),
        (" 5 point match\n Game 1\n A 0 B 0\n", 3),
        (" 5 point match\n Game 1\n", 3),
        (&format!("{HEAD}  1) 71: 8/1\n"), 5),
        (&format!("{HEAD}  1) 31: 8/5 6/5   Doubles => x\n"), 5),
        (&format!("{HEAD}  1) 31: 8/5 6/5   Wins some\n"), 5),
        (&format!("{HEAD}  1) 31: 8/5 6/z\n"), 5),
        (&format!("{HEAD}\n\n  hello\n"), 7),
    ];
    for (text, line) in cases {
        let e = read_mat(text).expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
    }
    let e = read_mat(&format!("{HEAD}  1) 31: 8/5 6/5  Takes  Drops\n")).unwrap_err();
    assert_eq!(e.kind, MatErrorKind::ThreeEntries);
    let e = read_mat("; [Variation \"Nackgammon\"]\n 5 point match\n").unwrap_err();
    assert!(matches!(e.kind, MatErrorKind::Unsupported(_)), "{e}");
}

#[test]
fn replay_errors_name_what_disagrees() {
    // A score line that is not the score reached.
    let e = error(&format!(
        "{HEAD}  1) 31: 8/5 6/5   Doubles => 2\n  2)  Drops   Wins 1 point\n Game 2\n Alice : 1  Bob : 0\n"
    ));
    assert_eq!((e.line, e.game), (7, Some(2)));
    assert!(matches!(e.kind, MatErrorKind::Score { .. }), "{e}");
    // A wrong cube value, a double out of turn, a wrong winner.
    let e = error(&format!("{HEAD}  1) 31: 8/5 6/5   Doubles => 4\n"));
    assert!(
        matches!(e.kind, MatErrorKind::CubeValue { value: 2, .. }),
        "{e}"
    );
    let e = error(&format!("{HEAD}  1) 31: 8/5 6/5\n  2)  Doubles => 2\n"));
    assert!(
        matches!(
            e.kind,
            MatErrorKind::OutOfTurn {
                found: Color::White,
                expected: Color::Black,
                ..
            }
        ),
        "{e}"
    );
    let e = error(&format!(
        "{HEAD}  1) 31: 8/5 6/5   Doubles => 2\n  2)  Drops\n      Wins 1 point\n"
    ));
    assert!(matches!(e.kind, MatErrorKind::Result { .. }), "{e}");
    // A double opening roll, a roll without its play, a play after the game's end.
    let e = error(&format!("{HEAD}  1) 33: 8/5 8/5 6/3 6/3\n"));
    assert!(matches!(e.kind, MatErrorKind::Unexpected { .. }), "{e}");
    let e = error(&format!("{HEAD}  1) 31:   64: 24/18 13/9\n"));
    assert!(matches!(e.kind, MatErrorKind::IllegalMove { .. }), "{e}");
    let e = error(&format!(
        "{HEAD}  1) 31: 8/5 6/5   Doubles => 2\n  2)  Drops  Wins 1 point\n  3) 21: 13/11 6/5\n"
    ));
    assert_eq!(e.line, 7);
    // A resignation worth no level of the cube, a game after the match, a game left unfinished.
    let e = error(&format!(
        "{HEAD}  1) 31: 8/5 6/5\n                         Wins 5 points\n"
    ));
    assert!(matches!(e.kind, MatErrorKind::Unexpected { .. }), "{e}");
    let e =
        error(" 1 point match\n Game 1\n A : 0  B : 0\n   Wins 1 point\n Game 2\n A : 1  B : 0\n");
    assert_eq!((e.line, e.kind), (5, MatErrorKind::MatchOver));
    let e = error(&format!(
        "{HEAD}  1) 31: 8/5 6/5\n Game 2\n Alice : 0  Bob : 0\n"
    ));
    assert_eq!((e.line, e.kind), (6, MatErrorKind::Unfinished));
}

#[test]
fn garbage_lines_in_a_game_are_errors_not_panics() {
    for garbage in [
        "  1) 31:",
        "  1) 31: 25/24/23/22/21/20/19 0/0",
        "  1) 31: 8/5(200)",
        "  1) 00: 1/0",
        "  1) Doubles =>",
        "  1) Wins",
        "  1) Wins 0 points",
        "  1) 31: bar/off*(2)",
        "99999999999999999999) 31",
        "  1) 31: 6/0 6/0",
    ] {
        let text = format!("{HEAD}{garbage}\n");
        assert!(replay_mat(&text).is_err(), "{text}");
    }
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = replay_mat(&text);
        let _ = replay_mat(&format!("{HEAD}{text}"));
    }

    #[test]
    fn lines_of_mat_words_never_panic(
        words in proptest::collection::vec(
            prop_oneof![
                Just("31:".to_string()), Just("66:".to_string()), Just("Doubles".to_string()),
                Just("=>".to_string()), Just("2".to_string()), Just("Takes".to_string()),
                Just("Drops".to_string()), Just("Beavers".to_string()), Just("Wins".to_string()),
                Just("point".to_string()), Just("1)".to_string()), Just("\n".to_string()),
                Just("Game 2\n A : 0  B : 0\n".to_string()),
                "([0-9]{1,2}|bar|off)/([0-9]{1,2}|off)\\*?(\\([0-9]\\))?",
                " {1,40}",
            ],
            0..40,
        )
    ) {
        let _ = replay_mat(&format!("{HEAD}  1) {}", words.join(" ")));
    }
}
