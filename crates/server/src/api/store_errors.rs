//! The API's edge for storage: how each [`StoreError`] is answered over HTTP (503
//! `storage_full`, `storage_unavailable` or `outcome_unknown` for the faults of
//! docs/operations.md, 500 `internal` for the rest), with the fault logged.

use crate::error::ApiError;
use crate::store::faults::Fault;
use crate::store::StoreError;

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Full(error) => {
                tracing::warn!(%error, fault = ?Fault::Full, "storage fault");
                ApiError::storage_full()
            }
            StoreError::Unavailable(error) => {
                tracing::warn!(%error, fault = ?Fault::Unavailable, "storage fault");
                ApiError::storage_unavailable()
            }
            StoreError::OutcomeUnknown(_) => ApiError::outcome_unknown(),
            StoreError::Conflict(error) | StoreError::Bug(error) => ApiError::internal(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn store_errors_become_the_storage_answers_and_the_rest_internal() {
        let answer = |e: StoreError| ApiError::from(e);
        let full = answer(StoreError::Full("disk full".into()));
        assert_eq!(full, ApiError::storage_full());
        assert_eq!(full.retry_after, Some(5));
        let down = answer(StoreError::Unavailable("connection reset".into()));
        assert_eq!(down, ApiError::storage_unavailable());
        assert_eq!(down.retry_after, Some(1));
        let unknown = answer(StoreError::OutcomeUnknown("no answer".into()));
        assert_eq!(unknown, ApiError::outcome_unknown());
        assert!([&full, &down, &unknown]
            .iter()
            .all(|e| e.is_storage_fault()));
        for e in [
            StoreError::Conflict("UNIQUE constraint failed".into()),
            StoreError::Bug("no such column".into()),
        ] {
            let e = answer(e);
            assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
            assert_eq!(e.code, "internal");
            assert!(!e.is_storage_fault());
        }
    }
}
