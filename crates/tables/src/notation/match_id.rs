//! gnubg's Match ID: the state of a match or money game around the board, 12 base64
//! characters.
//!
//! The key is 72 bits filled from the least significant bit of the first byte (as the
//! Position ID), written as 12 base64 characters. Bit ranges, first bit 0:
//!
//! | bits  | field |
//! |-------|-------|
//! | 0-3   | log2 of the cube value |
//! | 4-5   | cube owner: 0 = player 0, 1 = player 1, 3 = centred (2 is invalid) |
//! | 6     | player on roll (or who rolled) |
//! | 7     | this is the Crawford game |
//! | 8-10  | game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped |
//! | 11    | player whose decision it is (differs from bit 6 when a double or a resignation is offered) |
//! | 12    | a double is offered |
//! | 13-14 | resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon |
//! | 15-17 | first die, 0 = not rolled |
//! | 18-20 | second die |
//! | 21-35 | match length, 0 = money |
//! | 36-50 | player 0's score |
//! | 51-65 | player 1's score |
//! | 66    | the Jacoby rule is NOT in use |
//! | 67-71 | zero |
//!
//! Bit 66 is not in gnubg's manual (which describes 66 bits) but gnubg 1.07 writes it: it is
//! 1 in every match and in money play without the Jacoby rule (checked against gnubg's own
//! encoder; see `scripts/gen_notation_fixtures.py`). IDs from older versions have it 0, which
//! decodes as `jacoby: true`; the flag means nothing in a match.
//!
//! [`MatchId`] is a plain value with public fields, independent of Tabula's game types: the
//! game layer converts its own state to and from it. Players are gnubg's 0 and 1; which of
//! them is which colour is the game layer's choice. [`MatchId::decode`] refuses text that is
//! not a Match ID and keys that describe no possible state; [`MatchId::validate`] applies the
//! same checks to a value built by hand, and [`MatchId::encode`] of a valid value gives text
//! that decodes to the same value.

use super::base64;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Where a game stands, as gnubg records it (bits 8-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameState {
    /// No game started yet (for example before the first game of a match).
    NoGame = 0,
    /// A game is being played.
    Playing = 1,
    /// The game ended by bearing off.
    Over = 2,
    /// The game ended by an accepted resignation.
    Resigned = 3,
    /// The game ended by a dropped double.
    Dropped = 4,
}

impl GameState {
    fn from_bits(bits: u8) -> Option<GameState> {
        Some(match bits {
            0 => GameState::NoGame,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            4 => GameState::Dropped,
            _ => return None,
        })
    }

    /// True when the game has ended (over, resigned or dropped).
    pub fn is_finished(self) -> bool {
        matches!(
            self,
            GameState::Over | GameState::Resigned | GameState::Dropped
        )
    }
}

/// The match or money-game state a gnubg Match ID carries. Players are numbered 0 and 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchId {
    /// log2 of the cube value, 0..=15 (0 = cube at 1).
    pub cube_log2: u8,
    /// The player owning the cube (0 or 1), `None` when it is centred.
    pub cube_owner: Option<u8>,
    /// The player on roll, or who rolled (0 or 1).
    pub on_roll: u8,
    /// The player who must make the next decision (0 or 1): the opponent of the player on
    /// roll while a double or a resignation is offered, otherwise the player on roll.
    pub turn: u8,
    /// This game is the Crawford game.
    pub crawford: bool,
    /// Where the game stands.
    pub game_state: GameState,
    /// A double is offered.
    pub double_offered: bool,
    /// The resignation offered: 0 none, 1 single game, 2 gammon, 3 backgammon.
    pub resignation: u8,
    /// The dice in the order rolled, each 1..=6; `None` when not rolled.
    pub dice: Option<(u8, u8)>,
    /// Match length, 0 for money play (at most 32767).
    pub match_length: u16,
    /// Scores of player 0 and player 1 (each at most 32767).
    pub score: [u16; 2],
    /// The Jacoby rule is in use (money play; gnubg writes `false` in matches).
    pub jacoby: bool,
}

/// Why text is not a Match ID, or a value cannot be one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MatchIdError {
    /// Not 12 characters of gnubg's base64 alphabet.
    #[error("a Match ID is 12 base64 characters, not {0:?}")]
    Malformed(String),
    /// Bits after bit 66 are set.
    #[error("Match ID {0:?} has bits set after the last field")]
    UnusedBits(String),
    /// The cube owner field holds 2.
    #[error("cube owner code 2 is neither a player (0, 1) nor centred (3)")]
    CubeOwner,
    /// The game state field is above 4.
    #[error("game state {0} does not exist (0 to 4)")]
    GameState(u8),
    /// A die outside 1..=6, or only one die rolled.
    #[error("dice {0}-{1} are not a roll (each 1 to 6, or both 0 when not rolled)")]
    Dice(u8, u8),
    /// A player number other than 0 or 1.
    #[error("player {0} does not exist (0 or 1)")]
    Player(u8),
    /// A field too large for its bits.
    #[error("{field} {value} does not fit the Match ID (at most {max})")]
    TooLarge {
        /// The field.
        field: &'static str,
        /// Its value.
        value: u32,
        /// The largest value the ID can carry.
        max: u32,
    },
    /// A score that the match cannot have.
    #[error("score {score0}-{score1} is impossible in a {length}-point match ({why})")]
    Score {
        /// Player 0's score.
        score0: u16,
        /// Player 1's score.
        score1: u16,
        /// The match length.
        length: u16,
        /// What is wrong.
        why: &'static str,
    },
    /// The Crawford flag where no Crawford game can be.
    #[error("a Crawford game needs a match with a player 1-away")]
    Crawford,
    /// A double and a resignation offered at once.
    #[error("a double and a resignation cannot be offered at the same time")]
    DoubleAndResignation,
}

