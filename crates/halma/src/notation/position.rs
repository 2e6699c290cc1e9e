//! The position notation: `size:ranks:side:ply`, FEN-like.
//!
//! ```text
//! 8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0
//! ```
//!
//! The board size (`8` or `10`); the ranks from the top (rank 8 or 10) down to rank 1,
//! separated by `/`, each from file `a` rightwards, `w` and `b` for pieces and a number for a
//! run of empty squares; the side to move (`w` or `b`); the ply count, which may be left out
//! on input (0). One shell-safe token; input is trimmed and case-insensitive; output uses the
//! longest runs and lowercase. See `docs/notation.md` for the grammar.

use crate::bitboard::Bitboard;
use crate::position::{Position, PositionError, Setup};
use crate::square::{BadSize, BoardSize, Square};
use std::fmt;
use std::str::FromStr;
use tabula_core::{ByColor, Color};
use thiserror::Error;

/// What is wrong inside one rank field.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RankProblem {
    /// A character that is neither a piece nor a digit.
    #[error("{0:?} is neither a piece (w, b) nor a number of empty squares")]
    BadChar(char),
    /// A run of zero empty squares.
    #[error("a run of empty squares is at least 1, written without a leading 0")]
    ZeroRun,
    /// More squares than the board has files.
    #[error("it covers more than {0} files")]
    TooLong(u8),
    /// Fewer squares than the board has files.
    #[error("it covers {found} files; it must cover exactly {expected}")]
    TooShort {
        /// Files covered.
        found: u32,
        /// Files of the board.
        expected: u8,
    },
}

/// Why text is not a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionParseError {
    /// Not 3 or 4 fields.
    #[error(
        "a Grasshopper position has 3 or 4 fields separated by ':' \
         (size:ranks:side[:ply], like 8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0); found {0}"
    )]
    Fields(usize),
    /// A size other than 8 or 10.
    #[error("the size field: {0}")]
    Size(#[from] BadSize),
    /// Not as many ranks as the board has.
    #[error(
        "the board field has {found} ranks separated by '/'; a {size}x{size} board has {size}"
    )]
    RankCount {
        /// Ranks found.
        found: usize,
        /// The board.
        size: BoardSize,
    },
    /// A rank field that does not describe one rank.
    #[error("rank {rank} ({text:?}): {problem}")]
    Rank {
        /// The rank number, 1-based as on the board.
        rank: u8,
        /// The field.
        text: String,
        /// What is wrong.
        problem: RankProblem,
    },
    /// A side other than `w` or `b`.
    #[error("the side to move is {0:?}: write w or b")]
    Side(String),
    /// A ply count that is not a number.
    #[error("the ply count is {0:?}: write a whole number from 0 to 4294967295")]
    Ply(String),
    /// Well formed, but not a legal position.
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

impl FromStr for Position {
    type Err = PositionParseError;

    fn from_str(s: &str) -> Result<Position, PositionParseError> {
        let text = s.trim().to_ascii_lowercase();
        let fields: Vec<&str> = text.split(':').collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(PositionParseError::Fields(fields.len()));
        }
        let size: BoardSize = fields[0].parse()?;
        let n = size.side();
        let ranks: Vec<&str> = fields[1].split('/').collect();
        if ranks.len() != n as usize {
            return Err(PositionParseError::RankCount {
                found: ranks.len(),
                size,
            });
        }
        let mut pieces = ByColor::<Bitboard>::default();
        for (i, field) in ranks.iter().enumerate() {
            let rank = n - 1 - i as u8;
            read_rank(field, rank, n, &mut pieces).map_err(|problem| PositionParseError::Rank {
                rank: rank + 1,
                text: field.to_string(),
                problem,
            })?;
        }
        let to_move = match fields[2] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(PositionParseError::Side(other.to_string())),
        };
        let ply = match fields.get(3) {
            None => 0,
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p
                .parse()
                .map_err(|_| PositionParseError::Ply(p.to_string()))?,
            Some(p) => return Err(PositionParseError::Ply(p.to_string())),
        };
        Ok(Position::from_setup(Setup {
            size,
            pieces,
            to_move,
            ply,
        })?)
    }
}

