//! Storage: one schema (`migrations/`) on SQLite or PostgreSQL through sqlx's `Any` driver,
//! and every query the server makes. Placeholders are written `$1`, which both accept.

use crate::error::ApiError;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};
use std::time::{SystemTime, UNIX_EPOCH};

mod creations;
pub use creations::Created;

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
    pub pool: AnyPool,
    /// The backend.
    pub backend: Backend,
    /// The URL it was opened with (for LISTEN connections).
    pub url: String,
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
    pub async fn open(url: &str, max_bytes: Option<u64>) -> Result<Db, sqlx::Error> {
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
            // Fail fast when the database is unreachable (crate::storage).
            .acquire_timeout(crate::storage::ACQUIRE_TIMEOUT)
            // Never reuse a connection left inside a transaction.
            .after_release(|conn, _| Box::pin(async move { Ok(crate::storage::reusable(conn)) }))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // Durable commits (an acknowledged action survives a crash) and a
                        // bounded wait instead of an error when another connection writes.
                        conn.execute(
                            format!(
                                "PRAGMA busy_timeout = {}",
                                crate::storage::SQLITE_BUSY_TIMEOUT_MS
                            )
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
    async fn fill_name_keys(&self) -> Result<(), sqlx::Error> {
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

fn player_row(r: &AnyRow) -> Result<PlayerRow, sqlx::Error> {
    Ok(PlayerRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        username: r.try_get("username")?,
        password_hash: r.try_get("password_hash")?,
        kind: r.try_get("kind")?,
    })
}

const PLAYER_COLUMNS: &str = "id, name, username, password_hash, kind";

impl Db {
    /// Stores a new player with its username key and name key ([`crate::names`]); a
    /// username whose key is taken is refused (409 `username_taken`).
    pub async fn insert_player(&self, p: &PlayerRow) -> Result<(), ApiError> {
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
        match result {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(ApiError::conflict(
                "username_taken",
                "that username is taken",
            )),
            Err(e) => Err(e.into()),
        }
    }

    /// Ensures the row of a bot level exists (bots are rated like players).
    pub async fn ensure_bot(&self, id: &str, name: &str) -> Result<(), sqlx::Error> {
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
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, sqlx::Error> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(player_row).transpose()
    }

    /// The registered player with this username, in any case: the one spelt exactly so
    /// first (two accounts differing only in case can exist from before migration 0002),
    /// then the one with its lowercase key.
    pub async fn player_by_username(
        &self,
        username: &str,
    ) -> Result<Option<PlayerRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE username = $1 OR username_key = $2 \
             ORDER BY CASE WHEN username = $1 THEN 0 ELSE 1 END LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(username)
            .bind(crate::names::username_key(username))
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(player_row).transpose()
    }

    /// Whether a registered user's name has this name key ([`crate::names::name_key`]).
    pub async fn user_with_name_key(&self, key: &str) -> Result<bool, sqlx::Error> {
        let row = sqlx::query("SELECT id FROM players WHERE name_key = $1 LIMIT 1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Stores a session or API token (by its hash) that expires at `expires_ms`, with its
    /// public id; first deletes every expired session and token.
    pub async fn insert_session(
        &self,
        hash: &str,
        player: &str,
        kind: &str,
        expires_ms: i64,
    ) -> Result<(), sqlx::Error> {
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
    ) -> Result<Option<PlayerRow>, sqlx::Error> {
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
        player_row(&row).map(Some)
    }

    /// The public id of the session or token with this hash.
    pub async fn session_id(&self, hash: &str) -> Result<Option<String>, sqlx::Error> {
        let row = sqlx::query("SELECT id FROM sessions WHERE token_hash = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("id")).transpose()
    }

    /// A player's sessions and tokens that have not expired, newest first (never their
    /// secrets).
    pub async fn sessions_of(&self, player: &str) -> Result<Vec<SessionRow>, sqlx::Error> {
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
    pub async fn delete_session(&self, hash: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends the player's session or token with this public id; whether there was one.
    pub async fn delete_session_by_id(&self, player: &str, id: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("DELETE FROM sessions WHERE player_id = $1 AND id = $2")
            .bind(player)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Ends every session and token of the player; how many there were.
    pub async fn delete_sessions_of(&self, player: &str) -> Result<u64, sqlx::Error> {
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
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), sqlx::Error> {
        insert_game_on(&self.pool, g).await
    }

    /// The game with this id.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, sqlx::Error> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(game_row).transpose()
    }

    /// Games matching a WHERE clause (no user input in it; values bound as `$1`).
    pub async fn games_where(
        &self,
        clause: &str,
        value: Option<&str>,
        limit: i64,
    ) -> Result<Vec<GameRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE {clause} ORDER BY created_ms DESC LIMIT {limit}"
        );
        let mut q = sqlx::query(&sql);
        if let Some(v) = value {
            q = q.bind(v);
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter().map(game_row).collect()
    }

    /// The events after `since`, in order.
    pub async fn events(&self, id: &str, since: i64) -> Result<Vec<EventRow>, sqlx::Error> {
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
}

/// Stores a new game through `e` (the pool, or a transaction).
async fn insert_game_on<'e, E>(e: E, g: &GameRow) -> Result<(), sqlx::Error>
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
