//! The [`Terminal`] trait: what a game adds to its [`Face`] to be played at a text terminal
//! (`tabula play`), written once per game in the game's folder: the narration of what
//! happened, the status line, the drawing of the board from a player's side, the help, the
//! prompt's hint, and the reading of a typed play or command ([`Command`]). No IO here: every
//! method returns text, and the CLI's one loop prints it and reads the lines.
//!
//! Also the words every game's terminal shares: the checker letters ([`checker`]), the
//! players' names, sentences made of error messages, and the score and final lines of the
//! sessions of the two tables games.

mod command;

pub use command::{parse, Command};

use crate::face::Face;
use tabula_core::{ByColor, Color, Decision, Outcome};

/// A game as a person plays it in a terminal. The narration's memory between calls (the
/// events told, a roll held back, the actions applied) is the game's [`Terminal::Narrator`],
/// kept beside the game by the driver.
pub trait Terminal: Face {
    /// What the narration remembers between calls.
    type Narrator: Clone;

    /// A narrator for this game that has told nothing yet.
    fn narrator(&self) -> Self::Narrator;
    /// Notes that `action` was played on `before` and gave `self`; called by [`play`] for
    /// every action applied. By default nothing is noted (the tables sessions keep their
    /// own event log).
    fn played(&self, _narrator: &mut Self::Narrator, _before: &Self, _action: &Self::Action) {}
    /// Lines for what happened since the last call.
    fn narrate(&self, narrator: &mut Self::Narrator) -> Vec<String>;
    /// A roll held back by the narrator (to be told with its play), as its own line, when a
    /// person must see it before the board. Games without dice hold nothing back.
    fn flush(&self, _narrator: &mut Self::Narrator) -> Option<String> {
        None
    }
    /// The drawing of the current state, seen from `viewer`'s side.
    fn drawing(&self, narrator: &Self::Narrator, viewer: Color) -> String;
    /// What the deciding player is asked ("White to play 6-5").
    fn status_line(&self) -> String;
    /// The legal plays when a move is due, with their text, in the order `moves` lists
    /// them; by default every legal action ([`Face::legal`]).
    fn plays(&self) -> Vec<(String, Self::Action)> {
        self.legal()
    }
    /// The play a person typed, or why it is refused, as the sentence to show
    /// ("Illegal move: ...").
    fn read_play(&self, text: &str) -> Result<Self::Action, String>;
    /// The action of any other command (roll, cube, resignation, pass, draw), or why it is
    /// refused.
    fn command(&self, command: &Command) -> Result<Self::Action, String>;
    /// The help text.
    fn help(&self) -> &'static str;
    /// The choices named in the prompt for a decision ("roll, double").
    fn hint(&self, decision: Decision) -> &'static str;
    /// Where the session stands, for the line printed on quitting, after "Stopped ":
    /// "in game 2, score 1-0 to 3", "at ply 12, White to move".
    fn progress(&self, narrator: &Self::Narrator) -> String;
    /// The last line once the game or session is over with `outcome`.
    fn final_line(&self, narrator: &Self::Narrator, outcome: &Outcome) -> String;
}

/// Applies `action` for the deciding player and notes it for the narration
/// ([`Terminal::played`]); a refusal changes nothing and comes back as the sentence to show.
pub fn play<T: Terminal>(
    game: &mut T,
    narrator: &mut T::Narrator,
    action: &T::Action,
) -> Result<(), String> {
    let before = game.clone();
    game.apply(action).map_err(|e| sentence(&e.to_string()))?;
    game.played(narrator, &before, action);
    Ok(())
}

/// The character drawn for a player's checkers or pieces: White `O`, Black `X`.
pub fn checker(color: Color) -> char {
    match color {
        Color::White => 'O',
        Color::Black => 'X',
    }
}

/// A colour's name as narrated and drawn: "White", "Black".
pub fn capitalized(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The players' names as narrated and drawn.
pub fn names() -> ByColor<String> {
    ByColor::new_with(|c| capitalized(c).to_string())
}

/// `text` with a capital first letter and a full stop: an error message as a sentence.
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// The score line: "score 2-0 to 5" (White's first), or money totals.
pub(crate) fn score_line(score: ByColor<u32>, match_length: Option<u32>) -> String {
    match match_length {
        Some(n) => format!("score {}-{} to {n}", score.white, score.black),
        None => format!("total White {}, Black {}", score.white, score.black),
    }
}

/// The last line of a tables session: who won the match, or the money totals.
pub(crate) fn session_final_line(
    score: ByColor<u32>,
    match_length: Option<u32>,
    games: usize,
    winner: Option<Color>,
) -> String {
    let s = score;
    let games = if games == 1 {
        "1 game".to_string()
    } else {
        format!("{games} games")
    };
    match (match_length, winner) {
        (Some(_), Some(w)) => format!(
            "{} wins the match {}-{} after {games}.",
            capitalized(w),
            s[w],
            s[!w]
        ),
        (None, Some(w)) => format!(
            "Session over after {games}: {} wins {} net ({}).",
            capitalized(w),
            s[w] - s[!w],
            score_line(score, match_length)
        ),
        (_, None) => format!(
            "Session over after {games}: all square ({}).",
            score_line(score, match_length)
        ),
    }
}

/// A game and its narrator, as the tests of each game's terminal drive them.
#[cfg(test)]
#[derive(Clone)]
pub(crate) struct Seat<T: Terminal> {
    /// The game.
    pub game: T,
    /// Its narration's memory.
    pub story: T::Narrator,
}

#[cfg(test)]
impl<T: Terminal> Seat<T> {
    /// A seat at `game`, nothing told yet.
    pub fn new(game: T) -> Seat<T> {
        Seat {
            story: game.narrator(),
            game,
        }
    }
    /// Plays `action` ([`play`]).
    pub fn apply(&mut self, action: T::Action) -> Result<(), String> {
        play(&mut self.game, &mut self.story, &action)
    }
    /// The lines since the last call.
    pub fn narrate(&mut self) -> Vec<String> {
        self.game.narrate(&mut self.story)
    }
    /// The final line of the finished game.
    pub fn final_line(&self) -> String {
        match self.game.status() {
            tabula_core::Status::Over(outcome) => self.game.final_line(&self.story, &outcome),
            other => panic!("the game is not over: {other:?}"),
        }
    }
}

#[cfg(test)]
impl<T: Terminal> std::ops::Deref for Seat<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_lines_name_the_winner_or_the_tie() {
        let score = ByColor { white: 3, black: 1 };
        assert_eq!(
            session_final_line(score, Some(3), 4, Some(Color::White)),
            "White wins the match 3-1 after 4 games."
        );
        assert_eq!(
            session_final_line(score, None, 1, Some(Color::White)),
            "Session over after 1 game: White wins 2 net (total White 3, Black 1)."
        );
        let even = ByColor { white: 1, black: 1 };
        assert_eq!(
            session_final_line(even, None, 2, None),
            "Session over after 2 games: all square (total White 1, Black 1)."
        );
    }
}
