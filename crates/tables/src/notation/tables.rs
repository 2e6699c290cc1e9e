//! Tabula's tables position notation: one shell-safe token for any board of the tables family
//! (backgammon and Never-Finishing, trapped checkers included) with the side to move.
//!
//! ```text
//! 2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:w     backgammon, White to move
//! 15b/22/15w:0:0:0:0:b                              Never-Finishing start, Black to move
//! ```
//!
//! Grammar (input is case-insensitive and may have whitespace around the token; output is
//! lowercase and canonical):
//!
//! ```text
//! position = points ":" bar ":" bar [ ":" off ":" off ] ":" side
//! points   = field *( "/" field )       ; the fields cover exactly 24 points, White's 1 first
//! field    = run | stack | ""           ; "" is one empty point (accepted, never written)
//! run      = number                     ; that many empty points (1 or more)
//! stack    = number colour [ "+" colour ] ; 1..=15 checkers of the colour; "+c": one checker
//!                                       ; of the other colour c trapped under them
//! colour   = "w" | "b"
//! bar, off = number                     ; 0..=15: White's bar, Black's bar; White's off, Black's off
//! side     = "w" | "b"                  ; the side to move
//! number   = 1*digit
//! ```
//!
//! Points are numbered from White's side: the first field is White's 1-point (Black's
//! 24-point); Black's point `k` is White's `25 - k`. Empty points are written as runs, so the
//! board reads like a FEN rank and no field has to be counted. The borne-off counts follow
//! from the rest (fifteen minus the checkers on the points and bar) and may be left out; when
//! given they must agree. Decisions: the side to move is last, as in FEN; the token never
//! starts with `-` (a command line would take it for an option) and uses no character a shell
//! treats specially. [`TablesPosition`] holds the board from the side to move, like every
//! [`Position`], and [`fmt::Display`] writes White's view back.

use crate::position::{Position, PositionError, BAR, CHECKERS, OPP_BAR};
use std::fmt;
use std::str::FromStr;
use tabula_core::Color;
use thiserror::Error;

/// A tables-family board with the side to move: the value of a tables position text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TablesPosition {
    /// The board seen from the side to move.
    pub position: Position,
    /// The side to move.
    pub to_move: Color,
}

impl TablesPosition {
    /// A board seen from `to_move`, with that side to move.
    pub fn new(position: Position, to_move: Color) -> TablesPosition {
        TablesPosition { position, to_move }
    }

    /// A board seen from White's side, with `to_move` to move.
    pub fn from_white_view(white: Position, to_move: Color) -> TablesPosition {
        let position = match to_move {
            Color::White => white,
            Color::Black => white.flip(),
        };
        TablesPosition { position, to_move }
    }

    /// The board seen from White's side (the order the text is written in).
    pub fn white_view(&self) -> Position {
        match self.to_move {
            Color::White => self.position,
            Color::Black => self.position.flip(),
        }
    }

    /// The position after the side to move played, reaching `after` (seen from the mover, as
    /// the move generators return it): the opponent is then to move.
    pub fn after_move(&self, after: Position) -> TablesPosition {
        TablesPosition {
            position: after.flip(),
            to_move: self.to_move.other(),
        }
    }
}

/// What is wrong with one point field.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PointFieldProblem {
    /// Not a run, a stack, or empty.
    #[error("write a number of empty points (4), or a count and a colour (5w), optionally with a trapped checker (2w+b)")]
    Malformed,
    /// A colour without its count.
    #[error("write the number of checkers before the colour, like 1w")]
    MissingCount,
    /// A letter that is not a colour.
    #[error("{0:?} is not a colour: write w or b")]
    NotAColour(char),
    /// A stack count outside 1..=15.
    #[error("{0} checkers: a point holds 1 to 15 of a colour")]
    BadCount(u32),
    /// A run of no points.
    #[error("a run of empty points covers at least one point")]
    EmptyRun,
    /// A trapped checker with no trapper above it (`+b`, `0w+b`).
    #[error("a trapped checker needs at least one trapper above it")]
    TrapWithoutTrappers,
    /// A trapped checker of the trappers' own colour (`2w+w`).
    #[error("the trapped checker must be of the other colour than its trappers")]
    SameColourTrapped,
    /// A count on the trapped checker (`2w+2b`).
    #[error("a point traps exactly one checker: write +w or +b without a count")]
    TrappedCount,
}

