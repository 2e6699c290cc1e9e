//! Storage faults: what a database error means for a request, and how the server stays
//! truthful and recovers by itself (docs/operations.md).
//!
//! - [`fault`] sorts an error into a full storage ([`StoreError::Full`], answered 503
//!   `storage_full`), an unreachable or unanswering database ([`StoreError::Unavailable`],
//!   503 `storage_unavailable`), or neither (a bug, [`StoreError::Bug`]: 500 `internal`).
//! - [`commit_failure`] reads a failed `COMMIT` ([`StoreError::OutcomeUnknown`] when it got
//!   no answer: 503 `outcome_unknown`).
//! - [`WriteConn`] is a pooled connection for a transaction that goes back to the pool only
//!   after a clean end (commit, or a rollback that answered): after any failure it is closed,
//!   so no connection can serve again from inside a half-finished transaction (which on
//!   SQLite would keep the write lock, and acknowledge writes that never reach the file).
//! - [`Db::probe`] is the small committed write behind `/readyz` ([`crate::api::readiness`]).
//! - The time limits: [`ACQUIRE_TIMEOUT`], [`SQLITE_BUSY_TIMEOUT_MS`], [`STORAGE_DEADLINE`].

use super::{Db, StoreError};
use sqlx::error::DatabaseError;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Connection};
use std::time::Duration;

/// The longest a request waits for a database connection (also the time spent retrying to
/// connect to a database that refuses connections).
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a SQLite statement waits for another connection's write lock, in milliseconds.
pub const SQLITE_BUSY_TIMEOUT_MS: u64 = 3_000;

/// The longest an action, a roll or a game read waits for the game's lock and the database
/// together; then it is answered 503 (`storage_unavailable`, or `outcome_unknown` when the
/// commit had been sent).
pub const STORAGE_DEADLINE: Duration = Duration::from_secs(4);

/// How the storage failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The disk or the database is full (SQLite `SQLITE_FULL`, PostgreSQL class 53100).
    Full,
    /// The database cannot be reached, did not answer in time, or failed to read or write
    /// (lost connections, refused connections, I/O errors, a lock not released in time).
    Unavailable,
}

/// SQLite's primary result codes that mean the storage failed.
const SQLITE_BUSY: i64 = 5;
const SQLITE_LOCKED: i64 = 6;
const SQLITE_NOMEM: i64 = 7;
const SQLITE_READONLY: i64 = 8;
const SQLITE_IOERR: i64 = 10;
const SQLITE_CORRUPT: i64 = 11;
const SQLITE_FULL: i64 = 13;
const SQLITE_CANTOPEN: i64 = 14;
const SQLITE_PROTOCOL: i64 = 15;
const SQLITE_NOTADB: i64 = 26;

/// The storage fault behind `e`, or `None` when `e` is not one (a bug, or a constraint the
/// caller handles).
pub fn fault(e: &sqlx::Error) -> Option<Fault> {
    match e {
        sqlx::Error::Database(d) => {
            if let Some(sqlite) = d.try_downcast_ref::<sqlx::sqlite::SqliteError>() {
                let code = sqlite.code().and_then(|c| c.parse::<i64>().ok())?;
                sqlite_fault(code)
            } else if let Some(pg) = d.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                postgres_fault(pg.code())
            } else {
                None
            }
        }
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => Some(Fault::Unavailable),
        _ => None,
    }
}

/// The fault of a SQLite (extended) result code.
fn sqlite_fault(code: i64) -> Option<Fault> {
    match code & 0xff {
        SQLITE_FULL => Some(Fault::Full),
        SQLITE_BUSY | SQLITE_LOCKED | SQLITE_NOMEM | SQLITE_READONLY | SQLITE_IOERR
        | SQLITE_CORRUPT | SQLITE_CANTOPEN | SQLITE_PROTOCOL | SQLITE_NOTADB => {
            Some(Fault::Unavailable)
        }
        _ => None,
    }
}

/// The fault of a PostgreSQL SQLSTATE.
fn postgres_fault(sqlstate: &str) -> Option<Fault> {
    match sqlstate {
        // disk_full
        "53100" => Some(Fault::Full),
        // insufficient resources, connection exceptions, operator intervention (shutdown,
        // cannot connect now), system errors (I/O), serialization failures and deadlocks.
        s if s.starts_with("53")
            || s.starts_with("08")
            || s.starts_with("57P")
            || s.starts_with("58")
            || s == "40001"
            || s == "40P01" =>
        {
            Some(Fault::Unavailable)
        }
        _ => None,
    }
}

