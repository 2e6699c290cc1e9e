//! eXtreme Gammon's XGID: a position with its cube, dice and score, in one line of text.
//!
//! `XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10` has ten fields separated by `:`
//! (the `XGID=` prefix is optional on input and always written on output):
//!
//! 1. The board, 26 characters, always from the point of view of the player at the bottom
//!    of XG's screen: character 0 is the top player's bar, characters 1..=24 are the points
//!    numbered from the bottom player's side (the bottom player moves from 24 towards 1),
//!    character 25 is the bottom player's bar. `A`..`O` are 1..15 checkers of the bottom
//!    player, `a`..`o` of the top player, `-` an empty point.
//! 2. log2 of the cube value.
//! 3. Cube position: `1` the bottom player owns it, `-1` the top player, `0` centred.
//! 4. Turn: `1` the bottom player is on roll, `-1` the top player.
//! 5. Dice: `00` not rolled yet (to roll or to double), `D` the player on roll has doubled
//!    and the opponent must take or pass, `B` beavered, `R` raccooned, or the two dice
//!    rolled (`52`).
//! 6. The bottom player's score; 7. the top player's score.
//! 8. In a match, `1` when this is the Crawford game, else `0`; in money play, bit 0 is
//!    the Jacoby rule and bit 1 beavers allowed.
//! 9. Match length, `0` for money play.
//! 10. log2 of the maximum cube value.
//!
//! Tabula's mapping: the player on roll is the player the turn field names, and
//! [`Xgid::position`] is the board seen from that player, like every [`Position`]. When the
//! bottom player is on roll the XGID's point `k` is Tabula's point `k`; when the top player
//! is, Tabula's point `k` is the XGID's `25 - k` and the cases swap. With `D`, `B` or `R`
//! the player on roll is still the turn field's player: the one who doubled (so the
//! decision belongs to the other). Cube owner and scores are kept relative to the player
//! on roll, and [`Xgid::on_roll`] remembers which side of the XGID that player was, so that
//! [`Xgid::encode`] gives back the text that was parsed (in canonical form). GNU
//! Backgammon's `set xgid` reads XGIDs the same way (checked on 500 cases, see
//! `tests/fixtures/xgid_gnubg.txt`).

use crate::position::{Position, PositionError, BAR, CHECKERS};
use std::fmt;
use std::str::FromStr;
use tabula_core::DiceRoll;
use thiserror::Error;

/// Which side of XG's screen a player sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The bottom player: upper-case letters, turn `1`.
    Bottom,
    /// The top player: lower-case letters, turn `-1`.
    Top,
}

/// Who owns the cube, relative to the player on roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CubeOwner {
    /// Nobody: the cube is in the middle.
    Centred,
    /// The player on roll.
    OnRoll,
    /// The opponent of the player on roll.
    Opponent,
}

/// The dice field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum XgidDice {
    /// `00`: the player on roll has not rolled (may double or roll).
    ToRoll,
    /// `D`: the player on roll has doubled; the opponent must take or pass.
    Doubled,
    /// `B`: the double was beavered.
    Beavered,
    /// `R`: the beaver was raccooned.
    Raccooned,
    /// The dice rolled, in the order written.
    Rolled(DiceRoll),
}

/// A parsed XGID. Build one with [`Xgid::parse`] or by hand, and write it with
/// [`Xgid::encode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Xgid {
    /// The board from the player on roll.
    pub position: Position,
    /// Which side of the XGID the player on roll is (the turn field).
    pub on_roll: Side,
    /// log2 of the cube value (0..=15).
    pub cube_log2: u8,
    /// Who owns the cube.
    pub cube_owner: CubeOwner,
    /// Dice or cube action.
    pub dice: XgidDice,
    /// Scores: `[player on roll, opponent]`.
    pub score: [u16; 2],
    /// Match length, 0 for money play.
    pub match_length: u16,
    /// In a match: this is the Crawford game.
    pub crawford: bool,
    /// In money play: the Jacoby rule applies.
    pub jacoby: bool,
    /// In money play: beavers are allowed.
    pub beavers: bool,
    /// log2 of the maximum cube value (0..=15).
    pub max_cube_log2: u8,
}

