//! The `tabula` binary, run for real: output formats, exit codes, and whole sessions.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use tabula_core::Color;
use tabula_core::Dice;
use tabula_grasshopper::Position as GrasshopperPosition;
use tabula_halma::Position as HalmaPosition;
use tabula_tables::notation::{TablesPosition, Xgid};
use tabula_tables::Position;

/// Runs `tabula` with `args`, feeding `stdin`.
fn tabula(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().unwrap();
    // The command may stop reading early (quit); a closed pipe is fine.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The `{"moves": [...]}` document as (move, position) pairs.
fn moves_json(args: &[&str]) -> Vec<(String, String)> {
    let out = tabula(args, "");
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one JSON object on one line");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let obj = doc.as_object().unwrap();
    assert_eq!(obj.len(), 1, "only the moves key");
    obj["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["position"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Asserts exit code 2 and a single `error: ...` line on stderr; returns the line.
fn input_error(args: &[&str]) -> String {
    let out = tabula(args, "");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(stdout(&out).is_empty());
    err
}

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

// Never-Finishing backgammon.

/// A Never-Finishing position in tables notation, White to move: White has five checkers on
/// its 13-point, Black a blot on White's 8-point.
const NF_BLOT: &str = "7/1b/4/5w/11:0:0:w";

#[test]
fn never_finishing_moves_from_start_with_5_3_in_json() {
    let moves = moves_json(&[
        "moves",
        "never-finishing",
        "start",
        "--dice",
        "5-3",
        "--json",
    ]);
    // All fifteen stand on the 24-point: 24/16 or 24/21 24/19.
    let texts: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(texts, ["24/21 24/19", "24/16"]);
    for (text, position) in &moves {
        let next: TablesPosition = position.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(next.to_move, Color::Black, "{text}");
        assert_eq!(next.to_string(), *position, "canonical");
        assert_eq!(next.position.mover_on(24), 15, "Black has not moved");
    }
}

#[test]
fn never_finishing_blot_gives_a_hit_and_a_trap_as_two_moves() {
    let moves = moves_json(&[
        "moves",
        "never-finishing",
        NF_BLOT,
        "--dice",
        "5-3",
        "--json",
    ]);
    let find = |text: &str| {
        moves
            .iter()
            .find(|m| m.0 == text)
            .unwrap_or_else(|| panic!("{text} missing from {moves:?}"))
            .1
            .parse::<TablesPosition>()
            .unwrap()
    };
    let hit = find("13/10 13/8*");
    let trap = find("13/10 13/8^");
    // Seen from Black, now to move: hit, its checker is on the bar; trapped, it stays on its
    // 17-point (White's 8) under White's checker.
    assert_eq!(hit.position.mover_on(25), 1);
    assert_eq!(trap.position.mover_on(25), 0);
    assert!(trap.position.is_trapped(17));
    let mut positions: Vec<&String> = moves.iter().map(|m| &m.1).collect();
    positions.sort();
    positions.dedup();
    assert_eq!(positions.len(), moves.len(), "one entry per result");
}

#[test]
fn never_finishing_readable_list_and_no_move() {
    let out = tabula(&["moves", "never-finishing", NF_BLOT, "--dice", "53"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("4 legal moves with 5-3:"), "{text}");
    assert!(text.contains("13/10 13/8^"), "{text}");
    // White's last checker is trapped on its 1-point under two Black checkers: no move.
    let stuck = "2b+w/23:0:0:w";
    let out = tabula(
        &["moves", "never-finishing", stuck, "--dice", "6-5", "--json"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"moves\":[]}\n");
}

#[test]
fn never_finishing_bad_input_exits_2_with_one_line() {
    let err = input_error(&[
        "moves",
        "never-finishing",
        "15b/22/15w:0:0:x",
        "--dice",
        "5-3",
    ]);
    assert!(err.contains("bad position"), "{err}");
    assert!(err.contains("side to move"), "{err}");
    // A backgammon Position ID is not a tables position.
    input_error(&[
        "moves",
        "never-finishing",
        "4HPwATDgc/ABMA",
        "--dice",
        "5-3",
    ]);
    input_error(&["moves", "never-finishing", "16w/23:0:0:w", "--dice", "5-3"]);
    let err = input_error(&["moves", "never-finishing", "start", "--dice", "7-3"]);
    assert!(err.contains("bad dice"), "{err}");
    input_error(&["moves", "never-finishing", "start", "--dice", "five"]);
    let err = input_error(&["moves", "never-finishing", "start"]);
    assert!(err.contains("--dice"), "{err}");
    input_error(&["show", "never-finishing", "2w+w/23:0:0:w"]);
    input_error(&["play", "never-finishing", "--match", "0"]);
    input_error(&["play", "never-finishing", "--match", "65"]);
    input_error(&["play", "never-finishing", "--black", "grandmaster"]);
    let err = input_error(&["play", "never-finishing", "--no-crawford"]);
    assert!(err.contains("no cube"), "{err}");
    input_error(&["play", "never-finishing", "--money", "--auto-doubles", "1"]);
    input_error(&["play", "never-finishing", "--money", "--games", "0"]);
}

#[test]
fn never_finishing_show_draws_trapped_checkers_of_both_colours() {
    let position = "2b+w/4/3w/1/1w+b/3/5b+w/4w/3/1b/1/1b/4/3w+b:1:0:b";
    let out = tabula(&["show", "never-finishing", position], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // Black on roll, seen from Black: White's checker trapped on Black's 24-point (top right,
    // at the edge) under two Black checkers; Black's trapped on Black's 1-point under three.
    assert_eq!(
        lines[2],
        " | o           x    |     | O              o |  1  |  O White"
    );
    assert_eq!(
        lines[12],
        " | O           X    |     | X              x |  4  |  X Black"
    );
    assert!(text.contains("Trapped under the other side's checkers: o White, x Black"));
    assert!(
        text.ends_with("Tables position: 2b+w/4/3w/1/1w+b/3/5b+w/4w/3/1b/1/1b/4/3w+b:1:0:1:4:b\n")
    );
    let start = stdout(&tabula(&["show", "never-finishing", "start"], ""));
    // Each side's fifteen, drawn as a tall stack with its count on the 24-point.
    let counts = start.lines().filter(|l| l.contains(" 15 |")).count();
    assert_eq!(counts, 2, "{start}");
    assert!(!start.contains("Trapped"));
    assert!(start.ends_with("Tables position: 15b/22/15w:0:0:0:0:w\n"));
}

#[test]
fn never_finishing_bots_play_a_match_to_the_end_deterministically() {
    let args = [
        "play",
        "never-finishing",
        "--match",
        "1",
        "--seed",
        "3",
        "--white",
        "easy",
        "--black",
        "medium",
    ];
    let first = tabula(&args, "");
    assert!(first.status.success(), "{}", stderr(&first));
    let text = stdout(&first);
    assert!(
        text.starts_with(
            "Never-Finishing match to 1: White (easy, O) against Black (medium, X). Seed 3"
        ),
        "{text}"
    );
    assert!(text.contains("Opening roll:"), "{text}");
    assert!(text.contains(" and plays "), "{text}");
    assert!(text.contains('^'), "a trap was played: {text}");
    let last = text.lines().last().unwrap();
    assert!(last.contains("wins the match"), "{last}");
    assert_eq!(stdout(&tabula(&args, "")), text, "same seed, same session");
}

#[test]
fn never_finishing_winner_starts_the_next_game_and_draws_are_told() {
    // Seed 2 between random bots: a dead position is drawn, and each game after the first
    // is started by the last winner (or, after the draw, by an opening roll). (Seed 4 showed
    // this until commit 9a66737 changed the order in which SequenceGen lists plays, and with
    // it the random bots' choices.)
    let out = tabula(
        &[
            "play",
            "never-finishing",
            "--seed",
            "2",
            "--white",
            "random",
            "--black",
            "random",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Dead position: the game is drawn"), "{text}");
    assert!(text.contains("won the last game and starts"), "{text}");
    assert!(
        text.contains("the last game was drawn, the opening roll decides"),
        "{text}"
    );
    assert!(text.lines().last().unwrap().contains("wins the match"));
}

#[test]
fn never_finishing_money_bots_play_one_game_by_default() {
    let out = tabula(
        &[
            "play",
            "never-finishing",
            "--money",
            "--seed",
            "2",
            "--white",
            "random",
            "--black",
            "easy",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Never-Finishing money play, 1 game"),
        "{text}"
    );
    assert!(text
        .lines()
        .last()
        .unwrap()
        .starts_with("Session over after 1 game"));
}

#[test]
fn never_finishing_human_is_told_why_a_move_is_illegal_and_eof_quits() {
    // Seed 3: White (human) starts with 3-1, all fifteen on its 24-point.
    let out = tabula(
        &["play", "never-finishing", "--seed", "3"],
        "5/1\n24/20*\ndouble\nmoves\n24/23 24/21\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("White to play 3-1"), "{text}");
    assert!(
        text.contains("Illegal move: 5/1: no checker on 5"),
        "{text}"
    );
    assert!(text.contains("Illegal move: 24/20*"), "{text}");
    assert!(text.contains("There is no cube"), "{text}");
    assert!(text.contains("  2. 24/20"), "{text}");
    assert!(text.contains("White plays 24/23 24/21"), "{text}");
    assert!(text.contains("Black rolls"), "{text}");
    // The input ends at White's next turn: the session stops cleanly.
    assert!(
        text.trim_end()
            .ends_with("Stopped in game 1, score 0-0 to 3. Replay with --seed 3."),
        "{text}"
    );
}

#[test]
fn never_finishing_nonsense_input_never_breaks_the_session() {
    let lines = [
        "",
        "help",
        "moves",
        "board",
        "roll",
        "double",
        "resign",
        "accept",
        "13/8^",
        "13/8*",
        "24/23^",
        "bar/20^",
        "24/18^/13",
        "1",
        "99",
        "6/off",
        "24/21 24/19",
        "24/16",
        "24/20",
        "8/2(2)",
        "\u{0}",
    ];
    let mut input = String::new();
    for _ in 0..30 {
        for l in lines {
            input.push_str(l);
            input.push('\n');
        }
    }
    for seed in ["1", "3"] {
        for (white, black) in [("human", "easy"), ("human", "human")] {
            let out = tabula(
                &[
                    "play",
                    "never-finishing",
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
}

// Grasshopper (Halma).

/// The `{"moves": [...]}` document of Grasshopper (Halma) as (move, path, position) triples;
/// every entry has exactly these three keys.
fn halma_moves_json(args: &[&str]) -> Vec<(String, String, String)> {
    let out = tabula(args, "");
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one JSON object on one line");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc.as_object().unwrap().len(), 1, "only the moves key");
    doc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m.as_object().unwrap().len(), 3, "{m}");
            let field = |k: &str| m[k].as_str().unwrap().to_string();
            (field("move"), field("path"), field("position"))
        })
        .collect()
}

#[test]
fn halma_moves_from_both_starts_in_json() {
    // 8x8, by the camp's diagonals: the outer one (d1 c2 b3 a4) has 3 steps each (12); the
    // next (c1 b2 a3) one step and two jumps over the outer pieces each (9); the third (b1 a2)
    // one diagonal jump each (2); a1 jumps over b2 to c3 (1). 24 moves.
    // 10x10: the outer diagonal (e1 d2 c3 b4 a5) 3 steps each (15); the next (d1 c2 b3 a4) one
    // step and two jumps each (12); the third (c1 b2 a3) one diagonal jump each (3); the
    // fourth (b1 a2) one each (2); a1 none (c3 is taken). 32 moves.
    for (size, count) in [("8", 24), ("10", 32)] {
        let moves = halma_moves_json(&[
            "moves",
            "halma-grasshopper",
            "start",
            "--size",
            size,
            "--json",
        ]);
        assert_eq!(moves.len(), count, "{size}x{size}");
        let start: HalmaPosition = stdout(&tabula(
            &["show", "halma-grasshopper", "start", "--size", size],
            "",
        ))
        .lines()
        .last()
        .unwrap()
        .strip_prefix("Position: ")
        .unwrap()
        .parse()
        .unwrap();
        let mut seen = Vec::new();
        for (mv, path, position) in &moves {
            let after: HalmaPosition = position.parse().expect("every result parses");
            assert_eq!(after.to_string(), *position, "canonical text");
            assert_eq!(after.to_move(), tabula_core::Color::Black);
            assert_eq!(after.ply(), 1);
            // The move and its path name the same move, which leads to that position.
            for text in [mv, path] {
                let m = start.parse_move(text).unwrap();
                assert_eq!(start.play_unchecked(m.from, m.to), after, "{text}");
            }
            assert!(mv.contains('-') && !mv.contains(':'), "{mv}");
            seen.push(position.clone());
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), count, "distinct results");
    }
    let moves = halma_moves_json(&["moves", "halma-grasshopper", "start", "--json"]);
    assert!(moves.contains(&(
        "a3-a5".to_string(),
        "a3:a5".to_string(),
        "8:4bbbb/5bbb/6bb/w6b/w7/1w6/www5/wwww4:b:1".to_string()
    )));
    assert!(moves.iter().any(|m| m.0 == "a4-b5" && m.1 == "a4-b5"));
}

#[test]
fn halma_a_chain_of_jumps_shows_its_path_and_a_finished_game_has_no_moves() {
    // White's b3 piece jumps b3:d3 over c3, then d3:f5 over e4: one move b3-f5.
    let position = "8:4bbbb/5bbb/6bb/8/4w3/wwb5/www5/wwww4:w:6";
    let moves = halma_moves_json(&["moves", "halma-grasshopper", position, "--json"]);
    let chain = moves.iter().find(|m| m.0 == "b3-f5").expect("b3-f5");
    assert_eq!(chain.1, "b3:d3:f5");
    let text = stdout(&tabula(&["moves", "halma-grasshopper", position], ""));
    assert!(text.starts_with(&format!("{} legal moves for White:", moves.len())));
    assert!(text.contains("b3:d3:f5"), "{text}");
    // Every White piece stands in Black's camp: White has won, Black has nothing to play.
    let won = "8:4wwww/5www/6ww/7w/b7/bb6/bbb5/bbbb4:b:60";
    let out = tabula(&["moves", "halma-grasshopper", won, "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"moves\":[]}\n");
    let text = stdout(&tabula(&["moves", "halma-grasshopper", won], ""));
    assert!(text.starts_with("No legal move: White has won"), "{text}");
}

#[test]
fn halma_bad_input_exits_2_with_one_line() {
    let err = input_error(&["moves", "halma-grasshopper", "start", "--dice", "6-5"]);
    assert!(err.contains("without dice"), "{err}");
    let err = input_error(&["moves", "halma-grasshopper", "8:4bbbb/5bbb:w"]);
    assert!(err.contains("bad position"), "{err}");
    input_error(&["moves", "halma-grasshopper", "4HPwATDgc/ABMA"]);
    input_error(&[
        "moves",
        "halma-grasshopper",
        "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:x",
    ]);
    // Nine White pieces: well formed, but no position.
    input_error(&[
        "moves",
        "halma-grasshopper",
        "8:4bbbb/5bbb/6bb/7b/8/ww6/www5/wwww4:w",
    ]);
    let err = input_error(&["moves", "halma-grasshopper", "start", "--size", "9"]);
    assert!(err.contains("8x8 or 10x10"), "{err}");
    let err = input_error(&[
        "moves",
        "halma-grasshopper",
        "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w",
        "--size",
        "10",
    ]);
    assert!(err.contains("contradicts"), "{err}");
    input_error(&[
        "moves",
        "backgammon",
        "start",
        "--dice",
        "6-5",
        "--size",
        "8",
    ]);
    input_error(&["show", "halma-grasshopper", "start", "--size", "12"]);
    input_error(&["show", "halma-grasshopper", "start", "--home", "left"]);
    input_error(&["show", "never-finishing", "start", "--size", "8"]);
    // The bots come from the factory of tabula-ai: every level it has is offered (a person
    // playing White quits at once on an empty stdin).
    for level in ["easy", "medium", "strong"] {
        let out = tabula(&["play", "halma-grasshopper", "--black", level], "");
        assert!(out.status.success(), "{level}: {}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!("Black ({level},")),
            "{}",
            stdout(&out)
        );
    }
    input_error(&["play", "halma-grasshopper", "--white", "grandmaster"]);
    input_error(&["play", "halma-grasshopper", "--size", "9"]);
    input_error(&["play", "halma-grasshopper", "--ply-limit", "0"]);
    let err = input_error(&["play", "halma-grasshopper", "--match", "3"]);
    assert!(err.contains("backgammon option"), "{err}");
    input_error(&["play", "halma-grasshopper", "--money"]);
    input_error(&["play", "backgammon", "--size", "10"]);
    input_error(&["play", "never-finishing", "--ply-limit", "100"]);
}

#[test]
fn halma_show_draws_both_start_positions() {
    let out = tabula(&["show", "halma-grasshopper", "start"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = r"
     a b c d e f g h
   +-----------------+
 8 | . . . .|X X X X | 8   X Black
 7 | . . . . .|X X X | 7     in target camp 0 of 10
 6 | . . . . . .|X X | 6
 5 | . . . . . . .|X | 5   White to move
 4 | O|. . . . . . . | 4   Ply 0 of 400
 3 | O O|. . . . . . | 3
 2 | O O O|. . . . . | 2     in target camp 0 of 10
 1 | O O O O|. . . . | 1   O White
   +-----------------+
     a b c d e f g h
Position: 8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0
";
    assert_eq!(stdout(&out), &expected[1..]);
    let out = tabula(&["show", "halma-grasshopper", "start", "--size", "10"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = r"
     a b c d e f g h i j
   +---------------------+
10 | . . . . .|X X X X X | 10   X Black
 9 | . . . . . .|X X X X | 9      in target camp 0 of 15
 8 | . . . . . . .|X X X | 8
 7 | . . . . . . . .|X X | 7
 6 | . . . . . . . . .|X | 6    White to move
 5 | O|. . . . . . . . . | 5    Ply 0 of 600
 4 | O O|. . . . . . . . | 4
 3 | O O O|. . . . . . . | 3
 2 | O O O O|. . . . . . | 2      in target camp 0 of 15
 1 | O O O O O|. . . . . | 1    O White
   +---------------------+
     a b c d e f g h i j
Position: 10:5bbbbb/6bbbb/7bbb/8bb/9b/w9/ww8/www7/wwww6/wwwww5:w:0
";
    assert_eq!(stdout(&out), &expected[1..]);
    // Black to move: drawn from Black's side, its camp bottom left; --from turns it back.
    let after = "8:4bbbb/5bbb/6bb/7b/1w6/ww6/www5/wwww4:b:1";
    let black = stdout(&tabula(&["show", "halma-grasshopper", after], ""));
    assert!(black.starts_with("     h g f e d c b a\n"), "{black}");
    assert!(black.contains(" 4 | . . . . . . O|: | 4"), "{black}");
    let white = stdout(&tabula(
        &["show", "halma-grasshopper", after, "--from", "white"],
        "",
    ));
    assert!(white.contains(" 4 | :|O . . . . . . | 4"), "{white}");
}

#[test]
fn halma_random_bots_play_a_game_to_the_end_deterministically() {
    let args = [
        "play",
        "halma-grasshopper",
        "--white",
        "random",
        "--seed",
        "5",
        "--ply-limit",
        "60",
    ];
    let first = tabula(&args, "");
    assert!(first.status.success(), "{}", stderr(&first));
    let text = stdout(&first);
    assert!(
        text.starts_with(
            "Grasshopper (Halma) on 8x8, ply limit 60: White (random, O) against \
             Black (random, X). Seed 5 (replay with --seed 5)."
        ),
        "{text}"
    );
    // One line a ply, then the result.
    assert_eq!(text.lines().filter(|l| l.contains(" plays ")).count(), 60);
    assert!(text.contains(':'), "a jump told with its path: {text}");
    assert_eq!(
        text.lines().last().unwrap(),
        "Drawn: the ply limit of 60 was reached without a winner."
    );
    assert_eq!(stdout(&tabula(&args, "")), text, "same seed, same game");
    let mut other = args;
    other[5] = "6";
    assert_ne!(stdout(&tabula(&other, "")), text);
    // On 10x10 with the default limit the game ends too.
    let out = tabula(
        &[
            "play",
            "halma-grasshopper",
            "--size",
            "10",
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("Grasshopper (Halma) on 10x10, ply limit 600"));
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("Drawn") || last.contains(" wins"),
        "{last}"
    );
}

#[test]
fn halma_human_is_told_why_a_move_is_refused_and_eof_quits() {
    // White is the person, Black the random bot (the defaults).
    let out = tabula(
        &["play", "halma-grasshopper", "--seed", "3"],
        "e4-e5\nc3+e5\ndouble\npass\nmoves\na4:a6\ndraw\na3:a5\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("White (human, O) against Black (random, X)"),
        "{text}"
    );
    assert!(text.contains("White to move"), "{text}");
    assert!(text.contains("Ply 0 of 400"), "{text}");
    assert!(
        text.contains("Illegal move: there is no white piece on e4"),
        "{text}"
    );
    assert!(
        text.contains("Not a move: \"c3+e5\" is not a move: write from-to"),
        "{text}"
    );
    assert!(
        text.contains("There is no cube in Grasshopper (Halma)."),
        "{text}"
    );
    assert!(
        text.contains("White has a legal move and may not pass."),
        "{text}"
    );
    assert!(text.contains(" 18. a3:a5"), "{text}");
    assert!(
        text.contains("Illegal move: a4 to a6 jumps over a5, which is empty"),
        "{text}"
    );
    assert!(text.contains("White offers a draw"), "{text}");
    assert!(text.contains("White plays a3:a5"), "{text}");
    assert!(text.contains("Black plays "), "{text}");
    assert!(text.contains("declining the draw"), "{text}");
    assert!(text.contains("Last move: Black "), "{text}");
    assert!(
        text.trim_end()
            .ends_with("Stopped at ply 2, White to move. Replay with --seed 3."),
        "{text}"
    );
    // No input at all: the session stops at once.
    let out = tabula(&["play", "halma-grasshopper", "--seed", "3"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Stopped at ply 0, White to move."));
}

#[test]
fn halma_two_people_agree_a_draw() {
    let out = tabula(
        &[
            "play",
            "halma-grasshopper",
            "--black",
            "human",
            "--seed",
            "1",
        ],
        "draw\na4-a5\nboard\ndraw\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Black sees the board from its side, and the standing offer.
    assert!(text.contains("     h g f e d c b a"), "{text}");
    assert!(
        text.contains("Black to move; White offers a draw"),
        "{text}"
    );
    assert!(text.contains("Black accepts the draw"), "{text}");
    assert_eq!(text.lines().last().unwrap(), "Drawn by agreement (ply 1).");
}

#[test]
fn halma_nonsense_input_never_breaks_the_session() {
    let lines = [
        "",
        "help",
        "moves",
        "board",
        "roll",
        "double",
        "take",
        "drop",
        "pass",
        "draw",
        "accept",
        "reject",
        "resign",
        "a1",
        "a1-a1",
        "z9-a1",
        "a1:c3:a1",
        "j10-i9",
        "c3-e5",
        "a4-a5",
        "h5-h4",
        "1",
        "99",
        "24/18",
        "a3:a5:a7",
        "\u{0}",
        "c2:c4:c6:c8",
    ];
    let mut input = String::new();
    for _ in 0..20 {
        for l in lines {
            input.push_str(l);
            input.push('\n');
        }
    }
    for size in ["8", "10"] {
        for (white, black) in [("human", "random"), ("human", "human"), ("random", "human")] {
            let out = tabula(
                &[
                    "play",
                    "halma-grasshopper",
                    "--size",
                    size,
                    "--seed",
                    "2",
                    "--white",
                    white,
                    "--black",
                    black,
                ],
                &input,
            );
            assert!(
                out.status.success(),
                "{size} {white} {black}: {}",
                stderr(&out)
            );
            assert!(!stderr(&out).contains("panicked"));
        }
    }
}

// Grasshopper (the dice-free backgammon variant).

/// White cannot enter (A is full of Black singles) and has nothing on the board: it must pass.
const GRASSHOPPER_STUCK: &str = "bbbbbb/....../....../...... w 14-8 0-0 - 14";

#[test]
fn grasshopper_moves_from_start_in_json() {
    for (n, count) in [("14", 14), ("2", 2)] {
        let moves = moves_json(&["moves", "grasshopper", "start", "--checkers", n, "--json"]);
        let texts: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(
            texts,
            ["in 1", "in 2", "in 3", "in 4", "in 5", "in 6"],
            "N={n}"
        );
        for (mv, position) in &moves {
            let after: GrasshopperPosition = position.parse().expect("every result parses");
            assert_eq!(after.to_string(), *position, "canonical text");
            assert_eq!(after.turn(), Color::Black, "opponent to move");
            assert_eq!(u32::from(after.hand(Color::White)) + 1, count);
            let start =
                GrasshopperPosition::start(tabula_grasshopper::Checkers::new(count).unwrap());
            assert_eq!(start.play(start.parse_move(mv).unwrap()).unwrap(), after);
        }
    }
    assert_eq!(
        moves_json(&["moves", "grasshopper", "start", "--json"])[2],
        (
            "in 3".to_string(),
            "..w.../....../....../...... b 13-14 0-0 - 14".to_string()
        )
    );
    // A written position: builds, jumps and bear-offs in the move text.
    // White: singles on 2, 14 and 15, walls on 8 and 20; Black: a single on 9, a wall on 10.
    let position = ".w..../.WbB../.ww.../.W.... w 7-11 0-0 - 14";
    let moves = moves_json(&["moves", "grasshopper", position, "--json"]);
    let texts: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    // The wall's top checker jumps the wall on 10 (an advance, or a build onto 14).
    for m in ["in 1", "2-7", "8-13", "8-14w", "15-19", "off 20"] {
        assert!(texts.contains(&m), "{m} missing from {texts:?}");
    }
    // Singles do not pass walls: 2 stops before the wall on 8, 15 before the wall on 20.
    for m in ["2-11", "15-21"] {
        assert!(!texts.contains(&m), "{m} in {texts:?}");
    }
    let text = stdout(&tabula(&["moves", "grasshopper", position], ""));
    assert!(
        text.starts_with(&format!("{} legal moves for White:", moves.len())),
        "{text}"
    );
}

#[test]
fn grasshopper_pass_and_finished_games() {
    // The pass is the single move when nothing else is legal; the result says so (`p`).
    assert_eq!(
        moves_json(&["moves", "grasshopper", GRASSHOPPER_STUCK, "--json"]),
        [(
            "pass".to_string(),
            "bbbbbb/....../....../...... b 14-8 0-0 p 14".to_string()
        )]
    );
    // A won game and a game drawn by a pass meeting a pass have no moves.
    for (over, why) in [
        (
            "bb..../....../....../...... b 0-2 2#-0 - 4",
            "White has won 2-0",
        ),
        (
            "bbbbbb/B...../wwwwww/bbbbbb b 8-0 0-0 p 14",
            "Drawn: Black cannot move either after White's pass",
        ),
    ] {
        let out = tabula(&["moves", "grasshopper", over, "--json"], "");
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), "{\"moves\":[]}\n");
        let text = stdout(&tabula(&["moves", "grasshopper", over], ""));
        assert_eq!(text, format!("No legal move: {why}.\n"));
    }
}

#[test]
fn grasshopper_bad_input_exits_2_with_one_line() {
    let err = input_error(&["moves", "grasshopper", "start", "--dice", "6-5"]);
    assert!(err.contains("grasshopper is played without dice"), "{err}");
    // Unquoted, the position's fields are separate arguments: a usage error.
    input_error(&["moves", "grasshopper", "....../....../....../......", "w"]);
    let err = input_error(&[
        "moves",
        "grasshopper",
        "....../....../....../...... w 14-14",
    ]);
    assert!(
        err.contains("bad position") && err.contains("6 fields"),
        "{err}"
    );
    let err = input_error(&[
        "moves",
        "grasshopper",
        "W...../....../....../...... w 12-14 0-0 - 14",
    ]);
    assert!(err.contains("a wall on 1 is in A"), "{err}");
    input_error(&[
        "moves",
        "grasshopper",
        "....../....../....../...... x 14-14 0-0 - 14",
    ]);
    for n in ["3", "0", "16"] {
        let err = input_error(&["moves", "grasshopper", "start", "--checkers", n]);
        assert!(
            err.contains("even number of checkers from 2 to 14"),
            "{err}"
        );
    }
    input_error(&["moves", "grasshopper", "start", "--checkers", "-2"]);
    let err = input_error(&[
        "moves",
        "grasshopper",
        "....../....../....../...... w 4-4 0-0 - 4",
        "--checkers",
        "6",
    ]);
    assert!(err.contains("contradicts"), "{err}");
    input_error(&["moves", "grasshopper", "start", "--size", "8"]);
    input_error(&[
        "moves",
        "backgammon",
        "start",
        "--dice",
        "6-5",
        "--checkers",
        "4",
    ]);
    input_error(&["moves", "halma-grasshopper", "start", "--checkers", "4"]);
    input_error(&["show", "grasshopper", "start", "--home", "left"]);
    input_error(&["show", "never-finishing", "start", "--checkers", "4"]);
    // The bots come from the factory of tabula-ai: every level it has is offered (a person
    // playing White quits at once on an empty stdin).
    for level in ["easy", "medium", "strong"] {
        let out = tabula(&["play", "grasshopper", "--black", level], "");
        assert!(out.status.success(), "{level}: {}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!("Black ({level},")),
            "{}",
            stdout(&out)
        );
    }
    let err = input_error(&["play", "grasshopper", "--black", "perfect"]);
    assert!(err.contains("up to --checkers 4"), "{err}");
    input_error(&[
        "play",
        "grasshopper",
        "--checkers",
        "6",
        "--white",
        "perfect",
    ]);
    input_error(&["play", "grasshopper", "--white", "grandmaster"]);
    input_error(&["play", "grasshopper", "--checkers", "7"]);
    input_error(&["play", "grasshopper", "--match", "3"]);
    input_error(&["play", "grasshopper", "--size", "8"]);
    input_error(&["play", "backgammon", "--checkers", "4"]);
    let err = input_error(&["solve", "backgammon", "--checkers", "4"]);
    assert_eq!(
        err,
        "error: solve is available for grasshopper only, not backgammon\n"
    );
    input_error(&["solve", "halma-grasshopper"]);
    let err = input_error(&["solve", "grasshopper"]);
    assert!(err.contains("--checkers is required"), "{err}");
    input_error(&["solve", "grasshopper", "--checkers", "5"]);
    input_error(&[
        "solve",
        "grasshopper",
        "--checkers",
        "2",
        "--max-table-gib",
        "0",
    ]);
}

#[test]
fn grasshopper_show_draws_the_start_and_a_middle_game() {
    let out = tabula(&["show", "grasshopper", "start"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = r"
    +-------------------+
    |                   |   X Black
  D |  .  .  .  .  .  . |     in hand 14
    | 19 20 21 22 23 24 |     score 0
    +-------------------+
    |                   |
  C |  .  .  .  .  .  . |
    | 13 14 15 16 17 18 |   White to move
    +-------------------+   No point scored yet
    |                   |
  B |  .  .  .  .  .  . |
    |  7  8  9 10 11 12 |
    +-------------------+
    |                   |     score 0
  A |  .  .  .  .  .  . |     in hand 14
    |  1  2  3  4  5  6 |   O White
    +-------------------+
Position: ....../....../....../...... w 14-14 0-0 - 14
";
    assert_eq!(stdout(&out), &expected[1..]);
    // Walls of both colours (White's on 9 and 20, Black's on 14 and 22), White scored last
    // and Black discarded nothing; Black to move, drawn with Black's panel at the bottom.
    let position = "ww.b../b.W.w./.B.b.w/.W.B.. b 4-7 1*-0 - 14";
    let out = tabula(&["show", "grasshopper", position], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = r"
    +-------------------+
    |     O     X       |   O White
  D |  .  O  .  X  .  . |     in hand 4
    | 19 20 21 22 23 24 |     score 1 (scored last)
    +-------------------+
    |     X             |
  C |  .  X  .  X  .  O |
    | 13 14 15 16 17 18 |   Black to move
    +-------------------+   White needs one more point in succession to win
    |        O          |
  B |  X  .  O  .  O  . |
    |  7  8  9 10 11 12 |
    +-------------------+
    |                   |     score 0
  A |  O  O  .  X  .  . |     in hand 7
    |  1  2  3  4  5  6 |   X Black
    +-------------------+
Position: ww.b../b.W.w./.B.b.w/.W.B.. b 4-7 1*-0 - 14
";
    assert_eq!(stdout(&out), &expected[1..]);
    // --from white puts White's panel at the bottom; the board is the same.
    let white = stdout(&tabula(
        &["show", "grasshopper", position, "--from", "white"],
        "",
    ));
    assert!(white.contains("|  1  2  3  4  5  6 |   O White"), "{white}");
    // A pass is shown; a finished game says how it ended.
    let passed = stdout(&tabula(
        &[
            "show",
            "grasshopper",
            "bbbbbb/....../....../...... b 14-8 0-0 p 14",
        ],
        "",
    ));
    assert!(passed.contains("Black to move; White passed"), "{passed}");
    let won = stdout(&tabula(
        &[
            "show",
            "grasshopper",
            "bb..../....../....../...... b 0-2 2#-0 - 4",
        ],
        "",
    ));
    assert!(
        won.contains("White has won 2-0") && won.contains("score 2 (won)"),
        "{won}"
    );
}

#[test]
fn grasshopper_random_bots_play_a_game_to_the_end_deterministically() {
    for n in ["14", "4"] {
        let args = [
            "play",
            "grasshopper",
            "--checkers",
            n,
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "5",
        ];
        let first = tabula(&args, "");
        assert!(first.status.success(), "{}", stderr(&first));
        let text = stdout(&first);
        assert!(
            text.starts_with(&format!(
                "Grasshopper with {n} checkers each: White (random, O) against Black (random, X). \
                 Seed 5 (replay with --seed 5)."
            )),
            "{text}"
        );
        assert!(!text.contains("Type help"), "no person plays");
        let last = text.lines().last().unwrap();
        assert!(
            last.contains(" wins ") || last.starts_with("Drawn"),
            "{last}"
        );
        assert!(text.contains("entering a checker on"), "{text}");
        assert_eq!(stdout(&tabula(&args, "")), text, "same seed, same game");
        let mut other = args;
        other[9] = "6";
        assert_ne!(stdout(&tabula(&other, "")), text);
    }
}

#[test]
fn grasshopper_perfect_bot_never_loses_at_two_checkers() {
    // The two-checker game is a draw: the perfect side never loses, whatever the random side
    // does, as White and as Black.
    for seed in 0..12 {
        let seed = seed.to_string();
        for (white, black, perfect) in [
            ("perfect", "random", "White"),
            ("random", "perfect", "Black"),
        ] {
            let out = tabula(
                &[
                    "play",
                    "grasshopper",
                    "--checkers",
                    "2",
                    "--white",
                    white,
                    "--black",
                    black,
                    "--seed",
                    &seed,
                ],
                "",
            );
            assert!(out.status.success(), "{}", stderr(&out));
            let text = stdout(&out);
            let last = text.lines().last().unwrap();
            assert!(
                last.starts_with(&format!("{perfect} wins")) || last.starts_with("Drawn"),
                "seed {seed}, {perfect} perfect: {text}"
            );
        }
    }
}

#[test]
fn grasshopper_solve_reports_the_small_games_drawn() {
    for (n, positions) in [("2", 1_510), ("4", 1_190_356)] {
        let out = tabula(&["solve", "grasshopper", "--checkers", n, "--json"], "");
        assert!(out.status.success(), "{}", stderr(&out));
        // The progress bar is hidden: stderr is not a terminal here.
        assert_eq!(stderr(&out), "");
        let text = stdout(&out);
        assert_eq!(text.lines().count(), 1, "one JSON object on one line");
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["game"], "grasshopper");
        assert_eq!(doc["checkers"], n.parse::<u64>().unwrap());
        assert_eq!(doc["value"], "draw", "{doc}");
        assert!(doc["winner"].is_null());
        assert_eq!(doc["best_move"], "in 6");
        assert_eq!(doc["positions"], positions);
        assert!(doc["nodes"].as_u64().unwrap() > positions);
        assert!(doc["seconds"].as_f64().unwrap() >= 0.0);
        assert_eq!(doc["table_full"], false);
    }
    let text = stdout(&tabula(&["solve", "grasshopper", "--checkers", "2"], ""));
    assert!(
        text.starts_with(
            "Grasshopper with 2 checkers each: a draw with best play (White moves first).\n\
             Best first move: in 6\nPositions stored: 1,510\nNodes searched: 6,137\n"
        ),
        "{text}"
    );
}

#[test]
fn grasshopper_human_is_told_why_a_move_is_refused_and_eof_quits() {
    // White is the person; Black the perfect bot (the default at 2 checkers).
    let out = tabula(
        &["play", "grasshopper", "--checkers", "2", "--seed", "3"],
        "in 9\n3-27\ndouble\ndraw\npass\nmoves\nhelp\nin A3\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "Grasshopper with 2 checkers each: White (human, O) against Black (perfect, X)."
        ),
        "{text}"
    );
    for expected in [
        "White (move; help)> ",
        "Illegal move: in 9: checkers enter on 1-6 (A1-A6), not on 9",
        "Not a move: point 27 does not exist (points are 1-24)",
        "There is no cube in Grasshopper.",
        "There are no draw offers in Grasshopper",
        "You cannot pass: a legal action exists.",
        "  6. in 6",
        "9-15w           build a wall",
        "White plays in 3, entering a checker on 3",
        "Black plays in ",
        "Last move: Black in ",
    ] {
        assert!(text.contains(expected), "{expected:?} missing: {text}");
    }
    assert!(
        text.trim_end()
            .ends_with("Stopped after 2 turns, White to move, score 0-0. Replay with --seed 3."),
        "{text}"
    );
    // No input at all: the session stops at once.
    let out = tabula(&["play", "grasshopper", "--seed", "3"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Black (random, X)"),
        "random beyond 4 checkers: {text}"
    );
    assert!(
        text.contains("Stopped after 0 turns, White to move"),
        "{text}"
    );
}

#[test]
fn grasshopper_two_people_play_a_whole_game_to_a_draw() {
    // Two checkers each, never six apart: no wall is built, every checker ends as a single
    // in D and is discarded; with nothing left on either side the game is drawn.
    let moves = [
        "in 1",
        "in 2",
        "in 3",
        "in 4",
        "1-7",
        "2-8",
        "7-13",
        "8-14",
        "13-19",
        "14-20",
        "3-9",
        "4-10",
        "9-15",
        "10-16",
        "15-21",
        "16-22",
        "discard 19",
        "discard d2",
        "discard 21",
        "discard 22",
    ];
    let out = tabula(
        &[
            "play",
            "grasshopper",
            "--checkers",
            "2",
            "--white",
            "human",
            "--black",
            "human",
            "--seed",
            "1",
        ],
        &(moves.join("\n") + "\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black plays 2-8"), "{text}");
    assert!(
        text.contains("Black discards the single on 20 without scoring"),
        "{text}"
    );
    assert_eq!(
        text.lines().last().unwrap(),
        "Drawn: neither side has a checker left (score 0-0, 20 turns)."
    );
}

#[test]
fn grasshopper_nonsense_input_never_breaks_the_session() {
    let lines = [
        "",
        "help",
        "moves",
        "board",
        "roll",
        "double",
        "take",
        "drop",
        "pass",
        "draw",
        "accept",
        "reject",
        "resign",
        "in",
        "in 0",
        "in 25",
        "in 1",
        "in a1",
        "1-7",
        "a1-b1",
        "9-15w",
        "9-16w",
        "off",
        "off 21",
        "discard 20",
        "discard",
        "1",
        "99",
        "24/18",
        "c3:e5",
        "\u{0}",
        "in 2",
        "in 3",
        "2-8",
        "3-9",
    ];
    let mut input = String::new();
    for _ in 0..30 {
        for l in lines {
            input.push_str(l);
            input.push('\n');
        }
    }
    for (white, black) in [("human", "random"), ("human", "human"), ("random", "human")] {
        for n in ["2", "14"] {
            let out = tabula(
                &[
                    "play",
                    "grasshopper",
                    "--checkers",
                    n,
                    "--seed",
                    "2",
                    "--white",
                    white,
                    "--black",
                    black,
                ],
                &input,
            );
            assert!(
                out.status.success(),
                "{n} {white} {black}: {}",
                stderr(&out)
            );
            assert!(!stderr(&out).contains("panicked"));
        }
    }
}

// ---- tabula selfplay ----

/// Runs `tabula selfplay` and returns stdout, asserting success.
fn selfplay(args: &[&str]) -> String {
    let mut argv = vec!["selfplay"];
    argv.extend_from_slice(args);
    let out = tabula(&argv, "");
    assert!(out.status.success(), "{argv:?}: {}", stderr(&out));
    stdout(&out)
}

/// The counts of a `white won A (x %), black won B (y %), draws C (z %)` line, checking its
/// shape and percentages on the way.
fn won_line(line: &str) -> [u64; 3] {
    let rest = line.strip_prefix("white won ").expect(line);
    let (white, rest) = rest.split_once(" (").expect(line);
    let (_, rest) = rest.split_once(" %), black won ").expect(line);
    let (black, rest) = rest.split_once(" (").expect(line);
    let (_, rest) = rest.split_once(" %), draws ").expect(line);
    let (draws, rest) = rest.split_once(" (").expect(line);
    let counts = [white, black, draws].map(|n| n.parse::<u64>().expect(line));
    let total: u64 = counts.iter().sum();
    let white_pct = format!("{:.2} %)", 100.0 * counts[0] as f64 / total as f64);
    assert!(line.contains(&format!("({white_pct}")), "{line}");
    assert!(rest.ends_with(" %)"), "{line}");
    counts
}

#[test]
fn selfplay_prints_the_seeds_format_whatever_the_thread_count() {
    let args = |threads: &'static str| {
        [
            "backgammon",
            "--games",
            "20",
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "3",
            "--threads",
            threads,
        ]
    };
    let one = selfplay(&args("1"));
    let two = selfplay(&args("2"));
    assert_eq!(
        one, two,
        "the same seed gives the same games on any thread count"
    );
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), 4, "{one}");
    assert!(lines[0].starts_with("Self-play of backgammon (money, one game each)"));
    assert!(lines[0].ends_with("20 games, seed 3."), "{}", lines[0]);
    assert_eq!(won_line(lines[1]).iter().sum::<u64>(), 20);
    assert!(lines[2].starts_with("average length "), "{}", lines[2]);
    assert!(lines[3].starts_with("points per game for White (random): "));
    assert!(
        lines[3].ends_with("(95 % confidence, over 20 games)"),
        "{}",
        lines[3]
    );
    // Another seed, other games.
    let mut other = args("2");
    other[8] = "4";
    assert_ne!(selfplay(&other).lines().nth(1), Some(lines[1]));
}

#[test]
fn selfplay_plays_grasshopper_with_few_checkers() {
    let text = selfplay(&[
        "grasshopper",
        "--checkers",
        "4",
        "--games",
        "10",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "1",
    ]);
    assert!(
        text.starts_with("Self-play of grasshopper (4 checkers each)"),
        "{text}"
    );
    let line = text.lines().nth(1).unwrap();
    assert_eq!(won_line(line).iter().sum::<u64>(), 10);
    // Backgammon's options are not grasshopper's.
    input_error(&[
        "selfplay",
        "grasshopper",
        "--games",
        "2",
        "--white",
        "random",
        "--black",
        "random",
        "--money",
    ]);
}

#[test]
fn selfplay_duplicate_mode_plays_pairs_with_colours_swapped() {
    let args = [
        "backgammon",
        "--games",
        "10",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "8",
        "--duplicate",
    ];
    let text = selfplay(&args);
    assert!(text.contains("10 games in 5 duplicate pairs"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[2].starts_with("random (--white) won "),
        "{}",
        lines[2]
    );
    assert!(lines[4].starts_with("points per game for random (--white): "));
    assert!(
        lines[4].ends_with("over 5 duplicate pairs)"),
        "{}",
        lines[4]
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let doc: serde_json::Value = serde_json::from_str(&selfplay(&json_args)).unwrap();
    assert_eq!(doc["points_per_game"]["samples"], 5);
    assert_eq!(doc["points_per_game"]["samples_are"], "pair means");
    let by_player = &doc["by_player"];
    let sum = |keys: [&str; 3], v: &serde_json::Value| -> u64 {
        keys.iter().map(|k| v[k].as_u64().unwrap()).sum()
    };
    assert_eq!(
        sum(["white_player_won", "black_player_won", "draws"], by_player),
        10
    );
    assert_eq!(sum(["white_won", "black_won", "draws"], &doc), 10);
    // Pairs need an even count, and dice.
    let mut odd = args.to_vec();
    odd[2] = "9";
    input_error(&[&["selfplay"][..], &odd].concat());
    let err = input_error(&[
        "selfplay",
        "halma-grasshopper",
        "--games",
        "2",
        "--white",
        "random",
        "--black",
        "random",
        "--duplicate",
    ]);
    assert!(err.contains("dice games"), "{err}");
}

#[test]
fn selfplay_refuses_bad_levels_and_counts_with_exit_2() {
    let err = input_error(&[
        "selfplay",
        "backgammon",
        "--games",
        "2",
        "--white",
        "grandmaster",
        "--black",
        "random",
    ]);
    assert!(err.contains("--white \"grandmaster\""), "{err}");
    input_error(&[
        "selfplay",
        "never-finishing",
        "--games",
        "0",
        "--white",
        "random",
        "--black",
        "random",
    ]);
    input_error(&[
        "selfplay",
        "backgammon",
        "--games",
        "2",
        "--white",
        "random",
        "--black",
        "random",
        "--threads",
        "0",
    ]);
    input_error(&[
        "selfplay",
        "halma-grasshopper",
        "--games",
        "2",
        "--white",
        "random",
        "--black",
        "random",
        "--size",
        "9",
    ]);
}
