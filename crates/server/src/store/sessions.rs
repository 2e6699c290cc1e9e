//! Sessions and API tokens: stored by the hash of their secret, with a public id, listed
//! and ended by their player, deleted once expired.

use super::players::player_row;
use super::{now_ms, Db, PlayerRow, StoreError};
use sqlx::Row;

impl Db {
    /// Stores a session or API token (by its hash) that expires at `expires_ms`, with its
    /// public id; first deletes every expired session and token.
    pub async fn insert_session(
        &self,
        hash: &str,
        player: &str,
        kind: &str,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        let now = now_ms();
        sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (token_hash, player_id, kind, created_ms, id, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(hash)
        .bind(player)
        .bind(kind)
        .bind(now)
        .bind(crate::ids::new_id())
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The player a session or token hash belongs to, unless it expired by `now_ms` (an
    /// expired one is deleted).
    pub async fn session_player(
        &self,
        hash: &str,
        kind: &str,
        now_ms: i64,
    ) -> Result<Option<PlayerRow>, StoreError> {
        let sql = "SELECT p.id, p.name, p.username, p.password_hash, p.kind, s.expires_ms \
                   FROM sessions s JOIN players p ON p.id = s.player_id \
                   WHERE s.token_hash = $1 AND s.kind = $2";
        let row = sqlx::query(sql)
            .bind(hash)
            .bind(kind)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let expires: Option<i64> = row.try_get("expires_ms")?;
        if expires.is_some_and(|e| e <= now_ms) {
            self.delete_session(hash).await?;
            return Ok(None);
        }
        Ok(player_row(&row).map(Some)?)
    }

    /// The public id of the session or token with this hash.
    pub async fn session_id(&self, hash: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT id FROM sessions WHERE token_hash = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("id")).transpose()?)
    }

    /// A player's sessions and tokens that have not expired, newest first (never their
    /// secrets).
    pub async fn sessions_of(&self, player: &str) -> Result<Vec<SessionRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, kind, created_ms, expires_ms FROM sessions \
             WHERE player_id = $1 AND expires_ms > $2 ORDER BY created_ms DESC",
        )
        .bind(player)
        .bind(now_ms())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SessionRow {
                    id: r.try_get("id")?,
                    kind: r.try_get("kind")?,
                    created_ms: r.try_get("created_ms")?,
                    expires_ms: r.try_get("expires_ms")?,
                })
            })
            .collect()
    }

    /// Ends a session.
    pub async fn delete_session(&self, hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends the player's session or token with this public id; whether there was one.
    pub async fn delete_session_by_id(&self, player: &str, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE player_id = $1 AND id = $2")
            .bind(player)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Ends every session and token of the player; how many there were.
    pub async fn delete_sessions_of(&self, player: &str) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE player_id = $1")
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}

/// A session or API token as listed (its secret is never stored, nor shown).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct SessionRow {
    /// Public id (for `DELETE /api/sessions/{id}`).
    pub id: String,
    /// `cookie` (a browser session) or `api` (an API token).
    pub kind: String,
    /// Creation time, Unix milliseconds.
    pub created_ms: i64,
    /// Expiry time, Unix milliseconds.
    pub expires_ms: i64,
}
