//! The authority over games: loads a game by replaying its log, checks who may act, applies
//! actions and rolls through the rules engine, and commits each to the log before anyone is
//! told. A commit is optimistic: it appends version `v + 1` only if the stored game is still
//! at `v`, so two instances on one database can never both append the same version; the
//! loser reloads and tries again.

use crate::db::{now_ms, Db, EventRow, GameRow};
use crate::error::ApiError;
use crate::games::{GameOptions, Table};
use crate::live::{Hub, Push};
use crate::ratings;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tabula_core::verifiable::{ClientSeeds, ServerSeed};
use tabula_core::{ByColor, Chance, Color, DiceRoll, Status};

/// A game loaded in memory: its stored row, its state and how many rolls it has seen.
#[derive(Clone)]
pub struct Loaded {
    /// The stored row (version included).
    pub row: GameRow,
    /// The rules engine's state after every event.
    pub table: Table,
    /// Rolls so far (the next roll's number).
    pub rolls: u64,
    /// Actions so far.
    pub plies: i64,
    /// The seated players' names, for the result sentences (`White` / `Black` for an empty
    /// seat). Seats change only with a logged join, so a cached game keeps them.
    pub names: ByColor<String>,
}

/// Shared server state.
pub struct App {
    /// The database.
    pub db: Db,
    /// Live channels.
    pub hub: Hub,
    cache: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Option<Loaded>>>>>,
    pub(crate) driving: Mutex<HashSet<String>>,
}

/// Who supplies the nonce of the roll a game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roller {
    /// This seat's client.
    Seat(Color),
    /// Either human seat (a human-v-human opening roll).
    Either,
    /// The server itself (no human seat).
    Server,
}

/// The colour's name as stored.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl GameRow {
    /// The player id in `color`'s seat.
    pub fn seat(&self, color: Color) -> Option<&str> {
        match color {
            Color::White => self.white_id.as_deref(),
            Color::Black => self.black_id.as_deref(),
        }
    }
    /// The bot level in `color`'s seat.
    pub fn bot(&self, color: Color) -> Option<&str> {
        match color {
            Color::White => self.white_bot.as_deref(),
            Color::Black => self.black_bot.as_deref(),
        }
    }
    /// Whether a person sits in `color`'s seat.
    pub fn human(&self, color: Color) -> bool {
        self.bot(color).is_none() && self.seat(color).is_some()
    }
    /// The seat `player` sits in (White first if both).
    pub fn color_of(&self, player: &str) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.human(c) && self.seat(c) == Some(player))
    }
    /// The options.
    pub fn game_options(&self) -> Result<GameOptions, ApiError> {
        serde_json::from_str(&self.options).map_err(ApiError::internal)
    }
    /// The client seeds recorded so far.
    pub fn client_seeds(&self) -> ClientSeeds {
        ClientSeeds {
            white: self.white_client_seed.clone().unwrap_or_default(),
            black: self.black_client_seed.clone().unwrap_or_default(),
        }
    }
}

impl Loaded {
    /// The players' names by colour.
    pub fn names(&self) -> ByColor<&str> {
        ByColor {
            white: &self.names.white,
            black: &self.names.black,
        }
    }

    /// The state for clients, the result sentences naming the players.
    pub fn view(&self) -> serde_json::Value {
        self.table.view(self.names())
    }

    /// Who must send the nonce of the roll the game waits for; `None` when no roll is due.
    pub fn roller(&self) -> Option<Roller> {
        let Status::Chance(chance) = self.table.status() else {
            return None;
        };
        let row = &self.row;
        Some(match chance {
            Chance::Roll(c) if row.human(c) => Roller::Seat(c),
            Chance::Roll(c) if row.human(!c) => Roller::Seat(!c),
            Chance::Opening if row.human(Color::White) && row.human(Color::Black) => Roller::Either,
            Chance::Opening if row.human(Color::White) => Roller::Seat(Color::White),
            Chance::Opening if row.human(Color::Black) => Roller::Seat(Color::Black),
            _ => Roller::Server,
        })
    }

    /// The seat whose bot must decide now.
    pub fn bot_to_act(&self) -> Option<(Color, String)> {
        match self.table.status() {
            Status::Decide { player, .. } if self.row.state == "playing" => {
                self.row.bot(player).map(|b| (player, b.to_string()))
            }
            _ => None,
        }
    }
}

/// What a commit appends.
pub enum Change {
    /// An action by a colour, by its canonical text.
    Action(Color, String),
    /// A roll asked for by a colour (or the server), with its nonce and dice.
    Roll(Option<Color>, String, DiceRoll),
    /// A player takes the empty seat of this colour, with their client seed; the game
    /// starts.
    Join {
        /// The seat.
        color: Color,
        /// The player's id.
        player: String,
        /// The player's name.
        name: String,
        /// Their client seed.
        seed: Option<String>,
    },
}

/// The name shown for an empty seat.
fn seat_name(color: Color) -> String {
    match color {
        Color::White => "White".into(),
        Color::Black => "Black".into(),
    }
}

