//! `/readyz`: whether the database takes a write now ([`crate::store::Db::probe`]), answered
//! within [`READY_DEADLINE`], one probe at a time, each answer reused for [`READY_REUSE`]
//! (many load balancers probing at once make one probe write).

use crate::error::ApiError;
use crate::store::Db;
use std::time::{Duration, Instant};

/// The longest `/readyz` takes to answer.
pub const READY_DEADLINE: Duration = Duration::from_millis(900);

/// How long a readiness answer is reused.
pub const READY_REUSE: Duration = Duration::from_millis(250);

/// The last readiness answer.
#[derive(Default)]
pub struct Readiness {
    last: tokio::sync::Mutex<Option<(Instant, Result<(), ApiError>)>>,
}

impl Readiness {
    /// `Ok` when a small transaction (a row larger than a page, inserted and deleted)
    /// commits within [`READY_DEADLINE`]; 503 `storage_full` or `storage_unavailable`
    /// otherwise. An answer is reused for [`READY_REUSE`], and one probe runs at a time.
    pub async fn check(&self, db: &Db) -> Result<(), ApiError> {
        let deadline = tokio::time::Instant::now() + READY_DEADLINE;
        let Ok(mut last) = tokio::time::timeout_at(deadline, self.last.lock()).await else {
            return Err(ApiError::storage_unavailable());
        };
        if let Some((at, answer)) = last.as_ref() {
            if at.elapsed() < READY_REUSE {
                return answer.clone();
            }
        }
        let answer = match tokio::time::timeout_at(deadline, db.probe()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(ApiError::from(e)),
            Err(_) => Err(ApiError::storage_unavailable()),
        };
        *last = Some((Instant::now(), answer.clone()));
        answer
    }
}
