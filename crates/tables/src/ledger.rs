//! What a session of the tables family keeps besides its current game, the same for
//! backgammon and Never-Finishing: the score carried from game to game, the number of games
//! begun, the finished games' results, the log of events, whether the session is over, and
//! the session's [`Outcome`] once it is.

use tabula_core::{ByColor, Color, EndReason, Outcome, SessionEnd};

/// A finished game's result, as a session scores it.
pub(crate) trait Scored: Copy {
    /// Who won; `None` for a draw.
    fn winner(&self) -> Option<Color>;
    /// The points the winner scores.
    fn points(&self) -> u32;
    /// The rule that ended the game.
    fn reason(&self) -> EndReason;
}

/// What a session is played for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stakes {
    /// A match to this many points.
    Match(u8),
    /// Money games.
    Money,
}

/// A session's score, games, results and events (`R`: a game's result, `E`: an event).
#[derive(Debug, Clone)]
pub(crate) struct Ledger<R, E> {
    /// Match points, or money won so far.
    pub(crate) score: ByColor<u32>,
    /// The number of the current game, from 1.
    pub(crate) games: u32,
    /// The finished games' results, in order.
    pub(crate) results: Vec<R>,
    /// Everything that happened, in order.
    pub(crate) events: Vec<E>,
    /// Whether the session has ended.
    pub(crate) over: bool,
}

impl<R: Scored, E> Ledger<R, E> {
    /// A ledger at `score` with `games` games begun, nothing logged.
    pub(crate) fn new(score: ByColor<u32>, games: u32) -> Ledger<R, E> {
        Ledger {
            score,
            games,
            results: Vec::new(),
            events: Vec::new(),
            over: false,
        }
    }

    /// Logs a finished game (`event` says so) and adds its points to the winner's score.
    pub(crate) fn finish_game(&mut self, result: R, event: E) {
        self.events.push(event);
        self.results.push(result);
        if let Some(w) = result.winner() {
            self.score[w] += result.points();
        }
    }

    /// Whether a money session that stops after `games` (if given) has played them all.
    pub(crate) fn money_done(&self, games: Option<u32>) -> bool {
        games.is_some_and(|g| self.games >= g)
    }

    /// The outcome of the whole session once it is over: the match or the money session,
    /// and the reason its last game ended.
    pub(crate) fn outcome(&self, stakes: Stakes) -> Outcome {
        let end = match stakes {
            Stakes::Match(length) => SessionEnd::Match {
                length: length.into(),
                score: self.score,
            },
            Stakes::Money => SessionEnd::Money {
                games: self.games,
                score: self.score,
            },
        };
        let last = self
            .results
            .last()
            .map_or(EndReason::BoreOffSingle, |r| r.reason());
        Outcome::from_session(end, last)
    }
}
