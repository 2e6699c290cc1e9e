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

/// The `NOTIFY` channel of committed changes: a payload of `id:version` for every game the
/// transaction moved, separated by commas ([`moved_games`] reads it).
pub const GAMES_CHANNEL: &str = "tabula_games";

/// The games and versions of a [`GAMES_CHANNEL`] payload; malformed entries are skipped.
pub fn moved_games(payload: &str) -> Vec<(String, i64)> {
    payload
        .split(',')
        .filter_map(|entry| {
            let (id, version) = entry.split_once(':')?;
            Some((id.to_string(), version.parse().ok()?))
        })
        .collect()
}

/// One change to write: the game row as it must become, from `before`, and its event.
pub struct GameWrite {
    /// The version the stored row must still have.
    pub before: i64,
    /// The row after the change (its `plies` counted).
    pub row: GameRow,
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
            .bind(r.plies)
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
                super::ratings::record(&mut tx, r, event.at_ms).await?;
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
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(GAMES_CHANNEL)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notification_names_every_game_its_transaction_moved() {
        let games = moved_games("00aa:3,bb11:12,broken,cc:x");
        assert_eq!(games, vec![("00aa".into(), 3), ("bb11".into(), 12)]);
    }

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            game_type: "backgammon".into(),
            options: "{}".into(),
            white_id: None,
            black_id: None,
            white_bot: None,
            black_bot: None,
            white_client_seed: None,
            black_client_seed: None,
            invite_code: None,
            listed: false,
            state: "waiting".into(),
            server_seed: "00".into(),
            commitment: "00".into(),
            version: 0,
            created_ms: 0,
            winner: None,
            points: None,
            plies: Some(0),
            rated: None,
            clock: None,
            rematch_offer: None,
            rematch_id: None,
        }
    }

    fn write(id: &str, before: i64) -> GameWrite {
        let mut row = game(id);
        row.version = before + 1;
        row.plies = Some(before + 1);
        GameWrite {
            before,
            row,
            event: EventRow {
                version: before + 1,
                kind: "action".into(),
                actor: Some("white".into()),
                payload: "8/5 6/5".into(),
                nonce: None,
                at_ms: 1,
            },
        }
    }

    #[tokio::test]
    async fn a_batch_moves_each_game_still_at_its_version_and_leaves_a_stale_one_alone() {
        let dir = std::env::temp_dir().join(format!("tabula_batch_{}", crate::ids::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::open(dir.join("t.sqlite3").to_str().unwrap(), None)
            .await
            .unwrap();
        for id in ["a", "b"] {
            db.insert_game(&game(id)).await.unwrap();
        }
        // b is written as if it were at version 5: another writer moved it, so it is stale.
        let (a, b) = (write("a", 0), write("b", 5));
        let mut sent = false;
        let moved = db.write_batch(&[&a, &b], &mut sent).await.unwrap();
        assert!(sent);
        assert_eq!(moved, vec![true, false]);
        let stored = db.game("a").await.unwrap().unwrap();
        assert_eq!((stored.version, stored.plies), (1, Some(1)));
        assert_eq!(db.events("a", 0).await.unwrap(), vec![a.event.clone()]);
        assert_eq!(db.game("b").await.unwrap().unwrap().version, 0);
        assert!(db.events("b", 0).await.unwrap().is_empty());
        drop(db);
        let _ = std::fs::remove_dir_all(dir);
    }
}
