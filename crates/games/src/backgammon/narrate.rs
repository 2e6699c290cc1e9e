//! A backgammon session's events in words: "Black rolls 6-5 and plays 24/13".
//!
//! The narrator reads the events a session logged since it last looked. A roll is held back
//! until the next event so that a roll and the play of it make one line; it is written on its
//! own when a person must decide next (they need to see it before the board).

use tabula_core::{ByColor, Color, Dice, DiceRoll};
use tabula_tables::backgammon::{Action, Backgammon, Event, GameResult, GameState};
use tabula_tables::notation::format_move;
use tabula_tables::Position;

/// Turns events into lines of text.
#[derive(Debug, Default, Clone)]
pub struct Narrator {
    /// How many of the session's events have been told.
    seen: usize,
    /// A roll not yet told.
    pending: Option<(Color, DiceRoll)>,
    /// Names of the players.
    names: ByColor<String>,
}

/// The play from `board` with `dice` that reaches `after`, in gnubg notation.
pub fn play_text(board: &Position, dice: Dice, after: &Position) -> String {
    format_move(board, after, dice).unwrap_or_else(|| "?".to_string())
}

/// "a single game", "a gammon", "a backgammon".
fn kind(multiplier: u32) -> &'static str {
    match multiplier {
        1 => "a single game",
        2 => "a gammon",
        _ => "a backgammon",
    }
}

/// The score line: "score 2-0 to 5" (White's first), or money totals.
pub fn score_text(session: &Backgammon) -> String {
    crate::terminal::score_line(
        session.score(),
        session.options().match_length().map(u32::from),
    )
}

impl Narrator {
    /// A narrator naming the players so.
    pub fn new(names: ByColor<String>) -> Narrator {
        Narrator {
            seen: 0,
            pending: None,
            names,
        }
    }

    /// Lines for the events logged since the last call. `before` is the game as it was before
    /// the last action, to tell which play a move was.
    pub fn narrate(&mut self, session: &Backgammon, before: &GameState) -> Vec<String> {
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
        event: &Event,
        session: &Backgammon,
        before: &GameState,
        lines: &mut Vec<String>,
    ) {
        // Anything but the play of a held roll tells the roll first.
        let plays_pending = matches!(
            (event, self.pending),
            (Event::Acted { player, action: Action::Move(_) }, Some((p, _))) if *player == p
        ) || matches!(
            (event, self.pending),
            (Event::NoMove { player }, Some((p, _))) if *player == p
        );
        if !plays_pending {
            lines.extend(self.flush());
        }
        let name = |c: Color| self.names[c].clone();
        match *event {
            Event::GameStart { number, crawford } => {
                let mut line = format!("Game {number}");
                if number > 1 {
                    line.push_str(&format!(" ({})", score_text(session)));
                }
                if crawford {
                    line.push_str(", the Crawford game");
                }
                lines.push(line);
            }
            Event::Rolled { player: None, roll } => {
                let (w, b) = (roll.first.value(), roll.second.value());
                if w == b {
                    lines.push(format!(
                        "Opening roll: {} {w}, {} {b}; a tie, roll again",
                        name(Color::White),
                        name(Color::Black)
                    ));
                } else {
                    let first = if w > b { Color::White } else { Color::Black };
                    lines.push(format!(
                        "Opening roll: {} {w}, {} {b}; {} plays {} first",
                        name(Color::White),
                        name(Color::Black),
                        name(first),
                        roll.dice()
                    ));
                }
            }
            Event::Rolled {
                player: Some(p),
                roll,
            } => self.pending = Some((p, roll)),
            Event::NoMove { player } => match self.pending.take() {
                Some((_, roll)) => lines.push(format!(
                    "{} rolls {}: no legal move",
                    name(player),
                    roll.dice()
                )),
                None => lines.push(format!("{}: no legal move", name(player))),
            },
            Event::Acted { player, action } => {
                if let Some(line) = self.action(player, action, before) {
                    lines.push(line);
                }
            }
            Event::GameOver(result) => lines.push(self.result(result, session)),
        }
    }

    fn action(&mut self, player: Color, action: Action, before: &GameState) -> Option<String> {
        let name = self.names[player].clone();
        let cube = before.cube().value();
        Some(match action {
            Action::Roll => return None,
            Action::Move(after) => {
                let text = match before.dice() {
                    Some(d) => play_text(&before.board(), d, &after),
                    None => "?".to_string(),
                };
                match self.pending.take() {
                    Some((_, roll)) => format!("{name} rolls {} and plays {text}", roll.dice()),
                    None => format!("{name} plays {text}"),
                }
            }
            Action::Double => format!("{name} doubles to {}", cube * 2),
            Action::Take => format!("{name} takes"),
            Action::Drop => format!("{name} drops"),
            Action::Beaver => format!(
                "{name} beavers: the cube is {} and stays with {name}",
                cube * 4
            ),
            Action::Resign(level) => {
                format!("{name} offers to resign {}", kind(level.multiplier()))
            }
            Action::AcceptResignation => format!("{name} accepts the resignation"),
            Action::RejectResignation => format!("{name} rejects the resignation"),
        })
    }

