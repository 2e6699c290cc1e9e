//! Unit tests of move text: formatting, parsing, matching.

use super::*;
use crate::movegen::Step;

fn dice(a: u8, b: u8) -> Dice {
    Dice::new(a, b).unwrap()
}

fn step(from: u8, to: u8, hit: bool) -> Step {
    Step {
        from,
        to,
        hit,
        trap: false,
    }
}

fn trap(from: u8, to: u8) -> Step {
    Step {
        from,
        to,
        hit: false,
        trap: true,
    }
}

/// A Never-Finishing board from the mover's signed counts (index 25 the mover's bar, 0 the
/// opponent's) and the points holding a trapped checker.
fn nf(points: &[(usize, i8)], trapped: &[usize]) -> Position {
    let mut pips = [0i8; 26];
    for &(p, n) in points {
        pips[p] = n;
    }
    let mask = trapped.iter().fold(0u32, |m, &p| m | 1 << p);
    Position::from_parts(pips, mask).unwrap()
}

#[test]
fn formatting_follows_gnubgs_conventions() {
    let cases: [(&[Step], &str); 7] = [
        (&[step(24, 18, false), step(18, 13, false)], "24/13"),
        (&[step(13, 8, false), step(24, 18, false)], "24/18 13/8"),
        (&[step(13, 7, false), step(13, 8, false)], "13/8 13/7"),
        (&[step(24, 18, true), step(18, 13, false)], "24/18*/13"),
        (
            &[
                step(13, 11, false),
                step(13, 11, false),
                step(13, 11, false),
                step(11, 9, false),
            ],
            "13/9 13/11(2)",
        ),
        (
            &[
                step(25, 24, false),
                step(25, 24, false),
                step(24, 23, true),
                step(23, 22, true),
            ],
            "bar/23*/22* bar/24",
        ),
        (
            &[
                step(10, 8, true),
                step(10, 8, false),
                step(6, 0, false),
                step(6, 0, false),
            ],
            "10/8*(2) 6/off(2)",
        ),
    ];
    for (steps, text) in cases {
        assert_eq!(format_play(&Play::from_steps(steps)), text);
    }
    assert_eq!(format_play(&Play::default()), "");
}

#[test]
fn parsing_accepts_the_usual_spellings() {
    let m = parse_play("  BAR/22*, 6/Off 24/18/13  8/2 (1) ").unwrap();
    assert_eq!(m.len(), 4);
    assert_eq!(m[0].from, 25);
    assert_eq!(
        m[0].landings,
        vec![Landing {
            point: 22,
            hit: true,
            trap: false
        }]
    );
    assert_eq!((m[1].to(), m[1].count), (0, 1));
    assert_eq!(m[2].landings.len(), 2);
    assert_eq!(m[3].count, 1);
    assert_eq!(parse_play("6/off(2) 5/3 (2)").unwrap()[1].count, 2);
    assert_eq!(
        parse_play("b/20 o").unwrap_err(),
        MoveParseError::NotAMove("o".into())
    );
    assert_eq!(parse_play("25/20 3/0").unwrap()[1].to(), 0);
    assert!(parse_play("pass").unwrap().is_empty());
    assert!(parse_play("").unwrap().is_empty());
}

#[test]
fn malformed_text_says_what_is_wrong() {
    let cases = [
        ("27/21", MoveParseError::NoSuchPoint(27)),
        ("13/x", MoveParseError::NotAPoint("x".into())),
        ("13", MoveParseError::NotAMove("13".into())),
        ("6/bar", MoveParseError::ToBar("6/bar".into())),
        ("off/3", MoveParseError::FromOff("off/3".into())),
        ("13/18", MoveParseError::Backwards("13/18".into())),
        ("6/off/2", MoveParseError::AfterOff("6/off/2".into())),
        ("6/2(5)", MoveParseError::BadCount("6/2(5)".into())),
        ("6/2(3) 8/4(2)", MoveParseError::TooMany(5)),
    ];
    for (text, error) in cases {
        assert_eq!(parse_play(text), Err(error), "{text}");
    }
}

#[test]
fn plays_are_matched_in_any_spelling() {
    let start = Position::START;
    for text in ["24/18 13/8", "13/8 24/18", "24/18,13/8", "13/8   24/18 "] {
        let (play, _) = match_play(&start, dice(6, 5), text).unwrap();
        assert_eq!(format_play(&play), "24/18 13/8");
    }
    for text in ["24/13", "24/18/13", "24/19/13", "24/18 18/13"] {
        let (play, _) = match_play(&start, dice(6, 5), text).unwrap();
        assert_eq!(format_play(&play), "24/13", "{text}");
    }
    let (play, _) = match_play(&start, dice(3, 3), "8/5(2) 6/3(2)").unwrap();
    assert_eq!(format_play(&play), "8/5(2) 6/3(2)");
}

