//! Bot levels, named the same in every command and in the server.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How strong a bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Uniformly random legal moves.
    Random,
    /// The evaluator with noise added to its judgements (a shallow search in the dice-free
    /// games).
    Easy,
    /// The evaluator at 0-ply (a deeper search in the dice-free games).
    Medium,
    /// The deepest search: 2-ply over the dice for the tables games, the largest node budget
    /// for the dice-free games.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Strong];

    /// The name used on the command line and in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Strong => "strong",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a bot level.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown bot level {0:?} (levels: random, easy, medium, strong)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.as_str() == s)
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_round_trip() {
        for l in Level::ALL {
            assert_eq!(l.as_str().parse::<Level>(), Ok(l));
        }
        assert!("grandmaster".parse::<Level>().is_err());
    }
}
