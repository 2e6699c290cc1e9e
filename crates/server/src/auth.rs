//! Who is asking: guests (a nickname, at once), registered users (argon2id password hashes),
//! sessions in an HttpOnly SameSite cookie, and API tokens (`Authorization: Bearer ...`) for
//! bots and scripts. Session cookies and tokens are random 256-bit values; only their
//! SHA-256 is stored.
//!
//! Both expire ([`crate::accounts::Settings`]): a cookie session a fixed
//! [`crate::accounts::SESSION_LIFETIME`] (30 days) after login, the cookie's `Max-Age` saying
//! the same (no sliding renewal: a stolen cookie is good for 30 days at most, and an active
//! player logs in once a month); an API token [`crate::accounts::TOKEN_LIFETIME`] (365 days)
//! after it was made, since the scripts and bots that hold one cannot log in again by
//! themselves. An expired session or token is refused like an unknown one, and deleted (all
//! expired rows are deleted whenever a session or token is made). `POST /api/logout` ends
//! the session it is sent with, and an API token survives it (a browser logging out should
//! not stop the owner's bots); `POST /api/logout-all` ends every session and token of the
//! player, and `DELETE /api/sessions/{id}` one of them.

use crate::error::ApiError;
use crate::store::PlayerRow;
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

pub use crate::ids::{new_id, new_token};

/// What is stored of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The argon2id hash of a password (slow on purpose, and 19 MiB: run it through
/// [`crate::accounts::Hasher`], never directly in a handler).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let mut salt = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(ApiError::internal)?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(ApiError::internal)
}

/// Whether `password` matches the stored hash (through [`crate::accounts::Hasher`]).
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// The `Set-Cookie` value for a session (HttpOnly, SameSite=Lax, whole site) that lives
/// `max_age_secs`, as the session does; `secure` adds `Secure` (HTTPS sites only).
pub fn session_cookie(token: &str, max_age_secs: u64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE_NAME}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age_secs}{secure}")
}

/// The `Set-Cookie` value that ends a session.
pub fn cleared_cookie(secure: bool) -> String {
    session_cookie("", 0, secure)
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
            state
                .db
                .session_player(&token_hash(&token), kind, crate::store::now_ms())
                .await?,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_secure_only_when_asked() {
        let plain = session_cookie("abc", 60, false);
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax"));
        assert!(!plain.contains("Secure"));
        assert!(session_cookie("abc", 60, true).ends_with("; Secure"));
        let cleared = cleared_cookie(true);
        assert!(cleared.contains("Max-Age=0") && cleared.ends_with("; Secure"));
        assert!(cleared.starts_with(&format!("{COOKIE_NAME}=;")));
    }
}
