//! The tables position notation and Never-Finishing move text: examples for backgammon and
//! Never-Finishing boards, the errors' wording, and round trips over random boards with
//! trapped checkers (positions through the text, and every legal Never-Finishing play through
//! its move text).

use proptest::prelude::*;
use proptest::sample::select;
use tabula_core::{Color, Dice};
use tabula_tables::never_finishing::start_position;
use tabula_tables::notation::{
    format_move_nf, format_play, match_play_nf, MoveTextError, TablesPosition, TablesPositionError,
};
use tabula_tables::{Position, SequenceGen, Trapping};

fn parse(text: &str) -> TablesPosition {
    text.parse()
        .unwrap_or_else(|e| panic!("{text} refused: {e}"))
}

fn error(text: &str) -> String {
    match text.parse::<TablesPosition>() {
        Ok(tp) => panic!("{text} accepted as {tp:?}"),
        Err(e) => e.to_string(),
    }
}

/// A board from White's side from signed counts (index 25 White's bar, 0 Black's) and the
/// points holding a trapped checker.
fn white_board(points: &[(usize, i8)], trapped: &[usize]) -> Position {
    let mut pips = [0i8; 26];
    for &(p, n) in points {
        pips[p] = n;
    }
    let mask = trapped.iter().fold(0u32, |m, &p| m | 1 << p);
    Position::from_parts(pips, mask).unwrap()
}

#[test]
fn the_backgammon_start_reads_the_same_for_either_side_to_move() {
    let white = parse("2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:w");
    assert_eq!(white.position, Position::START);
    assert_eq!(white.to_move, Color::White);
    let black = parse("2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:b");
    assert_eq!(black.position, Position::START);
    assert_eq!(black.to_move, Color::Black);
    assert_eq!(
        black.to_string(),
        "2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:b"
    );
}

#[test]
fn the_never_finishing_start_is_fifteen_on_each_24_point() {
    let tp = parse("15b/22/15w:0:0:0:0:w");
    assert_eq!(tp.position, start_position());
    assert_eq!(
        TablesPosition::new(start_position(), Color::Black).to_string(),
        "15b/22/15w:0:0:0:0:b"
    );
}

#[test]
fn trapped_checkers_of_both_colours_bars_and_off_round_trip() {
    // White: 3 over a trapped Black checker on White's 5, 2 on 21, 1 on the bar, 8 off.
    // Black: 2 over a trapped White checker on White's 20, 3 on 23, 2 on the bar, 7 off.
    let text = "4/3w+b/14/2b+w/2w/1/3b/1:1:2:8:7:b";
    let tp = parse(text);
    assert_eq!(tp.to_move, Color::Black);
    let white = tp.white_view();
    assert_eq!((white.pip(5), white.is_trapped(5)), (3, true));
    assert_eq!((white.pip(20), white.is_trapped(20)), (-2, true));
    assert_eq!((white.pip(25), white.pip(0)), (1, -2));
    assert_eq!((white.mover_off(), white.opponent_off()), (8, 7));
    // Black to move: the position is Black's view, White's 20 being Black's 5.
    assert_eq!(tp.position, white.flip());
    assert_eq!((tp.position.pip(5), tp.position.is_trapped(5)), (2, true));
    assert_eq!(tp.to_string(), text);
    // Without the off counts, and with the board built by hand.
    assert_eq!(parse("4/3w+b/14/2b+w/2w/1/3b/1:1:2:b"), tp);
    let by_hand = white_board(
        &[(5, 3), (20, -2), (21, 2), (23, -3), (25, 1), (0, -2)],
        &[5, 20],
    );
    assert_eq!(TablesPosition::from_white_view(by_hand, Color::Black), tp);
}

#[test]
fn after_a_move_the_opponent_is_to_move() {
    let tp = parse("15b/22/15w:0:0:0:0:w");
    let (_, after) = match_play_nf(&tp.position, Dice::new(6, 5).unwrap(), "24/13").unwrap();
    let next = tp.after_move(after);
    assert_eq!(next.to_string(), "15b/11/1w/10/14w:0:0:0:0:b");
}