/// What a failed `COMMIT` means. The database answered with an error: nothing was
/// committed (on SQLite only for errors other than I/O ones, whose commit record may still
/// reach the file). No answer (the connection died, the deadline passed): the commit may have
/// happened, and only a later read can tell, hence [`StoreError::OutcomeUnknown`].
pub fn commit_failure(e: sqlx::Error) -> StoreError {
    let sqlite_io = e
        .as_database_error()
        .and_then(|d| d.try_downcast_ref::<sqlx::sqlite::SqliteError>())
        .and_then(|s| s.code().and_then(|c| c.parse::<i64>().ok()))
        .is_some_and(|code| code & 0xff == SQLITE_IOERR);
    if sqlite_io || !matches!(e, sqlx::Error::Database(_)) {
        tracing::warn!(error = %e, "the commit's outcome is unknown");
        return StoreError::OutcomeUnknown(e.to_string());
    }
    e.into()
}

/// A pooled connection for one transaction: closed, not returned to the pool, unless
/// [`WriteConn::keep`] was called after the transaction ended cleanly (dropped mid-way by a
/// deadline included).
pub struct WriteConn {
    conn: PoolConnection<Any>,
    kept: bool,
}

impl WriteConn {
    /// A connection from `pool`.
    pub async fn acquire(pool: &AnyPool) -> Result<WriteConn, sqlx::Error> {
        Ok(WriteConn {
            conn: pool.acquire().await?,
            kept: false,
        })
    }

    /// The transaction ended cleanly: the connection may serve again.
    pub fn keep(&mut self) {
        self.kept = true;
    }

    /// Begins a transaction on the connection.
    pub async fn begin(&mut self) -> Result<sqlx::Transaction<'_, Any>, sqlx::Error> {
        self.conn.begin().await
    }
}

impl Drop for WriteConn {
    fn drop(&mut self) {
        if !self.kept {
            self.conn.close_on_drop();
        }
    }
}

/// The pool's check on every connection given back: one still inside a transaction (a
/// `ROLLBACK` that failed, a dropped transaction) is closed instead of reused.
pub fn reusable(conn: &sqlx::AnyConnection) -> bool {
    !conn.is_in_transaction()
}

impl Db {
    /// The readiness probe's write: a row of [`PROBE_BYTES`] (so that it needs a page of its
    /// own) inserted and deleted in one committed transaction.
    pub async fn probe(&self) -> Result<(), StoreError> {
        let mut conn = WriteConn::acquire(&self.pool).await?;
        let mut tx = conn.begin().await?;
        let id = crate::ids::new_id();
        sqlx::query("INSERT INTO readiness_probe (id, filler) VALUES ($1, $2)")
            .bind(&id)
            .bind("r".repeat(PROBE_BYTES))
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM readiness_probe WHERE id = $1")
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        conn.keep();
        Ok(())
    }
}

/// The size of the probe's row, in bytes: more than a page.
const PROBE_BYTES: usize = 6_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_codes_are_sorted() {
        assert_eq!(sqlite_fault(13), Some(Fault::Full));
        // SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_FSYNC: extended codes.
        assert_eq!(sqlite_fault(778), Some(Fault::Unavailable));
        assert_eq!(sqlite_fault(517), Some(Fault::Unavailable));
        assert_eq!(sqlite_fault(1034), Some(Fault::Unavailable));
        // Constraint violations and misuse are not storage faults.
        assert_eq!(sqlite_fault(2067), None);
        assert_eq!(sqlite_fault(1), None);
    }

    #[test]
    fn postgres_states_are_sorted() {
        assert_eq!(postgres_fault("53100"), Some(Fault::Full));
        assert_eq!(postgres_fault("57P01"), Some(Fault::Unavailable));
        assert_eq!(postgres_fault("08006"), Some(Fault::Unavailable));
        assert_eq!(postgres_fault("23505"), None);
        assert_eq!(postgres_fault("42P01"), None);
    }

    #[test]
    fn lost_connections_are_unavailable_and_bugs_are_not_faults() {
        let io = || sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        assert_eq!(fault(&io()), Some(Fault::Unavailable));
        assert_eq!(fault(&sqlx::Error::PoolTimedOut), Some(Fault::Unavailable));
        assert_eq!(fault(&sqlx::Error::RowNotFound), None);
        // A COMMIT that got no answer may have happened.
        assert!(matches!(
            commit_failure(io()),
            StoreError::OutcomeUnknown(_)
        ));
        // (How each variant is answered over HTTP: api/store_errors.rs.)
        assert!(matches!(
            StoreError::from(sqlx::Error::PoolTimedOut),
            StoreError::Unavailable(_)
        ));
        assert!(matches!(
            StoreError::from(sqlx::Error::RowNotFound),
            StoreError::Bug(_)
        ));
    }
}