/// Which count field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CountField {
    /// A bar.
    Bar(Color),
    /// A borne-off count.
    Off(Color),
}

impl fmt::Display for CountField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountField::Bar(c) => write!(f, "{} bar", capitalised(*c)),
            CountField::Off(c) => write!(f, "{} off", capitalised(*c)),
        }
    }
}

/// Why text is not a tables position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TablesPositionError {
    /// Not 6 (or 4) `:`-separated fields.
    #[error("a tables position has 6 fields separated by ':' (points:white bar:black bar:white off:black off:side), or 4 without the off counts; found {0}")]
    FieldCount(usize),
    /// A point field that cannot be read.
    #[error("point field {field} ({text:?}, at White's point {point}): {problem}")]
    PointField {
        /// The field's number, 1 for the first.
        field: usize,
        /// White's point where the field starts.
        point: usize,
        /// The field as written.
        text: String,
        /// What is wrong.
        problem: PointFieldProblem,
    },
    /// The point fields go past White's 24-point.
    #[error("point field {field} ({text:?}) goes past White's 24-point: the fields must cover exactly 24 points")]
    TooManyPoints {
        /// The field's number, 1 for the first.
        field: usize,
        /// The field as written.
        text: String,
    },
    /// The point fields cover fewer than 24 points.
    #[error("the point fields cover {0} points; they must cover exactly 24")]
    TooFewPoints(usize),
    /// A bar or off field that is not 0..=15.
    #[error("the {field} field is {text:?}: write a number of checkers from 0 to 15")]
    Count {
        /// Which field.
        field: CountField,
        /// The field as written.
        text: String,
    },
    /// The side to move is not `w` or `b`.
    #[error("the side to move is {0:?}: write w or b")]
    Side(String),
    /// More than fifteen checkers of a colour on the points and bar.
    #[error("{} has {count} checkers on the points and bar; at most 15", capitalised(*color))]
    TooManyCheckers {
        /// The colour.
        color: Color,
        /// Its checkers on the points (trapped ones included) and bar.
        count: u32,
    },
    /// An off count that disagrees with the rest of the board.
    #[error("{} off is {written}, but {on_board} checkers on the points and bar leave {expected} off", capitalised(*color))]
    OffMismatch {
        /// The colour.
        color: Color,
        /// The count written.
        written: u8,
        /// Its checkers on the points and bar.
        on_board: u8,
        /// Fifteen minus those.
        expected: u8,
    },
    /// The board refused by [`Position::from_parts`] (not expected after the checks above).
    #[error(transparent)]
    Board(#[from] PositionError),
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn colour_of(c: char) -> Option<Color> {
    match c {
        'w' => Some(Color::White),
        'b' => Some(Color::Black),
        _ => None,
    }
}

fn letter(color: Color) -> char {
    match color {
        Color::White => 'w',
        Color::Black => 'b',
    }
}

/// A point field read: a run of empty points, or one point's stack.
enum Field {
    Empty(usize),
    Stack {
        color: Color,
        count: u8,
        trapped: bool,
    },
}

fn number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(u32::MAX))
}

