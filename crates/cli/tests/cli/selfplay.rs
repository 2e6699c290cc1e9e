//! tabula selfplay: the self-play harness from the command line.

use crate::common::*;

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
    assert_eq!(lines.len(), 5, "{one}");
    assert!(lines[0].starts_with("Self-play of backgammon (money, one game each)"));
    assert!(lines[0].ends_with("20 games, seed 3."), "{}", lines[0]);
    assert_eq!(won_line(lines[1]).iter().sum::<u64>(), 20);
    // How the games ended: every game counted once, by its reason's code.
    assert!(lines[2].starts_with("ended by: "), "{}", lines[2]);
    let ended: u64 = lines[2]["ended by: ".len()..]
        .split(", ")
        .map(|part| part.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(ended, 20, "{}", lines[2]);
    assert!(lines[3].starts_with("average length "), "{}", lines[3]);
    assert!(lines[4].starts_with("points per game for White (random): "));
    assert!(
        lines[4].ends_with("(95 % confidence, over 20 games)"),
        "{}",
        lines[4]
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
    assert_eq!(lines.len(), 6, "{text}");
    assert!(
        lines[2].starts_with("random (--white) won "),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("ended by: "), "{}", lines[3]);
    assert!(lines[5].starts_with("points per game for random (--white): "));
    assert!(
        lines[5].ends_with("over 5 duplicate pairs)"),
        "{}",
        lines[5]
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

#[test]
fn selfplay_varies_the_dice_free_openings_and_takes_a_node_budget() {
    let args = |opening: &'static str| {
        [
            "grasshopper",
            "--checkers",
            "4",
            "--games",
            "6",
            "--white",
            "strong",
            "--black",
            "strong",
            "--nodes",
            "3000",
            "--opening-plies",
            opening,
            "--seed",
            "4",
            "--json",
        ]
    };
    let plain: serde_json::Value = serde_json::from_str(&selfplay(&args("0"))).unwrap();
    let varied: serde_json::Value = serde_json::from_str(&selfplay(&args("4"))).unwrap();
    assert_eq!(plain["opening_plies"], 0);
    assert_eq!(varied["opening_plies"], 4);
    assert!(
        varied["kind"]
            .as_str()
            .unwrap()
            .contains("3,000 nodes a decision"),
        "{varied}"
    );
    let text = selfplay(&args("4")[..15]);
    assert!(
        text.contains("6 games, the first 4 actions at random, seed 4."),
        "{text}"
    );
    for (game, nodes) in [("grasshopper", "0"), ("backgammon", "9")] {
        let bad = [
            game, "--games", "2", "--white", "strong", "--black", "strong", "--nodes", nodes,
        ];
        let mut argv = vec!["selfplay"];
        argv.extend(bad);
        let out = tabula(&argv, "");
        assert_eq!(out.status.code(), Some(2), "{argv:?}");
        assert!(stderr(&out).contains("--nodes"), "{}", stderr(&out));
    }
}
