//! Backgammon: moves, show and play.

use crate::common::*;
use std::io::Write;
use std::process::{Command, Stdio};
use tabula_core::Dice;
use tabula_tables::notation::Xgid;
use tabula_tables::Position;

#[test]
fn moves_from_start_with_6_5_in_json() {
    let moves = moves_json(&["moves", "backgammon", "start", "--dice", "6-5", "--json"]);
    // 24/13, 24/18 13/8, 24/18 8/3, 13/7 13/8, 13/2, 13/7 8/3, 8/3 8/2: seven positions.
    let texts: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(moves.len(), 7, "{texts:?}");
    for m in ["24/13", "24/18 13/8", "13/2", "8/3 8/2"] {
        assert!(texts.contains(&m), "{m} missing from {texts:?}");
    }
    // Each result is the Position ID with the opponent on roll.
    let run = &moves.iter().find(|m| m.0 == "24/13").unwrap().1;
    let after = Position::from_position_id(run).unwrap().flip();
    assert_eq!(after.mover_on(13), 6);
    assert_eq!(after.mover_on(24), 1);
}

#[test]
fn every_roll_from_start_gives_distinct_legal_results() {
    for dice in Dice::all() {
        let d = dice.to_string();
        let moves = moves_json(&["moves", "backgammon", "start", "--dice", &d, "--json"]);
        let expected = Position::START.legal_positions(dice).len();
        assert_eq!(moves.len(), expected, "{d}");
        let mut positions: Vec<&String> = moves.iter().map(|m| &m.1).collect();
        positions.sort();
        positions.dedup();
        assert_eq!(positions.len(), moves.len(), "{d}: distinct results");
    }
}

#[test]
fn position_ids_and_dice_spellings_are_accepted() {
    let a = moves_json(&[
        "moves",
        "backgammon",
        "4HPwATDgc/ABMA",
        "--dice",
        "65",
        "--json",
    ]);
    let b = moves_json(&["moves", "backgammon", "start", "--dice", "5-6", "--json"]);
    assert_eq!(a, b);
}

#[test]
fn moves_for_an_xgid_use_its_dice_and_answer_in_xgid() {
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10";
    let moves = moves_json(&["moves", "backgammon", xgid, "--json"]);
    let parsed = Xgid::parse(xgid).unwrap();
    let expected = parsed
        .position
        .legal_positions(Dice::new(5, 2).unwrap())
        .len();
    assert_eq!(moves.len(), expected);
    for (_, position) in &moves {
        let next = Xgid::parse(position).unwrap();
        assert!(position.starts_with("XGID="));
        assert_ne!(next.on_roll, parsed.on_roll, "the other player is on roll");
        assert_eq!(
            next.dice,
            tabula_tables::notation::xgid::XgidDice::ToRoll,
            "no dice"
        );
    }
    // Without the prefix, and with --dice overriding the XGID's dice.
    let bare = moves_json(&["moves", "backgammon", &xgid[5..], "--json"]);
    assert_eq!(bare, moves);
    let other = moves_json(&["moves", "backgammon", xgid, "--dice", "6-6", "--json"]);
    assert_ne!(other, moves);
}

#[test]
fn no_legal_move_is_an_empty_list() {
    // The mover has a checker on the bar against a closed board.
    let mut mover = [0u8; 25];
    mover[24] = 1;
    mover[5] = 14;
    let mut opponent = [0u8; 25];
    opponent[..6].fill(2);
    opponent[10] = 3;
    let id = Position::from_counts(&mover, &opponent)
        .unwrap()
        .position_id();
    let out = tabula(&["moves", "backgammon", &id, "--dice", "6-5", "--json"], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out), "{\"moves\":[]}\n");
    let out = tabula(&["moves", "backgammon", &id, "--dice", "6-5"], "");
    assert!(stdout(&out).contains("No legal move"));
}

#[test]
fn the_readable_list_is_numbered() {
    let out = tabula(&["moves", "backgammon", "start", "--dice", "6-5"], "");
    let text = stdout(&out);
    assert!(text.starts_with("7 legal moves with 6-5:"), "{text}");
    assert!(text.contains("24/13"));
    assert!(text.lines().any(|l| l.trim_start().starts_with("7. ")));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let err = input_error(&["moves", "backgammon", "start", "--dice", "7-1"]);
    assert!(err.contains("7"), "{err}");
    input_error(&["moves", "backgammon", "start", "--dice", "0-1"]);
    input_error(&["moves", "backgammon", "start", "--dice", "six"]);
    input_error(&["moves", "backgammon", "not-an-id", "--dice", "6-5"]);
    input_error(&[
        "moves",
        "backgammon",
        "4HPwATDgc/ABMA:garbage",
        "--dice",
        "6-5",
    ]);
    input_error(&["moves", "backgammon", "XGID=broken:1:2", "--dice", "6-5"]);
    let err = input_error(&["moves", "chess", "start", "--dice", "6-5"]);
    assert!(err.contains("unknown game"), "{err}");
    let err = input_error(&["moves", "backgammon", "start"]);
    assert!(err.contains("--dice"), "{err}");
    let err = input_error(&["moves", "grasshopper", "start", "--dice", "6-5"]);
    assert!(err.contains("without dice"), "{err}");
    input_error(&["moves", "backgammon"]);
    input_error(&["show", "backgammon", "start", "--from", "red"]);
    input_error(&["frobnicate"]);
    input_error(&["play", "backgammon", "--match", "0"]);
    input_error(&["play", "backgammon", "--white", "grandmaster"]);
    input_error(&["play", "backgammon", "--match", "3", "--money"]);
    input_error(&["play", "backgammon", "--games", "3"]);
    input_error(&["play", "backgammon", "--money", "--auto-doubles", "99"]);
    input_error(&["play", "chess"]);
}