fn parse_field(text: &str) -> Result<Field, PointFieldProblem> {
    if text.is_empty() {
        return Ok(Field::Empty(1));
    }
    if let Some(n) = number(text) {
        return match n {
            0 => Err(PointFieldProblem::EmptyRun),
            n => Ok(Field::Empty(n.min(100) as usize)),
        };
    }
    let (head, tail) = match text.split_once('+') {
        Some((h, t)) => (h, Some(t)),
        None => (text, None),
    };
    let digits = head.bytes().take_while(u8::is_ascii_digit).count();
    let (count_text, colour_text) = head.split_at(digits);
    if count_text.is_empty() {
        return Err(if head.is_empty() && tail.is_some() {
            PointFieldProblem::TrapWithoutTrappers
        } else if head.len() == 1 && colour_of(head.chars().next().unwrap_or(' ')).is_some() {
            PointFieldProblem::MissingCount
        } else {
            PointFieldProblem::Malformed
        });
    }
    let mut chars = colour_text.chars();
    let color = match (chars.next(), chars.next()) {
        (Some(c), None) => colour_of(c).ok_or(PointFieldProblem::NotAColour(c))?,
        _ => return Err(PointFieldProblem::Malformed),
    };
    let count = number(count_text).unwrap_or(u32::MAX);
    if count == 0 && tail.is_some() {
        return Err(PointFieldProblem::TrapWithoutTrappers);
    }
    if !(1..=u32::from(CHECKERS)).contains(&count) {
        return Err(PointFieldProblem::BadCount(count));
    }
    let trapped = match tail {
        None => false,
        Some(t) => {
            let mut chars = t.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => match colour_of(c) {
                    Some(other) if other == color => {
                        return Err(PointFieldProblem::SameColourTrapped)
                    }
                    Some(_) => true,
                    None => return Err(PointFieldProblem::NotAColour(c)),
                },
                (Some(c), _) if c.is_ascii_digit() => return Err(PointFieldProblem::TrappedCount),
                _ => return Err(PointFieldProblem::Malformed),
            }
        }
    };
    Ok(Field::Stack {
        color,
        count: count as u8,
        trapped,
    })
}

/// Signed counts from White's side (index as in [`Position`]) and the trapped mask.
fn parse_points(text: &str) -> Result<([i8; 26], u32), TablesPositionError> {
    let mut pips = [0i8; 26];
    let mut trapped = 0u32;
    let mut point = 1usize;
    for (i, field_text) in text.split('/').enumerate() {
        let field = i + 1;
        let parsed =
            parse_field(field_text).map_err(|problem| TablesPositionError::PointField {
                field,
                point,
                text: field_text.to_string(),
                problem,
            })?;
        let width = match parsed {
            Field::Empty(n) => n,
            Field::Stack { .. } => 1,
        };
        if point + width > 25 {
            return Err(TablesPositionError::TooManyPoints {
                field,
                text: field_text.to_string(),
            });
        }
        if let Field::Stack {
            color,
            count,
            trapped: t,
        } = parsed
        {
            pips[point] = match color {
                Color::White => count as i8,
                Color::Black => -(count as i8),
            };
            if t {
                trapped |= 1 << point;
            }
        }
        point += width;
    }
    if point != 25 {
        return Err(TablesPositionError::TooFewPoints(point - 1));
    }
    Ok((pips, trapped))
}

fn parse_count(text: &str, field: CountField) -> Result<u8, TablesPositionError> {
    match number(text) {
        Some(n) if n <= u32::from(CHECKERS) => Ok(n as u8),
        _ => Err(TablesPositionError::Count {
            field,
            text: text.to_string(),
        }),
    }
}

/// Checkers of `color` on the points (trapped ones included) and bar of a White view.
fn on_board(pips: &[i8; 26], trapped: u32, color: Color) -> u32 {
    let sign = match color {
        Color::White => 1,
        Color::Black => -1,
    };
    (0..26)
        .map(|i| {
            let v = i32::from(pips[i]) * sign;
            if v > 0 {
                v as u32
            } else if v < 0 && trapped >> i & 1 == 1 {
                1
            } else {
                0
            }
        })
        .sum()
}

impl FromStr for TablesPosition {
    type Err = TablesPositionError;

    fn from_str(text: &str) -> Result<TablesPosition, TablesPositionError> {
        let lower = text.trim().to_ascii_lowercase();
        let fields: Vec<&str> = lower.split(':').collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(TablesPositionError::FieldCount(fields.len()));
        }
        let (mut pips, trapped) = parse_points(fields[0])?;
        let white_bar = parse_count(fields[1], CountField::Bar(Color::White))?;
        let black_bar = parse_count(fields[2], CountField::Bar(Color::Black))?;
        pips[BAR] = white_bar as i8;
        pips[OPP_BAR] = -(black_bar as i8);
        let side = fields[fields.len() - 1];
        let to_move = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(TablesPositionError::Side(side.to_string())),
        };
        for color in Color::ALL {
            let count = on_board(&pips, trapped, color);
            if count > u32::from(CHECKERS) {
                return Err(TablesPositionError::TooManyCheckers { color, count });
            }
        }
        if fields.len() == 6 {
            for (color, field) in [(Color::White, fields[3]), (Color::Black, fields[4])] {
                let written = parse_count(field, CountField::Off(color))?;
                let on_board = on_board(&pips, trapped, color) as u8;
                if written + on_board != CHECKERS {
                    return Err(TablesPositionError::OffMismatch {
                        color,
                        written,
                        on_board,
                        expected: CHECKERS - on_board,
                    });
                }
            }
        }
        let white = Position::from_parts(pips, trapped)?;
        Ok(TablesPosition::from_white_view(white, to_move))
    }
}

