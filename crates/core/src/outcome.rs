//! How a game ended: the result ([`Outcome`]) and the rule that decided it ([`EndReason`]).
//!
//! Every rules engine knows why its game is over; the reason travels with the result so that
//! every place a result is shown (the terminal, the server's views and records, the browser,
//! self-play statistics) can say it. A reason has a stable code ([`EndReason::code`], the
//! same string in JSON) and a sentence that names the players ([`Outcome::sentence`]).

use crate::{ByColor, Color};
use serde::{Serialize, Serializer};
use std::fmt;

/// Why one game ended, as its rules put it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// Backgammon family: the winner bore off all their checkers and the loser had borne off
    /// at least one: a single game.
    BoreOffSingle,
    /// The winner bore off all their checkers before the loser bore off any: a gammon.
    BoreOffGammon,
    /// A gammon while the loser still had a checker on the bar or in the winner's home board:
    /// a backgammon.
    BoreOffBackgammon,
    /// A gammon or backgammon counted as a single game because of the Jacoby rule (money
    /// play, the cube never turned).
    JacobySingle,
    /// The loser refused a double.
    CubeDropped,
    /// The loser resigned at this level and the winner accepted.
    Resigned(Level),
    /// Never-Finishing: no roll can ever move a checker of either side; drawn.
    DeadPosition,
    /// Grasshopper: the winner bore off a wall while being the last player to have scored,
    /// two points in succession.
    ScoredTwice,
    /// Grasshopper: a player had to pass right after the opponent passed; drawn.
    BothPassed,
    /// Grasshopper: neither player has a checker left, in hand or on the board; drawn.
    NoCheckersLeft,
    /// Halma: all the winner's pieces stand in the opponent's camp.
    AllInCamp,
    /// Halma, the evacuation rule: the loser still had a piece in their own starting camp
    /// after their `moves`-th move.
    NotEvacuated {
        /// The deadline, in the loser's own moves.
        moves: u32,
    },
    /// Halma, the evacuation rule: after the deadline the loser moved a piece back into their
    /// own starting camp.
    ReturnedToCamp,
    /// Halma: the same position with the same side to move stood for the third time; drawn.
    Repetition,
    /// Halma: the ply limit was reached without a winner; drawn.
    PlyLimit {
        /// The limit, in plies.
        plies: u32,
    },
    /// A draw offer was accepted.
    Agreement,
    /// The loser's clock ran out (a server's time control; the rules engines never end a
    /// game so).
    TimeOut,
    /// The loser resigned and the game ended at once, no answer asked: the games without a
    /// resignation in their rules (Never-Finishing, Grasshopper, Halma), through the server.
    Conceded,
    /// The loser left a game against a bot untouched for `days` days; the server ended it as a
    /// resignation.
    Abandoned {
        /// The whole days without a move (0 when the server allows less than a day).
        days: u32,
    },
    /// A player called the game off before their first move (an unrated game): no result.
    Aborted,
}

/// The size of a backgammon-family win, as a resignation offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// A single game.
    Single,
    /// A gammon.
    Gammon,
    /// A backgammon.
    Backgammon,
}

impl Level {
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Single => "single",
            Level::Gammon => "gammon",
            Level::Backgammon => "backgammon",
        }
    }
}

impl EndReason {
    /// Every code, in the order of the variants: the values a client can meet.
    pub const CODES: [&'static str; 22] = [
        "single",
        "gammon",
        "backgammon",
        "jacoby-single",
        "cube-dropped",
        "resigned-single",
        "resigned-gammon",
        "resigned-backgammon",
        "dead-position",
        "scored-twice",
        "both-passed",
        "no-checkers-left",
        "all-in-camp",
        "not-evacuated",
        "returned-to-camp",
        "repetition",
        "ply-limit",
        "agreement",
        "time-out",
        "resigned",
        "abandoned",
        "aborted",
    ];

