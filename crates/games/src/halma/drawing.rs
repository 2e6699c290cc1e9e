//! The terminal drawing of a Grasshopper (Halma) board.
//!
//! Plain ASCII like the backgammon board, with the same letters for the pieces (White `O`,
//! Black `X`). The viewer's camp is at the bottom left: from White's side rank 1 is at the
//! bottom and file `a` on the left; from Black's side the board is turned half round. Files
//! and ranks are labelled on all four sides.
//!
//! The camps are marked whether or not pieces stand on them: a wall `|` runs along each
//! camp's edge inside every rank (the staircase of the corner triangle), and an empty camp
//! square is shaded `:` where an ordinary empty square is `.`. Beside the board: each
//! player's name and how many of their pieces stand in their target camp (the top player's
//! at the top), and in the middle the status, the ply count (with the limit when known) and
//! the last move with its jump path.
//!
//! ```text
//!      a b c d e f g h
//!    +-----------------+
//!  8 | . . . .|X X X X | 8   X Black
//!  7 | . . . . .|X X X | 7     in target camp 0 of 10
//!  6 | . . . . . .|X X | 6
//!  5 | . . . . . . .|X | 5   White to move
//!  4 | O|. . . . . . . | 4   Ply 0 of 400
//!  3 | O O|. . . . . . | 3
//!  2 | O O O|. . . . . | 2     in target camp 0 of 10
//!  1 | O O O O|. . . . | 1   O White
//!    +-----------------+
//!      a b c d e f g h
//! ```

use crate::terminal::checker;
use std::fmt::Write;
use tabula_core::{ByColor, Color};
use tabula_halma::{Position, Square};

/// Everything the Grasshopper (Halma) drawing shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HalmaView {
    /// The pieces, the side to move and the ply count.
    pub position: Position,
    /// The line in the middle: "White to move", "White has won ...".
    pub status: String,
    /// The ply limit of the game, when known (shown as "Ply 12 of 400").
    pub ply_limit: Option<u32>,
    /// The evacuation deadline, when known and not 0: each side's pieces still at home and
    /// moves made are shown against it.
    pub evacuation: Option<u32>,
    /// Once the game is over: the result in one sentence (printed under the board).
    pub end: Option<String>,
    /// The last move as told ("Black g6:e4:c4"), if any.
    pub last_move: Option<String>,
    /// How each player is named (default "White", "Black").
    pub names: ByColor<String>,
}

impl HalmaView {
    /// A view of `position` with the status "White to move" (or whoever is to move).
    pub fn new(position: Position) -> HalmaView {
        let names = ByColor {
            white: "White".to_string(),
            black: "Black".to_string(),
        };
        HalmaView {
            status: format!("{} to move", names[position.to_move()]),
            position,
            ply_limit: None,
            evacuation: None,
            end: None,
            last_move: None,
            names,
        }
    }
}

/// Which camp a square belongs to, if any.
fn camp_of(position: &Position, sq: Square) -> Option<Color> {
    [Color::White, Color::Black]
        .into_iter()
        .find(|&c| position.camp(c).contains(sq))
}

/// The text beside each row, top row first.
fn panel(view: &HalmaView, viewer: Color, rows: usize) -> Vec<String> {
    let p = &view.position;
    let in_target = |c: Color| {
        let n = (p.pieces(c).0 & p.target(c).0).count_ones();
        let line = format!("  in target camp {n} of {}", p.size().pieces());
        match view.evacuation {
            Some(deadline) if deadline > 0 => {
                let home = (p.pieces(c).0 & p.camp(c).0).count_ones();
                format!(
                    "{line}, at home {home} (move {} of {deadline})",
                    p.moves_made(c)
                )
            }
            _ => line,
        }
    };
    let top = !viewer;
    let mut lines = vec![String::new(); rows];
    lines[0] = format!("{} {}", checker(top), view.names[top]);
    lines[1] = in_target(top);
    lines[rows - 2] = in_target(viewer);
    lines[rows - 1] = format!("{} {}", checker(viewer), view.names[viewer]);
    let mid = rows / 2 - 1;
    lines[mid] = view.status.clone();
    lines[mid + 1] = match view.ply_limit {
        Some(limit) => format!("Ply {} of {limit}", p.ply()),
        None => format!("Ply {}", p.ply()),
    };
    if let Some(last) = &view.last_move {
        lines[mid + 2] = format!("Last move: {last}");
    }
    lines
}

