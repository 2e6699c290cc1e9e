//! The terminal drawing of a Grasshopper board (the dice-free backgammon variant).
//!
//! Both players travel the same track, 1 to 24, and a wall is built exactly six points on, so
//! the board is drawn as the four quadrants stacked, A at the bottom and D at the top, six
//! points a row: an advance goes up one row, a build straight up one column. Each point has
//! two lines, so a wall is drawn as its two checkers stacked; a vacant point is `.`. The
//! checkers are the backgammon board's letters (White `O`, Black `X`), plain ASCII.
//!
//! ```text
//!     +-------------------+
//!     |                   |   X Black
//!   D |  .  .  .  .  .  . |     in hand 14
//!     | 19 20 21 22 23 24 |     score 0
//!     +-------------------+
//!     |                   |
//!   C |  .  .  .  .  .  . |
//!     | 13 14 15 16 17 18 |   White to move
//!     +-------------------+   No point scored yet
//!     |                   |
//!   B |  .  .  .  .  .  . |
//!     |  7  8  9 10 11 12 |
//!     +-------------------+
//!     |                   |     score 0
//!   A |  .  .  .  .  .  . |     in hand 14
//!     |  1  2  3  4  5  6 |   O White
//!     +-------------------+
//! ```
//!
//! Beside the board: each player's name, checkers in hand and score (the viewer's at the
//! bottom), with the last scorer's score marked `(scored last)`; in the middle the status (who
//! is to move, a pass just played, or how the game ended), who needs the next point to win,
//! and in play the last move.

use crate::terminal::checker;
use tabula_core::{ByColor, Color};
use tabula_grasshopper::{Cell, Point, Position, Quadrant};

/// Everything the Grasshopper drawing shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrasshopperView {
    /// The checkers, hands, score, side to move and pass flag.
    pub position: Position,
    /// The last action as told ("Black 3-9"), if any.
    pub last_move: Option<String>,
    /// How each player is named (default "White", "Black").
    pub names: ByColor<String>,
}

impl GrasshopperView {
    /// A view of `position` with the default names and no last move.
    pub fn new(position: Position) -> GrasshopperView {
        GrasshopperView {
            position,
            last_move: None,
            names: ByColor {
                white: "White".to_string(),
                black: "Black".to_string(),
            },
        }
    }
}

/// Where the game stands, in words: "White to move", "White to move; Black passed", or how it
/// ended ("White has won 2-1", "Drawn: ...").
pub fn status_text(position: &Position, names: &ByColor<String>) -> String {
    let turn = position.turn();
    let (mover, other) = (&names[turn], &names[!turn]);
    if let Some(winner) = position.winner() {
        return format!(
            "{} has won {}-{}",
            names[winner],
            position.score(winner),
            position.score(!winner)
        );
    }
    if position.is_over() {
        return if position.remaining(Color::White) + position.remaining(Color::Black) == 0 {
            "Drawn: neither side has a checker left".to_string()
        } else {
            format!("Drawn: {mover} cannot move either after {other}'s pass")
        };
    }
    if position.passed() {
        format!("{mover} to move; {other} passed")
    } else {
        format!("{mover} to move")
    }
}

/// Who needs the next point to win: the last scorer, or nobody yet. Empty once the game is
/// over.
pub fn next_point_text(position: &Position, names: &ByColor<String>) -> String {
    if position.is_over() {
        return String::new();
    }
    match position.last_scorer() {
        Some(c) => format!("{} needs one more point in succession to win", names[c]),
        None => "No point scored yet".to_string(),
    }
}

/// The two lines of a point, top first: a wall's upper checker, then its lower checker or a
/// single (`.` when vacant).
fn point_lines(cell: Cell) -> (char, char) {
    match cell {
        Cell::Empty => (' ', '.'),
        Cell::Single(c) => (' ', checker(c)),
        Cell::Wall(c) => (checker(c), checker(c)),
    }
}

/// The lines of one player's part of the panel, top to bottom.
fn player_lines(view: &GrasshopperView, color: Color) -> Vec<String> {
    let p = &view.position;
    let mark = if p.winner() == Some(color) {
        " (won)"
    } else if p.last_scorer() == Some(color) {
        " (scored last)"
    } else {
        ""
    };
    let mut lines = vec![
        format!("{} {}", checker(color), view.names[color]),
        format!("  in hand {}", p.hand(color)),
        format!("  score {}{mark}", p.score(color)),
    ];
    if p.discarded(color) > 0 {
        lines.push(format!("  discarded {}", p.discarded(color)));
    }
    lines
}

