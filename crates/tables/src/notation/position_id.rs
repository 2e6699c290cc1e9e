//! gnubg's Position ID: the board as 80 bits, 14 base64 characters.
//!
//! For the player not on roll and then the player on roll, each seen from its own side, for
//! each of its points 1..=24 and then its bar: as many 1-bits as checkers, then a 0-bit. Bits
//! fill each byte from the least significant end; the 10 bytes are written in base64. (The
//! order of the two sides was checked against gnubg's own encoder; see the fixture test.)

use super::base64;
use crate::position::{Position, PositionError};
use thiserror::Error;

/// Why text is not a Position ID.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PositionIdError {
    /// Not 14 characters of gnubg's base64 alphabet.
    #[error("a Position ID is 14 base64 characters, not {0:?}")]
    Malformed(String),
    /// The bits do not describe 25 points for each side.
    #[error("Position ID {0:?} does not describe a board")]
    BadBits(String),
    /// The described board is impossible.
    #[error("Position ID {id:?}: {reason}")]
    Impossible {
        /// The text.
        id: String,
        /// What is wrong with the board.
        reason: PositionError,
    },
}

impl Position {
    /// The gnubg Position ID of this position (the mover is the player on roll).
    pub fn position_id(&self) -> String {
        let [mover, opponent] = self.to_counts();
        let mut key = [0u8; 10];
        let mut bit = 0usize;
        for side in [&opponent, &mover] {
            for &count in side.iter() {
                for _ in 0..count {
                    key[bit / 8] |= 1 << (bit % 8);
                    bit += 1;
                }
                bit += 1;
            }
        }
        base64::encode(&key)
    }

    /// The position described by a gnubg Position ID, seen from the player on roll.
    pub fn from_position_id(id: &str) -> Result<Position, PositionIdError> {
        let key: [u8; 10] =
            base64::decode(id.trim()).ok_or_else(|| PositionIdError::Malformed(id.to_string()))?;
        let bad = || PositionIdError::BadBits(id.to_string());
        let mut sides = [[0u8; 25]; 2];
        let mut bit = 0usize;
        for side in sides.iter_mut() {
            for count in side.iter_mut() {
                loop {
                    let set = key.get(bit / 8).ok_or_else(bad)? >> (bit % 8) & 1 == 1;
                    bit += 1;
                    if !set {
                        break;
                    }
                    *count += 1;
                    if *count > 15 {
                        return Err(bad());
                    }
                }
            }
        }
        // Everything after the last separator must be zero.
        if (bit..80).any(|b| key[b / 8] >> (b % 8) & 1 == 1) {
            return Err(bad());
        }
        let [opponent, mover] = sides;
        Position::from_counts(&mover, &opponent).map_err(|reason| PositionIdError::Impossible {
            id: id.to_string(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_id_is_gnubgs() {
        assert_eq!(Position::START.position_id(), "4HPwATDgc/ABMA");
        assert_eq!(
            Position::from_position_id("4HPwATDgc/ABMA").unwrap(),
            Position::START
        );
    }

    #[test]
    fn malformed_position_ids_are_refused() {
        assert!(matches!(
            Position::from_position_id("hello"),
            Err(PositionIdError::Malformed(_))
        ));
        assert!(matches!(
            Position::from_position_id("/////////////w"),
            Err(PositionIdError::BadBits(_))
        ));
    }
}
