//! Clocks: the time control a game is created with, and the clocks its log makes.
//!
//! A time control is a per-turn *delay* and a *reserve* that never grows (the usual
//! backgammon control; for a match, one reserve lasts the whole match). A player's clock runs
//! while the game waits for that player: to roll, to move, to answer a double. Each time the
//! game starts waiting for a player it is a new turn: the first `delay` seconds of it are free,
//! then the reserve runs. When the reserve is gone the player has lost on time
//! (docs/rules/*.md, "Clocks"; [`crate::service::Change::TimeOut`]).
//!
//! Nothing here is stored apart from the log: every event carries the time it was committed
//! (`at_ms`), and [`Clocks::advance`] replays those times, so a restarted server, or another
//! instance, derives the same clocks.
//!
//! The server also rolls for players ([`Due::Roll`]): for a bot whose roll the human's client
//! did not ask for within [`BOT_ROLL_WAIT_MS`], and under a clock for a player who did not
//! roll within the delay (at least [`ROLL_WAIT_MIN_MS`]); docs/dice.md says how its nonce is
//! chosen so that the dice stay verifiable.

use serde::{Deserialize, Serialize};
use tabula_core::{ByColor, Chance, Color, Status};
use utoipa::ToSchema;

/// A time control: a delay per turn and a reserve, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Seconds of each turn that do not count (0 to 600).
    pub delay: u32,
    /// Seconds of reserve for the whole game or match, never added to (0 to 604,800, a week).
    pub reserve: u32,
}

/// The longest delay, in seconds.
pub const MAX_DELAY: u32 = 600;
/// The longest reserve, in seconds (a week).
pub const MAX_RESERVE: u32 = 7 * 24 * 3600;
/// How long a bot's roll waits for the human's client to send its nonce before the server
/// rolls itself, in milliseconds (with or without clocks).
pub const BOT_ROLL_WAIT_MS: i64 = 3000;
/// Under a clock, how long the server waits at least before it rolls for a player who has
/// not rolled, in milliseconds (the delay when longer).
pub const ROLL_WAIT_MIN_MS: i64 = 5000;

impl TimeControl {
    /// Why these numbers are refused, if they are.
    pub fn check(&self) -> Result<(), String> {
        if self.delay > MAX_DELAY {
            return Err(format!("a clock's delay is at most {MAX_DELAY} seconds"));
        }
        if self.reserve > MAX_RESERVE {
            return Err(format!(
                "a clock's reserve is at most {MAX_RESERVE} seconds (a week)"
            ));
        }
        if self.delay == 0 && self.reserve == 0 {
            return Err("a clock needs a delay or a reserve (leave it out for none)".into());
        }
        Ok(())
    }

    fn delay_ms(&self) -> i64 {
        i64::from(self.delay) * 1000
    }

    /// The control in words: `12 s a move + 3 min`.
    pub fn describe(&self) -> String {
        let reserve = match self.reserve {
            0 => String::new(),
            r if r % 3600 == 0 => format!(" + {} h", r / 3600),
            r if r % 60 == 0 => format!(" + {} min", r / 60),
            r => format!(" + {r} s"),
        };
        format!("{} s a move{reserve}", self.delay)
    }
}

/// Whom the game waits for, as the clocks see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// Nobody: the seat is empty or the game is over.
    Nobody,
    /// The opening roll, which is nobody's turn.
    Opening,
    /// This player: to roll, move or answer.
    Player(Color),
}

impl Waiting {
    /// Whom a game in `status` waits for (`playing`: whether both seats are taken and the game
    /// runs).
    pub fn of(status: &Status, playing: bool) -> Waiting {
        if !playing {
            return Waiting::Nobody;
        }
        match status {
            Status::Decide { player, .. } => Waiting::Player(*player),
            Status::Chance(Chance::Roll(c)) => Waiting::Player(*c),
            Status::Chance(Chance::Opening) => Waiting::Opening,
            Status::Over(_) => Waiting::Nobody,
        }
    }
}