#[test]
fn a_distance_the_dice_cannot_make_is_reported_before_blocked_points() {
    let err = match_play(&Position::START, dice(6, 1), "24/18 13/9").unwrap_err();
    assert!(err.to_string().contains("13/9"), "{err}");
    let err = match_play(&Position::START, dice(6, 1), "24/13").unwrap_err();
    assert!(err.to_string().contains("24/13"), "{err}");
}

#[test]
fn illegal_plays_say_why() {
    let start = Position::START;
    let reason = |d: Dice, text: &str| match match_play(&start, d, text) {
        Err(MoveTextError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(
        reason(dice(6, 5), "24/18 13/9"),
        IllegalMove::Distance {
            from: 13,
            to: 9,
            allowed: vec![5],
            dice: dice(6, 5)
        }
    );
    assert_eq!(
        reason(dice(6, 5), "24/18 13/9").to_string(),
        "13/9 is not a move of 5 pips (dice are 6-5)"
    );
    assert_eq!(
        reason(dice(6, 5), "24/18"),
        IllegalMove::MustUseMoreDice {
            used: 1,
            possible: 2,
            dice: dice(6, 5)
        }
    );
    assert_eq!(reason(dice(6, 5), "12/6 8/3"), IllegalMove::NoChecker(12));
    assert_eq!(reason(dice(6, 5), "bar/20 8/3"), IllegalMove::NothingOnBar);
    assert_eq!(reason(dice(6, 5), "24/19 13/7"), IllegalMove::Blocked(19));
    assert_eq!(reason(dice(6, 5), "6/off 6/1"), IllegalMove::NotAllHome);
    assert_eq!(reason(dice(6, 5), "24/18* 13/8"), IllegalMove::NoBlot(18));
    assert_eq!(
        reason(dice(6, 5), "24/18 13/8 8/2"),
        IllegalMove::TooManyMoves(dice(6, 5))
    );
    assert_eq!(reason(dice(6, 5), "pass"), IllegalMove::MustMove);
}

#[test]
fn a_closed_board_means_pass() {
    // The mover is on the bar against a closed board: only passing is legal.
    let mut mover = [0u8; 25];
    mover[24] = 1;
    mover[5] = 14;
    let mut opponent = [0u8; 25];
    for count in opponent.iter_mut().take(6) {
        *count = 2;
    }
    let pos = Position::from_counts(&mover, &opponent).unwrap();
    assert_eq!(match_play(&pos, dice(6, 5), "").unwrap().1, pos);
    assert!(matches!(
        match_play(&pos, dice(6, 5), "bar/20"),
        Err(MoveTextError::Illegal {
            reason: IllegalMove::NoMovePossible(_),
            ..
        })
    ));
}

#[test]
fn ambiguous_text_lists_the_candidates() {
    // Blots on the mover's 18 and 19 points: 24/13 with 6-5 hits one or the other.
    let mut mover = [0u8; 25];
    mover[23] = 1;
    mover[5] = 14;
    let mut opponent = [0u8; 25];
    opponent[6] = 1; // the mover's 18
    opponent[5] = 1; // the mover's 19
    opponent[1] = 13;
    let pos = Position::from_counts(&mover, &opponent).unwrap();
    match match_play(&pos, dice(6, 5), "24/13") {
        Err(MoveTextError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, vec!["24/18*/13", "24/19*/13"]);
        }
        other => panic!("{other:?}"),
    }
    let (play, _) = match_play(&pos, dice(6, 5), "24/18*/13").unwrap();
    assert_eq!(format_play(&play), "24/18*/13");
}

#[test]
fn a_lasting_trap_is_marked_on_the_move_ending_there() {
    let cases: [(&[Step], &str); 6] = [
        (&[trap(13, 8), step(24, 18, false)], "24/18 13/8^"),
        (&[trap(25, 20)], "bar/20^"),
        (&[trap(13, 8), step(13, 8, false)], "13/8^(2)"),
        // Released as the checker moves on: the same as passing, so nothing is written.
        (&[trap(13, 8), step(8, 3, false)], "13/3"),
        // Another checker stays on top: the trap lasts.
        (
            &[trap(13, 8), step(13, 8, false), step(8, 3, false)],
            "13/3 13/8^",
        ),
        (&[trap(13, 8), step(24, 18, true)], "24/18* 13/8^"),
    ];
    for (steps, text) in cases {
        assert_eq!(format_play(&Play::from_steps(steps)), text);
    }
}

#[test]
fn trap_marks_are_parsed_and_misplaced_ones_refused() {
    let m = parse_play("bar/20^ 13/8 ^").unwrap();
    assert!(m[0].landings[0].trap && !m[0].landings[0].hit);
    assert!(m[1].landings[0].trap);
    assert_eq!(parse_play("13/8^(2)").unwrap()[0].count, 2);
    let cases = [
        ("24/18^/13", MoveParseError::TrapPassed("24/18^/13".into())),
        ("13/8*^", MoveParseError::HitAndTrap("13/8*^".into())),
        ("6/off^", MoveParseError::AfterOff("6/off^".into())),
    ];
    for (text, error) in cases {
        assert_eq!(parse_play(text), Err(error), "{text}");
    }
}

#[test]
fn backgammon_refuses_a_trap_mark() {
    let err = match_play(&Position::START, dice(6, 5), "24/18 13/8^").unwrap_err();
    assert!(matches!(
        err,
        MoveTextError::Illegal {
            reason: IllegalMove::NoTrapping,
            ..
        }
    ));
}

#[test]
fn hit_or_trap_on_a_destination_must_be_marked() {
    let pos = nf(&[(24, 13), (13, 2), (8, -1), (1, -14)], &[]);
    match match_play_nf(&pos, dice(5, 3), "13/8 13/10") {
        Err(MoveTextError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, vec!["13/10 13/8*", "13/10 13/8^"]);
        }
        other => panic!("{other:?}"),
    }
    let (play, after) = match_play_nf(&pos, dice(5, 3), "13/8^ 13/10").unwrap();
    assert_eq!(format_play(&play), "13/10 13/8^");
    assert!(after.is_trapped(8) && after.pip(8) == 1);
    let (_, hit) = match_play_nf(&pos, dice(5, 3), "13/8* 13/10").unwrap();
    assert_eq!((hit.pip(8), hit.pip(0)), (1, -1));
    assert_eq!(
        format_move_nf(&pos, &after, dice(5, 3)).as_deref(),
        Some("13/10 13/8^")
    );
}