    /// A finished game: who won how many points and why, then the score.
    fn result(&self, r: GameResult, session: &Backgammon) -> String {
        let names = ByColor {
            white: self.names.white.as_str(),
            black: self.names.black.as_str(),
        };
        let sentence = r.outcome().sentence(names);
        format!(
            "{}; {}",
            sentence.trim_end_matches('.'),
            score_text(session)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Game;
    use tabula_tables::backgammon::{Cube, Options};

    fn names() -> ByColor<String> {
        ByColor {
            white: "White".to_string(),
            black: "Black".to_string(),
        }
    }

    /// Applies `action` and returns what the narrator says about it.
    fn act(n: &mut Narrator, s: &mut Backgammon, action: Action) -> Vec<String> {
        let before = s.game().clone();
        s.apply(&action).unwrap();
        n.narrate(s, &before)
    }

    fn roll(n: &mut Narrator, s: &mut Backgammon, a: u8, b: u8) -> Vec<String> {
        let before = s.game().clone();
        s.roll(DiceRoll::new(a, b).unwrap()).unwrap();
        n.narrate(s, &before)
    }

    fn play(s: &Backgammon, text: &str) -> Action {
        let game = s.game();
        let (_, after) =
            tabula_tables::notation::match_play(&game.board(), game.dice().unwrap(), text).unwrap();
        Action::Move(after)
    }

    #[test]
    fn a_roll_and_its_play_make_one_line() {
        let mut s = Backgammon::new(Options::match_to(5).unwrap()).unwrap();
        let mut n = Narrator::new(names());
        assert_eq!(n.narrate(&s, &s.game().clone()), ["Game 1"]);
        assert_eq!(
            roll(&mut n, &mut s, 6, 5),
            ["Opening roll: White 6, Black 5; White plays 6-5 first"]
        );
        let mv = play(&s, "24/13");
        assert_eq!(act(&mut n, &mut s, mv), ["White plays 24/13"]);
        assert!(act(&mut n, &mut s, Action::Roll).is_empty());
        assert!(roll(&mut n, &mut s, 1, 3).is_empty(), "held back");
        let mv = play(&s, "8/5 6/5");
        assert_eq!(
            act(&mut n, &mut s, mv),
            ["Black rolls 3-1 and plays 8/5 6/5"]
        );
        assert_eq!(act(&mut n, &mut s, Action::Double), ["White doubles to 2"]);
        assert_eq!(
            act(&mut n, &mut s, Action::Drop),
            [
                "Black drops",
                "White wins 1 point: Black refused White's double; score 1-0 to 5",
                "Game 2 (score 1-0 to 5)"
            ]
        );
    }

    #[test]
    fn a_roll_without_a_move_is_told_with_its_dice() {
        // White, on roll, has a checker on the bar against Black's closed board.
        let mut white = [0u8; 25];
        white[24] = 1;
        white[5] = 14;
        let mut black = [0u8; 25];
        black[..6].fill(2);
        black[10] = 3;
        let board = tabula_tables::Position::from_counts(&white, &black).unwrap();
        let options = Options::money();
        let game = GameState::from_setup(
            options,
            board,
            Color::White,
            Cube::CENTRED,
            // No cube in play, so that both players roll at once.
            false,
            None,
        );
        let mut s = Backgammon::from_game(options, game, ByColor::default(), false).unwrap();
        let mut n = Narrator::new(names());
        assert_eq!(
            roll(&mut n, &mut s, 6, 5),
            ["White rolls 6-5: no legal move"]
        );
        // Black's roll is held back until it is played or a person needs to see it.
        assert!(roll(&mut n, &mut s, 2, 1).is_empty());
        assert_eq!(n.flush().as_deref(), Some("Black rolls 2-1"));
    }

    #[test]
    fn results_name_the_kind_of_win() {
        let mut s = Backgammon::new(Options::match_to(3).unwrap()).unwrap();
        let mut n = Narrator::new(names());
        n.narrate(&s, &s.game().clone());
        roll(&mut n, &mut s, 6, 5);
        let mv = play(&s, "24/13");
        act(&mut n, &mut s, mv);
        act(&mut n, &mut s, Action::Roll);
        roll(&mut n, &mut s, 2, 1);
        assert_eq!(
            act(
                &mut n,
                &mut s,
                Action::Resign(tabula_tables::backgammon::ResignLevel::Gammon)
            ),
            ["Black rolls 2-1", "Black offers to resign a gammon"]
        );
        assert_eq!(
            act(&mut n, &mut s, Action::AcceptResignation),
            [
                "White accepts the resignation",
                "White wins 2 points: Black resigned a gammon and White accepted; score 2-0 to 3",
                "Game 2 (score 2-0 to 3), the Crawford game"
            ]
        );
    }
}