impl fmt::Display for TablesPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let white = self.white_view();
        let mut run = 0;
        let mut first = true;
        let mut sep = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            if !std::mem::take(&mut first) {
                f.write_str("/")?;
            }
            Ok(())
        };
        for point in 1..=24 {
            let v = white.pip(point);
            if v == 0 {
                run += 1;
                continue;
            }
            if run > 0 {
                sep(f)?;
                write!(f, "{run}")?;
                run = 0;
            }
            sep(f)?;
            let color = if v > 0 { Color::White } else { Color::Black };
            write!(f, "{}{}", v.unsigned_abs(), letter(color))?;
            if white.is_trapped(point) {
                write!(f, "+{}", letter(color.other()))?;
            }
        }
        if run > 0 {
            sep(f)?;
            write!(f, "{run}")?;
        }
        write!(
            f,
            ":{}:{}:{}:{}:{}",
            white.mover_on(BAR),
            white.opponent_on(OPP_BAR),
            white.mover_off(),
            white.opponent_off(),
            letter(self.to_move)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TablesPosition, TablesPositionError> {
        text.parse()
    }

    #[test]
    fn backgammon_start_round_trips() {
        let text = "2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:w";
        let tp = parse(text).unwrap();
        assert_eq!(tp.position, Position::START);
        assert_eq!(tp.to_move, Color::White);
        assert_eq!(tp.to_string(), text);
    }

    #[test]
    fn empty_fields_and_short_form_are_accepted() {
        let long = "2B/////5W//3W////5B/5W////3B//5B/////2W : 0:0:w";
        let tp = parse(long.replace(' ', "").as_str()).unwrap();
        assert_eq!(tp.position, Position::START);
        assert_eq!(
            tp.to_string(),
            "2b/4/5w/1/3w/3/5b/5w/3/3b/1/5b/4/2w:0:0:0:0:w"
        );
    }

    #[test]
    fn trapped_checkers_are_read_into_the_mask() {
        let tp = parse("2w+b/23:0:0:w").unwrap();
        assert_eq!(tp.position.pip(1), 2);
        assert!(tp.position.is_trapped(1));
        assert_eq!(tp.position.mover_off(), 13);
        assert_eq!(tp.position.opponent_off(), 14);
        assert_eq!(tp.to_string(), "2w+b/23:0:0:13:14:w");
        assert_eq!(
            parse("2w+b/23:0:0:12:14:w"),
            Err(TablesPositionError::OffMismatch {
                color: Color::White,
                written: 12,
                on_board: 2,
                expected: 13
            })
        );
    }

    #[test]
    fn field_problems_are_named() {
        let problem = |field: &str| match parse_field(field) {
            Err(p) => p,
            Ok(_) => panic!("{field} accepted"),
        };
        assert_eq!(problem("0"), PointFieldProblem::EmptyRun);
        assert_eq!(problem("0w"), PointFieldProblem::BadCount(0));
        assert_eq!(problem("16b"), PointFieldProblem::BadCount(16));
        assert_eq!(problem("w"), PointFieldProblem::MissingCount);
        assert_eq!(problem("3x"), PointFieldProblem::NotAColour('x'));
        assert_eq!(problem("+b"), PointFieldProblem::TrapWithoutTrappers);
        assert_eq!(problem("0w+b"), PointFieldProblem::TrapWithoutTrappers);
        assert_eq!(problem("2w+w"), PointFieldProblem::SameColourTrapped);
        assert_eq!(problem("2w+2b"), PointFieldProblem::TrappedCount);
        assert_eq!(problem("2wb"), PointFieldProblem::Malformed);
        assert_eq!(problem("2w+"), PointFieldProblem::Malformed);
    }
}
