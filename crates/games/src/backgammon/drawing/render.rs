//! Turns a [`BoardView`] into lines of text.
//!
//! The board is a grid of 11 rows: five for the top half, the middle row (bar label, centred
//! cube, dice) and five for the bottom half. Each point is a column three characters wide; the
//! bar and the tray are five wide. Text about the players sits to the right, each player's
//! lines on its own half, so that the drawing reads the same from either side.

use super::{checker, trapped_checker, BoardView, CubeView, HomeSide, Layout};
use tabula_core::Color;

/// Rows per half of the board.
const HALF_ROWS: usize = 5;
/// All rows: two halves and the middle row.
const ROWS: usize = 2 * HALF_ROWS + 1;
const MIDDLE: usize = HALF_ROWS;
const POINT_WIDTH: usize = 3;
const HALF_WIDTH: usize = 6 * POINT_WIDTH;
const BAR_WIDTH: usize = 5;
const TRAY_WIDTH: usize = 5;

/// The text of a stack of `count` checkers drawn with `symbol`, from the edge of the board
/// inwards, `width` wide: one checker per row, or, for more than five, four and the count.
fn stack(count: u8, symbol: char, width: usize) -> [String; HALF_ROWS] {
    std::array::from_fn(|row| {
        let tall = usize::from(count) > HALF_ROWS;
        let text = if tall && row == HALF_ROWS - 1 {
            count.to_string()
        } else if row < usize::from(count) {
            symbol.to_string()
        } else {
            String::new()
        };
        // Align with the point numbers: a checker under the units digit.
        if width == POINT_WIDTH {
            format!("{text:>2} ")
        } else {
            format!("{text:^width$}")
        }
    })
}

/// A stack of `count` trappers drawn with `symbol` over one trapped checker drawn with
/// `under`: the trapped checker at the edge of the board (the bottom of the stack), the
/// trappers above it, and, when they do not fit, three of them and their count.
fn trapped_stack(count: u8, symbol: char, under: char) -> [String; HALF_ROWS] {
    std::array::from_fn(|row| {
        let tall = usize::from(count) >= HALF_ROWS;
        let text = if row == 0 {
            under.to_string()
        } else if tall && row == HALF_ROWS - 1 {
            count.to_string()
        } else if row <= usize::from(count) {
            symbol.to_string()
        } else {
            String::new()
        };
        format!("{text:>2} ")
    })
}

/// One of the four quarters, or the bar, or the tray, as a column of `ROWS` cells.
struct Column {
    width: usize,
    cells: Vec<String>,
}

impl Column {
    fn empty(width: usize) -> Column {
        Column {
            width,
            cells: vec![" ".repeat(width); ROWS],
        }
    }
}

/// The checkers seen from the viewer: `(viewer's count, opponent's count)` on the viewer's
/// point `p` (1..=24).
fn counts_at(view: &BoardView, viewer: Color, p: usize) -> (u8, u8) {
    let b = view.board_for(viewer);
    (b.mover_on(p), b.opponent_on(p))
}

/// A half of the board (six points above, six below) as one column.
fn half(view: &BoardView, viewer: Color, top: [usize; 6], bottom: [usize; 6]) -> Column {
    let mut col = Column::empty(HALF_WIDTH);
    for row in col.cells.iter_mut() {
        row.clear();
    }
    let board = view.board_for(viewer);
    for (points, is_top) in [(top, true), (bottom, false)] {
        for p in points {
            let (mine, theirs) = counts_at(view, viewer, p);
            let (count, color) = if mine > 0 {
                (mine, viewer)
            } else {
                (theirs, !viewer)
            };
            // A trapped checker is of the other colour than the checkers counted there.
            let cells = if board.is_trapped(p) {
                trapped_stack(count, checker(color), trapped_checker(!color))
            } else {
                stack(count, checker(color), POINT_WIDTH)
            };
            for (i, cell) in cells.iter().enumerate() {
                let row = if is_top { i } else { ROWS - 1 - i };
                col.cells[row].push_str(cell);
            }
        }
    }
    col.cells[MIDDLE] = " ".repeat(HALF_WIDTH);
    col
}

/// The bar: each side's checkers on its own half, stacked from the middle outwards.
fn bar(view: &BoardView, viewer: Color) -> Column {
    let b = view.board_for(viewer);
    let mut col = Column::empty(BAR_WIDTH);
    let top = stack(b.opponent_on(0), checker(!viewer), BAR_WIDTH);
    let bottom = stack(b.mover_on(25), checker(viewer), BAR_WIDTH);
    for i in 0..HALF_ROWS {
        col.cells[MIDDLE - 1 - i] = top[i].clone();
        col.cells[MIDDLE + 1 + i] = bottom[i].clone();
    }
    col.cells[MIDDLE] = format!("{:^BAR_WIDTH$}", "BAR");
    col
}

/// The tray beside the home boards: borne-off counts at the edges, and the cube near its
/// owner or in the middle.
fn tray(view: &BoardView, viewer: Color) -> Column {
    let b = view.board_for(viewer);
    let mut col = Column::empty(TRAY_WIDTH);
    let off = |n: u8| {
        if n > 0 {
            format!("{n:^TRAY_WIDTH$}")
        } else {
            " ".repeat(TRAY_WIDTH)
        }
    };
    col.cells[0] = off(b.opponent_off());
    col.cells[ROWS - 1] = off(b.mover_off());
    let cube_text = |value: u32| {
        let bracketed = format!("[{value}]");
        let text = if bracketed.len() <= TRAY_WIDTH {
            bracketed
        } else {
            value.to_string()
        };
        format!("{text:^TRAY_WIDTH$}")
    };
    match view.cube {
        Some(CubeView::Centred(v)) => col.cells[MIDDLE] = cube_text(v),
        Some(CubeView::Owned(v, owner)) => {
            let row = if owner == viewer { ROWS - 3 } else { 2 };
            col.cells[row] = cube_text(v);
        }
        Some(CubeView::Crawford) | None => {}
    }
    col
}

