//! The authority over games: loads a game by replaying its log, checks who may act, applies
//! actions and rolls through the rules engine, and commits each to the log before anyone is
//! told. A commit is optimistic: it appends version `v + 1` only if the stored game is still
//! at `v`, so two instances on one database can never both append the same version; the
//! loser reloads and tries again.
//!
//! Loaded games are cached ([`GameCache`]): one entry per game that exists, each with the
//! per-game lock that serialises actions on it. The cache is bounded: past
//! [`CACHE_CAPACITY`] entries the least recently used idle ones are dropped (an entry in use,
//! whose lock someone holds or waits for, is never dropped, so two actions on one game still
//! run one after the other). An id that is not well formed ([`is_game_id`]) is answered 404
//! before the cache or the database is touched, and a miss leaves no entry behind.

use crate::clock::{Clocks, TimeControl, Waiting};
use crate::db::{now_ms, Db, EventRow, GameRow};
use crate::error::ApiError;
use crate::games::{GameOptions, Table};
use crate::live::{Hub, Push};
use crate::ratings;
use crate::storage::STORAGE_DEADLINE;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tabula_core::verifiable::{ClientSeeds, ServerSeed};
use tabula_core::{ByColor, Chance, Color, DiceRoll, Outcome, Status};

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
    /// seat; a guest's marked ` (guest)`, [`crate::db::PlayerRow::label`]). Seats change only
    /// with a logged join, so a cached game keeps them.
    pub names: ByColor<String>,
    /// The seated players as stored (`None` for an empty seat), so that the answer to a
    /// committed change is written without reading the database again.
    pub players: ByColor<Option<crate::db::PlayerRow>>,
    /// The log version of the event that ended each finished game of the match or session,
    /// in order: the clients split the move list into games with them.
    pub game_ends: Vec<i64>,
    /// The clocks, derived from the log's commit times ([`crate::clock`]).
    pub clocks: Clocks,
    /// The result when a player ran out of time (the rules engine's state stops where the
    /// clock stopped it).
    pub timed_out: Option<Outcome>,
}

/// Shared server state.
pub struct App {
    /// The database.
    pub db: Db,
    /// Live channels.
    pub hub: Hub,
    cache: GameCache,
    pub(crate) driving: Mutex<HashSet<String>>,
    /// Games with a watcher on this instance ([`crate::referee`]).
    pub(crate) watching: Mutex<HashSet<String>>,
    /// How long a bot waits before each decision, as a person would
    /// (`TABULA_BOT_DELAY_MS`, default [`crate::config::BOT_DELAY_MS`]; 0 in tests).
    pub bot_delay: std::time::Duration,
    /// Password hashing, login throttling and session lifetimes ([`crate::accounts`]).
    pub accounts: crate::accounts::Accounts,
    /// How analyses run here ([`crate::analysis`]).
    pub analysis: crate::config::AnalysisSettings,
    /// Wakes this instance's analysis worker when a request here queues a job.
    pub analysis_wake: tokio::sync::Notify,
    /// Hints worked out at once ([`HINTS_AT_ONCE`]); more wait up to a second, then 503.
    pub hints: tokio::sync::Semaphore,
    /// The analysis board's rollouts: one at a time per instance (`/api/study/rollout`).
    pub rollouts: std::sync::Arc<tokio::sync::Semaphore>,
    /// `/readyz` ([`crate::storage::Readiness`]).
    pub readiness: crate::storage::Readiness,
    /// Where the browser client's files are read from, if not the built-in ones
    /// ([`crate::web`]).
    pub web_dir: Option<std::path::PathBuf>,
    /// The ids of games committed here, for the post-commit hook ([`crate::hook`]).
    commits: tokio::sync::mpsc::UnboundedSender<String>,
    /// The hook's end of `commits`, until the hook takes it.
    commit_feed: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<String>>>,
}

/// How many hints an instance works out at once.
pub const HINTS_AT_ONCE: usize = 2;

/// The per-game lock and the game loaded under it (`None` until loaded, or after a failed
/// commit).
pub type Slot = Arc<tokio::sync::Mutex<Option<Loaded>>>;

