//! Games and their logs: a game's row (its state is rebuilt from the events), the events
//! in order, the lists of the lobby and of a player's games, the statistics of finished
//! games, and the rematch offers. A change to a game is written by [`super::batch`].

use super::{Db, StoreError};
use sqlx::any::AnyRow;
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

/// A game as stored (its state is rebuilt from the events).
#[derive(Debug, Clone)]
pub struct GameRow {
    /// Id.
    pub id: String,
    /// Game type id (`backgammon`, ...).
    pub game_type: String,
    /// The options as JSON.
    pub options: String,
    /// White's and Black's player ids.
    pub white_id: Option<String>,
    /// Black's player id.
    pub black_id: Option<String>,
    /// White's bot level, if a bot.
    pub white_bot: Option<String>,
    /// Black's bot level, if a bot.
    pub black_bot: Option<String>,
    /// White's client seed.
    pub white_client_seed: Option<String>,
    /// Black's client seed.
    pub black_client_seed: Option<String>,
    /// The invitation code of the empty seat.
    pub invite_code: Option<String>,
    /// Whether the empty seat is listed in the lobby.
    pub listed: bool,
    /// `waiting`, `playing` or `finished`.
    pub state: String,
    /// The secret seed (hex); revealed once finished.
    pub server_seed: String,
    /// SHA-256 of the seed.
    pub commitment: String,
    /// Events so far.
    pub version: i64,
    /// Creation time.
    pub created_ms: i64,
    /// Winner colour once finished (`None`: draw or unfinished).
    pub winner: Option<String>,
    /// Points won.
    pub points: Option<i64>,
    /// Actions played.
    pub plies: Option<i64>,
    /// Whether the game counts for ratings: set when it ends (0 when a guest played), or 0
    /// from the start for a practice game (`unrated` at creation).
    pub rated: Option<i64>,
    /// The time control as JSON (`{"delay": s, "reserve": s}`), `None` for none.
    pub clock: Option<String>,
    /// A finished game's rematch offer: the colour of the seat that offered it.
    pub rematch_offer: Option<String>,
    /// The rematch's game id, once both players accepted.
    pub rematch_id: Option<String>,
}

const GAME_COLUMNS: &str = "id, game_type, options, white_id, black_id, white_bot, black_bot, \
    white_client_seed, black_client_seed, invite_code, listed, state, server_seed, commitment, \
    version, created_ms, winner, points, plies, rated, clock, rematch_offer, rematch_id";

fn game_row(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: r.try_get("id")?,
        game_type: r.try_get("game_type")?,
        options: r.try_get("options")?,
        white_id: r.try_get("white_id")?,
        black_id: r.try_get("black_id")?,
        white_bot: r.try_get("white_bot")?,
        black_bot: r.try_get("black_bot")?,
        white_client_seed: r.try_get("white_client_seed")?,
        black_client_seed: r.try_get("black_client_seed")?,
        invite_code: r.try_get("invite_code")?,
        listed: r.try_get::<i64, _>("listed")? != 0,
        state: r.try_get("state")?,
        server_seed: r.try_get("server_seed")?,
        commitment: r.try_get("commitment")?,
        version: r.try_get("version")?,
        created_ms: r.try_get("created_ms")?,
        winner: r.try_get("winner")?,
        points: r.try_get("points")?,
        plies: r.try_get("plies")?,
        rated: r.try_get("rated")?,
        clock: r.try_get("clock")?,
        rematch_offer: r.try_get("rematch_offer")?,
        rematch_id: r.try_get("rematch_id")?,
    })
}

/// One entry of a game's log.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct EventRow {
    /// The game's version after this event (1 for the first).
    pub version: i64,
    /// `action`, `roll` or `join` (a player took the empty seat; payload: their id).
    pub kind: String,
    /// The colour that acted, or asked for the roll.
    pub actor: Option<String>,
    /// The canonical action text, or the dice as `5-2`.
    pub payload: String,
    /// The client's nonce of a roll (`server:N` for a roll the server made for a player,
    /// docs/dice.md).
    pub nonce: Option<String>,
    /// When the event was committed, in milliseconds since the epoch: the clocks are
    /// derived from these times.
    #[serde(default)]
    pub at_ms: i64,
}

