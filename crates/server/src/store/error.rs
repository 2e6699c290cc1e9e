//! The store's typed errors: [`StoreError`], what every store function answers when the
//! database did not do what was asked, sorted by what it means for the caller (the storage
//! failed, the outcome of a commit is unknown, a unique key is taken, or a bug), and
//! [`OpenError`], why the database could not be opened. The API's edge turns a
//! [`StoreError`] into an HTTP answer ([`crate::error`]); the store knows nothing of HTTP.

use super::faults::{fault, Fault};

/// Why a store function failed. Each variant carries the database's message (for logs).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The disk or the database is full ([`Fault::Full`]); nothing was changed.
    #[error("{0}")]
    Full(String),
    /// The database cannot be reached, did not answer in time, or failed to read or write
    /// ([`Fault::Unavailable`]); nothing was changed.
    #[error("{0}")]
    Unavailable(String),
    /// The `COMMIT` was sent but not answered: it may or may not have happened
    /// ([`super::faults::commit_failure`]).
    #[error("{0}")]
    OutcomeUnknown(String),
    /// A unique key already names another row (callers that expect one handle it).
    #[error("{0}")]
    Conflict(String),
    /// Anything else: a bug (a bad statement, a row that does not read, a broken invariant).
    #[error("{0}")]
    Bug(String),
}

impl StoreError {
    /// The storage fault behind this error, if it is one.
    pub fn fault(&self) -> Option<Fault> {
        match self {
            StoreError::Full(_) => Some(Fault::Full),
            StoreError::Unavailable(_) => Some(Fault::Unavailable),
            _ => None,
        }
    }
}

/// Sorts a database error: a storage fault ([`fault`]), else a unique violation, else a bug.
impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        let message = e.to_string();
        match fault(&e) {
            Some(Fault::Full) => StoreError::Full(message),
            Some(Fault::Unavailable) => StoreError::Unavailable(message),
            None => match &e {
                sqlx::Error::Database(d) if d.is_unique_violation() => {
                    StoreError::Conflict(message)
                }
                _ => StoreError::Bug(message),
            },
        }
    }
}

/// Why [`super::Db::open`] failed.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The database could not be reached or read.
    #[error("database: {0}")]
    Database(#[from] StoreError),
    /// A migration failed.
    #[error("database migration: {0}")]
    Migrate(String),
}

impl From<sqlx::Error> for OpenError {
    fn from(e: sqlx::Error) -> OpenError {
        OpenError::Database(e.into())
    }
}

impl From<sqlx::migrate::MigrateError> for OpenError {
    fn from(e: sqlx::migrate::MigrateError) -> OpenError {
        OpenError::Migrate(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Db, PlayerRow};

    #[tokio::test]
    async fn a_taken_unique_key_is_a_conflict_and_the_rest_reads_as_stored() {
        let dir = std::env::temp_dir().join(format!("tabula_store_{}", crate::ids::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::open(dir.join("t.sqlite3").to_str().unwrap(), None)
            .await
            .unwrap();
        let player = |id: &str| PlayerRow {
            id: id.into(),
            name: "Mike".into(),
            username: Some("Mike".into()),
            password_hash: None,
            kind: "user".into(),
        };
        db.insert_player(&player("a")).await.unwrap();
        // The same username in another case: the same key.
        let mut again = player("b");
        again.username = Some("mike".into());
        assert!(matches!(
            db.insert_player(&again).await,
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(db.player("a").await.unwrap().unwrap().name, "Mike");
        assert!(db.player("b").await.unwrap().is_none());
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }
}
