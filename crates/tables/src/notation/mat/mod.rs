//! A backgammon session (a match or a money session) as a Jellyfish `.mat` file, the text
//! format GNU Backgammon imports with `import mat` and writes with `export match mat`.
//!
//! The layout follows what gnubg 1.07 writes, as observed in its own exports (the full
//! description, with what gnubg reads differently, is in `docs/notation.md`, "Jellyfish .mat
//! export"):
//!
//! ```text
//! ; [Crawford "On"]
//!
//!  3 point match
//!
//!  Game 1
//!  Alice : 0                      Bob : 0
//!   1) 31: 8/5 6/5                  Doubles => 2
//!   2)  Takes                      64: 24/18 13/9
//!   3)  Doubles => 4                Drops
//!       Wins 2 points
//! ```
//!
//! White is the first (left) column, gnubg's player 0; Black the second (right) column,
//! gnubg's player 1. A money session is a ` 0 point match`. Each turn is one entry in the
//! mover's column: the dice, larger first, then one `from/to` step per die in the order the
//! checkers moved, points counted from the mover's side (25 the bar, 0 off), `*` on a step that
//! hits; a roll that cannot be played is the dice alone. Cube actions take a column entry of
//! their own (` Doubles => 2`, ` Takes`, ` Drops`, ` Beavers => 4`). Resignations are not
//! written: the game just ends with its `Wins` line, and dice rolled before a resignation are
//! left out.
//!
//! Reading: [`read_mat`] parses a file into its games and column entries ([`read`]), and
//! [`replay_mat`] plays it through the rules engine, returning every decision ([`replay`]).

mod error;
pub mod read;
#[cfg(test)]
mod read_tests;
pub mod replay;
#[cfg(test)]
mod tests;

pub use error::{MatError, MatErrorKind};
pub use read::{read_mat, MatEntry, MatGame, MatItem, MatSession};
pub use replay::{replay_mat, replay_session, Replay, ReplayStep};

use crate::backgammon::{Action, Backgammon, Event, GameResult, Mode, MAX_CUBE};
use crate::position::Position;
use std::fmt::Write;
use tabula_core::{ByColor, Color, Dice};

/// The width of the first column's entries; with the move number and one space after it the
/// second column starts at character 33.
const LEFT_WIDTH: usize = 27;

const TAKES: &str = " Takes";

/// One entry of a game's move list, in its player's column.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    player: Color,
    kind: Kind,
    text: String,
}

/// What an entry is, where that changes what may follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A refused double: a second player's `Wins` after it goes on the same line.
    Drop,
    /// A beaver: gnubg wants the doubler to settle it before the game can end.
    Beaver,
    /// Anything else.
    Other,
}

/// One game as it will be written.
#[derive(Debug, Clone, Default)]
struct GameLog {
    /// The score before the game.
    score: ByColor<u32>,
    entries: Vec<Entry>,
    result: Option<GameResult>,
}

/// The session written as a Jellyfish `.mat` file (see the module documentation). `names` are
/// the players' names; a `:` or a control character in a name (which gnubg cannot read) becomes
/// `_`, and an empty name is replaced by the colour's name.
///
/// Games appear in the order played, numbered from 1; a game in progress is written up to its
/// last finished turn (dice not yet played are left out), and a game not yet begun is not
/// written. A session set up mid-game ([`Backgammon::from_game`]) starts with the first game
/// begun after the set-up, at the score it was begun at.
pub fn export_mat(session: &Backgammon, names: ByColor<&str>) -> String {
    let games = collect_games(session);
    let names = ByColor::new_with(|c| clean_name(names[c], c));
    let mut out = String::new();
    match session.options().mode {
        Mode::Match { length, crawford } => {
            let _ = writeln!(out, "; [Crawford \"{}\"]", on_off(crawford));
            out.push('\n');
            let _ = writeln!(out, " {length} point match");
        }
        Mode::Money {
            beavers, jacoby, ..
        } => {
            let _ = writeln!(out, "; [Jacoby \"{}\"]", on_off(jacoby));
            let _ = writeln!(out, "; [Beaver \"{}\"]", on_off(beavers));
            out.push('\n');
            out.push_str(" 0 point match\n");
        }
    }
    out.push('\n');
    for (i, game) in games.iter().enumerate() {
        write_game(&mut out, i + 1, game, &names);
    }
    out
}

fn on_off(flag: bool) -> &'static str {
    if flag {
        "On"
    } else {
        "Off"
    }
}

fn clean_name(name: &str, color: Color) -> String {
    let name: String = name
        .trim()
        .chars()
        .map(|c| if c == ':' || c.is_control() { '_' } else { c })
        .collect();
    if name.is_empty() {
        match color {
            Color::White => "White".to_string(),
            Color::Black => "Black".to_string(),
        }
    } else {
        name
    }
}