impl Db {
    /// Stores a new game.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        Ok(insert_game_on(&self.pool, g).await?)
    }

    /// The game with this id.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(game_row).transpose()?)
    }

    /// The newest games waiting for a player whose empty seat is listed in the lobby.
    pub async fn open_games(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        self.games_where("state = 'waiting' AND listed = 1", None, limit)
            .await
    }

    /// The newest games being played.
    pub async fn playing_games(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        self.games_where("state = 'playing'", None, limit).await
    }

    /// A player's newest games, in either seat.
    pub async fn games_of(&self, player: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        self.games_where("white_id = $1 OR black_id = $1", Some(player), limit)
            .await
    }

    /// The games being played with a bot in a seat.
    pub async fn games_with_bots(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        self.games_where(
            "state = 'playing' AND (white_bot IS NOT NULL OR black_bot IS NOT NULL)",
            None,
            limit,
        )
        .await
    }

    /// The games being played against a bot whose last event (or creation) is older than
    /// `before_ms`, with their versions, at most `limit` ([`crate::abandon`]).
    pub async fn idle_bot_games(
        &self,
        before_ms: i64,
        limit: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.version FROM games g \
             WHERE g.state = 'playing' AND (g.white_bot IS NOT NULL OR g.black_bot IS NOT NULL) \
             AND COALESCE((SELECT MAX(e.created_ms) FROM game_events e WHERE e.game_id = g.id), \
                 g.created_ms) < $1 \
             ORDER BY g.id LIMIT $2",
        )
        .bind(before_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("version")?)))
            .collect()
    }

    /// The games being played with a clock or a bot in a seat (the referee watches them).
    pub async fn games_to_watch(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        self.games_where(
            "state = 'playing' AND (clock IS NOT NULL OR white_bot IS NOT NULL \
             OR black_bot IS NOT NULL)",
            None,
            limit,
        )
        .await
    }

    /// Games matching a WHERE clause (no user input in it; values bound as `$1`).
    async fn games_where(
        &self,
        clause: &str,
        value: Option<&str>,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE {clause} ORDER BY created_ms DESC LIMIT {limit}"
        );
        let mut q = sqlx::query(&sql);
        if let Some(v) = value {
            q = q.bind(v);
        }
        let rows = q.fetch_all(&self.pool).await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// The events after `since`, in order.
    pub async fn events(&self, id: &str, since: i64) -> Result<Vec<EventRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT version, kind, actor, payload, nonce, created_ms FROM game_events \
             WHERE game_id = $1 AND version > $2 ORDER BY version",
        )
        .bind(id)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EventRow {
                    version: r.try_get("version")?,
                    kind: r.try_get("kind")?,
                    actor: r.try_get("actor")?,
                    payload: r.try_get("payload")?,
                    nonce: r.try_get("nonce")?,
                    at_ms: r.try_get("created_ms")?,
                })
            })
            .collect()
    }

    /// The counts of the finished games of `game_type`.
    pub async fn finished_counts(&self, game_type: &str) -> Result<FinishedCounts, StoreError> {
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

    /// Records that `color` offers a rematch of game `id`, unless it has one already.
    pub async fn offer_rematch(&self, id: &str, color: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET rematch_offer = $1 WHERE id = $2 AND rematch_id IS NULL")
            .bind(color)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Claims game `id`'s rematch for the new game `new_id`; whether this call claimed it
    /// (`false`: another request did first).
    pub async fn claim_rematch(&self, id: &str, new_id: &str) -> Result<bool, StoreError> {
        let claimed =
            sqlx::query("UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL")
                .bind(new_id)
                .bind(id)
                .execute(&self.pool)
                .await?;
        Ok(claimed.rows_affected() == 1)
    }

    /// Withdraws game `id`'s rematch offer, unless the rematch was made.
    pub async fn withdraw_rematch(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET rematch_offer = NULL WHERE id = $1 AND rematch_id IS NULL")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// Stores a new game through `e` (the pool, or a transaction).
pub(super) async fn insert_game_on<'e, E>(e: E, g: &GameRow) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let sql = format!(
        "INSERT INTO games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, \
         $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)"
    );
    sqlx::query(&sql)
        .bind(&g.id)
        .bind(&g.game_type)
        .bind(&g.options)
        .bind(&g.white_id)
        .bind(&g.black_id)
        .bind(&g.white_bot)
        .bind(&g.black_bot)
        .bind(&g.white_client_seed)
        .bind(&g.black_client_seed)
        .bind(&g.invite_code)
        .bind(i64::from(g.listed))
        .bind(&g.state)
        .bind(&g.server_seed)
        .bind(&g.commitment)
        .bind(g.version)
        .bind(g.created_ms)
        .bind(&g.winner)
        .bind(g.points)
        .bind(g.plies)
        .bind(g.rated)
        .bind(&g.clock)
        .bind(&g.rematch_offer)
        .bind(&g.rematch_id)
        .execute(e)
        .await?;
    Ok(())
}
