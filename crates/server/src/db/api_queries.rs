//! The queries of the smaller API routes, so that no route writes SQL: the statistics of
//! finished games, a player's preferences and standings, and the rematch offers.

use super::Db;
use crate::ratings::{standing, Standing, STANDING_COLUMNS};
use sqlx::Row;

/// The finished games of one game type: how many, White's and Black's wins, and the actions
/// played in them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedCounts {
    /// Finished games.
    pub games: i64,
    /// Won by White.
    pub white_wins: i64,
    /// Won by Black.
    pub black_wins: i64,
    /// Actions in all of them.
    pub plies: i64,
}

impl Db {
    /// The counts of the finished games of `game_type`.
    pub async fn finished_counts(&self, game_type: &str) -> Result<FinishedCounts, sqlx::Error> {
        let row = sqlx::query(
            "SELECT CAST(COUNT(*) AS BIGINT) AS n, \
             CAST(COALESCE(SUM(CASE WHEN winner = 'white' THEN 1 ELSE 0 END), 0) AS BIGINT) AS w, \
             CAST(COALESCE(SUM(CASE WHEN winner = 'black' THEN 1 ELSE 0 END), 0) AS BIGINT) AS b, \
             CAST(COALESCE(SUM(plies), 0) AS BIGINT) AS plies \
             FROM games WHERE state = 'finished' AND game_type = $1",
        )
        .bind(game_type)
        .fetch_one(&self.pool)
        .await?;
        Ok(FinishedCounts {
            games: row.try_get("n")?,
            white_wins: row.try_get("w")?,
            black_wins: row.try_get("b")?,
            plies: row.try_get("plies")?,
        })
    }

    /// A player's stored preferences (JSON), `None` when never saved or no such player.
    pub async fn preferences(&self, player: &str) -> Result<Option<String>, sqlx::Error> {
        let stored: Option<Option<String>> =
            sqlx::query_scalar("SELECT preferences FROM players WHERE id = $1")
                .bind(player)
                .fetch_optional(&self.pool)
                .await?;
        Ok(stored.flatten())
    }

    /// Stores a player's preferences (JSON).
    pub async fn set_preferences(&self, player: &str, json: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE players SET preferences = $1 WHERE id = $2")
            .bind(json)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's standing in every game type they are rated in.
    pub async fn standings(&self, player: &str) -> Result<Vec<(String, Standing)>, sqlx::Error> {
        let sql = format!("SELECT game_type, {STANDING_COLUMNS} FROM ratings WHERE player_id = $1");
        let rows = sqlx::query(&sql).bind(player).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<String, _>("game_type")?, standing(r)?)))
            .collect()
    }

    /// Records that `color` offers a rematch of game `id`, unless it has one already.
    pub async fn offer_rematch(&self, id: &str, color: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET rematch_offer = $1 WHERE id = $2 AND rematch_id IS NULL")
            .bind(color)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Claims game `id`'s rematch for the new game `new_id`; whether this call claimed it
    /// (`false`: another request did first).
    pub async fn claim_rematch(&self, id: &str, new_id: &str) -> Result<bool, sqlx::Error> {
        let claimed =
            sqlx::query("UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL")
                .bind(new_id)
                .bind(id)
                .execute(&self.pool)
                .await?;
        Ok(claimed.rows_affected() == 1)
    }

    /// Withdraws game `id`'s rematch offer, unless the rematch was made.
    pub async fn withdraw_rematch(&self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET rematch_offer = NULL WHERE id = $1 AND rematch_id IS NULL")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
