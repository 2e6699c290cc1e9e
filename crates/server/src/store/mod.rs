//! The one store: one schema (`migrations/`) on SQLite or PostgreSQL through sqlx's `Any`
//! driver, and every query, transaction and notification the server makes. Placeholders are
//! written `$1`, which both accept. Nothing outside this module writes SQL or sees sqlx: its
//! functions answer [`StoreError`]s, which become HTTP answers only at the API's edge
//! ([`crate::error`]).
//!
//! - [`players`] and [`sessions`]: accounts, guests, bots, preferences, sessions and tokens;
//! - [`games`]: games and their logs, the lobby's lists, statistics, rematch offers;
//!   [`creations`]: a game stored with its creator's idempotency key;
//! - [`batch`]: the group commit's transaction (game rows, events, ratings, `NOTIFY`);
//!   [`ratings`]: the rows of the ratings (the rating math is [`crate::ratings`]);
//! - [`chat`]: the players' chat and their chat choices;
//! - [`analyses`]: the analysis jobs; [`trainer`]: the trainer's exercises; [`listen`]:
//!   `LISTEN` for other instances' changes;
//! - [`error`]: [`StoreError`]; [`faults`]: what a database error means (full, unreachable,
//!   a commit of unknown outcome), the connections never reused after a failure, the time
//!   limits, the readiness probe.

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor, Row};
use std::time::{SystemTime, UNIX_EPOCH};

pub mod analyses;
pub mod batch;
pub mod chat;
pub mod creations;
pub mod error;
pub mod faults;
pub mod games;
pub mod listen;
pub mod players;
pub mod ratings;
pub mod sessions;
pub mod trainer;

pub use batch::GameWrite;
pub use creations::Created;
pub use error::{OpenError, StoreError};
pub use faults::STORAGE_DEADLINE;
pub use games::{EventRow, FinishedCounts, GameRow};
pub use players::{guest_label, PlayerRow};
pub use sessions::SessionRow;

/// Which database the pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server (several instances may share it).
    Postgres,
}

/// The pool and its backend.
#[derive(Clone)]
pub struct Db {
    /// The connection pool.
    pool: AnyPool,
    /// The backend.
    pub backend: Backend,
    /// The URL it was opened with (for LISTEN connections).
    url: String,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Db {
    /// Opens (creating a SQLite file if needed) and migrates the database at `url`: a path
    /// or `sqlite://...` URL for SQLite, `postgres://...` for PostgreSQL. `max_bytes` caps a
    /// SQLite file's size (`TABULA_SQLITE_MAX_MB`, [`crate::config`]).
    pub async fn open(url: &str, max_bytes: Option<u64>) -> Result<Db, OpenError> {
        sqlx::any::install_default_drivers();
        let (backend, url) = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (Backend::Postgres, url.to_string())
        } else {
            let path = url.strip_prefix("sqlite://").unwrap_or(url);
            (Backend::Sqlite, format!("sqlite://{path}?mode=rwc"))
        };
        let sqlite = backend == Backend::Sqlite;
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 10 })
            // Fail fast when the database is unreachable (faults).
            .acquire_timeout(faults::ACQUIRE_TIMEOUT)
            // Never reuse a connection left inside a transaction.
            .after_release(|conn, _| Box::pin(async move { Ok(faults::reusable(conn)) }))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // Durable commits (an acknowledged action survives a crash) and a
                        // bounded wait instead of an error when another connection writes.
                        conn.execute(
                            format!("PRAGMA busy_timeout = {}", faults::SQLITE_BUSY_TIMEOUT_MS)
                                .as_str(),
                        )
                        .await?;
                        conn.execute("PRAGMA synchronous = FULL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        if let Some(bytes) = max_bytes {
                            // TABULA_SQLITE_MAX_MB: a size cap, answered like a full disk.
                            let page: i64 = sqlx::query_scalar("PRAGMA page_size")
                                .fetch_one(&mut *conn)
                                .await?;
                            let pages = bytes / page.max(512) as u64;
                            conn.execute(format!("PRAGMA max_page_count = {pages}").as_str())
                                .await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        if sqlite {
            pool.execute("PRAGMA journal_mode = WAL").await?;
        }
        sqlx::migrate!("./migrations").run(&pool).await?;
        let db = Db { pool, backend, url };
        db.fill_name_keys().await?;
        Ok(db)
    }

    /// Computes the name key ([`crate::names::name_key`]) of registered users made before
    /// migration 0002, which SQL cannot compute.
    async fn fill_name_keys(&self) -> Result<(), StoreError> {
        let rows = sqlx::query(
            "SELECT id, username FROM players WHERE username IS NOT NULL AND name_key IS NULL",
        )
        .fetch_all(&self.pool)
        .await?;
        for r in &rows {
            let id: String = r.try_get("id")?;
            let username: String = r.try_get("username")?;
            sqlx::query("UPDATE players SET name_key = $1 WHERE id = $2")
                .bind(crate::names::name_key(&username))
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }
}
