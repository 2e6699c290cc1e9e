//! Games against a bot that their person walked away from: one task per instance looks, at
//! start and then every [`sweep_every`] of the allowed idle time, for games being played
//! against a bot whose last event is older than `abandon_after` (`TABULA_ABANDON_AFTER_SECS`,
//! 7 days by default, [`crate::config`]) and ends each whose turn is the person's as their
//! resignation ([`tabula_core::EndReason::Abandoned`]: lost as running out of time would lose
//! it). The game then leaves the person's "Your games". Each ending is an ordinary commit on
//! the version the search saw, so a move made meanwhile, or another instance ending the game
//! first, makes it refused and harmless.

use crate::clock::Waiting;
use crate::error::ApiError;
use crate::service::Change;
use crate::store::now_ms;
use crate::AppState;
use std::time::Duration;

/// The most games ended in one sweep; the rest wait for the next.
const SWEEP_LIMIT: i64 = 200;

/// How often to look: a tenth of the allowed idle time, between 1 second and 1 hour.
pub fn sweep_every(abandon_after: Duration) -> Duration {
    (abandon_after / 10).clamp(Duration::from_secs(1), Duration::from_secs(3600))
}

/// Starts the sweeping task.
pub fn spawn(state: AppState) {
    tokio::spawn(async move {
        let every = sweep_every(state.abandon_after);
        loop {
            match sweep(&state).await {
                Ok(0) => {}
                Ok(ended) => tracing::info!(ended, "abandoned games against bots ended"),
                Err(e) => tracing::warn!(error = %e, "looking for abandoned games failed"),
            }
            tokio::time::sleep(every).await;
        }
    });
}

/// Ends every game against a bot left untouched for longer than allowed whose turn is the
/// person's; returns how many it ended.
pub async fn sweep(state: &AppState) -> Result<usize, ApiError> {
    let after = state.abandon_after;
    let days = u32::try_from(after.as_secs() / 86_400).unwrap_or(u32::MAX);
    let before = now_ms() - i64::try_from(after.as_millis()).unwrap_or(i64::MAX);
    let mut ended = 0;
    for (id, version) in state.db.idle_bot_games(before, SWEEP_LIMIT).await? {
        let done = state
            .change(&id, |g| {
                if g.row.version != version {
                    return Err(ApiError::conflict("stale_version", "the game moved"));
                }
                match g.waiting() {
                    Waiting::Player(c) if g.row.bot(c).is_none() => Ok(Change::Abandon(c, days)),
                    _ => Err(ApiError::conflict(
                        "not_abandoned",
                        "the game waits for its bot, not its person",
                    )),
                }
            })
            .await;
        if done.is_ok() {
            ended += 1;
        }
    }
    Ok(ended)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_looks_every_tenth_of_the_idle_time_between_a_second_and_an_hour() {
        let days = |n: u64| Duration::from_secs(n * 86_400);
        assert_eq!(sweep_every(days(7)), Duration::from_secs(3600));
        assert_eq!(sweep_every(Duration::from_secs(2)), Duration::from_secs(1));
        assert_eq!(
            sweep_every(Duration::from_secs(600)),
            Duration::from_secs(60)
        );
    }
}