fn replay(row: GameRow, events: &[EventRow], names: ByColor<String>) -> Result<Loaded, ApiError> {
    let mut table = Table::new(&row.game_options()?).map_err(ApiError::internal)?;
    let (mut rolls, mut plies) = (0, 0);
    for e in events {
        replay_event(&mut table, e)?;
        match e.kind.as_str() {
            "roll" => rolls += 1,
            "action" => plies += 1,
            _ => {}
        }
    }
    Ok(Loaded {
        row,
        table,
        rolls,
        plies,
        names,
    })
}

/// Replays one log entry on `table`: a roll, an action, or a join (a seat taken: the row
/// records it, the rules see nothing).
pub fn replay_event(table: &mut Table, e: &EventRow) -> Result<(), ApiError> {
    match e.kind.as_str() {
        "roll" => {
            let roll = parse_dice(&e.payload).ok_or_else(|| ApiError::internal("bad roll"))?;
            table.roll(roll).map_err(ApiError::internal)
        }
        "join" => Ok(()),
        _ => table
            .apply_text(&e.payload)
            .map(drop)
            .map_err(ApiError::internal),
    }
}

/// `5-2` as a roll (first die first).
pub fn parse_dice(text: &str) -> Option<DiceRoll> {
    let (a, b) = text.split_once('-')?;
    DiceRoll::new(a.parse().ok()?, b.parse().ok()?).ok()
}

/// A roll as stored.
pub fn dice_text(roll: DiceRoll) -> String {
    format!("{}-{}", roll.first.value(), roll.second.value())
}

impl App {
    /// Shared state over `db`.
    pub fn new(db: Db) -> App {
        App {
            db,
            hub: Hub::default(),
            cache: Mutex::default(),
            driving: Mutex::default(),
        }
    }

    fn slot(&self, id: &str) -> Arc<tokio::sync::Mutex<Option<Loaded>>> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.entry(id.to_string()).or_default().clone()
    }

    /// Reads the game from the database (the cache may be stale on a shared database).
    pub async fn load_fresh(&self, id: &str) -> Result<Loaded, ApiError> {
        let row = self
            .db
            .game(id)
            .await?
            .ok_or_else(|| ApiError::not_found("game"))?;
        let events = self.db.events(id, 0).await?;
        let names = self.seat_names(&row).await?;
        replay(row, &events, names)
    }

    /// The names of the players seated at `row`'s game.
    pub async fn seat_names(&self, row: &GameRow) -> Result<ByColor<String>, ApiError> {
        let mut names = ByColor::new_with(seat_name);
        for color in [Color::White, Color::Black] {
            if let Some(id) = row.seat(color) {
                if let Some(player) = self.db.player(id).await? {
                    names[color] = player.name;
                }
            }
        }
        Ok(names)
    }

    /// The game, from the cache when it is current.
    pub async fn load(&self, id: &str) -> Result<Loaded, ApiError> {
        let slot = self.slot(id);
        let mut guard = slot.lock().await;
        let loaded = self.current(guard.take(), id).await?;
        *guard = Some(loaded.clone());
        Ok(loaded)
    }

    /// `cached` with the stored row (seats and state may change without a new version), or
    /// the game replayed afresh when another instance has moved it on.
    async fn current(&self, cached: Option<Loaded>, id: &str) -> Result<Loaded, ApiError> {
        let stored = self
            .db
            .game(id)
            .await?
            .ok_or_else(|| ApiError::not_found("game"))?;
        match cached {
            Some(mut l) if l.row.version == stored.version => {
                l.row = stored;
                Ok(l)
            }
            _ => self.load_fresh(id).await,
        }
    }

    /// Runs `decide` on the current game and commits the change it returns, retrying on a
    /// concurrent commit from another instance. Returns the game after the commit.
    pub async fn change<F>(&self, id: &str, mut decide: F) -> Result<Loaded, ApiError>
    where
        F: FnMut(&Loaded) -> Result<Change, ApiError>,
    {
        let slot = self.slot(id);
        let mut guard = slot.lock().await;
        for _ in 0..3 {
            let current = self.current(guard.take(), id).await?;
            let change = match decide(&current) {
                Ok(c) => c,
                Err(e) => {
                    *guard = Some(current);
                    return Err(e);
                }
            };
            let mut next = current.clone();
            let event = apply(&mut next, change)?;
            match self.commit(&current, &next, &event).await {
                Ok(()) => {
                    *guard = Some(next.clone());
                    drop(guard);
                    self.published(&next, event).await;
                    return Ok(next);
                }
                Err(Commit::Stale) => {
                    *guard = Some(self.load_fresh(id).await?);
                }
                Err(Commit::Failed(e)) => {
                    *guard = None;
                    return Err(e);
                }
            }
        }
        Err(ApiError::conflict(
            "busy",
            "the game changed while the request was handled; try again",
        ))
    }

    async fn commit(
        &self,
        before: &Loaded,
        after: &Loaded,
        event: &EventRow,
    ) -> Result<(), Commit> {
        let db = &self.db;
        let mut tx = db.pool.begin().await.map_err(Commit::db)?;
        let inserted = sqlx::query(
            "INSERT INTO game_events (game_id, version, kind, actor, payload, nonce, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&after.row.id)
        .bind(event.version)
        .bind(&event.kind)
        .bind(&event.actor)
        .bind(&event.payload)
        .bind(&event.nonce)
        .bind(now_ms())
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Err(Commit::Stale),
            Err(e) => return Err(Commit::db(e)),
        }
        let r = &after.row;
        let updated = sqlx::query(
            "UPDATE games SET version = $1, state = $2, finished_ms = $3, winner = $4, \
             points = $5, plies = $6, white_id = $9, black_id = $10, white_client_seed = $11, \
             black_client_seed = $12 WHERE id = $7 AND version = $8",
        )
        .bind(r.version)
        .bind(&r.state)
        .bind(if r.state == "finished" {
            Some(now_ms())
        } else {
            None
        })
        .bind(&r.winner)
        .bind(r.points)
        .bind(after.plies)
        .bind(&r.id)
        .bind(before.row.version)
        .bind(&r.white_id)
        .bind(&r.black_id)
        .bind(&r.white_client_seed)
        .bind(&r.black_client_seed)
        .execute(&mut *tx)
        .await
        .map_err(Commit::db)?;
        if updated.rows_affected() != 1 {
            return Err(Commit::Stale);
        }
        if r.state == "finished" {
            ratings::record(&mut tx, r).await.map_err(Commit::db)?;
        }
        tx.commit().await.map_err(Commit::db)?;
        Ok(())
    }

    /// Tells watchers here and, on PostgreSQL, the other instances.
    async fn published(&self, game: &Loaded, event: EventRow) {
        self.hub.publish(
            &game.row.id,
            Push {
                kind: "event",
                version: event.version,
                event,
                state: Some(game.view()),
                game_state: game.row.state.clone(),
            },
        );
        if self.db.backend == crate::db::Backend::Postgres {
            let payload = format!("{}:{}", game.row.id, game.row.version);
            if let Err(e) = sqlx::query("SELECT pg_notify('tabula_games', $1)")
                .bind(payload)
                .execute(&self.db.pool)
                .await
            {
                tracing::warn!(error = %e, "NOTIFY failed");
            }
        }
    }

    /// Pushes what another instance committed to this instance's watchers of `id`.
    pub async fn remote_change(&self, id: &str) {
        let Some(pushed) = self.hub.watched(id) else {
            return;
        };
        let Ok(game) = self.load(id).await else {
            return;
        };
        let Ok(events) = self.db.events(id, pushed).await else {
            return;
        };
        let last = events.len();
        for (i, event) in events.into_iter().enumerate() {
            self.hub.publish(
                id,
                Push {
                    kind: "event",
                    version: event.version,
                    event,
                    state: (i + 1 == last).then(|| game.view()),
                    game_state: game.row.state.clone(),
                },
            );
        }
    }
}

