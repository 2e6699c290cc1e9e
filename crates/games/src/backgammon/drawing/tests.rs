//! Snapshots of the drawing. Each is checked by eye once (every checker where it belongs)
//! and then guards the layout against accidental change.

use super::*;

/// A snapshot written as a raw string that starts with a newline (for readability).
fn snapshot(text: &str) -> &str {
    text.strip_prefix('\n').unwrap_or(text)
}

fn start() -> BoardView {
    BoardView::new(Position::START, Color::White)
}

#[test]
fn start_from_white_home_right() {
    let expected = r"
  13 14 15 16 17 18       19 20 21 22 23 24
 +------------------+-----+------------------+-----+
 | O           X    |     | X              O |     |  X Black
 | O           X    |     | X              O |     |    pips 167
 | O           X    |     | X                |     |
 | O                |     | X                |     |
 | O                |     | X                |     |  White on roll
 |                  | BAR |                  |     |
 | X                |     | O                |     |
 | X                |     | O                |     |
 | X           O    |     | O                |     |
 | X           O    |     | O              X |     |    pips 167
 | X           O    |     | O              X |     |  O White
 +------------------+-----+------------------+-----+
  12 11 10  9  8  7        6  5  4  3  2  1
";
    let layout = Layout {
        viewer: Color::White,
        home: HomeSide::Right,
    };
    assert_eq!(render(&start(), layout), snapshot(expected));
}

#[test]
fn start_from_black_home_left_with_cube_score_and_dice() {
    let mut view = start();
    view.cube = Some(CubeView::Centred(1));
    view.score = Some(ScoreView {
        points: ByColor { white: 2, black: 0 },
        match_length: Some(5),
    });
    view.dice = Some(Dice::new(6, 5).unwrap());
    let expected = r"
        24 23 22 21 20 19       18 17 16 15 14 13
 +-----+------------------+-----+------------------+
 |     | X              O |     |    O           X |  O White
 |     | X              O |     |    O           X |    pips 167
 |     |                O |     |    O           X |    score 2
 |     |                O |     |                X |
 |     |                O |     |                X |  White to play 6-5
 | [1] |     [6] [5]      | BAR |                  |  Cube 1, centred
 |     |                X |     |                O |  Match to 5
 |     |                X |     |                O |
 |     |                X |     |    X           O |    score 0
 |     | O              X |     |    X           O |    pips 167
 |     | O              X |     |    X           O |  X Black
 +-----+------------------+-----+------------------+
         1  2  3  4  5  6        7  8  9 10 11 12
";
    let layout = Layout {
        viewer: Color::Black,
        home: HomeSide::Left,
    };
    assert_eq!(render(&view, layout), snapshot(expected));
}

/// Black on roll: a tall stack, checkers on both bars, borne-off checkers, a cube owned by
/// White.
#[test]
fn bar_tall_stacks_borne_off_and_owned_cube() {
    // Each side from its own side (index 0 = its 1-point, 24 = its bar). Black: 7 on its
    // 6-point (White's 19), 3 on its 1-point (White's 24), 2 on the bar, 3 off.
    let mut black = [0u8; 25];
    black[5] = 7;
    black[0] = 3;
    black[24] = 2;
    // White: 9 on its 1-point, 1 on the bar, 5 off.
    let mut white = [0u8; 25];
    white[0] = 9;
    white[24] = 1;
    let board = Position::from_counts(&black, &white).unwrap();
    let mut view = BoardView::new(board, Color::Black);
    view.cube = Some(CubeView::Owned(4, Color::White));
    view.dice = Some(Dice::new(3, 3).unwrap());
    let expected = r"
  13 14 15 16 17 18       19 20 21 22 23 24
 +------------------+-----+------------------+-----+
 |                  |     | X              X |  3  |  X Black
 |                  |     | X              X |     |    pips 95
 |                  |     | X              X |     |
 |                  |  X  | X                |     |
 |                  |  X  | 7                |     |  Black to play 3-3
 |     [3] [3]      | BAR |                  |     |  Cube 4, owned by White
 |                  |  O  |                9 |     |
 |                  |     |                O |     |
 |                  |     |                O | [4] |
 |                  |     |                O |     |    pips 34
 |                  |     |                O |  5  |  O White
 +------------------+-----+------------------+-----+
  12 11 10  9  8  7        6  5  4  3  2  1
";
    let layout = Layout {
        viewer: Color::White,
        home: HomeSide::Right,
    };
    assert_eq!(render(&view, layout), snapshot(expected));
}

/// A Never-Finishing position with trapped checkers of both colours, Black to move: White
/// traps Black checkers on White's 8- and 24-points, Black traps White checkers on White's
/// 1-point and under a tall stack on White's 12-point.
fn trapped_both_ways() -> BoardView {
    let text = "2b+w/4/3w/1/1w+b/3/5b+w/4w/3/1b/1/1b/4/3w+b:1:0:b";
    let tables: tabula_tables::notation::TablesPosition = text.parse().unwrap();
    BoardView::new(tables.position, tables.to_move)
}

#[test]
fn trapped_checkers_sit_under_their_trappers_in_lowercase() {
    let expected = r"
  13 14 15 16 17 18       19 20 21 22 23 24
 +------------------+-----+------------------+-----+
 | o           x    |     | O              o |  1  |  O White
 | X           O    |     | O              X |     |    pips 188
 | X                |     | O              X |     |
 | X                |     |                  |     |
 | 5                |  O  |                  |     |  Black on roll
 |                  | BAR |                  |     |
 |                  |     |                  |     |
 | O                |     |                O |     |
 | O                |     |                O |     |
 | O                |     |                O |     |    pips 145
 | O           X    |     | X              x |  4  |  X Black
 +------------------+-----+------------------+-----+
  12 11 10  9  8  7        6  5  4  3  2  1
  Trapped under the other side's checkers: o White, x Black
";
    let layout = Layout {
        viewer: Color::Black,
        home: HomeSide::Right,
    };
    assert_eq!(render(&trapped_both_ways(), layout), snapshot(expected));
}

#[test]
fn trapped_checkers_from_the_other_side_home_left() {
    let expected = r"
        24 23 22 21 20 19       18 17 16 15 14 13
 +-----+------------------+-----+------------------+
 |  4  | x              X |     |    X           O |  X Black
 |     | O                |     |                O |    pips 145
 |     | O                |     |                O |
 |     | O                |     |                O |
 |     |                  |     |                  |  Black on roll
 |     |                  | BAR |                  |
 |     |                  |  O  |                5 |
 |     |                  |     |                X |
 |     | X              O |     |                X |
 |     | X              O |     |    O           X |    pips 188
 |  1  | o              O |     |    x           o |  O White
 +-----+------------------+-----+------------------+
         1  2  3  4  5  6        7  8  9 10 11 12
  Trapped under the other side's checkers: o White, x Black
";
    let layout = Layout {
        viewer: Color::White,
        home: HomeSide::Left,
    };
    assert_eq!(render(&trapped_both_ways(), layout), snapshot(expected));
}

/// The legend names only the colours that have a trapped checker.
#[test]
fn the_legend_names_only_trapped_colours() {
    let tables: tabula_tables::notation::TablesPosition = "2w+b/23:0:0:w".parse().unwrap();
    let view = BoardView::new(tables.position, tables.to_move);
    let layout = Layout {
        viewer: Color::White,
        home: HomeSide::Right,
    };
    let text = render(&view, layout);
    assert!(
        text.ends_with("  Trapped under the other side's checkers: x Black\n"),
        "{text}"
    );
    assert!(!render(&start(), layout).contains("Trapped"));
}