/// Draws `view` from `viewer`'s side (their camp bottom left).
pub fn render_halma(view: &HalmaView, viewer: Color) -> String {
    let p = &view.position;
    let n = p.size().side();
    // Display rows top first and columns left first, as (file, rank) indices.
    let ranks: Vec<u8> = match viewer {
        Color::White => (0..n).rev().collect(),
        Color::Black => (0..n).collect(),
    };
    let files: Vec<u8> = match viewer {
        Color::White => (0..n).collect(),
        Color::Black => (0..n).rev().collect(),
    };
    let letters: String = files
        .iter()
        .map(|&f| format!(" {}", (b'a' + f) as char))
        .collect();
    let edge = format!("   +{}+\n", "-".repeat(2 * n as usize + 1));
    let panel = panel(view, viewer, n as usize);
    let mut out = String::new();
    writeln!(out, "    {letters}").expect("writing to a String");
    out.push_str(&edge);
    for (row, &rank) in ranks.iter().enumerate() {
        let mut line = format!("{:>2} |", rank + 1);
        let mut previous: Option<Option<Color>> = None;
        for &file in &files {
            let sq = Square::new(file, rank).expect("on the board");
            let camp = camp_of(p, sq);
            // A wall where a camp begins or ends inside the rank.
            line.push(match previous {
                Some(before) if before != camp => '|',
                _ => ' ',
            });
            line.push(match (p.piece_at(sq), camp) {
                (Some(c), _) => checker(c),
                (None, Some(_)) => ':',
                (None, None) => '.',
            });
            previous = Some(camp);
        }
        write!(line, " | {}", rank + 1).expect("writing to a String");
        if !panel[row].is_empty() {
            let pad = if rank + 1 < 10 && n == 10 { 4 } else { 3 };
            write!(line, "{}{}", " ".repeat(pad), panel[row]).expect("writing to a String");
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&edge);
    writeln!(out, "    {letters}").expect("writing to a String");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_halma::{start, BoardSize};

    /// A snapshot written as a raw string that starts with a newline (for readability).
    fn snapshot(text: &str) -> &str {
        text.strip_prefix('\n').unwrap_or(text)
    }

    fn start_view(size: BoardSize) -> HalmaView {
        let mut view = HalmaView::new(start(size));
        view.ply_limit = Some(size.default_ply_limit());
        view
    }

    #[test]
    fn start_8x8_from_white() {
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
";
        assert_eq!(
            render_halma(&start_view(BoardSize::Eight), Color::White),
            snapshot(expected)
        );
    }

    #[test]
    fn start_10x10_from_white() {
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
";
        assert_eq!(
            render_halma(&start_view(BoardSize::Ten), Color::White),
            snapshot(expected)
        );
    }

    #[test]
    fn from_black_the_board_turns_and_empty_camp_squares_are_shaded() {
        // White has played a4-b5 and Black h5-g4: both camps have an empty square.
        let position: Position = "8:4bbbb/5bbb/6bb/1w6/6b1/ww6/www5/wwww4:w:2"
            .parse()
            .unwrap();
        let mut view = HalmaView::new(position);
        view.last_move = Some("Black h5-g4".to_string());
        let expected = r"
     h g f e d c b a
   +-----------------+
 1 | . . . .|O O O O | 1   O White
 2 | . . . . .|O O O | 2     in target camp 0 of 10
 3 | . . . . . .|O O | 3
 4 | . X . . . . .|: | 4   White to move
 5 | :|. . . . . O . | 5   Ply 2
 6 | X X|. . . . . . | 6   Last move: Black h5-g4
 7 | X X X|. . . . . | 7     in target camp 0 of 10
 8 | X X X X|. . . . | 8   X Black
   +-----------------+
     h g f e d c b a
";
        assert_eq!(render_halma(&view, Color::Black), snapshot(expected));
    }
}