const MAX15: u32 = 0x7FFF;

impl MatchId {
    /// The state before the first game of a match of `match_length` points (0 = money):
    /// cube centred at 1, nothing rolled, player 0 on roll.
    pub fn new(match_length: u16) -> MatchId {
        MatchId {
            cube_log2: 0,
            cube_owner: None,
            on_roll: 0,
            turn: 0,
            crawford: false,
            game_state: GameState::NoGame,
            double_offered: false,
            resignation: 0,
            dice: None,
            match_length,
            score: [0, 0],
            jacoby: match_length == 0,
        }
    }

    /// The cube value, `2^cube_log2`.
    pub fn cube_value(&self) -> u32 {
        1 << self.cube_log2.min(15)
    }

    /// Checks every field: the ranges of the bit layout and the consistency rules that
    /// [`MatchId::decode`] applies.
    pub fn validate(&self) -> Result<(), MatchIdError> {
        let too_large = |field, value: u32, max| {
            if value > max {
                Err(MatchIdError::TooLarge { field, value, max })
            } else {
                Ok(())
            }
        };
        too_large("cube log2", self.cube_log2.into(), 15)?;
        too_large("resignation level", self.resignation.into(), 3)?;
        too_large("match length", self.match_length.into(), MAX15)?;
        too_large("score", self.score[0].into(), MAX15)?;
        too_large("score", self.score[1].into(), MAX15)?;
        for player in [self.on_roll, self.turn].into_iter().chain(self.cube_owner) {
            if player > 1 {
                return Err(MatchIdError::Player(player));
            }
        }
        if let Some((a, b)) = self.dice {
            if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
                return Err(MatchIdError::Dice(a, b));
            }
        }
        if self.double_offered && self.resignation > 0 {
            return Err(MatchIdError::DoubleAndResignation);
        }
        let [s0, s1] = self.score;
        let length = self.match_length;
        if length > 0 {
            let score_error = |why| MatchIdError::Score {
                score0: s0,
                score1: s1,
                length,
                why,
            };
            let reached = (s0 >= length) as u8 + (s1 >= length) as u8;
            // gnubg keeps the final score, one player at or past the length, once the last
            // game of a match has ended.
            if reached == 2 {
                return Err(score_error("both players cannot have won"));
            }
            if reached == 1 && !self.game_state.is_finished() {
                return Err(score_error("the match is already won"));
            }
            if self.crawford && s0.max(s1) < length - 1 {
                return Err(MatchIdError::Crawford);
            }
        } else if self.crawford {
            return Err(MatchIdError::Crawford);
        }
        Ok(())
    }

    /// The 12-character Match ID. Fields are masked to their bit widths, so the text decodes
    /// back to `self` exactly when [`MatchId::validate`] accepts `self`.
    pub fn encode(&self) -> String {
        let mut key: u128 = 0;
        let mut put = |start: u32, bits: u32, value: u32| {
            key |= u128::from(value & ((1 << bits) - 1)) << start;
        };
        put(0, 4, self.cube_log2.into());
        put(4, 2, self.cube_owner.map_or(3, u32::from));
        put(6, 1, self.on_roll.into());
        put(7, 1, self.crawford.into());
        put(8, 3, self.game_state as u32);
        put(11, 1, self.turn.into());
        put(12, 1, self.double_offered.into());
        put(13, 2, self.resignation.into());
        let (d1, d2) = self.dice.unwrap_or((0, 0));
        put(15, 3, d1.into());
        put(18, 3, d2.into());
        put(21, 15, self.match_length.into());
        put(36, 15, self.score[0].into());
        put(51, 15, self.score[1].into());
        put(66, 1, (!self.jacoby).into());
        let bytes: [u8; 9] = std::array::from_fn(|i| (key >> (8 * i)) as u8);
        base64::encode(&bytes)
    }

    /// The state a Match ID describes (surrounding whitespace ignored).
    pub fn decode(text: &str) -> Result<MatchId, MatchIdError> {
        let trimmed = text.trim();
        let bytes: [u8; 9] =
            base64::decode(trimmed).ok_or_else(|| MatchIdError::Malformed(text.to_string()))?;
        let key = bytes
            .iter()
            .enumerate()
            .fold(0u128, |k, (i, &b)| k | u128::from(b) << (8 * i));
        if key >> 67 != 0 {
            return Err(MatchIdError::UnusedBits(trimmed.to_string()));
        }
        let get = |start: u32, bits: u32| ((key >> start) as u32 & ((1 << bits) - 1)) as u16;
        let cube_owner = match get(4, 2) {
            3 => None,
            2 => return Err(MatchIdError::CubeOwner),
            p => Some(p as u8),
        };
        let state = get(8, 3) as u8;
        let game_state = GameState::from_bits(state).ok_or(MatchIdError::GameState(state))?;
        let dice = match (get(15, 3) as u8, get(18, 3) as u8) {
            (0, 0) => None,
            (a, b) if a == 0 || b == 0 || a > 6 || b > 6 => return Err(MatchIdError::Dice(a, b)),
            (a, b) => Some((a, b)),
        };
        let id = MatchId {
            cube_log2: get(0, 4) as u8,
            cube_owner,
            on_roll: get(6, 1) as u8,
            crawford: get(7, 1) == 1,
            game_state,
            turn: get(11, 1) as u8,
            double_offered: get(12, 1) == 1,
            resignation: get(13, 2) as u8,
            dice,
            match_length: get(21, 15),
            score: [get(36, 15), get(51, 15)],
            jacoby: get(66, 1) == 0,
        };
        id.validate()?;
        Ok(id)
    }
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

