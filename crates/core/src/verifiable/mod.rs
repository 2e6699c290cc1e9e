//! Verifiable dice: rolls that nobody can know in advance, the server included, and that anyone
//! can recompute once a game ends.
//!
//! At game creation the server draws a secret [`ServerSeed`] and publishes its
//! [`commitment`](ServerSeed::commitment) (the SHA-256 of the seed). Each human player's client
//! contributes a seed when joining ([`ClientSeeds`]) and a fresh random nonce with every roll
//! request. Roll number `n` is derived by [`ServerSeed::roll`] as HMAC-SHA256, keyed with the
//! 32 seed bytes, over an unambiguous encoding of the client seeds, `n` and the nonce, with
//! rejection sampling so each face has probability exactly 1/6. When the game ends the seed is
//! revealed and [`verify`] checks a whole [`DiceRecord`].
//!
//! The byte-exact specification, and what the scheme does and does not guarantee, is in
//! `docs/dice.md`.

mod record;

pub use record::{verify, DiceRecord, RecordedRoll, VerifyError};

use crate::DiceRoll;
use hmac::{Hmac, Mac};
use rand::{CryptoRng, RngCore};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// The domain-separation tag that starts every message; a new version of the scheme gets a new
/// tag, so no message of one version can be read as a message of another.
pub const DOMAIN_TAG: &str = "tabula-dice-v1";

/// 32 secret bytes chosen by the server per game.
///
/// `Debug` shows only the commitment, so a seed cannot leak into logs by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed([u8; 32]);

impl ServerSeed {
    /// The seed made of these 32 bytes.
    pub fn from_bytes(b: [u8; 32]) -> Self {
        ServerSeed(b)
    }

    /// A fresh seed from a cryptographically secure generator.
    pub fn from_rng<R: RngCore + CryptoRng>(rng: &mut R) -> Self {
        let mut b = [0u8; 32];
        rng.fill_bytes(&mut b);
        ServerSeed(b)
    }

    /// A fresh seed from the operating system's secure random source.
    pub fn generate() -> Self {
        Self::from_rng(&mut rand::rngs::OsRng)
    }

    /// The seed written as 64 hex digits (either case), as [`to_hex`](Self::to_hex) writes it.
    pub fn from_hex(s: &str) -> Result<Self, VerifyError> {
        let mut b = [0u8; 32];
        hex::decode_to_slice(s, &mut b).map_err(|e| VerifyError::BadSeed(e.to_string()))?;
        Ok(ServerSeed(b))
    }

    /// The 32 raw bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The seed as 64 lowercase hex digits: the form revealed at the end of a game.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Lowercase hex SHA-256 of the 32 raw bytes: the commitment published at creation.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    /// The two dice of roll number `roll_number` (0-based count of rolls in the game), given
    /// the clients' seeds and the nonce sent with this roll's request.
    ///
    /// The first two faces of the rejection-sampled HMAC stream are the first and second die;
    /// for the opening roll of backgammon the first is White's and the second Black's, and a
    /// tie is rolled again as the next roll number.
    pub fn roll(&self, client_seeds: &ClientSeeds, roll_number: u64, nonce: &str) -> DiceRoll {
        let mut faces = Faces::new(self, client_seeds, roll_number, nonce);
        let first = faces.next_face();
        let second = faces.next_face();
        DiceRoll::new(first, second).expect("faces are always in 1..=6")
    }
}

impl fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerSeed")
            .field("commitment", &self.commitment())
            .finish_non_exhaustive()
    }
}

/// The seeds the players' clients contributed: White's and Black's (a bot seat or a seat whose
/// client sent none contributes the empty string).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default)]
pub struct ClientSeeds {
    /// The seed sent by White's client, or `""`.
    pub white: String,
    /// The seed sent by Black's client, or `""`.
    pub black: String,
}

/// The face a byte of HMAC output gives: `b % 6 + 1` for `b < 252`, and `None` (skip the byte)
/// for 252..=255, so each of the 252 accepted bytes maps to each face exactly 42 times.
pub fn face_of_byte(b: u8) -> Option<u8> {
    (b < 252).then_some(b % 6 + 1)
}

/// Appends `field` preceded by its length in bytes as a big-endian `u64`.
fn put_field(msg: &mut Vec<u8>, field: &[u8]) {
    msg.extend_from_slice(&(field.len() as u64).to_be_bytes());
    msg.extend_from_slice(field);
}

/// The message authenticated for one roll, without the block counter:
/// `lp(tag) || lp(white) || lp(black) || u64be(roll_number) || lp(nonce)`, where `lp(x)` is
/// `u64be(len(x)) || x`. Block `k` of the stream is `HMAC(seed, message || u32be(k))`.
fn message(client_seeds: &ClientSeeds, roll_number: u64, nonce: &str) -> Vec<u8> {
    let mut msg = Vec::with_capacity(
        48 + DOMAIN_TAG.len() + client_seeds.white.len() + client_seeds.black.len() + nonce.len(),
    );
    put_field(&mut msg, DOMAIN_TAG.as_bytes());
    put_field(&mut msg, client_seeds.white.as_bytes());
    put_field(&mut msg, client_seeds.black.as_bytes());
    msg.extend_from_slice(&roll_number.to_be_bytes());
    put_field(&mut msg, nonce.as_bytes());
    msg
}

/// The stream of faces of one roll: the accepted bytes of HMAC blocks 0, 1, 2, ...
struct Faces {
    mac: Hmac<Sha256>,
    message: Vec<u8>,
    block_counter: u32,
    block: [u8; 32],
    pos: usize,
}

impl Faces {
    fn new(seed: &ServerSeed, client_seeds: &ClientSeeds, roll_number: u64, nonce: &str) -> Self {
        Faces {
            mac: Hmac::<Sha256>::new_from_slice(&seed.0).expect("HMAC takes any key length"),
            message: message(client_seeds, roll_number, nonce),
            block_counter: 0,
            block: [0; 32],
            pos: 32,
        }
    }

    fn next_byte(&mut self) -> u8 {
        if self.pos == self.block.len() {
            let mut mac = self.mac.clone();
            mac.update(&self.message);
            mac.update(&self.block_counter.to_be_bytes());
            self.block = mac.finalize().into_bytes().into();
            self.block_counter += 1;
            self.pos = 0;
        }
        let b = self.block[self.pos];
        self.pos += 1;
        b
    }

    fn next_face(&mut self) -> u8 {
        loop {
            if let Some(face) = face_of_byte(self.next_byte()) {
                return face;
            }
        }
    }
}

/// The first `count` faces of the stream of one roll (the roll uses the first two).
#[cfg(test)]
fn faces(
    seed: &ServerSeed,
    client_seeds: &ClientSeeds,
    roll_number: u64,
    nonce: &str,
    count: usize,
) -> Vec<u8> {
    let mut f = Faces::new(seed, client_seeds, roll_number, nonce);
    (0..count).map(|_| f.next_face()).collect()
}

#[cfg(test)]
mod tests;