#[test]
fn a_trap_released_on_the_way_is_passing() {
    let pos = nf(&[(24, 14), (13, 1), (10, -1), (1, -14)], &[]);
    let (play, after) = match_play_nf(&pos, dice(5, 3), "13/5").unwrap();
    assert_eq!(format_play(&play), "13/5");
    assert_eq!(after.pip(10), -1);
    // Naming the touch-down point reads as a hit there, as in backgammon.
    let (play, _) = match_play_nf(&pos, dice(5, 3), "13/10/5").unwrap();
    assert_eq!(format_play(&play), "13/10*/5");
}

#[test]
fn trapped_checkers_and_their_trappers_say_why() {
    let reason = |pos: &Position, d: Dice, text: &str| match match_play_nf(pos, d, text) {
        Err(MoveTextError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    };
    // The mover's checker on 10 is trapped under two; a lone trapper holds 20.
    let pos = nf(
        &[(24, 11), (10, -2), (20, -1), (13, 1), (1, -10)],
        &[10, 20],
    );
    assert_eq!(
        reason(&pos, dice(5, 3), "10/5 24/21"),
        IllegalMove::Trapped(10)
    );
    assert_eq!(
        reason(&pos, dice(4, 3), "24/20 24/21").to_string(),
        "point 20 is held by a trapper"
    );
    assert_eq!(
        reason(&pos, dice(5, 3), "10/5 24/21").to_string(),
        "your checker on 10 is trapped"
    );
    assert_eq!(
        reason(&pos, dice(5, 3), "13/8^ 24/21"),
        IllegalMove::NoBlotToTrap(8)
    );
    // Bearing off while a checker of the mover is trapped in its home board.
    let home = nf(&[(6, 10), (5, 4), (3, -1), (20, -14)], &[3]);
    assert_eq!(
        reason(&home, dice(6, 5), "6/off 5/off").to_string(),
        "you cannot bear off while your checker on 3 is trapped"
    );
    // A trap marked where the checker moves on.
    let blot = nf(&[(24, 14), (13, 1), (8, -1), (1, -14)], &[]);
    assert_eq!(
        reason(&blot, dice(5, 3), "13/8^ 8/5"),
        IllegalMove::TrapReleased(8)
    );
}
