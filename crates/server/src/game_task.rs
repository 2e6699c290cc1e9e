//! The one shape of the server's per-game background tasks, the bot driver
//! ([`crate::bots`]) and the referee ([`crate::referee`]): at most one of each kind per game
//! on this instance; while the storage fails it tries again, less often the longer the fault
//! lasts (crate::store::faults), so a fault stops nothing for good; and after it stops it
//! looks at the game once more, since a commit made while it was stopping found it still
//! registered and started none.

use crate::error::ApiError;
use crate::service::Loaded;
use crate::AppState;
use std::collections::HashSet;
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

/// A kind of per-game task.
pub struct Kind {
    /// Its name in the log.
    pub name: &'static str,
    /// The games it runs for on this instance.
    pub running: fn(&AppState) -> &Mutex<HashSet<String>>,
    /// Whether a game needs it now.
    pub needed: fn(&Loaded) -> bool,
}

/// Starts `run` for game `id` as a task of `kind`, unless one runs on this instance already.
pub fn start<F, Fut>(state: AppState, id: String, kind: &'static Kind, run: F)
where
    F: Fn(AppState, String) -> Fut + Send + 'static,
    Fut: Future<Output = Result<(), ApiError>> + Send,
{
    if !claim(&state, &id, kind) {
        return;
    }
    tokio::spawn(async move {
        let mut pause = Duration::from_millis(250);
        loop {
            match run(state.clone(), id.clone()).await {
                Err(e) if e.is_storage_fault() => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(5));
                    continue;
                }
                Err(e) => tracing::warn!(game = %id, error = %e, task = kind.name, "stopped"),
                Ok(()) => {}
            }
            release(&state, &id, kind);
            let again = match state.load(&id).await {
                Ok(game) => (kind.needed)(&game),
                Err(_) => false,
            };
            if !(again && claim(&state, &id, kind)) {
                break;
            }
        }
    });
}

fn claim(state: &AppState, id: &str, kind: &Kind) -> bool {
    let mut running = (kind.running)(state)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    running.insert(id.to_string())
}

fn release(state: &AppState, id: &str, kind: &Kind) {
    let mut running = (kind.running)(state)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    running.remove(id);
}
