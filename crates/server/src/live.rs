//! Live updates: one broadcast channel per watched game on this instance, fed by this
//! instance's own commits and, on PostgreSQL, by `NOTIFY tabula_games` from the others.
//!
//! Every push carries the game's version. The hub remembers the last version it pushed per
//! game and pushes each version once, whichever path told it first.

use crate::store::EventRow;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// One update of a game: the event that made version `version`, and the state after it.
#[derive(Debug, Clone, Serialize)]
pub struct Push {
    /// Always `"event"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The game's version after the event.
    pub version: i64,
    /// The event.
    pub event: EventRow,
    /// The state after it (the game view), or `null` for catch-up events but the last.
    pub state: Option<Value>,
    /// `waiting`, `playing` or `finished`.
    pub game_state: String,
}

struct Channel {
    sender: broadcast::Sender<Arc<Push>>,
    /// Notes about the game that are not events (an analysis's progress).
    notes: broadcast::Sender<Arc<Value>>,
    pushed: i64,
}

impl Channel {
    fn new() -> Channel {
        Channel {
            sender: broadcast::channel(256).0,
            notes: broadcast::channel(64).0,
            pushed: 0,
        }
    }
}

/// The per-game channels of this instance, and the lobby's.
pub struct Hub {
    channels: Mutex<HashMap<String, Channel>>,
    /// Ticks whenever the lobby may have changed (a game created, joined or finished, here
    /// or, on PostgreSQL, on another instance).
    lobby: broadcast::Sender<()>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            channels: Mutex::default(),
            lobby: broadcast::channel(16).0,
        }
    }
}

impl Hub {
    /// Subscribes to the lobby's ticks.
    pub fn lobby_updates(&self) -> broadcast::Receiver<()> {
        self.lobby.subscribe()
    }

    /// Tells the lobby's watchers on this instance that it may have changed.
    pub fn lobby_changed(&self) {
        // No receiver is no error: nobody looks at the lobby.
        let _ = self.lobby.send(());
    }

    /// Subscribes to a game's pushes and notes.
    pub fn subscribe(
        &self,
        game: &str,
    ) -> (
        broadcast::Receiver<Arc<Push>>,
        broadcast::Receiver<Arc<Value>>,
    ) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        let channel = channels
            .entry(game.to_string())
            .or_insert_with(Channel::new);
        (channel.sender.subscribe(), channel.notes.subscribe())
    }

    /// The last version pushed for `game`, when someone is watching it here.
    pub fn watched(&self, game: &str) -> Option<i64> {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.get(game).map(|c| c.pushed)
    }

    /// Pushes `push` unless this version was already pushed; drops channels nobody watches.
    pub fn publish(&self, game: &str, push: Push) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        let Some(channel) = channels.get_mut(game) else {
            return;
        };
        if push.version <= channel.pushed {
            return;
        }
        channel.pushed = push.version;
        if channel.sender.send(Arc::new(push)).is_err() {
            channels.remove(game);
        }
    }

    /// Sends a note to the game's watchers on this instance, if any.
    pub fn note(&self, game: &str, note: Value) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(channel) = channels.get(game) {
            if channel.notes.send(Arc::new(note)).is_err() {
                // Nobody watches the game here any more.
                channels.remove(game);
            }
        }
    }
}
