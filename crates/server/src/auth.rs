//! Who is asking: guests (a nickname, at once), registered users (argon2id password hashes),
//! sessions in an HttpOnly SameSite cookie, and API tokens (`Authorization: Bearer ...`) for
//! bots and scripts. Session cookies and tokens are random 256-bit values; only their
//! SHA-256 is stored.

use crate::db::PlayerRow;
use crate::error::ApiError;
use crate::AppState;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// The session cookie's name.
pub const COOKIE_NAME: &str = "tabula_session";

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

/// What is stored of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The argon2id hash of a password (slow on purpose: run it off the async workers).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let mut salt = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(ApiError::internal)?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(ApiError::internal)
}

/// Whether `password` matches the stored hash.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// The `Set-Cookie` value for a session (HttpOnly, SameSite=Lax, whole site).
pub fn session_cookie(token: &str) -> String {
    format!("{COOKIE_NAME}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000")
}

/// The `Set-Cookie` value that ends a session.
pub fn cleared_cookie() -> String {
    format!("{COOKIE_NAME}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0")
}

/// The session token of a request: its cookie, or its bearer token, with the kind.
pub fn request_token(parts: &Parts) -> Option<(String, &'static str)> {
    if let Some(v) = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        if let Some(t) = v.strip_prefix("Bearer ") {
            return Some((t.trim().to_string(), "api"));
        }
    }
    parts
        .headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE_NAME)
        .map(|(_, v)| (v.to_string(), "cookie"))
}

/// The logged-in player (guest or user); requests without one get 401.
pub struct Auth(pub PlayerRow);

/// The player, if the request has a valid session.
pub struct MaybeAuth(pub Option<PlayerRow>);

impl FromRequestParts<AppState> for MaybeAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some((token, kind)) = request_token(parts) else {
            return Ok(MaybeAuth(None));
        };
        Ok(MaybeAuth(
            state.db.session_player(&token_hash(&token), kind).await?,
        ))
    }
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        MaybeAuth::from_request_parts(parts, state)
            .await?
            .0
            .map(Auth)
            .ok_or_else(ApiError::unauthorized)
    }
}