/// Why text is not an XGID.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum XgidError {
    /// Not ten `:`-separated fields.
    #[error("an XGID has 10 fields separated by ':', not {0}")]
    FieldCount(usize),
    /// The board field is not 26 characters.
    #[error("the XGID board has 26 characters, not {0}")]
    BoardLength(usize),
    /// A character that is not `-`, `A`..`O` or `a`..`o`, or a checker on the wrong bar.
    #[error("XGID board character {index} is {found:?}: {why}")]
    BoardChar {
        /// Position in the board field (0..=25).
        index: usize,
        /// The character.
        found: char,
        /// What is wrong.
        why: &'static str,
    },
    /// The board is impossible (too many checkers).
    #[error("XGID board: {0}")]
    Board(PositionError),
    /// A numeric field is not a number in range.
    #[error("XGID field {field} is {found:?}: {why}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// The text found.
        found: String,
        /// What was expected.
        why: &'static str,
    },
    /// The dice field is none of `00`, `D`, `B`, `R` or two dice.
    #[error("XGID dice are 00, D, B, R or two dice 1 to 6, not {0:?}")]
    Dice(String),
    /// Scores that the match cannot have.
    #[error("score {0}-{1} is impossible in a {2}-point match")]
    Score(u16, u16, u16),
    /// The Crawford flag where no player is 1-away, or both are.
    #[error("a Crawford game needs exactly one player 1-away")]
    Crawford,
    /// The cube is above the maximum cube.
    #[error("cube 2^{cube} is above the maximum cube 2^{max}")]
    CubeAboveMax {
        /// log2 of the cube.
        cube: u8,
        /// log2 of the maximum.
        max: u8,
    },
}

/// Checker counts of one side, gnubg's layout (index 0..=23 points 1..=24, 24 the bar).
type Counts = [u8; 25];

