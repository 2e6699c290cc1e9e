//! Grasshopper (Halma): moves, show and play.

use crate::common::*;
use tabula_halma::Position as HalmaPosition;

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
    assert_eq!(
        stdout(&out),
        "{\"moves\":[],\"end\":{\"winner\":\"white\",\"code\":\"all-in-camp\",\
         \"sentence\":\"White wins 1 point: all of White's pieces stand in Black's starting camp.\"}}\n"
    );
    let text = stdout(&tabula(&["moves", "halma-grasshopper", won], ""));
    assert!(
        text.starts_with("No legal move: White wins 1 point: all of White's pieces"),
        "{text}"
    );
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
 7 | . . . . .|X X X | 7     in target camp 0 of 10, at home 10 (move 0 of 30)
 6 | . . . . . .|X X | 6
 5 | . . . . . . .|X | 5   White to move
 4 | O|. . . . . . . | 4   Ply 0 of 400
 3 | O O|. . . . . . | 3
 2 | O O O|. . . . . | 2     in target camp 0 of 10, at home 10 (move 0 of 30)
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
 9 | . . . . . .|X X X X | 9      in target camp 0 of 15, at home 15 (move 0 of 50)
 8 | . . . . . . .|X X X | 8
 7 | . . . . . . . .|X X | 7
 6 | . . . . . . . . .|X | 6    White to move
 5 | O|. . . . . . . . . | 5    Ply 0 of 600
 4 | O O|. . . . . . . . | 4
 3 | O O O|. . . . . . . | 3
 2 | O O O O|. . . . . . | 2      in target camp 0 of 15, at home 15 (move 0 of 50)
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
        "--evacuation",
        "0",
    ];
    let first = tabula(&args, "");
    assert!(first.status.success(), "{}", stderr(&first));
    let text = stdout(&first);
    assert!(
        text.starts_with(
            "Grasshopper (Halma) on 8x8, ply limit 60, no evacuation rule: White (random, O) \
             against Black (random, X). Seed 5 (replay with --seed 5)."
        ),
        "{text}"
    );
    // One line a ply, then the result.
    assert_eq!(text.lines().filter(|l| l.contains(" plays ")).count(), 60);
    assert!(text.contains(':'), "a jump told with its path: {text}");
    assert_eq!(
        text.lines().last().unwrap(),
        "Drawn: the game reached its ply limit of 60 without a winner (ply 60)."
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
    assert!(text.starts_with("Grasshopper (Halma) on 10x10, ply limit 600, evacuation by move 50"));
    // Random play leaves a piece at home: the evacuation rule ends the game and says so.
    let last = text.lines().last().unwrap();
    assert!(
        last.contains(" wins 1 point: ")
            && last.contains("still had a piece in their own starting camp after their 50th move"),
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
    assert_eq!(
        text.lines().last().unwrap(),
        "Drawn: the players agreed to a draw (ply 1)."
    );
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