/// The clocks of a game: the reserve each player had left when the current wait began, whom
/// it waits for and since when. Without a time control only the waiting is tracked (for the
/// server's rolls for a bot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clocks {
    /// The time control, if the game has one.
    pub control: Option<TimeControl>,
    /// Reserve left, in milliseconds, as of the start of the current wait.
    pub reserve: ByColor<i64>,
    /// Whom the game waits for.
    pub waiting: Waiting,
    /// When the current wait began (ms since the epoch).
    pub since: i64,
}

impl Clocks {
    /// Fresh clocks for `control`.
    pub fn new(control: Option<TimeControl>) -> Clocks {
        let r = control.map_or(0, |c| i64::from(c.reserve) * 1000);
        Clocks {
            control,
            reserve: ByColor { white: r, black: r },
            waiting: Waiting::Nobody,
            since: 0,
        }
    }

    /// After an event committed at `at`, the game waits for `now_waiting`: a change of whom it
    /// waits for ends the turn of the player waited for, whose reserve pays for the part of it
    /// beyond the delay.
    pub fn advance(&mut self, now_waiting: Waiting, at: i64) {
        if now_waiting == self.waiting {
            return;
        }
        if let Waiting::Player(c) = self.waiting {
            self.reserve[c] -= self.used(at);
        }
        self.waiting = now_waiting;
        self.since = at;
    }

    /// The reserve spent by the current turn if it ended at `at`.
    fn used(&self, at: i64) -> i64 {
        let delay = self.control.map_or(0, |c| c.delay_ms());
        (at - self.since - delay).max(0)
    }

    /// When the player waited for runs out of time, if there is a clock and a player to wait
    /// for.
    pub fn flag_at(&self) -> Option<(Color, i64)> {
        let control = self.control?;
        match self.waiting {
            Waiting::Player(c) => Some((c, self.since + control.delay_ms() + self.reserve[c])),
            _ => None,
        }
    }

    /// Each player's reserve left at `now`, and the delay left of the current turn.
    pub fn at(&self, now: i64) -> (ByColor<i64>, i64) {
        let mut reserve = self.reserve;
        let delay = self.control.map_or(0, |c| c.delay_ms());
        let mut delay_left = 0;
        if let Waiting::Player(c) = self.waiting {
            reserve[c] -= self.used(now);
            delay_left = (delay - (now - self.since)).clamp(0, delay);
        }
        // A flag falls a moment after its time: never show less than nothing.
        reserve.white = reserve.white.max(0);
        reserve.black = reserve.black.max(0);
        (reserve, delay_left)
    }

    /// When the server should roll, for a game whose next roll is asked for by `roller`:
    /// `bot_roll` when the roll is a bot's that a human's client should have asked for.
    pub fn roll_at(&self, bot_roll: bool) -> Option<i64> {
        if bot_roll {
            return Some(self.since + BOT_ROLL_WAIT_MS);
        }
        let control = self.control?;
        match self.waiting {
            Waiting::Player(_) | Waiting::Opening => {
                Some(self.since + control.delay_ms().max(ROLL_WAIT_MIN_MS))
            }
            Waiting::Nobody => None,
        }
    }
}

/// The clocks as views give them (`view.clock`): the control, each reserve left in
/// milliseconds at the moment of the view, whose clock runs, and the delay left of the turn.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ClockView {
    /// Seconds of each turn that do not count.
    pub delay: u32,
    /// The reserve each player started with, in seconds.
    pub reserve: u32,
    /// Reserve left, in milliseconds: `{"white", "black"}`.
    #[schema(value_type = Object)]
    pub left: ByColor<i64>,
    /// Whose clock runs: `white`, `black`, or null.
    #[schema(value_type = Option<String>)]
    pub running: Option<Color>,
    /// What is left of the current turn's delay, in milliseconds.
    pub delay_left: i64,
    /// The control in words (`12 s a move + 3 min`).
    pub describe: String,
}

