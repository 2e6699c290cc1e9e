//! A plain-text drawing of a position, for terminals and test failures.

use crate::position::Position;
use crate::square::Square;
use std::fmt::Write;
use tabula_core::Color;

/// The board drawn from White's side (rank 1 at the bottom), `w` and `b` for pieces, `.` for
/// empty squares, files lettered below, then the side to move and the ply count:
///
/// ```text
///  8  . . . . b b b b
///  7  . . . . . b b b
///  6  . . . . . . b b
///  5  . . . . . . . b
///  4  w . . . . . . .
///  3  w w . . . . . .
///  2  w w w . . . . .
///  1  w w w w . . . .
///     a b c d e f g h
/// white to move, ply 0
/// ```
pub fn render(position: &Position) -> String {
    let n = position.size().side();
    let mut out = String::new();
    for rank in (0..n).rev() {
        write!(out, "{:>2} ", rank + 1).expect("writing to a String");
        for file in 0..n {
            let sq = Square::new(file, rank).expect("on the board");
            out.push(' ');
            out.push(match position.piece_at(sq) {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            });
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..n {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    writeln!(
        out,
        "\n{} to move, ply {}",
        position.to_move(),
        position.ply()
    )
    .expect("writing to a String");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    #[test]
    fn the_drawing_of_the_start_matches_the_documentation() {
        let want = " 8  . . . . b b b b\n 7  . . . . . b b b\n 6  . . . . . . b b\n 5  . . . . . . . b\n 4  w . . . . . . .\n 3  w w . . . . . .\n 2  w w w . . . . .\n 1  w w w w . . . .\n    a b c d e f g h\nwhite to move, ply 0\n";
        assert_eq!(render(&Position::start(BoardSize::Eight)), want);
        assert!(render(&Position::start(BoardSize::Ten)).starts_with("10  . . . . . b b b b b\n"));
    }
}
