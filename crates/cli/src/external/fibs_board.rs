//! The FIBS `board:` line (FIBS "boardstyle 3"), as GNU Backgammon sends it to an external
//! player: read into a [`FibsBoard`] whose fields are checked only for shape, then turned into
//! a board seen from the player to decide.
//!
//! The fields, colon-separated (checked against what gnubg 1.07 sends, see `docs/gnubg.md`):
//!
//! ```text
//! board:You:Opp:matchlen:yourscore:oppscore:<26 board fields>:turn:dice1:dice2:oppdice1:
//! oppdice2:cube:youmaydouble:oppmaydouble:wasdoubled:color:direction:home:bar:youroff:
//! oppoff:youronbar:opponbar:canmove:forcedmove:didcrawford:redoubles[:...]
//! ```
//!
//! Board field 0 and 25 are the bars, 1..=24 the points; a positive count is a checker of
//! `color` 1 (which gnubg gives the player to decide), a negative one the opponent's.
//! `direction` -1 says "You" moves from 24 down to 1, so field `i` is the decider's point `i`;
//! with +1 the numbering is reversed. gnubg adds its own meaning to `wasdoubled`: non-zero
//! while a double waits for an answer (the sign says who doubled). Trailing fields beyond
//! `redoubles` (gnubg appends some) are ignored.
//!
//! gnubg 1.07 labels the names and scores by seat, not by role: at its external player's
//! moves and before its rolls `You`/`yourscore` are seat 0's, at its take decisions seat
//! 1's. The board itself is always from the external player's side. [`FibsBoard::parse`]
//! keeps the fields as sent; the caller swaps the scores (see `session`).

use std::fmt;
use tabula_tables::{Position, PositionError};

/// The fields of one `board:` line, checked for shape only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FibsBoard {
    /// The name of "You", the player to decide (gnubg's label; not relied upon).
    pub player: String,
    /// The opponent's name.
    pub opponent: String,
    /// The match length; 0 (or FIBS's 9999) for money.
    pub match_length: u32,
    /// "You"'s score.
    pub score: u32,
    /// The opponent's score.
    pub opponent_score: u32,
    /// The 26 board fields as sent: bars at 0 and 25, signed by colour.
    pub fields: [i32; 26],
    /// Whose turn: the colour on roll (1 or -1; 0 when the game is over).
    pub turn: i32,
    /// "You"'s dice (0 0 before rolling).
    pub dice: [u32; 2],
    /// The opponent's dice.
    pub opponent_dice: [u32; 2],
    /// The cube value.
    pub cube: u32,
    /// Whether "You" may double.
    pub may_double: bool,
    /// Whether the opponent may double.
    pub opponent_may_double: bool,
    /// Non-zero while a double waits for an answer.
    pub was_doubled: i32,
    /// "You"'s colour, 1 or -1.
    pub color: i32,
    /// "You"'s direction: -1 moves from 24 to 1.
    pub direction: i32,
    /// "You"'s checkers borne off.
    pub off: u32,
    /// The opponent's checkers borne off.
    pub opponent_off: u32,
    /// "You"'s checkers on the bar.
    pub bar: u32,
    /// The opponent's checkers on the bar.
    pub opponent_bar: u32,
    /// The two flags after `forcedmove` (FIBS's non-Crawford and post-Crawford marks): a
    /// game with a player one away is the Crawford game when both are zero.
    pub crawford_flags: [i64; 2],
}

/// Why a line is not a usable board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FibsBoardError {
    /// The line does not start with `board:`.
    NotABoard,
    /// Fewer fields than the format has.
    TooFewFields(usize),
    /// A field that should be a number is not.
    NotANumber {
        /// The field's index (0 is `board`).
        index: usize,
        /// What it holds.
        text: String,
    },
    /// A value outside its range (a die of 7, a colour of 2).
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// Its value.
        value: i64,
    },
    /// The checkers do not make a board.
    Position(PositionError),
}

