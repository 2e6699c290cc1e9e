//! Move text: `from-to` (`c3-e5`), or a jump path (`c3:e5:g7`), accepted on input and
//! written on request.
//!
//! Reading is two steps, so that errors say the right thing: [`MoveText::from_str`] checks
//! the form only ([`MoveParseError`]); [`Position::check_move`] checks it against a position
//! ([`crate::IllegalMove`]). [`Position::parse_move`] does both.

use crate::moves::{IllegalMove, Move};
use crate::position::Position;
use crate::square::{Square, SquareError};
use std::str::FromStr;
use thiserror::Error;

/// Move text as read, not yet checked against a position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// `from-to`: a step or any chain of jumps between the two squares.
    FromTo([Square; 2]),
    /// `a:b:c..`: a step (two neighbouring squares) or the squares a chain of jumps lands on,
    /// the start first. Revisits are allowed.
    Path(Vec<Square>),
}

impl MoveText {
    /// The squares written, start first, end last; at least two.
    pub fn squares(&self) -> &[Square] {
        match self {
            MoveText::FromTo(pair) => pair,
            MoveText::Path(path) => path,
        }
    }
}

/// Text that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveParseError {
    /// Nothing but white space.
    #[error("no move given: write from-to (c3-e5) or a jump path (c3:e5:g7)")]
    Empty,
    /// Not two squares joined by `-`, nor squares joined by `:`.
    #[error("{0:?} is not a move: write from-to (c3-e5) or a jump path (c3:e5:g7)")]
    Malformed(String),
    /// A part that is not a square.
    #[error("in {text:?}: {source}")]
    Square {
        /// The whole text.
        text: String,
        /// Why the part is not a square.
        #[source]
        source: SquareError,
    },
}

/// Why move text could not be read as a legal move of a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The text is malformed.
    #[error(transparent)]
    Parse(#[from] MoveParseError),
    /// The text is well formed but the move is not legal here.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

impl FromStr for MoveText {
    type Err = MoveParseError;

    fn from_str(s: &str) -> Result<MoveText, MoveParseError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(MoveParseError::Empty);
        }
        let square = |part: &str| {
            part.trim()
                .parse::<Square>()
                .map_err(|source| MoveParseError::Square {
                    text: text.to_string(),
                    source,
                })
        };
        let malformed = || MoveParseError::Malformed(text.to_string());
        match (text.contains('-'), text.contains(':')) {
            (true, false) => {
                let (a, b) = text.split_once('-').expect("contains '-'");
                if b.contains('-') {
                    return Err(malformed());
                }
                Ok(MoveText::FromTo([square(a)?, square(b)?]))
            }
            (false, true) => {
                let path = text.split(':').map(square).collect::<Result<Vec<_>, _>>()?;
                Ok(MoveText::Path(path))
            }
            _ => Err(malformed()),
        }
    }
}

/// How [`format_move`] writes a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathStyle {
    /// Always `from-to`.
    FromTo,
    /// Jumps as the squares of one shortest chain (`c3:e5:g7`, see
    /// [`Position::jump_path`]); steps as `from-to`.
    Path,
}

/// The text of `mv`, a legal move of `position`. With [`PathStyle::Path`] a jump is written
/// as its chain; a move that is no jump (a step, or not legal at all) as `from-to`.
pub fn format_move(position: &Position, mv: Move, style: PathStyle) -> String {
    if style == PathStyle::Path {
        if let Some(path) = position.jump_path(mv.from, mv.to) {
            return path
                .iter()
                .map(|sq| sq.to_string())
                .collect::<Vec<_>>()
                .join(":");
        }
    }
    mv.to_string()
}

impl Position {
    /// Reads move text and checks it against the position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Ok(self.check_move(&text.parse()?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_text_is_told_apart_from_bad_squares() {
        assert_eq!("".parse::<MoveText>(), Err(MoveParseError::Empty));
        for bad in ["c3", "c3-e5-g7", "c3-e5:g7", "c3 e5"] {
            assert!(
                matches!(bad.parse::<MoveText>(), Err(MoveParseError::Malformed(_))),
                "{bad}"
            );
        }
        for bad in ["c3-k5", "c3:e5:", "c3-e11", ":c3"] {
            assert!(
                matches!(bad.parse::<MoveText>(), Err(MoveParseError::Square { .. })),
                "{bad}"
            );
        }
        let ok: MoveText = " C3:e5:g7 ".parse().unwrap();
        assert_eq!(ok.squares().len(), 3);
        assert_eq!(ok.squares()[2].to_string(), "g7");
    }
}
