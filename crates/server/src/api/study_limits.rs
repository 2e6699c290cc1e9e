//! Per-client bounds of the study requests. Each client (its player when the request has a
//! session, else its address as [`super::players::ClientAddr`] reads it) has at most one
//! evaluation (`/api/study/evaluate`, a trainer answer) and one rollout
//! (`/api/study/rollout`) running on an instance at a time; another meanwhile is answered
//! 429 `too_many` at once. Per instance, the hint semaphore and the one rollout place bound
//! them all (503 `busy`).

use super::players::ClientAddr;
use crate::auth::MaybeAuth;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The clients with a study request running, by kind and client.
pub type Running = Arc<Mutex<HashSet<String>>>;

/// Who asks a study request: `player:ID` or `addr:IP`.
pub struct StudyClient(pub String);

impl FromRequestParts<AppState> for StudyClient {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let MaybeAuth(Some(player)) = MaybeAuth::from_request_parts(parts, state).await? {
            return Ok(StudyClient(format!("player:{}", player.id)));
        }
        let ClientAddr(addr) = match ClientAddr::from_request_parts(parts, state).await {
            Ok(a) => a,
            Err(never) => match never {},
        };
        Ok(StudyClient(match addr {
            Some(ip) => format!("addr:{ip}"),
            None => "addr:unknown".to_string(),
        }))
    }
}

/// A client's place for one study request of a kind, given back when dropped.
pub struct Place {
    running: Running,
    key: String,
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Ok(mut set) = self.running.lock() {
            set.remove(&self.key);
        }
    }
}

/// The place of `client` for one request of `kind` (`evaluation` or `rollout`), or 429
/// `too_many` while its last one runs.
pub fn one_per_client(state: &AppState, kind: &str, client: &str) -> Result<Place, ApiError> {
    let key = format!("{kind} {client}");
    let running = state.studying.clone();
    let fresh = running
        .lock()
        .map_err(|_| ApiError::internal("the study requests' lock is poisoned"))?
        .insert(key.clone());
    if !fresh {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many",
            format!("your last {kind} is still running: one at a time; try again when it ends"),
        )
        .retry_after(1));
    }
    Ok(Place { running, key })
}
