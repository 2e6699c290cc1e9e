//! The one post-commit hook: after every commit to a game on this instance (an action, a
//! roll, a join, a time-out, and a new game stored), the game is handed to whatever may have
//! to act on it next without a person: the bot driver ([`crate::bots`]) and the referee that
//! rolls for late players and ends games on time ([`crate::referee`]). The commit path only
//! sends the game's id down a channel, with whether the game as committed needs the referee
//! or the bots ([`crate::service::Committed`]; a game between two people without a clock
//! needs neither, and is not read again); this task does the rest, so that neither the
//! handlers, nor the bots, nor the referee call each other.

use crate::service::Committed;
use crate::AppState;

/// Runs the hook for every commit `state` reports, until the server stops.
pub fn spawn(state: AppState) {
    let Some(mut commits) = state.take_commits() else {
        tracing::warn!("the post-commit hook runs already");
        return;
    };
    tokio::spawn(async move {
        while let Some(committed) = commits.recv().await {
            after_commit(&state, committed);
        }
    });
}

/// Starts the referee and the bot driver for a committed game, each only when the game as
/// committed may need it (each a no-op when one runs already on this instance).
pub fn after_commit(state: &AppState, committed: Committed) {
    if committed.referee {
        crate::referee::watch(state.clone(), committed.id.clone());
    }
    if committed.bots {
        crate::bots::drive(state.clone(), committed.id);
    }
}
