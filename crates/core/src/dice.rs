//! Dice: a validated die, a roll of two dice, and the sources that produce rolls.
//!
//! A [`DiceRoll`] keeps the two dice in the order they were thrown (the opening roll needs to
//! know whose die is whose); [`Dice`] is the unordered view move generation works with.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// One die, always in 1..=6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Die(u8);

/// Why a die or a roll could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DiceError {
    /// A die value outside 1..=6.
    #[error("a die shows 1 to 6, not {0}")]
    OutOfRange(u32),
    /// Text that is not two dice such as `6-5` or `65`.
    #[error("dice are written like 6-5 or 65, not {0:?}")]
    Malformed(String),
}

impl Die {
    /// A die showing `value`, refused outside 1..=6.
    pub fn new(value: u8) -> Result<Die, DiceError> {
        if (1..=6).contains(&value) {
            Ok(Die(value))
        } else {
            Err(DiceError::OutOfRange(value.into()))
        }
    }

    /// The face value, 1..=6.
    #[inline]
    pub fn value(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Die {
    type Error = DiceError;
    fn try_from(v: u8) -> Result<Die, DiceError> {
        Die::new(v)
    }
}

impl From<Die> for u8 {
    fn from(d: Die) -> u8 {
        d.0
    }
}

/// Two dice in the order thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiceRoll {
    /// The first die (in an opening roll: White's).
    pub first: Die,
    /// The second die (in an opening roll: Black's).
    pub second: Die,
}

impl DiceRoll {
    /// A roll from two face values, refused when either is outside 1..=6.
    pub fn new(first: u8, second: u8) -> Result<DiceRoll, DiceError> {
        Ok(DiceRoll {
            first: Die::new(first)?,
            second: Die::new(second)?,
        })
    }

    /// The unordered dice to play.
    pub fn dice(self) -> Dice {
        Dice::from_values(self.first, self.second)
    }
}

impl fmt::Display for DiceRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.first.0, self.second.0)
    }
}

/// The dice a player plays: a double (four steps) or two different dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dice {
    /// Both dice show the same value: four steps of it.
    Double(Die),
    /// Two different values, `big > small`.
    Mixed {
        /// The larger die.
        big: Die,
        /// The smaller die.
        small: Die,
    },
}

impl Dice {
    /// All 21 distinct rolls, doubles first then mixed rolls by descending big die.
    pub fn all() -> impl Iterator<Item = Dice> {
        (1..=6u8).rev().flat_map(|a| {
            (1..=a)
                .rev()
                .map(move |b| Dice::from_values(Die(a), Die(b)))
        })
    }

    /// The unordered dice of two values.
    pub fn from_values(a: Die, b: Die) -> Dice {
        use std::cmp::Ordering::*;
        match a.cmp(&b) {
            Equal => Dice::Double(a),
            Greater => Dice::Mixed { big: a, small: b },
            Less => Dice::Mixed { big: b, small: a },
        }
    }

    /// The dice from two raw values, refused outside 1..=6.
    pub fn new(a: u8, b: u8) -> Result<Dice, DiceError> {
        Ok(Dice::from_values(Die::new(a)?, Die::new(b)?))
    }

    /// The larger die (either die of a double).
    pub fn big(self) -> u8 {
        match self {
            Dice::Double(d) => d.0,
            Dice::Mixed { big, .. } => big.0,
        }
    }

    /// The smaller die (either die of a double).
    pub fn small(self) -> u8 {
        match self {
            Dice::Double(d) => d.0,
            Dice::Mixed { small, .. } => small.0,
        }
    }

    /// True for a double.
    pub fn is_double(self) -> bool {
        matches!(self, Dice::Double(_))
    }

    /// Probability weight of the roll out of 36: 1 for a double, 2 otherwise.
    pub fn weight(self) -> u32 {
        if self.is_double() {
            1
        } else {
            2
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.big(), self.small())
    }
}

impl FromStr for Dice {
    type Err = DiceError;