#[test]
fn show_draws_the_board_with_pip_counts() {
    let out = tabula(&["show", "backgammon", "start"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.matches("pips 167").count(), 2, "{text}");
    assert!(text.contains("Position ID: 4HPwATDgc/ABMA"));
    let left = stdout(&tabula(
        &[
            "show",
            "backgammon",
            "start",
            "--from",
            "black",
            "--home",
            "left",
        ],
        "",
    ));
    assert_ne!(left, text);
    assert!(left.contains("24 23 22 21 20 19"), "{left}");
}

#[test]
fn show_takes_cube_score_and_dice_from_a_match_id() {
    // gnubg's fixture: player 1 (White) on roll with 6-5 in the Crawford game of a 3-point
    // match, Black leading 2-0.
    let out = tabula(&["show", "backgammon", "bXOcAAiduwGAYA:8Al3ACAAAAAE"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for part in [
        "Match to 3",
        "Crawford",
        "score 2",
        "White to play 6-5",
        "[6] [5]",
    ] {
        assert!(text.contains(part), "{part} missing:\n{text}");
    }
    // The same position as an XGID draws the same board.
    let xgid = "XGID=-ACaCCB-------a-c--cAbbbaB:0:0:1:65:0:2:1:3:10";
    let same = stdout(&tabula(&["show", "backgammon", xgid], ""));
    let board = |s: &str| s.lines().take(15).collect::<Vec<_>>().join("\n");
    assert_eq!(board(&same), board(&text));
}

#[test]
fn bots_play_a_match_to_the_end_deterministically() {
    let args = [
        "play",
        "backgammon",
        "--match",
        "3",
        "--seed",
        "7",
        "--white",
        "easy",
        "--black",
        "medium",
    ];
    let first = tabula(&args, "");
    assert!(first.status.success(), "{}", stderr(&first));
    let text = stdout(&first);
    let last = text.lines().last().unwrap();
    assert!(last.contains("wins the match"), "{last}");
    assert!(text.contains("Seed 7"));
    assert!(text.contains("rolls"));
    let second = tabula(&args, "");
    assert_eq!(stdout(&second), text, "same seed, same session");
    let other = tabula(
        &[
            "play",
            "backgammon",
            "--match",
            "3",
            "--seed",
            "8",
            "--white",
            "easy",
            "--black",
            "medium",
        ],
        "",
    );
    assert_ne!(stdout(&other), text);
}

#[test]
fn bots_play_money_games() {
    let out = tabula(
        &[
            "play",
            "backgammon",
            "--money",
            "--games",
            "2",
            "--seed",
            "1",
            "--white",
            "random",
            "--black",
            "strong",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Game 2"));
    assert!(text
        .lines()
        .last()
        .unwrap()
        .starts_with("Session over after 2 games"));
}

#[test]
fn a_human_is_told_why_a_move_is_illegal_and_may_quit() {
    // Seed 3: White (human) wins the opening roll with 6-1.
    let out = tabula(
        &["play", "backgammon", "--seed", "3"],
        "24/18 13/9\nfoo\ndouble\n13/7 8/7\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("White to play 6-1"), "{text}");
    assert!(text.contains("Illegal move: 24/18 13/9"), "{text}");
    assert!(text.contains("unknown command"), "{text}");
    assert!(text.contains("Cannot double now"), "{text}");
    assert!(text.contains("White plays 13/7 8/7"), "{text}");
    assert!(text.contains("Black rolls"), "{text}");
    assert!(text.contains("Stopped in game 1"), "{text}");
}

#[test]
fn end_of_input_quits_cleanly() {
    let out = tabula(&["play", "backgammon", "--seed", "3"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Stopped in game 1"));
}

#[test]
fn nonsense_input_never_breaks_the_session() {
    let lines = [
        "",
        "help",
        "moves",
        "board",
        "roll",
        "double",
        "take",
        "drop",
        "beaver",
        "accept",
        "reject",
        "resign",
        "resign backgammon",
        "resign nonsense",
        "bar/22",
        "25/off",
        "0/0",
        "24/-3",
        "99999999999999999999/1",
        "6/off(9)",
        "8/2(2)",
        "24/18*/13",
        "२४/१८",
        "\u{0}\u{7f}",
        "13/7 8/7",
        "13/11 6/5",
        "24/23 13/7",
        "pass",
        "reject",
    ];
    let mut input = String::new();
    for _ in 0..20 {
        for l in lines {
            input.push_str(l);
            input.push('\n');
        }
    }
    for seed in ["1", "3", "5"] {
        for (white, black) in [("human", "medium"), ("human", "human"), ("random", "human")] {
            let out = tabula(
                &[
                    "play",
                    "backgammon",
                    "--seed",
                    seed,
                    "--white",
                    white,
                    "--black",
                    black,
                ],
                &input,
            );
            assert!(
                out.status.success(),
                "{seed} {white} {black}: {}",
                stderr(&out)
            );
            assert!(!stderr(&out).contains("panicked"));
        }
    }
    let money = tabula(
        &[
            "play",
            "backgammon",
            "--money",
            "--seed",
            "2",
            "--auto-doubles",
            "2",
        ],
        &input,
    );
    assert!(money.status.success(), "{}", stderr(&money));
}

#[test]
fn invalid_utf8_input_is_refused_not_fatal() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["play", "backgammon", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(b"\xff\xfe/\xc0\n13/7 8/7\nquit\n");
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("not text"), "{text}");
    assert!(text.contains("White plays 13/7 8/7"), "{text}");
}
