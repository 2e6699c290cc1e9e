//! The per-instance cache of loaded games ([`GameCache`]): one [`Slot`] per game that exists,
//! bounded, idle entries dropped least recently used first; and the check that a game id is
//! well formed before the cache or the database is touched.

use super::Slot;
use crate::error::ApiError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
