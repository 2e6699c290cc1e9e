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
use crate::error::ApiError;
use crate::games::{GameOptions, Table};
use crate::live::{Hub, Push};
use crate::store::STORAGE_DEADLINE;
use crate::store::{now_ms, Db, EventRow, GameRow};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use tabula_core::verifiable::{ClientSeeds, ServerSeed};
use tabula_core::{ByColor, Chance, Color, DiceRoll, EndReason, Outcome, Status};

mod cache;
mod commit;
mod replay;
mod writer;

pub use cache::{check_game_id, is_game_id, GameCache, CACHE_CAPACITY, GAME_ID_LEN};
pub use replay::*;

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
    /// seat; a guest's marked ` (guest)`, [`crate::store::PlayerRow::label`]). Seats change only
    /// with a logged join, so a cached game keeps them.
    pub names: ByColor<String>,
    /// The seated players as stored (`None` for an empty seat), so that the answer to a
    /// committed change is written without reading the database again.
    pub players: ByColor<Option<crate::store::PlayerRow>>,
    /// The log version of the event that ended each finished game of the match or session,
    /// in order: the clients split the move list into games with them.
    pub game_ends: Vec<i64>,
    /// The clocks, derived from the log's commit times ([`crate::clock`]).
    pub clocks: Clocks,
    /// The result when the server ended the game for a player (out of time, a resignation
    /// in a game whose rules have none, an abandoned game, an abort): the rules engine's
    /// state stops where it stood ([`replay::server_end`]).
    pub ended: Option<Outcome>,
    /// Whether each side has made an action (a move, a cube action...): an abort is allowed
    /// only before one's first ([`crate::api::games::abort`]).
    pub acted: ByColor<bool>,
    /// The view without its clock ([`Loaded::view`]), worked out at most once per version:
    /// the reply and the WebSocket push of one commit share it. Emptied by every change.
    pub(crate) memo: Arc<std::sync::OnceLock<serde_json::Value>>,
}

/// Shared server state.
pub struct App {
    /// The database.
    pub db: Db,
    /// Live channels.
    pub hub: Hub,
    cache: GameCache,
    /// Writes every change to a game, in batches ([`writer`]).
    writer: writer::Writer,
    pub(crate) driving: Mutex<HashSet<String>>,
    /// Games with a watcher on this instance ([`crate::referee`]).
    pub(crate) watching: Mutex<HashSet<String>>,
    /// How long a bot waits before each decision, as a person would
    /// (`TABULA_BOT_DELAY_MS`, default [`crate::config::BOT_DELAY_MS`]; 0 in tests).
    pub bot_delay: std::time::Duration,
    /// How long a game against a bot may stand untouched ([`crate::abandon`]).
    pub abandon_after: std::time::Duration,
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
    /// The clients with a study request running ([`crate::api::study_limits`]).
    pub studying: crate::api::study_limits::Running,
    /// `/readyz` ([`crate::api::readiness::Readiness`]).
    pub readiness: crate::api::readiness::Readiness,
    /// Where the browser client's files are read from, if not the built-in ones
    /// ([`crate::web`]).
    pub web_dir: Option<std::path::PathBuf>,
    /// The games committed here, for the post-commit hook ([`crate::hook`]).
    commits: tokio::sync::mpsc::UnboundedSender<Committed>,
    /// The hook's end of `commits`, until the hook takes it.
    commit_feed: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<Committed>>>,
}

/// A commit, as the post-commit hook ([`crate::hook`]) hears of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// The game.
    pub id: String,
    /// Whether the referee may have something to do ([`Loaded::due`]).
    pub referee: bool,
    /// Whether the bot driver may have something to do ([`Loaded::bot_to_act`], a roll the
    /// server makes).
    pub bots: bool,
}

/// How many hints an instance works out at once.
pub const HINTS_AT_ONCE: usize = 2;

