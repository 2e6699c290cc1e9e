//! The one post-commit hook: after every commit to a game on this instance (an action, a
//! roll, a join, a time-out, and a new game stored), the game is handed to whatever may have
//! to act on it next without a person: the bot driver ([`crate::bots`]) and the referee that
//! rolls for late players and ends games on time ([`crate::referee`]). The commit path only
//! sends the game's id down a channel ([`crate::service::App::committed`]); this task does
//! the rest, so that neither the handlers, nor the bots, nor the referee call each other.

use crate::AppState;

/// Runs the hook for every commit `state` reports, until the server stops.
pub fn spawn(state: AppState) {
    let Some(mut commits) = state.take_commits() else {
        tracing::warn!("the post-commit hook runs already");
        return;
    };
    tokio::spawn(async move {
        while let Some(id) = commits.recv().await {
            after_commit(&state, id);
        }
    });
}

/// Starts the bot driver and the referee for game `id` (each a no-op when one runs already
/// on this instance, or when the game has nothing for them).
pub fn after_commit(state: &AppState, id: String) {
    crate::referee::watch(state.clone(), id.clone());
    crate::bots::drive(state.clone(), id);
}
