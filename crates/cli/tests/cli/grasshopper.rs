//! Grasshopper (the dice-free backgammon variant): moves, show, play and solve.

use crate::common::*;
use tabula_core::Color;
use tabula_grasshopper::Position as GrasshopperPosition;

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
    // The JSON says how the game ended, as a code and as a sentence.
    for (over, winner, code, why) in [
        (
            "bb..../....../....../...... b 0-2 2#-0 - 4",
            "\"white\"",
            "scored-twice",
            "White wins 1 point: White scored twice in succession, bearing off a wall \
             after also scoring the previous point",
        ),
        (
            "bbbbbb/B...../wwwwww/bbbbbb b 8-0 0-0 p 14",
            "null",
            "both-passed",
            "Drawn: neither player can act: a pass was answered by a pass",
        ),
    ] {
        let out = tabula(&["moves", "grasshopper", over, "--json"], "");
        assert!(out.status.success(), "{}", stderr(&out));
        let json = stdout(&out);
        assert!(json.starts_with("{\"moves\":[],\"end\":{"), "{json}");
        assert!(json.contains(&format!("\"winner\":{winner}")), "{json}");
        assert!(json.contains(&format!("\"code\":\"{code}\"")), "{json}");
        let text = stdout(&tabula(&["moves", "grasshopper", over], ""));
        assert!(text.starts_with(&format!("No legal move: {why}")), "{text}");
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
    assert!(
        err.contains("--checkers or --position is required"),
        "{err}"
    );
    input_error(&["solve", "grasshopper", "--position", "not a position"]);
    input_error(&["solve", "grasshopper", "--tables", "0"]);
    input_error(&["solve", "grasshopper", "--tables", "9"]);
    input_error(&["solve", "grasshopper", "--tables", "2", "--threads", "0"]);
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
        "Drawn: neither player has a checker left, in hand or on the board (score 0-0, 20 turns)."
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

#[test]
fn grasshopper_endgame_tables_are_built_cached_and_read_by_solve() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-tables-{}", std::process::id()));
    let cache = dir.to_str().unwrap();
    let env = [("TABULA_CACHE_DIR", cache)];
    // No table cached yet: asking for one is the user's mistake.
    let out = tabula_env(
        &["solve", "grasshopper", "--checkers", "2", "--with-tables"],
        "",
        &env,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no endgame table is cached"),
        "{}",
        stderr(&out)
    );
    let out = tabula_env(
        &["solve", "grasshopper", "--tables", "2", "--threads", "1"],
        "",
        &env,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Grasshopper endgame table, at most 2 checkers a side: 310,149 states.\n"),
        "{text}"
    );
    assert!(dir.join("grasshopper-endgame-k2.bin").exists());
    // The whole two-checker game is in the table: the start is read, not searched.
    let out = tabula_env(
        &[
            "solve",
            "grasshopper",
            "--checkers",
            "2",
            "--with-tables",
            "--json",
        ],
        "",
        &env,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["value"], "draw");
    assert_eq!(doc["positions"], 0);
    // A position: after in 6, in 1 (the N = 2 game), Black to move... solved both ways.
    let after = stdout(&tabula(
        &["moves", "grasshopper", "start", "--checkers", "2"],
        "",
    ));
    let text = after
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .skip(3)
        .collect::<Vec<_>>()
        .join(" ");
    for extra in [vec![], vec!["--with-tables"]] {
        let mut args = vec!["solve", "grasshopper", "--position", text.as_str()];
        args.extend(extra);
        let out = tabula_env(&args, "", &env);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).starts_with("Black to move: a draw with best play.\n"),
            "{}",
            stdout(&out)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