impl FromStr for MatchId {
    type Err = MatchIdError;
    fn from_str(s: &str) -> Result<MatchId, MatchIdError> {
        MatchId::decode(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnubgs_new_seven_point_match_id_decodes() {
        // `new match 7` in gnubg 1.07, player 1 won the opening roll with 2-1.
        let id = MatchId::decode("cAnlAAAAAAAE").unwrap();
        assert_eq!(
            id,
            MatchId {
                on_roll: 1,
                turn: 1,
                game_state: GameState::Playing,
                dice: Some((2, 1)),
                match_length: 7,
                jacoby: false,
                ..MatchId::new(7)
            }
        );
        assert_eq!(id.encode(), "cAnlAAAAAAAE");
    }

    #[test]
    fn every_field_lands_in_its_bits() {
        // Made with gnubg.matchid(cubeinfo(2, 1, 1, 9, (2, 4), 0, 0), posinfo(1, 0, 0, 1,
        // (5, 2))): a 2-cube owned by player 1, player 1 on roll with 5-2, 2-4 to 9.
        let id = MatchId::decode("UYkqASAAIAAE").unwrap();
        assert_eq!(id.cube_value(), 2);
        assert_eq!(id.cube_owner, Some(1));
        assert_eq!((id.on_roll, id.turn), (1, 1));
        assert_eq!(id.dice, Some((5, 2)));
        assert_eq!((id.match_length, id.score), (9, [2, 4]));
    }

    #[test]
    fn malformed_and_impossible_ids_are_refused() {
        assert!(matches!(
            MatchId::decode("cAnlAAAAAAA"),
            Err(MatchIdError::Malformed(_))
        ));
        assert!(matches!(
            MatchId::decode("cAnlAAAAAA!E"),
            Err(MatchIdError::Malformed(_))
        ));
        assert!(matches!(
            MatchId::decode("cAnlAAAAAAAI"),
            Err(MatchIdError::UnusedBits(_))
        ));
        let base = MatchId {
            game_state: GameState::Playing,
            ..MatchId::new(7)
        };
        let bad = [
            (
                MatchId {
                    dice: Some((7, 1)),
                    ..base
                },
                MatchIdError::Dice(7, 1),
            ),
            (
                MatchId {
                    score: [7, 2],
                    ..base
                },
                MatchIdError::Score {
                    score0: 7,
                    score1: 2,
                    length: 7,
                    why: "the match is already won",
                },
            ),
            (
                MatchId {
                    crawford: true,
                    ..base
                },
                MatchIdError::Crawford,
            ),
            (
                MatchId {
                    double_offered: true,
                    resignation: 1,
                    ..base
                },
                MatchIdError::DoubleAndResignation,
            ),
            (MatchId { on_roll: 2, ..base }, MatchIdError::Player(2)),
        ];
        for (id, error) in bad {
            assert_eq!(id.validate(), Err(error.clone()));
            // Encoded anyway (masked), the text is refused by decode too, except for the
            // player number, which the mask turns into a valid one.
            if !matches!(error, MatchIdError::Player(_)) {
                assert_eq!(MatchId::decode(&id.encode()), Err(error));
            }
        }
    }

    #[test]
    fn a_finished_match_keeps_its_final_score() {
        let id = MatchId {
            game_state: GameState::Resigned,
            score: [5, 0],
            ..MatchId::new(3)
        };
        assert_eq!(MatchId::decode(&id.encode()), Ok(id));
    }
}
