//! The group commit's transaction: every change the writer (`service/writer.rs`)
//! took is written in one transaction, so that one `COMMIT` (one flush to disk) acknowledges
//! them all.
//!
//! Within the batch each change is still optimistic: the game row moves from `v` to `v + 1`
//! only if it is still at `v` (else that change alone is stale, and its request reloads and
//! retries); the event row is appended only when the game row moved, and a game that ends
//! is counted for ratings ([`super::ratings`]). On PostgreSQL the transaction also notifies
//! the other instances ([`GAMES_CHANNEL`]), delivered only if it commits.

use super::faults::{commit_failure, WriteConn};
use super::{now_ms, Backend, Db, EventRow, GameRow, StoreError};

/// The `NOTIFY` channel of committed changes (the name in the statement below): a payload
/// of `id:version` for every game the transaction moved, separated by commas.
pub const GAMES_CHANNEL: &str = "tabula_games";

/// One change to write: the game row as it must become, from `before`, and its event.
pub struct GameWrite {
    /// The version the stored row must still have.
    pub before: i64,
    /// The row after the change.
    pub row: GameRow,
    /// Actions after the change.
    pub plies: i64,
    /// The log entry.
    pub event: EventRow,
}

impl Db {
    /// Writes `writes` in one transaction, in the order given (the writer sorts them by game
    /// id, so that two instances' batches on one PostgreSQL database cannot deadlock); for
    /// each, whether its game row moved (`false`: stale). `sent` is set once the `COMMIT` is
    /// sent; a failed `COMMIT` is read by [`commit_failure`].
    pub async fn write_batch(
        &self,
        writes: &[&GameWrite],
        sent: &mut bool,
    ) -> Result<Vec<bool>, StoreError> {
        let mut conn = WriteConn::acquire(&self.pool).await?;
        let mut tx = conn.begin().await?;
        let mut moved = Vec::with_capacity(writes.len());
        for job in writes {
            let r = &job.row;
            let updated = sqlx::query(
                "UPDATE games SET version = $1, state = $2, finished_ms = $3, winner = $4, \
                 points = $5, plies = $6, white_id = $9, black_id = $10, \
                 white_client_seed = $11, black_client_seed = $12 \
                 WHERE id = $7 AND version = $8",
            )
            .bind(r.version)
            .bind(&r.state)
            .bind((r.state == "finished").then(now_ms))
            .bind(&r.winner)
            .bind(r.points)
            .bind(job.plies)
            .bind(&r.id)
            .bind(job.before)
            .bind(&r.white_id)
            .bind(&r.black_id)
            .bind(&r.white_client_seed)
            .bind(&r.black_client_seed)
            .execute(&mut *tx)
            .await?;
            if updated.rows_affected() != 1 {
                moved.push(false);
                continue;
            }
            let event = &job.event;
            sqlx::query(
                "INSERT INTO game_events (game_id, version, kind, actor, payload, nonce, \
                 created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&r.id)
            .bind(event.version)
            .bind(&event.kind)
            .bind(&event.actor)
            .bind(&event.payload)
            .bind(&event.nonce)
            .bind(event.at_ms)
            .execute(&mut *tx)
            .await?;
            if r.state == "finished" {
                super::ratings::record(&mut tx, r).await?;
            }
            moved.push(true);
        }
        if self.backend == Backend::Postgres {
            let payload: Vec<String> = writes
                .iter()
                .zip(&moved)
                .filter(|(_, &m)| m)
                .map(|(job, _)| format!("{}:{}", job.row.id, job.row.version))
                .collect();
            if !payload.is_empty() {
                sqlx::query("SELECT pg_notify('tabula_games', $1)")
                    .bind(payload.join(","))
                    .execute(&mut *tx)
                    .await?;
            }
        }
        *sent = true;
        tx.commit().await.map_err(commit_failure)?;
        conn.keep();
        Ok(moved)
    }
}
