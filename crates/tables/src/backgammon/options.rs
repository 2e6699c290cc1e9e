//! What kind of backgammon is played: money with its optional rules, or a match.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The largest cube value, 2^15: the highest a gnubg Match ID can record. A double that would
/// pass it is not offered.
pub const MAX_CUBE: u32 = 1 << 15;

/// Money play or a match, with the rules each allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Mode {
    /// Games for money, the score carried from game to game.
    Money {
        /// A player offered the cube may redouble at once and keep it.
        beavers: bool,
        /// Gammons and backgammons count only once the cube has been turned.
        jacoby: bool,
        /// How many times an opening tie may double the stakes (0: no automatic doubles).
        automatic_doubles: u8,
        /// Stop after this many games; `None` plays on until the players stop.
        games: Option<u32>,
    },
    /// A match to `length` points.
    Match {
        /// Points needed to win, 1..=64.
        length: u8,
        /// Whether the Crawford rule is used.
        crawford: bool,
    },
}

/// Every option of a backgammon session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Money or match.
    pub mode: Mode,
    /// A backgammon with a loser's checker still on the bar counts four times, not three.
    pub bar_quadruple: bool,
}

/// Options that make no sense.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OptionsError {
    /// A match length outside 1..=64.
    #[error("a match is 1 to 64 points long, not {0}")]
    MatchLength(u32),
    /// More automatic doubles than the cube can record.
    #[error("at most 15 automatic doubles, not {0}")]
    AutomaticDoubles(u32),
}

impl Options {
    /// A match to `length` points with the Crawford rule.
    pub fn match_to(length: u32) -> Result<Options, OptionsError> {
        if !(1..=64).contains(&length) {
            return Err(OptionsError::MatchLength(length));
        }
        Ok(Options {
            mode: Mode::Match {
                length: length as u8,
                crawford: true,
            },
            bar_quadruple: false,
        })
    }

    /// Money play with beavers and the Jacoby rule, no automatic doubles, no game limit: the
    /// common club settings.
    pub fn money() -> Options {
        Options {
            mode: Mode::Money {
                beavers: true,
                jacoby: true,
                automatic_doubles: 0,
                games: None,
            },
            bar_quadruple: false,
        }
    }

    /// Checks the values; constructors above already produce valid options.
    pub fn validate(&self) -> Result<(), OptionsError> {
        match self.mode {
            Mode::Match { length, .. } if !(1..=64).contains(&length) => {
                Err(OptionsError::MatchLength(length.into()))
            }
            Mode::Money {
                automatic_doubles, ..
            } if automatic_doubles > 15 => {
                Err(OptionsError::AutomaticDoubles(automatic_doubles.into()))
            }
            _ => Ok(()),
        }
    }

    /// The match length, `None` for money.
    pub fn match_length(&self) -> Option<u8> {
        match self.mode {
            Mode::Match { length, .. } => Some(length),
            Mode::Money { .. } => None,
        }
    }

    pub(crate) fn beavers(&self) -> bool {
        matches!(self.mode, Mode::Money { beavers: true, .. })
    }

    pub(crate) fn jacoby(&self) -> bool {
        matches!(self.mode, Mode::Money { jacoby: true, .. })
    }

    pub(crate) fn automatic_doubles(&self) -> u8 {
        match self.mode {
            Mode::Money {
                automatic_doubles, ..
            } => automatic_doubles,
            Mode::Match { .. } => 0,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::money()
    }
}
