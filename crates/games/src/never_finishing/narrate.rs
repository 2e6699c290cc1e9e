//! A Never-Finishing session's events in words: "Black rolls 5-3 and plays 13/8^".
//!
//! As for backgammon, a roll is held back until the next event so that a roll and its play
//! make one line, and told on its own when a person must decide next. The opening roll only
//! decides who starts (the winner rolls both dice again), and a game after the first is
//! started by the previous game's winner without an opening roll; both are said.

use crate::terminal::score_line;
use tabula_core::{ByColor, Color, DiceRoll};
use tabula_tables::never_finishing::{Action, NeverFinishing, NfEvent, NfGame, NfResult, Scoring};
use tabula_tables::notation::format_move_nf;

/// The score of a Never-Finishing session: "score 1-0 to 3" or the money totals.
pub fn nf_score_text(session: &NeverFinishing) -> String {
    let length = match session.options().scoring {
        Scoring::Match { length } => Some(u32::from(length)),
        Scoring::Money { .. } => None,
    };
    score_line(session.score(), length)
}

/// Turns a Never-Finishing session's events into lines of text.
#[derive(Debug, Default, Clone)]
pub struct NfNarrator {
    /// How many of the session's events have been told.
    seen: usize,
    /// A roll not yet told.
    pending: Option<(Color, DiceRoll)>,
    /// Names of the players.
    names: ByColor<String>,
}

impl NfNarrator {
    /// A narrator naming the players so.
    pub fn new(names: ByColor<String>) -> NfNarrator {
        NfNarrator {
            seen: 0,
            pending: None,
            names,
        }
    }

    /// Lines for the events logged since the last call. `before` is the game as it was before
    /// the last action, to tell which play a move was.
    pub fn narrate(&mut self, session: &NeverFinishing, before: &NfGame) -> Vec<String> {
        let mut lines = Vec::new();
        let events = &session.events()[self.seen.min(session.events().len())..];
        self.seen = session.events().len();
        for event in events {
            self.event(event, session, before, &mut lines);
        }
        lines
    }

    /// The held-back roll, if any, as its own line.
    pub fn flush(&mut self) -> Option<String> {
        self.pending
            .take()
            .map(|(p, roll)| format!("{} rolls {}", self.names[p], roll.dice()))
    }

    fn event(
        &mut self,
        event: &NfEvent,
        session: &NeverFinishing,
        before: &NfGame,
        lines: &mut Vec<String>,
    ) {
        // Anything but the play (or the pass) of a held roll tells the roll first.
        let plays_pending = match (event, self.pending) {
            (NfEvent::Moved { player, .. } | NfEvent::NoMove { player }, Some((p, _))) => {
                *player == p
            }
            _ => false,
        };
        if !plays_pending {
            lines.extend(self.flush());
        }
        let name = |c: Color| self.names[c].clone();
        match *event {
            NfEvent::GameStart { number, first } => {
                let mut line = format!("Game {number}");
                if number > 1 {
                    line.push_str(&format!(" ({})", nf_score_text(session)));
                }
                match first {
                    Some(first) => {
                        line.push_str(&format!(": {} won the last game and starts", name(first)))
                    }
                    // Only a drawn game leaves the start to an opening roll after game 1.
                    None if number > 1 => {
                        line.push_str(": the last game was drawn, the opening roll decides")
                    }
                    None => {}
                }
                lines.push(line);
            }
            NfEvent::Rolled { player: None, roll } => {
                let (w, b) = (roll.first.value(), roll.second.value());
                let (white, black) = (name(Color::White), name(Color::Black));
                lines.push(if w == b {
                    format!("Opening roll: {white} {w}, {black} {b}; a tie, roll again")
                } else {
                    let first = if w > b { white.clone() } else { black.clone() };
                    format!("Opening roll: {white} {w}, {black} {b}; {first} starts")
                });
            }
            NfEvent::Rolled {
                player: Some(p),
                roll,
            } => self.pending = Some((p, roll)),
            NfEvent::NoMove { player } => lines.push(match self.pending.take() {
                Some((_, roll)) => format!("{} rolls {}: no legal move", name(player), roll.dice()),
                None => format!("{}: no legal move", name(player)),
            }),
            NfEvent::Moved {
                player,
                action: Action::Move(after),
            } => {
                let text = before
                    .dice()
                    .and_then(|d| format_move_nf(&before.board(), &after, d))
                    .unwrap_or_else(|| "?".to_string());
                lines.push(match self.pending.take() {
                    Some((_, roll)) => {
                        format!("{} rolls {} and plays {text}", name(player), roll.dice())
                    }
                    None => format!("{} plays {text}", name(player)),
                });
            }
            NfEvent::GameOver(result) => lines.push(self.result(result, session)),
        }
    }