/// Reads one rank field into `pieces`.
fn read_rank(
    field: &str,
    rank: u8,
    n: u8,
    pieces: &mut ByColor<Bitboard>,
) -> Result<(), RankProblem> {
    let mut file: u32 = 0;
    let mut run: Option<u32> = None;
    let mut place = |file: &mut u32, color: Option<Color>| -> Result<(), RankProblem> {
        if *file >= n as u32 {
            return Err(RankProblem::TooLong(n));
        }
        if let Some(c) = color {
            let sq = Square::new(*file as u8, rank).expect("file and rank below 10");
            pieces[c].0 |= 1 << sq.index();
        }
        *file += 1;
        Ok(())
    };
    let flush = |file: &mut u32, run: &mut Option<u32>| -> Result<(), RankProblem> {
        match run.take() {
            Some(0) => Err(RankProblem::ZeroRun),
            Some(k) if file.saturating_add(k) > n as u32 => Err(RankProblem::TooLong(n)),
            Some(k) => {
                *file += k;
                Ok(())
            }
            None => Ok(()),
        }
    };
    for c in field.chars() {
        match c {
            '0'..='9' => {
                // Saturate: a run longer than any board is refused by the length check.
                let d = c as u32 - '0' as u32;
                if run.is_none() && d == 0 {
                    return Err(RankProblem::ZeroRun);
                }
                run = Some(run.unwrap_or(0).saturating_mul(10).saturating_add(d));
            }
            'w' | 'b' => {
                flush(&mut file, &mut run)?;
                let color = if c == 'w' { Color::White } else { Color::Black };
                place(&mut file, Some(color))?;
            }
            other => return Err(RankProblem::BadChar(other)),
        }
    }
    flush(&mut file, &mut run)?;
    if file != n as u32 {
        return Err(RankProblem::TooShort {
            found: file,
            expected: n,
        });
    }
    Ok(())
}

impl fmt::Display for Position {
    /// The position notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write(self, f)
    }
}

/// Writes the notation of `position` (used by its `Display`).
fn write(position: &Position, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let n = position.size().side();
    write!(f, "{n}:")?;
    for rank in (0..n).rev() {
        let mut run = 0;
        for file in 0..n {
            let sq = Square::new(file, rank).expect("on the board");
            match position.piece_at(sq) {
                None => run += 1,
                Some(color) => {
                    if run > 0 {
                        write!(f, "{run}")?;
                        run = 0;
                    }
                    f.write_str(if color == Color::White { "w" } else { "b" })?;
                }
            }
        }
        if run > 0 {
            write!(f, "{run}")?;
        }
        if rank > 0 {
            f.write_str("/")?;
        }
    }
    let side = if position.to_move() == Color::White {
        "w"
    } else {
        "b"
    };
    write!(f, ":{side}:{}", position.ply())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_8: &str = "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0";
    const START_10: &str = "10:5bbbbb/6bbbb/7bbb/8bb/9b/w9/ww8/www7/wwww6/wwwww5:w:0";

    #[test]
    fn the_start_positions_are_written_as_documented() {
        assert_eq!(Position::start(BoardSize::Eight).to_string(), START_8);
        assert_eq!(Position::start(BoardSize::Ten).to_string(), START_10);
        assert_eq!(
            START_8.parse::<Position>().unwrap(),
            Position::start(BoardSize::Eight)
        );
        assert_eq!(
            START_10.parse::<Position>().unwrap(),
            Position::start(BoardSize::Ten)
        );
    }

    #[test]
    fn the_ply_count_may_be_left_out_and_input_is_case_insensitive() {
        let p: Position = " 8:4BBBB/5bbb/6bb/7b/W7/ww6/www5/wwww4:W ".parse().unwrap();
        assert_eq!(p, Position::start(BoardSize::Eight));
    }

    #[test]
    fn errors_name_the_field_and_the_reason() {
        let cases = [
            ("8:4bbbb", "3 or 4 fields"),
            (
                "9:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w",
                "8x8 or 10x10, not 9",
            ),
            ("8:4bbbb/5bbb/6bb/7b/w7/ww6/www5:w", "has 7 ranks"),
            (
                "8:4bbbx/5bbb/6bb/7b/w7/ww6/www5/wwww4:w",
                "rank 8 (\"4bbbx\"): 'x'",
            ),
            (
                "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww5:w",
                "rank 1 (\"wwww5\"): it covers more",
            ),
            (
                "8:4bbbb/5bbb/6bb/7b/w6/ww6/www5/wwww4:w",
                "rank 4 (\"w6\"): it covers 7 files",
            ),
            (
                "8:4bbbb/5bbb/6bb/7b/w07/ww6/www5/wwww4:w",
                "run of empty squares is at least 1",
            ),
            (
                "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:x",
                "side to move is \"x\"",
            ),
            // Found by the fuzzer (crates/fuzz): a run that saturates overflowed the check.
            (
                "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/w4294967296:w",
                "rank 1 (\"w4294967296\"): it covers more",
            ),
            (
                "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:-1",
                "ply count is \"-1\"",
            ),
            (
                "8:4bbbb/5bbb/6bb/7b/8/ww6/www5/wwww4:w",
                "white has 9 pieces",
            ),
            (
                "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww3b:w",
                "black has 11 pieces",
            ),
        ];
        for (text, want) in cases {
            let err = text.parse::<Position>().unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