enum Commit {
    Stale,
    Failed(ApiError),
}

impl Commit {
    fn db(e: sqlx::Error) -> Commit {
        Commit::Failed(ApiError::internal(e))
    }
}

/// Applies `change` to `game` in memory and returns the log row it makes.
fn apply(game: &mut Loaded, change: Change) -> Result<EventRow, ApiError> {
    let version = game.row.version + 1;
    let event = match change {
        Change::Action(color, text) => {
            let canonical = game.table.apply_text(&text).map_err(ApiError::illegal)?;
            game.plies += 1;
            EventRow {
                version,
                kind: "action".into(),
                actor: Some(color_name(color).into()),
                payload: canonical,
                nonce: None,
            }
        }
        Change::Roll(by, nonce, roll) => {
            game.table.roll(roll).map_err(ApiError::illegal)?;
            game.rolls += 1;
            EventRow {
                version,
                kind: "roll".into(),
                actor: by.map(|c| color_name(c).into()),
                payload: dice_text(roll),
                nonce: Some(nonce),
            }
        }
        Change::Join {
            color,
            player,
            name,
            seed,
        } => {
            game.names[color] = name;
            let row = &mut game.row;
            match color {
                Color::White => {
                    (row.white_id, row.white_client_seed) = (Some(player.clone()), seed)
                }
                Color::Black => {
                    (row.black_id, row.black_client_seed) = (Some(player.clone()), seed)
                }
            }
            row.state = "playing".into();
            EventRow {
                version,
                kind: "join".into(),
                actor: Some(color_name(color).into()),
                payload: player,
                nonce: None,
            }
        }
    };
    game.row.version = version;
    if let Some(outcome) = game.table.outcome() {
        game.row.state = "finished".into();
        game.row.winner = outcome.winner.map(|c| color_name(c).to_string());
        game.row.points = Some(i64::from(outcome.points));
    }
    game.row.plies = Some(game.plies);
    Ok(event)
}

/// The roll number `n` of `row`'s game for `nonce`.
pub fn derive_roll(row: &GameRow, n: u64, nonce: &str) -> Result<DiceRoll, ApiError> {
    let seed = ServerSeed::from_hex(&row.server_seed).map_err(ApiError::internal)?;
    Ok(seed.roll(&row.client_seeds(), n, nonce))
}
