//! The idempotency keys of `POST /api/games`: a game stored together with the creator's key
//! in one transaction, and the game an earlier create made under a key.

use super::faults::{commit_failure, WriteConn};
use super::{Db, GameRow, StoreError};
use sqlx::Row;

/// What storing a game under a key did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Created {
    /// The game was stored.
    New,
    /// An earlier create of the same player made this game under the same key (a request
    /// sent twice at once); nothing was stored.
    Earlier(String),
}

impl Db {
    /// The id of the game `player` created under `key`, if any.
    pub async fn game_of_key(&self, player: &str, key: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT game_id FROM game_creations WHERE player_id = $1 AND idempotency_key = $2",
        )
        .bind(player)
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("game_id")).transpose()?)
    }

    /// Stores `game` and `player`'s `key` for it in one transaction, unless the key already
    /// names a game (then that game's id, and nothing stored). The transaction runs on a
    /// [`WriteConn`]; a failed `COMMIT` is read by [`commit_failure`]
    /// ([`StoreError::OutcomeUnknown`] when it got no answer).
    pub async fn insert_game_with_key(
        &self,
        game: &GameRow,
        player: &str,
        key: &str,
    ) -> Result<Created, StoreError> {
        let mut conn = WriteConn::acquire(&self.pool).await?;
        let mut tx = conn.begin().await?;
        super::games::insert_game_on(&mut *tx, game).await?;
        let inserted = sqlx::query(
            "INSERT INTO game_creations (player_id, idempotency_key, game_id, created_ms) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(player)
        .bind(key)
        .bind(&game.id)
        .bind(game.created_ms)
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {
                tx.commit().await.map_err(commit_failure)?;
                conn.keep();
                Ok(Created::New)
            }
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                tx.rollback().await?;
                conn.keep();
                match self.game_of_key(player, key).await? {
                    Some(id) => Ok(Created::Earlier(id)),
                    None => Err(StoreError::Bug(
                        "an idempotency key without its game".into(),
                    )),
                }
            }
            Err(e) => Err(e.into()),
        }
    }
}
