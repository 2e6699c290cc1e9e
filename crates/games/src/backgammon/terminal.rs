//! Backgammon at the terminal: the [`Terminal`] of a backgammon session with its cube (the
//! narration is [`narrate`](super::narrate)'s, the drawing [`drawing`](super::drawing)'s).

use super::drawing::{render, BoardView, CubeView, HomeSide, Layout, ScoreView};
use super::narrate::{score_text, Narrator};
use crate::terminal::{names, session_final_line, Command, Terminal};
use tabula_core::{Color, Decision, Game, Outcome, Status};
use tabula_tables::backgammon::{Action, Backgammon, GameState, Phase};
use tabula_tables::notation::{format_play, match_play};

/// The help text.
const HELP: &str = "\
Commands:
  <move>          play the dice in gnubg notation: 24/18 13/8, bar/22*, 6/off, 8/2(2)
  roll            roll the dice (an empty line does too)
  double          offer the cube
  take | drop     answer a double (drop is also `pass`)
  beaver          take and redouble at once (money play with beavers)
  resign [single|gammon|backgammon]
                  offer to resign (single by default)
  accept | reject answer a resignation offer
  moves           list the legal moves; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// The narration's memory: the narrator, and the game before the last action (to tell
/// which play a move was).
#[derive(Debug, Clone)]
pub struct Story {
    narrator: Narrator,
    before: GameState,
}

/// The drawing's contents.
fn view(session: &Backgammon) -> BoardView {
    let game = session.game();
    let mut view = BoardView::new(game.board(), game.turn());
    view.names = names();
    view.cube = Some(if session.is_crawford_game() {
        CubeView::Crawford
    } else {
        match game.cube().owner() {
            Some(owner) => CubeView::Owned(game.cube().value(), owner),
            None => CubeView::Centred(game.cube().value()),
        }
    });
    view.score = Some(ScoreView {
        points: session.score(),
        match_length: session.options().match_length().map(u32::from),
    });
    view.dice = game.dice();
    view.status = Some(session.status_line());
    view
}

impl Terminal for Backgammon {
    type Narrator = Story;

    fn narrator(&self) -> Story {
        Story {
            narrator: Narrator::new(names()),
            before: self.game().clone(),
        }
    }

    fn narrate(&self, story: &mut Story) -> Vec<String> {
        let lines = story.narrator.narrate(self, &story.before);
        story.before = self.game().clone();
        lines
    }

    fn flush(&self, story: &mut Story) -> Option<String> {
        story.narrator.flush()
    }

    fn drawing(&self, _story: &Story, viewer: Color) -> String {
        let layout = Layout {
            viewer,
            home: HomeSide::Right,
        };
        render(&view(self), layout)
    }

    fn status_line(&self) -> String {
        let game = self.game();
        let names = names();
        let turn = &names[game.turn()];
        match (self.status(), game.phase()) {
            (_, Phase::Resigning { level, .. }) => {
                format!("{turn} offers to resign ({})", level.name())
            }
            (Status::Decide { decision, player }, _) => {
                let name = &names[player];
                match decision {
                    Decision::DoubleOrRoll => format!("{name} to roll or double"),
                    Decision::TakeOrDrop => {
                        format!(
                            "{turn} doubles to {}: take or drop?",
                            game.cube().value() * 2
                        )
                    }
                    Decision::Move => match game.dice() {
                        Some(d) => format!("{name} to play {d}"),
                        None => format!("{name} to move"),
                    },
                    Decision::ResignationAnswer => format!("{name} to accept or reject"),
                }
            }
            _ => format!("{turn} on roll"),
        }
    }

    fn plays(&self) -> Vec<(String, Action)> {
        let game = self.game();
        let Some(dice) = game.dice() else {
            return Vec::new();
        };
        game.board()
            .legal_plays(dice)
            .iter()
            .map(|(play, after)| (format_play(play), Action::Move(*after)))
            .collect()
    }

    fn read_play(&self, text: &str) -> Result<Action, String> {
        let game = self.game();
        let dice = game
            .dice()
            .ok_or("Illegal move: there are no dice to play")?;
        match_play(&game.board(), dice, text)
            .map(|(_, after)| Action::Move(after))
            .map_err(|e| format!("Illegal move: {e}"))
    }

    fn command(&self, command: &Command) -> Result<Action, String> {
        Ok(match *command {
            Command::Roll => Action::Roll,
            Command::Double => Action::Double,
            Command::Take => Action::Take,
            // `pass` is the other word for dropping a double.
            Command::Drop | Command::Pass => Action::Drop,
            Command::Beaver => Action::Beaver,
            Command::Resign(level) => Action::Resign(level),
            Command::Accept => Action::AcceptResignation,
            Command::Reject => Action::RejectResignation,
            _ => return Err(format!("You cannot do that now: {}.", self.status_line())),
        })
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn hint(&self, decision: Decision) -> &'static str {
        match decision {
            Decision::DoubleOrRoll => "roll, double",
            Decision::TakeOrDrop => "take, drop",
            Decision::Move => "move",
            Decision::ResignationAnswer => "accept, reject",
        }
    }

    fn progress(&self, _story: &Story) -> String {
        format!("in game {}, {}", self.game_number(), score_text(self))
    }

    fn final_line(&self, _story: &Story, outcome: &Outcome) -> String {
        session_final_line(
            self.score(),
            self.options().match_length().map(u32::from),
            self.results().len(),
            outcome.winner,
        )
    }
}
