//! Random identifiers and secrets: ids of players, games and sessions, and tokens.

use rand::RngCore;

/// A new random token (64 hex digits).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// A new random id (for players, games and invitations).
pub fn new_id() -> String {
    let mut bytes = [0u8; 9];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}