impl ClockView {
    /// The view of `clocks` at `now`, `None` without a time control.
    pub fn new(clocks: &Clocks, now: i64) -> Option<ClockView> {
        let control = clocks.control?;
        let (left, delay_left) = clocks.at(now);
        Some(ClockView {
            delay: control.delay,
            reserve: control.reserve,
            left,
            running: match clocks.waiting {
                Waiting::Player(c) => Some(c),
                _ => None,
            },
            delay_left,
            describe: control.describe(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(delay: u32, reserve: u32) -> Option<TimeControl> {
        Some(TimeControl { delay, reserve })
    }

    #[test]
    fn the_delay_is_free_and_the_reserve_pays_the_rest() {
        let mut c = Clocks::new(tc(10, 60));
        c.advance(Waiting::Player(Color::White), 1_000);
        // White takes 25 s: 10 free, 15 from the reserve.
        c.advance(Waiting::Player(Color::Black), 26_000);
        assert_eq!(c.reserve.white, 45_000);
        // Black takes 4 s, within the delay.
        c.advance(Waiting::Player(Color::White), 30_000);
        assert_eq!(c.reserve.black, 60_000);
    }

    #[test]
    fn the_reserve_never_grows() {
        let mut c = Clocks::new(tc(10, 60));
        c.advance(Waiting::Player(Color::White), 0);
        c.advance(Waiting::Player(Color::Black), 1_000);
        c.advance(Waiting::Player(Color::White), 2_000);
        assert_eq!(
            c.reserve,
            ByColor {
                white: 60_000,
                black: 60_000
            }
        );
    }

    #[test]
    fn a_roll_and_a_move_by_one_player_are_one_turn() {
        let mut c = Clocks::new(tc(10, 60));
        c.advance(Waiting::Player(Color::White), 0);
        // The roll (8 s) and the move (8 s later) wait for White throughout: one delay.
        c.advance(Waiting::Player(Color::White), 8_000);
        c.advance(Waiting::Player(Color::Black), 16_000);
        assert_eq!(c.reserve.white, 54_000);
    }

    #[test]
    fn the_flag_falls_after_the_delay_and_the_reserve() {
        let mut c = Clocks::new(tc(10, 60));
        c.advance(Waiting::Player(Color::White), 0);
        c.advance(Waiting::Player(Color::Black), 30_000);
        assert_eq!(c.flag_at(), Some((Color::Black, 30_000 + 10_000 + 60_000)));
        let (left, delay_left) = c.at(45_000);
        assert_eq!((left.black, delay_left), (55_000, 0));
        assert_eq!(left.white, 40_000);
    }

    #[test]
    fn the_opening_roll_is_nobodys_turn() {
        let mut c = Clocks::new(tc(10, 60));
        c.advance(Waiting::Opening, 0);
        assert_eq!(c.flag_at(), None);
        assert_eq!(c.roll_at(false), Some(10_000));
        c.advance(Waiting::Player(Color::Black), 50_000);
        assert_eq!(
            c.reserve,
            ByColor {
                white: 60_000,
                black: 60_000
            }
        );
    }

    #[test]
    fn without_a_clock_only_a_bots_roll_is_made_by_the_server() {
        let mut c = Clocks::new(None);
        c.advance(Waiting::Player(Color::White), 5);
        assert_eq!(c.flag_at(), None);
        assert_eq!(c.roll_at(false), None);
        assert_eq!(c.roll_at(true), Some(5 + BOT_ROLL_WAIT_MS));
        assert!(ClockView::new(&c, 10).is_none());
    }

    #[test]
    fn a_short_delay_still_leaves_time_to_roll() {
        let mut c = Clocks::new(tc(0, 60));
        c.advance(Waiting::Player(Color::White), 0);
        assert_eq!(c.roll_at(false), Some(ROLL_WAIT_MIN_MS));
    }

    #[test]
    fn controls_out_of_range_are_refused() {
        assert!(TimeControl {
            delay: 0,
            reserve: 0
        }
        .check()
        .is_err());
        assert!(TimeControl {
            delay: 601,
            reserve: 0
        }
        .check()
        .is_err());
        assert!(TimeControl {
            delay: 0,
            reserve: MAX_RESERVE + 1
        }
        .check()
        .is_err());
        assert!(TimeControl {
            delay: 12,
            reserve: 120
        }
        .check()
        .is_ok());
        assert_eq!(
            TimeControl {
                delay: 12,
                reserve: 180
            }
            .describe(),
            "12 s a move + 3 min"
        );
    }
}
