//! The players' rows: registered users, guests and bot levels, their names and keys
//! ([`crate::names`]), and their preferences.

use super::{now_ms, Backend, Db, StoreError};
use sqlx::any::AnyRow;
use sqlx::Row;

/// A player as stored.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    /// Id.
    pub id: String,
    /// Shown name.
    pub name: String,
    /// Login name of a registered user.
    pub username: Option<String>,
    /// Argon2id hash.
    pub password_hash: Option<String>,
    /// `user`, `guest` or `bot`.
    pub kind: String,
}

impl PlayerRow {
    /// The name as result sentences and exports write it: a guest's with ` (guest)` after
    /// it, so that nobody reads a guest as the user or bot of a similar name.
    pub fn label(&self) -> String {
        guest_label(&self.name, &self.kind)
    }
}

/// `name`, with ` (guest)` after it when `kind` is `guest`.
pub fn guest_label(name: &str, kind: &str) -> String {
    if kind == "guest" {
        format!("{name} (guest)")
    } else {
        name.to_string()
    }
}

/// Reads a player row (the columns [`PLAYER_COLUMNS`]).
pub(super) fn player_row(r: &AnyRow) -> Result<PlayerRow, sqlx::Error> {
    Ok(PlayerRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        username: r.try_get("username")?,
        password_hash: r.try_get("password_hash")?,
        kind: r.try_get("kind")?,
    })
}

pub(super) const PLAYER_COLUMNS: &str = "id, name, username, password_hash, kind";

impl Db {
    /// Stores a new player with its username key and name key ([`crate::names`]); a
    /// username whose key is taken is refused ([`StoreError::Conflict`]).
    pub async fn insert_player(&self, p: &PlayerRow) -> Result<(), StoreError> {
        let username_key = p.username.as_deref().map(crate::names::username_key);
        let name_key = p.username.as_deref().map(crate::names::name_key);
        let result = sqlx::query(
            "INSERT INTO players (id, name, username, password_hash, kind, created_ms, \
             username_key, name_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&p.id)
        .bind(&p.name)
        .bind(&p.username)
        .bind(&p.password_hash)
        .bind(&p.kind)
        .bind(now_ms())
        .bind(username_key)
        .bind(name_key)
        .execute(&self.pool)
        .await;
        result?;
        Ok(())
    }

    /// Ensures the row of a bot level exists (bots are rated like players).
    pub async fn ensure_bot(&self, id: &str, name: &str) -> Result<(), StoreError> {
        let sql = match self.backend {
            Backend::Sqlite => "INSERT OR IGNORE INTO players (id, name, username, password_hash, kind, created_ms) VALUES ($1, $2, NULL, NULL, 'bot', $3)",
            Backend::Postgres => "INSERT INTO players (id, name, username, password_hash, kind, created_ms) VALUES ($1, $2, NULL, NULL, 'bot', $3) ON CONFLICT (id) DO NOTHING",
        };
        sqlx::query(sql)
            .bind(id)
            .bind(name)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The player with this id.
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(player_row).transpose()?)
    }

    /// The registered player with this username, in any case: the one spelt exactly so
    /// first (two accounts differing only in case can exist from before migration 0002),
    /// then the one with its lowercase key.
    pub async fn player_by_username(
        &self,
        username: &str,
    ) -> Result<Option<PlayerRow>, StoreError> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE username = $1 OR username_key = $2 \
             ORDER BY CASE WHEN username = $1 THEN 0 ELSE 1 END LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(username)
            .bind(crate::names::username_key(username))
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(player_row).transpose()?)
    }

    /// Whether a registered user's name has this name key ([`crate::names::name_key`]).
    pub async fn user_with_name_key(&self, key: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT id FROM players WHERE name_key = $1 LIMIT 1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// A player's stored preferences (JSON), `None` when never saved or no such player.
    pub async fn preferences(&self, player: &str) -> Result<Option<String>, StoreError> {
        let stored: Option<Option<String>> =
            sqlx::query_scalar("SELECT preferences FROM players WHERE id = $1")
                .bind(player)
                .fetch_optional(&self.pool)
                .await?;
        Ok(stored.flatten())
    }

    /// Stores a player's preferences (JSON).
    pub async fn set_preferences(&self, player: &str, json: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET preferences = $1 WHERE id = $2")
            .bind(json)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
