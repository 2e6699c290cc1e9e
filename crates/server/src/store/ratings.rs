//! The rows of the ratings (`ratings`, one per player and game type; `rating_history`, one
//! per player and rated game): a player's standings and their rating game by game, and the
//! recording of a finished game inside the transaction that commits its last event
//! ([`super::batch`]). The arithmetic and the rules against farming are
//! [`crate::ratings`].

use super::{Db, GameRow, StoreError};
use crate::ratings::{count_result, is_provisional, rated_kinds, Standing};
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

impl Db {
    /// A player's standing in every game type they are rated in.
    pub async fn standings(&self, player: &str) -> Result<Vec<(String, Standing)>, StoreError> {
        let sql = format!("SELECT game_type, {STANDING_COLUMNS} FROM ratings WHERE player_id = $1");
        let rows = sqlx::query(&sql).bind(player).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<String, _>("game_type")?, standing(r)?)))
            .collect()
    }

    /// The standings of several players at once (the lobby's open seats), as (player, game
    /// type, standing): one query whatever the number of players.
    pub async fn standings_of(
        &self,
        players: &[&str],
    ) -> Result<Vec<(String, String, Standing)>, StoreError> {
        if players.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=players.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT player_id, game_type, {STANDING_COLUMNS} FROM ratings WHERE player_id IN ({})",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for p in players {
            query = query.bind(*p);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get::<String, _>("player_id")?,
                    r.try_get::<String, _>("game_type")?,
                    standing(r)?,
                ))
            })
            .collect()
    }
}

/// Reads a standing row.
fn standing(r: &AnyRow) -> Result<Standing, sqlx::Error> {
    Ok(Standing {
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        fibs_rating: r.try_get("fibs_rating")?,
        fibs_experience: r.try_get("fibs_experience")?,
        games: r.try_get("games")?,
        wins: r.try_get("wins")?,
        losses: r.try_get("losses")?,
        draws: r.try_get("draws")?,
        opponents: r.try_get("opponents")?,
        provisional: r.try_get::<i64, _>("provisional")? != 0,
    })
}

/// The columns [`standing`] reads.
const STANDING_COLUMNS: &str = "rating, deviation, volatility, fibs_rating, fibs_experience, \
     games, wins, losses, draws, opponents, provisional";

async fn load(
    tx: &mut Transaction<'_, Any>,
    player: &str,
    game_type: &str,
) -> Result<Standing, sqlx::Error> {
    let sql =
        format!("SELECT {STANDING_COLUMNS} FROM ratings WHERE player_id = $1 AND game_type = $2");
    let row = sqlx::query(&sql)
        .bind(player)
        .bind(game_type)
        .fetch_optional(&mut **tx)
        .await?;
    row.as_ref()
        .map(standing)
        .transpose()
        .map(Option::unwrap_or_default)
}

async fn store(
    tx: &mut Transaction<'_, Any>,
    player: &str,
    game_type: &str,
    s: &Standing,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ratings (player_id, game_type, rating, deviation, volatility, fibs_rating, \
         fibs_experience, games, wins, losses, draws, opponents, provisional) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
         ON CONFLICT (player_id, game_type) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         fibs_rating = excluded.fibs_rating, fibs_experience = excluded.fibs_experience, \
         games = excluded.games, wins = excluded.wins, losses = excluded.losses, \
         draws = excluded.draws, opponents = excluded.opponents, \
         provisional = excluded.provisional",
    )
    .bind(player)
    .bind(game_type)
    .bind(s.rating)
    .bind(s.deviation)
    .bind(s.volatility)
    .bind(s.fibs_rating)
    .bind(s.fibs_experience)
    .bind(s.games)
    .bind(s.wins)
    .bind(s.losses)
    .bind(s.draws)
    .bind(s.opponents)
    .bind(i64::from(s.provisional))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The kind of player `id` (`user`, `guest` or `bot`), if there is one.
async fn kind(tx: &mut Transaction<'_, Any>, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query("SELECT kind FROM players WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| r.try_get::<String, _>("kind"))
        .transpose()
}

/// Distinct opponents of `player` in finished rated games of `game_type`.
async fn opponents(
    tx: &mut Transaction<'_, Any>,
    player: &str,
    game_type: &str,
) -> Result<i64, sqlx::Error> {
    let row = sqlx::query(
        "SELECT CAST(COUNT(DISTINCT CASE WHEN white_id = $1 THEN black_id ELSE white_id END) \
         AS BIGINT) AS n FROM games WHERE rated = 1 AND game_type = $2 \
         AND (white_id = $1 OR black_id = $1)",
    )
    .bind(player)
    .bind(game_type)
    .fetch_one(&mut **tx)
    .await?;
    row.try_get("n")
}

/// Counts the finished game `row` for both seats: nothing for either when a guest played or
/// the game was created as practice (the game is marked unrated); otherwise the results
/// ([`count_result`]), then each side's distinct opponents and whether it is provisional.
pub(super) async fn record(
    tx: &mut Transaction<'_, Any>,
    row: &GameRow,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    let (Some(white), Some(black)) = (row.white_id.as_deref(), row.black_id.as_deref()) else {
        return Ok(());
    };
    let (Some(white_kind), Some(black_kind)) = (kind(tx, white).await?, kind(tx, black).await?)
    else {
        return Ok(());
    };
    // A practice game was marked unrated when it was created.
    let rated = rated_kinds(&white_kind, &black_kind) && row.rated != Some(0);
    sqlx::query("UPDATE games SET rated = $1 WHERE id = $2")
        .bind(i64::from(rated))
        .bind(&row.id)
        .execute(&mut **tx)
        .await?;
    if !rated {
        return Ok(());
    }
    let game_type = row.game_type.as_str();
    let (mut w, mut b) = (
        load(tx, white, game_type).await?,
        load(tx, black, game_type).await?,
    );
    count_result(row, &white_kind, &black_kind, &mut w, &mut b);
    for (s, id, kind) in [(&mut w, white, &white_kind), (&mut b, black, &black_kind)] {
        s.opponents = opponents(tx, id, game_type).await?;
        s.provisional = is_provisional(kind, s);
    }
    store(tx, white, game_type, &w).await?;
    store(tx, black, game_type, &b).await?;
    for (id, s) in [(white, &w), (black, &b)] {
        sqlx::query(
            "INSERT INTO rating_history (player_id, game_id, game_type, rated_ms, rating, \
             deviation) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player_id, game_id) \
             DO NOTHING",
        )
        .bind(id)
        .bind(&row.id)
        .bind(game_type)
        .bind(at_ms)
        .bind(s.rating)
        .bind(s.deviation)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A player's rating after one rated game.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct RatingPoint {
    /// The game.
    pub game_id: String,
    /// `backgammon`, `never-finishing`, `grasshopper` or `halma-grasshopper`.
    pub game_type: String,
    /// When it ended (Unix ms).
    pub at_ms: i64,
    /// The Glicko-2 rating after it, and its deviation.
    pub rating: f64,
    pub deviation: f64,
}

impl Db {
    /// `player`'s ratings game by game, oldest first (at most `limit`, the latest ones).
    pub async fn rating_history(
        &self,
        player: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, game_type, rated_ms, rating, deviation FROM rating_history \
             WHERE player_id = $1 ORDER BY rated_ms DESC, game_id LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut points = rows
            .iter()
            .map(|r| {
                Ok(RatingPoint {
                    game_id: r.try_get("game_id")?,
                    game_type: r.try_get("game_type")?,
                    at_ms: r.try_get("rated_ms")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        points.reverse();
        Ok(points)
    }
}