/// The drawing, with `viewer`'s panel at the bottom (the board is the same from both sides:
/// both players move up it).
pub fn render_grasshopper(view: &GrasshopperView, viewer: Color) -> String {
    let p = &view.position;
    let border = format!("    +{}+", "-".repeat(19));
    let mut rows = vec![border.clone()];
    for quadrant in Quadrant::ALL.into_iter().rev() {
        let first = quadrant.index() as u8 * 6 + 1;
        let points: Vec<Point> = (first..first + 6)
            .map(|n| Point::new(n).expect("1..=24"))
            .collect();
        let line = |f: &dyn Fn(Point) -> String| -> String {
            points.iter().map(|&pt| format!("{:>3}", f(pt))).collect()
        };
        rows.push(format!(
            "    |{} |",
            line(&|pt| point_lines(p.cell(pt)).0.into())
        ));
        rows.push(format!(
            "  {} |{} |",
            quadrant.letter(),
            line(&|pt| point_lines(p.cell(pt)).1.into())
        ));
        rows.push(format!("    |{} |", line(&|pt| pt.number().to_string())));
        rows.push(border.clone());
    }
    let mut panel = vec![String::new(); rows.len()];
    for (i, line) in player_lines(view, !viewer).into_iter().enumerate() {
        panel[1 + i] = line;
    }
    let bottom = player_lines(view, viewer);
    let last = rows.len() - 2;
    for (i, line) in bottom.into_iter().enumerate() {
        // The name on the last row of points, the other lines above it, mirroring the top.
        panel[last - i] = line;
    }
    let middle = [
        status_text(p, &view.names),
        next_point_text(p, &view.names),
        view.last_move
            .as_ref()
            .map(|m| format!("Last move: {m}"))
            .unwrap_or_default(),
    ];
    for (i, line) in middle.into_iter().enumerate() {
        panel[7 + i] = line;
    }
    let mut out = String::new();
    for (row, side) in rows.iter().zip(&panel) {
        let line = if side.is_empty() {
            row.clone()
        } else {
            format!("{row}   {side}")
        };
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_grasshopper::Checkers;

    /// A snapshot written as a raw string that starts with a newline (for readability).
    fn snapshot(text: &str) -> &str {
        text.strip_prefix('\n').unwrap_or(text)
    }

    #[test]
    fn the_start_of_the_full_game() {
        let view = GrasshopperView::new(Position::start(Checkers::FULL));
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
";
        assert_eq!(render_grasshopper(&view, Color::White), snapshot(expected));
    }

    #[test]
    fn walls_of_both_colours_stacked_a_pass_and_the_last_scorer() {
        // White has walls on 9 and 20, Black one on 14; White scored last (1-0); Black to
        // move, drawn from Black's side (its panel at the bottom).
        let position: Position = "ww.b../b.W.w./.B.b.w/.W..b. b 4-8 1*-0 - 14"
            .parse()
            .unwrap();
        let mut view = GrasshopperView::new(position);
        view.last_move = Some("White off 24".to_string());
        let expected = r"
    +-------------------+
    |     O             |   O White
  D |  .  O  .  .  X  . |     in hand 4
    | 19 20 21 22 23 24 |     score 1 (scored last)
    +-------------------+
    |     X             |
  C |  .  X  .  X  .  O |
    | 13 14 15 16 17 18 |   Black to move
    +-------------------+   White needs one more point in succession to win
    |        O          |   Last move: White off 24
  B |  X  .  O  .  O  . |
    |  7  8  9 10 11 12 |
    +-------------------+
    |                   |     score 0
  A |  O  O  .  X  .  . |     in hand 8
    |  1  2  3  4  5  6 |   X Black
    +-------------------+
";
        assert_eq!(render_grasshopper(&view, Color::Black), snapshot(expected));
    }

    #[test]
    fn statuses_tell_passes_wins_and_draws() {
        let names = ByColor {
            white: "White".to_string(),
            black: "Black".to_string(),
        };
        let status = |text: &str| status_text(&text.parse().unwrap(), &names);
        assert_eq!(
            status("bbbbbb/....../....../...... b 14-8 0-0 p 14"),
            "Black to move; White passed"
        );
        assert_eq!(
            status("bbbbbb/B...../wwwwww/bbbbbb b 8-0 0-0 p 14"),
            "Drawn: Black cannot move either after White's pass"
        );
        assert_eq!(
            status("bb..../....../....../...... b 0-2 2#-0 - 4"),
            "White has won 2-0"
        );
        let won: Position = "bb..../....../....../...... b 0-2 2#-0 - 4"
            .parse()
            .unwrap();
        assert_eq!(next_point_text(&won, &names), "");
        let view = GrasshopperView::new(won);
        assert!(render_grasshopper(&view, Color::White).contains("score 2 (won)"));
    }
}