#[test]
fn errors_say_exactly_what_is_wrong() {
    let cases = [
        (
            "15b/22/15w:0:0:w:x",
            "a tables position has 6 fields separated by ':' (points:white bar:black bar:white off:black off:side), or 4 without the off counts; found 5",
        ),
        (
            "15b/22/15x:0:0:w",
            "point field 3 (\"15x\", at White's point 24): 'x' is not a colour: write w or b",
        ),
        (
            "16b/22/15w:0:0:w",
            "point field 1 (\"16b\", at White's point 1): 16 checkers: a point holds 1 to 15 of a colour",
        ),
        (
            "+b/22/15w:0:0:w",
            "point field 1 (\"+b\", at White's point 1): a trapped checker needs at least one trapper above it",
        ),
        (
            "15b/22/2w+w:0:0:w",
            "point field 3 (\"2w+w\", at White's point 24): the trapped checker must be of the other colour than its trappers",
        ),
        (
            "15b/23/15w:0:0:w",
            "point field 3 (\"15w\") goes past White's 24-point: the fields must cover exactly 24 points",
        ),
        (
            "15b/21/15w:0:0:w",
            "the point fields cover 23 points; they must cover exactly 24",
        ),
        (
            "15b/22/15w:0:16:w",
            "the Black bar field is \"16\": write a number of checkers from 0 to 15",
        ),
        ("15b/22/15w:0:0:x", "the side to move is \"x\": write w or b"),
        (
            "15b/22/15w:1:0:w",
            "White has 16 checkers on the points and bar; at most 15",
        ),
        (
            "14b+w/22/15w:0:0:w",
            "White has 16 checkers on the points and bar; at most 15",
        ),
        (
            "15b/22/14w:0:0:0:0:w",
            "White off is 0, but 14 checkers on the points and bar leave 1 off",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(error(text), message, "{text}");
    }
    assert!(matches!(
        "15b/22/15w:0:0:w:x".parse::<TablesPosition>(),
        Err(TablesPositionError::FieldCount(5))
    ));
}

#[test]
fn hit_and_trap_on_a_never_finishing_board() {
    // White to move with 6-2; a Black blot on White's 18, a Black checker trapped under a
    // White checker on White's 22.
    let tp = parse("13b/16/1b/3/1w+b/1/14w:0:0:0:0:w");
    let dice = Dice::new(6, 2).unwrap();
    match match_play_nf(&tp.position, dice, "24/18 24/22") {
        Err(MoveTextError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, vec!["24/22 24/18*", "24/22 24/18^"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        match_play_nf(&tp.position, dice, "24/18 24/22")
            .unwrap_err()
            .to_string(),
        "24/18 24/22 is ambiguous: it could be 24/22 24/18* or 24/22 24/18^"
    );
    let (_, trapped) = match_play_nf(&tp.position, dice, "24/18^ 24/22").unwrap();
    assert_eq!(
        tp.after_move(trapped).to_string(),
        "13b/16/1w+b/3/2w+b/1/12w:0:0:0:0:b"
    );
    let (_, hit) = match_play_nf(&tp.position, dice, "24/18* 24/22").unwrap();
    assert_eq!(
        tp.after_move(hit).to_string(),
        "13b/16/1w/3/2w+b/1/12w:0:1:0:0:b"
    );
    assert_eq!(
        format_move_nf(&tp.position, &trapped, dice).as_deref(),
        Some("24/22 24/18^")
    );
    // Black to move: the lone White trapper on White's 22 (Black's 3) holds the point, and
    // Black's checker under it is trapped.
    let black = parse("13b/16/1b/3/1w+b/1/14w:0:0:0:0:b");
    let err = match_play_nf(&black.position, Dice::new(3, 2).unwrap(), "25/22 25/23")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "25/22 25/23: you have no checker on the bar");
    let err = match_play_nf(&black.position, Dice::new(4, 1).unwrap(), "7/3 24/23")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "7/3 24/23: point 3 is held by a trapper");
    // Black's checker on its 3-point (White's 22) is trapped.
    let err = match_play_nf(&black.position, Dice::new(2, 1).unwrap(), "3/1 24/22")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "3/1 24/22: your checker on 3 is trapped");
}

/// Any board from White's side: each point empty, a stack of either colour, or a stack over
/// a trapped checker of the other colour, within fifteen checkers a side; bars of 0 to 2.
fn white_view() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec((0..12u8, 1..=4i8), 24),
        0..=2i8,
        0..=2i8,
    )
        .prop_map(|(points, white_bar, black_bar)| {
            let mut pips = [0i8; 26];
            let mut trapped = 0u32;
            pips[25] = white_bar;
            pips[0] = -black_bar;
            let mut count = [white_bar, black_bar];
            for (i, &(kind, n)) in points.iter().enumerate() {
                let (side, trap) = match kind {
                    0 | 1 => (0, false),
                    2 | 3 => (1, false),
                    4 => (0, true),
                    5 => (1, true),
                    _ => continue,
                };
                if count[side] + n > 15 || count[1 - side] + i8::from(trap) > 15 {
                    continue;
                }
                count[side] += n;
                count[1 - side] += i8::from(trap);
                pips[i + 1] = if side == 0 { n } else { -n };
                if trap {
                    trapped |= 1 << (i + 1);
                }
            }
            Position::from_parts(pips, trapped).unwrap()
        })
}

fn side() -> impl Strategy<Value = Color> {
    select(vec![Color::White, Color::Black])
}

proptest! {
    #[test]
    fn positions_round_trip_through_the_text(white in white_view(), to_move in side()) {
        let tp = TablesPosition::from_white_view(white, to_move);
        let text = tp.to_string();
        let back: TablesPosition = text.parse().unwrap();
        prop_assert_eq!(back, tp);
        prop_assert_eq!(back.white_view(), white);
        let expected = if to_move == Color::White { white } else { white.flip() };
        prop_assert_eq!(back.position, expected);
        // The short form (no off counts) and upper case read the same.
        let fields: Vec<&str> = text.split(':').collect();
        let short = format!("{}:{}:{}:{}", fields[0], fields[1], fields[2], fields[5]);
        prop_assert_eq!(short.to_uppercase().parse::<TablesPosition>().unwrap(), tp);
    }

    #[test]
    fn every_never_finishing_play_round_trips_through_its_text(
        white in white_view(),
        to_move in side(),
        dice in select(Dice::all().collect::<Vec<_>>()),
    ) {
        let pos = TablesPosition::from_white_view(white, to_move).position;
        let mut gen = SequenceGen::new();
        let (positions, plays) = gen.plays(&pos, dice, Trapping::On);
        for (after, play) in positions.iter().zip(plays) {
            let text = format_play(play);
            let matched = match_play_nf(&pos, dice, &text);
            prop_assert!(
                matches!(matched, Ok((_, p)) if p == *after),
                "{:?} {} {}: {:?}", pos, dice, text, matched
            );
            prop_assert_eq!(format_move_nf(&pos, after, dice), Some(text));
        }
    }
}