/// The text beside each row.
fn info(view: &BoardView, viewer: Color) -> Vec<String> {
    let mut lines = vec![String::new(); ROWS];
    let player = |color: Color| {
        let b = view.board_for(color);
        let name = format!("{} {}", checker(color), view.names[color]);
        let pips = format!("  pips {}", b.mover_pips());
        let score = view
            .score
            .map(|s| format!("  score {}", s.points[color]))
            .unwrap_or_default();
        (name, pips, score)
    };
    let (name, pips, score) = player(!viewer);
    lines[0] = name;
    lines[1] = pips;
    lines[2] = score;
    let (name, pips, score) = player(viewer);
    lines[ROWS - 1] = name;
    lines[ROWS - 2] = pips;
    lines[ROWS - 3] = score;

    lines[MIDDLE - 1] = view.status.clone().unwrap_or_else(|| {
        let name = &view.names[view.on_roll];
        match view.dice {
            Some(d) => format!("{name} to play {d}"),
            None => format!("{name} on roll"),
        }
    });
    lines[MIDDLE] = match view.cube {
        Some(CubeView::Centred(v)) => format!("Cube {v}, centred"),
        Some(CubeView::Owned(v, owner)) => format!("Cube {v}, owned by {}", view.names[owner]),
        Some(CubeView::Crawford) => "Crawford game: no cube".to_string(),
        None => String::new(),
    };
    if let Some(score) = view.score {
        lines[MIDDLE + 1] = match score.match_length {
            Some(n) => format!("Match to {n}"),
            None => "Money game".to_string(),
        };
    }
    lines
}

/// The dice drawn in the middle row of the roller's right-hand half, as on a real board.
fn draw_dice(view: &BoardView, viewer: Color, left: &mut Column, right: &mut Column) {
    let Some(d) = view.dice else { return };
    let text = format!("[{}] [{}]", d.big(), d.small());
    let target = if view.on_roll == viewer { right } else { left };
    target.cells[MIDDLE] = format!("{text:^HALF_WIDTH$}");
}

/// The line under the board that explains trapped checkers, when there are any (never for
/// backgammon, whose drawing stays as it was).
fn legend(view: &BoardView) -> Option<String> {
    let trapped: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .filter(|&c| {
            // `c`'s checker is trapped where `c`'s opponent's checkers stand on a marked point.
            let b = view.board_for(c);
            (1..=24).any(|p| b.is_trapped(p) && b.opponent_on(p) > 0)
        })
        .map(|c| format!("{} {}", trapped_checker(c), view.names[c]))
        .collect();
    (!trapped.is_empty()).then(|| {
        format!(
            "  Trapped under the other side's checkers: {}",
            trapped.join(", ")
        )
    })
}

/// The point numbers of a half along the top or bottom edge.
fn numbers(points: [usize; 6]) -> String {
    points.iter().map(|p| format!("{p:>2} ")).collect()
}

/// Draws the board. Every line ends without trailing spaces; the text ends with a newline.
pub fn render(view: &BoardView, layout: Layout) -> String {
    let viewer = layout.viewer;
    // Viewer's point numbers of each quarter, as drawn left to right.
    let (top_left, top_right, bottom_left, bottom_right) = match layout.home {
        HomeSide::Right => (
            [13, 14, 15, 16, 17, 18],
            [19, 20, 21, 22, 23, 24],
            [12, 11, 10, 9, 8, 7],
            [6, 5, 4, 3, 2, 1],
        ),
        HomeSide::Left => (
            [24, 23, 22, 21, 20, 19],
            [18, 17, 16, 15, 14, 13],
            [1, 2, 3, 4, 5, 6],
            [7, 8, 9, 10, 11, 12],
        ),
    };
    let mut left = half(view, viewer, top_left, bottom_left);
    let mut right = half(view, viewer, top_right, bottom_right);
    draw_dice(view, viewer, &mut left, &mut right);
    let columns = match layout.home {
        HomeSide::Right => vec![left, bar(view, viewer), right, tray(view, viewer)],
        HomeSide::Left => vec![tray(view, viewer), left, bar(view, viewer), right],
    };
    let number_row = |l: [usize; 6], r: [usize; 6]| {
        let mut s = String::from("  ");
        if layout.home == HomeSide::Left {
            s.push_str(&" ".repeat(TRAY_WIDTH + 1));
        }
        s.push_str(&numbers(l));
        s.push_str(&" ".repeat(BAR_WIDTH + 1));
        s.push_str(&numbers(r));
        s
    };
    let border = {
        let mut s = String::from(" +");
        for c in &columns {
            s.push_str(&"-".repeat(c.width));
            s.push('+');
        }
        s
    };
    let info = info(view, viewer);
    let mut lines = vec![number_row(top_left, top_right), border.clone()];
    for (row, text) in info.iter().enumerate() {
        let mut s = String::from(" |");
        for c in &columns {
            s.push_str(&c.cells[row]);
            s.push('|');
        }
        if !text.is_empty() {
            s.push_str("  ");
            s.push_str(text);
        }
        lines.push(s);
    }
    lines.push(border);
    lines.push(number_row(bottom_left, bottom_right));
    lines.extend(legend(view));
    let mut out = String::new();
    for line in lines {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