/// The per-game lock and the game loaded under it (`None` until loaded, or after a failed
/// commit).
pub type Slot = Arc<tokio::sync::Mutex<Option<Loaded>>>;

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
        let mut view = self.memo.get_or_init(|| self.view_without_clock()).clone();
        view["clock"] = serde_json::json!(crate::clock::ClockView::new(
            &self.clocks,
            crate::store::now_ms()
        ));
        view
    }

    /// What to do next, for a lean reply: the view's `status` and `legal` (from the memo
    /// when the full view was worked out, else without the rest of the view).
    pub fn next_step(&self) -> (serde_json::Value, serde_json::Value) {
        if let Some(view) = self.memo.get() {
            return (view["status"].clone(), view["legal"].clone());
        }
        if let Some(outcome) = &self.ended {
            let status = serde_json::to_value(Status::Over(*outcome)).unwrap_or_default();
            return (status, serde_json::json!([]));
        }
        (
            serde_json::to_value(self.table.status()).unwrap_or_default(),
            serde_json::Value::from(self.table.legal()),
        )
    }

    /// [`Loaded::view`] but its clock.
    fn view_without_clock(&self) -> serde_json::Value {
        let mut view = self.table.view(self.names());
        if let Some(games) = view.get_mut("games").and_then(|g| g.as_array_mut()) {
            for (g, v) in games.iter_mut().zip(&self.game_ends) {
                g["version"] = (*v).into();
            }
        }
        if let Some(outcome) = &self.ended {
            ended_view(&mut view, outcome, self.names());
        }
        view["leave"] = self.leave_view();
        view
    }

    /// Whether the game counts for ratings when it ends ([`crate::ratings::game_rated`]).
    pub fn rated(&self) -> bool {
        let kinds = ByColor::new_with(|c| self.players[c].as_ref().map(|p| p.kind.as_str()));
        crate::ratings::game_rated(self.row.rated, kinds) == Some(true)
    }

    /// Whether `color` may call the game off now (`POST /abort`): not over, not rated, and
    /// no action of theirs yet.
    pub fn may_abort(&self, color: Color) -> bool {
        matches!(self.row.state.as_str(), "waiting" | "playing")
            && !self.acted[color]
            && !self.rated()
    }

    /// What leaving costs each side now, as the view's `leave` gives it (docs/protocol.md,
    /// "Leaving a game"): `resign`, each colour's result if they resigned through the server
    /// now (null where the game resigns by its own actions, or is not being played), and
    /// `abort`, the colours that may call the game off.
    fn leave_view(&self) -> serde_json::Value {
        let playing =
            self.row.state == "playing" && self.ended.is_none() && self.table.outcome().is_none();
        let resign = (playing && !self.table.resigns_by_rules()).then(|| {
            let names = self.names();
            ByColor::new_with(|c| {
                crate::games::GameEnd::new(&self.table.forfeit(c, EndReason::Conceded), names)
            })
        });
        let abort: Vec<&str> = [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| self.may_abort(c))
            .map(color_name)
            .collect();
        serde_json::json!({ "resign": resign, "abort": abort })
    }

    /// Whom the game waits for now, as the clocks see it.
    pub fn waiting(&self) -> Waiting {
        if self.ended.is_some() {
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

    /// Whether the referee has something due, now or later ([`Loaded::due`],
    /// [`crate::referee`]).
    pub fn needs_referee(&self) -> bool {
        self.due().is_some()
    }

    /// Whether a bot or the server must act now ([`crate::bots`]).
    pub fn needs_driver(&self) -> bool {
        self.row.state == "playing"
            && (self.roller() == Some(Roller::Server) || self.bot_to_act().is_some())
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
    /// This player resigns a game whose rules have no resignation: it ends at once
    /// ([`EndReason::Conceded`]).
    Resign(Color),
    /// This player left a game against a bot untouched for so many days: it ends as their
    /// resignation ([`EndReason::Abandoned`]).
    Abandon(Color, u32),
    /// This player calls the game off before their first move: no result.
    Abort(Color),
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
        player: crate::store::PlayerRow,
        /// Their client seed.
        seed: Option<String>,
    },
}

impl App {
    /// Sends a note about `game` (analysis progress, a chat message) to its watchers on every
    /// instance: straight to this instance's hub on SQLite, through `NOTIFY` on PostgreSQL
    /// (whose listener hands it to every instance's hub, this one's included).
    pub async fn note_everywhere(&self, game: &str, note: serde_json::Value) {
        match self.db.backend {
            crate::store::Backend::Sqlite => self.hub.note(game, note),
            crate::store::Backend::Postgres => {
                if let Err(e) = self.db.notify_note(&note.to_string()).await {
                    tracing::warn!(error = %e, "NOTIFY failed");
                }
            }
        }
    }

    /// Shared state over `db`, run as `config` says.
    pub fn new(db: Db, config: &crate::config::Config) -> App {
        let (commits, commit_feed) = tokio::sync::mpsc::unbounded_channel();
        App {
            commits,
            commit_feed: Mutex::new(Some(commit_feed)),
            writer: writer::Writer::new(db.clone()),
            db,
            hub: Hub::default(),
            cache: GameCache::new(CACHE_CAPACITY),
            driving: Mutex::default(),
            accounts: crate::accounts::Accounts::new(config.accounts.clone()),
            analysis: config.analysis,
            analysis_wake: tokio::sync::Notify::new(),
            hints: tokio::sync::Semaphore::new(HINTS_AT_ONCE),
            rollouts: std::sync::Arc::new(tokio::sync::Semaphore::new(1)),
            studying: Arc::default(),
            watching: Mutex::default(),
            bot_delay: config.bot_delay,
            abandon_after: config.abandon_after,
            web_dir: config.web_dir.clone(),
            readiness: crate::api::readiness::Readiness::default(),
        }
    }

    /// Tells the post-commit hook ([`crate::hook`]) that game `id` was stored (a new game,
    /// a rematch): the hook reads it and starts whoever may have to act on it.
    pub fn committed(&self, id: &str) {
        self.send_commit(Committed {
            id: id.to_string(),
            referee: true,
            bots: true,
        });
    }

    /// Tells the post-commit hook that `game` was just committed, and what it needs: the
    /// referee when something is due on a clock, the bot driver when a bot or the server
    /// must act. A game between two people without a clock needs neither, and the hook
    /// then reads nothing.
    fn committed_game(&self, game: &Loaded) {
        self.send_commit(Committed {
            id: game.row.id.clone(),
            referee: game.needs_referee(),
            bots: game.needs_driver(),
        });
    }

    fn send_commit(&self, committed: Committed) {
        // Closed only once the hook's task is gone, when the server stops.
        let _ = self.commits.send(committed);
    }

    /// The hook's feed of committed games; `None` once taken.
    pub fn take_commits(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Committed>> {
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
        replay::replay(row, &events, players)
    }

    /// The players seated at `row`'s game.
    pub async fn seat_players(
        &self,
        row: &GameRow,
    ) -> Result<ByColor<Option<crate::store::PlayerRow>>, ApiError> {
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