    /// The stable code of this reason (kebab-case), as the API and JSON output give it.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::BoreOffSingle => "single",
            EndReason::BoreOffGammon => "gammon",
            EndReason::BoreOffBackgammon => "backgammon",
            EndReason::JacobySingle => "jacoby-single",
            EndReason::CubeDropped => "cube-dropped",
            EndReason::Resigned(Level::Single) => "resigned-single",
            EndReason::Resigned(Level::Gammon) => "resigned-gammon",
            EndReason::Resigned(Level::Backgammon) => "resigned-backgammon",
            EndReason::DeadPosition => "dead-position",
            EndReason::ScoredTwice => "scored-twice",
            EndReason::BothPassed => "both-passed",
            EndReason::NoCheckersLeft => "no-checkers-left",
            EndReason::AllInCamp => "all-in-camp",
            EndReason::NotEvacuated { .. } => "not-evacuated",
            EndReason::ReturnedToCamp => "returned-to-camp",
            EndReason::Repetition => "repetition",
            EndReason::PlyLimit { .. } => "ply-limit",
            EndReason::Agreement => "agreement",
            EndReason::TimeOut => "time-out",
            EndReason::Conceded => "resigned",
            EndReason::Abandoned { .. } => "abandoned",
            EndReason::Aborted => "aborted",
        }
    }

    /// Whether this reason ends a game without a winner.
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            EndReason::DeadPosition
                | EndReason::BothPassed
                | EndReason::NoCheckersLeft
                | EndReason::Repetition
                | EndReason::PlyLimit { .. }
                | EndReason::Agreement
        )
    }

    /// Why the game ended, in words, naming the players (`names` by colour) and, for a win,
    /// the winner. No score: [`Outcome::sentence`] adds it.
    pub fn why(self, winner: Option<Color>, names: ByColor<&str>) -> String {
        let w = winner.map_or("the winner", |c| names[c]);
        let l = winner.map_or("the loser", |c| names[c.other()]);
        match self {
            EndReason::BoreOffSingle => format!("{w} bore off all their checkers first"),
            EndReason::BoreOffGammon => {
                format!("{w} bore off all their checkers before {l} bore off any (a gammon)")
            }
            EndReason::BoreOffBackgammon => format!(
                "{w} bore off all their checkers while {l} had borne off none and still had a \
                 checker on the bar or in {w}'s home board (a backgammon)"
            ),
            EndReason::JacobySingle => format!(
                "{w} bore off all their checkers before {l} bore off any; under the Jacoby \
                 rule the gammon counts as a single game, as the cube was never turned"
            ),
            EndReason::CubeDropped => format!("{l} refused {w}'s double"),
            EndReason::Resigned(level) => {
                format!("{l} resigned a {} and {w} accepted", level.name())
            }
            EndReason::DeadPosition => "no roll can ever move a checker of either side \
                 again (a dead position)"
                .to_string(),
            EndReason::ScoredTwice => format!(
                "{w} scored twice in succession, bearing off a wall after also scoring the \
                 previous point"
            ),
            EndReason::BothPassed => {
                "neither player can act: a pass was answered by a pass".to_string()
            }
            EndReason::NoCheckersLeft => {
                "neither player has a checker left, in hand or on the board".to_string()
            }
            EndReason::AllInCamp => {
                format!("all of {w}'s pieces stand in {l}'s starting camp")
            }
            EndReason::NotEvacuated { moves } => format!(
                "{l} still had a piece in their own starting camp after their {} move (the \
                 evacuation rule)",
                ordinal(moves)
            ),
            EndReason::ReturnedToCamp => format!(
                "{l} moved a piece back into their own starting camp after the evacuation \
                 deadline (the evacuation rule)"
            ),
            EndReason::Repetition => "the same position, with the same side to move, \
                 stood for the third time"
                .to_string(),
            EndReason::PlyLimit { plies } => {
                format!("the game reached its ply limit of {plies} without a winner")
            }
            EndReason::Agreement => "the players agreed to a draw".to_string(),
            EndReason::TimeOut => format!("{l} ran out of time on the clock"),
            EndReason::Conceded => format!("{l} resigned"),
            EndReason::Abandoned { days: 0 } => format!(
                "{l} left the game untouched longer than allowed, which counts as resigning"
            ),
            EndReason::Abandoned { days: 1 } => {
                format!("{l} left the game untouched for a day, which counts as resigning")
            }
            EndReason::Abandoned { days } => {
                format!("{l} left the game untouched for {days} days, which counts as resigning")
            }
            EndReason::Aborted => "the game was called off before a move was made".to_string(),
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for EndReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, .. `11th`, `21st`.
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A match or money session that ended as a whole (its last game's reason is
/// [`Outcome::reason`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum SessionEnd {
    /// A match to `length` points was won; `score` is the final score.
    Match {
        /// Points needed.
        length: u32,
        /// The final score.
        score: ByColor<u32>,
    },
    /// A money session reached its number of games; `score` is the points each side won.
    Money {
        /// Games played.
        games: u32,
        /// Points won by each side.
        score: ByColor<u32>,
    },
}

/// The result of a finished game, or of a finished match or session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Points won (a session: the difference of the final scores).
    pub points: u32,
    /// What ended the game (a session: its last game).
    pub reason: EndReason,
    /// Set when the outcome is a whole match's or money session's.
    pub session: Option<SessionEnd>,
}

impl Outcome {
    /// A single game won by `winner` for `points`, for `reason`.
    pub fn win(winner: Color, points: u32, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            points,
            reason,
            session: None,
        }
    }

    /// A drawn game.
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            points: 0,
            reason,
            session: None,
        }
    }

    /// The outcome of a session from its final score: the side ahead wins by the difference;
    /// level scores are a draw. `last` is the reason its last game ended.
    pub fn from_session(end: SessionEnd, last: EndReason) -> Outcome {
        let (SessionEnd::Match { score, .. } | SessionEnd::Money { score, .. }) = end;
        let (w, b) = (score.white, score.black);
        Outcome {
            winner: match w.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Color::White),
                std::cmp::Ordering::Less => Some(Color::Black),
                std::cmp::Ordering::Equal => None,
            },
            points: w.abs_diff(b),
            reason: last,
            session: Some(end),
        }
    }

    /// The stable code of the ending: `match-won` or `session-complete` for a session,
    /// otherwise the game's [`EndReason::code`].
    pub fn code(&self) -> &'static str {
        match self.session {
            Some(SessionEnd::Match { .. }) => "match-won",
            Some(SessionEnd::Money { .. }) => "session-complete",
            None => self.reason.code(),
        }
    }

    /// The result in one sentence, naming the players: who won what, and why.
    ///
    /// `Bob wins 4 points: Bob bore off all their checkers before Ann bore off any (a
    /// gammon).` — `Drawn: the players agreed to a draw.` — `Bob wins the 5-point match 6-3.
    /// The last game: Ann refused Bob's double.`
    pub fn sentence(&self, names: ByColor<&str>) -> String {
        let why = self.reason.why(self.winner, names);
        let tally = |score: ByColor<u32>| {
            format!(
                "{} {}, {} {}",
                names.white, score.white, names.black, score.black
            )
        };
        match (self.session, self.winner) {
            (None, None) if self.reason == EndReason::Aborted => {
                format!("Aborted: {why}; no result, and nobody's rating moves.")
            }
            (None, None) => format!("Drawn: {why}."),
            (None, Some(w)) => format!("{} wins {}: {why}.", names[w], points(self.points)),
            (Some(SessionEnd::Match { length, score }), winner) => format!(
                "{} wins the {length}-point match {}-{}. The last game: {}.",
                winner.map_or("Nobody", |c| names[c]),
                score.white.max(score.black),
                score.white.min(score.black),
                why
            ),
            (Some(SessionEnd::Money { games, score }), Some(w)) => format!(
                "{} wins the session of {games} games by {} ({}). The last game: {}.",
                names[w],
                points(self.points),
                tally(score),
                why
            ),
            (Some(SessionEnd::Money { games, score }), None) => format!(
                "The session of {games} games ends level ({}). The last game: {}.",
                tally(score),
                why
            ),
        }
    }
}