fn number<T: FromStr>(field: &'static str, text: &str, why: &'static str) -> Result<T, XgidError> {
    let err = || XgidError::Field {
        field,
        found: text.to_string(),
        why,
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    text.parse().map_err(|_| err())
}

fn sign(field: &'static str, text: &str, allow_zero: bool) -> Result<i8, XgidError> {
    match text {
        "1" => Ok(1),
        "-1" => Ok(-1),
        "0" if allow_zero => Ok(0),
        _ => Err(XgidError::Field {
            field,
            found: text.to_string(),
            why: if allow_zero {
                "expected 1, 0 or -1"
            } else {
                "expected 1 or -1"
            },
        }),
    }
}

impl Xgid {
    /// An XGID of `position` (seen from the player on roll, who is at the bottom), cube
    /// centred at 1, not rolled, money play with the Jacoby rule and beavers, maximum cube
    /// 2^10.
    pub fn new(position: Position) -> Xgid {
        Xgid {
            position,
            on_roll: Side::Bottom,
            cube_log2: 0,
            cube_owner: CubeOwner::Centred,
            dice: XgidDice::ToRoll,
            score: [0, 0],
            match_length: 0,
            crawford: false,
            jacoby: true,
            beavers: true,
            max_cube_log2: 10,
        }
    }

    /// Parses an XGID, with or without the `XGID=` prefix (surrounding whitespace ignored).
    pub fn parse(text: &str) -> Result<Xgid, XgidError> {
        let text = text.trim();
        let body = text
            .strip_prefix("XGID=")
            .or_else(|| text.strip_prefix("xgid="))
            .unwrap_or(text);
        let fields: Vec<&str> = body.split(':').collect();
        if fields.len() != 10 {
            return Err(XgidError::FieldCount(fields.len()));
        }
        let (bottom, top) = parse_board(fields[0])?;
        let cube_log2: u8 = number("cube", fields[1], "expected log2 of the cube, 0 to 15")?;
        let cube_position = sign("cube position", fields[2], true)?;
        let turn = sign("turn", fields[3], false)?;
        let dice = parse_dice(fields[4])?;
        let score_bottom: u16 = number("score", fields[5], "expected a score")?;
        let score_top: u16 = number("score", fields[6], "expected a score")?;
        let rules: u8 = number("Crawford/Jacoby", fields[7], "expected 0 to 3")?;
        let match_length: u16 = number("match length", fields[8], "expected a length")?;
        let max_cube_log2: u8 = number("maximum cube", fields[9], "expected 0 to 15")?;
        let on_roll = if turn == 1 { Side::Bottom } else { Side::Top };
        let (mover, opponent) = match on_roll {
            Side::Bottom => (&bottom, &top),
            Side::Top => (&top, &bottom),
        };
        let position = Position::from_counts(mover, opponent).map_err(XgidError::Board)?;
        let cube_owner = match cube_position * turn {
            0 => CubeOwner::Centred,
            1 => CubeOwner::OnRoll,
            _ => CubeOwner::Opponent,
        };
        let score = match on_roll {
            Side::Bottom => [score_bottom, score_top],
            Side::Top => [score_top, score_bottom],
        };
        let in_match = match_length > 0;
        if rules > if in_match { 1 } else { 3 } {
            return Err(XgidError::Field {
                field: "Crawford/Jacoby",
                found: fields[7].to_string(),
                why: "expected 0 or 1 in a match, 0 to 3 in money play",
            });
        }
        let xgid = Xgid {
            position,
            on_roll,
            cube_log2,
            cube_owner,
            dice,
            score,
            match_length,
            crawford: in_match && rules == 1,
            jacoby: !in_match && rules & 1 == 1,
            beavers: !in_match && rules & 2 == 2,
            max_cube_log2,
        };
        xgid.validate()?;
        Ok(xgid)
    }

    /// Checks the fields that text cannot get wrong by syntax alone: cube sizes, scores and
    /// the Crawford flag against the match length, and rules flags against the mode.
    pub fn validate(&self) -> Result<(), XgidError> {
        for (field, value) in [
            ("cube", self.cube_log2),
            ("maximum cube", self.max_cube_log2),
        ] {
            if value > 15 {
                return Err(XgidError::Field {
                    field,
                    found: value.to_string(),
                    why: "expected 0 to 15",
                });
            }
        }
        if self.cube_log2 > self.max_cube_log2 {
            return Err(XgidError::CubeAboveMax {
                cube: self.cube_log2,
                max: self.max_cube_log2,
            });
        }
        let [a, b] = self.score;
        let length = self.match_length;
        if length > 0 {
            if a >= length || b >= length {
                return Err(XgidError::Score(a, b, length));
            }
            if self.crawford && (a == length - 1) == (b == length - 1) {
                return Err(XgidError::Crawford);
            }
            if self.jacoby || self.beavers {
                return Err(XgidError::Field {
                    field: "Crawford/Jacoby",
                    found: format!("jacoby {} beavers {}", self.jacoby, self.beavers),
                    why: "the Jacoby rule and beavers are for money play",
                });
            }
        } else if self.crawford {
            return Err(XgidError::Crawford);
        }
        Ok(())
    }

    /// The XGID text, with the `XGID=` prefix.
    pub fn encode(&self) -> String {
        let [mover, opponent] = self.position.to_counts();
        let (bottom, top) = match self.on_roll {
            Side::Bottom => (&mover, &opponent),
            Side::Top => (&opponent, &mover),
        };
        let mut board = String::with_capacity(26);
        let letter = |count: u8, base: u8| (base + count - 1) as char;
        for index in 0..26 {
            // A point holds checkers of one side at most; the bars belong to one side each.
            let (b, t) = match index {
                0 => (0, top[24]),
                25 => (bottom[24], 0),
                k => (bottom[k - 1], top[24 - k]),
            };
            board.push(match (b, t) {
                (0, 0) => '-',
                (0, t) => letter(t, b'a'),
                (b, _) => letter(b, b'A'),
            });
        }
        let turn: i8 = match self.on_roll {
            Side::Bottom => 1,
            Side::Top => -1,
        };
        let cube_position = match self.cube_owner {
            CubeOwner::Centred => 0,
            CubeOwner::OnRoll => turn,
            CubeOwner::Opponent => -turn,
        };
        let dice = match self.dice {
            XgidDice::ToRoll => "00".to_string(),
            XgidDice::Doubled => "D".to_string(),
            XgidDice::Beavered => "B".to_string(),
            XgidDice::Raccooned => "R".to_string(),
            XgidDice::Rolled(r) => format!("{}{}", r.first.value(), r.second.value()),
        };
        let (score_bottom, score_top) = match self.on_roll {
            Side::Bottom => (self.score[0], self.score[1]),
            Side::Top => (self.score[1], self.score[0]),
        };
        let rules = if self.match_length > 0 {
            u8::from(self.crawford)
        } else {
            u8::from(self.jacoby) | u8::from(self.beavers) << 1
        };
        format!(
            "XGID={board}:{}:{cube_position}:{turn}:{dice}:{score_bottom}:{score_top}:{rules}:{}:{}",
            self.cube_log2, self.match_length, self.max_cube_log2
        )
    }
}

fn parse_board(text: &str) -> Result<(Counts, Counts), XgidError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 26 {
        return Err(XgidError::BoardLength(chars.len()));
    }
    let mut bottom = [0u8; 25];
    let mut top = [0u8; 25];
    for (index, &c) in chars.iter().enumerate() {
        let bad = |why| XgidError::BoardChar {
            index,
            found: c,
            why,
        };
        let (is_bottom, count) = match c {
            '-' => continue,
            'A'..='O' => (true, c as u8 - b'A' + 1),
            'a'..='o' => (false, c as u8 - b'a' + 1),
            _ => return Err(bad("expected '-', A to O or a to o")),
        };
        match (index, is_bottom) {
            (0, true) => return Err(bad("character 0 is the top player's bar")),
            (BAR, false) => return Err(bad("character 25 is the bottom player's bar")),
            (0, false) => top[24] = count,
            (BAR, true) => bottom[24] = count,
            (k, true) => bottom[k - 1] = count,
            (k, false) => top[24 - k] = count,
        }
    }
    for (side, counts) in [("the bottom player", &bottom), ("the top player", &top)] {
        let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        if total > u32::from(CHECKERS) {
            return Err(XgidError::Board(PositionError::TooManyCheckers {
                side,
                count: total,
            }));
        }
    }
    Ok((bottom, top))
}

