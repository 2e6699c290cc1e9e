//! `LISTEN` (PostgreSQL only): a connection of its own that receives the other instances'
//! notifications, committed changes to games ([`super::batch::GAMES_CHANNEL`]) and analysis
//! progress and chat messages ([`ANALYSES_CHANNEL`], [`Db::notify_note`]). The server's loop that reconnects
//! and hands them on is `spawn_listener` in the crate root.

use super::batch::{moved_games, GAMES_CHANNEL};
use super::{Db, StoreError};
use sqlx::postgres::PgListener;

/// The `NOTIFY` channel of analysis progress (JSON messages).
pub const ANALYSES_CHANNEL: &str = "tabula_analyses";

/// A notification from another instance (or this one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notification {
    /// Games moved, each with its new version.
    Games(Vec<(String, i64)>),
    /// A note about a game (an analysis's progress, a chat message), as JSON.
    Analysis(String),
}

/// A `LISTEN` connection.
pub struct Listener(PgListener);

impl Db {
    /// Tells every instance's listener (`NOTIFY tabula_analyses`) a note about a game, `note`
    /// being its JSON message with the game's id in `game`: an analysis's progress, a chat
    /// message. Each instance's listener hands it to the game's watchers there.
    pub async fn notify_note(&self, note: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify('tabula_analyses', $1)")
            .bind(note)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Opens a `LISTEN` connection to the database (PostgreSQL).
    pub async fn listener(&self) -> Result<Listener, StoreError> {
        Ok(Listener(PgListener::connect(&self.url).await?))
    }
}

impl Listener {
    /// Listens to both channels.
    pub async fn subscribe(&mut self) -> Result<(), StoreError> {
        Ok(self.0.listen_all([GAMES_CHANNEL, ANALYSES_CHANNEL]).await?)
    }

    /// The next notification; an error when the connection is lost.
    pub async fn recv(&mut self) -> Result<Notification, StoreError> {
        let n = self.0.recv().await?;
        Ok(if n.channel() == ANALYSES_CHANNEL {
            Notification::Analysis(n.payload().to_string())
        } else {
            Notification::Games(moved_games(n.payload()))
        })
    }
}