    /// Accepts `6-5`, `65`, `6 5`, `6,5` and `5-6`.
    fn from_str(s: &str) -> Result<Dice, DiceError> {
        let digits: Vec<char> = s
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | ',' | ' ' | 'x'))
            .collect();
        let malformed = || DiceError::Malformed(s.to_string());
        if digits.len() != 2 {
            return Err(malformed());
        }
        let value = |c: char| c.to_digit(10).ok_or_else(malformed);
        let (a, b) = (value(digits[0])?, value(digits[1])?);
        let die = |v: u32| {
            u8::try_from(v)
                .map_err(|_| DiceError::OutOfRange(v))
                .and_then(Die::new)
        };
        Ok(Dice::from_values(die(a)?, die(b)?))
    }
}

/// Where rolls come from: a seeded generator, a fixed list, or (in the server) a verifiable
/// commitment scheme.
pub trait DiceSource {
    /// The next roll of two dice.
    fn roll(&mut self) -> DiceRoll;
}

/// Dice drawn from ChaCha20 seeded with a 64-bit seed: the same seed gives the same rolls on
/// every platform (the `rand` and `rand_chacha` versions are pinned in the workspace).
#[derive(Debug, Clone)]
pub struct ChaChaDice {
    rng: ChaCha20Rng,
}

impl ChaChaDice {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> ChaChaDice {
        ChaChaDice {
            rng: ChaCha20Rng::seed_from_u64(seed),
        }
    }
}

impl DiceSource for ChaChaDice {
    fn roll(&mut self) -> DiceRoll {
        let first = Die(self.rng.gen_range(1..=6));
        let second = Die(self.rng.gen_range(1..=6));
        DiceRoll { first, second }
    }
}

/// Rolls from a list, for tests and for replaying recorded dice. Panics when exhausted, which
/// is a bug in the test that built it.
#[derive(Debug, Clone)]
pub struct FixedDice {
    rolls: Vec<DiceRoll>,
    next: usize,
}

impl FixedDice {
    /// A source that yields `rolls` in order.
    pub fn new(rolls: Vec<DiceRoll>) -> FixedDice {
        FixedDice { rolls, next: 0 }
    }
}

impl DiceSource for FixedDice {
    fn roll(&mut self) -> DiceRoll {
        let r = self.rolls[self.next];
        self.next += 1;
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn die_refuses_values_outside_one_to_six() {
        assert!(Die::new(0).is_err());
        assert!(Die::new(7).is_err());
        assert_eq!(Die::new(6).unwrap().value(), 6);
    }

    #[test]
    fn there_are_21_distinct_rolls_weighing_36() {
        let all: Vec<Dice> = Dice::all().collect();
        assert_eq!(all.len(), 21);
        assert_eq!(all.iter().map(|d| d.weight()).sum::<u32>(), 36);
    }

    #[test]
    fn dice_parse_common_spellings() {
        for s in ["6-5", "65", "5-6", "6 5", "6,5"] {
            assert_eq!(s.parse::<Dice>().unwrap(), Dice::new(6, 5).unwrap());
        }
        assert_eq!("3-3".parse::<Dice>().unwrap(), Dice::new(3, 3).unwrap());
        assert!(matches!(
            "7-1".parse::<Dice>(),
            Err(DiceError::OutOfRange(7))
        ));
        assert!(matches!(
            "0-1".parse::<Dice>(),
            Err(DiceError::OutOfRange(0))
        ));
        assert!(matches!("6".parse::<Dice>(), Err(DiceError::Malformed(_))));
        assert!(matches!(
            "a-b".parse::<Dice>(),
            Err(DiceError::Malformed(_))
        ));
    }

    #[test]
    fn chacha_dice_are_reproducible_and_fair_looking() {
        let mut a = ChaChaDice::new(42);
        let mut b = ChaChaDice::new(42);
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            let r = a.roll();
            assert_eq!(r, b.roll());
            counts[r.first.value() as usize - 1] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }
}
