//! Position text: the board by quadrants, the side to move, the hands, the score with the
//! last scorer marked, the pass flag and the checker count.
//!
//! ```text
//! w.b.../....../....../...... b 13-13 0-0 - 14
//! ```
//!
//! Points 1-24 from left to right in four groups of six (A/B/C/D); `.` vacant, `w`/`b` a
//! single, `W`/`B` a wall. Then `w` or `b` to move; checkers in hand `white-black`; the score
//! `white-black` where `*` follows the last scorer's points and `#` the winner's; `p` when the
//! previous turn was a pass, else `-`; the checkers each player started with.

use crate::{Cell, Checkers, Position, PositionError, Setup};
use std::fmt::Write;
use tabula_core::{ByColor, Color};
use thiserror::Error;

/// Why a text is not a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionTextError {
    /// Not six fields.
    #[error(
        "a grasshopper position has 6 fields (board, turn, hands, score, pass, checkers), not {0}"
    )]
    FieldCount(usize),
    /// The board is not four groups of six.
    #[error("the board is four groups of six points separated by '/', like ....../....../....../......, not {0:?}")]
    BoardShape(String),
    /// A character that names no stack.
    #[error("point {point}: {found:?} is not a stack (write . w b W B)")]
    BoardCell {
        /// The point, 1-24.
        point: u8,
        /// The character found.
        found: char,
    },
    /// The side to move is not `w` or `b`.
    #[error("the side to move is w or b, not {0:?}")]
    Turn(String),
    /// The hands are not two counts.
    #[error("checkers in hand are written white-black, like 13-12, not {0:?}")]
    Hands(String),
    /// The score is not two counts with marks.
    #[error("the score is written white-black with * after the last scorer's points and # after the winner's, like 1*-0, not {0:?}")]
    Score(String),
    /// The pass flag is not `p` or `-`.
    #[error("the pass flag is p (the previous turn was a pass) or -, not {0:?}")]
    Pass(String),
    /// The checker count is not a number.
    #[error("the checker count is a number like 14, not {0:?}")]
    Checkers(String),
    /// Well formed, but not a legal position.
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

/// Reads a position, or the word `start` for the start with `checkers` each.
pub fn parse_position_or_start(
    text: &str,
    checkers: Checkers,
) -> Result<Position, PositionTextError> {
    if text.trim() == "start" {
        Ok(Position::start(checkers))
    } else {
        parse_position(text)
    }
}

/// Reads a position.
pub fn parse_position(text: &str) -> Result<Position, PositionTextError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, turn, hands, score, pass, checkers] = fields[..] else {
        return Err(PositionTextError::FieldCount(fields.len()));
    };
    let cells = parse_board(board)?;
    let turn = match turn {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return Err(PositionTextError::Turn(turn.to_string())),
    };
    let bad_hands = || PositionTextError::Hands(hands.to_string());
    let (hw, hb) = hands.split_once('-').ok_or_else(bad_hands)?;
    let hands = ByColor {
        white: count(hw).ok_or_else(bad_hands)?,
        black: count(hb).ok_or_else(bad_hands)?,
    };
    let (score, last_scorer, won) = parse_score(score)?;
    let passed = match pass {
        "p" => true,
        "-" => false,
        _ => return Err(PositionTextError::Pass(pass.to_string())),
    };
    let checkers = count(checkers)
        .map(u32::from)
        .ok_or_else(|| PositionTextError::Checkers(checkers.to_string()))?;
    let setup = Setup {
        checkers,
        cells,
        hands,
        score,
        last_scorer,
        won,
        turn,
        passed,
    };
    Ok(Position::from_setup(setup)?)
}