    /// A finished game: who won how many points and why (or the dead-position draw), then
    /// the score.
    fn result(&self, r: NfResult, session: &NeverFinishing) -> String {
        let names = ByColor {
            white: self.names.white.as_str(),
            black: self.names.black.as_str(),
        };
        let sentence = r.outcome().sentence(names);
        format!(
            "{}; {}",
            sentence.trim_end_matches('.'),
            nf_score_text(session)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{Dice, Game};
    use tabula_tables::never_finishing::NfOptions;
    use tabula_tables::notation::match_play_nf;
    use tabula_tables::{Position, Trapping};

    fn names() -> ByColor<String> {
        crate::terminal::names()
    }

    fn roll(n: &mut NfNarrator, s: &mut NeverFinishing, a: u8, b: u8) -> Vec<String> {
        let before = s.game().clone();
        s.roll(DiceRoll::new(a, b).unwrap()).unwrap();
        n.narrate(s, &before)
    }

    fn play(n: &mut NfNarrator, s: &mut NeverFinishing, text: &str) -> Vec<String> {
        let before = s.game().clone();
        let (_, after) =
            match_play_nf(&before.board(), before.dice().unwrap(), text).expect("legal");
        s.apply(&Action::Move(after)).unwrap();
        n.narrate(s, &before)
    }

    #[test]
    fn the_opening_roll_only_decides_who_starts() {
        let mut s = NeverFinishing::new(NfOptions::default()).unwrap();
        let mut n = NfNarrator::new(names());
        assert_eq!(n.narrate(&s, &s.game().clone()), ["Game 1"]);
        assert_eq!(
            roll(&mut n, &mut s, 2, 2),
            ["Opening roll: White 2, Black 2; a tie, roll again"]
        );
        assert_eq!(
            roll(&mut n, &mut s, 2, 5),
            ["Opening roll: White 2, Black 5; Black starts"]
        );
        assert!(roll(&mut n, &mut s, 5, 3).is_empty(), "held back");
        assert_eq!(
            play(&mut n, &mut s, "24/16"),
            ["Black rolls 5-3 and plays 24/16"]
        );
    }

    /// A session whose current game has `pips` (seen from White) with White to play `dice`.
    fn set_up(pips: [i8; 26], dice: (u8, u8)) -> NeverFinishing {
        let board = Position::from_parts(pips, 0).unwrap();
        let dice = Dice::new(dice.0, dice.1).unwrap();
        let game = NfGame::from_setup(board, Color::White, Some(dice), Trapping::On);
        NeverFinishing::from_game(NfOptions::default(), game, ByColor::default())
    }

    #[test]
    fn traps_and_hits_are_told_with_their_marks() {
        // White has five on its 13-point, Black a blot on White's 8-point.
        let mut pips = [0i8; 26];
        pips[13] = 5;
        pips[8] = -1;
        for (text, told) in [
            ("13/8^ 13/10", "White plays 13/10 13/8^"),
            ("13/8* 13/10", "White plays 13/10 13/8*"),
        ] {
            let mut s = set_up(pips, (5, 3));
            let mut n = NfNarrator::new(names());
            assert_eq!(play(&mut n, &mut s, text), [told]);
        }
    }

    #[test]
    fn the_winner_of_a_game_starts_the_next() {
        // White bears off its last two checkers; Black has one left: a single game.
        let mut pips = [0i8; 26];
        pips[1] = 2;
        pips[6] = -1;
        let mut s = set_up(pips, (6, 5));
        let mut n = NfNarrator::new(names());
        assert_eq!(
            play(&mut n, &mut s, "1/off(2)"),
            [
                "White plays 1/off(2)",
                "White wins 1 point: White bore off all their checkers first; score 1-0 to 3",
                "Game 2 (score 1-0 to 3): White won the last game and starts"
            ]
        );
        assert!(roll(&mut n, &mut s, 5, 3).is_empty(), "no opening roll");
        assert_eq!(
            play(&mut n, &mut s, "24/16"),
            ["White rolls 5-3 and plays 24/16"]
        );
    }

    #[test]
    fn a_dead_position_is_a_draw() {
        let r = NfResult {
            winner: None,
            points: 0,
            reason: tabula_core::EndReason::DeadPosition,
        };
        let s = NeverFinishing::new(NfOptions::default()).unwrap();
        let n = NfNarrator::new(names());
        assert_eq!(
            n.result(r, &s),
            "Drawn: no roll can ever move a checker of either side again (a dead position); \
             score 0-0 to 3"
        );
    }
}