/// How many games the cache keeps before dropping idle ones.
pub const CACHE_CAPACITY: usize = 1024;

/// How many characters a game id has: 9 random bytes in lowercase hex ([`crate::auth::new_id`]).
pub const GAME_ID_LEN: usize = 18;

/// Whether `id` can be a game id (18 lowercase hex digits); anything else is answered 404
/// without a look at the database.
pub fn is_game_id(id: &str) -> bool {
    id.len() == GAME_ID_LEN && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `Ok` for a well-formed game id, the API's 404 otherwise.
pub fn check_game_id(id: &str) -> Result<(), ApiError> {
    if is_game_id(id) {
        Ok(())
    } else {
        Err(ApiError::not_found("game"))
    }
}

/// The cache of loaded games: each game's [`Slot`], with a use stamp for eviction.
///
/// Bounded at `capacity` entries: a new entry that finds the cache full first drops the
/// least recently used *idle* entries (their `Arc` held by the cache alone: nobody holds or
/// waits for their lock, and nobody can get one without the cache's own lock) down to three
/// quarters of the capacity. Entries in use are kept, so the cache can exceed its capacity
/// only by the games being acted on at that moment. Dropping an idle entry loses nothing but
/// the loaded state, which the next request replays from the database.
pub struct GameCache {
    capacity: usize,
    inner: Mutex<CacheInner>,
}

#[derive(Default)]
struct CacheInner {
    entries: HashMap<String, (Slot, u64)>,
    tick: u64,
}

impl GameCache {
    /// An empty cache of at most `capacity` idle entries.
    pub fn new(capacity: usize) -> GameCache {
        GameCache {
            capacity: capacity.max(1),
            inner: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The slot of `id`, made (evicting idle entries if the cache is full) when absent.
    pub fn slot(&self, id: &str) -> Slot {
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        if let Some((slot, used)) = inner.entries.get_mut(id) {
            *used = tick;
            return slot.clone();
        }
        if inner.entries.len() >= self.capacity {
            let keep = self.capacity - self.capacity / 4;
            let mut idle: Vec<(u64, String)> = inner
                .entries
                .iter()
                .filter(|(_, (slot, _))| Arc::strong_count(slot) == 1)
                .map(|(id, (_, used))| (*used, id.clone()))
                .collect();
            idle.sort_unstable();
            let excess = inner.entries.len().saturating_sub(keep.saturating_sub(1));
            for (_, id) in idle.into_iter().take(excess) {
                inner.entries.remove(&id);
            }
        }
        let slot = Slot::default();
        inner.entries.insert(id.to_string(), (slot.clone(), tick));
        slot
    }

    /// Drops `id`'s entry if it is still `slot` and nobody but the caller holds it: after a
    /// miss (no such game), so that asking for unknown games leaves nothing behind.
    pub fn forget(&self, id: &str, slot: &Slot) {
        let mut inner = self.lock();
        let ours = inner
            .entries
            .get(id)
            .is_some_and(|(s, _)| Arc::ptr_eq(s, slot) && Arc::strong_count(s) == 2);
        if ours {
            inner.entries.remove(id);
        }
    }

    /// How many entries the cache holds.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
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
    /// The time control, if the game has one.
    pub fn time_control(&self) -> Result<Option<TimeControl>, ApiError> {
        self.clock
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(ApiError::internal)
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

    /// The state for clients, the result sentences naming the players; each finished game
    /// in `games` carries the `version` of the event that ended it.
    pub fn view(&self) -> serde_json::Value {
        let mut view = self.table.view(self.names());
        if let Some(games) = view.get_mut("games").and_then(|g| g.as_array_mut()) {
            for (g, v) in games.iter_mut().zip(&self.game_ends) {
                g["version"] = (*v).into();
            }
        }
        if let Some(outcome) = &self.timed_out {
            timed_out_view(&mut view, outcome, self.names());
        }
        view["clock"] = serde_json::json!(crate::clock::ClockView::new(
            &self.clocks,
            crate::db::now_ms()
        ));
        view
    }

    /// Whom the game waits for now, as the clocks see it.
    pub fn waiting(&self) -> Waiting {
        if self.timed_out.is_some() {
            return Waiting::Nobody;
        }
        Waiting::of(&self.table.status(), self.row.state == "playing")
    }

    /// What the server must do for this game next, and when: roll for a player, or end the
    /// game on time ([`crate::clock`]).
    pub fn due(&self) -> Option<(Due, i64)> {
        if self.row.state != "playing" {
            return None;
        }
        let flag = self.clocks.flag_at().map(|(c, at)| (Due::TimeOut(c), at));
        let roll = match self.roller() {
            Some(Roller::Server) | None => None,
            Some(Roller::Seat(c)) => {
                let bot_roll = matches!(self.waiting(), Waiting::Player(w) if w != c);
                self.clocks.roll_at(bot_roll).map(|at| (Due::Roll, at))
            }
            Some(Roller::Either) => self.clocks.roll_at(false).map(|at| (Due::Roll, at)),
        };
        match (flag, roll) {
            (Some(f), Some(r)) => Some(if r.1 < f.1 { r } else { f }),
            (f, r) => f.or(r),
        }
    }

    /// Whether `color` has run out of time at `now` (the server may not have ended the game
    /// yet): an action of theirs is then refused.
    pub fn out_of_time(&self, color: Color, now: i64) -> bool {
        matches!(self.clocks.flag_at(), Some((c, at)) if c == color && now >= at)
    }

    /// The result of `loser` running out of time: a match or Never-Finishing match is lost
    /// as a whole; a money game at the cube's value times the level the position holds (as if
    /// the opponent bore off now); Grasshopper and Halma lose the game (1 point).
    pub fn time_out_outcome(&self, loser: Color) -> Outcome {
        self.table.time_out(loser)
    }

    /// Records that the event of `version` ended a game, if it did.
    fn note_game_end(&mut self, version: i64) {
        if self.table.games_over() > self.game_ends.len() {
            self.game_ends.push(version);
        }
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

/// What the server itself must do for a game when its time comes ([`Loaded::due`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Roll for the player whose roll is due (nonce `server:N`, docs/dice.md).
    Roll,
    /// This player has run out of time.
    TimeOut(Color),
}

/// What a commit appends.
pub enum Change {
    /// This player ran out of time: the game (or match) ends.
    TimeOut(Color),
    /// An action by a colour, by its canonical text.
    Action(Color, String),
    /// A roll asked for by a colour (or the server), with its nonce and dice.
    Roll(Option<Color>, String, DiceRoll),
    /// A player takes the empty seat of this colour, with their client seed; the game
    /// starts.
    Join {
        /// The seat.
        color: Color,
        /// The player as stored.
        player: crate::db::PlayerRow,
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

/// A game just created (no log yet) with its seated `players`, built without the database.
pub fn new_game(
    row: GameRow,
    players: ByColor<Option<crate::db::PlayerRow>>,
) -> Result<Loaded, ApiError> {
    replay(row, &[], players)
}

fn replay(
    row: GameRow,
    events: &[EventRow],
    players: ByColor<Option<crate::db::PlayerRow>>,
) -> Result<Loaded, ApiError> {
    let names = ByColor::new_with(|c| {
        players[c]
            .as_ref()
            .map_or_else(|| seat_name(c), |p| p.label())
    });
    let table = Table::new(&row.game_options()?).map_err(ApiError::internal)?;
    // A game with a join in its log had an empty seat until then; the others (against a
    // bot) ran from their creation.
    let seated = !events.iter().any(|e| e.kind == "join");
    let mut clocks = Clocks::new(row.time_control()?);
    if seated {
        clocks.advance(Waiting::of(&table.status(), true), row.created_ms);
    }
    let mut game = Loaded {
        row,
        table,
        rolls: 0,
        plies: 0,
        names,
        players,
        game_ends: Vec::new(),
        clocks,
        timed_out: None,
    };
    let mut playing = seated;
    for e in events {
        replay_event(&mut game.table, e)?;
        match e.kind.as_str() {
            "roll" => game.rolls += 1,
            "action" => game.plies += 1,
            "join" => playing = true,
            "timeout" => game.timed_out = Some(timeout_outcome(&game.table, e)?),
            _ => {}
        }
        if game.table.games_over() > game.game_ends.len() {
            game.game_ends.push(e.version);
        }
        let waiting = if game.timed_out.is_some() {
            Waiting::Nobody
        } else {
            Waiting::of(&game.table.status(), playing)
        };
        game.clocks.advance(waiting, e.at_ms);
    }
    Ok(game)
}

/// Makes `view` (a [`Table::view`]) say that the game ended on time with `outcome`: its
/// result and status, and no legal action.
pub fn timed_out_view(view: &mut serde_json::Value, outcome: &Outcome, names: ByColor<&str>) {
    let end = crate::games::GameEnd::new(outcome, names);
    view["result"] = serde_json::json!(end);
    view["status"] = serde_json::to_value(Status::Over(*outcome)).unwrap_or_default();
    view["legal"] = serde_json::json!([]);
}

/// The result a `timeout` event gives on `table` (its actor is the player who ran out).
pub fn timeout_outcome(table: &Table, e: &EventRow) -> Result<Outcome, ApiError> {
    Ok(table.time_out(parse_color(e.actor.as_deref())?))
}

fn parse_color(name: Option<&str>) -> Result<Color, ApiError> {
    match name {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        _ => Err(ApiError::internal("a timeout without its colour")),
    }
}

/// Replays one log entry on `table`: a roll, an action, or a join (a seat taken: the row
/// records it, the rules see nothing).
pub fn replay_event(table: &mut Table, e: &EventRow) -> Result<(), ApiError> {
    match e.kind.as_str() {
        "roll" => {
            let roll = parse_dice(&e.payload).ok_or_else(|| ApiError::internal("bad roll"))?;
            table.roll(roll).map_err(ApiError::internal)
        }
        "join" | "timeout" => Ok(()),
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
    /// Shared state over `db`, run as `config` says.
    pub fn new(db: Db, config: &crate::config::Config) -> App {
        let (commits, commit_feed) = tokio::sync::mpsc::unbounded_channel();
        App {
            commits,
            commit_feed: Mutex::new(Some(commit_feed)),
            db,
            hub: Hub::default(),
            cache: GameCache::new(CACHE_CAPACITY),
            driving: Mutex::default(),
            accounts: crate::accounts::Accounts::new(config.accounts.clone()),
            analysis: config.analysis,
            analysis_wake: tokio::sync::Notify::new(),
            hints: tokio::sync::Semaphore::new(HINTS_AT_ONCE),
            rollouts: std::sync::Arc::new(tokio::sync::Semaphore::new(1)),
            watching: Mutex::default(),
            bot_delay: config.bot_delay,
            web_dir: config.web_dir.clone(),
            readiness: crate::storage::Readiness::default(),
        }
    }

    /// Tells the post-commit hook ([`crate::hook`]) that game `id` was committed (a game
    /// stored, or a change to it).
    pub fn committed(&self, id: &str) {
        // Closed only once the hook's task is gone, when the server stops.
        let _ = self.commits.send(id.to_string());
    }

    /// The hook's feed of committed games; `None` once taken.
    pub fn take_commits(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<String>> {
        self.commit_feed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// How many games the cache holds (for tests and metrics).
    pub fn cached_games(&self) -> usize {
        self.cache.len()
    }

    /// Drops the cache entry `slot` of `id` when `result` says the game does not exist.
    fn forget_missing<T>(&self, id: &str, slot: &Slot, result: &Result<T, ApiError>) {
        if matches!(result, Err(e) if e.status == axum::http::StatusCode::NOT_FOUND) {
            self.cache.forget(id, slot);
        }
    }

    /// Reads the game from the database (the cache may be stale on a shared database).
    pub async fn load_fresh(&self, id: &str) -> Result<Loaded, ApiError> {
        check_game_id(id)?;
        let row = self
            .db
            .game(id)
            .await?
            .ok_or_else(|| ApiError::not_found("game"))?;
        let events = self.db.events(id, 0).await?;
        let players = self.seat_players(&row).await?;
        replay(row, &events, players)
    }

    /// The players seated at `row`'s game.
    pub async fn seat_players(
        &self,
        row: &GameRow,
    ) -> Result<ByColor<Option<crate::db::PlayerRow>>, ApiError> {
        let mut players = ByColor::new_with(|_| None);
        for color in [Color::White, Color::Black] {
            if let Some(id) = row.seat(color) {
                players[color] = self.db.player(id).await?;
            }
        }
        Ok(players)
    }

    /// The game, from the cache when it is current. Gives up after
    /// [`STORAGE_DEADLINE`] (503 `storage_unavailable`), leaving the game to be read afresh.
    pub async fn load(&self, id: &str) -> Result<Loaded, ApiError> {
        check_game_id(id)?;
        let slot = self.cache.slot(id);
        let deadline = tokio::time::Instant::now() + STORAGE_DEADLINE;
        let result = tokio::time::timeout_at(deadline, async {
            let mut guard = slot.lock().await;
            let loaded = self.current(guard.take(), id).await;
            if let Ok(l) = &loaded {
                *guard = Some(l.clone());
            }
            loaded
        })
        .await
        .unwrap_or_else(|_| Err(ApiError::storage_unavailable()));
        self.forget_missing(id, &slot, &result);
        result
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
    ///
    /// Storage faults (crate::storage): a failed write is answered 503 (`storage_full`,
    /// `storage_unavailable`, or `outcome_unknown` when the commit was sent but not
    /// answered), the whole request gives up after [`STORAGE_DEADLINE`], and after any
    /// failure the cached game is dropped, so that the next request reads the truth from the
    /// database.
    pub async fn change<F>(&self, id: &str, decide: F) -> Result<Loaded, ApiError>
    where
        F: FnMut(&Loaded) -> Result<Change, ApiError>,
    {
        check_game_id(id)?;
        let slot = self.cache.slot(id);
        let result = self.change_in(&slot, id, decide).await;
        self.forget_missing(id, &slot, &result);
        result
    }

    /// [`App::change`] under the game's lock `slot`.
    async fn change_in<F>(&self, slot: &Slot, id: &str, mut decide: F) -> Result<Loaded, ApiError>
    where
        F: FnMut(&Loaded) -> Result<Change, ApiError>,
    {
        let deadline = tokio::time::Instant::now() + STORAGE_DEADLINE;
        let in_time = |r: Result<Result<Loaded, ApiError>, _>| {
            r.unwrap_or_else(|_| Err(ApiError::storage_unavailable()))
        };
        let Ok(mut guard) = tokio::time::timeout_at(deadline, slot.lock()).await else {
            return Err(ApiError::storage_unavailable());
        };
        for _ in 0..3 {
            let current =
                in_time(tokio::time::timeout_at(deadline, self.current(guard.take(), id)).await)?;
            let change = match decide(&current) {
                Ok(c) => c,
                Err(e) => {
                    *guard = Some(current);
                    return Err(e);
                }
            };
            let mut next = current.clone();
            let event = match apply(&mut next, change) {
                Ok(event) => event,
                Err(e) => {
                    *guard = Some(current);
                    return Err(e);
                }
            };
            let committing = std::sync::atomic::AtomicBool::new(false);
            let committed = tokio::time::timeout_at(
                deadline,
                self.commit(&current, &next, &event, &committing),
            )
            .await
            .unwrap_or_else(|_| {
                Err(Commit::Failed(
                    if committing.load(std::sync::atomic::Ordering::SeqCst) {
                        tracing::warn!(game = %id, "no answer to a commit in time");
                        ApiError::outcome_unknown()
                    } else {
                        ApiError::storage_unavailable()
                    },
                ))
            });
            match committed {
                Ok(()) => {
                    *guard = Some(next.clone());
                    drop(guard);
                    self.published(&next, event);
                    self.committed(id);
                    return Ok(next);
                }
                Err(Commit::Stale) => {
                    *guard = Some(in_time(
                        tokio::time::timeout_at(deadline, self.load_fresh(id)).await,
                    )?);
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

    /// Appends `event` and moves the game row from `before` to `after` in one transaction,
    /// on a connection that is closed unless the transaction ends cleanly
    /// ([`crate::storage::WriteConn`]); `committing` is set once the `COMMIT` is sent.
    async fn commit(
        &self,
        before: &Loaded,
        after: &Loaded,
        event: &EventRow,
        committing: &std::sync::atomic::AtomicBool,
    ) -> Result<(), Commit> {
        let mut conn = crate::storage::WriteConn::acquire(&self.db.pool)
            .await
            .map_err(Commit::db)?;
        let mut tx = conn.begin().await.map_err(Commit::db)?;
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
        .bind(event.at_ms)
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                tx.rollback().await.map_err(Commit::db)?;
                conn.keep();
                return Err(Commit::Stale);
            }
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
            tx.rollback().await.map_err(Commit::db)?;
            conn.keep();
            return Err(Commit::Stale);
        }
        if r.state == "finished" {
            ratings::record(&mut tx, r).await.map_err(Commit::db)?;
        }
        committing.store(true, std::sync::atomic::Ordering::SeqCst);
        tx.commit()
            .await
            .map_err(|e| Commit::Failed(crate::storage::commit_failure(&e)))?;
        conn.keep();
        Ok(())
    }

    /// Tells watchers here and, on PostgreSQL, the other instances (in a task of its own:
    /// the reply does not wait for the notification).
    fn published(&self, game: &Loaded, event: EventRow) {
        if event.kind == "join" || game.row.state == "finished" {
            self.hub.lobby_changed();
        }
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
            let pool = self.db.pool.clone();
            tokio::spawn(async move {
                if let Err(e) = sqlx::query("SELECT pg_notify('tabula_games', $1)")
                    .bind(payload)
                    .execute(&pool)
                    .await
                {
                    tracing::warn!(error = %e, "NOTIFY failed");
                }
            });
        }
    }

    /// Pushes what another instance committed to this instance's watchers of `id`.
    pub async fn remote_change(&self, id: &str) {
        // Another instance committed: the lobby may have changed (cheap; watchers debounce).
        self.hub.lobby_changed();
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
    /// A failure before the `COMMIT`: nothing was written (503 for a storage fault).
    fn db(e: sqlx::Error) -> Commit {
        Commit::Failed(ApiError::from(e))
    }
}

/// Applies `change` to `game` in memory and returns the log row it makes.
fn apply(game: &mut Loaded, change: Change) -> Result<EventRow, ApiError> {
    let version = game.row.version + 1;
    let at_ms = now_ms();
    let event = match change {
        Change::TimeOut(loser) => {
            if game.timed_out.is_some() || game.table.outcome().is_some() {
                return Err(ApiError::conflict("game_over", "the game is over"));
            }
            game.timed_out = Some(game.time_out_outcome(loser));
            EventRow {
                version,
                kind: "timeout".into(),
                actor: Some(color_name(loser).into()),
                payload: String::new(),
                nonce: None,
                at_ms,
            }
        }
        Change::Action(color, text) => {
            let canonical = game.table.apply_text(&text).map_err(ApiError::illegal)?;
            game.plies += 1;
            EventRow {
                version,
                kind: "action".into(),
                actor: Some(color_name(color).into()),
                payload: canonical,
                nonce: None,
                at_ms,
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
                at_ms,
            }
        }
        Change::Join {
            color,
            player,
            seed,
        } => {
            game.names[color] = player.label();
            let id = player.id.clone();
            game.players[color] = Some(player);
            let row = &mut game.row;
            match color {
                Color::White => (row.white_id, row.white_client_seed) = (Some(id.clone()), seed),
                Color::Black => (row.black_id, row.black_client_seed) = (Some(id.clone()), seed),
            }
            row.state = "playing".into();
            EventRow {
                version,
                kind: "join".into(),
                actor: Some(color_name(color).into()),
                payload: id,
                nonce: None,
                at_ms,
            }
        }
    };
    game.row.version = version;
    if let Some(outcome) = game.timed_out.or_else(|| game.table.outcome()) {
        game.row.state = "finished".into();
        game.row.winner = outcome.winner.map(|c| color_name(c).to_string());
        game.row.points = Some(i64::from(outcome.points));
    }
    game.row.plies = Some(game.plies);
    game.note_game_end(version);
    let waiting = game.waiting();
    game.clocks.advance(waiting, at_ms);
    Ok(event)
}

/// The roll number `n` of `row`'s game for `nonce`.
pub fn derive_roll(row: &GameRow, n: u64, nonce: &str) -> Result<DiceRoll, ApiError> {
    let seed = ServerSeed::from_hex(&row.server_seed).map_err(ApiError::internal)?;
    Ok(seed.roll(&row.client_seeds(), n, nonce))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_are_18_lowercase_hex_digits() {
        assert!(is_game_id(&crate::auth::new_id()));
        assert!(is_game_id("0123456789abcdef01"));
        for bad in [
            "",
            "0123456789abcdef0",
            "0123456789abcdef012",
            "0123456789ABCDEF01",
            "0123456789abcdef0g",
            "../../etc/passwd1",
            "０123456789abcdef",
        ] {
            assert!(!is_game_id(bad), "{bad:?}");
        }
        assert!(!is_game_id(&"a".repeat(6000)));
        assert_eq!(
            check_game_id("x").unwrap_err().status,
            axum::http::StatusCode::NOT_FOUND
        );
    }

    fn id(n: usize) -> String {
        format!("{n:018x}")
    }

    #[test]
    fn the_cache_stays_bounded() {
        let cache = GameCache::new(64);
        for n in 0..20_000 {
            drop(cache.slot(&id(n)));
            assert!(cache.len() <= 64, "{} entries after {n}", cache.len());
        }
        // The most recently used survive eviction, the oldest go.
        let recent = cache.slot(&id(19_999));
        assert_eq!(Arc::strong_count(&recent), 2, "the entry was kept");
        assert!(cache.len() <= 64);
    }

    #[test]
    fn entries_in_use_are_never_evicted() {
        let cache = GameCache::new(8);
        let held: Vec<Slot> = (0..5).map(|n| cache.slot(&id(n))).collect();
        for n in 100..10_000 {
            drop(cache.slot(&id(n)));
        }
        for (n, slot) in held.iter().enumerate() {
            assert!(
                Arc::ptr_eq(slot, &cache.slot(&id(n))),
                "entry {n} was evicted"
            );
        }
        assert!(cache.len() <= 8);
        // All entries busy: the cache may pass its capacity by the busy ones only.
        let busy: Vec<Slot> = (200..220).map(|n| cache.slot(&id(n))).collect();
        assert!(cache.len() <= 8 + busy.len() + held.len());
        drop(busy);
        drop(cache.slot(&id(999_999)));
        assert!(cache.len() <= 8 + held.len());
    }

    #[tokio::test]
    async fn a_game_being_acted_on_keeps_its_lock_through_eviction() {
        let cache = GameCache::new(4);
        let slot = cache.slot(&id(1));
        let guard = slot.lock().await;
        for n in 10..1000 {
            drop(cache.slot(&id(n)));
        }
        // A second action on the same game finds the same, locked, slot: it must wait.
        let again = cache.slot(&id(1));
        assert!(Arc::ptr_eq(&slot, &again));
        assert!(
            again.try_lock().is_err(),
            "a second action ran concurrently"
        );
        drop(guard);
        assert!(again.try_lock().is_ok());
    }

    #[test]
    fn a_miss_leaves_no_entry() {
        let cache = GameCache::new(16);
        let slot = cache.slot(&id(7));
        cache.forget(&id(7), &slot);
        assert!(cache.is_empty());
        // Not dropped while someone else holds the slot (a concurrent request).
        let a = cache.slot(&id(8));
        let b = cache.slot(&id(8));
        cache.forget(&id(8), &a);
        assert_eq!(cache.len(), 1);
        drop(b);
        cache.forget(&id(8), &a);
        assert!(cache.is_empty());
    }
}