/// A decimal count of at most two digits.
fn count(s: &str) -> Option<u8> {
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_board(board: &str) -> Result<[Cell; 24], PositionTextError> {
    let groups: Vec<&str> = board.split('/').collect();
    if groups.len() != 4 || groups.iter().any(|g| g.chars().count() != 6) {
        return Err(PositionTextError::BoardShape(board.to_string()));
    }
    let mut cells = [Cell::Empty; 24];
    for (i, c) in groups.concat().chars().enumerate() {
        cells[i] = match c {
            '.' => Cell::Empty,
            'w' => Cell::Single(Color::White),
            'b' => Cell::Single(Color::Black),
            'W' => Cell::Wall(Color::White),
            'B' => Cell::Wall(Color::Black),
            found => {
                return Err(PositionTextError::BoardCell {
                    point: i as u8 + 1,
                    found,
                })
            }
        };
    }
    Ok(cells)
}

/// The score with its marks: points, last scorer, won.
fn parse_score(s: &str) -> Result<(ByColor<u8>, Option<Color>, bool), PositionTextError> {
    let bad = || PositionTextError::Score(s.to_string());
    let (w, b) = s.split_once('-').ok_or_else(bad)?;
    let mut score = ByColor::default();
    let mut last = None;
    let mut won = false;
    for (color, part) in [(Color::White, w), (Color::Black, b)] {
        let digits = part.trim_end_matches(['*', '#']);
        let marks = &part[digits.len()..];
        score[color] = count(digits).ok_or_else(bad)?;
        match marks {
            "" => {}
            "*" | "#" if last.is_none() => {
                last = Some(color);
                won = marks == "#";
            }
            _ => return Err(bad()),
        }
    }
    Ok((score, last, won))
}

/// Writes a position; [`parse_position`] reads it back to the same position.
pub fn format_position(pos: &Position) -> String {
    let setup = pos.to_setup();
    let mut s = String::with_capacity(48);
    for (i, cell) in setup.cells.iter().enumerate() {
        if i > 0 && i % 6 == 0 {
            s.push('/');
        }
        s.push(match cell {
            Cell::Empty => '.',
            Cell::Single(Color::White) => 'w',
            Cell::Single(Color::Black) => 'b',
            Cell::Wall(Color::White) => 'W',
            Cell::Wall(Color::Black) => 'B',
        });
    }
    let mark = |c: Color| match (setup.last_scorer == Some(c), setup.won) {
        (false, _) => "",
        (true, false) => "*",
        (true, true) => "#",
    };
    let turn = if setup.turn == Color::White { 'w' } else { 'b' };
    let _ = write!(
        s,
        " {turn} {}-{} {}{}-{}{} {} {}",
        setup.hands.white,
        setup.hands.black,
        setup.score.white,
        mark(Color::White),
        setup.score.black,
        mark(Color::Black),
        if setup.passed { 'p' } else { '-' },
        setup.checkers,
    );
    s
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_position(self))
    }
}

impl std::str::FromStr for Position {
    type Err = PositionTextError;
    fn from_str(s: &str) -> Result<Position, PositionTextError> {
        parse_position(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Problem;

    #[test]
    fn the_start_reads_back() {
        let start = Position::start(Checkers::FULL);
        let text = format_position(&start);
        assert_eq!(text, "....../....../....../...... w 14-14 0-0 - 14");
        assert_eq!(parse_position(&text).unwrap(), start);
        assert_eq!(
            parse_position_or_start("start", Checkers::new(4).unwrap()).unwrap(),
            Position::start(Checkers::new(4).unwrap())
        );
    }

    #[test]
    fn marks_name_the_last_scorer_and_the_winner() {
        let p = parse_position("....../....../....../w..... b 0-0 2#-1 - 8").unwrap();
        assert_eq!(p.winner(), Some(Color::White));
        assert_eq!(
            format_position(&p),
            "....../....../....../w..... b 0-0 2#-1 - 8"
        );
        let p = parse_position("....../....../....../w....b w 0-0 1-1* - 4").unwrap();
        assert_eq!(p.last_scorer(), Some(Color::Black));
        assert_eq!(p.winner(), None);
    }

    #[test]
    fn malformed_fields_say_which_field() {
        use PositionTextError::*;
        let e = |t: &str| parse_position(t).unwrap_err();
        assert!(matches!(
            e("....../....../....../...... w 14-14 0-0 -"),
            FieldCount(5)
        ));
        assert!(matches!(
            e("....../....../...... w 14-14 0-0 - 14"),
            BoardShape(_)
        ));
        assert!(matches!(
            e("..x.../....../....../...... w 14-14 0-0 - 14"),
            BoardCell {
                point: 3,
                found: 'x'
            }
        ));
        assert!(matches!(
            e("....../....../....../...... x 14-14 0-0 - 14"),
            Turn(_)
        ));
        assert!(matches!(
            e("....../....../....../...... w 14 0-0 - 14"),
            Hands(_)
        ));
        assert!(matches!(
            e("....../....../....../...... w 14-14 0*-0* - 14"),
            Score(_)
        ));
        assert!(matches!(
            e("....../....../....../...... w 14-14 0-0 q 14"),
            Pass(_)
        ));
        assert!(matches!(
            e("....../....../....../...... w 14-14 0-0 - x"),
            Checkers(_)
        ));
    }

    #[test]
    fn illegal_positions_list_every_problem() {
        let err = parse_position("W...../....../....../...... w 14-14 1-0 - 15").unwrap_err();
        let PositionTextError::Invalid(err) = err else {
            panic!("{err}")
        };
        assert!(matches!(err.problems[0], Problem::Checkers(_)));
        assert!(err
            .problems
            .contains(&Problem::WallInA("1".parse().unwrap())));
        assert!(err
            .problems
            .iter()
            .any(|p| matches!(p, Problem::Score { .. })));
        assert!(err
            .problems
            .iter()
            .any(|p| matches!(p, Problem::TooManyCheckers { .. })));
    }
}