impl fmt::Display for FibsBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FibsBoardError::NotABoard => f.write_str("the line does not start with `board:`"),
            FibsBoardError::TooFewFields(n) => {
                write!(f, "a board line has at least {MIN_FIELDS} fields, not {n}")
            }
            FibsBoardError::NotANumber { index, text } => {
                write!(f, "field {index} should be a number, not {text:?}")
            }
            FibsBoardError::OutOfRange { field, value } => {
                write!(f, "{field} cannot be {value}")
            }
            FibsBoardError::Position(e) => write!(f, "not a board: {e}"),
        }
    }
}

impl std::error::Error for FibsBoardError {}

/// `board`, two names, three numbers, 26 board fields, then 21 numbers from `turn` to
/// `redoubles` (indices 32 to 52).
const MIN_FIELDS: usize = 53;

impl FibsBoard {
    /// Reads one line (without its newline and NUL).
    pub fn parse(line: &str) -> Result<FibsBoard, FibsBoardError> {
        let parts: Vec<&str> = line.trim().split(':').collect();
        if parts.first() != Some(&"board") {
            return Err(FibsBoardError::NotABoard);
        }
        if parts.len() < MIN_FIELDS {
            return Err(FibsBoardError::TooFewFields(parts.len()));
        }
        let num = |index: usize| -> Result<i64, FibsBoardError> {
            parts[index]
                .trim()
                .parse::<i64>()
                .map_err(|_| FibsBoardError::NotANumber {
                    index,
                    text: parts[index].to_string(),
                })
        };
        let ranged = |index: usize, field: &'static str, lo: i64, hi: i64| {
            let value = num(index)?;
            if (lo..=hi).contains(&value) {
                Ok(value)
            } else {
                Err(FibsBoardError::OutOfRange { field, value })
            }
        };
        let mut fields = [0i32; 26];
        for (i, f) in fields.iter_mut().enumerate() {
            *f = ranged(6 + i, "a board field", -15, 15)? as i32;
        }
        let die = |index| ranged(index, "a die", 0, 6).map(|v| v as u32);
        let flag = |index, field| ranged(index, field, 0, 1).map(|v| v == 1);
        let count = |index, field| ranged(index, field, 0, 15).map(|v| v as u32);
        let sign = |index, field| {
            let v = ranged(index, field, -1, 1)?;
            if v == 0 {
                Err(FibsBoardError::OutOfRange { field, value: 0 })
            } else {
                Ok(v as i32)
            }
        };
        Ok(FibsBoard {
            player: parts[1].to_string(),
            opponent: parts[2].to_string(),
            match_length: ranged(3, "the match length", 0, 9999)? as u32,
            score: ranged(4, "a score", 0, 9999)? as u32,
            opponent_score: ranged(5, "a score", 0, 9999)? as u32,
            fields,
            turn: ranged(32, "the turn", -1, 1)? as i32,
            dice: [die(33)?, die(34)?],
            opponent_dice: [die(35)?, die(36)?],
            cube: ranged(37, "the cube", 1, 1 << 15)? as u32,
            may_double: flag(38, "may double")?,
            opponent_may_double: flag(39, "may double")?,
            was_doubled: ranged(40, "was doubled", -1, 1)? as i32,
            color: sign(41, "the colour")?,
            direction: sign(42, "the direction")?,
            off: count(45, "checkers off")?,
            opponent_off: count(46, "checkers off")?,
            bar: count(47, "checkers on the bar")?,
            opponent_bar: count(48, "checkers on the bar")?,
            crawford_flags: [num(51)?, num(52)?],
        })
    }

    /// Whether this is the Crawford game, read as gnubg reads FIBS boards: a player is one
    /// away and neither Crawford flag is set.
    pub fn is_crawford(&self) -> bool {
        let one_away = |s: u32| s + 1 == self.match_length;
        !self.is_money()
            && (one_away(self.score) || one_away(self.opponent_score))
            && self.crawford_flags == [0, 0]
    }

    /// Whether this is a money game (FIBS writes unlimited matches as 9999).
    pub fn is_money(&self) -> bool {
        self.match_length == 0 || self.match_length == 9999
    }

    /// "You"'s dice, when rolled.
    pub fn rolled(&self) -> Option<(u8, u8)> {
        match self.dice {
            [a, b] if a > 0 && b > 0 => Some((a as u8, b as u8)),
            _ => None,
        }
    }

    /// The board seen from "You": the field of "You"'s point `p` is `p` when moving down
    /// (direction -1), `25 - p` otherwise; "You"'s checkers are those of sign `color`.
    pub fn position(&self) -> Result<Position, FibsBoardError> {
        let field = |p: usize| {
            let raw = if self.direction < 0 {
                self.fields[p]
            } else {
                self.fields[25 - p]
            };
            raw * self.color
        };
        // The bars map like points: "You"'s bar is where "You" enters from (25 when moving
        // down), the opponent's at the other end.
        let mut pips = [0i8; 26];
        for (p, pip) in pips.iter_mut().enumerate() {
            *pip = field(p) as i8;
        }
        Position::from_parts(pips, 0).map_err(FibsBoardError::Position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sent by gnubg 1.07 to the external player 1 after gnubg opened 24/14 and the external
    /// player rolled 5-2.
    const AFTER_OPENING: &str = "board:gnubg:root:3:0:0:0:-1:0:0:0:0:5:0:3:0:0:-1:-5:5:0:0:0:\
        -3:0:-5:0:0:0:0:2:0:1:2:5:2:5:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    #[test]
    fn reads_what_gnubg_sends() {
        let b = FibsBoard::parse(AFTER_OPENING).unwrap();
        assert_eq!(b.match_length, 3);
        assert_eq!(b.dice, [2, 5]);
        assert_eq!(b.cube, 1);
        assert!(b.may_double && b.opponent_may_double);
        assert_eq!(b.was_doubled, 0);
        let p = b.position().unwrap();
        assert_eq!(p.mover_on(6), 5);
        assert_eq!(p.mover_on(24), 2);
        // The opponent's checkers, numbered from the decider's side.
        assert_eq!(p.opponent_on(1), 1);
        assert_eq!(p.opponent_on(11), 1);
        assert_eq!(p.opponent_on(12), 5);
        assert_eq!(p.mover_off(), 0);
        assert_eq!(p.opponent_off(), 0);
    }

    #[test]
    fn reversed_direction_and_colour_give_the_same_board() {
        let b = FibsBoard::parse(AFTER_OPENING).unwrap();
        let mut r = b.clone();
        r.color = -1;
        r.direction = 1;
        for i in 0..26 {
            r.fields[i] = -b.fields[25 - i];
        }
        assert_eq!(r.position().unwrap(), b.position().unwrap());
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(FibsBoard::parse("hello"), Err(FibsBoardError::NotABoard));
        assert!(matches!(
            FibsBoard::parse("board:a:b:3"),
            Err(FibsBoardError::TooFewFields(4))
        ));
        // Found by the fuzzer (crates/fuzz): 52 fields, `redoubles` missing, read past the end.
        let short = AFTER_OPENING.rsplit_once(':').unwrap().0;
        assert_eq!(
            FibsBoard::parse(short),
            Err(FibsBoardError::TooFewFields(52))
        );
        let bad_die = AFTER_OPENING.replacen(":1:2:5:2:5:", ":1:9:5:2:5:", 1);
        assert!(matches!(
            FibsBoard::parse(&bad_die),
            Err(FibsBoardError::OutOfRange { field: "a die", .. })
        ));
        let word = AFTER_OPENING.replacen(":3:0:0:", ":x:0:0:", 1);
        assert!(matches!(
            FibsBoard::parse(&word),
            Err(FibsBoardError::NotANumber { index: 3, .. })
        ));
        let crowded = AFTER_OPENING.replacen(":0:-1:0:", ":0:-1:9:", 1);
        assert!(FibsBoard::parse(&crowded).unwrap().position().is_err());
    }
}
