//! Chat between the two players of a game (migration 0009): the messages, numbered from 1
//! within their game, a player's recent messages for the rate limit, and each player's
//! choices for a game (mute the opponent, let spectators read). Who may post and read is
//! decided by the API ([`crate::api::chat`]); this module only stores.

use super::{Db, StoreError};
use sqlx::Row;

/// One stored message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRow {
    /// Its number within the game, from 1.
    pub seq: i64,
    /// The player who wrote it.
    pub player_id: String,
    /// Their seat, `white` or `black`.
    pub seat: String,
    /// The text, as accepted.
    pub body: String,
    /// When it was written (Unix milliseconds).
    pub created_ms: i64,
}

/// One player's chat choices for one game (both off until set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChatSettings {
    /// This player does not see the opponent's messages.
    pub mute: bool,
    /// This player lets spectators read the chat.
    pub spectators: bool,
}

impl Db {
    /// Appends a message to game `game`'s chat; its number. Two instances racing for the same
    /// number: the loser tries again (three times, then the conflict is answered).
    pub async fn add_chat(
        &self,
        game: &str,
        player: &str,
        seat: &str,
        body: &str,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        let mut tries = 0;
        loop {
            let inserted = sqlx::query(
                "INSERT INTO chat_messages (game_id, seq, player_id, seat, body, created_ms) \
                 SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5 FROM chat_messages \
                 WHERE game_id = $6 RETURNING seq",
            )
            .bind(game)
            .bind(player)
            .bind(seat)
            .bind(body)
            .bind(now_ms)
            .bind(game)
            .fetch_one(&self.pool)
            .await;
            match inserted {
                Ok(row) => return Ok(row.try_get("seq")?),
                Err(e) => match StoreError::from(e) {
                    StoreError::Conflict(_) if tries < 2 => tries += 1,
                    e => return Err(e),
                },
            }
        }
    }

    /// The messages of game `game` numbered above `after`, oldest first, at most `limit`.
    pub async fn chat(
        &self,
        game: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<ChatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, player_id, seat, body, created_ms FROM chat_messages \
             WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        )
        .bind(game)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatRow {
                    seq: r.try_get("seq")?,
                    player_id: r.try_get("player_id")?,
                    seat: r.try_get("seat")?,
                    body: r.try_get("body")?,
                    created_ms: r.try_get("created_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// How many messages game `game` holds.
    pub async fn chat_count(&self, game: &str) -> Result<i64, StoreError> {
        Ok(
            sqlx::query("SELECT COUNT(*) AS n FROM chat_messages WHERE game_id = $1")
                .bind(game)
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?,
        )
    }

    /// When player `player` wrote their messages since `since_ms` (in any game), oldest first.
    pub async fn chat_times_since(
        &self,
        player: &str,
        since_ms: i64,
    ) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT created_ms FROM chat_messages WHERE player_id = $1 AND created_ms > $2 \
             ORDER BY created_ms",
        )
        .bind(player)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("created_ms"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Player `player`'s chat choices in game `game`.
    pub async fn chat_settings(
        &self,
        game: &str,
        player: &str,
    ) -> Result<ChatSettings, StoreError> {
        let row = sqlx::query(
            "SELECT mute, spectators FROM chat_settings WHERE game_id = $1 AND player_id = $2",
        )
        .bind(game)
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(ChatSettings::default());
        };
        Ok(ChatSettings {
            mute: row.try_get::<i64, _>("mute")? != 0,
            spectators: row.try_get::<i64, _>("spectators")? != 0,
        })
    }

    /// Stores player `player`'s chat choices in game `game`.
    pub async fn set_chat_settings(
        &self,
        game: &str,
        player: &str,
        settings: ChatSettings,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO chat_settings (game_id, player_id, mute, spectators) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, player_id) \
             DO UPDATE SET mute = excluded.mute, spectators = excluded.spectators",
        )
        .bind(game)
        .bind(player)
        .bind(i64::from(settings.mute))
        .bind(i64::from(settings.spectators))
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
