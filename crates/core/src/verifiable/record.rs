//! The record of a game's verifiable dice, and its check once the server seed is revealed.

use super::{ClientSeeds, ServerSeed};
use crate::DiceRoll;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Everything needed to check a game's dice after it ends.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct DiceRecord {
    /// The commitment published at creation: lowercase hex SHA-256 of the server seed.
    pub commitment: String,
    /// The server seed as 64 hex digits; `None` until the game ends and it is revealed.
    pub server_seed: Option<String>,
    /// The seeds the clients contributed.
    pub client_seeds: ClientSeeds,
    /// Every roll of the game, numbered 0, 1, 2, ... in order.
    pub rolls: Vec<RecordedRoll>,
}

/// One roll as the server answered it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RecordedRoll {
    /// The roll number, 0-based, counting every roll of the game (opening re-rolls included).
    pub number: u64,
    /// The nonce sent with this roll's request.
    pub nonce: String,
    /// The two dice, first then second, each 1..=6.
    pub dice: [u8; 2],
}

impl RecordedRoll {
    /// The roll as a [`DiceRoll`], or `None` when a recorded die is outside 1..=6.
    pub fn dice_roll(&self) -> Option<DiceRoll> {
        DiceRoll::new(self.dice[0], self.dice[1]).ok()
    }
}

impl DiceRecord {
    /// A record with no rolls yet and the seed still secret: what a game publishes at creation.
    pub fn new(commitment: String, client_seeds: ClientSeeds) -> Self {
        DiceRecord {
            commitment,
            server_seed: None,
            client_seeds,
            rolls: Vec::new(),
        }
    }

    /// The number the next roll gets: the count of rolls recorded so far.
    pub fn next_roll_number(&self) -> u64 {
        self.rolls.len() as u64
    }

    /// Derives the next roll from `seed` and `nonce`, records it and returns it.
    pub fn roll_next(&mut self, seed: &ServerSeed, nonce: &str) -> DiceRoll {
        let number = self.next_roll_number();
        let roll = seed.roll(&self.client_seeds, number, nonce);
        self.rolls.push(RecordedRoll {
            number,
            nonce: nonce.to_string(),
            dice: dice_values(roll),
        });
        roll
    }

    /// Reveals the seed (at the end of the game), after which [`verify`] can check the record.
    pub fn reveal(&mut self, seed: &ServerSeed) {
        self.server_seed = Some(seed.to_hex());
    }
}

/// Why a [`DiceRecord`] failed to verify.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The server seed has not been revealed yet.
    #[error("the server seed has not been revealed yet")]
    NotRevealed,
    /// The revealed server seed is not 64 hex digits.
    #[error("the server seed is not 64 hex digits: {0}")]
    BadSeed(String),
    /// The revealed seed does not hash to the commitment published at creation.
    #[error("the server seed hashes to {derived}, not to the commitment {recorded}")]
    CommitmentMismatch {
        /// The commitment in the record.
        recorded: String,
        /// The SHA-256 of the revealed seed.
        derived: String,
    },
    /// The rolls are not numbered 0, 1, 2, ... in order.
    #[error("roll at position {index} is numbered {found}, expected {expected}")]
    RollOutOfOrder {
        /// The position of the roll in the record.
        index: usize,
        /// The number it should have (its position).
        expected: u64,
        /// The number it has.
        found: u64,
    },
    /// A recorded roll differs from the one derived from the seeds and its nonce.
    #[error("roll {number} was recorded as {recorded:?} but derives to {derived:?}")]
    RollMismatch {
        /// The roll number.
        number: u64,
        /// The dice in the record.
        recorded: [u8; 2],
        /// The dice the scheme derives.
        derived: [u8; 2],
    },
    /// A roll the server made for a player (its nonce begins with `server:`) has a nonce
    /// other than `server:N`, N its roll number: the server could have chosen it.
    #[error("roll {number}: the server's nonce {nonce:?} is not \"server:{number}\"")]
    ServerNonce {
        /// The roll number.
        number: u64,
        /// The nonce recorded.
        nonce: String,
    },
}

fn dice_values(roll: DiceRoll) -> [u8; 2] {
    [roll.first.value(), roll.second.value()]
}

/// Checks a finished game's dice: the revealed seed matches the commitment (hex compared
/// without regard to case), the rolls are numbered 0, 1, 2, ... and each recorded roll is the
/// one derived from the seed, the client seeds, its number and its nonce. Returns the number of
/// rolls checked.
pub fn verify(record: &DiceRecord) -> Result<usize, VerifyError> {
    let hex_seed = record
        .server_seed
        .as_deref()
        .ok_or(VerifyError::NotRevealed)?;
    let seed = ServerSeed::from_hex(hex_seed)?;
    let derived = seed.commitment();
    if !derived.eq_ignore_ascii_case(&record.commitment) {
        return Err(VerifyError::CommitmentMismatch {
            recorded: record.commitment.clone(),
            derived,
        });
    }
    for (index, r) in record.rolls.iter().enumerate() {
        let expected = index as u64;
        if r.number != expected {
            return Err(VerifyError::RollOutOfOrder {
                index,
                expected,
                found: r.number,
            });
        }
        if r.nonce.starts_with("server:") && r.nonce != format!("server:{}", r.number) {
            return Err(VerifyError::ServerNonce {
                number: r.number,
                nonce: r.nonce.clone(),
            });
        }
        let derived = dice_values(seed.roll(&record.client_seeds, r.number, &r.nonce));
        if derived != r.dice {
            return Err(VerifyError::RollMismatch {
                number: r.number,
                recorded: r.dice,
                derived,
            });
        }
    }
    Ok(record.rolls.len())
}