fn points(n: u32) -> String {
    if n == 1 {
        "1 point".to_string()
    } else {
        format!("{n} points")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: ByColor<&str> = ByColor {
        white: "Ann",
        black: "Bob",
    };

    #[test]
    fn every_code_is_listed_once() {
        let mut codes = EndReason::CODES.to_vec();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), EndReason::CODES.len());
        assert!(EndReason::CODES.contains(&EndReason::NotEvacuated { moves: 30 }.code()));
    }

    #[test]
    fn a_win_sentence_names_the_winner_the_points_and_the_reason() {
        let o = Outcome::win(Color::Black, 4, EndReason::BoreOffGammon);
        assert_eq!(
            o.sentence(NAMES),
            "Bob wins 4 points: Bob bore off all their checkers before Ann bore off any (a \
             gammon)."
        );
        let o = Outcome::win(Color::White, 1, EndReason::AllInCamp);
        assert_eq!(
            o.sentence(NAMES),
            "Ann wins 1 point: all of Ann's pieces stand in Bob's starting camp."
        );
        let o = Outcome::win(Color::White, 1, EndReason::NotEvacuated { moves: 30 });
        assert!(o
            .sentence(NAMES)
            .contains("Bob still had a piece in their own starting camp after their 30th move"));
    }

    #[test]
    fn a_draw_sentence_says_drawn_and_why() {
        let o = Outcome::draw(EndReason::Repetition);
        assert_eq!(
            o.sentence(NAMES),
            "Drawn: the same position, with the same side to move, stood for the third time."
        );
    }

    #[test]
    fn a_match_sentence_gives_the_final_score_and_the_last_game() {
        let end = SessionEnd::Match {
            length: 5,
            score: ByColor { white: 3, black: 6 },
        };
        let o = Outcome::from_session(end, EndReason::CubeDropped);
        assert_eq!(o.winner, Some(Color::Black));
        assert_eq!(o.code(), "match-won");
        assert_eq!(
            o.sentence(NAMES),
            "Bob wins the 5-point match 6-3. The last game: Ann refused Bob's double."
        );
    }

    #[test]
    fn names_keep_their_case_in_sentences() {
        // issue 30: "Mochy_fan ran out of time" for the player who wrote mochy_fan
        let end = SessionEnd::Match {
            length: 3,
            score: ByColor { white: 1, black: 3 },
        };
        let o = Outcome::from_session(end, EndReason::TimeOut);
        let names = ByColor {
            white: "mochy_fan",
            black: "bob",
        };
        assert_eq!(
            o.sentence(names),
            "bob wins the 3-point match 3-1. The last game: mochy_fan ran out of time on the clock."
        );
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 30, 50, 101, 112]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "30th", "50th",
                "101st", "112th"
            ]
        );
    }

    #[test]
    fn a_resignation_without_answer_an_abandoned_game_and_an_abort_say_so() {
        let o = Outcome::win(Color::Black, 1, EndReason::Conceded);
        assert_eq!(o.code(), "resigned");
        assert_eq!(o.sentence(NAMES), "Bob wins 1 point: Ann resigned.");
        let o = Outcome::win(Color::White, 2, EndReason::Abandoned { days: 7 });
        assert_eq!(o.code(), "abandoned");
        assert_eq!(
            o.sentence(NAMES),
            "Ann wins 2 points: Bob left the game untouched for 7 days, which counts as resigning."
        );
        let o = Outcome::draw(EndReason::Aborted);
        assert_eq!(o.code(), "aborted");
        assert!(!EndReason::Aborted.is_draw());
        assert_eq!(
            o.sentence(NAMES),
            "Aborted: the game was called off before a move was made; no result, and nobody's \
             rating moves."
        );
        for code in ["resigned", "abandoned", "aborted"] {
            assert!(EndReason::CODES.contains(&code), "{code}");
        }
    }

    #[test]
    fn reasons_serialize_as_their_codes() {
        let o = Outcome::win(Color::White, 2, EndReason::Resigned(Level::Gammon));
        let json = serde_json::to_value(o).unwrap();
        assert_eq!(json["reason"], "resigned-gammon");
        assert_eq!(json["winner"], "white");
    }
}