/// Replays the event log into the games to write.
fn collect_games(session: &Backgammon) -> Vec<GameLog> {
    // The score before the first logged game: the current score less every logged result.
    let mut score = session.score();
    for r in session.results() {
        score[r.winner] -= r.points;
    }
    let automatic_doubles = match session.options().mode {
        Mode::Money {
            automatic_doubles, ..
        } => automatic_doubles,
        Mode::Match { .. } => 0,
    };
    let mut games: Vec<GameLog> = Vec::new();
    // The board seen from the player on turn, the cube value and the dice to play.
    let mut board = Position::START;
    let mut cube = 1u32;
    let mut ties = 0u8;
    let mut dice: Option<Dice> = None;
    for event in session.events() {
        if let Event::GameOver(result) = event {
            if let Some(game) = games.last_mut() {
                game.result = Some(*result);
            }
            score[result.winner] += result.points;
            continue;
        }
        if let Event::GameStart { .. } = event {
            games.push(GameLog {
                score,
                ..GameLog::default()
            });
            (board, cube, ties, dice) = (Position::START, 1, 0, None);
            continue;
        }
        // Events of a game set up before the log began are not written.
        let Some(game) = games.last_mut() else {
            continue;
        };
        let mut push = |player, kind, text| game.entries.push(Entry { player, kind, text });
        match *event {
            Event::Rolled { player: None, roll } => {
                if roll.first == roll.second {
                    // A tie, rolled again; with automatic doubles it doubled the cube.
                    if ties < automatic_doubles && cube * 2 <= MAX_CUBE {
                        ties += 1;
                        cube *= 2;
                    }
                } else {
                    board = Position::START;
                    dice = Some(roll.dice());
                }
            }
            Event::Rolled {
                player: Some(_),
                roll,
            } => dice = Some(roll.dice()),
            Event::NoMove { player } => {
                if let Some(d) = dice.take() {
                    push(player, Kind::Other, dice_text(d));
                }
                board = board.flip();
            }
            Event::Acted { player, action } => match action {
                Action::Double => {
                    push(player, Kind::Other, format!(" Doubles => {}", cube * 2));
                }
                Action::Take => {
                    cube *= 2;
                    push(player, Kind::Other, TAKES.to_string());
                }
                Action::Beaver => {
                    cube *= 4;
                    push(player, Kind::Beaver, format!(" Beavers => {cube}"));
                }
                Action::Drop => push(player, Kind::Drop, " Drops".to_string()),
                Action::Move(after) => {
                    if let Some(d) = dice.take() {
                        let mut text = dice_text(d);
                        text.push_str(&steps_text(&board, &after, d));
                        push(player, Kind::Other, text);
                    }
                    board = after.flip();
                }
                // Dice rolled before a resignation are not written: gnubg would play a forced
                // move for them when reading. A doubler who resigns before playing after a
                // beaver is written as taking it, which gnubg needs to end the game cleanly.
                Action::AcceptResignation => {
                    dice = None;
                    let last = game.entries.last();
                    if last.is_some_and(|e| e.kind == Kind::Beaver && e.player == player) {
                        game.entries.push(Entry {
                            player: !player,
                            kind: Kind::Other,
                            text: TAKES.to_string(),
                        });
                    }
                }
                Action::Roll | Action::Resign(_) | Action::RejectResignation => {}
            },
            Event::GameStart { .. } | Event::GameOver(_) => {}
        }
    }
    // A game begun but not yet rolled for has nothing to show.
    if games
        .last()
        .is_some_and(|g| g.entries.is_empty() && g.result.is_none())
    {
        games.pop();
    }
    games
}

/// `52: `: the dice, larger first.
fn dice_text(dice: Dice) -> String {
    format!("{}{}: ", dice.big(), dice.small())
}

/// The steps of the play from `before` to `after` (seen from the mover), one `from/to` per
/// die in the order made, `*` on a hit; each followed by a space except a fourth.
fn steps_text(before: &Position, after: &Position, dice: Dice) -> String {
    let plays = before.legal_plays(dice);
    let Some((play, _)) = plays.iter().find(|(_, p)| p == after) else {
        debug_assert!(false, "the log holds a play the dice do not allow");
        return String::new();
    };
    let mut out = String::new();
    for (i, step) in play.steps().iter().enumerate() {
        let _ = write!(out, "{}/{}", step.from, step.to);
        if step.hit {
            out.push('*');
        }
        if i < 3 {
            out.push(' ');
        }
    }
    out
}

fn column(player: Color) -> usize {
    match player {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn write_game(out: &mut String, number: usize, game: &GameLog, names: &ByColor<String>) {
    let _ = writeln!(out, " Game {number}");
    let white = format!("{} : {}", names.white, game.score.white);
    let _ = writeln!(out, " {white:<31}{} : {}", names.black, game.score.black);
    // Entries alternate between the players; slot 2n is line n+1's first column.
    let mut slots: Vec<Option<&Entry>> = Vec::new();
    for entry in &game.entries {
        if slots.len() % 2 != column(entry.player) {
            slots.push(None);
        }
        slots.push(Some(entry));
    }
    let mut lines: Vec<String> = slots
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let left = pair[0].map_or("", |e| e.text.as_str());
            let mut line = format!("{:>3}) {left:<LEFT_WIDTH$} ", i + 1);
            if let Some(Some(right)) = pair.get(1) {
                line.push_str(&right.text);
            }
            line
        })
        .collect();
    if let Some(result) = game.result {
        let wins = format!(
            "Wins {} point{}",
            result.points,
            if result.points == 1 { "" } else { "s" }
        );
        // When the first player drops, gnubg writes the second player's `Wins` in the second
        // column of that line (and reads a `Wins` line of its own there wrongly).
        let dropped = slots.len() % 2 == 1
            && slots
                .last()
                .copied()
                .flatten()
                .is_some_and(|e| e.kind == Kind::Drop);
        match (result.winner, lines.last_mut()) {
            (Color::Black, Some(line)) if dropped => line.push_str(&format!(" {wins} ")),
            (Color::White, _) => lines.push(format!("      {wins}")),
            (Color::Black, _) => lines.push(format!("{:34}{wins}", "")),
        }
    }
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
}