fn parse_dice(text: &str) -> Result<XgidDice, XgidError> {
    Ok(match text {
        "00" => XgidDice::ToRoll,
        "D" => XgidDice::Doubled,
        "B" => XgidDice::Beavered,
        "R" => XgidDice::Raccooned,
        _ => {
            let digits: Vec<u8> = text.bytes().collect();
            let bad = || XgidError::Dice(text.to_string());
            if digits.len() != 2 || !digits.iter().all(u8::is_ascii_digit) {
                return Err(bad());
            }
            XgidDice::Rolled(DiceRoll::new(digits[0] - b'0', digits[1] - b'0').map_err(|_| bad())?)
        }
    })
}

impl fmt::Display for Xgid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

impl FromStr for Xgid {
    type Err = XgidError;
    fn from_str(s: &str) -> Result<Xgid, XgidError> {
        Xgid::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENING: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10";

    #[test]
    fn the_opening_position_parses_and_round_trips() {
        let x = Xgid::parse(OPENING).unwrap();
        assert_eq!(x.position, Position::START);
        assert_eq!(x.on_roll, Side::Bottom);
        assert_eq!(x.dice, XgidDice::Rolled(DiceRoll::new(5, 2).unwrap()));
        assert_eq!(x.encode(), OPENING);
        assert_eq!(Xgid::parse(&OPENING[5..]).unwrap(), x);
    }

    #[test]
    fn the_top_player_on_roll_sees_the_board_flipped() {
        // The bottom player has a checker on its bar and one on its 3-point; the top player
        // (on roll) has borne off 13 and keeps two on the bottom player's 23-point, which is
        // its own 2-point.
        let text = "XGID=---A-------------------b-A:1:1:-1:D:3:4:0:7:10";
        let x = Xgid::parse(text).unwrap();
        assert_eq!(x.on_roll, Side::Top);
        assert_eq!(x.position.mover_on(2), 2);
        assert_eq!(x.position.mover_off(), 13);
        assert_eq!(x.position.opponent_on(22), 1);
        assert_eq!(x.position.opponent_on(0), 1);
        assert_eq!(x.cube_owner, CubeOwner::Opponent);
        assert_eq!(x.score, [4, 3]);
        assert_eq!(x.dice, XgidDice::Doubled);
        assert_eq!(x.encode(), text);
    }

    #[test]
    fn bad_xgids_are_refused_with_the_reason() {
        type Check = fn(&XgidError) -> bool;
        let cases: [(&str, Check); 9] = [
            ("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0", |e| {
                matches!(e, XgidError::FieldCount(9))
            }),
            ("-b----E-C---eE---c-e---B-:0:0:1:52:0:0:0:0:10", |e| {
                matches!(e, XgidError::BoardLength(25))
            }),
            ("Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", |e| {
                matches!(e, XgidError::BoardChar { index: 0, .. })
            }),
            ("-b----E-C---eE---c-e----P-:0:0:1:52:0:0:0:0:10", |e| {
                matches!(e, XgidError::BoardChar { index: 24, .. })
            }),
            ("-b----E-C---eE---c-e----B-:0:0:2:52:0:0:0:0:10", |e| {
                matches!(e, XgidError::Field { field: "turn", .. })
            }),
            ("-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:0:10", |e| {
                matches!(e, XgidError::Dice(_))
            }),
            ("-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", |e| {
                matches!(e, XgidError::Score(7, 0, 7))
            }),
            ("-b----E-C---eE---c-e----B-:0:0:1:00:3:0:1:7:10", |e| {
                matches!(e, XgidError::Crawford)
            }),
            ("-b----E-C---eE---c-e----B-:11:1:1:00:0:0:0:0:10", |e| {
                matches!(e, XgidError::CubeAboveMax { cube: 11, max: 10 })
            }),
        ];
        for (text, check) in cases {
            let err = Xgid::parse(text).unwrap_err();
            assert!(check(&err), "{text}: {err:?}");
        }
    }

    #[test]
    fn money_rules_flags_round_trip() {
        for rules in 0..4 {
            let text = format!("XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:{rules}:0:8");
            let x = Xgid::parse(&text).unwrap();
            assert_eq!((x.jacoby, x.beavers), (rules & 1 == 1, rules & 2 == 2));
            assert_eq!(x.encode(), text);
        }
    }
}
