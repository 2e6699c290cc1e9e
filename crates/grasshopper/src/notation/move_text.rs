//! Move text: `in 3`, `3-9`, `9-15w` (a build), `off 21`, `discard 20`, `pass`.
//!
//! Formatting always writes point numbers. Reading is case-insensitive, accepts labels
//! `A1`..`D6` for points, `enter` for `in`, `/` for `-`, and a build written without its `w`
//! (`9-15` when 15 holds the mover's single). Reading happens in two steps, so that bad text
//! and an illegal move are different errors: [`parse_move`] reads the text into a
//! [`MoveText`] (a [`ParseMoveError`] when malformed), and [`MoveText::resolve`] finds the
//! action in a position (an [`IllegalMove`] saying the rule it breaks).

use crate::{Action, IllegalMove, Point, PointError, Position};
use std::fmt;
use thiserror::Error;

/// A move as written, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// `in P`.
    Enter(Point),
    /// `P-Q`, or `P-Qw` when `wall` (a build).
    Step {
        /// The point left.
        from: Point,
        /// The point reached.
        to: Point,
        /// Written with `w`: a build.
        wall: bool,
    },
    /// `off P`.
    Off(Point),
    /// `discard P`.
    Discard(Point),
    /// `pass`.
    Pass,
}

/// Text that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing written.
    #[error("no move given (write in 3, 3-9, 9-15w, off 21, discard 20 or pass)")]
    Empty,
    /// A shape no move has.
    #[error("{0:?} is not a move (write in 3, 3-9, 9-15w, off 21, discard 20 or pass)")]
    Unknown(String),
    /// A point that does not exist.
    #[error(transparent)]
    Point(#[from] PointError),
    /// A build written between points not six apart.
    #[error("a wall is built six points on: {from}-{}w, not {from}-{to}w", .from.number() + 6)]
    BuildNotSix {
        /// The point left.
        from: Point,
        /// The point written.
        to: Point,
    },
}

/// Text that is not a move, or a move the position does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveTextError {
    /// Malformed text.
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    /// Well formed, but illegal here.
    #[error("{text} is illegal: {reason}")]
    Illegal {
        /// The move as read.
        text: MoveText,
        /// The rule it breaks.
        reason: IllegalMove,
    },
}

/// Reads a move's text.
pub fn parse_move(text: &str) -> Result<MoveText, ParseMoveError> {
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err(ParseMoveError::Empty);
    }
    if t == "pass" {
        return Ok(MoveText::Pass);
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    match words[..] {
        ["in" | "enter", p] => return Ok(MoveText::Enter(p.parse()?)),
        ["off", p] => return Ok(MoveText::Off(p.parse()?)),
        ["discard", p] => return Ok(MoveText::Discard(p.parse()?)),
        [_] => {}
        _ => return Err(ParseMoveError::Unknown(text.to_string())),
    }
    let Some((from, to)) = t.split_once(['-', '/']) else {
        return Err(ParseMoveError::Unknown(text.to_string()));
    };
    let (to, wall) = match to.strip_suffix('w') {
        Some(to) => (to, true),
        None => (to, false),
    };
    let (from, to): (Point, Point) = (from.parse()?, to.parse()?);
    if wall && from.plus_six() != Some(to) {
        return Err(ParseMoveError::BuildNotSix { from, to });
    }
    Ok(MoveText::Step { from, to, wall })
}

impl MoveText {
    /// The action this text names in `pos`, or the rule it breaks there.
    pub fn resolve(self, pos: &Position) -> Result<Action, MoveTextError> {
        let action = match self {
            MoveText::Enter(to) => Action::Enter { to },
            MoveText::Step { from, to, wall } => {
                let onto_own_single =
                    from.plus_six() == Some(to) && pos.singles(pos.turn()) & to.bit() != 0;
                if wall || onto_own_single {
                    Action::Build { from }
                } else {
                    Action::Advance { from, to }
                }
            }
            MoveText::Off(at) => Action::BearOff { at },
            MoveText::Discard(at) => Action::Discard { at },
            MoveText::Pass => Action::Pass,
        };
        pos.check(action)
            .map_err(|reason| MoveTextError::Illegal { text: self, reason })?;
        Ok(action)
    }
}

impl Position {
    /// The legal action a move text names here.
    pub fn parse_move(&self, text: &str) -> Result<Action, MoveTextError> {
        parse_move(text)?.resolve(self)
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveText::Enter(to) => write!(f, "in {to}"),
            MoveText::Step { from, to, wall } => {
                write!(f, "{from}-{to}{}", if wall { "w" } else { "" })
            }
            MoveText::Off(at) => write!(f, "off {at}"),
            MoveText::Discard(at) => write!(f, "discard {at}"),
            MoveText::Pass => f.write_str("pass"),
        }
    }
}

impl From<Action> for MoveText {
    fn from(a: Action) -> MoveText {
        match a {
            Action::Enter { to } => MoveText::Enter(to),
            Action::Advance { from, to } => MoveText::Step {
                from,
                to,
                wall: false,
            },
            Action::Build { from } => MoveText::Step {
                from,
                to: from.plus_six().expect("a build starts outside D"),
                wall: true,
            },
            Action::BearOff { at } => MoveText::Off(at),
            Action::Discard { at } => MoveText::Discard(at),
            Action::Pass => MoveText::Pass,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        MoveText::from(*self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(n: u8) -> Point {
        Point::new(n).unwrap()
    }

    #[test]
    fn every_kind_of_move_is_written_and_read_back() {
        let cases = [
            (Action::Enter { to: pt(3) }, "in 3"),
            (
                Action::Advance {
                    from: pt(3),
                    to: pt(9),
                },
                "3-9",
            ),
            (Action::Build { from: pt(9) }, "9-15w"),
            (Action::BearOff { at: pt(21) }, "off 21"),
            (Action::Discard { at: pt(20) }, "discard 20"),
            (Action::Pass, "pass"),
        ];
        for (action, text) in cases {
            assert_eq!(action.to_string(), text);
            assert_eq!(parse_move(text).unwrap(), MoveText::from(action));
        }
    }

    #[test]
    fn labels_and_spellings_are_accepted_on_input() {
        assert_eq!(parse_move("IN A3").unwrap(), MoveText::Enter(pt(3)));
        assert_eq!(parse_move("enter 3").unwrap(), MoveText::Enter(pt(3)));
        assert_eq!(parse_move("a4/b4").unwrap(), parse_move("4-10").unwrap());
        assert_eq!(parse_move("B3-C3W").unwrap(), parse_move("9-15w").unwrap());
        assert_eq!(parse_move("off D3").unwrap(), MoveText::Off(pt(21)));
        assert_eq!(parse_move(" Pass ").unwrap(), MoveText::Pass);
    }

    #[test]
    fn malformed_text_says_why() {
        assert_eq!(parse_move(""), Err(ParseMoveError::Empty));
        assert!(matches!(
            parse_move("jump 3"),
            Err(ParseMoveError::Unknown(_))
        ));
        assert!(matches!(parse_move("3"), Err(ParseMoveError::Unknown(_))));
        assert_eq!(
            parse_move("3-27"),
            Err(ParseMoveError::Point(PointError::OutOfRange(27)))
        );
        assert_eq!(
            parse_move("3-10w"),
            Err(ParseMoveError::BuildNotSix {
                from: pt(3),
                to: pt(10)
            })
        );
        assert_eq!(
            parse_move("3-10w").unwrap_err().to_string(),
            "a wall is built six points on: 3-9w, not 3-10w"
        );
    }
}
